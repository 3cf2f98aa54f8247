#!/bin/sh
# The reduce ladder on ints at n = 2^20, 2^24 and 2^28, then the best
# lessons and CUB over sizes from 2^16 to 2^30, as Markdown.
#   bench/reduce.sh [OUT.md]        (default: docs/bench-reduce.md)
set -eu
. "$(dirname "$0")/common.sh"
out=${1:-docs/bench-reduce.md}
bench_header "$out" "reduce: the ladder" "int32 sums, block 512 where the exercise takes one.
GPU ms is the kernel(s) plus, for the book's kernels, the copy of the per-block sums to the host;
host ms is the host adding them.  Speedup (over neighbored) and of ref (share of cub's speed)
compare GPU + host time.  Produced by bench/reduce.sh."
for e in 20 24 28; do
	bench_section "$out" "n = 2^$e" reduce -t int -n "2^$e"
done
bench_section "$out" "sizes 2^16 to 2^30" reduce.unroll8 reduce.complete_unroll reduce.cub reduce.best -t int -n 2^16:2^30:2
echo "wrote $out"
