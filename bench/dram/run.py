#!/usr/bin/env python3
"""The quantized matvecs from DRAM against the machine's read bandwidth, in
one interleaved run.

Each round runs the peer harness's membw (BenchmarkMemRead at 1 GiB and
256 MiB, one and two threads), then for each type kernels'
BenchmarkMatVecDRAM (14336x4096, four matrices, one and two threads, in
the Go heap's 4 KiB pages and in huge pages; the variant the registry
picks for that type's MatVec) and membw again. membw's buffer comes from
aligned_alloc: 4 KiB pages, like pages=heap, unless transparent huge
pages are "always". A ratio is the kernel's weight bandwidth over the mean
of the read bandwidths membw measured just before and just after it; the
table gives each ratio's median and range over the rounds. Issue 11's targets: >= 0.90
on one thread, >= 0.85 on two.

With -decode it times decode instead (issue 11's end-to-end roofline):
each round runs membw, then `corelane profile -preset llama-3.2-1b
-prefill 32 -decode 16 -benchfmt` (the peer harness's decoder shape), then
membw again; a ratio is the decode's weight stream (tok/s times the weight
bytes per token that profile prints) over the mean of membw's 1 GiB read
just before and just after, per attention mode and thread count, and for
the better mode of each round ("best", as the harness takes corelane's
best). Target: >= 0.90 at every thread count.

Run it from the module root on an otherwise idle machine:

    bench/dram/run.py                  # 6 rounds, results in ./dram-results/
    bench/dram/run.py -rounds 10 -o ../dram-after-my-change
    bench/dram/run.py -decode -rounds 6 -o ../roofline

membw comes from ../shared/peer (run.sh membw builds it once into its
cache); the first run may take a minute for that.
"""

import argparse
import glob
import json
import os
import re
import statistics
import shutil
import subprocess
import sys
import tempfile

TYPES = {"q4_K": "MatVecQ4K", "q5_K": "MatVecQ5K", "q6_K": "MatVecQ6K", "q8_0": "MatVecQ8_0"}
REFS = ["1GiB", "256MiB"]
READ = "BenchmarkMemRead/size=%s/threads=%s"


def sh(cmd, **kw):
    r = subprocess.run(cmd, text=True, capture_output=True, **kw)
    if r.returncode != 0:
        sys.exit("dram: %s failed (exit %d):\n%s" % (" ".join(cmd), r.returncode, (r.stderr or r.stdout)[-2000:]))
    return r.stdout


def membw_binary(out):
    cache = os.environ.get("PEER_CACHE", os.path.expanduser("~/.cache/corelane-peer"))
    found = sorted(glob.glob(os.path.join(cache, "*", "out", "membw")), key=os.path.getmtime)
    if not found:
        print("dram: building membw with ../shared/peer/run.sh membw (once)", file=sys.stderr)
        env = dict(os.environ, ROUNDS="1", COUNT="1", BENCHTIME="100ms")
        subprocess.run(["../shared/peer/run.sh", "membw", "-o", os.path.join(out, "peer-membw")],
                       check=True, env=env, stdout=subprocess.DEVNULL)
        found = sorted(glob.glob(os.path.join(cache, "*", "out", "membw")), key=os.path.getmtime)
    if not found:
        sys.exit("dram: no membw binary after run.sh membw (see its output)")
    return found[-1]


def rates(lines):
    """name (without -P) -> MB/s of each Go benchmark line."""
    r = {}
    for l in lines.splitlines():
        f = l.split()
        if not f or not f[0].startswith("Benchmark") or "MB/s" not in f:
            continue
        r[re.sub(r"-\d+$", "", f[0])] = float(f[f.index("MB/s") - 1])
    return r


def membw_read(membw, raw, sizes, mem):
    """Runs membw's read at each of sizes on one and two threads, writes its
    lines to raw, appends each rate (MB/s) to mem[(size, threads)] and
    returns them by benchmark name (rates)."""
    m = sh([membw, "-count", "1", "-benchtime", "500ms", "-bench", "MemRead/size=(%s)/threads=" % "|".join(sizes)])
    raw.write(m)
    mr = rates(m)
    for size in sizes:
        for th in ("1", "2"):
            key = READ % (size, th)
            if key in mr:
                mem.setdefault((size, th), []).append(mr[key])
    return mr


