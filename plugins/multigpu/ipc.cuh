/*
 * Ranks that share memory: under a launcher, the ranks of one machine
 * map each other's buffers and events over CUDA IPC, so that the
 * exercises that read or write another GPU's memory (the peer copy and
 * kernel, the sums over GPUs, the hand-made ring) run as ranks too, one
 * process per GPU, as NCCL itself does inside a machine.
 *
 * Each rank hands the others a card (the IPC handles of what it shares)
 * through the launcher's group (gather), opens those of the ranks it
 * needs, and the ranks agree on the outcome: if any rank could not map
 * a peer, every rank refuses the point with the same one line, as a
 * parameter would be refused (GPULAB_EPARAM: the row says skipped, and
 * why).  At teardown each rank closes what it mapped, and the ranks meet
 * once more before any frees its own memory, so that no rank frees a
 * buffer another still maps.
 *
 * Ordering across processes is the host's: an IPC event's wait
 * (cudaStreamWaitEvent) waits for the record the other process had made
 * when the wait was issued, so a record and the other rank's wait on it
 * are separated by a meeting of the ranks (a max over them, every rank
 * in the same order).  A meeting also carries each rank's status, so
 * that a rank that failed keeps meeting (no rank is left in a
 * collective alone) and every rank stops together.
 *
 * Part of the multigpu plugin, one translation unit: multigpu.cu includes
 * it, and it includes the parts it uses.
 */
#ifndef GPULAB_MULTIGPU_IPC_CUH
#define GPULAB_MULTIGPU_IPC_CUH

#include "gpus.cuh"
#include "ranks.cuh"

#include <cinttypes>
#include <vector>

