/*
 * The links between GPUs, peer to peer: p2p_copy (the copy engines),
 * p2p_kernel (a kernel's loads), and a sum over GPUs two ways, reduce_host
 * (the host adds the partials) and reduce_p2p (GPU 0 gathers them).
 * As ranks of a launched job on one machine, one GPU each, the same
 * exercises share memory over CUDA IPC (ipc.cuh): rank 0 copies into rank
 * 1's buffer, rank 0's kernel reads rank 1's, every rank sends its
 * partial into rank 0's array; reduce_host's partials meet on the host
 * through the launcher (MPI), as the book's pattern does across
 * processes, so it alone also runs across machines.
 * Part of the multigpu plugin, one translation unit: multigpu.cu includes
 * it, and it includes the parts it uses.
 */
#ifndef GPULAB_MULTIGPU_P2P_CUH
#define GPULAB_MULTIGPU_P2P_CUH

#include "ipc.cuh"
#include "params.cuh"
#include "plan.cuh"

namespace {

/* --- p2p_copy: the link, by the copy engines ------------------------------------------ */

/* Direction d copies src[d] on GPU d into dst[d] on GPU 1-d.  As ranks,
 * GPU d is rank d's: src[d] is there, dst[d] on rank 1-d, which offers
 * it, and rank d maps it (`to`).  Ranks from 2 on idle. */
struct copy_state : gpus::state {
	void *src[2] = {}, *dst[2] = {};
	unsigned dirs = 1;
	uint64_t seed = 0;
	bool ranked = false;
	unsigned me = 0;
	void *to = nullptr; /* as rank d: rank 1-d's dst[d], mapped */
	ipc::peers peers;
};

int copy_plan(gpulab_ctx *ctx)
{
	const copy_opts &o = lab::opts<copy_opts>(ctx);
	int ord[gpus::max_gpus];
	unsigned g;
	int rc = ctx->group ? ipc::plan_ranks(ctx, 2) : plan_gpus(ctx, 2, 2, &g, ord);
	if (rc != GPULAB_OK)
		return rc;
	/* GB/s per direction: each byte counted once, as it crosses the link */
	return traffic(ctx, ctx->elements * elem(ctx), 0, (o.dir ? 2 : 1) * ctx->elements * elem(ctx));
}

/* As a rank: its source (if it sends) and its destination (if it gets),
 * the destination offered to the rank that copies into it. */
template <typename T>
int copy_share(gpulab_ctx *ctx, copy_state *s, int rc)
{
	const copy_opts &o = lab::opts<copy_opts>(ctx);
	const unsigned me = ctx->group->rank, dirs = o.dir ? 2 : 1;
	const bool sends = me < dirs, gets = me < 2 && 1 - me < dirs;
	void *mine[1] = {};
	if (rc == GPULAB_OK) {
		T *src = nullptr, *dst = nullptr;
		s->ranked = true, s->me = me, s->dirs = dirs, s->seed = o.seed;
		if (sends && (rc = s->alloc_on(ctx, 0, &src, ctx->elements)) == GPULAB_OK)
			rc = upload(ctx, 0, src, ctx->elements, o.seed + me);
		if (rc == GPULAB_OK && gets)
			rc = s->alloc_on(ctx, 0, &dst, ctx->elements);
		if (sends)
			s->src[me] = src;
		if (gets)
			s->dst[1 - me] = mine[0] = dst;
	}
	ipc::offer offer = { mine, 1, nullptr, 0, sends ? ipc::rank_bit(1 - me) : 0, 0 };
	if ((rc = ipc::share_with(ctx, s ? &s->peers : nullptr, rc, offer)) == GPULAB_OK && sends)
		s->to = s->peers.buf[1 - me][0];
	return rc;
}

template <typename T>
int copy_setup(gpulab_ctx *ctx)
{
	copy_state *s = nullptr;
	int rc = begin_setup(ctx, &s, ctx->group ? 0 : 2, ctx->group ? 1 : 2);
	if (ctx->group)
		return copy_share<T>(ctx, rc == GPULAB_OK ? s : nullptr, rc);
	if (rc != GPULAB_OK)
		return rc;
	const copy_opts &o = lab::opts<copy_opts>(ctx);
	s->dirs = o.dir ? 2 : 1;
	s->seed = o.seed;
	for (unsigned d = 0; d < s->dirs; d++) {
		T *src, *dst;
		if ((rc = s->alloc_on(ctx, d, &src, ctx->elements)) != GPULAB_OK
		    || (rc = s->alloc_on(ctx, 1 - d, &dst, ctx->elements)) != GPULAB_OK
		    || (rc = upload(ctx, d, src, ctx->elements, o.seed + d)) != GPULAB_OK)
			return rc;
		s->src[d] = src;
		s->dst[d] = dst;
	}
	return GPULAB_OK;
}

int copy_reset(gpulab_ctx *ctx)
{
	copy_state *s = lab::state_of<copy_state>(ctx);
	if (s->ranked) { /* the destination poisoned before the other rank copies into it */
		void *dst = s->me < 2 ? s->dst[1 - s->me] : nullptr;
		return ipc::fence(ctx, dst ? poison_on(ctx, 0, dst, ctx->elements * elem(ctx)) : GPULAB_OK);
	}
	for (unsigned d = 0; d < s->dirs; d++) {
		int rc = poison_on(ctx, 1 - d, s->dst[d], ctx->elements * elem(ctx));
		if (rc != GPULAB_OK)
			return rc;
	}
	return s->join(ctx);
}

int copy_run(gpulab_ctx *ctx)
{
	copy_state *s = lab::state_of<copy_state>(ctx);
	gpus::device_kept keep;
	int rc = s->start(ctx);
	if (rc != GPULAB_OK)
		return rc;
	if (s->ranked && s->to) /* into the other rank's memory, mapped here */
		LAB_TRY(ctx, cudaMemcpyAsync(s->to, s->src[s->me], ctx->elements * elem(ctx), cudaMemcpyDeviceToDevice,
					     gpus::stream(ctx, 0)));
	for (unsigned d = 0; !s->ranked && d < s->dirs; d++) { /* each GPU pushes its own */
		LAB_TRY(ctx, cudaSetDevice(ctx->devices[d]));
		LAB_TRY(ctx, cudaMemcpyPeerAsync(s->dst[d], ctx->devices[1 - d], s->src[d], ctx->devices[d],
						 ctx->elements * elem(ctx), gpus::stream(ctx, d)));
	}
	return s->finish(ctx);
}

template <typename T>
int copy_verify(gpulab_ctx *ctx)
{
	copy_state *s = lab::state_of<copy_state>(ctx);
	int rc = GPULAB_OK;
	for (unsigned d = 0; rc == GPULAB_OK && d < s->dirs; d++) {
		if (s->ranked && s->me != 1 - d) /* a rank checks what it got */
			continue;
		const uint64_t seed = s->seed + d;
		uint64_t at;
		T got{};
		auto bad = [seed](uint64_t i, T v) { return !(v == lab::draw_at<T>(seed, i)); };
		if ((rc = lab::check_device(ctx, (const T *)s->dst[d], ctx->elements, bad, &at, &got)) == GPULAB_OK
		    && at < ctx->elements) {
			ctx->error(ctx, "GPU %u's copy[%" PRIu64 "]: expected %.9g, got %.9g", 1 - d, at,
				   (double)lab::draw_at<T>(seed, at), (double)got);
			rc = GPULAB_WRONG;
		}
	}
	return rc != GPULAB_OK ? rc : s->note_bandwidth(ctx, (double)ctx->bytes_read, 1);
}

/* --- p2p_kernel: the link, by a kernel's loads ----------------------------------------- */

struct peer_state : gpus::state {
	void *in = nullptr;     /* on GPU 1 (rank 1's, which offers it) */
	summer<int> si;         /* on GPU 0 (rank 0's, which maps in) */
	summer<float> sf;
	sum_ref ref;
	uint64_t seed = 0;
	bool ranked = false;
	unsigned me = 0;
	ipc::peers peers;
	bool sums() const { return !ranked || me == 0; }
};

template <typename T> summer<T> &summer_of(peer_state *s);
template <> summer<int> &summer_of<int>(peer_state *s) { return s->si; }
template <> summer<float> &summer_of<float>(peer_state *s) { return s->sf; }

int peer_plan(gpulab_ctx *ctx)
{
	int ord[gpus::max_gpus];
	unsigned g;
	int rc = ctx->group ? ipc::plan_ranks(ctx, 2) : plan_gpus(ctx, 2, 2, &g, ord);
	if (rc != GPULAB_OK || (rc = plan_block(ctx)) != GPULAB_OK
	    || (!ctx->group && g && (rc = plan_reads(ctx, ord[0], ord[1]))))
		return rc;
	/* all of it over the link */
	return traffic(ctx, ctx->elements * elem(ctx), elem(ctx), ctx->elements * elem(ctx) + (1 << 20));
}

/* As a rank: rank 1 offers its array, rank 0 maps it and sums it. */
template <typename T>
int peer_share(gpulab_ctx *ctx, peer_state *s, int rc)
{
	const unsigned me = ctx->group->rank;
	void *mine[1] = {};
	if (rc == GPULAB_OK) {
		T *in;
		s->ranked = true, s->me = me, s->seed = lab::opts<peer_opts>(ctx).seed;
		if (me == 1 && (rc = s->alloc_on(ctx, 0, &in, ctx->elements)) == GPULAB_OK
		    && (rc = upload(ctx, 0, in, ctx->elements, s->seed)) == GPULAB_OK)
			s->in = mine[0] = in;
		if (me == 0)
			s->ref.of_fill<T>(ctx->elements, s->seed);
	}
	ipc::offer offer = { mine, 1, nullptr, 0, me == 0 ? ipc::rank_bit(1) : 0, 0 };
	if ((rc = ipc::share_with(ctx, s ? &s->peers : nullptr, rc, offer)) != GPULAB_OK || me != 0)
		return rc;
	return summer_of<T>(s).setup(ctx, s, 0, static_cast<const T *>(s->peers.buf[1][0]), ctx->elements, ctx->block);
}

template <typename T>
int peer_setup(gpulab_ctx *ctx)
{
	peer_state *s = nullptr;
	int rc = begin_setup(ctx, &s, ctx->group ? 0 : 2, ctx->group ? 1 : 2);
	if (ctx->group)
		return peer_share<T>(ctx, rc == GPULAB_OK ? s : nullptr, rc);
	if (rc != GPULAB_OK)
		return rc;
	s->seed = lab::opts<peer_opts>(ctx).seed;
	T *in;
	if ((rc = s->alloc_on(ctx, 1, &in, ctx->elements)) != GPULAB_OK
	    || (rc = upload(ctx, 1, in, ctx->elements, s->seed)) != GPULAB_OK)
		return rc;
	s->in = in;
	s->ref.of_fill<T>(ctx->elements, s->seed);
	return summer_of<T>(s).setup(ctx, s, 0, in, ctx->elements, ctx->block); /* GPU 0 sums GPU 1's array */
}

template <typename T>
int peer_reset(gpulab_ctx *ctx)
{
	peer_state *s = lab::state_of<peer_state>(ctx);
	int rc = s->sums() ? lab::poison(ctx, summer_of<T>(s).out, sizeof(T)) : GPULAB_OK;
	return s->ranked ? ipc::fence(ctx, rc) : rc;
}

template <typename T>
int peer_run(gpulab_ctx *ctx)
{
	peer_state *s = lab::state_of<peer_state>(ctx);
	int rc;
	if ((rc = s->begin_run(ctx)) != GPULAB_OK || (s->sums() && (rc = summer_of<T>(s).launch(ctx, lab::stream(ctx)))))
		return rc;
	return s->end_run(ctx);
}

template <typename T>
int peer_verify(gpulab_ctx *ctx)
{
	peer_state *s = lab::state_of<peer_state>(ctx);
	T got;
	if (!s->sums()) /* rank 0 checks the sum */
		return GPULAB_OK;
	LAB_TRY(ctx, cudaMemcpy(&got, summer_of<T>(s).out, sizeof(T), cudaMemcpyDeviceToHost));
	int rc = s->ref.check(ctx, got, ctx->elements, s->seed);
	return rc != GPULAB_OK ? rc : s->note_bandwidth(ctx, (double)ctx->elements * elem(ctx), 1);
}

/* --- reduce_host, reduce_p2p: a sum over GPUs ---------------------------------------------- */

struct shard_variant {
	bool to_host; /* the host adds the partial sums; else GPU 0, gathered peer-to-peer */
};

template <typename T>
struct shards {
	summer<T> part[gpus::max_gpus]; /* GPU r's shard and its sum */
	summer<T> total;                /* reduce_p2p: GPU 0 adds the gathered partials */
	T *gathered = nullptr;          /* reduce_p2p: on GPU 0, one per GPU */
	T *host = nullptr;              /* reduce_host: pinned, one per GPU */
};

/* As ranks, GPU r of the one-process exercise is rank r's one GPU: this
 * process holds shard me, and `parts` counts the shards everywhere. */
struct shard_state : gpus::state {
	shards<int> si;
	shards<float> sf;
	sum_ref ref;
	double host_sum = 0;
	uint64_t seed = 0;
	bool ranked = false;
	unsigned me = 0, parts = 1;
	ipc::peers peers;                   /* reduce_p2p as ranks: rank 0's array, the others' events */
	cudaEvent_t sent = nullptr;         /* reduce_p2p as rank q > 0: its partial is in rank 0's array */
	std::vector<double> met;            /* reduce_host as ranks: each rank's partial and status */
	~shard_state() override
	{
		if (sent)
			cudaEventDestroy(sent);
	}
};

template <typename T> shards<T> &shards_of(shard_state *s);
template <> shards<int> &shards_of<int>(shard_state *s) { return s->si; }
template <> shards<float> &shards_of<float>(shard_state *s) { return s->sf; }

const shard_variant *variant_of(const gpulab_ctx *ctx) { return static_cast<const shard_variant *>(ctx->data); }

/* Shard r of n elements over g: [*lo, *hi) */
void shard(uint64_t n, unsigned g, unsigned r, uint64_t *lo, uint64_t *hi)
{
	uint64_t per = lab::div_up(n, g);
	*lo = std::min(r * per, n);
	*hi = std::min(*lo + per, n);
}

/* As ranks, reduce_p2p maps rank 0's memory (one machine); reduce_host's
 * partials travel through the launcher, across machines too. */
int shard_plan(gpulab_ctx *ctx)
{
	int ord[gpus::max_gpus];
	unsigned g;
	int rc = plan_width(ctx, lab::opts<multi_opts>(ctx).gpus, &g, ord);
	if (rc == GPULAB_OK && ctx->group && !variant_of(ctx)->to_host)
		rc = ipc::plan_ranks(ctx, 1);
	if (rc != GPULAB_OK || (rc = plan_block(ctx)) != GPULAB_OK)
		return rc;
	unsigned parts = ctx->group ? ctx->group->size : g ? g : 1;
	return traffic(ctx, ctx->elements * elem(ctx), parts * elem(ctx),
		       lab::div_up(ctx->elements, parts) * elem(ctx) + (1 << 20));
}

/* This process's shards, each on its GPU with its sum's set-up, and the
 * reference over the whole vector. */
template <typename T>
int shard_inputs(gpulab_ctx *ctx, shard_state *s, uint64_t seed)
{
	shards<T> &sh = shards_of<T>(s);
	int rc;
	s->seed = seed;
	s->ranked = ctx->group != nullptr;
	s->me = s->ranked ? ctx->group->rank : 0;
	s->parts = s->ranked ? ctx->group->size : s->g;
	s->ref.of_fill<T>(ctx->elements, seed);
	for (unsigned r = 0; r < s->g; r++) {
		uint64_t lo, hi;
		T *in;
		shard(ctx->elements, s->parts, s->me + r, &lo, &hi);
		if ((rc = s->alloc_on(ctx, r, &in, hi - lo)) != GPULAB_OK
		    || (rc = sh.part[r].setup(ctx, s, r, in, hi - lo, ctx->block)) != GPULAB_OK
		    || (rc = upload(ctx, r, in, hi - lo, seed, lo)) != GPULAB_OK) /* values lo .. hi-1 of the whole */
			return rc;
	}
	return GPULAB_OK;
}

/* reduce_p2p as a rank: rank 0 offers the array the partials go to and
 * maps each other rank's event that says its partial is there. */
template <typename T>
int shard_share(gpulab_ctx *ctx, shard_state *s, int rc)
{
	const unsigned w = ctx->group->size, me = ctx->group->rank;
	void *mine[1] = {};
	cudaEvent_t ev[1] = {};
	if (rc == GPULAB_OK && me == 0) {
		shards<T> &sh = shards_of<T>(s);
		if ((rc = s->alloc_on(ctx, 0, &sh.gathered, w)) == GPULAB_OK
		    && (rc = sh.total.setup(ctx, s, 0, sh.gathered, w, 64)) == GPULAB_OK)
			mine[0] = sh.gathered;
	}
	if (rc == GPULAB_OK && me != 0 && (rc = ipc::shared_event(ctx, &s->sent)) == GPULAB_OK)
		ev[0] = s->sent;
	const uint32_t others = ((1u << w) - 1) & ~ipc::rank_bit(0);
	ipc::offer offer = { mine, 1, ev, ev[0] ? 1u : 0u, me == 0 ? 0 : ipc::rank_bit(0), me == 0 ? others : 0 };
	return ipc::share_with(ctx, s ? &s->peers : nullptr, rc, offer);
}

template <typename T>
int shard_setup(gpulab_ctx *ctx)
{
	shard_state *s = nullptr;
	const multi_opts &o = lab::opts<multi_opts>(ctx);
	int rc = begin_setup(ctx, &s, o.gpus, 1);
	if (rc == GPULAB_OK)
		rc = shard_inputs<T>(ctx, s, o.seed);
	if (ctx->group && !variant_of(ctx)->to_host)
		return shard_share<T>(ctx, rc == GPULAB_OK ? s : nullptr, rc);
	if (rc != GPULAB_OK)
		return rc;
	shards<T> &sh = shards_of<T>(s);
	if (variant_of(ctx)->to_host) {
		try {
			s->met.resize(2 * s->parts);
		} catch (const std::bad_alloc &) {
			ctx->error(ctx, "out of host memory");
			return GPULAB_ENOMEM;
		}
		return s->alloc_pinned(ctx, &sh.host, s->parts);
	}
	if ((rc = s->alloc_on(ctx, 0, &sh.gathered, s->g)) != GPULAB_OK)
		return rc;
	return sh.total.setup(ctx, s, 0, sh.gathered, s->g, 64);
}

template <typename T>
int shard_reset(gpulab_ctx *ctx)
{
	shard_state *s = lab::state_of<shard_state>(ctx);
	shards<T> &sh = shards_of<T>(s);
	int rc = GPULAB_OK;
	for (unsigned r = 0; rc == GPULAB_OK && r < s->g; r++)
		rc = poison_on(ctx, r, sh.part[r].out, sizeof(T));
	if (sh.host)
		std::memset(sh.host, 0xff, s->parts * sizeof(T));
	if (rc == GPULAB_OK && sh.gathered && (rc = lab::poison(ctx, sh.gathered, s->parts * sizeof(T))) == GPULAB_OK)
		rc = lab::poison(ctx, sh.total.out, sizeof(T));
	if (rc == GPULAB_OK)
		rc = s->join(ctx);
	/* as ranks, rank 0's array is poisoned before any partial is sent to it */
	return s->ranked ? ipc::fence(ctx, rc) : rc;
}

/* reduce_host as a rank: its partial to the host, then every rank's
 * through the launcher (MPI, inside the timed run: it is the transfer),
 * each with its status, so that every rank meets whatever failed. */
template <typename T>
int shard_meet_on_host(gpulab_ctx *ctx, shard_state *s, shards<T> &sh, int rc)
{
	cudaStream_t q = gpus::stream(ctx, 0);
	IPC_TRY(rc, ctx, cudaMemcpyAsync(sh.host + s->me, sh.part[0].out, sizeof(T), cudaMemcpyDeviceToHost, q));
	IPC_TRY(rc, ctx, cudaStreamSynchronize(q));
	double mine[2] = { rc == GPULAB_OK ? (double)sh.host[s->me] : 0, rc != GPULAB_OK ? 1.0 : 0 };
	if (ctx->group->gather(mine, s->met.data(), sizeof mine) != 0) {
		ctx->error(ctx, "the ranks lost each other while gathering the partial sums");
		return GPULAB_ECUDA;
	}
	for (unsigned r = 0; r < s->parts; r++)
		if (s->met[2 * r + 1] != 0 && rc == GPULAB_OK) {
			ctx->error(ctx, "rank %u failed its partial sum (its own line says why)", r);
			rc = GPULAB_ECUDA;
		} else
			sh.host[r] = (T)s->met[2 * r]; /* exact: an int or a float, as a double */
	return rc;
}

/* reduce_p2p as a rank: its partial into rank 0's array, an event
 * recorded; the ranks meet; then rank 0 waits for every event and adds. */
template <typename T>
int shard_send_to_zero(gpulab_ctx *ctx, shard_state *s, shards<T> &sh, int rc)
{
	cudaStream_t q = gpus::stream(ctx, 0);
	T *to = (s->me == 0 ? sh.gathered : static_cast<T *>(s->peers.buf[0][0])) + s->me;
	IPC_TRY(rc, ctx, cudaMemcpyAsync(to, sh.part[0].out, sizeof(T), cudaMemcpyDeviceToDevice, q));
	if (s->me != 0)
		IPC_TRY(rc, ctx, cudaEventRecord(s->sent, q));
	if ((rc = ipc::meet(ctx, rc, "the partial sums' copies")) != GPULAB_OK || s->me != 0)
		return rc;
	for (unsigned r = 1; r < s->parts; r++)
		LAB_TRY(ctx, cudaStreamWaitEvent(q, s->peers.ev[r][0], 0));
	return sh.total.launch(ctx, q);
}

template <typename T>
int shard_run(gpulab_ctx *ctx)
{
	shard_state *s = lab::state_of<shard_state>(ctx);
	shards<T> &sh = shards_of<T>(s);
	gpus::device_kept keep;
	int rc = s->start(ctx);
	if (s->ranked) {
		if (rc == GPULAB_OK)
			rc = sh.part[0].launch(ctx, gpus::stream(ctx, 0));
		rc = sh.host ? shard_meet_on_host<T>(ctx, s, sh, rc) : shard_send_to_zero<T>(ctx, s, sh, rc);
		return rc != GPULAB_OK ? rc : s->end_run(ctx);
	}
	if (rc != GPULAB_OK)
		return rc;
	for (unsigned r = 0; r < s->g; r++) {
		cudaStream_t q = gpus::stream(ctx, r);
		LAB_TRY(ctx, cudaSetDevice(ctx->devices[r]));
		if ((rc = sh.part[r].launch(ctx, q)) != GPULAB_OK)
			return rc;
		if (sh.host) /* the book's way: every partial to the host */
			LAB_TRY(ctx, cudaMemcpyAsync(sh.host + r, sh.part[r].out, sizeof(T), cudaMemcpyDeviceToHost, q));
		else /* peer-to-peer, into GPU 0's array */
			LAB_TRY(ctx, cudaMemcpyPeerAsync(sh.gathered + r, ctx->devices[0], sh.part[r].out, ctx->devices[r],
							 sizeof(T), q));
	}
	if ((rc = s->join(ctx)) != GPULAB_OK)
		return rc;
	LAB_TRY(ctx, cudaSetDevice(ctx->devices[0]));
	if (!sh.host && (rc = sh.total.launch(ctx, lab::stream(ctx))) != GPULAB_OK)
		return rc;
	return s->end_run(ctx);
}

/* reduce_host's last step, timed apart: the host adds the partials (ints
 * wrapping, floats in double), as the reduce plugin's book kernels do. */
template <typename T>
int shard_host(gpulab_ctx *ctx)
{
	shard_state *s = lab::state_of<shard_state>(ctx);
	const T *p = shards_of<T>(s).host;
	if (p)
		s->host_sum = lab::add_up(p, s->parts);
	return GPULAB_OK;
}

/* Every rank checks reduce_host's sum (each has every partial); rank 0
 * alone has reduce_p2p's. */
template <typename T>
int shard_verify(gpulab_ctx *ctx)
{
	shard_state *s = lab::state_of<shard_state>(ctx);
	shards<T> &sh = shards_of<T>(s);
	T got = (T)s->host_sum;
	if (!sh.host && s->me != 0)
		return GPULAB_OK;
	if (!sh.host)
		LAB_TRY(ctx, cudaMemcpy(&got, sh.total.out, sizeof(T), cudaMemcpyDeviceToHost));
	int rc = s->ref.check(ctx, got, ctx->elements, s->seed);
	return rc != GPULAB_OK ? rc : s->note_bandwidth(ctx, (double)ctx->elements * elem(ctx), 1);
}

} // namespace

#endif
