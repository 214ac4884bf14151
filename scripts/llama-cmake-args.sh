#!/bin/sh
# Prints CMAKE_ARGS for building llama-cpp-python on this x86-64 Linux CPU: every vector
# extension the CPU reports, except AMX. Why not the default -march=native: on virtual machines
# that report AMX without enabling it (this project's CI), native builds die with SIGILL.
# Prints nothing elsewhere (other CPUs and systems keep llama.cpp's own defaults).
[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] || exit 0
flags=$(grep -m1 '^flags' /proc/cpuinfo)
has() { case " $flags " in *" $1 "*) return 0 ;; esac; return 1; }
args="-DGGML_NATIVE=OFF"
for pair in sse4_2:SSE42 avx:AVX avx2:AVX2 avx_vnni:AVX_VNNI fma:FMA f16c:F16C bmi2:BMI2 \
    avx512f:AVX512 avx512vbmi:AVX512_VBMI avx512_vnni:AVX512_VNNI avx512_bf16:AVX512_BF16; do
    has "${pair%%:*}" && args="$args -DGGML_${pair#*:}=ON"
done
echo "$args"
