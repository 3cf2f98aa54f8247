#!/bin/sh
# Every lesson of `gpulab learn` run once on this GPU (issue 49), as the
# table of docs/learn.md: claim, place in the chapter notes, the notes'
# figure, lesson, and the verdict here.
#   bench/learn-table.sh OUTDIR
# writes OUTDIR/learn-table.md (the table's rows, ready for
# docs/learn.md), OUTDIR/learn-table.json (every lesson's raw result:
# exit status, seconds, verdict and figure as progress.ini kept them, and
# learn's whole output) and OUTDIR/records/ (each lesson's run record).
# gpulab is the one on PATH (GPULAB names another); the lessons are the
# ones it reads ($GPULAB_LESSONS, else PREFIX/share/gpulab/lessons beside
# PREFIX/bin/gpulab).  OPTS are learn's options (default: --timeout 0.5
# --min-time 0.02, so that each point stops on noise or after half a
# second and all the lessons take about two minutes on an H100; a point
# still gets hundreds of samples, many more than the U test's 5).
# A fresh XDG_STATE_HOME: no progress, no records from before (LEARN_STATE
# names an empty one to keep, for a caller that reads the progress after,
# as bench/gpu-check.sh does).  Prints
# its own wall time last.  Needs python3 (standard library).
set -u
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
gpulab=${GPULAB:-gpulab}
bin=$(command -v "$gpulab") || { echo "$0: no $gpulab on PATH" >&2; exit 2; }
lessons=${GPULAB_LESSONS:-$(dirname "$(dirname "$bin")")/share/gpulab/lessons}
[ -d "$lessons" ] || { echo "$0: no lessons in $lessons (set GPULAB_LESSONS)" >&2; exit 2; }
opts=${OPTS:---timeout 0.5 --min-time 0.02}
out=$1
mkdir -p "$out/logs" "$out/records" || exit 2
start=$(date +%s)
XDG_STATE_HOME=${LEARN_STATE:-$(mktemp -d)} || exit 2
export XDG_STATE_HOME GPULAB_LESSONS="$lessons"

# the lessons in the map's order: its indented lines are NAME TOPIC STATE
names=$("$gpulab" learn | sed -n 's/^  \([a-z0-9_-][a-z0-9_-]*\) .*/\1/p')
[ -n "$names" ] || { echo "$0: gpulab learn lists no lessons" >&2; exit 2; }
for name in $names; do
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086 # opts is words
	"$gpulab" learn "$name" $opts > "$out/logs/$name.txt" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	echo "$name $rc $t0 $t1" >> "$out/logs/status"
	line=$(grep -m1 -E '^  verdict |^No verdict|^The experiment did not run' "$out/logs/$name.txt")
	printf '%-26s %s\n' "$name" "${line:-exit $rc}" | cut -c1-120
done
cp "$XDG_STATE_HOME/gpulab/progress.ini" "$out/progress.ini" 2>/dev/null
cp "$XDG_STATE_HOME"/gpulab/records/*.json "$out/records/" 2>/dev/null
python3 "$(dirname "$0")/learn_table.py" "$lessons" "$out" "$("$gpulab" info 2>/dev/null | sed -n 's/^device *[0-9]*: //p' | head -n 1)"
rc=$?
[ -n "${LEARN_STATE:-}" ] || rm -rf "$XDG_STATE_HOME"
echo "wall time: $(($(date +%s) - start)) s for $(echo "$names" | wc -l) lessons"
exit $rc
