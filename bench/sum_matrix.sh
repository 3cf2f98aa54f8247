#!/bin/sh
# sum_matrix: the book's four block shapes against the copy ceiling and
# best at 16384 x 16384 ints, then a sweep of block shapes on the book's
# kernel, then an odd shape with tails, then odd shapes near 2^28 (issue 41:
# best at least 95% of copy at any shape).
#   bench/sum_matrix.sh [OUT.md]    (default: docs/bench-sum_matrix.md)
set -eu
. "$(dirname "$0")/common.sh"
out=${1:-docs/bench-sum_matrix.md}
bench_header "$out" "sum_matrix" "int matrices; GB/s count 2 matrices read and 1 written.
Speedup is over block32x32; of ref is the share of copy's speed (cudaMemcpyAsync
of the same bytes).  Produced by bench/sum_matrix.sh."
bench_section "$out" "16384 x 16384" sum_matrix
bench_section "$out" "block shapes of the book's kernel, 16384 x 16384" sum_matrix.block32x32 \
	-p block=32x32,32x16,16x32,16x16,32x8,64x4,128x2,256x1,8x8
bench_section "$out" "4099 x 3001 (tails everywhere)" sum_matrix -p nx=4099 -p ny=3001
bench_section "$out" "odd shapes near 2^28: the copy ceiling and best" sum_matrix.copy sum_matrix.best \
	-p nx=16381,20483 -p ny=16387,12289
echo "wrote $out"
