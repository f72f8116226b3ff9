#!/usr/bin/env bash
# bench/ggmlref/run.sh OUT_DIR — run stories260K through ggml built two ways
# and through corelane, and compare each with llama.cpp's reference logits
# and greedy ids (../shared/testdata/models/stories260K/ref).
#
# ggml is built from ../shared/peer/ggml-src.tar.xz with the peer harness's
# build.sh: once as the peer builds it (-march=native: AVX2/AVX-512 code
# paths, as llama.cpp's reference run had) and once with every x86 SIMD
# option off (ggml's generic C code). llama_ref.c runs the same decoder graph
# on both. Builds in OUT_DIR are reused; the comparison tables go to stdout.
#
# Needs cmake, gcc, python3 and Go. Takes about 4 minutes the first time on
# 2 cores (two ggml builds), seconds afterwards.
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 OUT_DIR" >&2
    exit 2
fi
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
PEER=$SHARED/peer
MODELS=$SHARED/testdata/models/stories260K
[ -f "$PEER/ggml-src.tar.xz" ] && [ -d "$MODELS" ] || { echo "run.sh: $SHARED has no peer/ggml-src.tar.xz or testdata/models/stories260K" >&2; exit 1; }
mkdir -p "$1"
OUT=$(cd "$1" && pwd)

if [ ! -f "$OUT/src/CMakeLists.txt" ]; then
    mkdir -p "$OUT/src"
    tar -xJf "$PEER/ggml-src.tar.xz" -C "$OUT/src" --strip-components=1
fi
COMMIT=$(head -1 "$PEER/ggml-src.COMMIT")
SCALAR="-DGGML_NATIVE=OFF -DGGML_AVX=OFF -DGGML_AVX2=OFF -DGGML_AVX512=OFF -DGGML_FMA=OFF -DGGML_F16C=OFF -DGGML_BMI2=OFF -DGGML_SSE42=OFF -DGGML_AVX_VNNI=OFF -DGGML_CPU_REPACK=OFF -DGGML_LLAMAFILE=OFF"
echo "ggml native:" >&2
GGML_COMMIT=$COMMIT "$PEER/build.sh" "$OUT/src" "$OUT/native" >"$OUT/native.log" 2>&1 || { tail -20 "$OUT/native.log" >&2; exit 1; }
echo "ggml scalar:" >&2
GGML_COMMIT=$COMMIT GGML_CMAKE_EXTRA="$SCALAR" "$PEER/build.sh" "$OUT/src" "$OUT/scalar" >"$OUT/scalar.log" 2>&1 || { tail -20 "$OUT/scalar.log" >&2; exit 1; }
for b in native scalar; do
    libs=""
    for l in ggml ggml-cpu ggml-base; do
        libs="$libs $(find "$OUT/$b/ggml-build" -name "lib$l.a" | head -1)"
    done
    # shellcheck disable=SC2086
    gcc -O2 -std=gnu11 -fopenmp -Wall -I"$OUT/src/include" -o "$OUT/llama_ref_$b" "$HERE/llama_ref.c" $libs -lstdc++ -lm -lpthread
done
(cd "$ROOT" && go build -o "$OUT/corelane" ./cmd/corelane)

echo "# stories260K against llama.cpp's reference"
echo
echo "ggml $COMMIT; corelane $(cd "$ROOT" && git rev-parse --short HEAD); $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "One thread, f32 KV cache, no flash attention. Teacher-forced: BOS, then llama.cpp's 255 greedy ids. Greedy: from BOS, 256 steps."
for m in q4km f32; do
    f=$MODELS/stories260K-$m.gguf
    ref=$MODELS/ref/llamacpp-$m.ids.txt
    forced="1 $(cut -d' ' -f1-255 "$ref")"
    runs=()
    for b in native scalar; do
        DUMP="$OUT/$m-ggml-$b.dump" "$OUT/llama_ref_$b" "$f" "$forced" "$OUT/$m-ggml-$b.f32" 512
        GREEDY=257 "$OUT/llama_ref_$b" "$f" 1 "$OUT/$m-ggml-$b.greedy.f32" 512 >"$OUT/$m-ggml-$b.ids"
        runs+=("ggml-$b=$OUT/$m-ggml-$b.f32,$OUT/$m-ggml-$b.ids")
    done
    for k in generic default; do
        kf=(-kernels "$k")
        [ "$k" = default ] && kf=()
        for a in exact fast; do
            "$OUT/corelane" run -model "$f" -ctx 256 -threads 1 "${kf[@]}" -attention "$a" -force "$(cut -d' ' -f1-255 "$ref")" -logits "$OUT/$m-corelane-$k-$a.f32" >/dev/null 2>&1
            "$OUT/corelane" run -model "$f" -ctx 256 -threads 1 "${kf[@]}" -attention "$a" -n 256 -temp 0 -ids >"$OUT/$m-corelane-$k-$a.ids" 2>/dev/null
            runs+=("corelane-$k-$a=$OUT/$m-corelane-$k-$a.f32,$OUT/$m-corelane-$k-$a.ids")
        done
    done
    echo
    echo "## stories260K-$m"
    echo
    python3 "$HERE/compare.py" 512 "$MODELS/ref/llamacpp-$m.logits.f32" "$ref" "${runs[@]}" | sed "s#$OUT/##g"
    echo
    echo "corelane against ggml's scalar build:"
    echo
    python3 "$HERE/compare.py" 512 "$OUT/$m-ggml-scalar.f32" "$OUT/$m-ggml-scalar.ids" "${runs[@]:2}" | sed -n '/^| run/,/^$/p'
done
echo
echo "## Where ggml's two builds part on stories260K-q4km"
echo
echo "The first activations the two builds quantize differently (teacher-forced; native first):"
echo
echo '```'
python3 "$HERE/dumpdiff.py" "$OUT/q4km-ggml-native.dump" x86 "$OUT/q4km-ggml-scalar.dump" ref 12
echo '```'
