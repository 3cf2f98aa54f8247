#!/bin/bash
# bench/grade_suites.py (issue 55) on the CPU: a hand-written grade record
# (the journal's header line, as `gpulab grade -o` writes it) against an
# expect.tsv.  As expected: exit 0; each kind of mismatch (a wrong exit,
# a wrong failure word, a reason without its substring, a kernel ranked
# that should fail, one missing, one not in expect.tsv): its FAIL line
# and exit 1; --mode test: a timed-run failure counts as passing the
# gate where expect.tsv says `pass`, and a result of the other mode is a
# mismatch; a file that is not a record: exit 2.
set -u
src=$(cd "${srcdir:-.}" && pwd)
py=$src/bench/grade_suites.py
dir=$(mktemp -d /tmp/gpulab-grade-suites-XXXXXX)
trap 'rm -rf "$dir"' EXIT
failed=0
bad() { echo "FAIL: $*"; failed=1; }

# The record: a header line with grade's member, then a point and the end.
cat >"$dir/grade.json" <<'EOF'
{"schema": "gpulab-record/2.1", "command": "gpulab grade reduce subs -n 2^20 -t int -o grade.json", "grade": {"challenge": "reduce", "kernels": [{"kernel": "subs/right.cu", "rank": 1, "ref_share": 0.9, "exit": null, "failure": null, "reason": null}, {"kernel": "subs/template.cu", "rank": 2, "ref_share": 0.3, "exit": null, "failure": null, "reason": null}, {"kernel": "subs/stateful.cu", "rank": null, "ref_share": null, "exit": 1, "failure": "wrong result", "reason": "FAILED: sum of 1048576 ints: expected 133693440, got -1048576"}, {"kernel": "subs/hang.cu", "rank": null, "ref_share": null, "exit": 12, "failure": "hung: stopped", "reason": "try.reduce (n=1 int): still running after 2 s, stopped by the watchdog (--watchdog)"}, {"kernel": "subs/trap.cu", "rank": null, "ref_share": null, "exit": 8, "failure": "faulted or trapped", "reason": "try reduce: subs/trap.cu at n=1 int: the exercise's GPU work failed: unspecified launch failure; nothing was timed"}]}}
{"exercise": "try.reduce", "params": {"n": 1048576, "kernel": "subs/right.cu"}, "status": "ok"}
{"end": {"interrupted": false, "interruption": null, "points": 1}}
EOF
expect() { # expect FILE: rows from stdin, '|' for a tab
	{ printf '# file\toutcome\texit\tfailure\treason\ttest\n'; tr '|' '\t'; } >"$dir/$1"
}
expect good.tsv <<'EOF'
right.cu|ranked|-|-|-|same
template.cu|ranked|-|-|-|same
stateful.cu|failed|1|wrong result|-|pass
hang.cu|failed|12|hung: stopped|stopped by the watchdog|same
trap.cu|failed|8|faulted or trapped|trap.cu at n=1 int|same
EOF
python3 "$py" "$dir/grade.json" "$dir/good.tsv" >"$dir/out" 2>&1
rc=$?
[ $rc -eq 0 ] || bad "as expected: exit $rc, not 0"
grep -q '^reduce ranked: 5 kernels, 5 as expected, 0 not$' "$dir/out" || bad "as expected: no summary"
[ "$(grep -c ' ok$' "$dir/out")" = 5 ] || bad "as expected: not 5 ok lines"
cat "$dir/out"

