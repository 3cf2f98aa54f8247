#!/bin/sh
# The multigpu plugin, as Markdown: the links (peer copies one way and both
# ways, a kernel reading another GPU), then the all-reduce, the hand-made
# ring against NCCL, on 2, 4 and 8 GPUs as far as there are, for floats
# from 1 KiB to 1 GiB (2^8 to 2^28 elements, a factor of 4 apart).  Each
# table is followed by nccl-tests' figures from gpulab's median: algbw =
# bytes / time, busbw = algbw x 2(g-1)/g for the all-reduce (x 1 for the
# links).  Each section's JSON record (--output) lies beside OUT.
#   bench/multigpu.sh [OUT.md]      (default: docs/bench-multigpu.md)
# Run it on GPUs nobody else is using.  Multi-GPU timings jitter at small sizes, so each point stops after
# TIMEOUT seconds (default 3) even if its noise is still above 0.5%: such
# rows say NOISY, and their median is still the figure to read.
set -eu
. "$(dirname "$0")/common.sh"
out=${1:-docs/bench-multigpu.md}
limit=${TIMEOUT:-3}
sizes=2^8:2^28:2

# busbw_table RECORD: every row of RECORD with nccl-tests' two figures,
# from gpulab's own median (the row's GB/s, which is algbw): busbw =
# algbw x 2(g-1)/g for an all-reduce over g GPUs, algbw for the links.
busbw_table()
{
	python3 "$here/busbw.py" "$1" >> "$out"
}

gpus=$($gpulab info | grep -c '^device ' || true)
[ "$gpus" -ge 2 ] || { echo "bench/multigpu.sh: needs 2 GPUs, $gpus visible" >&2; exit 1; }
bench_header "$out" "multigpu: NVLink, and the all-reduce by hand and by NCCL" "float32, $gpus GPUs visible.
GB/s is gpulab's: for p2p_copy bytes per direction, for p2p_kernel the bytes read over the link, for the
all-reduces the vector's bytes once (so it is algbw).  Of ref is the share of allreduce_nccl's speed at the
same size and GPU count.  The second table of each section has algbw and busbw, nccl-tests' definitions
(docs/multigpu.md).  Points stop after $limit s if still noisy.  Produced by bench/multigpu.sh."

bench_section "$out" "GPU 0 to GPU 1 by the copy engines, one way and both ways at once" multigpu.p2p_copy \
	-t float -n "$sizes" -p dir=uni,bi --timeout "$limit"
busbw_table "$record"
bench_section "$out" "GPU 0's kernel reading GPU 1's memory" multigpu.p2p_kernel -t float -n "$sizes" --timeout "$limit"
busbw_table "$record"

for g in 2 4 8; do
	[ "$g" -le "$gpus" ] || break
	bench_section "$out" "all-reduce on $g GPUs" multigpu.allreduce_ring multigpu.allreduce_nccl \
		-t float -n "$sizes" -p gpus="$g" --timeout "$limit"
	busbw_table "$record"
done
echo "wrote $out"
