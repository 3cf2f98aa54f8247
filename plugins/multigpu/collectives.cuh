/*
 * The collectives through NCCL, in one process or as ranks: allreduce_nccl,
 * allgather, reduce_scatter, broadcast (and ring_sendrecv's state): their
 * counts, state, set-up, NCCL's ops and the check of every rank's output.
 * Part of the multigpu plugin, one translation unit: multigpu.cu includes
 * it, and it includes the parts it uses.
 */
#ifndef GPULAB_MULTIGPU_COLLECTIVES_CUH
#define GPULAB_MULTIGPU_COLLECTIVES_CUH

#include "allreduce_ring.cuh"
#include "params.cuh"
#include "plan.cuh"
#include "ranks.cuh"

#include <cinttypes>
#include <type_traits>
#include <vector>

namespace {

/* The op each collective exercise runs; counts in elements. */
enum coll_op { ALLREDUCE, ALLGATHER, REDUCE_SCATTER, BROADCAST, RING };

struct coll_variant {
	coll_op op;
	double (*busbw)(unsigned w); /* nccl-tests' factor from algbw to busbw */
};

/* nccl-tests' bus bandwidth factors (docs/multigpu.md): what each GPU
 * sends and receives, as a share of the size, whatever the algorithm. */
double bus_gather(unsigned w) { return (double)(w - 1) / w; }
double bus_one(unsigned) { return 1.0; }

const coll_variant c_allreduce = { ALLREDUCE, allreduce_factor }, c_allgather = { ALLGATHER, bus_gather },
		   c_reduce_scatter = { REDUCE_SCATTER, bus_gather }, c_broadcast = { BROADCAST, bus_one },
		   c_ring = { RING, allreduce_factor };

const coll_variant &coll_of(const gpulab_ctx *ctx) { return *static_cast<const coll_variant *>(ctx->data); }

/* A collective's counts for n over w ranks.  The gathers and the scatter
 * move w equal shares, ceil(n/w) each, as nccl-tests rounds its counts:
 * so n = 1 over 2 ranks moves 2 elements, one from each. */
struct coll_counts {
	uint64_t in, out, share, size; /* size: nccl-tests' bytes of one run, in elements */
	coll_counts(coll_op op, uint64_t n, unsigned w) : share(lab::div_up(n, w))
	{
		in = op == REDUCE_SCATTER ? share * w : op == ALLGATHER ? share : n;
		out = op == ALLGATHER ? share * w : op == REDUCE_SCATTER ? share : n;
		size = op == ALLGATHER || op == REDUCE_SCATTER ? share * w : n;
	}
};

/* The send/recv ring's side of each GPU: a stream for its adds, beside
 * the one its sends and receives go on, and the events between them. */
struct side_streams {
	cudaStream_t adds[gpus::max_gpus] = {};
	cudaEvent_t moved[gpus::max_gpus] = {};    /* a round's sends and receives, done */
	cudaEvent_t added[gpus::max_gpus][2] = {}; /* a round's adds, done: rounds alternate */

