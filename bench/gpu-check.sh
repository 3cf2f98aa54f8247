#!/bin/bash
# bench/gpu-check.sh: everything a GPU must show, in one device call
# (issue 44).  From an unpacked release tarball (or a checkout) on a bare
# GPU machine, in order:
#   build       configure (for this GPU's architecture) and make
#   suite       GPULAB_REQUIRE_GPU=1 make check: the whole suite on the GPU
#   install     make install into a prefix of its own
#   sanitize    compute-sanitizer memcheck, racecheck and synccheck, each
#               over every exercise of each plugin at one odd shape; in
#               the background, beside interrupt, which does not time
#   grade       grade over the try fixtures, and its page; the gaming
#               suite of every challenge, by the gate and ranked, each
#               kernel's outcome checked (bench/grade-suites.sh); a class
#               of 20 graded (bench/grade-class.sh); in the background,
#               after interrupt, beside author
#   interrupt   a sweep stopped by timeout -s INT (and HUP, and two kill
#               -INT), then --resume to the end (bench/interrupt-gpu.sh)
#   author      gpulab new -> make -> make install -> run -> check, under
#               a fresh HOME, with no PKG_CONFIG_PATH
#   learn       every lesson, each to its verdict (bench/learn-table.sh),
#               and one --submit, once sanitize and grade have ended: the
#               GPU alone again
#   ranks       mpirun -np 2 over the multigpu sweep, bounded, and where
#               its time went (bench/ranks-sweep.sh; needs 2 GPUs and
#               mpirun; the suite's tests/ranks.sh verifies the
#               collectives as one rank a GPU, up to 4)
# Each step has its own time bound (timeout), so none can hang the rest,
# and the whole is held to BUDGET seconds (540: 9 minutes; where there
# are 2 GPUs, 585 with the ranks, unless BUDGET is given): one device
# call of 10 minutes holds it.  It prints
# the plan first and ends with one table: step, result, seconds, log.
# Logs go to LOGS (default /tmp/gpulab-check/logs) and into one archive
# there, gpu-check-logs.tar.gz, which with the table (summary.md) is
# copied to $OUT where that is set (a device call brings $OUT back).  Without a GPU it runs
# what needs none (build, suite with the GPU programs skipped, install,
# author's build) and says what it skipped.
#
#   bench/gpu-check.sh [--debs DIR] [--only STEP,STEP]
# --debs DIR: Debian packages (Check, inih, ...) to unpack under the work
# directory first, for a machine with no package registry (what
# ../shared/gpu-bundle packs).  CONFIGURE_FLAGS adds to configure's.
# Exit 0 when every step that ran passed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
work=${GPU_CHECK_WORK:-/tmp/gpulab-check}
build=$work/build prefix=$work/prefix
logs=${LOGS:-$work/logs}
budget=${BUDGET:-540} budget_given=${BUDGET:+yes}
debs="" only=""
while [ $# -gt 0 ]; do
	case $1 in
	--debs) debs=$2; shift 2 ;;
	--only) only=,$2,; shift 2 ;;
	*) echo "gpu-check.sh: unknown argument '$1' (--debs DIR, --only STEP,...)" >&2; exit 2 ;;
	esac
done
rm -rf "$logs"; mkdir -p "$logs" "$work"
: >"$logs/rows"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 # never NVLink multicast
export PATH=/usr/local/cuda/bin:$PATH
start=$(date +%s)
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d '.')
# the ranks come on top where they run: the whole still within a 10-minute call
if [ -z "$budget_given" ] && [ "$gpus" -ge 2 ] && command -v mpirun >/dev/null; then budget=585; fi

