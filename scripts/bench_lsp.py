#!/usr/bin/env python3
"""Latency of the language server on generated sources, beside the command-line assembler.

usage: bench_lsp.py GCN_LSP GCNASM [LINES...] [--edits N]

For each size (default 10000 and 100000 lines) a GalliumCompute/Tonga project is
generated in a scratch folder: 20 kernels of instruction lines, a macro from an included
file, repetitions, loops with branches. The server (`diagnosticsDelay` 0) is driven over
stdio:
- open -> first diagnostics;
- N one-character edits in the middle (a register number changed and changed back),
  each followed by the diagnostics of that version (p50, p99);
- `gcn/registerUsage` (p50, p99);
- hover (an instruction, a loop label at its branch), definition (the branch's label),
  references (a loop label; the included macro, used by every kernel) and completion at
  the start of an instruction line, each at places scattered over the kernels (p50, p99);
- the server's peak resident memory;
and `gcnasm` assembles the same text (median of 3). The run fails (exit 1) if the server
reports an error for the valid source, misses a version, answers register counts that
differ from `gcnasm --emit reg-usage`, or answers a request wrongly (a hover without the
instruction or label, a definition elsewhere than the label, a wrong number of
references, a completion without `s_nop`): the timings of a wrong run are void."""
import json, os, queue, statistics, subprocess, sys, tempfile, threading, time

INSTRUCTIONS = [
    "s_mov_b32 s4, s5", "s_add_u32 s6, s6, 16", "s_and_b64 s[8:9], s[8:9], exec",
    "s_lshl_b32 s7, s7, 2", "s_cmp_lt_u32 s4, 64", "s_waitcnt lgkmcnt(0)",
    "s_load_dwordx2 s[10:11], s[0:1], 0x8", "v_mov_b32 v1, s4", "v_add_f32 v2, v1, v3",
    "v_mul_f32 v4, v2, 0.5", "v_mad_f32 v5, v2, v3, v4", "v_add_u32 v6, vcc, v1, v2",
    "v_cndmask_b32 v7, v1, v2, vcc", "v_cmp_gt_f32 vcc, v2, v3", "v_max_f32 v8, v4, v5",
    "v_lshlrev_b32 v9, 2, v0", "v_cvt_f32_u32 v10, v9", "v_fma_f32 v11, v10, v2, v3",
    "flat_load_dword v12, v[1:2]", "flat_store_dword v[3:4], v12",
    "buffer_load_dword v13, v1, s[12:15], 0 offen", "ds_write_b32 v1, v2",
    "ds_read_b32 v14, v1", "v_sqrt_f32 v15, v14", "v_rcp_f32 v16, v15",
]

HELPERS = """.macro twice op, r
        \\op \\r, \\r, \\r
        \\op \\r, \\r, \\r
.endm
"""


