#!/bin/sh
# reduce.best against reduce.cub from 2^10 to 2^31 elements, ints then
# floats, each size judged by gpulab compare's Mann-Whitney verdict (the
# target: best at least as fast everywhere, and 1.25x CUB up to 2^20,
# where launch latency dominates); then both at 2^24 for their noise,
# one run and ten back to back per sample.
#   bench/reduce-sweep.sh [OUT.md]  (default: docs/bench-reduce-sweep.md)
# 2^31 ints are 8 GiB on the GPU and on the host.
set -eu
. "$(dirname "$0")/common.sh"
out=${1:-docs/bench-reduce-sweep.md}
bench_header "$out" "reduce: best against CUB, 2^10 to 2^31" "GB/s count the bytes read.
Speedup in the verdict tables is CUB's median time over best's; p is the
two-sided Mann-Whitney U test's on the two sets of samples (alpha 0.05).
Produced by bench/reduce-sweep.sh."
for t in int float; do
	bench_section "$out" "$t sums" reduce.cub reduce.best -t $t -n 2^10:2^31
	bench_compare "$out" "$(bench_record "$out" "$section")" reduce.cub reduce.best
done
bench_section "$out" "noise at 2^24 (ints)" reduce.cub reduce.best -t int -n 2^24
bench_section "$out" "noise at 2^24 (ints), 10 runs back to back per sample" reduce.cub reduce.best -t int -n 2^24 --batch 10
echo "wrote $out"