# step NAME BOUND CMD...: NAME's command under its bound (and the budget
# left), its output to NAME.log; a row of the final table, kept in a file
# so that a step run in the background (sanitize, beside the steps that
# time nothing) leaves its row too.
rows=$logs/rows
step() {
	local name=$1 bound=$2
	shift 2
	if [ -n "$only" ] && [[ $only != *",$name,"* ]]; then return; fi
	local left=$((budget - ($(date +%s) - start)))
	[ "$bound" -gt "$left" ] && bound=$left
	if [ "$bound" -le 0 ]; then
		echo "$name|not run: the budget was spent|0|-|bad" >>"$rows"; return
	fi
	echo "== $name (at most ${bound}s): $*"
	local t0=$(date +%s) rc
	# a child bash, so that a step may be one of the functions below (exported)
	timeout -k 5 "$bound" bash -c '"$@"' "$name" "$@" >"$logs/$name.log" 2>&1
	rc=$?
	local took=$(($(date +%s) - t0)) result=passed bad=
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then result="timed out after ${bound}s"; bad=bad
	elif [ $rc -eq 77 ]; then result="skipped: $(tail -n 1 "$logs/$name.log")"
	elif [ $rc -ne 0 ]; then result="FAILED (exit $rc)"; bad=bad; tail -n 40 "$logs/$name.log"; fi
	echo "$name|$result|$took|$name.log|$bad" >>"$rows"
}
skip() { # skip NAME WHY
	if [ -n "$only" ] && [[ $only != *",$1,"* ]]; then return; fi
	echo "$1|skipped: $2|0|-|" >>"$rows"
}

