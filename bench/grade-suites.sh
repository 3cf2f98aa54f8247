#!/bin/bash
# bench/grade-suites.sh: the gaming suites (tests/challenges/NAME/) graded
# on a GPU, each kernel's outcome checked against the suite's expect.tsv
# (issue 55).
#
#   bench/grade-suites.sh [--jobs N] GPULAB [CHALLENGE...]
#
# For each challenge (by default every folder of tests/challenges) that
# GPULAB lists (`gpulab list try` shows try.NAME) and that has a suite
# (a challenge of either kind without the other is skipped, with a
# line), into LOGS/NAME/:
#   kernels/     the suite's .cu files, and the challenge's own template
#                as template.cu (`gpulab try NAME --template`)
#   test.json    `gpulab grade --test NAME kernels/ ARGS --format json`:
#                the gate alone
#   grade.json   `gpulab grade NAME kernels/ ARGS -o grade.json`: ranked
#   *.txt        what each printed; check.txt, the comparison
# ARGS are the suite's `args` file (small sizes: -n 2^20 -t int for
# reduce), then --watchdog 2 (WATCHDOG) and a short stopping rule
# (GRADE_ARGS, default -r 5 -w 1): the outcomes are checked, not the
# times.  bench/grade_suites.py compares each record with expect.tsv,
# a line a kernel (file, expected, got, ok or FAIL) and a summary.
# MODES (default "test ranked") picks the modes: MODES=ranked runs no
# --test, for a gpulab before it.  --jobs N grades N challenges at once
# (their outcomes do not depend on time; a hang is stopped by try's
# watchdog whatever else runs).
# Exit 0 when every kernel came out as expected, 1 on any mismatch (or
# a grade that failed), 2 when GPULAB's grade has no --test (an older
# build) or the arguments are wrong.
set -u
here=$(cd "$(dirname "$0")" && pwd)
suites=${SUITES:-$here/../tests/challenges}
logs=${LOGS:-/tmp/gpulab-grade-suites}
watchdog=${WATCHDOG:-2}
modes=${MODES:-test ranked}
jobs=1
if [ "${1:-}" = --jobs ]; then jobs=$2; shift 2; fi
[ $# -ge 1 ] || { echo "usage: bench/grade-suites.sh [--jobs N] GPULAB [CHALLENGE...]" >&2; exit 2; }
g=$1
shift
if [[ " $modes " == *" test "* ]] && ! "$g" grade --help 2>&1 | grep -q -- '--test'; then
	echo "grade-suites: $g grade has no --test (an older build): nothing checked"
	exit 2
fi
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for d in "$suites"/*/; do [ -f "$d/expect.tsv" ] && names+=("$(basename "$d")"); done
fi
listed=$("$g" list try 2>/dev/null)

# One challenge, both modes, its lines into LOGS/NAME/check.txt; 1 on a
# mismatch or a grade that failed.
suite() {
	local name=$1 out=$logs/$1 rc=0 args
	rm -rf "$out" && mkdir -p "$out/kernels" || return 1
	# each kernel compiled once for both modes, in a cache of the suite's own (not in the logs)
	XDG_CACHE_HOME=$(mktemp -d "${TMPDIR:-/tmp}/gpulab-suite-cache-XXXXXX") || return 1
	export XDG_CACHE_HOME
	trap 'rm -rf "$XDG_CACHE_HOME"' RETURN
	cp "$suites/$name"/*.cu "$out/kernels/" || return 1
	"$g" try "$name" --template >"$out/kernels/template.cu" 2>"$out/template.err" || {
		echo "$name: gpulab try $name --template failed: $(tail -n 1 "$out/template.err")"; return 1; }
	read -r -a args <"$suites/$name/args"
	# shellcheck disable=SC2206
	local common=("${args[@]}" --watchdog "$watchdog" ${GRADE_ARGS:--r 5 -w 1})
	: >"$out/check.txt"
	if [[ " $modes " == *" test "* ]]; then
		"$g" grade --test "$name" "$out/kernels" "${common[@]}" --format json >"$out/test.json" 2>"$out/test.txt"
		echo "$name: gpulab grade --test exited $?" >>"$out/test.txt"
		python3 "$here/grade_suites.py" --mode test --label "$name --test" "$out/test.json" \
			"$suites/$name/expect.tsv" >>"$out/check.txt" 2>&1 || rc=1
	fi
	[[ " $modes " == *" ranked "* ]] || return $rc
	"$g" grade "$name" "$out/kernels" "${common[@]}" -o "$out/grade.json" >"$out/grade.txt" 2>&1
	local st=$?
	if [ $st -ne 0 ]; then
		echo "$name: gpulab grade exited $st: $(tail -n 1 "$out/grade.txt")" >>"$out/check.txt"
		rc=1
	fi
	python3 "$here/grade_suites.py" --mode ranked --label "$name ranked" "$out/grade.json" \
		"$suites/$name/expect.tsv" >>"$out/check.txt" 2>&1 || rc=1
	return $rc
}

mkdir -p "$logs"
ran=() failed=0 t0=$(date +%s)
for name in "${names[@]}"; do
	if [ ! -f "$suites/$name/expect.tsv" ]; then
		echo "grade-suites: $name: skipped: no suite ($suites/$name/expect.tsv)"; continue
	fi
	if ! grep -qE "^ +try\.$name( |$)" <<<"$listed"; then
		echo "grade-suites: $name: skipped: $g lists no challenge $name"; continue
	fi
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
	(suite "$name"; echo $? >"$logs/$name.rc") &
	ran+=("$name")
done
wait
for name in "${ran[@]}"; do
	[ "$(cat "$logs/$name.rc" 2>/dev/null)" = 0 ] || failed=1
	echo "== $name"
	cat "$logs/$name/check.txt"
done
echo "grade-suites: ${#ran[@]} challenge(s) graded in $(($(date +%s) - t0)) s, $([ $failed -eq 0 ] && echo "every kernel as expected" || echo "MISMATCHES (above)"); logs in $logs"
exit $failed