# Each mismatch alone: its file's FAIL line, exit 1.
mismatch() { # mismatch FILE ROW WHY: good.tsv with FILE's row replaced by ROW
	grep -v "^$1	" "$dir/good.tsv" >"$dir/bad.tsv"
	[ -n "$2" ] && printf '%s\n' "$2" | tr '|' '\t' >>"$dir/bad.tsv"
	python3 "$py" "$dir/grade.json" "$dir/bad.tsv" >"$dir/out" 2>&1
	local rc=$?
	[ $rc -eq 1 ] || bad "$3: exit $rc, not 1"
	grep -q "^$1 .* FAIL$" "$dir/out" || { bad "$3: no FAIL line for $1"; cat "$dir/out"; }
	[ "$(grep -c ' FAIL$' "$dir/out")" = 1 ] || bad "$3: not one FAIL line"
	grep -q ', 1 not$' "$dir/out" || bad "$3: the summary does not count it"
}
mismatch hang.cu 'hang.cu|failed|8|hung: stopped|-|same' "another exit"
mismatch trap.cu 'trap.cu|failed|8|wrong result|-|same' "another failure word"
mismatch trap.cu 'trap.cu|failed|8|faulted or trapped|at n=31 int|same' "a reason without the substring"
mismatch right.cu 'right.cu|failed|1|wrong result|-|same' "ranked where a failure was expected"
mismatch stateful.cu 'stateful.cu|ranked|-|-|-|same' "failed where a rank was expected"
mismatch stateful.cu '' "a kernel expect.tsv lacks"
printf 'gone.cu\tranked\t-\t-\t-\tsame\n' >>"$dir/good.tsv"
python3 "$py" "$dir/grade.json" "$dir/good.tsv" >"$dir/out" 2>&1
[ $? -eq 1 ] && grep -q '^gone.cu .*(not graded) *FAIL$' "$dir/out" || bad "a row grade did not grade: not a FAIL"
sed -i '$d' "$dir/good.tsv"

# --mode test, from grade's JSON document: the gate passed stateful.cu,
# which fails only in the timed runs ('pass'); hang.cu passing would not do.
python3 - "$dir/grade.json" >"$dir/test.json" <<'EOF'
import json, sys
g = json.loads(open(sys.argv[1]).readline())["grade"]
for k in g["kernels"]:
    k["rank"] = None
    if k["kernel"].endswith(("right.cu", "template.cu", "stateful.cu")):
        k.update(exit=0, failure="passed the gate", reason="")
        k["passed"] = True
print(json.dumps(dict(schema="gpulab-grade/1", mode="test", **g)))
EOF
python3 "$py" --mode test "$dir/test.json" "$dir/good.tsv" >"$dir/out" 2>&1 || bad "--mode test: exit $?, not 0"
grep -q '^stateful.cu  *pass  *pass  *ok$' "$dir/out" || bad "--mode test: stateful.cu not a pass"
grep -q '^reduce test: 5 kernels, 5 as expected, 0 not$' "$dir/out" || { bad "--mode test: no summary"; cat "$dir/out"; }
python3 "$py" --mode ranked "$dir/test.json" "$dir/good.tsv" >"$dir/out" 2>&1
[ $? -eq 1 ] && grep -q '^reduce ranked: grade ran in mode test, not ranked$' "$dir/out" || bad "a --test result checked as ranked: not a FAIL"
sed -i 's/^stateful.cu\(.*\)pass$/stateful.cu\1same/' "$dir/good.tsv"
python3 "$py" --mode test "$dir/test.json" "$dir/good.tsv" >"$dir/out" 2>&1
[ $? -eq 1 ] && grep -q '^stateful.cu .* FAIL$' "$dir/out" || bad "--mode test: a gate pass where a failure was expected is not a FAIL"

# Not a record, not a table: exit 2 with one line.
echo '{"schema": "gpulab-record/2.0"}' >"$dir/plain.json"
python3 "$py" "$dir/plain.json" "$dir/good.tsv" >"$dir/out" 2>&1
[ $? -eq 2 ] && grep -q 'no grade member' "$dir/out" || bad "a record without grade: not exit 2"
printf 'right.cu\tranked\n' >"$dir/short.tsv"
python3 "$py" "$dir/grade.json" "$dir/short.tsv" >"$dir/out" 2>&1
[ $? -eq 2 ] && grep -q 'short.tsv:1: not 6 cells' "$dir/out" || bad "a short row: not exit 2"
[ $failed -eq 0 ] && echo "grade_suites.sh: every case as expected"
exit $failed