deps() {
	local d=$work/deps
	rm -rf "$d"; mkdir -p "$d"
	for f in "$debs"/*.deb; do dpkg -x "$f" "$d" || return 1; done
	local lib=$d/usr/lib/x86_64-linux-gnu
	for pc in "$lib"/pkgconfig/*.pc; do sed -i "s|^prefix=/usr|prefix=$d/usr|" "$pc"; done
	echo "$lib"
}
if [ -n "$debs" ]; then
	lib=$(deps) || { echo "gpu-check.sh: could not unpack $debs" >&2; exit 1; }
	export PKG_CONFIG_PATH=$lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
	export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} LIBRARY_PATH=$lib${LIBRARY_PATH:+:$LIBRARY_PATH}
fi

cat <<EOF
gpu-check: $src on $(hostname), $gpus GPU(s)${arch:+ (sm_$arch)}; logs in $logs; budget ${budget}s
  build 240s, suite 300s, install 60s, sanitize 150s (in the background, beside
  interrupt 90s), grade 240s (in the background, beside author 120s), learn 240s, ranks 140s where
  there are 2 GPUs (the budget is then 585s); each step is also held to what is
  left of the budget
EOF

configure_build() {
	rm -rf "$build" "$prefix" && mkdir -p "$build" && cd "$build" || return 1
	[ -x "$src/configure" ] || (cd "$src" && autoreconf -fi) || return 1
	"$src/configure" --prefix="$prefix" ${arch:+--with-cuda-arch=$arch} ${CONFIGURE_FLAGS:-} && make -j"$(nproc)"
}
suite() {
	cd "$build" && GPULAB_REQUIRE_GPU=$([ "$gpus" -gt 0 ] && echo 1 || echo 0) make -j"$(nproc)" check
	local rc=$?
	grep -h -E '^(PASS|FAIL|SKIP|ERROR|XPASS)|wall ' tests/*.log test-suite.log 2>/dev/null | head -n 60
	cp tests/check_gpu*.log tests/ranks.sh.log "$logs/" 2>/dev/null
	return $rc
}
export src here work build prefix logs gpus arch
export -f configure_build suite
step build 240 configure_build
step suite 300 suite
step install 60 make -C "$build" install
export PATH=$prefix/bin:$PATH
g=$prefix/bin/gpulab

# One odd shape a plugin, every exercise of it, under each tool.  API
# errors are gpulab's to report (NCCL probes for kernels its build lacks,
# and says nothing); the tools look for what the kernels do.  racecheck
# and synccheck refuse a module with dynamic parallelism (a warning they
# count as a hazard, for nested.host_reduce too), so nested is
# memcheck's alone; and racecheck lost track of allreduce_ring's CUDA
# graph on an H200 ("failure to track a kernel launch"), so it sees the
# ring launched on streams.
sanitize() {
	local tool=$1 rc=0 multi="multigpu.* -n 10007"
	local cases=("reduce.* -n 10007" "divergence.* -n 10007" "transpose.* -p rows=67 -p cols=131"
		"sum_matrix.* -p nx=67 -p ny=131")
	[ "$tool" = memcheck ] && cases+=("nested.* -n 10007")
	[ "$tool" = racecheck ] && multi="multigpu.* -n 10007 -p launch=streams"
	cases+=("$multi")
	for c in "${cases[@]}"; do
		echo "-- compute-sanitizer --tool $tool gpulab run $c -t int,float -r 1 -w 0"
		# shellcheck disable=SC2086
		compute-sanitizer --tool "$tool" --report-api-errors no --error-exitcode 99 --target-processes all \
			"$g" run $c -t int,float -r 1 -w 0 --quiet || { echo "   exit $?"; rc=1; }
	done
	return $rc
}
sanitize_all() {
	local pids=() rc=0
	for tool in memcheck racecheck synccheck; do
		sanitize $tool >"$logs/sanitize-$tool.log" 2>&1 & pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p" || rc=1; done
	tail -n 3 "$logs"/sanitize-*.log
	return $rc
}
export g
export -f sanitize sanitize_all
# The sanitizers are slow, and time nothing: they run beside the steps
# after them that time nothing either (interrupt, author, grade); learn,
# which times, waits for them.
sanitizing=
if [ "$gpus" -gt 0 ] && command -v compute-sanitizer >/dev/null; then
	step sanitize 150 sanitize_all &
	sanitizing=$!
else
	skip sanitize "no GPU or no compute-sanitizer"
fi

# grade: the try fixtures graded (two right, one wrong, one that traps,
# one that hangs) and their page; then the gaming suite of every
# challenge this gpulab lists, graded by the gate alone and ranked, each
# kernel's outcome checked (bench/grade-suites.sh, three challenges at a
# time, into LOGS/grade-suites); then a class of 20 (bench/grade-class.sh,
# into LOGS/grade-class; its wall time is a line, not a record here).
# Outcomes, not times, are checked: it runs in the background beside
# sanitize, interrupt and author, on the last GPU where there are two,
# and learn waits for it.
grade() {
	local dir names
	[ "$gpus" -ge 2 ] && export CUDA_VISIBLE_DEVICES=$((gpus - 1))
	dir=$(mktemp -d /tmp/gpulab-grade-XXXXXX)
	cp "$src/tests/try/reduce_shfl.cu" "$dir/shfl.cu"
	gpulab try reduce --template >"$dir/template.cu"
	cp "$src/tests/try/reduce_tail.cu" "$dir/tail.cu"
	cp "$src/tests/try/trap.cu" "$dir/trap.cu"
	cp "$src/tests/try/forever.cu" "$dir/forever.cu"
	gpulab grade reduce "$dir" -n 2^20 -t int --watchdog 2 -o "$logs/grade.json" | tee "$dir/out"
	grep -q '5 kernels, 2 measured, 3 failed' "$dir/out" && gpulab report "$logs/grade.json" -o "$logs/grade.html" \
		|| return 1
	names=$(gpulab list try 2>/dev/null | sed -n 's/^  try\.\([a-z0-9_]*\) .*/\1/p')
	echo "== bench/grade-suites.sh --jobs 3 $g" $names
	# shellcheck disable=SC2086 # names is words
	LOGS=$logs/grade-suites "$here/grade-suites.sh" --jobs 3 "$g" $names || return 1
	# each point stops after 1 s, noisy or not: beside the other steps a
	# point may not settle, and this wall time is not the one recorded
	echo "== bench/grade-class.sh $g"
	CLASS_ARGS="-n 2^20 -t int --watchdog 2 --timeout 1" "$here/grade-class.sh" "$g" "$logs/grade-class"
}
export -f grade
if [ "$gpus" -gt 0 ]; then
	step interrupt 90 env SWEEP="run reduce.best reduce.cub -n 2^16:2^24:2 -t int,float" POINTS=20 AFTER=5 \
		"$here/interrupt-gpu.sh" "$g"
