#!/bin/bash
# A GPU sweep interrupted as people interrupt it (issue 37), then resumed:
#  1. `timeout --preserve-status -s INT 8`, which sends SIGINT to gpulab
#     and to its process group: the two copies are one signal;
#  2. `timeout -s HUP 8`, the same with SIGHUP;
#  3. two `kill -INT` in a row;
# each must end with the summary line ("gpulab: interrupted by SIG...:
# N points done, M not run; ...") and exit 128 + the signal, its record's
# closing line saying it was interrupted; then the same command with
# --resume must end with every point ok.  Prints each step's lines and
# PASS or FAIL; exits 1 on any FAIL.
#   bench/interrupt-gpu.sh [GPULAB]   (default: gpulab on PATH; in a build
#                                      tree, its ./gpulab wrapper)
# SWEEP, POINTS and AFTER set the sweep (its words after gpulab), its
# points and the seconds before the signal: the default is 28 points of
# reduce.best and reduce.cub, signalled after 8 s.  On a machine without
# a GPU, SWEEP='run fake.sleepy -n 64:2^13 -r 5' POINTS=8 AFTER=0.5 tries
# the script itself on the fake plugin (GPULAB_PLUGIN_PATH naming it).
set -u
g=${1:-gpulab}
here=$(cd "$(dirname "$0")" && pwd)
export PYTHONPATH=$here${PYTHONPATH:+:$PYTHONPATH}
dir=$(mktemp -d /tmp/gpulab-interrupt-XXXXXX)
trap 'rm -rf "$dir"' EXIT
read -r -a sweep <<< "${SWEEP:-run reduce.best reduce.cub -n 2^16:2^28:2 -t int,float}"
points=${POINTS:-28}
after=${AFTER:-8}
failed=0
check() { # check WHAT COND...
	local what=$1
	shift
	if "$@"; then echo "PASS: $what"; else echo "FAIL: $what"; failed=1; fi
}
# record FILE: "points ok not_run finished interrupted interruption"
record() {
	python3 - "$1" <<'PY' 2>/dev/null
import gpulab_record, sys
r = gpulab_record.load(sys.argv[1])
st = [p["status"] for p in r["results"]]
print(len(st), st.count("ok"), st.count("not run"), r["finished"], r["interrupted"], r["interruption"])
PY
}

# interrupted NAME SIGNAL CODE: the run in $dir/NAME.json just ended with
# exit $rc; check it, then resume it.
interrupted() {
	local name=$1 sig=$2 code=$3 rec=$dir/$1.json
	echo "--- $name: exit $rc; stderr:"
	cat "$dir/$name.err"
	echo "record: $(record "$rec")   closing line: $(tail -n 1 "$rec")"
	check "$name: exit $code" [ "$rc" = "$code" ]
	check "$name: the summary line" grep -q "^gpulab: interrupted by $sig: [0-9]* points\? done, [0-9]* not run; " "$dir/$name.err"
	check "$name: one line on stderr" [ "$(wc -l < "$dir/$name.err")" = 1 ]
	if grep -q "^gpulab: interrupted by $sig: 0 points done" "$dir/$name.err"; then
		# stopped before its first point was measured: no record replaces what
		# was there (here, nothing), and --resume below starts afresh (issue 46)
		check "$name: nothing measured, no record written" [ ! -e "$rec" ]
	else
		check "$name: the record says interrupted by $sig" grep -q "^{\"end\": {\"interrupted\": true, \"interruption\": \"$sig\"" <(tail -n 1 "$rec")
	fi
	"$g" "${sweep[@]}" -o "$rec" --resume > "$dir/$name.resume.out" 2> "$dir/$name.resume.err"
	local r=$?
	echo "--- $name --resume: exit $r; $(grep '^resuming' "$dir/$name.resume.out")"
	cat "$dir/$name.resume.err"
	echo "record: $(record "$rec")   closing line: $(tail -n 1 "$rec")"
	check "$name --resume: exit 0" [ "$r" = 0 ]
	check "$name --resume: every point ok, finished, not interrupted" [ "$(record "$rec" | cut -d' ' -f1-5)" = "$points $points 0 True False" ]
}

timeout --preserve-status -s INT "$after" "$g" "${sweep[@]}" -o "$dir/int.json" > "$dir/int.out" 2> "$dir/int.err"
rc=$?
interrupted int SIGINT 130

timeout --preserve-status -s HUP "$after" "$g" "${sweep[@]}" -o "$dir/hup.json" > "$dir/hup.out" 2> "$dir/hup.err"
rc=$?
interrupted hup SIGHUP 129

"$g" "${sweep[@]}" -o "$dir/twice.json" > "$dir/twice.out" 2> "$dir/twice.err" &
pid=$!
sleep "$after"
kill -INT "$pid"
kill -INT "$pid"
wait "$pid"
rc=$?
interrupted twice SIGINT 130

[ $failed = 0 ] && echo "all passed" || echo "some failed"
exit $failed
