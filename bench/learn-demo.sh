#!/bin/sh
# gpulab learn and grade (issue 40) on a GPU, as a learner and a teacher
# meet them: the map on a fresh account, three lessons run with their
# verdicts, one task submitted and passed, the map again, then `gpulab
# grade` over five kernels (two right, one wrong, one that traps in its
# timed runs, one that never ends) and `gpulab report` of its record.
#   bench/learn-demo.sh            (from the source tree, after make)
# GPULAB names the gpulab to run (default: the build tree's ./build/gpulab,
# else gpulab on PATH); OPTS are learn's and grade's options (default
# --timeout 3: each point stops on noise or after 3 s).  Every step's
# output goes to $OUT (default: learn-demo/), one file each, and to the
# terminal.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
gpulab=${GPULAB:-$here/build/gpulab}
[ -x "$gpulab" ] || gpulab=gpulab
out=${OUT:-learn-demo}
opts=${OPTS:---timeout 3}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# a fresh account: no progress yet, and a kernel cache of its own
XDG_STATE_HOME=$(mktemp -d) XDG_CACHE_HOME=$(mktemp -d)
export XDG_STATE_HOME XDG_CACHE_HOME

step()
{
	name=$1
	shift
	echo "\$ gpulab $*" | tee "$out/$name.txt"
	{ "$gpulab" "$@" 2>&1; echo "(exit $?)"; } | tee -a "$out/$name.txt"
	echo
}

step 01-map learn
step 02-divergence learn divergence $opts
step 03-smem-pad learn smem-pad $opts
step 04-sum-matrix-blocks learn sum-matrix-blocks $opts
# the task of reduce-volatile-warp: 1.1x unroll8 at 2^24 ints (this kernel: 16-byte loads, a
# persistent grid, shuffles), and of reduce-unroll: 1.0x unroll8 (examples/learn: eight loads, shuffles)
step 05-submit learn reduce-volatile-warp --submit "$here/tests/try/reduce_shfl.cu" $opts
step 06-submit learn reduce-unroll --submit "$here/examples/learn/unroll8_shfl.cu" $opts
step 07-map learn
cp "$XDG_STATE_HOME/gpulab/progress.ini" "$out/progress.ini"

# five students' kernels
subs=$(mktemp -d)
cp "$here/tests/try/reduce_shfl.cu" "$subs/ada.cu"
cp "$here/examples/learn/unroll8_shfl.cu" "$subs/brian.cu"
cp "$here/tests/try/reduce_tail.cu" "$subs/carla.cu"
cp "$here/tests/try/trap.cu" "$subs/dmitri.cu"
cp "$here/tests/try/forever.cu" "$subs/erin.cu"
step 08-grade grade reduce "$subs" -n 2^20 -t int --watchdog 5 $opts -o "$out/grade.json"
step 09-report report "$out/grade.json" -o "$out/leaderboard.html"
"$gpulab" report "$out/grade.json" -o "$out/leaderboard.svg" >/dev/null 2>&1
rm -rf "$subs" "$XDG_STATE_HOME" "$XDG_CACHE_HOME"
echo "outputs in $out"
