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

/* GPU r's input is lab::fill's with seed + r; every GPU must end with
 * their sum, exact for ints (wrapping) and, for floats, within
 * lab::close_enough of it with sum |x| <= g (lab::fill's values are
 * multiples of 1/256 in [-1, 1], so every such sum is exact anyway). */
template <typename T>
int allreduce_inputs(gpulab_ctx *ctx, gpus::state *s, void **in, void **out, uint64_t seed)
{
	/* whole 16-byte words: NCCL reads its buffers 16 bytes at a time */
	const uint64_t padded = lab::div_up(ctx->elements, 4) * 4;
	std::vector<T> h;
	int rc;
	for (unsigned r = 0; r < s->g; r++) {
		T *i, *o;
		if ((rc = s->alloc_on(ctx, r, &i, padded)) != GPULAB_OK || (rc = s->alloc_on(ctx, r, &o, padded)) != GPULAB_OK
		    || (rc = upload(ctx, h, i, ctx->elements, seed + r)) != GPULAB_OK)
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

template <typename T>
int allreduce_verify(gpulab_ctx *ctx, gpus::state *s, void *const *out, uint64_t seed)
{
	const uint64_t n = ctx->elements;
	std::vector<T> want, h, got;
	int rc;
	if ((rc = lab::host_vector(ctx, want, n)) != GPULAB_OK || (rc = lab::host_vector(ctx, h, n)) != GPULAB_OK)
		return rc;
	for (unsigned r = 0; r < s->g; r++) { /* the reference, input by input */
		lab::fill(h.data(), n, seed + r);
		for (uint64_t i = 0; i < n; i++)
			if (r == 0)
				want[i] = h[i];
			else if constexpr (std::is_same<T, int>::value)
				want[i] = (int)((uint32_t)want[i] + (uint32_t)h[i]); /* wrapping, as the GPU adds */
			else
				want[i] += h[i];
	}
	for (unsigned r = 0; r < s->g; r++) {
		if ((rc = lab::copy_back(ctx, got, (const T *)out[r], n)) != GPULAB_OK)
			return rc;
		for (uint64_t i = 0; i < n; i++)
			if (!lab::close_enough(got[i], (double)want[i], (double)s->g, s->g)) {
				ctx->error(ctx, "GPU %u (device %d): out[%" PRIu64 "]: expected %.9g, got %.9g (-p seed=%" PRIu64
					   " reproduces)", r, ctx->devices[r], i, (double)want[i], (double)got[i], seed);
				return GPULAB_WRONG;
			}
	}
	return s->note_bandwidth(ctx, (double)n * elem(ctx), allreduce_factor(s->g));
}

/* What an all-reduce plans: the vector on every GPU, in and out.  gpulab's
 * GB/s is algbw: bytes_read is the vector, once. */
int allreduce_plan(gpulab_ctx *ctx, unsigned want, uint64_t slack, unsigned *g, int *ord)
{
	int rc = plan_gpus(ctx, want, 1, g, ord);
	if (rc != GPULAB_OK)
		return rc;
	return traffic(ctx, ctx->elements * elem(ctx), 0, 2 * ctx->elements * elem(ctx) + slack);
}

/* The ring: kernels on every GPU read their neighbour's buffer. */
int ring_plan(gpulab_ctx *ctx)
{
	int ord[gpus::max_gpus];
	unsigned g;
	int rc = allreduce_plan(ctx, lab::opts<ring_opts>(ctx).gpus, 0, &g, ord);
	for (unsigned r = 0; rc == GPULAB_OK && g > 1 && r < g; r++)
		rc = plan_reads(ctx, ord[r], ord[(r + g - 1) % g]);
	return rc;
}

template <typename T>
int ring_setup(gpulab_ctx *ctx)
{
	ring::state *s;
	const ring_opts &o = lab::opts<ring_opts>(ctx);
	int rc = begin_setup(ctx, &s, o.gpus, 1);
	if (rc != GPULAB_OK)
		return rc;
	s->lay.plan(s->g, ctx->elements, o.chunk / sizeof(T));
	if ((rc = s->open_ring<T>(ctx, (unsigned)o.depth)) != GPULAB_OK || (rc = allreduce_inputs<T>(ctx, s, s->in, s->out, o.seed)) != GPULAB_OK)
		return rc;
	ctx->note(ctx, "gpus", s->g);
	ctx->note(ctx, "chunks", (double)s->lay.chunks);
	return o.launch == 0 ? s->capture<T>(ctx) : GPULAB_OK;
}

int ring_reset(gpulab_ctx *ctx)
{
	ring::state *s = lab::state_of<ring::state>(ctx);
	return allreduce_reset(ctx, s, s->out);
}

template <typename T>
int ring_run(gpulab_ctx *ctx)
{
	ring::state *s = lab::state_of<ring::state>(ctx);
	int rc = s->begin_run(ctx);
	if (rc != GPULAB_OK)
		return rc;
	if (s->exec)
		LAB_TRY(ctx, cudaGraphLaunch(s->exec, lab::stream(ctx)));
	else if ((rc = s->enqueue<T>(ctx)) != GPULAB_OK)
		return rc;
	return s->end_run(ctx);
}

template <typename T>
int ring_verify(gpulab_ctx *ctx)
{
	ring::state *s = lab::state_of<ring::state>(ctx);
	return allreduce_verify<T>(ctx, s, s->out, lab::opts<ring_opts>(ctx).seed);
}

} // namespace

#endif
