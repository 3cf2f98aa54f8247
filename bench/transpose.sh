#!/bin/sh
# The transposes on square float matrices from 256 x 256 to 32768 x 32768.
#   bench/transpose.sh [OUT.md]     (default: docs/bench-transpose.md)
# FROM=K resumes at the K-th size (1-8), appending to OUT.md: the 32768^2
# section alone takes minutes, most of them making the 4 GiB input and
# its CPU transpose for each of the eight exercises.
set -eu
. "$(dirname "$0")/common.sh"
out=${1:-docs/bench-transpose.md}
from=${FROM:-1}
[ "$from" -gt 1 ] || bench_header "$out" "transpose" "float matrices; GB/s count bytes read plus written.
Speedup is over naive_row; of ref is the share of memcpy's speed (cudaMemcpyAsync device to
device).  Produced by bench/transpose.sh."
k=0
for s in 256 512 1024 2048 4096 8192 16384 32768; do
	k=$((k + 1))
	[ "$k" -ge "$from" ] || { section=$k; continue; }
	bench_section "$out" "$s x $s floats" transpose -t float -p rows=$s -p cols=$s
done
echo "wrote $out"