namespace ipc {

const unsigned max_bufs = 2;                             /* a rank shares at most two buffers */
const unsigned max_events = 4 * (gpus::max_gpus - 1);    /* the ring's: two a step, 2(w-1) steps */

/* What a rank shares: its buffers' and events' handles; `bufs` and
 * `events` say which are there (bit b, bit k). */
struct card {
	cudaIpcMemHandle_t buf[max_bufs];
	cudaIpcEventHandle_t ev[max_events];
	uint32_t bufs, events;
};

/* How a rank's mapping of the others' cards went: 0, or the CUDA error
 * and the rank it could not map. */
struct mapped_status {
	int32_t err, peer;
};

/* One bit a rank: the ranks whose buffers or events a rank maps. */
inline uint32_t rank_bit(unsigned q) { return 1u << q; }

/* Under a launcher, an exercise that maps its peers' memory needs every
 * rank on this machine (CUDA IPC does not cross machines), at least
 * `need` ranks, and at most one a GPU of the plugin's.  Every rank
 * decides alike, from the group alone, so that no rank runs a point
 * another skips. */
inline int plan_ranks(gpulab_ctx *ctx, unsigned need)
{
	const gpulab_group *g = ctx->group;
	if (g->local_size != g->size) {
		ctx->error(ctx, "the %u ranks span machines (%u on this one): CUDA IPC maps memory only between the "
				"processes of one machine (docs/multigpu.md, \"Many nodes\")", g->size, g->local_size);
		return GPULAB_EPARAM;
	}
	if (g->size < need) {
		ctx->error(ctx, "needs %u ranks, one GPU each, and %u %s started", need, g->size, g->size == 1 ? "was" : "were");
		return GPULAB_EPARAM;
	}
	if (g->size > gpus::max_gpus) {
		ctx->error(ctx, "%u ranks: at most %u share memory here", g->size, gpus::max_gpus);
		return GPULAB_EPARAM;
	}
	return GPULAB_OK;
}

/* A meeting of the ranks, carrying this rank's status so far (rc): a
 * rank goes on only if every one can.  Every rank calls it, whatever rc. */
inline int meet(gpulab_ctx *ctx, int rc, const char *what) { return all_ranks_ready(ctx, rc, what); }

/* A reset's end as a rank: its writes done (the stream drained) and the
 * ranks met, so that no rank's run writes into a peer's buffer before
 * the peer has poisoned it.  The reset is untimed. */
inline int fence(gpulab_ctx *ctx, int rc)
{
	if (rc == GPULAB_OK) {
		cudaError_t e = cudaStreamSynchronize(gpus::stream(ctx, 0));
		if (e != cudaSuccess) {
			ctx->error(ctx, "cudaStreamSynchronize: %s", cudaGetErrorString(e));
			rc = GPULAB_ECUDA;
		}
	}
	return meet(ctx, rc, "the ranks' resets");
}

/* A CUDA call's error as a status, where the ranks must still meet after
 * it (LAB_TRY would return before the meeting). */
inline int checked(gpulab_ctx *ctx, cudaError_t e, const char *call)
{
	if (e == cudaSuccess)
		return GPULAB_OK;
	ctx->error(ctx, "%s: %s", call, cudaGetErrorString(e));
	return GPULAB_ECUDA;
}
#define IPC_TRY(rc, ctx, call)                                       \
	do {                                                         \
		if ((rc) == GPULAB_OK)                               \
			(rc) = ipc::checked((ctx), (call), #call);   \
	} while (0)

/* An event another process may wait for. */
inline int shared_event(gpulab_ctx *ctx, cudaEvent_t *e)
{
	LAB_TRY(ctx, cudaEventCreateWithFlags(e, cudaEventDisableTiming | cudaEventInterprocess));
	return GPULAB_OK;
}

/* What this rank shares, and what it maps of the others'. */
struct offer {
	void *const *bufs;            /* this rank's buffers (null: none at b) */
	unsigned nbufs;
	const cudaEvent_t *events;    /* this rank's events, made by shared_event */
	unsigned nevents;
	uint32_t bufs_from, events_from; /* the ranks whose buffers, and whose events, it maps */
};

/* The peers' buffers and events, as this rank maps them. */
struct peers {
	void *buf[gpus::max_gpus][max_bufs] = {};
	cudaEvent_t ev[gpus::max_gpus][max_events] = {};
	bool met = false; /* the cards went round: teardown meets once more */

	/* This rank's card: the handles of what it offers. */
	static int write_card(gpulab_ctx *ctx, const offer &o, card *c)
	{
		*c = card{};
		for (unsigned b = 0; b < o.nbufs && b < max_bufs; b++)
			if (o.bufs[b]) {
				LAB_TRY(ctx, cudaIpcGetMemHandle(&c->buf[b], o.bufs[b]));
				c->bufs |= 1u << b;
			}
		for (unsigned k = 0; k < o.nevents && k < max_events; k++) {
			LAB_TRY(ctx, cudaIpcGetEventHandle(&c->ev[k], o.events[k]));
			c->events |= 1u << k;
		}
		return GPULAB_OK;
	}

	/* Rank q's card, mapped here: its buffers where `bufs_from` names q,
	 * its events where `events_from` does.  The first failure, as a
	 * status for the ranks to agree on. */
	mapped_status map(const offer &o, const card *all, unsigned w)
	{
		for (unsigned q = 0; q < w; q++) {
			cudaError_t e = cudaSuccess;
			for (unsigned b = 0; e == cudaSuccess && b < max_bufs; b++)
				if ((o.bufs_from & rank_bit(q)) && (all[q].bufs & (1u << b)))
					e = cudaIpcOpenMemHandle(&buf[q][b], all[q].buf[b], cudaIpcMemLazyEnablePeerAccess);
			for (unsigned k = 0; e == cudaSuccess && k < max_events; k++)
				if ((o.events_from & rank_bit(q)) && (all[q].events & (1u << k)))
					e = cudaIpcOpenEventHandle(&ev[q][k], all[q].ev[k]);
			if (e != cudaSuccess) {
				cudaGetLastError(); /* not sticky: leave nothing behind */
				return { (int32_t)e, (int32_t)q };
			}
		}
		return { 0, 0 };
	}

	/* Every rank calls this once in its setup, whatever rc (its setup so
	 * far): the cards go round, each rank maps what it needs, and every
	 * rank returns the same: GPULAB_OK, the failure of a rank's setup,
	 * or GPULAB_EPARAM naming the first rank that could not map a peer
	 * (no peer access between their GPUs; IPC refused). */
	int share(gpulab_ctx *ctx, int rc, const offer &o)
	{
		const gpulab_group *g = ctx->group;
		card mine;
		if (rc == GPULAB_OK)
			rc = write_card(ctx, o, &mine);
		if ((rc = meet(ctx, rc, "sharing memory over CUDA IPC")) != GPULAB_OK)
			return rc;
		std::vector<card> all;
		std::vector<mapped_status> how;
		try {
			all.resize(g->size);
			how.resize(g->size);
		} catch (const std::bad_alloc &) {
			rc = GPULAB_ENOMEM;
		}
		if ((rc = meet(ctx, rc, "sharing memory over CUDA IPC")) != GPULAB_OK)
			return rc;
		if (g->gather(&mine, all.data(), sizeof mine) != 0) {
			ctx->error(ctx, "the ranks could not share their CUDA IPC handles");
			return GPULAB_ECUDA;
		}
		met = true;
		gpus::device_kept keep;
		mapped_status st = cudaSetDevice(ctx->devices[0]) == cudaSuccess ? map(o, all.data(), g->size)
									 : mapped_status{ (int32_t)cudaErrorInvalidDevice, 0 };
		if (g->gather(&st, how.data(), sizeof st) != 0) {
			ctx->error(ctx, "the ranks lost each other while mapping memory over CUDA IPC");
			return GPULAB_ECUDA;
		}
		for (unsigned q = 0; q < g->size; q++)
			if (how[q].err) {
				ctx->error(ctx, "rank %u could not map rank %d's memory over CUDA IPC (%s): the ranks' GPUs need peer "
						"access, or run one process with -p gpus", q, (int)how[q].peer,
					   cudaGetErrorString((cudaError_t)how[q].err));
				return GPULAB_EPARAM;
			}
		return GPULAB_OK;
	}

	/* Teardown's first step: every mapping closed, then the ranks meet,
	 * so that none frees memory that another still maps.  Each rank
	 * calls it where the cards went round on every rank (`met` is the
	 * same on all: share's meetings made it so). */
	void close(gpulab_ctx *ctx)
	{
		for (auto &q : buf)
			for (void *&p : q)
				if (p) {
					cudaIpcCloseMemHandle(p);
					p = nullptr;
				}
		for (auto &q : ev)
			for (cudaEvent_t &e : q)
				if (e) {
					cudaEventDestroy(e);
					e = nullptr;
				}
		cudaGetLastError();
		if (met) {
			double nothing = 0;
			met = false;
			ctx->group->max(&nothing, 1);
		}
	}
};

/* share(), where the state may be missing (make_state failed: rc says
 * so): this rank still meets the others, who then stop too. */
inline int share_with(gpulab_ctx *ctx, peers *p, int rc, const offer &o)
{
	if (!p)
		return meet(ctx, rc == GPULAB_OK ? GPULAB_ENOMEM : rc, "sharing memory over CUDA IPC");
	return p->share(ctx, rc, o);
}

/* The teardown of an exercise whose state S shares memory as a rank (a
 * member `peers`): the mappings closed and the ranks met, then the
 * state freed. */
template <typename S>
void teardown(gpulab_ctx *ctx)
{
	S *s = lab::state_of<S>(ctx);
	if (s)
		s->peers.close(ctx);
	lab::teardown<S>(ctx);
}

} // namespace ipc

#endif
