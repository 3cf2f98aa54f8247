#!/bin/sh
# The reduce ladder on ints at n = 2^20, 2^24 and 2^28, then every
# exercise that takes a block size at 2^24 with blocks of 64 to 1024.
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
bench_section "$out" "block sizes at n = 2^24" reduce -t int -n 2^24 -b 64:1024
echo "wrote $out"
