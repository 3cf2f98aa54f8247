/*
 * The links between GPUs, peer to peer: p2p_copy (the copy engines),
 * p2p_kernel (a kernel's loads), and a sum over GPUs two ways, reduce_host
 * (the host adds the partials) and reduce_p2p (GPU 0 gathers them).
 * Part of the multigpu plugin, one translation unit: multigpu.cu includes
 * it, and it includes the parts it uses.
 */
#ifndef GPULAB_MULTIGPU_P2P_CUH
#define GPULAB_MULTIGPU_P2P_CUH

#include "params.cuh"
#include "plan.cuh"

namespace {

/* --- p2p_copy: the link, by the copy engines ------------------------------------------ */

/* Direction d copies src[d] on GPU d into dst[d] on GPU 1-d. */
struct copy_state : gpus::state {
	void *src[2] = {}, *dst[2] = {};
	unsigned dirs = 1;
	uint64_t seed = 0;
};

int copy_plan(gpulab_ctx *ctx)
{
	const copy_opts &o = lab::opts<copy_opts>(ctx);
	int ord[gpus::max_gpus];
	unsigned g;
	int rc = plan_gpus(ctx, 2, 2, &g, ord);
	if (rc != GPULAB_OK)
		return rc;
	/* GB/s per direction: each byte counted once, as it crosses the link */
	return traffic(ctx, ctx->elements * elem(ctx), 0, (o.dir ? 2 : 1) * ctx->elements * elem(ctx));
}

template <typename T>
int copy_setup(gpulab_ctx *ctx)
{
	copy_state *s;
	int rc = begin_setup(ctx, &s, 2, 2);
	if (rc != GPULAB_OK)
		return rc;
	const copy_opts &o = lab::opts<copy_opts>(ctx);
	s->dirs = o.dir ? 2 : 1;
	s->seed = o.seed;
	std::vector<T> h;
	for (unsigned d = 0; d < s->dirs; d++) {
		T *src, *dst;
		if ((rc = s->alloc_on(ctx, d, &src, ctx->elements)) != GPULAB_OK
		    || (rc = s->alloc_on(ctx, 1 - d, &dst, ctx->elements)) != GPULAB_OK
		    || (rc = upload(ctx, h, src, ctx->elements, o.seed + d)) != GPULAB_OK)
			return rc;
		s->src[d] = src;
		s->dst[d] = dst;
	}
	return GPULAB_OK;
}

int copy_reset(gpulab_ctx *ctx)
{
	copy_state *s = lab::state_of<copy_state>(ctx);
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
	for (unsigned d = 0; d < s->dirs; d++) { /* each GPU pushes its own */
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
	std::vector<T> want, got;
	int rc = lab::host_vector(ctx, want, ctx->elements);
	for (unsigned d = 0; rc == GPULAB_OK && d < s->dirs; d++) {
		char name[32];
		std::snprintf(name, sizeof name, "GPU %u's copy", 1 - d);
		lab::fill(want.data(), ctx->elements, s->seed + d);
		if ((rc = lab::copy_back(ctx, got, (const T *)s->dst[d], ctx->elements)) == GPULAB_OK)
			rc = lab::expect_equal(ctx, name, got.data(), want.data(), ctx->elements);
	}
	return rc != GPULAB_OK ? rc : s->note_bandwidth(ctx, (double)ctx->bytes_read, 1);
}

/* --- p2p_kernel: the link, by a kernel's loads ----------------------------------------- */

struct peer_state : gpus::state {
	void *in = nullptr;     /* on GPU 1 */
	summer<int> si;         /* on GPU 0 */
	summer<float> sf;
	sum_ref ref;
	uint64_t seed = 0;
};

template <typename T> summer<T> &summer_of(peer_state *s);
template <> summer<int> &summer_of<int>(peer_state *s) { return s->si; }
template <> summer<float> &summer_of<float>(peer_state *s) { return s->sf; }

int peer_plan(gpulab_ctx *ctx)
{
	int ord[gpus::max_gpus];
	unsigned g;
	int rc = plan_gpus(ctx, 2, 2, &g, ord);
	if (rc != GPULAB_OK || (rc = plan_block(ctx)) != GPULAB_OK || (g && (rc = plan_reads(ctx, ord[0], ord[1]))))
		return rc;
	/* all of it over the link */
	return traffic(ctx, ctx->elements * elem(ctx), elem(ctx), ctx->elements * elem(ctx) + (1 << 20));
}

template <typename T>
int peer_setup(gpulab_ctx *ctx)
{
	peer_state *s;
	int rc = begin_setup(ctx, &s, 2, 2);
	if (rc != GPULAB_OK)
		return rc;
	s->seed = lab::opts<peer_opts>(ctx).seed;
	T *in;
	std::vector<T> h;
	if ((rc = s->alloc_on(ctx, 1, &in, ctx->elements)) != GPULAB_OK
	    || (rc = upload(ctx, h, in, ctx->elements, s->seed)) != GPULAB_OK)
		return rc;
	s->in = in;
	s->ref.add(h.data(), ctx->elements);
	return summer_of<T>(s).setup(ctx, s, 0, in, ctx->elements, ctx->block); /* GPU 0 sums GPU 1's array */
}

template <typename T>
int peer_reset(gpulab_ctx *ctx)
{
	return lab::poison(ctx, summer_of<T>(lab::state_of<peer_state>(ctx)).out, sizeof(T));
}

template <typename T>
int peer_run(gpulab_ctx *ctx)
{
	peer_state *s = lab::state_of<peer_state>(ctx);
	int rc;
	if ((rc = s->begin_run(ctx)) != GPULAB_OK || (rc = summer_of<T>(s).launch(ctx, lab::stream(ctx))) != GPULAB_OK)
		return rc;
	return s->end_run(ctx);
}

template <typename T>
int peer_verify(gpulab_ctx *ctx)
{
	peer_state *s = lab::state_of<peer_state>(ctx);
	T got;
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

struct shard_state : gpus::state {
	shards<int> si;
	shards<float> sf;
	sum_ref ref;
	double host_sum = 0;
	uint64_t seed = 0;
};

template <typename T> shards<T> &shards_of(shard_state *s);
template <> shards<int> &shards_of<int>(shard_state *s) { return s->si; }
template <> shards<float> &shards_of<float>(shard_state *s) { return s->sf; }

const shard_variant *variant_of(const gpulab_ctx *ctx) { return static_cast<const shard_variant *>(ctx->data); }

/* GPU r's shard of n elements over g GPUs: [*lo, *hi) */
void shard(uint64_t n, unsigned g, unsigned r, uint64_t *lo, uint64_t *hi)
{
	uint64_t per = lab::div_up(n, g);
	*lo = std::min(r * per, n);
	*hi = std::min(*lo + per, n);
}

int shard_plan(gpulab_ctx *ctx)
{
	int ord[gpus::max_gpus];
	unsigned g;
	int rc = plan_gpus(ctx, lab::opts<multi_opts>(ctx).gpus, 1, &g, ord);
	if (rc != GPULAB_OK || (rc = plan_block(ctx)) != GPULAB_OK)
		return rc;
	return traffic(ctx, ctx->elements * elem(ctx), (g ? g : 1) * elem(ctx),
		       lab::div_up(ctx->elements, g ? g : 1) * elem(ctx) + (1 << 20));
}

template <typename T>
int shard_setup(gpulab_ctx *ctx)
{
	shard_state *s;
	const multi_opts &o = lab::opts<multi_opts>(ctx);
	int rc = begin_setup(ctx, &s, o.gpus, 1);
	if (rc != GPULAB_OK)
		return rc;
	shards<T> &sh = shards_of<T>(s);
	std::vector<T> h;
	s->seed = o.seed;
	if ((rc = lab::host_vector(ctx, h, ctx->elements)) != GPULAB_OK)
		return rc;
	lab::fill(h.data(), ctx->elements, o.seed);
	s->ref.add(h.data(), ctx->elements);
	for (unsigned r = 0; r < s->g; r++) {
		uint64_t lo, hi;
		T *in;
		shard(ctx->elements, s->g, r, &lo, &hi);
		if ((rc = s->alloc_on(ctx, r, &in, hi - lo)) != GPULAB_OK
		    || (rc = sh.part[r].setup(ctx, s, r, in, hi - lo, ctx->block)) != GPULAB_OK)
			return rc;
		LAB_TRY(ctx, cudaMemcpy(in, h.data() + lo, (hi - lo) * sizeof(T), cudaMemcpyHostToDevice));
	}
	if (variant_of(ctx)->to_host)
		return s->alloc_pinned(ctx, &sh.host, s->g);
	if ((rc = s->alloc_on(ctx, 0, &sh.gathered, s->g)) != GPULAB_OK)
		return rc;
	return sh.total.setup(ctx, s, 0, sh.gathered, s->g, 64);
}

template <typename T>
int shard_reset(gpulab_ctx *ctx)
{
	shard_state *s = lab::state_of<shard_state>(ctx);
	shards<T> &sh = shards_of<T>(s);
	int rc;
	for (unsigned r = 0; r < s->g; r++)
		if ((rc = poison_on(ctx, r, sh.part[r].out, sizeof(T))) != GPULAB_OK)
			return rc;
	if (sh.host)
		std::memset(sh.host, 0xff, s->g * sizeof(T));
	else if ((rc = lab::poison(ctx, sh.gathered, s->g * sizeof(T))) != GPULAB_OK
		 || (rc = lab::poison(ctx, sh.total.out, sizeof(T))) != GPULAB_OK)
		return rc;
	return s->join(ctx);
}

template <typename T>
int shard_run(gpulab_ctx *ctx)
{
	shard_state *s = lab::state_of<shard_state>(ctx);
	shards<T> &sh = shards_of<T>(s);
	gpus::device_kept keep;
	int rc = s->start(ctx);
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
		s->host_sum = lab::add_up(p, s->g);
	return GPULAB_OK;
}

template <typename T>
int shard_verify(gpulab_ctx *ctx)
{
	shard_state *s = lab::state_of<shard_state>(ctx);
	shards<T> &sh = shards_of<T>(s);
	T got = (T)s->host_sum;
	if (!sh.host)
		LAB_TRY(ctx, cudaMemcpy(&got, sh.total.out, sizeof(T), cudaMemcpyDeviceToHost));
	int rc = s->ref.check(ctx, got, ctx->elements, s->seed);
	return rc != GPULAB_OK ? rc : s->note_bandwidth(ctx, (double)ctx->elements * elem(ctx), 1);
}

} // namespace

#endif
