/*
 * The multigpu plugin: the reduction across GPUs.  First what the links
 * between GPUs can do (a peer copy; a kernel reading another GPU's memory),
 * then a sum over GPUs two ways (partials added by the host, or gathered
 * peer-to-peer), then the all-reduce: a ring written by hand (ring.cuh)
 * against NCCL's, verified and measured in the same table.
 *
 * Every exercise is checked against the CPU: sums of lab::fill inputs,
 * which are exact in float too, and the all-reduce's output on every GPU.
 * Beside gpulab's time, each row notes nccl-tests' figures:
 *   algbw = bytes / time          (bytes: the vector's, once)
 *   busbw = algbw * 2(g-1)/g      for the all-reduce; = algbw for the others
 * from the exercise's own event timing of the same runs (the median of
 * those it timed: under --batch, not those enqueued while the last timed
 * one was in flight).
 * Every exercise also runs as ranks of a launched job (mpirun, srun), one
 * GPU a process: NCCL's over a communicator of the ranks (ranks.cuh), and
 * those that touch another GPU's memory over CUDA IPC on one machine
 * (ipc.cuh).
 * docs/multigpu.md explains both, and the rings.
 */
#include "allreduce_ring.cuh"
#include "collectives.cuh"
#include "p2p.cuh"
#include "params.cuh"
#include "plan.cuh"
#include "ranks.cuh"
#include "sendrecv_ring.cuh"

#include <gpulab/lab.cuh>

