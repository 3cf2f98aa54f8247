#!/bin/bash
# bench/grade-class.sh: how long `gpulab grade reduce DIR` takes over a
# class of 20 kernels (issue 55), as a teacher runs it.
#
#   bench/grade-class.sh [--record] GPULAB [OUTDIR]
#
# The class is made in OUTDIR/class/ (default /tmp/gpulab-grade-class)
# under student names, alice.cu ... yvonne.cu, from what a class hands
# in: the challenge's template (`gpulab try reduce --template`) five
# times, right kernels (tests/challenges/reduce/right.cu, and
# tests/try/reduce_shfl.cu and reduce_atomic.cu twice each), and one each
# of the gaming suite's failures and tests/try/reduce_tail.cu: 12 to be
# ranked and 8 to fail, one of them hanging until the watchdog.  Then
#   gpulab grade reduce OUTDIR/class ARGS -o OUTDIR/grade.json
# with ARGS from CLASS_ARGS (default: -n 2^20 -t int --watchdog 2, the
# grade step's), timed by the wall clock.  It writes OUTDIR/class.json
# (the wall time, the counts, the device, the command) and prints one
# markdown line for a table:
#   | kernels | ranked | failed | wall s | s a kernel | device | command |
# --record also copies class.json to docs/records/bench-grade-class.json.
# Exit: grade's, or 1 when a right kernel failed or a broken one was
# ranked (the stateful one may be either: see the end).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
record=
if [ "${1:-}" = --record ]; then record=yes; shift; fi
if [ $# -lt 1 ] || [ $# -gt 2 ]; then echo "usage: bench/grade-class.sh [--record] GPULAB [OUTDIR]" >&2; exit 2; fi
g=$1 out=${2:-/tmp/gpulab-grade-class}
args=${CLASS_ARGS:--n 2^20 -t int --watchdog 2}
rm -rf "$out/class" && mkdir -p "$out/class" || exit 2

students=(alice bob carol dave erin frank grace heidi ivan judy
	mallory niaj olivia peggy rupert sybil trent victor walter yvonne)
suite=$src/tests/challenges/reduce
"$g" try reduce --template >"$out/template.cu" || { echo "grade-class: gpulab try reduce --template failed" >&2; exit 2; }
sources=("$out/template.cu" "$out/template.cu" "$out/template.cu" "$out/template.cu" "$out/template.cu"
	"$suite/right.cu" "$suite/right.cu" "$suite/right.cu"
	"$src/tests/try/reduce_shfl.cu" "$src/tests/try/reduce_shfl.cu"
	"$src/tests/try/reduce_atomic.cu" "$src/tests/try/reduce_atomic.cu"
	"$suite/stateful.cu" "$suite/gate_sizes.cu" "$suite/read_past.cu" "$suite/write_past.cu"
	"$suite/race.cu" "$suite/hang.cu" "$suite/trap.cu" "$src/tests/try/reduce_tail.cu")
for i in "${!students[@]}"; do
	cp "${sources[$i]}" "$out/class/${students[$i]}.cu" || exit 2
done

# shellcheck disable=SC2086 # args is words
set -- "$g" grade reduce "$out/class" $args -o "$out/grade.json"
t0=$(date +%s.%N)
"$@" >"$out/grade.txt" 2>&1
rc=$?
t1=$(date +%s.%N)
cat "$out/grade.txt"
device=$("$g" info 2>/dev/null | sed -n 's/^device *[0-9]*: //p' | head -n 1)
version=$("$g" --version 2>/dev/null | head -n 1)

python3 - "$out" "$t0" "$t1" "$rc" "${device:-unknown}" "$version" "gpulab grade reduce CLASS/ $args -o grade.json" <<'EOF'
import datetime, json, os, sys
out, t0, t1, rc, device, version, command = sys.argv[1:]
kernels = []
try:
    with open(os.path.join(out, "grade.json"), encoding="utf-8") as f:
        kernels = json.loads(f.readline())["grade"]["kernels"]
except (OSError, ValueError, KeyError):
    pass
wall = float(t1) - float(t0)
ranked = sum(1 for k in kernels if k.get("rank") is not None)
doc = {"schema": "gpulab-grade-class/1", "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
       "gpulab": version, "device": device, "command": command, "exit": int(rc), "kernels": len(kernels),
       "ranked": ranked, "failed": len(kernels) - ranked, "wall_s": round(wall, 2),
       "failures": {os.path.basename(k["kernel"]): k.get("failure") for k in kernels if k.get("rank") is None}}
with open(os.path.join(out, "class.json"), "w", encoding="utf-8") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
print("| %d | %d | %d | %.1f | %.2f | %s | `%s` |" % (len(kernels), ranked, len(kernels) - ranked, wall,
      wall / max(len(kernels), 1), device, command))
EOF
if [ -n "$record" ]; then
	cp "$out/class.json" "$src/docs/records/bench-grade-class.json" && echo "recorded: docs/records/bench-grade-class.json"
fi
[ $rc -eq 0 ] || exit $rc
# the twelve right kernels ranked and the seven failures failed (the
# thirteenth student's, stateful.cu, is ranked by a try that does not
# catch state, and failed by one that does: either, said)
python3 - "$out/class.json" "${students[@]}" <<'EOF2'
import json, sys
doc, names = json.load(open(sys.argv[1])), sys.argv[2:]
failed = doc["failures"]
wrong = [n for n in names[:12] if n + ".cu" in failed] + [n for n in names[13:] if n + ".cu" not in failed]
print("grade-class: %s's stateful.cu was %s" % (names[12], "failed (%s)" % failed[names[12] + ".cu"]
                                                   if names[12] + ".cu" in failed else "ranked"))
if doc["kernels"] != 20 or wrong:
    print("grade-class: %d kernels graded; not as the class was made: %s" % (doc["kernels"], " ".join(wrong)))
    sys.exit(1)
EOF2