def membw_summary(mem):
    """One line per (size, threads) of mem: median and range of the reads."""
    return ["membw %s, %s thread(s): median %.0f MB/s [%.0f–%.0f] (n=%d)  " % (size, th, statistics.median(v), min(v), max(v), len(v))
            for (size, th), v in sorted(mem.items())]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-rounds", type=int, default=6)
    ap.add_argument("-benchtime", default="1s")
    ap.add_argument("-o", default="dram-results")
    ap.add_argument("-decode", action="store_true", help="time corelane profile's decode instead of the matvecs")
    a = ap.parse_args()
    if not os.path.exists("go.mod"):
        sys.exit("dram: run from the module root")
    os.makedirs(a.o, exist_ok=True)
    membw = membw_binary(a.o)
    if a.decode:
        return decode(a, membw)
    tmp = tempfile.mkdtemp(prefix="corelane-dram-")
    test = os.path.join(tmp, "kernels.test")
    sh(["go", "test", "-c", "-o", test, "./kernels"])
    info = json.loads(sh(["go", "run", "./cmd/corelane", "info", "-json"]))
    chosen = {o["op"]: o["variant"] for o in info["kernels"]["ops"]}
    raw = open(os.path.join(a.o, "raw.txt"), "w")
    raw.write("# cpu: %s; membw of the peer harness's cache (%s); variants: %s\n" % (
        info["kernels"]["cpu"], os.path.basename(os.path.dirname(os.path.dirname(membw))),
        {t: chosen[op] for t, op in TYPES.items()}))
    ratios = {}
    mem = {}
    for rnd in range(1, a.rounds + 1):
        up = sh(["uptime"]).strip()
        raw.write("# round %d %s\n" % (rnd, up))
        print("dram: round %d/%d (%s)" % (rnd, a.rounds, up), file=sys.stderr)
        def read():
            return membw_read(membw, raw, REFS, mem)
        before = read()
        for t, op in TYPES.items():
            bench = "BenchmarkMatVecDRAM/type=%s/variant=%s/rows=14336/k=4096/threads=/pages=" % (t, chosen[op])
            k = sh([test, "-test.run", "^$", "-test.bench", bench, "-test.count", "1", "-test.benchtime", a.benchtime])
            raw.write(k)
            after = read()
            for name, v in rates(k).items():
                th = re.search(r"threads=(\d)", name).group(1)
                pg = re.search(r"pages=(\w+)", name).group(1)
                for ref in REFS:
                    key = READ % (ref, th)
                    if key in before and key in after:
                        ratios.setdefault((t, th, pg, ref), []).append(v / ((before[key] + after[key]) / 2))
            before = after
        raw.flush()
    table = ["| type (variant) | threads | pages | vs membw 1GiB: median [min–max] | vs membw 256MiB |", "|---|---|---|---|---|"]
    rows = 0
    for t in TYPES:
        for th in ("1", "2"):
            for pg in ("heap", "huge"):
                cells = []
                for ref in REFS:
                    v = ratios.get((t, th, pg, ref), [])
                    cells.append("%.2f [%.2f–%.2f]" % (statistics.median(v), min(v), max(v)) if v else "—")
                table.append("| %s (%s) | %s | %s | %s | %s |" % (t, chosen[TYPES[t]], th, pg, cells[0], cells[1]))
                rows += 1
    table += membw_summary(mem)
    text = "\n".join(table[:2 + rows]) + "\n\n" + "\n".join(table[2 + rows:]) + "\n"
    open(os.path.join(a.o, "ratios.md"), "w").write(text)
    print(text)
    shutil.rmtree(tmp)


def decode(a, membw):
    """The -decode mode (see the module comment)."""
    tmp = tempfile.mkdtemp(prefix="corelane-dram-")
    bin = os.path.join(tmp, "corelane")
    sh(["go", "build", "-o", bin, "./cmd/corelane"])
    info = json.loads(sh([bin, "info", "-json"]))
    raw = open(os.path.join(a.o, "decode-raw.txt"), "w")
    raw.write("# cpu: %s; membw of the peer harness's cache (%s); corelane profile -preset llama-3.2-1b -prefill 32 -decode 16 -benchfmt -quiet\n" % (
        info["kernels"]["cpu"], os.path.basename(os.path.dirname(os.path.dirname(membw)))))
    ratios, mem = {}, {}

    def read():
        return membw_read(membw, raw, ["1GiB"], mem)
    for rnd in range(1, a.rounds + 1):
        up = sh(["uptime"]).strip()
        raw.write("# round %d %s\n" % (rnd, up))
        print("dram: decode round %d/%d (%s)" % (rnd, a.rounds, up), file=sys.stderr)
        before = read()
        out = sh([bin, "profile", "-preset", "llama-3.2-1b", "-prefill", "32", "-decode", "16", "-benchfmt", "-quiet"])
        raw.write(out)
        after = read()
        m = re.search(r"roofline: ([\d.]+) MB of weights per token", out)
        if not m:
            sys.exit("dram: corelane profile printed no weight bytes per token")
        mb = float(m.group(1))
        best = {}
        for l in out.splitlines():
            f = l.split()
            if not f or "phase=decode" not in f[0] or "tok/s" not in f:
                continue
            th = re.search(r"threads=(\d+)", f[0]).group(1)
            impl = re.search(r"impl=([\w-]+?)(-\d+)?$", f[0]).group(1)
            key = READ % ("1GiB", th)
            if key not in before or key not in after:
                continue
            r = float(f[f.index("tok/s") - 1]) * mb / ((before[key] + after[key]) / 2)
            ratios.setdefault((impl, th), []).append(r)
            best[th] = max(best.get(th, 0), r)
        for th, r in best.items():
            ratios.setdefault(("best", th), []).append(r)
        raw.flush()
    table = ["| decode (impl) | threads | vs membw 1GiB: median [min–max] (n) |", "|---|---|---|"]
    for (impl, th) in sorted(ratios, key=lambda k: (k[0] != "best", k)):
        v = ratios[(impl, th)]
        table.append("| %s | %s | %.2f [%.2f–%.2f] (%d) |" % (impl, th, statistics.median(v), min(v), max(v), len(v)))
    table += [""] + membw_summary(mem)
    text = "\n".join(table) + "\n"
    open(os.path.join(a.o, "decode-ratios.md"), "w").write(text)
    print(text)
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