def generate(lines):
    kernels = 20
    per = max(10, lines // kernels - 16)
    out = [".gallium", ".gpu Tonga", '.include "inc/helpers.s"']
    for k in range(kernels):
        out += [f".kernel k{k}", "    .config", "        .dims x"]
    out.append(".text")
    target = None
    places = []  # per kernel: (loop label line, branch line, macro call line)
    for k in range(kernels):
        out += [f"k{k}:", "        s_mov_b32 s2, 8", f"loop{k}:"]
        label = len(out) - 1
        for i in range(per):
            if k == kernels // 2 and i == per // 2:
                target = len(out)
                out.append("        v_mov_b32 v1, v2")
            else:
                out.append("        " + INSTRUCTIONS[(k * per + i) % len(INSTRUCTIONS)])
        call = len(out)
        out += ["        twice v_add_f32, v3", "        .rept 2", "        s_nop 0", "        .endr",
                "        s_sub_u32 s2, s2, 1", f"        s_cbranch_scc0 loop{k}", "        s_endpgm", ".p2align 8"]
        places.append((label, call + 5, call))
    return "\n".join(out) + "\n", target, places


def request_latencies(c, uri, places):
    """Hover, definition, references and completion at places over every kernel: the
    timings (seconds) by request, and what was answered wrongly."""
    times = {m: [] for m in ("hover", "definition", "references", "completion")}
    wrong = []
    branch_col = len("        s_cbranch_scc0 lo")
    for i in range(200):
        k = i % len(places)
        label, branch, call = places[k]

        def at(line, ch):
            return {"textDocument": {"uri": uri}, "position": {"line": line, "character": ch}}

        def timed(kind, method, params):
            t = time.time()
            r = c.request(method, params)
            times[kind].append(time.time() - t)
            return r.get("result")

        h = timed("hover", "textDocument/hover", at(branch, 10)) if i % 2 == 0 else timed("hover", "textDocument/hover", at(branch, branch_col))
        want = "s_cbranch_scc0" if i % 2 == 0 else f"loop{k}"
        if not h or want not in json.dumps(h):
            wrong.append(f"hover on line {branch} lacks {want}")
        d = timed("definition", "textDocument/definition", at(branch, branch_col))
        if not d or d[0]["range"]["start"]["line"] != label:
            wrong.append(f"definition of loop{k}: {d}")
        if i % 2 == 0:
            r = timed("references", "textDocument/references", dict(at(branch, branch_col), context={"includeDeclaration": True}))
            want_refs = 2
        else:
            r = timed("references", "textDocument/references", dict(at(call, 10), context={"includeDeclaration": False}))
            want_refs = len(places)
        if r is None or len(r) != want_refs:
            wrong.append(f"references: {len(r or [])} instead of {want_refs}")
        items = timed("completion", "textDocument/completion", at(call + 1, 8))
        items = items.get("items", []) if isinstance(items, dict) else (items or [])
        if not any(it.get("label") == "s_nop" for it in items):
            wrong.append("completion without s_nop")
    return times, wrong[:3]


class Client:
    def __init__(self, cmd, root):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=root)
        self.next_id, self.replies, self.notes = 1, {}, queue.Queue()
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        f = self.p.stdout
        while True:
            length = None
            while True:
                line = f.readline()
                if not line:
                    return
                if not line.strip():
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = json.loads(f.read(length))
            if "id" in body and ("result" in body or "error" in body):
                with self.cond:
                    self.replies[body["id"]] = body
                    self.cond.notify_all()
            elif "id" in body:
                self.send({"jsonrpc": "2.0", "id": body["id"], "result": None})
            else:
                self.notes.put(body)

    def send(self, message):
        data = json.dumps(message).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self.p.stdin.flush()

    def request(self, method, params, timeout=60):
        i = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        end = time.time() + timeout
        with self.cond:
            while i not in self.replies:
                if not self.cond.wait(max(0.0, end - time.time())):
                    raise TimeoutError(method)
            return self.replies.pop(i)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, uri, version, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            try:
                n = self.notes.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                break
            p = n.get("params", {})
            if n.get("method") == "textDocument/publishDiagnostics" and p.get("uri") == uri and p.get("version") == version:
                return p["diagnostics"]
        return None

    def peak_rss_mib(self):
        with open(f"/proc/{self.p.pid}/status") as f:
            return [int(l.split()[1]) for l in f if l.startswith("VmHWM")][0] / 1024

    def close(self):
        try:
            self.request("shutdown", None, timeout=5)
            self.notify("exit", None)
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000