	int open(gpulab_ctx *ctx, unsigned g)
	{
		gpus::device_kept keep;
		for (unsigned r = 0; r < g; r++) {
			LAB_TRY(ctx, cudaSetDevice(ctx->devices[r]));
			LAB_TRY(ctx, cudaStreamCreateWithFlags(&adds[r], cudaStreamNonBlocking));
			for (cudaEvent_t *e : { &moved[r], &added[r][0], &added[r][1] })
				LAB_TRY(ctx, cudaEventCreateWithFlags(e, cudaEventDisableTiming));
		}
		return GPULAB_OK;
	}
	~side_streams()
	{
		for (unsigned r = 0; r < gpus::max_gpus; r++) {
			for (cudaEvent_t e : { moved[r], added[r][0], added[r][1] })
				if (e)
					cudaEventDestroy(e);
			if (adds[r])
				cudaStreamDestroy(adds[r]);
		}
	}
};

struct nccl_state : gpus::state {
	void *in[gpus::max_gpus] = {}, *out[gpus::max_gpus] = {}, *tmp[gpus::max_gpus] = {};
	int *line = nullptr;         /* as a rank: the start line's one word (coll_reset) */
	ncclComm_t comms[gpus::max_gpus] = {}; /* borrowed from the kept set (comms.cuh) */
	side_streams side;           /* the send/recv ring's */
	unsigned w = 1;              /* the collective's width: ranks, or this process's GPUs */
	uint64_t seed = 0;
	~nccl_state() override
	{
		if (comms[0])
			kept().given_back();
	}
};

/* The communicators: one per GPU of this process (ncclCommInitAll), or,
 * as a rank, this GPU's in the ranks' one; kept from point to point
 * (comms.cuh) and lent to s.  rc is setup's so far, which the ranks agree
 * on first.
 *
 * These GPUs are shared: NVLink multicast (NVLS) can take a host's GPUs
 * out of service, so unless the user set NCCL_NVLS_ENABLE, it is 0 before
 * NCCL reads its environment, at its first call, here. */
int open_comms(gpulab_ctx *ctx, int rc, nccl_state *s)
{
	gpus::device_kept keep;
	kept_comms &k = kept();
	if (rc == GPULAB_OK && setenv("NCCL_NVLS_ENABLE", "0", 0) != 0) {
		ctx->error(ctx, "setenv NCCL_NVLS_ENABLE: out of memory");
		rc = GPULAB_ENOMEM;
	}
	if (ctx->group)
		rc = join_ranks(ctx, rc);
	else if (rc == GPULAB_OK && !(k.spans(s->g, ctx->devices) && k.healthy())) {
		ncclComm_t made[gpus::max_gpus] = {};
		k.drop();
		NCCL_TRY(ctx, ncclCommInitAll(made, (int)s->g, ctx->devices));
		std::copy(made, made + s->g, k.comms);
		std::copy(ctx->devices, ctx->devices + s->g, k.devices);
		k.g = s->g;
	}
	if (rc == GPULAB_OK)
		std::copy(k.comms, k.comms + s->g, s->comms);
	return rc;
}

int coll_plan(gpulab_ctx *ctx)
{
	int ord[gpus::max_gpus];
	unsigned g;
	int rc = plan_width(ctx, lab::opts<multi_opts>(ctx).gpus, &g, ord);
	if (rc != GPULAB_OK)
		return rc;
	coll_counts c(coll_of(ctx).op, ctx->elements, std::max(width(ctx, g), 1u));
	uint64_t tmp = coll_of(ctx).op == RING ? c.share : 0, e = elem(ctx);
	/* gpulab's GB/s is algbw: nccl-tests' size over the time */
	return traffic(ctx, c.size * e, 0, (c.in + c.out + tmp + 8) * e + (1ull << 30) /* NCCL's own buffers */);
}

/* GPU r's input: lab::fill of its rank's seed (seed + rank), as many
 * elements as its op takes; whole 16-byte words, which NCCL reads. */
template <typename T>
int coll_inputs(gpulab_ctx *ctx, nccl_state *s, const coll_counts &c)
{
	int rc;
	for (unsigned r = 0; r < s->g; r++) {
		T *i, *o, *t = nullptr;
		if ((rc = s->alloc_on(ctx, r, &i, lab::div_up(c.in, 4) * 4)) != GPULAB_OK
		    || (rc = s->alloc_on(ctx, r, &o, lab::div_up(c.out, 4) * 4)) != GPULAB_OK
		    || (coll_of(ctx).op == RING && (rc = s->alloc_on(ctx, r, &t, lab::div_up(c.share, 4) * 4)) != GPULAB_OK)
		    || (rc = upload(ctx, r, i, c.in, s->seed + rank_of(ctx, r))) != GPULAB_OK)
			return rc;
		s->in[r] = i, s->out[r] = o, s->tmp[r] = t;
	}
	return ctx->group ? s->alloc_on(ctx, 0, &s->line, 1) : GPULAB_OK;
}

template <typename T>
int coll_setup(gpulab_ctx *ctx)
{
	nccl_state *s = nullptr;
	const multi_opts &o = lab::opts<multi_opts>(ctx);
	int rc = begin_setup(ctx, &s, o.gpus, 1);
	if (rc == GPULAB_OK) {
		s->w = width(ctx, s->g);
		s->seed = o.seed;
		rc = coll_inputs<T>(ctx, s, coll_counts(coll_of(ctx).op, ctx->elements, s->w));
	}
	if (rc == GPULAB_OK && coll_of(ctx).op == RING)
		rc = s->side.open(ctx, s->g);
	if (rc == GPULAB_OK)
		ctx->note(ctx, ctx->group ? "ranks" : "gpus", s->w);
	return open_comms(ctx, rc, rc == GPULAB_OK ? s : nullptr);
}

/* As ranks, each run's clock starts after a start line on the GPUs: a
 * one-word allreduce, enqueued last before the core's start event, ends
 * on every GPU within a microsecond or two of the others.  Without it a
 * rank's clock starts when its host left the launcher's last barrier,
 * and a rank that left early times its wait for the others in the
 * collective: the slowest rank's sample (the one kept) then carries the
 * hosts' skew, tens of microseconds that come and go, which made 20-57%
 * noise of a 1 MiB allreduce (issue 44).  The line's own time is not
 * timed: it is before the start event. */
int start_line(gpulab_ctx *ctx, nccl_state *s)
{
	if (!ctx->group)
		return GPULAB_OK;
	NCCL_TRY(ctx, ncclAllReduce(s->line, s->line, 1, ncclInt32, ncclSum, s->comms[0], gpus::stream(ctx, 0)));
	return GPULAB_OK;
}

int coll_reset(gpulab_ctx *ctx)
{
	nccl_state *s = lab::state_of<nccl_state>(ctx);
	coll_counts c(coll_of(ctx).op, ctx->elements, s->w);
	for (unsigned r = 0; r < s->g; r++) {
		int rc = poison_on(ctx, r, s->out[r], c.out * elem(ctx));
		if (rc != GPULAB_OK)
			return rc;
	}
	int rc = s->join(ctx);
	return rc == GPULAB_OK ? start_line(ctx, s) : rc;
}


/* NCCL's collective on every GPU of this process, in one group. */
int nccl_ops(gpulab_ctx *ctx, nccl_state *s)
{
	ncclDataType_t type = ctx->dtype == GPULAB_INT32 ? ncclInt32 : ncclFloat32;
	coll_counts c(coll_of(ctx).op, ctx->elements, s->w);
	NCCL_TRY(ctx, ncclGroupStart());
	for (unsigned r = 0; r < s->g; r++) {
		ncclComm_t m = s->comms[r];
		cudaStream_t q = gpus::stream(ctx, r);
		ncclResult_t e;
		switch (coll_of(ctx).op) {
		case ALLREDUCE: e = ncclAllReduce(s->in[r], s->out[r], c.out, type, ncclSum, m, q); break;
		case ALLGATHER: e = ncclAllGather(s->in[r], s->out[r], c.share, type, m, q); break;
		case REDUCE_SCATTER: e = ncclReduceScatter(s->in[r], s->out[r], c.share, type, ncclSum, m, q); break;
		default: e = ncclBroadcast(s->in[r], s->out[r], c.out, type, 0, m, q); break;
		}
		if (e != ncclSuccess && e != ncclInProgress) {
			ncclGroupEnd();
			ctx->error(ctx, "NCCL's collective on GPU %u: %s", r, ncclGetErrorString(e));
			return GPULAB_ECUDA;
		}
	}
	NCCL_TRY(ctx, ncclGroupEnd());
	return GPULAB_OK;
}


/* What rank `me`'s output must hold at i: rank q's input is lab::fill's
 * of seed + q (coll_inputs), so each element is made here on its own
 * (lab::draw_at), from the seed, with no rank's input held whole. */
template <typename T>
double coll_want(coll_op op, uint64_t seed, unsigned w, unsigned me, uint64_t i, uint64_t share)
{
	switch (op) {
	case ALLGATHER: return lab::draw_at<T>(seed + i / share, i % share);
	case REDUCE_SCATTER: return sum_at<T>(seed, w, me * share + i);
	case BROADCAST: return lab::draw_at<T>(seed, i);
	default: return sum_at<T>(seed, w, i);
	}
}

/* Every output of this process against what its rank should hold. */
template <typename T>
int coll_verify(gpulab_ctx *ctx)
{
	nccl_state *s = lab::state_of<nccl_state>(ctx);
	const coll_variant &v = coll_of(ctx);
	coll_counts c(v.op, ctx->elements, s->w);
	const uint64_t seed = s->seed;
	const unsigned w = s->w;
	for (unsigned r = 0; r < s->g; r++) {
		const unsigned me = rank_of(ctx, r);
		auto want = [&](uint64_t i) { return coll_want<T>(v.op, seed, w, me, i, c.share); };
		int rc = check_rank_output<T>(ctx, me, r, s->out[r], c.out, w, seed, want);
		if (rc != GPULAB_OK)
			return rc;
	}
	return s->note_bandwidth(ctx, (double)c.size * elem(ctx), v.busbw(s->w));
}

} // namespace

#endif
