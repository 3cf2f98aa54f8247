#!/bin/bash
# The multigpu lessons on every GPU of one host, in one process and as
# ranks that share memory, beside nccl-tests (issue 45), in one device call:
#   bench/multigpu-4gpu.sh OUTDIR [NCCL_TESTS_DIR]
# gpulab on PATH (GPULAB names another), mpirun on PATH (MPIRUN another),
# NCCL_TESTS_DIR a folder of nccl-tests binaries built with MPI=1
# (all_reduce_perf, all_gather_perf, reduce_scatter_perf, broadcast_perf);
# without it the busbw table has gpulab's side alone.
#
# One rank a GPU: 4 on a 4-GPU host (2 on a 2-GPU one; NP overrides).  In
# order, each part bounded by its own timeout, its wall time printed:
#   topo      nvidia-smi topo -m, gpulab info                      -> topo.txt
#   verify    every multigpu exercise at n = 1, 3, 1000003, 2^28+1,
#             ints and floats, -r 1 -w 0: in one process (-p gpus=all)
#             and as NP ranks, side by side (they only verify)     -> verify-one.json, verify-ranks.json
#   refuse    NP+1 ranks on NP GPUs: refused, one line a rank      -> refuse.txt
#   colls     NCCL's four collectives as NP ranks, floats, 4 MiB to
#             1 GiB, --batch 20 (nccl-tests times 20 iterations)   -> colls.json
#   rings     the hand-made ring as NP ranks over CUDA IPC, and in
#             one process beside NCCL's all-reduce                 -> ring-ranks.json, ring-one.json
#   nccl      nccl-tests under the same mpirun line                -> nccl-tests.txt
#   kill      a rank killed (kill -9) mid-run: the job's end, in s -> kill.txt
#   table     the Markdown table and a JSON summary                -> table.md, summary.json
#   report    gpulab report's busbw chart, nccl-tests beside       -> busbw.html
# Each part's log is OUTDIR/PART.log; parts.tsv has part, result, seconds.
# NCCL_NVLS_ENABLE=0 always: no NVLink multicast on shared GPUs.
set -u
out=${1:?usage: bench/multigpu-4gpu.sh OUTDIR [NCCL_TESTS_DIR]}
nt=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
gpulab=${GPULAB:-gpulab}
export NCCL_NVLS_ENABLE=0
mkdir -p "$out" || exit 1
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
np=${NP:-$((gpus > 4 ? 4 : gpus))}
[ "$np" -ge 2 ] || { echo "multigpu-4gpu.sh: $gpus GPU(s): needs 2 or more"; exit 77; }
mpirun="${MPIRUN:-mpirun} --bind-to none -x NCCL_NVLS_ENABLE -x PATH"
# Without the mpi plugin (configure found no Open MPI), gpulab under mpirun
# would be NP separate processes on every GPU: the parts as ranks are left out.
if $gpulab config 2>/dev/null | grep -q 'conf.d/mpi.ini'; then
	ranks=yes
else
	ranks=
	echo "multigpu-4gpu.sh: this gpulab has no mpi plugin (configure found no Open MPI; libopenmpi-dev): no ranks"
fi
sizes=1,3,1000003,268435457
bw=2^20:2^28:4 # floats: 4 MiB to 1 GiB, as nccl-tests' -b 4M -e 1G -f 4
t_start=$(date +%s)
printf 'part\tresult\tseconds\tlog\n' >"$out/parts.tsv"
echo "multigpu-4gpu.sh: $gpus GPU(s), $np ranks, into $out; nccl-tests: ${nt:-none}"
echo "budget (each part's timeout): topo 20 s, verify 180 s, refuse 30 s, colls 110 s, rings 80 s, nccl 60 s, kill 40 s, table 20 s, report 20 s: 560 s at most"

export out nt np gpulab mpirun sizes bw here ranks

# part NAME SECONDS CMD...: CMD (a command or one of the functions below,
# exported) under timeout, which ends its whole process group; its output
# in NAME.log, its line in parts.tsv and on stdout
part() {
	local name=$1 limit=$2 t0 rc ms res=ok
	shift 2
	t0=$(date +%s%N)
	timeout -k 10 "$limit" bash -c '"$@"' part "$@" >"$out/$name.log" 2>&1
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ $rc = 0 ] || res="exit $rc"
	[ $rc = 124 ] && res="timed out ($limit s)"
	printf '%s\t%s\t%d.%d\t%s.log\n' "$name" "$res" $((ms / 1000)) $((ms % 1000 / 100)) "$name" >>"$out/parts.tsv"
	printf '%-8s %-22s %5d.%d s\n' "$name" "$res" $((ms / 1000)) $((ms % 1000 / 100))
	return $rc
}

topo() {
	echo '$ nvidia-smi topo -m'
	nvidia-smi topo -m
	echo
	echo '$ nvidia-smi -L'
	nvidia-smi -L
	echo
	echo "\$ $gpulab info"
	$gpulab info
	echo
	${MPIRUN:-mpirun} --version | head -n 1
	echo "NCCL_NVLS_ENABLE=$NCCL_NVLS_ENABLE"
}
export -f topo
part topo 20 topo
cp "$out/topo.log" "$out/topo.txt"

