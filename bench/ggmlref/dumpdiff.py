#!/usr/bin/env python3
"""dumpdiff.py A.dump QA B.dump QB [N]

Lists the first N places where two llama_ref DUMP files (see llama_ref.c)
round an activation differently when it is quantized for the next matrix:
to Q8_0 for attn_in, attn_out, ffn_in and out_in (the inputs of the Q5_0 and
Q8_0 matrices of stories260K-q4km) and to binary16 for ffn_h (the input of
its F16 ffn_down). QA and QB name each side's Q8_0 rounding: "x86" (ggml's
AVX run-time quantizer: multiplier 127/amax, ties to even) or "ref" (ggml's
reference and generic quantizer: multiplier 1/(amax/127), ties away from
zero).
"""
import array
import math
import struct
import sys

Q8 = ("attn_in", "attn_out", "ffn_in", "out_in")


def read(path):
    out, order = {}, []
    with open(path, "rb") as f:
        b = f.read()
    o = 0
    while o < len(b):
        step, = struct.unpack_from("<i", b, o)
        name = b[o + 4:o + 68].split(b"\0")[0].decode()
        n, = struct.unpack_from("<i", b, o + 68)
        o += 72
        a = array.array("f")
        a.frombytes(b[o:o + 4 * n])
        o += 4 * n
        out[(step, name)] = a
        order.append((step, name))
    return out, order


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def q8(xs, kind):
    out = []
    for b in range(0, len(xs), 32):
        blk = xs[b:b + 32]
        m = max(abs(v) for v in blk)
        if kind == "x86":
            mul = f32(127.0 / m) if m else 0.0
            out += [round(f32(v * mul)) for v in blk]  # round: ties to even
        else:
            d = f32(m / 127.0)
            mul = f32(1.0 / d) if d else 0.0
            for v in blk:
                y = f32(v * mul)
                out.append(int(math.copysign(math.floor(abs(y) + 0.5), y)))
    return out


def f16(xs):
    return [struct.unpack("<e", struct.pack("<e", v))[0] for v in xs]


def main():
    a, order = read(sys.argv[1])
    qa = sys.argv[2]
    b, _ = read(sys.argv[3])
    qb = sys.argv[4]
    limit = int(sys.argv[5]) if len(sys.argv) > 5 else 20
    shown = 0
    for key in order:
        if key not in b:
            continue
        kind = key[1].split(".")[0]
        x, y = list(a[key]), list(b[key])
        if kind in Q8:
            rx, ry, what = q8(x, qa), q8(y, qb), "Q8_0"
        elif kind == "ffn_h":
            rx, ry, what = f16(x), f16(y), "binary16"
        else:
            continue
        for i, (u, v) in enumerate(zip(rx, ry)):
            if u != v:
                print("step %d %s[%d] to %s: %r from %.9g, against %r from %.9g" % (key[0], key[1], i, what, u, x[i], v, y[i]))
                shown += 1
                if shown >= limit:
                    return


if __name__ == "__main__":
    main()
