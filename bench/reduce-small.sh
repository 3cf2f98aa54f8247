#!/bin/sh
# Where reduce.best's microseconds go below 2^21 ints: the floor of one
# launch (n = 1), one block against several (-p blocks=1), the two ways
# block sums meet (-p finish), gpulab's choice against CUB one call at a
# time, and the same back to back (--batch 10), each judged by compare.
#   bench/reduce-small.sh [OUT.md]  (default: docs/bench-reduce-small.md)
set -eu
. "$(dirname "$0")/common.sh"
out=${1:-docs/bench-reduce-small.md}
bench_header "$out" "reduce below 2^21: launches, blocks and finishes" "Speedup in the verdict tables is CUB's
median time over best's; p is the two-sided Mann-Whitney U test's.
Produced by bench/reduce-small.sh."
bench_section "$out" "the floor: one element, one launch each" reduce.cub reduce.best -n 1
bench_section "$out" "one block of 512 or 1024 threads, more rounds of loads" reduce.best -n 2^13:2^17 -b 512,1024 -p blocks=1
bench_section "$out" "how the block sums meet: the last block, or one cluster" reduce.best -n 2^13:2^18 -p finish=last_block,cluster
bench_section "$out" "gpulab's choice against CUB, one call per sample" reduce.cub reduce.best -n 2^10:2^21
bench_compare "$out" "${out%.md}-$section.json" reduce.cub reduce.best
bench_section "$out" "back to back: 10 calls per sample (--batch 10)" reduce.cub reduce.best -n 2^10:2^21 --batch 10
bench_compare "$out" "${out%.md}-$section.json" reduce.cub reduce.best
echo "wrote $out"