namespace {

/* --- a collective's run: NCCL's op, or the send/recv ring -------------------------------------- */

template <typename T>
int coll_run(gpulab_ctx *ctx)
{
	nccl_state *s = lab::state_of<nccl_state>(ctx);
	int rc = s->start(ctx);
	if (rc == GPULAB_OK)
		rc = coll_of(ctx).op == RING ? ring_sendrecv<T>(ctx, s) : nccl_ops(ctx, s);
	if (rc == GPULAB_OK && ctx->group)
		rc = peers_fine(ctx, s->comms[0]);
	return rc != GPULAB_OK ? rc : s->finish(ctx);
}

/* --- the exercises ---------------------------------------------------------------------------- */

const shard_variant v_host = { true }, v_p2p = { false };

/* Every exercise takes ints and floats, 2^26 of them by default (256 MiB:
 * large enough for NVLink's full rate). */
#define SIZED .dtypes = GPULAB_INT32 | GPULAB_FLOAT32, .n = 1u << 26, .n_max = 1ull << 33

/* The collectives through NCCL: in one process (every GPU it sees) or as
 * ranks of a launched job; their runs repeat (the reset only poisons the
 * output), so --batch times them back to back, as nccl-tests does.  The
 * gathers, the scatter and the broadcast do other work than the plugin's
 * reference, the all-reduce: no share of it (GPULAB_UNLIKE). */
#define COLLECTIVE(v, P, O, more)                                                                                \
	SIZED, .params = P, .params_size = sizeof(O), .plan = coll_plan,                                     \
	.setup = LAB_TYPED(coll_setup), .reset = coll_reset, .run = LAB_TYPED(coll_run),                     \
	.verify = LAB_TYPED(coll_verify), .teardown = lab::teardown<nccl_state>, .data = &(v),               \
	.flags = GPULAB_REPEATS | GPULAB_RANKS | (more), .max_devices = gpus::max_gpus

const gpulab_exercise exercises[] = {
	{ .name = "p2p_copy",
	  .summary = "cudaMemcpyPeerAsync, GPU 0 to GPU 1 (-p dir=bi: both ways at once); GB/s, algbw and busbw are per direction",
	  SIZED, .params = copy_params, .params_size = sizeof(copy_opts), .plan = copy_plan,
	  .setup = LAB_TYPED(copy_setup), .reset = copy_reset, .run = copy_run, .verify = LAB_TYPED(copy_verify),
	  .teardown = ipc::teardown<copy_state>, .flags = GPULAB_RANKS, .max_devices = 2 },
	{ .name = "p2p_kernel",
	  .summary = "the reduce plugin's best kernel on GPU 0 summing GPU 1's memory through peer access: NVLink is memory",
	  SIZED, .block = 512, .params = peer_params, .params_size = sizeof(peer_opts), .plan = peer_plan,
	  .setup = LAB_TYPED(peer_setup), .reset = LAB_TYPED(peer_reset), .run = LAB_TYPED(peer_run),
	  .verify = LAB_TYPED(peer_verify), .teardown = ipc::teardown<peer_state>, .flags = GPULAB_RANKS, .max_devices = 2 },
	{ .name = "reduce_host",
	  .summary = "each GPU sums its shard (best), the host adds the partial sums: the book's multi-GPU pattern",
	  SIZED, .block = 512, .params = multi_params, .params_size = sizeof(multi_opts), .plan = shard_plan,
	  .setup = LAB_TYPED(shard_setup), .reset = LAB_TYPED(shard_reset), .run = LAB_TYPED(shard_run),
	  .host = LAB_TYPED(shard_host), .verify = LAB_TYPED(shard_verify), .teardown = ipc::teardown<shard_state>,
	  .data = &v_host, .flags = GPULAB_RANKS, .max_devices = gpus::max_gpus },
	{ .name = "reduce_p2p",
	  .summary = "each GPU sums its shard (best), the partials go peer-to-peer to GPU 0, which adds them",
	  SIZED, .block = 512, .params = multi_params, .params_size = sizeof(multi_opts), .plan = shard_plan,
	  .setup = LAB_TYPED(shard_setup), .reset = LAB_TYPED(shard_reset), .run = LAB_TYPED(shard_run),
	  .verify = LAB_TYPED(shard_verify), .teardown = ipc::teardown<shard_state>, .data = &v_p2p,
	  .flags = GPULAB_RANKS, .max_devices = gpus::max_gpus },
	{ .name = "allreduce_ring",
	  .summary = "hand-written ring all-reduce: reduce-scatter + all-gather, chunked, pipelined, reading the neighbour; "
		     "algbw = bytes/time, busbw = algbw*2(g-1)/g",
	  SIZED, .params = ring_params, .params_size = sizeof(ring_opts), .plan = ring_plan,
	  .setup = LAB_TYPED(ring_setup), .reset = ring_reset, .run = LAB_TYPED(ring_run),
	  .verify = LAB_TYPED(ring_verify), .teardown = ipc::teardown<ring::state>, .flags = GPULAB_RANKS,
	  .max_devices = gpus::max_gpus },
	{ .name = "allreduce_nccl",
	  .summary = "ncclAllReduce, one communicator per GPU (ncclCommInitAll), or per rank under mpirun/srun: the reference; "
		     "algbw = bytes/time, busbw = algbw*2(g-1)/g",
	  COLLECTIVE(c_allreduce, multi_params, multi_opts, 0) },
	{ .name = "ring_sendrecv",
	  .summary = "the ring all-reduce by hand over ncclSend/ncclRecv and an add kernel, in slices (-p chunk) so "
		     "that one's add overlaps the next one's transfer: crosses processes and nodes; busbw = algbw*2(g-1)/g",
	  COLLECTIVE(c_ring, sendrecv_params, sendrecv_opts, 0) },
	{ .name = "allgather", .summary = "ncclAllGather: every rank's share to all; size = the gathered vector, busbw = algbw*(g-1)/g",
	  COLLECTIVE(c_allgather, multi_params, multi_opts, GPULAB_UNLIKE) },
	{ .name = "reduce_scatter",
	  .summary = "ncclReduceScatter: each rank gets its share of the sum; size = the whole input, busbw = algbw*(g-1)/g",
	  COLLECTIVE(c_reduce_scatter, multi_params, multi_opts, GPULAB_UNLIKE) },
	{ .name = "broadcast", .summary = "ncclBroadcast from rank 0 to all; busbw = algbw",
	  COLLECTIVE(c_broadcast, multi_params, multi_opts, GPULAB_UNLIKE) },
};

} // namespace

LAB_PLUGIN("multigpu",
	   "reduction across GPUs: peer copies and loads, a hand-made ring all-reduce against NCCL's",
	   exercises,
	   .reference = "allreduce_nccl")
