#!/usr/bin/env python3
"""Latency of hover, completion and signature help on a 100,000-line source, over stdio.

usage: scripts/lsp-request-latency.py target/release/gcn-lsp [LINES]

Uses the probes' LSP client (../shared/probes/lspclient.py, beside the repository).
Prints p50 and p99 in milliseconds for 200 requests of each kind at scattered lines."""
import os, sys, time, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'shared', 'probes'))
from lspclient import Client
server = os.path.abspath(sys.argv[1])
root = tempfile.mkdtemp()
lines = ['.gallium', '.gpu Tonga', '.kernel k', '    .config', '        .dims x', '.text', 'k:']
body = ['        v_add_f32 v1, v2, v3', '        s_mov_b32 s4, 0x1234', '        v_mul_lo_u32 v3, v2, 3', '        s_load_dwordx2 s[4:5], s[0:1], 0x8']
n = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
for i in range(n):
    lines.append(body[i % 4])
    if i % 1000 == 0:
        lines.append(f'lbl{i}:')
text = '\n'.join(lines) + '\n'
p = os.path.join(root, 'big.s'); open(p, 'w').write(text)
u = 'file://' + p
c = Client([server], root)
c.initialize({'diagnosticsDelay': 0})
c.open(u, text)
time.sleep(3)
def measure(method, mk, k=200):
    ts = []
    for i in range(k):
        t = time.perf_counter(); r = c.request(method, mk(i)); ts.append((time.perf_counter() - t) * 1000)
        assert 'result' in r, r
    ts.sort()
    return ts[len(ts)//2], ts[int(len(ts)*0.99)-1]
total = len(lines)
def pos(i, ch):
    line = 7 + (i * 487) % (total - 8)
    return {'textDocument': {'uri': u}, 'position': {'line': line, 'character': ch}}
print('hover instr p50/p99 ms', measure('textDocument/hover', lambda i: pos(i, 10)))
print('hover operand p50/p99 ms', measure('textDocument/hover', lambda i: pos(i, 19)))
print('completion operand p50/p99 ms', measure('textDocument/completion', lambda i: pos(i, 22)))
print('completion head (prefix v_a) p50/p99 ms', measure('textDocument/completion', lambda i: pos(i, 11)))
print('signatureHelp p50/p99 ms', measure('textDocument/signatureHelp', lambda i: pos(i, 22)))
c.close()
