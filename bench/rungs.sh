#!/bin/sh
# The reduction ladder past the book (docs/hopper.md): shfl, the book's
# last rung, then wide, persistent, cluster, one_pass, best and cub, at
# 2^24 and 2^28 (SIZES: the exponents), ints and floats; each rung
# judged against the one before it, and best against cub, by gpulab
# compare's Mann-Whitney verdict; then (unless COUNTERS=0) the counters
# that explain the steps, at 2^24 ints.
#   bench/rungs.sh [OUT.md]        (default: docs/bench-rungs.md)
# Issue 41's ladder at every size: SIZES="24 26 28 30" COUNTERS=0 REPS=30
#   bench/rungs.sh docs/bench-rungs-sizes.md
# METRICS names the counters (default: global load instructions, DRAM
# throughput, occupancy, long-scoreboard stalls per issued instruction).
# Each record's notes give a grid rung's blocks and the sums it leaves
# for the host (none for one_pass: one launch, no copy back).
set -eu
. "$(dirname "$0")/common.sh"
out=${1:-docs/bench-rungs.md}
ladder="reduce.shfl reduce.wide reduce.persistent reduce.cluster reduce.one_pass reduce.best reduce.cub"
metrics=${METRICS:-gld_requests,dram_read_throughput,achieved_occupancy,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio}
bench_header "$out" "reduce: the rungs past the book" "Block 512 where the exercise takes one.
GPU ms is the kernel(s) plus, for the rungs that leave one sum a block or a
cluster, the copy of those sums to the host; host ms is the host adding
them.  Speedup is over shfl (the book's last rung), of ref the share of
cub's speed.  In the verdict tables, speedup is the earlier rung's median
time over the later one's (the last table: cub's over best's), and p the
two-sided Mann-Whitney U test's (alpha 0.05).  Each grid rung's notes give
its blocks, the sums it leaves for the host and its cluster size.
Produced by bench/rungs.sh."
for e in ${SIZES:-24 28}; do
	# shellcheck disable=SC2086
	bench_section "$out" "n = 2^$e" $ladder -t int,float -n "2^$e"
	record=$(bench_record "$out" "$section")
	prev=
	for r in $ladder; do
		[ "$r" = reduce.cub ] && break
		[ -n "$prev" ] && bench_compare "$out" "$record" "$prev" "$r" "${record%.json}-compare-${r#reduce.}.json"
		prev=$r
	done
	bench_compare "$out" "$record" reduce.cub reduce.best "${record%.json}-compare-cub-best.json"
done
[ "${COUNTERS:-1}" = 0 ] && { echo "wrote $out"; exit 0; }
# shellcheck disable=SC2086
bench_section "$out" "counters at n = 2^24 (ints)" $ladder -t int -n 2^24 --metrics "$metrics"
echo "wrote $out"
