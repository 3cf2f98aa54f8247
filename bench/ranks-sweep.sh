#!/bin/sh
# The multigpu sweep as ranks that bench/gpu-check.sh bounds (issue 44's,
# timed in issue 52): NCCL's four collectives and the send/recv ring,
# floats from 2^20 to 2^30 by 4, --batch 20, gpulab's stopping rule as it
# is (noise under 0.5%, or settled, or 10 s a point): 30 points.  Prints
# the sweep's wall time and where it went, a row a point, from the
# record's wall_s (bench/wall_split.py).
#   bench/ranks-sweep.sh RECORD
# NP ranks (default 2, one GPU each); MPIRUN the launcher (default
# mpirun); GPULAB the gpulab (default: on PATH); EXERCISES and SIZES
# replace the sweep's (a part of it, to time one step).
# The ranks are not bound to a core each (Open MPI binds 2 ranks to one
# core each by default): a point's check against the CPU runs on every
# core the rank may use, and a 2^30-float point's takes seconds on one.
# NCCL_NVLS_ENABLE=0 always: no NVLink multicast on shared GPUs.
set -eu
rec=${1:?usage: bench/ranks-sweep.sh RECORD}
here=$(dirname "$0")
exercises=${EXERCISES:-multigpu.allreduce_nccl multigpu.ring_sendrecv multigpu.allgather multigpu.reduce_scatter multigpu.broadcast}
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
t0=$(date +%s%N)
# shellcheck disable=SC2086
${MPIRUN:-mpirun} --bind-to none -np "${NP:-2}" -x NCCL_NVLS_ENABLE -x PATH -x LD_LIBRARY_PATH ${GPULAB:-gpulab} run $exercises \
	--batch 20 -n "${SIZES:-2^20:2^30:2}" -t float --quiet -o "$rec"
ms=$((($(date +%s%N) - t0) / 1000000))
echo "the sweep as ${NP:-2} ranks ended in $((ms / 1000)).$((ms % 1000 / 100)) s"
python3 "$here/wall_split.py" "$rec" "$((ms / 1000)).$((ms % 1000))"