def bench(server, gcnasm, lines, edits):
    root = tempfile.mkdtemp(prefix="bench-lsp-")
    os.makedirs(os.path.join(root, "inc"))
    open(os.path.join(root, "inc", "helpers.s"), "w").write(HELPERS)
    open(os.path.join(root, "gcn.toml"), "w").write('args = ["--llvmVersion=30900"]\n')
    text, target, places = generate(lines)
    path = os.path.join(root, "big.s")
    open(path, "w").write(text)
    fails = []
    times = []
    for _ in range(3):
        t = time.time()
        p = subprocess.run([gcnasm, "--llvmVersion=30900", "-o", os.path.join(root, "big.bin"), path], capture_output=True, text=True)
        times.append(time.time() - t)
    if p.returncode != 0:
        fails.append(f"gcnasm failed: {p.stderr[:300]}")
    ru = subprocess.run([gcnasm, "--llvmVersion=30900", "--emit", "reg-usage", "-o", os.path.join(root, "ru.json"), path], capture_output=True)
    want = json.load(open(os.path.join(root, "ru.json")))["kernels"] if ru.returncode == 0 else []

    c = Client([server], root)
    c.request("initialize", {"processId": os.getpid(), "rootUri": "file://" + root, "capabilities": {},
                             "initializationOptions": {"diagnosticsDelay": 0}})
    c.notify("initialized", {})
    uri = "file://" + path
    t0 = time.time()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "clrx", "version": 1, "text": text}})
    first = c.diagnostics(uri, 1)
    t_open = time.time() - t0
    if first is None:
        fails.append("no diagnostics after open")
    elif any(d.get("severity", 1) == 1 for d in first):
        fails.append(f"errors in the valid source: {first[:2]}")
    latencies, missed = [], 0
    column = len("        v_mov_b32 v")
    for i in range(edits):
        version = i + 2
        t = time.time()
        change = {"range": {"start": {"line": target, "character": column}, "end": {"line": target, "character": column + 1}},
                  "text": "3" if i % 2 == 0 else "1"}
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        if c.diagnostics(uri, version) is None:
            missed += 1
        else:
            latencies.append(time.time() - t)
    if missed:
        fails.append(f"{missed} versions got no diagnostics")
    usage_times = []
    for _ in range(20):
        t = time.time()
        r = c.request("gcn/registerUsage", {"textDocument": {"uri": uri}})
        usage_times.append(time.time() - t)
    got = r.get("result", {}).get("kernels", [])
    fields = ("name", "sgprs", "vgprs", "extra_sgprs", "sgprsnum", "vgprsnum", "waves")
    if [{f: k[f] for f in fields} for k in got] != [{f: k[f] for f in fields} for k in want]:
        fails.append("gcn/registerUsage differs from gcnasm --emit reg-usage")
    requests, wrong = request_latencies(c, uri, places)
    fails += [f"wrong answer: {w}" for w in wrong]
    rss = c.peak_rss_mib()
    c.close()
    subprocess.run(["rm", "-rf", root])
    print(f"{text.count(chr(10))} lines: gcnasm {statistics.median(times) * 1000:.0f} ms; "
          f"open -> diagnostics {t_open * 1000:.0f} ms; "
          f"edit -> diagnostics p50 {pct(latencies, .5):.1f} ms p99 {pct(latencies, .99):.1f} ms ({len(latencies)} edits); "
          f"registerUsage p50 {pct(usage_times, .5):.2f} ms p99 {pct(usage_times, .99):.2f} ms; peak RSS {rss:.0f} MiB")
    print("  requests p50/p99 ms: " + "; ".join(f"{m} {pct(ts, .5):.2f}/{pct(ts, .99):.2f}" for m, ts in requests.items()))
    for f in fails:
        print("  FAILED: " + f)
    return not fails


def main():
    args = sys.argv[1:]
    edits = 200
    if "--edits" in args:
        i = args.index("--edits")
        edits = int(args[i + 1])
        del args[i:i + 2]
    # The server runs in the project's folder: the binaries' paths must not be relative.
    server, gcnasm = os.path.abspath(args[0]), os.path.abspath(args[1])
    sizes = [int(a) for a in args[2:]] or [10000, 100000]
    ok = all([bench(server, gcnasm, n, edits) for n in sizes])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
