# Shared by the bench/*.sh scripts (sourced, POSIX sh): a Markdown file
# with the GPU and toolkit named, then one table per `gpulab run`, each
# linking the JSON record it was made from (OUT's name without .md, -N.json,
# in records/ beside OUT: docs/ holds the pages people read).
# GPULAB names the gpulab to run (default: gpulab on PATH); REPS the
# timed repetitions (default: none, so each point runs until its noise
# is under gpulab's --max-noise), after 5 warm-ups, warm L2.  Tables are
# rendered from the records by bench/table.py (python3, standard library).
gpulab=${GPULAB:-gpulab}
reps=${REPS:-}
here=$(dirname "$0")
section=0

# bench_records OUT: OUT's records' path but for their -N.json, in the
# folder records/ beside OUT (made here); bench_record OUT N: OUT's Nth
# record; bench_link FILE: how OUT links FILE, a record there.
bench_records()
{
	mkdir -p "$(dirname "$1")/records" || exit 1
	echo "$(dirname "$1")/records/$(basename "${1%.md}")"
}
bench_record() { echo "$(bench_records "$1")-$2.json"; }
bench_link() { echo "records/$(basename "$1")"; }

# bench_header OUT TITLE TEXT: start OUT with the GPU's name and versions.
bench_header()
{
	info=$($gpulab info) || exit 1
	gpu=$(printf '%s\n' "$info" | sed -n 's/^device *[0-9]*: //p' | head -n 1)
	runtime=$(printf '%s\n' "$info" | sed -n 's/^runtime *//p' | head -n 1)
	driver=$(printf '%s\n' "$info" | sed -n 's/^NVIDIA driver *//p' | head -n 1)
	peak=$(printf '%s\n' "$info" | sed -n 's/^peak memory bandwidth *//p' | head -n 1)
	how="each point repeated until its noise is under 0.5% (see each record's \"runs\" and \"noise_pct\")"
	[ -n "$reps" ] && how="median of $reps repetitions"
	{
		echo "# $2 on $gpu"
		echo
		echo "$(date -u +%Y-%m-%d), CUDA runtime $runtime, NVIDIA driver ${driver:-unknown}, peak $peak."
		echo "Warm L2, $how after 5 warm-ups.  $3"
	} > "$1"
}

# bench_section OUT HEADING ARGS...: `gpulab run ARGS` as a table, and
# its record in bench_record OUT N.
bench_section()
{
	out=$1 heading=$2
	shift 2
	section=$((section + 1))
	record=$(bench_record "$out" "$section")
	$gpulab run "$@" ${reps:+-r "$reps"} -w 5 --quiet --output "$record" >/dev/null || exit 1
	{
		echo
		echo "## $heading"
		echo
		echo "\`gpulab run $*\` ([record]($(bench_link "$record")))"
		echo
		python3 "$here/table.py" "$record"
	} >> "$out"
}

# bench_compare OUT RECORD BASE NEW [VERDICTS]: the compare verdict of
# exercise NEW against BASE at every point of RECORD, as a table
# (bench/compare_table.py), beside its JSON in VERDICTS (default: RECORD
# with -compare.json for .json; name one where a record has several).
bench_compare()
{
	verdicts=${5:-${2%.json}-compare.json}
	$gpulab compare "$2" --base "$3" --new "$4" --format json > "$verdicts" || exit 1
	{
		echo
		echo "\`gpulab compare $(bench_link "$2") --base $3 --new $4\` ([verdicts]($(bench_link "$verdicts")))"
		echo
		python3 "$here/compare_table.py" "$verdicts"
	} >> "$1"
}
