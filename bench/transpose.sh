#!/bin/sh
# The transposes on float matrices of 8192 x 8192 and 16384 x 16384.
#   bench/transpose.sh [OUT.md]     (default: docs/bench-transpose.md)
set -eu
. "$(dirname "$0")/common.sh"
out=${1:-docs/bench-transpose.md}
bench_header "$out" "transpose" "float matrices; GB/s count bytes read plus written.
Speedup is over naive_row; of ref is the share of memcpy's speed (cudaMemcpyAsync device to
device).  Produced by bench/transpose.sh."
for s in 8192 16384; do
	bench_section "$out" "$s x $s floats" transpose -t float -p rows=$s -p cols=$s
done
echo "wrote $out"
