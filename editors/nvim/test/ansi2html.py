#!/usr/bin/env python3
"""Turns a terminal capture with colours (tmux capture-pane -e -p) into an HTML page,
for screenshot.sh. Handles the SGR codes Neovim uses with termguicolors."""
import html, re, sys

BASIC = ['#000000', '#cd3131', '#0dbc79', '#e5e510', '#2472c8', '#bc3fbc', '#11a8cd', '#e5e5e5',
         '#666666', '#f14c4c', '#23d18b', '#f5f543', '#3b8eea', '#d670d6', '#29b8db', '#ffffff']

def c256(n):
    if n < 16: return BASIC[n]
    if n < 232:
        n -= 16
        v = [0, 95, 135, 175, 215, 255]
        return '#%02x%02x%02x' % (v[n // 36], v[n // 6 % 6], v[n % 6])
    g = 8 + (n - 232) * 10
    return '#%02x%02x%02x' % (g, g, g)

def main():
    fg0, bg0 = sys.argv[1], sys.argv[2]
    out = []
    st = {}
    for line in sys.stdin.read().split('\n'):
        pos = 0
        row = []
        for m in re.finditer(r'\x1b\[([0-9;:]*)m', line + '\x1b[m'):
            text = line[pos:m.start()]
            if text:
                style = 'color:%s;background:%s' % (st.get('fg', fg0), st.get('bg', bg0))
                if st.get('rev'): style = 'color:%s;background:%s' % (st.get('bg', bg0), st.get('fg', fg0))
                if st.get('b'): style += ';font-weight:bold'
                if st.get('i'): style += ';font-style:italic'
                if st.get('u'): style += ';text-decoration:underline'
                if st.get('uc'): style += ';text-decoration:underline wavy %s' % st['uc']
                row.append('<span style="%s">%s</span>' % (style, html.escape(text)))
            pos = m.end()
            codes = [c for c in re.split('[;:]', m.group(1))] or ['0']
            i = 0
            while i < len(codes):
                c = int(codes[i] or 0)
                if c == 0: st = {}
                elif c == 1: st['b'] = 1
                elif c == 3: st['i'] = 1
                elif c == 4: st['u'] = 1
                elif c == 7: st['rev'] = 1
                elif c in (22,): st.pop('b', None)
                elif c in (23,): st.pop('i', None)
                elif c in (24,): st.pop('u', None); st.pop('uc', None)
                elif c in (27,): st.pop('rev', None)
                elif c in (38, 48, 58) and i + 1 < len(codes):
                    key = {38: 'fg', 48: 'bg', 58: 'uc'}[c]
                    if codes[i + 1] == '2':
                        st[key] = '#%02x%02x%02x' % tuple(int(x) for x in codes[i + 2:i + 5]); i += 4
                    else:
                        st[key] = c256(int(codes[i + 2])); i += 2
                elif c == 39: st.pop('fg', None)
                elif c == 49: st.pop('bg', None)
                elif 30 <= c <= 37: st['fg'] = BASIC[c - 30]
                elif 40 <= c <= 47: st['bg'] = BASIC[c - 40]
                elif 90 <= c <= 97: st['fg'] = BASIC[c - 82]
                elif 100 <= c <= 107: st['bg'] = BASIC[c - 92]
                i += 1
        out.append(''.join(row))
    print('<!doctype html><meta charset="utf-8"><body style="margin:0;background:%s">'
          '<pre style="margin:0;padding:8px;font:15px/1.25 \'DejaVu Sans Mono\',monospace;color:%s">%s</pre>'
          % (bg0, fg0, '\n'.join(out)))

main()
