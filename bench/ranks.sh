#!/bin/sh
# The multigpu collectives as MPI ranks, one GPU each, beside nccl-tests
# (issue 30), as Markdown: NCCL's all-reduce, all-gather, reduce-scatter
# and broadcast and the send/recv ring, batched 20 runs a sample as
# nccl-tests times 20 iterations, floats from 1 MiB to 1 GiB; then the
# send/recv ring as ranks, run by run, at four slice sizes (-p chunk),
# against the one-process ring and against the floor that nccl-tests'
# sendrecv_perf puts under any ring of NCCL sends and receives.
#   bench/ranks.sh [OUT.md]      (default: docs/bench-ranks.md)
# NP ranks (default 2, one per GPU); MPIRUN the launcher (default mpirun);
# NCCL_TESTS a folder of nccl-tests binaries built with MPI=1, whose
# all_reduce_perf, all_gather_perf, reduce_scatter_perf and broadcast_perf
# run under the same launcher into OUT-nccl-tests.txt, and sendrecv_perf
# into OUT-sendrecv.txt (both left out where unset).  NCCL_NVLS_ENABLE=0
# always: no NVLink multicast on shared GPUs.
set -eu
. "$(dirname "$0")/common.sh"
out=${1:-docs/bench-ranks.md}
np=${NP:-2}
mpirun=${MPIRUN:-mpirun}
sizes=2^18:2^28:2
export NCCL_NVLS_ENABLE=0
base=$(bench_records "$out")

bench_header "$out" "multigpu as $np ranks, beside nccl-tests" "float32, $np ranks under \`$mpirun\`, one GPU each.
gpulab's busbw is its GB/s (algbw) times the exercise's bus factor, defined once in the plugin (docs/multigpu.md).
Points stop after 2 s if still noisy.  Produced by bench/ranks.sh."

$mpirun -np "$np" $gpulab run multigpu --batch 20 -n "$sizes" -t float --timeout 2 -w 5 ${reps:+-r "$reps"} --quiet -o "$base-1.json" >/dev/null
nt=
if [ -n "${NCCL_TESTS:-}" ]; then
	nt=$base-nccl-tests.txt
	: > "$nt"
	for c in all_reduce all_gather reduce_scatter broadcast; do
		$mpirun -np "$np" "$NCCL_TESTS/${c}_perf" -b 1M -e 1G -f 4 -g 1 >> "$nt"
	done
fi
{
	echo
	echo "## The collectives, batched, beside nccl-tests"
	echo
	echo "\`$mpirun -np $np gpulab run multigpu --batch 20 -n $sizes -t float --timeout 2\` ([record]($(bench_link "$base-1.json")))"
	[ -n "$nt" ] && echo "and \`$mpirun -np $np all_reduce_perf -b 1M -e 1G -f 4 -g 1\` and its three siblings ([output]($(bench_link "$nt")))"
	echo
	python3 "$here/ranks_table.py" "$base-1.json" $nt
} >> "$out"

chunks=1M,4M,16M,1G
$mpirun -np "$np" $gpulab run multigpu.ring_sendrecv -p chunk=$chunks -n 2^24:2^28:2 -t float --timeout 2 -w 5 ${reps:+-r "$reps"} --quiet -o "$base-2.json" >/dev/null
$gpulab run multigpu.allreduce_ring -p gpus="$np" -n 2^24:2^28:2 -t float --timeout 2 -w 5 ${reps:+-r "$reps"} --quiet -o "$base-3.json" >/dev/null
sr=
if [ -n "${NCCL_TESTS:-}" ]; then
	sr=$base-sendrecv.txt
	$mpirun -np "$np" "$NCCL_TESTS/sendrecv_perf" -b 1M -e 1G -f 2 -g 1 > "$sr"
fi
{
	echo
	echo "## The ring over ncclSend/ncclRecv as ranks, against the one-process ring"
	echo
	echo "\`$mpirun -np $np gpulab run multigpu.ring_sendrecv -p chunk=$chunks -n 2^24:2^28:2 -t float --timeout 2\` ([record]($(bench_link "$base-2.json"))),"
	echo "\`gpulab run multigpu.allreduce_ring -p gpus=$np -n 2^24:2^28:2 -t float --timeout 2\` ([record]($(bench_link "$base-3.json")))"
	[ -n "$sr" ] && echo "and \`$mpirun -np $np sendrecv_perf -b 1M -e 1G -f 2 -g 1\` ([output]($(bench_link "$sr")))"
	echo
	python3 "$here/ranks_table.py" --ring "$base-2.json" "$base-3.json" $sr
} >> "$out"
echo "wrote $out"
