#!/usr/bin/env python3
"""tables.py — target tables for issue 12 from the peer harness's attn.combined.txt.

usage: tables.py raw/attn.combined.txt > targets.md

Per shape and schedule of BenchmarkSDPA / BenchmarkSDPAF16: medians of
every sample (ns/op), corelane's Exact and Fast against the fastest ggml
path with the same K/V type (f32: fa32, unf32, lf-unf32; f16: fa16,
unf16, lf-unf16), Fast/Exact, f16/f32, and for corelane's cells GFLOP/s
(4·HeadDim flops per visible causal (query, key) pair) and GB/s of K and V
read (each K/V element once per call).
"""
import re
import statistics
import sys
from collections import defaultdict

LINE = re.compile(r"^(BenchmarkSDPA(?:F16)?)/mode=([\w-]+)/heads=(\d+)/seqKV=(\d+)/seqQ=(\d+)/sched=(\w+)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op")
vals = defaultdict(list)
for f in sys.argv[1:]:
    for line in open(f):
        m = LINE.match(line.strip())
        if not m:
            continue
        fam, mode, h, kv, q, s, ns = m.groups()
        if fam == "BenchmarkSDPAF16":
            mode += "-f16"
        vals[(int(h), int(kv), int(q), s, mode)].append(float(ns))

def med(key):
    v = vals.get(key)
    return statistics.median(v) if v else None

def fmt_t(ns):
    if ns is None:
        return "—"
    if ns >= 1e6:
        return "%.2f ms" % (ns / 1e6)
    return "%.1f µs" % (ns / 1e3)

def ratio(a, b):
    return "—" if a is None or b is None else "%.2f" % (a / b)

def pairs(kv, q):
    return sum(min(kv, kv - q + i + 1) for i in range(q))

rows = sorted({k[:4] for k in vals}, key=lambda r: (r[0], r[1], r[2], r[3] != "sequential"))
g32 = ["ggml-fa32", "ggml-unf32", "ggml-lf-unf32"]
g16 = ["ggml-fa16", "ggml-unf16", "ggml-lf-unf16"]

def best(r, cols):
    c = [(med(r + (m,)), m) for m in cols if med(r + (m,)) is not None]
    return min(c) if c else (None, "—")

print("| heads | seqKV | seqQ | sched | exact | fast | ggml f32 best | exact/ggml (≤2) | fast/ggml (≤0.8) | exact f16 | fast f16 | ggml f16 best | exact16/ggml16 (≤2) | fast16/ggml16 (≤0.8) | fast/exact | exact16/exact | fast16/fast (≤1.2 decode) |")
print("|---:|---:|---:|---|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|")
for r in rows:
    e, f = med(r + ("exact",)), med(r + ("fast",))
    e16, f16 = med(r + ("exact-f16",)), med(r + ("fast-f16",))
    b32, n32 = best(r, g32)
    b16, n16 = best(r, g16)
    print("| %d | %d | %d | %s | %s | %s | %s %s | %s | %s | %s | %s | %s %s | %s | %s | %s | %s | %s |" % (
        r[0], r[1], r[2], r[3], fmt_t(e), fmt_t(f), fmt_t(b32), n32, ratio(e, b32), ratio(f, b32),
        fmt_t(e16), fmt_t(f16), fmt_t(b16), n16, ratio(e16, b16), ratio(f16, b16),
        ratio(f, e), ratio(e16, e), ratio(f16, f)))

print()
print("Rates of corelane's cells: GFLOP/s (4·HeadDim flops per visible (query, key) pair) and GB/s of K and V read once per call.")
print()
print("| heads | seqKV | seqQ | sched | exact GFLOP/s | fast GFLOP/s | exact GB/s | fast GB/s | fast f16 GB/s |")
print("|---:|---:|---:|---|---:|---:|---:|---:|---:|")
for r in rows:
    h, kv, q, s = r
    fl = 4 * 64 * h * pairs(kv, q)
    by32 = 2 * h * kv * 64 * 4
    by16 = by32 / 2
    e, f, f16 = med(r + ("exact",)), med(r + ("fast",)), med(r + ("fast-f16",))
    g = lambda x, n: "—" if x is None else "%.1f" % (n / x)
    print("| %d | %d | %d | %s | %s | %s | %s | %s | %s |" % (h, kv, q, s, g(e, fl), g(f, fl), g(e, by32), g(f, by32), g(f16, by16)))
