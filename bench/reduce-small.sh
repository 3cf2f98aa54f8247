#!/bin/sh
# Where reduce.best's microseconds go below 2^23 ints: the floor of one
# launch (n = 1), one block's size at the smallest n, the grid (-p blocks)
# and the four ways block sums meet (-p finish), then gpulab's choice
# against CUB one call at a time and back to back (--batch 10), both
# types, each judged by compare.
#   bench/reduce-small.sh [OUT.md]  (default: docs/bench-reduce-small.md)
set -eu
. "$(dirname "$0")/common.sh"
out=${1:-docs/bench-reduce-small.md}
bench_header "$out" "reduce below 2^23: launches, blocks and finishes" "Speedup in the verdict tables is CUB's
median time over best's; p is the two-sided Mann-Whitney U test's.
Produced by bench/reduce-small.sh."
bench_section "$out" "the floor: one element, one launch each" reduce.cub reduce.best -n 1
bench_section "$out" "one block of 128 to 1024 threads" reduce.best -n 2^10:2^14 -b 128,256,512,1024
bench_section "$out" "the grid: blocks of 512 threads" reduce.best -n 2^14:2^22:2 -p blocks=0,1,4,16,66,132,264
bench_section "$out" "how the block sums meet: 16 blocks, which one cluster holds" reduce.best -n 2^16:2^22:2 -p blocks=16 -p finish=first_block,last_block,packed,cluster
bench_section "$out" "how the block sums meet: 132 blocks, one an SM" reduce.best -n 2^16:2^22:2 -p blocks=132 -p finish=first_block,last_block,packed
bench_section "$out" "gpulab's choice against CUB, one call per sample" reduce.cub reduce.best -n 2^10:2^22 -t int,float
bench_compare "$out" "$(bench_record "$out" "$section")" reduce.cub reduce.best
bench_section "$out" "back to back: 10 calls per sample (--batch 10)" reduce.cub reduce.best -n 2^10:2^22 -t int,float --batch 10
bench_compare "$out" "$(bench_record "$out" "$section")" reduce.cub reduce.best
echo "wrote $out"
