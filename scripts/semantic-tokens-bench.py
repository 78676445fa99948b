#!/usr/bin/env python3
"""Semantic tokens over stdio: time of semanticTokens/full on one expression of N terms
(`x = 1 + 1 + ... + 1`), and on a 50,000-line source the full tokens then the delta
after a line is inserted (time and size of each answer).

usage: scripts/semantic-tokens-bench.py target/release/gcn-lsp

Figures (release builds, 2 shared cores; before: 58efd7e, after: the linear walk,
off-loop tokens and full/delta; the full request comes right after didOpen, beside the
analysis):
  expression of   5,000 / 10,000 / 20,000 / 40,000 / 100,000 terms:
    before  0.06 / 0.22 / 0.68 / 2.66 / 36.1 s
    after   0.01 / 0.03 / 0.04 / 0.07 / 0.18 s
  50,000 lines (1,250,050 integers, 2.6 MB): full 0.84 s before, 0.35 s after; after an
  inserted line, full/delta answers one edit of 10 integers (122 bytes) in 0.18 s
  (before, full/delta was not offered: every edit cost the 2.6 MB full answer).
Then labels told from symbols (a scan of the top-level statements before the walk) and
at most 10,000 operators in a row (the rest of the line an error node): 0.01 / 0.02 /
0.02 / 0.05 / 0.16 s; 50,000 lines full 0.27 s, delta 0.20 s (a first version found the
labels with a walk of every node: full 0.46 s)."""
import json, os, subprocess, sys, tempfile, time

server = os.path.abspath(sys.argv[1])

class Client:
    def __init__(self):
        self.p = subprocess.Popen([server], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.id = 0
        caps = {'textDocument': {'semanticTokens': {'requests': {'full': {'delta': True}, 'range': True},
                                                    'tokenTypes': [], 'tokenModifiers': [], 'formats': ['relative']}},
                'general': {'positionEncodings': ['utf-8']}}
        self.request('initialize', {'processId': None, 'rootUri': None, 'capabilities': caps})
        self.notify('initialized', {})

    def send(self, m):
        b = json.dumps(m).encode()
        self.p.stdin.write(b'Content-Length: %d\r\n\r\n' % len(b) + b)
        self.p.stdin.flush()

    def recv(self):
        headers = {}
        while True:
            line = self.p.stdout.readline()
            if line in (b'\r\n', b''):
                break
            k, v = line.decode().split(':', 1)
            headers[k.lower()] = v.strip()
        body = self.p.stdout.read(int(headers['content-length']))
        return json.loads(body), len(body)

    def notify(self, method, params):
        self.send({'jsonrpc': '2.0', 'method': method, 'params': params})

    def request(self, method, params):
        self.id += 1
        t = time.perf_counter()
        self.send({'jsonrpc': '2.0', 'id': self.id, 'method': method, 'params': params})
        while True:
            m, n = self.recv()
            if m.get('id') == self.id and 'method' not in m:
                return m.get('result'), n, time.perf_counter() - t
            if 'id' in m and 'method' in m:
                self.send({'jsonrpc': '2.0', 'id': m['id'], 'result': None})

    def open(self, uri, text):
        self.notify('textDocument/didOpen', {'textDocument': {'uri': uri, 'languageId': 'clrx', 'version': 1, 'text': text}})

    def close(self):
        self.request('shutdown', None)
        self.notify('exit', None)

root = tempfile.mkdtemp()
for terms in (5000, 10000, 20000, 40000, 100000):
    c = Client()
    uri = f'file://{root}/expr{terms}.s'
    c.open(uri, 'x = 1' + ' + 1' * (terms - 1) + '\n')
    result, size, t = c.request('textDocument/semanticTokens/full', {'textDocument': {'uri': uri}})
    print(f'{terms:>7} terms: full {t:.2f} s, {len(result["data"])} integers')
    c.close()

body = ['        v_add_f32 v1, v2, v3 # add', '        s_mov_b32 s4, 0x1234', '        v_mul_lo_u32 v3, v2, 3', '        s_load_dwordx2 s[4:5], s[0:1], 0x8']
lines = ['.gallium', '.gpu Tonga', '.kernel k', '    .config', '        .dims x', '.text', 'k:'] + [body[i % 4] for i in range(50000)]
c = Client()
uri = f'file://{root}/big.s'
c.open(uri, '\n'.join(lines) + '\n')
result, size, t = c.request('textDocument/semanticTokens/full', {'textDocument': {'uri': uri}})
print(f'50,000 lines: full {t:.2f} s, {size} bytes, {len(result["data"])} integers')
c.notify('textDocument/didChange', {'textDocument': {'uri': uri, 'version': 2}, 'contentChanges': [
    {'range': {'start': {'line': 25000, 'character': 0}, 'end': {'line': 25000, 'character': 0}}, 'text': '        s_bogus 1\n'}]})
result, size, t = c.request('textDocument/semanticTokens/full/delta', {'textDocument': {'uri': uri}, 'previousResultId': result.get('resultId')})
if result and 'edits' in result:
    ints = sum(len(e.get('data', [])) for e in result['edits'])
    print(f'after a line inserted: delta {t:.2f} s, {size} bytes, {len(result["edits"])} edit(s) of {ints} integers')
else:
    print(f'after a line inserted: {t:.2f} s, {size} bytes, no delta: {str(result)[:80]}')
c.close()