# Verification only: both runs share the GPUs, and the host's cores.
verify() {
	$gpulab run multigpu -p gpus=all -n $sizes -t int,float -r 1 -w 0 --quiet -o "$out/verify-one.json" \
		>"$out/verify-one.txt" 2>&1 &
	local one=$! rc_ranks=0 said="not run (no mpi plugin)"
	if [ -n "$ranks" ]; then
		# shellcheck disable=SC2086
		$mpirun -np "$np" $gpulab run multigpu -n $sizes -t int,float -r 1 -w 0 --quiet \
			-o "$out/verify-ranks.json" >"$out/verify-ranks.txt" 2>&1
		rc_ranks=$?
		said="exit $rc_ranks"
	fi
	wait $one
	local rc=$?
	echo "one process: exit $rc; $np ranks: $said"
	[ $rc = 0 ] && [ $rc_ranks = 0 ]
}
export -f verify
part verify 180 verify

# One rank more than there are GPUs: every rank exits 13, one line a rank.
refuse() {
	# shellcheck disable=SC2086
	$mpirun -np $((np + 1)) --oversubscribe $gpulab run multigpu.allreduce_ring multigpu.p2p_copy -n 1 -r 1 \
		>"$out/refuse.out" 2>"$out/refuse.err"
	local rc=$?
	{
		echo "\$ mpirun -np $((np + 1)) gpulab run multigpu.allreduce_ring multigpu.p2p_copy -n 1 -r 1  # $np GPUs"
		echo "exit $rc"
		grep '^gpulab: ' "$out/refuse.err"
	} >"$out/refuse.txt"
	cat "$out/refuse.txt"
	[ $rc = 13 ]
}
export -f refuse
# shellcheck disable=SC2086
if [ -n "$ranks" ]; then
	part refuse 30 refuse
	part colls 110 $mpirun -np "$np" $gpulab run multigpu.allreduce_nccl multigpu.allgather multigpu.reduce_scatter \
		multigpu.broadcast -n $bw -t float --batch 20 --timeout 1 -w 5 --quiet -o "$out/colls.json"
fi
rings() {
	# shellcheck disable=SC2086
	[ -z "$ranks" ] || $mpirun -np "$np" $gpulab run multigpu.allreduce_ring -n $bw -t float --timeout 1 -w 5 --quiet \
		-o "$out/ring-ranks.json" || return
	$gpulab run multigpu.allreduce_ring multigpu.allreduce_nccl -p gpus="$np" -n $bw -t float --timeout 1 -w 5 --quiet \
		-o "$out/ring-one.json"
}
export -f rings
part rings 80 rings

nccl() {
	: >"$out/nccl-tests.txt"
	for c in all_reduce all_gather reduce_scatter broadcast; do
		# shellcheck disable=SC2086
		timeout 20 $mpirun -np "$np" "$nt/${c}_perf" -b 4M -e 1G -f 4 -g 1 >>"$out/nccl-tests.txt" || return
	done
}
export -f nccl
if [ -n "$nt" ]; then
	part nccl 60 nccl
else
	printf 'nccl\tnot run (no NCCL_TESTS_DIR)\t0\t-\n' >>"$out/parts.tsv"
fi

# kill -9 of rank 1 while every rank is in the ring's runs at 1 GiB (5 s
# after it started: its setup takes 2 or 3); the
# seconds until mpirun has ended (issue 45: within 5).
kill_one() {
	local victim ms code
	# shellcheck disable=SC2086
	read -r victim ms code < <("$here/kill-rank.sh" "$out/kill.out" "$out/kill.err" 5 1 \
		$mpirun -np "$np" $gpulab run multigpu.allreduce_ring -n 2^28 -t float -r 100000 -w 0 --quiet)
	echo "kill -9 of rank 1 (pid $victim) 5 s into multigpu.allreduce_ring -n 2^28 as $np ranks: mpirun exit $code, ended ${ms} ms later" \
		| tee "$out/kill.txt"
	[ "$victim" != - ] && [ "$ms" -le 5000 ] && [ "$code" != 0 ]
}
export -f kill_one
[ -n "$ranks" ] && part kill 40 kill_one

part table 20 python3 "$here/multigpu4_table.py" "$out"
report() {
	local nts=
	[ -s "$out/nccl-tests.txt" ] && nts="--nccl-tests $out/nccl-tests.txt"
	# shellcheck disable=SC2086
	$gpulab report "$out/colls.json" $nts -o "$out/busbw.html" &&
		$gpulab report "$out/ring-ranks.json" $nts -o "$out/ring-busbw.svg"
}
export -f report
part report 20 report
python3 "$here/multigpu4_table.py" "$out" >/dev/null 2>&1 # again, with report's line in parts.tsv
echo "total $(($(date +%s) - t_start)) s; $out/table.md:"
cat "$out/table.md" 2>/dev/null
