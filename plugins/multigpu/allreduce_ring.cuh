/*
 * allreduce_ring, the all-reduce by hand (ring.cuh's engine): plan, setup,
 * runs and the check every GPU's output gets, shared with NCCL's.
 * Part of the multigpu plugin, one translation unit: multigpu.cu includes
 * it, and it includes the parts it uses.
 */
#ifndef GPULAB_MULTIGPU_ALLREDUCE_RING_CUH
#define GPULAB_MULTIGPU_ALLREDUCE_RING_CUH

#include "params.cuh"
#include "plan.cuh"
#include "ring.cuh"

#include <type_traits>

namespace {

/* --- allreduce_ring, allreduce_nccl: every GPU gets the sum of all ------------------------- */

/* nccl-tests' bus bandwidth factor for an all-reduce: each GPU sends and
 * receives 2(g-1)/g of the vector, whatever the algorithm. */
double allreduce_factor(unsigned g) { return 2.0 * (g - 1) / g; }

/* Ring rank r's input is lab::fill's with seed + r; every rank must end
 * with their sum, exact for ints (wrapping) and, for floats, within
 * lab::close_enough of it with sum |x| <= w (lab::fill's values are
 * multiples of 1/256 in [-1, 1], so every such sum is exact anyway).
 * This process's GPU r holds ring rank first + r: first is 0 in one
 * process, the rank's own place as a rank. */
template <typename T>
int allreduce_inputs(gpulab_ctx *ctx, gpus::state *s, void **in, void **out, uint64_t seed, unsigned first)
{
	/* whole 16-byte words: NCCL reads its buffers 16 bytes at a time */
	const uint64_t padded = lab::div_up(ctx->elements, 4) * 4;
	int rc;
	for (unsigned r = 0; r < s->g; r++) {
		T *i, *o;
		if ((rc = s->alloc_on(ctx, r, &i, padded)) != GPULAB_OK || (rc = s->alloc_on(ctx, r, &o, padded)) != GPULAB_OK
		    || (rc = upload(ctx, r, i, ctx->elements, seed + first + r)) != GPULAB_OK)
			return rc;
		in[r] = i;
		out[r] = o;
	}
	return GPULAB_OK;
}

int allreduce_reset(gpulab_ctx *ctx, gpus::state *s, void *const *out)
{
	for (unsigned r = 0; r < s->g; r++) {
		int rc = poison_on(ctx, r, out[r], ctx->elements * elem(ctx));
		if (rc != GPULAB_OK)
			return rc;
	}
	return s->join(ctx);
}

/* Every output of this process (GPU r: ring rank first + r) against the
 * sum of the w ranks' inputs. */
template <typename T>
int allreduce_verify(gpulab_ctx *ctx, gpus::state *s, void *const *out, uint64_t seed, unsigned w, unsigned first)
{
	const uint64_t n = ctx->elements;
	for (unsigned r = 0; r < s->g; r++) {
		auto want = [seed, w](uint64_t i) { return sum_at<T>(seed, w, i); };
		int rc = check_rank_output<T>(ctx, first + r, r, out[r], n, w, seed, want);
		if (rc != GPULAB_OK)
			return rc;
	}
	return s->note_bandwidth(ctx, (double)n * elem(ctx), allreduce_factor(w));
}

/* What an all-reduce plans: the vector on every GPU, in and out.  gpulab's
 * GB/s is algbw: bytes_read is the vector, once. */
int allreduce_plan(gpulab_ctx *ctx, unsigned want, uint64_t slack, unsigned *g, int *ord)
{
	int rc = plan_width(ctx, want, g, ord);
	if (rc != GPULAB_OK)
		return rc;
	return traffic(ctx, ctx->elements * elem(ctx), 0, 2 * ctx->elements * elem(ctx) + slack);
}

enum ring_launch { LAUNCH_AUTO, LAUNCH_GRAPH, LAUNCH_STREAMS };

/* The ring: kernels on every GPU read their neighbour's buffer; as ranks,
 * through CUDA IPC, so on one machine, and with no graph. */
int ring_plan(gpulab_ctx *ctx)
{
	int ord[gpus::max_gpus];
	unsigned g;
	const ring_opts &o = lab::opts<ring_opts>(ctx);
	int rc = allreduce_plan(ctx, o.gpus, 0, &g, ord);
	if (rc == GPULAB_OK && ctx->group && (rc = ipc::plan_ranks(ctx, 1)) == GPULAB_OK && o.launch == LAUNCH_GRAPH) {
		ctx->error(ctx, "launch=graph: as ranks, each step waits for the others' on the host, which no graph holds "
				"(launch=auto or streams)");
		rc = GPULAB_EPARAM;
	}
	for (unsigned r = 0; rc == GPULAB_OK && !ctx->group && g > 1 && r < g; r++)
		rc = plan_reads(ctx, ord[r], ord[(r + g - 1) % g]);
	return rc;
}

/* As a rank: this rank's buffers and events, offered to next; prev's
 * mapped.  Every rank comes here, whatever rc (its setup so far). */
template <typename T>
int ring_share(gpulab_ctx *ctx, ring::state *s, int rc, const ring_opts &o)
{
	const gpulab_group *grp = ctx->group;
	const unsigned w = grp->size, prev = (grp->rank + w - 1) % w;
	cudaEvent_t events[ipc::max_events] = {};
	if (rc == GPULAB_OK) {
		s->ranked = true;
		s->me = grp->rank;
		s->lay.plan(w, ctx->elements, o.chunk / sizeof(T));
		if ((rc = s->open_ring<T>(ctx, (unsigned)o.depth)) == GPULAB_OK)
			rc = allreduce_inputs<T>(ctx, s, s->in, s->out, o.seed, s->me);
	}
	const unsigned nevents = rc == GPULAB_OK && w > 1 ? 2 * s->lay.steps() : 0;
	for (unsigned k = 0; k < nevents; k++)
		events[k] = s->done[0][k / 2][k % 2];
	const uint32_t from = w > 1 ? ipc::rank_bit(prev) : 0;
	void *mine[ipc::max_bufs] = { s ? s->in[0] : nullptr, s ? s->out[0] : nullptr }; /* prev's: peers.buf[prev][0..1] */
	ipc::offer offer = { mine, 2, events, nevents, from, from };
	if ((rc = ipc::share_with(ctx, s ? &s->peers : nullptr, rc, offer)) != GPULAB_OK)
		return rc;
	ctx->note(ctx, "ranks", w);
	ctx->note(ctx, "chunks", (double)s->lay.chunks);
	return o.launch == LAUNCH_AUTO ? ctx->chose(ctx, "launch", "streams") : GPULAB_OK;
}

template <typename T>
int ring_setup(gpulab_ctx *ctx)
{
	ring::state *s = nullptr;
	const ring_opts &o = lab::opts<ring_opts>(ctx);
	int rc = begin_setup(ctx, &s, ctx->group ? 0 : o.gpus, 1);
	if (ctx->group)
		return ring_share<T>(ctx, rc == GPULAB_OK ? s : nullptr, rc, o);
	if (rc != GPULAB_OK)
		return rc;
	s->lay.plan(s->g, ctx->elements, o.chunk / sizeof(T));
	if ((rc = s->open_ring<T>(ctx, (unsigned)o.depth)) != GPULAB_OK
	    || (rc = allreduce_inputs<T>(ctx, s, s->in, s->out, o.seed, 0)) != GPULAB_OK)
		return rc;
	ctx->note(ctx, "gpus", s->g);
	ctx->note(ctx, "chunks", (double)s->lay.chunks);
	if (o.launch == LAUNCH_AUTO && (rc = ctx->chose(ctx, "launch", "graph")) != GPULAB_OK)
		return rc;
	return o.launch != LAUNCH_STREAMS ? s->capture<T>(ctx) : GPULAB_OK;
}

/* As a rank, the ranks meet after the reset: a run reads prev's output
 * only after prev's events of this run, but a reset that failed on one
 * rank must stop them all at the same step. */
int ring_reset(gpulab_ctx *ctx)
{
	ring::state *s = lab::state_of<ring::state>(ctx);
	int rc = allreduce_reset(ctx, s, s->out);
	return s->ranked ? ipc::fence(ctx, rc) : rc;
}

template <typename T>
int ring_run(gpulab_ctx *ctx)
{
	ring::state *s = lab::state_of<ring::state>(ctx);
	int rc = s->begin_run(ctx);
	if (s->ranked) /* it meets the others, whatever rc */
		rc = s->enqueue<T>(ctx, rc);
	else if (rc != GPULAB_OK)
		return rc;
	else if (s->exec)
		LAB_TRY(ctx, cudaGraphLaunch(s->exec, lab::stream(ctx)));
	else if ((rc = s->enqueue<T>(ctx)) != GPULAB_OK)
		return rc;
	return rc != GPULAB_OK ? rc : s->end_run(ctx);
}

template <typename T>
int ring_verify(gpulab_ctx *ctx)
{
	ring::state *s = lab::state_of<ring::state>(ctx);
	return allreduce_verify<T>(ctx, s, s->out, lab::opts<ring_opts>(ctx).seed, s->lay.g, s->me);
}

} // namespace

#endif
