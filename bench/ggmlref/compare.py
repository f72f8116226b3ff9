#!/usr/bin/env python3
"""compare.py VOCAB REF_LOGITS REF_IDS NAME=LOGITS[,GREEDY_IDS] ...

Prints, for each named run, how its teacher-forced logits differ from the
reference's (max and median over steps of the per-step max |difference|,
the first step where that exceeds 1e-3, and the number of steps within
0.05) and for how many steps its greedy ids equal the reference's. Then the
per-step max |difference| of every run for the first 40 steps.
Logits are little-endian float32 [steps, vocab]; id files one line of ids.
"""
import array
import os
import sys


def logits(path, vocab):
    a = array.array("f")
    with open(path, "rb") as f:
        a.frombytes(f.read())
    if sys.byteorder != "little":
        a.byteswap()
    return [a[i:i + vocab] for i in range(0, len(a), vocab)]


def rowdiff(a, b):
    n = min(len(a), len(b))
    return [max(abs(x - y) for x, y in zip(a[i], b[i])) for i in range(n)]


def main():
    vocab, ref, ref_ids = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    want = logits(ref, vocab)
    with open(ref_ids) as f:
        wids = f.read().split()
    margin = []
    for row in want:
        top = sorted(row, reverse=True)
        margin.append(top[0] - top[1])
    first05 = next((i for i, m in enumerate(margin) if m < 0.05), len(margin))
    print("reference: %s (%d steps); its top-2 margin is first < 0.05 at step %d (%.4f)" % (os.path.basename(ref), len(want), first05, margin[first05] if first05 < len(margin) else float("nan")))
    print()
    print("| run | max \\|Δ\\| | median | first step > 1e-3 | steps ≤ 0.05 | greedy ids equal for |")
    print("|---|---|---|---|---|---|")
    cols = []
    for arg in sys.argv[4:]:
        name, files = arg.split("=", 1)
        parts = files.split(",")
        d = rowdiff(logits(parts[0], vocab), want)
        cols.append((name, d))
        s = sorted(d)
        first = next((i for i, x in enumerate(d) if x > 1e-3), len(d))
        under = sum(1 for x in d if x <= 0.05)
        same = "—"
        if len(parts) > 1:
            with open(parts[1]) as f:
                ids = f.read().split()
            same = 0
            while same < min(len(ids), len(wids)) and ids[same] == wids[same]:
                same += 1
        print("| %s | %.3g | %.3g | %d | %d of %d | %s |" % (name, s[-1], s[len(s) // 2], first, under, len(d), same))
    print()
    print("per-step max |Δ| to the reference:")
    print()
    print("| step | " + " | ".join(n for n, _ in cols) + " |")
    print("|---|" + "---|" * len(cols))
    for i in range(min(40, min(len(d) for _, d in cols))):
        print("| %d | " % i + " | ".join("%.2g" % d[i] for _, d in cols) + " |")


if __name__ == "__main__":
    main()
