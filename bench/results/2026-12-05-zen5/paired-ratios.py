#!/usr/bin/env python3
"""Medians of per-round ratios from the in-process alternating benchmarks
(q6k-prefetch-*-raw.txt, q6k-ablation-raw.txt, q4k-ablation-raw.txt): every
line reports one value per variant (metric NAME-ns/blk or NAME-ns/256w) from
the same iterations, so the ratio of two variants on one line takes the
host's phase out. benchstat (the *-benchstat.txt files) gives the medians
of the absolute values, which do not.

    paired-ratios.py FILE BASE     # e.g. q4k-ablation-raw.txt base
"""
import re
import statistics
import sys

path, base = sys.argv[1], sys.argv[2]
rows = {}
for line in open(path):
    if not line.startswith("Benchmark"):
        continue
    vals = {m.group(2): float(m.group(1)) for m in re.finditer(r"([\d.]+)\s+(\S+)-ns/(?:256w|blk)", line)}
    if base in vals:
        rows.setdefault(line.split()[0], []).append(vals)
for name, vs in rows.items():
    print(name)
    for k in sorted({k for v in vs for k in v}):
        r = [v[k] / v[base] for v in vs if k in v]
        print("  %-11s %.3f  (%d rounds, %.3f-%.3f)" % (k, statistics.median(r), len(r), min(r), max(r)))
