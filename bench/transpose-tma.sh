#!/bin/sh
# Today's transposes (issue 29), appended to the chapter's benchmark as
# sections 9 on: the copy engine's (tma_copy, tma_rows, tma) beside
# memcpy, copy_row and the best register-and-shared-memory transpose,
# smem_swizzle, at 8192^2 and 16384^2, ints and floats; the cp.async pair
# (smem_staged, smem_async) by blocks per SM; and the counters that
# explain both.
#   bench/transpose-tma.sh [OUT.md]     (default: docs/bench-transpose.md,
#   which bench/transpose.sh writes first: run this after it)
set -eu
. "$(dirname "$0")/common.sh"
out=${1:-docs/bench-transpose.md}
section=${SECTION:-8} # bench/transpose.sh's eight sizes come first
for s in 8192 16384; do
	bench_section "$out" "$s x $s: the copy engine against memcpy, ints and floats" \
		transpose.memcpy transpose.copy_row transpose.smem_swizzle transpose.tma_copy transpose.tma_rows transpose.tma \
		-t int,float -p rows=$s -p cols=$s
done
bench_section "$out" "8192 x 8192 floats: plain loads (smem_staged) and cp.async (smem_async) by blocks per SM" \
	transpose.memcpy transpose.smem_staged transpose.smem_async -t float -p rows=8192 -p cols=8192 -p per_sm=1,2,4,0
bench_section "$out" "16384 x 16384 floats: the counters" \
	transpose.memcpy transpose.copy_row transpose.smem_swizzle transpose.tma_copy transpose.tma_rows transpose.tma \
	transpose.smem_staged transpose.smem_async -t float -p rows=16384 -p cols=16384 -r 5 \
	--metrics dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,achieved_occupancy,shared_ld_bank_conflict,shared_st_bank_conflict
{
	echo
	echo "The counters of that run (\`--metrics\`), from its record:"
	echo
	python3 "$here/metrics_table.py" "$(bench_record "$out" "$section")"
} >> "$out"
echo "wrote $out"