else
	skip interrupt "no GPU"
fi

# grade starts only now: beside interrupt, whose signals fall at fixed
# times, its children kept the GPU so busy that no point was done in the
# 5 s before the signal and the resumed sweep ran past interrupt's bound
grading=
if [ "$gpus" -gt 0 ]; then
	step grade 240 grade &
	grading=$!
else
	skip grade "no GPU"
fi

# The author's path as a new user takes it: nothing of ours in the
# environment but PATH; run and check need the GPU.
author() {
	local home
	home=$(mktemp -d /tmp/gpulab-home-XXXXXX)
	cd "$home" && env -i PATH="$PATH" HOME="$home" LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" bash -c '
		set -ex
		gpulab new hist
		cd hist && make && make install
		gpulab list hist
		gpulab check "$HOME/.local/share/gpulab/plugins/hist.so"
		if nvidia-smi -L >/dev/null 2>&1; then gpulab run hist -r 3; fi'
}
export -f author
step author 120 author

# Every lesson to its verdict, as docs/learn.md's table (bench/learn-table.sh,
# into the logs), then the map counting them all seen, and one kernel
# submitted for a lesson's task (passed, 0, or not, 11).
learn() {
	local state n
	state=$(mktemp -d /tmp/gpulab-learn-XXXXXX)
	LEARN_STATE=$state "$here/learn-table.sh" "$logs/learn-table" || return 1
	n=$(ls "$prefix"/share/gpulab/lessons/*.ini | wc -l)
	XDG_STATE_HOME=$state gpulab learn | tee "$state/map"
	grep -q "$n lessons, $n seen" "$state/map" || { echo "not $n lessons seen"; return 1; }
	XDG_STATE_HOME=$state gpulab learn reduce-unroll --submit "$src/tests/try/reduce_shfl.cu"
	local rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 11 ]
}
export -f learn
[ -n "$sanitizing" ] && wait "$sanitizing" # learn times: the GPU alone
[ -n "$grading" ] && wait "$grading" # and grade, which also uses it
if [ "$gpus" -gt 0 ]; then step learn 240 learn; else skip learn "no GPU"; fi

# Ranks: the 30-point sweep as 2 ranks (bench/ranks-sweep.sh: issue 44's,
# timed in issue 52), within its bound, with its wall time and where it
# went (the collectives' verification as one rank a GPU, up to 4, is
# tests/ranks.sh's, in the suite).  The sweep names the five collectives:
# `multigpu` as ranks also runs the five exercises that share memory over
# CUDA IPC, which bench/multigpu-4gpu.sh verifies and times on its own.
ranks() {
	NP=2 GPULAB=$g "$here/ranks-sweep.sh" "$logs/ranks-2.json"
}
export -f ranks
if [ "$gpus" -ge 2 ] && command -v mpirun >/dev/null; then
	step ranks 140 ranks
else
	skip ranks "needs 2 GPUs and mpirun ($gpus GPU(s) here)"
fi

total=$(($(date +%s) - start))
failed=0
grep -q '|bad$' "$rows" && failed=1
{
	printf '\n| step | result | seconds | log |\n|---|---|---:|---|\n'
	while IFS='|' read -r a b c d _; do printf '| %s | %s | %s | %s |\n' "$a" "$b" "$c" "$d"; done <"$rows"
	printf '| all | %s | %s | gpu-check-logs.tar.gz |\n' "$([ $failed -eq 0 ] && echo passed || echo FAILED)" "$total"
} | tee "$logs/summary.md"
(cd "$logs" && tar czf gpu-check-logs.tar.gz --exclude=gpu-check-logs.tar.gz ./* 2>/dev/null)
[ -n "${OUT:-}" ] && cp "$logs/gpu-check-logs.tar.gz" "$logs/summary.md" "$OUT/"
exit $failed
