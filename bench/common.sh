# Shared by the bench/*.sh scripts (sourced, POSIX sh): a Markdown file
# with the GPU and toolkit named, then one table per `gpulab run`.
# GPULAB names the gpulab to run (default: gpulab on PATH); REPS the
# timed repetitions (default 50), after 5 warm-ups, warm L2.
gpulab=${GPULAB:-gpulab}
reps=${REPS:-50}

# bench_header OUT TITLE TEXT: start OUT with the GPU's name and versions.
bench_header()
{
	info=$($gpulab info) || exit 1
	gpu=$(printf '%s\n' "$info" | sed -n 's/^device *[0-9]*: //p')
	runtime=$(printf '%s\n' "$info" | sed -n 's/^runtime *//p')
	driver=$(printf '%s\n' "$info" | sed -n 's/^driver (supports CUDA) *//p')
	peak=$(printf '%s\n' "$info" | sed -n 's/^peak memory bandwidth *//p')
	{
		echo "# $2 on $gpu"
		echo
		echo "$(date -u +%Y-%m-%d), CUDA runtime $runtime, driver for CUDA $driver, peak $peak."
		echo "Warm L2, median of $reps repetitions after 5 warm-ups.  $3"
	} > "$1"
}

# bench_section OUT HEADING ARGS...: `gpulab run ARGS` as a table.
bench_section()
{
	out=$1 heading=$2
	shift 2
	csv=$($gpulab run "$@" -r "$reps" -w 5 --quiet --format csv) || exit 1
	{
		echo
		echo "## $heading"
		echo
		echo "| exercise | GPU ms | host ms | GB/s | % peak | speedup | of ref | status |"
		echo "|---|---:|---:|---:|---:|---:|---:|---|"
		# exercise,type,n,block,reps,warmup,cold,median_ms,min_ms,max_ms,host_ms,
		# total_ms,bytes,gbps,peak_pct,speedup,ref_share,status,...
		printf '%s\n' "$csv" | awk -F, 'NR > 1 {
			sp = $16 == "" ? "-" : sprintf("%.2fx", $16)
			rs = $17 == "" ? "-" : sprintf("%.0f%%", 100 * $17)
			printf "| %s | %.4f | %.4f | %.1f | %.1f | %s | %s | %s |\n",
				$1, $8, $11, $14, $15, sp, rs, $18 }'
	} >> "$out"
}
