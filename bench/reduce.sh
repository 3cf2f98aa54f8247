#!/bin/sh
# Benchmark the reduce ladder on the GPU and write a Markdown table.
#   bench/reduce.sh [OUT.md]        (default: docs/bench-reduce.md)
# Runs `gpulab run reduce` on ints at n = 2^20, 2^24 and 2^28, warm L2,
# the median of REPS (default 50) timed repetitions after 5 warm-ups.
# GPULAB names the gpulab to run (default: gpulab on PATH).
set -eu
out=${1:-docs/bench-reduce.md}
gpulab=${GPULAB:-gpulab}
reps=${REPS:-50}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

$gpulab info > "$tmp/info"
gpu=$(sed -n 's/^device *[0-9]*: //p' "$tmp/info")
runtime=$(sed -n 's/^runtime *//p' "$tmp/info")
driver=$(sed -n 's/^driver (supports CUDA) *//p' "$tmp/info")
peak=$(sed -n 's/^peak memory bandwidth *//p' "$tmp/info")
{
	echo "# reduce: the ladder on $gpu"
	echo
	echo "$(date -u +%Y-%m-%d), CUDA runtime $runtime, driver for CUDA $driver, peak $peak."
	echo "int32 sums, warm L2, median of $reps repetitions after 5 warm-ups; block 512 where the"
	echo "exercise takes one.  GPU ms is the kernel(s) plus, for the book's kernels, the copy of the"
	echo "per-block sums to the host; host ms is the host adding them.  Speedup and % of cub compare"
	echo "GPU + host time.  Produced by bench/reduce.sh."
} > "$out"
for e in 20 24 28; do
	$gpulab run reduce -t int -n "2^$e" -r "$reps" -w 5 --quiet --format csv > "$tmp/$e.csv"
	{
		echo
		echo "## n = 2^$e"
		echo
		echo "| exercise | GPU ms | host ms | GB/s | % peak | speedup | % of cub | status |"
		echo "|---|---:|---:|---:|---:|---:|---:|---|"
		# exercise,type,n,block,reps,warmup,cold,median_ms,min_ms,max_ms,host_ms,total_ms,
		# bytes,gbps,peak_pct,speedup,ref_share,status,...
		awk -F, 'NR > 1 {
			sp = $16 == "" ? "-" : sprintf("%.2fx", $16)
			rs = $17 == "" ? "-" : sprintf("%.0f%%", 100 * $17)
			printf "| %s | %.4f | %.4f | %.1f | %.1f | %s | %s | %s |\n",
				$1, $8, $11, $14, $15, sp, rs, $18 }' "$tmp/$e.csv"
	} >> "$out"
done
echo "wrote $out"
