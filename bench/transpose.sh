#!/bin/sh
# The transposes on square float matrices from 256 x 256 to 32768 x 32768.
#   bench/transpose.sh [OUT.md]     (default: docs/bench-transpose.md)
set -eu
. "$(dirname "$0")/common.sh"
out=${1:-docs/bench-transpose.md}
bench_header "$out" "transpose" "float matrices; GB/s count bytes read plus written.
Speedup is over naive_row; of ref is the share of memcpy's speed (cudaMemcpyAsync device to
device).  Produced by bench/transpose.sh."
for s in 256 512 1024 2048 4096 8192 16384 32768; do
	bench_section "$out" "$s x $s floats" transpose -t float -p rows=$s -p cols=$s
done
echo "wrote $out"
