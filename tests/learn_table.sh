#!/bin/sh
# bench/learn-table.sh (issue 49) on the CPU: three lessons on the fake
# plugin, one that holds, one that does not, one whose figure names a
# point the run lacks.  The table's rows, the raw JSON and the wall time
# are written, and the exit status says one lesson had no verdict.
set -u
[ -n "${GPULAB_BIN:-}" ] && [ -n "${GPULAB_TEST_PLUGINS:-}" ] \
	|| { echo "learn_table.sh: GPULAB_BIN and GPULAB_TEST_PLUGINS must be set (make check sets them)"; exit 99; }
src=${srcdir:-.}
dir=$(mktemp -d /tmp/gpulab-learn-table-XXXXXX)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/lessons" "$dir/xdg"
printf '[plugin fake]\nfile = fake.so\n' >"$dir/gpulab.ini"
export GPULAB_SYSCONFDIR=$dir GPULAB_PLUGIN_PATH=$GPULAB_TEST_PLUGINS XDG_CONFIG_HOME=$dir/xdg GPULAB_CONFIG=
lesson() { # lesson NAME ORDER RULE FIGURE
	cat >"$dir/lessons/$1.ini" <<EOT
[lesson]
order = $2
chapter = Chapter 3
topic = Topic of $1
claim = A claim
book = 2.00x (Tesla K80)
notes = 000 L$2
run = fake.sleepy fake.ok -n 64 -r 10
figure = $4
rule = $3
unit = x
because = a reason
why = Because.
docs = learn.md
[task]
challenge = gated
target = 1.5x fake.sleepy
text = Do it.
EOT
}
lesson holds 1 '>= 2' 'speedup fake.sleepy fake.ok@n=64'
lesson fails 2 '<= 1' 'speedup fake.sleepy fake.ok@n=64'
lesson lacks 3 '>= 2' 'speedup fake.sleepy fake.nothere'
GPULAB=$GPULAB_BIN GPULAB_LESSONS=$dir/lessons timeout 120 sh "$src/bench/learn-table.sh" "$dir/out" >"$dir/stdout" 2>&1
rc=$?
failed=0
check() { # check WHAT COND...
	what=$1
	shift
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failed=1; fi
}
check "exit 1: a lesson had no verdict (got $rc)" [ "$rc" -eq 1 ]
check "the wall time printed" grep -q '^wall time: [0-9]* s for 3 lessons$' "$dir/stdout"
check "a header and three rows" [ "$(grep -c '^|' "$dir/out/learn-table.md")" -eq 5 ]
check "holds" grep -q '^| Topic of holds | 000 L1 | 2.00x (Tesla K80) | `holds` | holds: ' "$dir/out/learn-table.md"
check "does not hold" grep -q '| `fails` | does not hold: ' "$dir/out/learn-table.md"
check "no verdict, and why" grep -q '| `lacks` | no verdict: the run has no point of fake.nothere: -' "$dir/out/learn-table.md"
check "the raw results" python3 -c "
import json, sys
d = json.load(open('$dir/out/learn-table.json'))
v = [(l['lesson'], l['verdict'], l['exit']) for l in d['lessons']]
sys.exit(v != [('holds', 'holds', 0), ('fails', 'fails', 0), ('lacks', None, 1)] or d['lessons'][0]['value'] < 2)"
check "each verdict's record kept" [ -f "$dir/out/records/holds.json" ] && [ -f "$dir/out/records/fails.json" ]
[ $failed -eq 0 ] || cat "$dir/stdout"
exit $failed
