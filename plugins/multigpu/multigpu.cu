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
 * docs/multigpu.md explains both, and the rings.
 */
#include "../reduce/best.cuh"
#include "gpus.cuh"
#include "ring.cuh"
#include "sendrecv.h"

#include <gpulab/lab.cuh>

#include <nccl.h>

#include <cinttypes>
#include <cstdlib>
#include <ctime>
#include <sched.h>
#include <unistd.h>
#include <type_traits>
#include <vector>

namespace {

/* --- parameters -------------------------------------------------------------- */

struct copy_opts {
	unsigned dir;     /* 0: uni, 1: bi */
	uint64_t seed;
};

struct peer_opts {
	uint64_t seed;
};

struct multi_opts {
	unsigned gpus;    /* 0: every visible GPU (up to 8); else the first N */
	uint64_t seed;
};

struct sendrecv_opts {
	multi_opts m;     /* first, so that the collectives' code reads it as theirs */
	uint64_t chunk;   /* bytes */
};

struct ring_opts {
	unsigned gpus;
	uint64_t chunk;   /* bytes */
	uint64_t depth;   /* streams per GPU */
	unsigned launch;  /* 0: graph, 1: streams */
	uint64_t seed;
};

#define GPUS_PARAM(Opts, field)                                                                              \
	gpulab_param                                                                                         \
	{                                                                                                    \
		.key = "gpus", .type = GPULAB_PARAM_ENUM, .offset = offsetof(Opts, field), .def = "all",     \
		.help = "GPUs: all those visible (up to 8), or the first N", .choices = "all|1|2|3|4|5|6|7|8" \
	}

const gpulab_param copy_params[] = {
	{ .key = "dir", .type = GPULAB_PARAM_ENUM, .offset = offsetof(copy_opts, dir), .def = "uni",
	  .help = "uni: GPU 0 to GPU 1; bi: both ways at once (GB/s stays per direction)", .choices = "uni|bi" },
	LAB_SEED(copy_opts, seed),
	{}
};

const gpulab_param peer_params[] = { LAB_SEED(peer_opts, seed), {} };

const gpulab_param multi_params[] = { GPUS_PARAM(multi_opts, gpus), LAB_SEED(multi_opts, seed), {} };

const gpulab_param sendrecv_params[] = {
	GPUS_PARAM(sendrecv_opts, m.gpus),
	{ .key = "chunk", .type = GPULAB_PARAM_COUNT, .offset = offsetof(sendrecv_opts, chunk), .def = "1G",
	  .help = "most bytes one send of a ring step moves: smaller, a slice's add overlaps the next one's send, but "
		  "NCCL's sends lose speed as they shrink (docs/multigpu.md)", .min = 1024, .max = 1ll << 40 },
	LAB_SEED(sendrecv_opts, m.seed),
	{}
};

const gpulab_param ring_params[] = {
	GPUS_PARAM(ring_opts, gpus),
	{ .key = "chunk", .type = GPULAB_PARAM_COUNT, .offset = offsetof(ring_opts, chunk), .def = "32M",
	  .help = "most bytes one kernel of a ring step moves: the pipeline's grain", .min = 4096, .max = 1ll << 30 },
	{ .key = "depth", .type = GPULAB_PARAM_COUNT, .offset = offsetof(ring_opts, depth), .def = "2",
	  .help = "streams per GPU: chunks in flight at once", .min = 1, .max = ring::max_depth },
	{ .key = "launch", .type = GPULAB_PARAM_ENUM, .offset = offsetof(ring_opts, launch), .def = "graph",
	  .help = "graph: the schedule captured once as a CUDA graph; streams: issued anew every run",
	  .choices = "graph|streams" },
	LAB_SEED(ring_opts, seed),
	{}
};

/* --- planning ------------------------------------------------------------------ */

size_t elem(const gpulab_ctx *ctx) { return ctx->dtype == GPULAB_INT32 ? sizeof(int) : sizeof(float); }

/* The GPUs an exercise will have, decided before anything runs: `want`
 * (0: every visible one, up to 8), at least `need`.  *g = 0 where CUDA
 * sees no GPU: the core refuses the run itself then. */
int plan_gpus(gpulab_ctx *ctx, unsigned want, unsigned need, unsigned *g, int *ordinals)
{
	unsigned vis = gpus::visible(gpus::max_gpus, ordinals);
	*g = 0;
	if (vis == 0)
		return GPULAB_OK;
	if (vis < need) {
		ctx->error(ctx, "needs %u GPUs, and %u is visible", need, vis);
		return GPULAB_EPARAM;
	}
	if (want > vis) {
		ctx->error(ctx, "gpus = %u: only %u GPUs are visible", want, vis);
		return GPULAB_EPARAM;
	}
	*g = want ? want : vis;
	return GPULAB_OK;
}

/* Kernels that read another GPU's memory need peer access to it. */
int plan_reads(gpulab_ctx *ctx, int reader, int owner)
{
	if (gpus::can_read(reader, owner))
		return GPULAB_OK;
	ctx->error(ctx, "GPU %d cannot read GPU %d's memory (no peer access between them)", reader, owner);
	return GPULAB_EPARAM;
}

/* The reduce plugin's `best` takes a block size that is a power of two. */
int plan_block(gpulab_ctx *ctx)
{
	if (ctx->block < 64 || !lab::pow2(ctx->block)) {
		ctx->error(ctx, "block size %u: the best kernel takes a power of two from 64 to 1024", ctx->block);
		return GPULAB_EPARAM;
	}
	return GPULAB_OK;
}

/* The GPUs setup() uses: as planned, from those the core handed over. */
int setup_gpus(gpulab_ctx *ctx, unsigned want, unsigned need, gpus::state *s)
{
	unsigned g = want ? want : ctx->ndevices;
	if (g < need || g > ctx->ndevices) {
		ctx->error(ctx, "needs %u GPUs, and the run has %u", std::max(g, need), ctx->ndevices);
		return GPULAB_EPARAM;
	}
	int rc = s->open(ctx, g);
	return rc != GPULAB_OK ? rc : gpus::enable_peers(ctx, g);
}

/* setup's first step here: the exercise's state, and its GPUs. */
template <typename S>
int begin_setup(gpulab_ctx *ctx, S **s, unsigned want, unsigned need)
{
	int rc = lab::make_state(ctx, s);
	return rc != GPULAB_OK ? rc : setup_gpus(ctx, want, need, *s);
}

/* plan's last step: what one run moves, and what setup will allocate. */
int traffic(gpulab_ctx *ctx, uint64_t read, uint64_t written, uint64_t device)
{
	ctx->bytes_read = read;
	ctx->bytes_written = written;
	ctx->device_bytes = device;
	return GPULAB_OK;
}

/* --- the `best` reduction on one GPU ---------------------------------------------- */

template <typename T> using best_fn = void (*)(const T *, size_t, best_meet<T>, T *);

template <typename T>
best_fn<T> best_kernel(unsigned block)
{
	switch (block) {
	case 64: return reduceBest<T, 64>;
	case 128: return reduceBest<T, 128>;
	case 256: return reduceBest<T, 256>;
	case 512: return reduceBest<T, 512>;
	default: return reduceBest<T, 1024>; /* plan admits nothing else */
	}
}

/* One sum of n elements at `in` (on any GPU this one can read) into *out,
 * on GPU r: the reduce plugin's best, with its grid sized the same way. */
template <typename T>
struct summer {
	const T *in = nullptr;
	size_t n = 0;
	T *partials = nullptr, *out = nullptr;
	unsigned *tickets = nullptr;
	unsigned grid = 0, block = 0;

	int setup(gpulab_ctx *ctx, gpus::state *s, unsigned r, const T *input, size_t count, unsigned threads)
	{
		gpus::device_kept keep;
		int sms = 0, per_sm = 0, rc;
		in = input;
		n = count;
		block = threads;
		LAB_TRY(ctx, cudaSetDevice(ctx->devices[r]));
		LAB_TRY(ctx, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ctx->devices[r]));
		LAB_TRY(ctx, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, best_kernel<T>(block), block, 0));
		uint64_t useful = lab::div_up(n, 4ull * block); /* no block without a vector to load */
		grid = (unsigned)std::min<uint64_t>((uint64_t)sms * std::max(per_sm, 1), useful);
		if ((rc = s->alloc_on(ctx, r, &partials, std::max(grid, 1u))) != GPULAB_OK
		    || (rc = s->alloc_on(ctx, r, &out, 1)) != GPULAB_OK || (rc = s->alloc_on(ctx, r, &tickets, 1)) != GPULAB_OK)
			return rc;
		LAB_TRY(ctx, cudaMemset(tickets, 0, sizeof(unsigned)));
		return GPULAB_OK;
	}

	/* on the current device, which is GPU r */
	int launch(gpulab_ctx *ctx, cudaStream_t q) const
	{
		if (grid == 0) { /* an empty shard sums to 0 */
			LAB_TRY(ctx, cudaMemsetAsync(out, 0, sizeof(T), q));
			return GPULAB_OK;
		}
		best_meet<T> last_block = { nullptr, 0, partials, tickets }; /* the ticket: no epoch to keep per launch */
		best_kernel<T>(block)<<<grid, block, 0, q>>>(in, n, last_block, out);
		LAB_LAUNCHED(ctx);
		return GPULAB_OK;
	}
};

/* --- inputs and references ---------------------------------------------------------- */

/* lab::fill's n values with `seed`, into GPU r's buffer. */
template <typename T>
int upload(gpulab_ctx *ctx, std::vector<T> &h, T *dev, uint64_t n, uint64_t seed)
{
	int rc = lab::host_vector(ctx, h, n);
	if (rc != GPULAB_OK)
		return rc;
	lab::fill(h.data(), n, seed);
	LAB_TRY(ctx, cudaMemcpy(dev, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
	return GPULAB_OK;
}

/* A sum as the GPU adds: ints wrap at 32 bits; floats exactly, in double,
 * with the magnitudes' sum for the tolerance (lab::close_enough). */
struct sum_ref {
	double want = 0, sum_abs = 0;
	template <typename T>
	void add(const T *h, uint64_t n)
	{
		lab::sum_reference(h, n, &want, &sum_abs);
	}
	template <typename T>
	int check(gpulab_ctx *ctx, T got, uint64_t n, uint64_t seed) const
	{
		return lab::expect_sum(ctx, got, want, sum_abs, n, seed);
	}
};

/* Fill an output on GPU r with 0xff bytes (NaN, -1) on its own stream. */
int poison_on(gpulab_ctx *ctx, unsigned r, void *p, size_t bytes)
{
	gpus::device_kept keep;
	LAB_TRY(ctx, cudaSetDevice(ctx->devices[r]));
	LAB_TRY(ctx, cudaMemsetAsync(p, 0xff, bytes, gpus::stream(ctx, r)));
	return GPULAB_OK;
}

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

#define NCCL_TRY(ctx, call)                                                                 \
	do {                                                                                \
		ncclResult_t nccl_e_ = (call);                                              \
		if (nccl_e_ != ncclSuccess && nccl_e_ != ncclInProgress) {                  \
			(ctx)->error((ctx), "%s: %s", #call, ncclGetErrorString(nccl_e_)); \
			return GPULAB_ECUDA;                                                \
		}                                                                           \
	} while (0)

/* --- the collectives through NCCL, in one process or as ranks ----------------------------------- */

/* Under a launcher (ctx->group) this process is one rank with one GPU,
 * and a collective spans every rank; alone, it spans this process's GPUs.
 * The width of the collective, and the rank of this process's GPU r: */
unsigned width(const gpulab_ctx *ctx, unsigned g) { return ctx->group ? ctx->group->size : g; }
unsigned rank_of(const gpulab_ctx *ctx, unsigned r) { return ctx->group ? ctx->group->rank : r; }

/* How long a rank waits for NCCL (its communicator's set-up) before it
 * aborts the communicator: no rank hangs on a peer that is gone.
 * NCCL_TIMEOUT_S is gpulab's own bound. */
const double NCCL_TIMEOUT_S = 120;

double seconds_now()
{
	timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* A non-blocking communicator's last call, waited for: success, or its
 * error, or the bound passed (the communicator is then aborted).  NCCL
 * does that call on a thread of its own, which is done in microseconds
 * when the peers are there: spin (yielding) through the first
 * millisecond, as a sleep would cost a timer tick each time, then sleep. */
int nccl_wait(gpulab_ctx *ctx, ncclComm_t *comm, const char *what)
{
	ncclResult_t state = ncclInProgress;
	for (double t0 = seconds_now(), waited = 0; comm && *comm; waited = seconds_now() - t0) {
		if (ncclCommGetAsyncError(*comm, &state) != ncclSuccess || state != ncclInProgress)
			break;
		if (waited > NCCL_TIMEOUT_S) {
			ncclCommAbort(*comm);
			*comm = nullptr;
			ctx->error(ctx, "%s: no answer from the other ranks in %g s; communicator aborted", what, NCCL_TIMEOUT_S);
			return GPULAB_ECUDA;
		}
		if (waited < 1e-3)
			sched_yield();
		else
			usleep(100);
	}
	if (state != ncclSuccess) {
		ctx->error(ctx, "%s: %s", what, ncclGetErrorString(state));
		return GPULAB_ECUDA;
	}
	return GPULAB_OK;
}

/* A non-blocking call's result: its error said, or its end waited for. */
int nccl_started(gpulab_ctx *ctx, ncclResult_t e, ncclComm_t *comm, const char *what)
{
	if (e == ncclSuccess || e == ncclInProgress)
		return nccl_wait(ctx, comm, what);
	ctx->error(ctx, "%s: %s", what, ncclGetErrorString(e));
	return GPULAB_ECUDA;
}

/* Under a launcher, every rank's step so far (rc), agreed: a rank goes on
 * only if all can, as a rank that stopped would leave the others waiting
 * in NCCL for it.  Every rank makes this call, whatever its rc. */
int all_ranks_ready(gpulab_ctx *ctx, int rc, const char *step)
{
	double bad = rc != GPULAB_OK;
	if (ctx->group->max(&bad, 1) != 0) {
		ctx->error(ctx, "the ranks lost each other before %s", step);
		return GPULAB_ECUDA;
	}
	if (rc == GPULAB_OK && bad) {
		ctx->error(ctx, "another rank failed before %s (its own line says why)", step);
		return GPULAB_ECUDA;
	}
	return rc;
}

/* One communicator across the ranks.  Rank 0's NCCL id goes to every
 * rank through the launcher's group (MPI); each joins a non-blocking
 * communicator, so that a rank that never comes costs a bounded wait, not
 * a hang.  The runs then go through a blocking child of it (ncclCommSplit,
 * itself bounded as its parent is non-blocking): a non-blocking
 * communicator starts a thread for every call, tens of microseconds each,
 * where nccl-tests' blocking one enqueues in a few.  The rank's steps
 * before (rc) are agreed first, so that no rank enters NCCL alone. */
int join_ranks(gpulab_ctx *ctx, int rc, ncclComm_t *parent, ncclComm_t *comm)
{
	const gpulab_group *grp = ctx->group;
	ncclUniqueId id = {};
	if (rc == GPULAB_OK && grp->rank == 0 && ncclGetUniqueId(&id) != ncclSuccess) {
		ctx->error(ctx, "ncclGetUniqueId failed");
		rc = GPULAB_ECUDA;
	}
	if ((rc = all_ranks_ready(ctx, rc, "NCCL's set-up")) != GPULAB_OK)
		return rc;
	if (grp->bcast(&id, sizeof id) != 0) {
		ctx->error(ctx, "the ranks could not share NCCL's id");
		return GPULAB_ECUDA;
	}
	ncclConfig_t setup = NCCL_CONFIG_INITIALIZER, runs = NCCL_CONFIG_INITIALIZER;
	setup.blocking = 0;
	runs.blocking = 1;
	gpus::device_kept keep;
	LAB_TRY(ctx, cudaSetDevice(ctx->devices[0]));
	rc = nccl_started(ctx, ncclCommInitRankConfig(parent, (int)grp->size, id, (int)grp->rank, &setup), parent,
			  "ncclCommInitRankConfig");
	if ((rc = all_ranks_ready(ctx, rc, "splitting NCCL's communicator")) != GPULAB_OK)
		return rc;
	rc = nccl_started(ctx, ncclCommSplit(*parent, 0, (int)grp->rank, comm, &runs), parent, "ncclCommSplit");
	return all_ranks_ready(ctx, rc, "the runs");
}

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
	ncclComm_t comms[gpus::max_gpus] = {};
	ncclComm_t parent = nullptr; /* as a rank: the non-blocking communicator comms[0] was split from */
	side_streams side;           /* the send/recv ring's */
	unsigned w = 1;              /* the collective's width: ranks, or this process's GPUs */
	uint64_t seed = 0;
	~nccl_state() override
	{
		/* A rank's communicators are aborted, which waits for no peer:
		 * the core has waited for every run by now, or has given up on
		 * one that a lost peer holds, where a finalize would hang. */
		for (ncclComm_t c : comms)
			if (c && !parent && ncclCommFinalize(c) == ncclSuccess)
				ncclCommDestroy(c);
			else if (c)
				ncclCommAbort(c);
		if (parent)
			ncclCommAbort(parent);
	}
};

/* The communicators: one per GPU of this process (ncclCommInitAll), or,
 * as a rank, this GPU's in the ranks' one; rc is setup's so far, which
 * the ranks agree on first.
 *
 * These GPUs are shared: NVLink multicast (NVLS) can take a host's GPUs
 * out of service, so unless the user set NCCL_NVLS_ENABLE, it is 0 before
 * NCCL reads its environment, at its first call, here. */
int open_comms(gpulab_ctx *ctx, int rc, nccl_state *s)
{
	gpus::device_kept keep;
	if (rc == GPULAB_OK && setenv("NCCL_NVLS_ENABLE", "0", 0) != 0) {
		ctx->error(ctx, "setenv NCCL_NVLS_ENABLE: out of memory");
		rc = GPULAB_ENOMEM;
	}
	if (ctx->group)
		return join_ranks(ctx, rc, s ? &s->parent : nullptr, s ? &s->comms[0] : nullptr);
	if (rc != GPULAB_OK)
		return rc;
	NCCL_TRY(ctx, ncclCommInitAll(s->comms, (int)s->g, ctx->devices));
	return GPULAB_OK;
}

/* Under a launcher each rank has one GPU: -p gpus is for one process. */
int plan_width(gpulab_ctx *ctx, unsigned want, unsigned *g, int *ord)
{
	if (!ctx->group)
		return plan_gpus(ctx, want, 1, g, ord);
	if (want) {
		ctx->error(ctx, "-p gpus=%u: under a launcher each rank has one GPU (start as many ranks as GPUs)", want);
		return GPULAB_EPARAM;
	}
	*g = 1;
	return GPULAB_OK;
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
	std::vector<T> h;
	int rc;
	for (unsigned r = 0; r < s->g; r++) {
		T *i, *o, *t = nullptr;
		if ((rc = s->alloc_on(ctx, r, &i, lab::div_up(c.in, 4) * 4)) != GPULAB_OK
		    || (rc = s->alloc_on(ctx, r, &o, lab::div_up(c.out, 4) * 4)) != GPULAB_OK
		    || (coll_of(ctx).op == RING && (rc = s->alloc_on(ctx, r, &t, lab::div_up(c.share, 4) * 4)) != GPULAB_OK)
		    || (rc = upload(ctx, h, i, c.in, s->seed + rank_of(ctx, r))) != GPULAB_OK)
			return rc;
		s->in[r] = i, s->out[r] = o, s->tmp[r] = t;
	}
	return GPULAB_OK;
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

int coll_reset(gpulab_ctx *ctx)
{
	nccl_state *s = lab::state_of<nccl_state>(ctx);
	coll_counts c(coll_of(ctx).op, ctx->elements, s->w);
	for (unsigned r = 0; r < s->g; r++) {
		int rc = poison_on(ctx, r, s->out[r], c.out * elem(ctx));
		if (rc != GPULAB_OK)
			return rc;
	}
	return s->join(ctx);
}

/* out = a + b, n elements: ints wrapping, as the GPU adds */
template <typename T>
__global__ void add_pair(T *out, const T *a, const T *b, uint64_t n)
{
	for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
		if constexpr (std::is_same<T, int>::value)
			out[i] = (int)((uint32_t)a[i] + (uint32_t)b[i]);
		else
			out[i] = a[i] + b[i];
}

/* Round t of the send/recv ring (sendrecv.h has its schedule): its sends
 * and receives on every GPU of this process, in one group. */
template <typename T>
int ring_moves(gpulab_ctx *ctx, nccl_state *s, const sendrecv::plan &p, long t)
{
	ncclDataType_t type = std::is_same<T, int>::value ? ncclInt32 : ncclFloat32;
	NCCL_TRY(ctx, ncclGroupStart());
	for (unsigned r = 0; r < s->g; r++) {
		unsigned me = rank_of(ctx, r);
		const T *in = static_cast<const T *>(s->in[r]);
		T *out = static_cast<T *>(s->out[r]), *tmp = static_cast<T *>(s->tmp[r]);
		cudaStream_t q = gpus::stream(ctx, r);
		ncclResult_t e = ncclSuccess;
		sendrecv::each_move(p, me, t, [&](const sendrecv::move &m) {
			if (m.send_len && (e == ncclSuccess || e == ncclInProgress))
				e = ncclSend((m.from_in ? in : out) + m.from, m.send_len, type, (me + 1) % p.w, s->comms[r], q);
			if (m.recv_len && (e == ncclSuccess || e == ncclInProgress))
				e = ncclRecv((m.into_tmp ? tmp : out) + m.into, m.recv_len, type, (me + p.w - 1) % p.w,
					     s->comms[r], q);
		});
		if (e != ncclSuccess && e != ncclInProgress) {
			ncclGroupEnd();
			ctx->error(ctx, "the ring's round %ld on GPU %u: %s", t, r, ncclGetErrorString(e));
			return GPULAB_ECUDA;
		}
	}
	NCCL_TRY(ctx, ncclGroupEnd());
	return GPULAB_OK;
}

/* Round t's adds on GPU r's side stream, once that round's receives are
 * in: out = in + tmp for each slice that took a reduce-scatter step. */
template <typename T>
int ring_adds(gpulab_ctx *ctx, nccl_state *s, const sendrecv::plan &p, long t, unsigned r)
{
	cudaStream_t side = s->side.adds[r];
	int rc = GPULAB_OK;
	LAB_TRY(ctx, cudaSetDevice(ctx->devices[r]));
	LAB_TRY(ctx, cudaEventRecord(s->side.moved[r], gpus::stream(ctx, r)));
	LAB_TRY(ctx, cudaStreamWaitEvent(side, s->side.moved[r], 0));
	sendrecv::each_move(p, rank_of(ctx, r), t, [&](const sendrecv::move &m) {
		if (!m.into_tmp || !m.recv_len || rc != GPULAB_OK)
			return;
		add_pair<T><<<(unsigned)std::min<uint64_t>(lab::div_up(m.recv_len, 256), 2048), 256, 0, side>>>(
			static_cast<T *>(s->out[r]) + m.sum, static_cast<const T *>(s->in[r]) + m.sum,
			static_cast<const T *>(s->tmp[r]) + m.into, m.recv_len);
		cudaError_t e = cudaGetLastError();
		if (e != cudaSuccess) {
			ctx->error(ctx, "the ring's add: %s", cudaGetErrorString(e));
			rc = GPULAB_ECUDA;
		}
	});
	if (rc == GPULAB_OK)
		LAB_TRY(ctx, cudaEventRecord(s->side.added[r][t % 2], side));
	return rc;
}

/* The send/recv ring's run: its rounds, each waiting for the adds of the
 * round before the last (the sums its sends read). */
template <typename T>
int ring_sendrecv(gpulab_ctx *ctx, nccl_state *s)
{
	const sendrecv::plan p(ctx->elements, s->w, lab::opts<sendrecv_opts>(ctx).chunk, sizeof(T));
	gpus::device_kept keep;
	if (p.w == 1) { /* a ring of one: the sum is the input */
		LAB_TRY(ctx, cudaSetDevice(ctx->devices[0]));
		LAB_TRY(ctx, cudaMemcpyAsync(s->out[0], s->in[0], p.n * sizeof(T), cudaMemcpyDeviceToDevice, gpus::stream(ctx, 0)));
		return GPULAB_OK;
	}
	for (long t = 0; t < p.rounds(); t++) {
		if (p.empty(t))
			continue;
		for (unsigned r = 0; t >= 2 && r < s->g; r++)
			LAB_TRY(ctx, cudaStreamWaitEvent(gpus::stream(ctx, r), s->side.added[r][t % 2], 0));
		int rc = ring_moves<T>(ctx, s, p, t);
		for (unsigned r = 0; rc == GPULAB_OK && r < s->g; r++)
			rc = ring_adds<T>(ctx, s, p, t, r);
		if (rc != GPULAB_OK)
			return rc;
	}
	return GPULAB_OK;
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

/* A rank's communicator, asked without waiting whether NCCL's own
 * threads saw a peer fail (a lost connection, a remote error). */
int peers_fine(gpulab_ctx *ctx, ncclComm_t comm)
{
	ncclResult_t state = ncclSuccess;
	if (ncclCommGetAsyncError(comm, &state) != ncclSuccess || (state != ncclSuccess && state != ncclInProgress)) {
		ctx->error(ctx, "NCCL: %s", ncclGetErrorString(state));
		return GPULAB_ECUDA;
	}
	return GPULAB_OK;
}

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

/* Element i of rank q's input, as coll_inputs made it. */
template <typename T>
struct rank_inputs {
	std::vector<std::vector<T>> v;
	int make(gpulab_ctx *ctx, unsigned w, uint64_t count, uint64_t seed)
	{
		try {
			v.assign(w, std::vector<T>(count));
		} catch (const std::bad_alloc &) {
			ctx->error(ctx, "out of host memory for the reference");
			return GPULAB_ENOMEM;
		}
		for (unsigned q = 0; q < w; q++)
			lab::fill(v[q].data(), count, seed + q);
		return GPULAB_OK;
	}
	/* the sum over the ranks of element i, wrapping for ints */
	double sum(uint64_t i) const
	{
		uint32_t u = 0;
		double d = 0;
		for (const auto &x : v)
			if constexpr (std::is_same<T, int>::value)
				u += (uint32_t)x[i];
			else
				d += x[i];
		return std::is_same<T, int>::value ? (double)(int)u : d;
	}
};

/* What rank `me`'s output must hold at i. */
template <typename T>
double coll_want(coll_op op, const rank_inputs<T> &in, unsigned me, uint64_t i, uint64_t share)
{
	switch (op) {
	case ALLGATHER: return in.v[i / share][i % share];
	case REDUCE_SCATTER: return in.sum(me * share + i);
	case BROADCAST: return in.v[0][i];
	default: return in.sum(i);
	}
}

template <typename T>
int coll_verify(gpulab_ctx *ctx)
{
	nccl_state *s = lab::state_of<nccl_state>(ctx);
	const coll_variant &v = coll_of(ctx);
	coll_counts c(v.op, ctx->elements, s->w);
	rank_inputs<T> in;
	std::vector<T> got;
	int rc = in.make(ctx, s->w, c.in, s->seed);
	for (unsigned r = 0; rc == GPULAB_OK && r < s->g; r++) {
		unsigned me = rank_of(ctx, r);
		if ((rc = lab::copy_back(ctx, got, (const T *)s->out[r], c.out)) != GPULAB_OK)
			return rc;
		for (uint64_t i = 0; i < c.out; i++) {
			double want = coll_want(v.op, in, me, i, c.share);
			if (!lab::close_enough(got[i], want, (double)s->w, s->w)) {
				ctx->error(ctx, "rank %u (device %d): out[%" PRIu64 "]: expected %.9g, got %.9g (-p seed=%" PRIu64
					   " reproduces)", me, ctx->devices[r], i, want, (double)got[i], s->seed);
				return GPULAB_WRONG;
			}
		}
	}
	return rc != GPULAB_OK ? rc : s->note_bandwidth(ctx, (double)c.size * elem(ctx), v.busbw(s->w));
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
	  .teardown = lab::teardown<copy_state>, .max_devices = 2 },
	{ .name = "p2p_kernel",
	  .summary = "the reduce plugin's best kernel on GPU 0 summing GPU 1's memory through peer access: NVLink is memory",
	  SIZED, .block = 512, .params = peer_params, .params_size = sizeof(peer_opts), .plan = peer_plan,
	  .setup = LAB_TYPED(peer_setup), .reset = LAB_TYPED(peer_reset), .run = LAB_TYPED(peer_run),
	  .verify = LAB_TYPED(peer_verify), .teardown = lab::teardown<peer_state>, .max_devices = 2 },
	{ .name = "reduce_host",
	  .summary = "each GPU sums its shard (best), the host adds the partial sums: the book's multi-GPU pattern",
	  SIZED, .block = 512, .params = multi_params, .params_size = sizeof(multi_opts), .plan = shard_plan,
	  .setup = LAB_TYPED(shard_setup), .reset = LAB_TYPED(shard_reset), .run = LAB_TYPED(shard_run),
	  .host = LAB_TYPED(shard_host), .verify = LAB_TYPED(shard_verify), .teardown = lab::teardown<shard_state>,
	  .data = &v_host, .max_devices = gpus::max_gpus },
	{ .name = "reduce_p2p",
	  .summary = "each GPU sums its shard (best), the partials go peer-to-peer to GPU 0, which adds them",
	  SIZED, .block = 512, .params = multi_params, .params_size = sizeof(multi_opts), .plan = shard_plan,
	  .setup = LAB_TYPED(shard_setup), .reset = LAB_TYPED(shard_reset), .run = LAB_TYPED(shard_run),
	  .verify = LAB_TYPED(shard_verify), .teardown = lab::teardown<shard_state>, .data = &v_p2p,
	  .max_devices = gpus::max_gpus },
	{ .name = "allreduce_ring",
	  .summary = "hand-written ring all-reduce: reduce-scatter + all-gather, chunked, pipelined, reading the neighbour; "
		     "algbw = bytes/time, busbw = algbw*2(g-1)/g",
	  SIZED, .params = ring_params, .params_size = sizeof(ring_opts), .plan = ring_plan,
	  .setup = LAB_TYPED(ring_setup), .reset = ring_reset, .run = LAB_TYPED(ring_run),
	  .verify = LAB_TYPED(ring_verify), .teardown = lab::teardown<ring::state>, .max_devices = gpus::max_gpus },
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

const gpulab_plugin plugin = {
	GPULAB_PLUGIN_HEAD,
	.name = "multigpu",
	.summary = "reduction across GPUs: peer copies and loads, a hand-made ring all-reduce against NCCL's",
	.exercises = exercises,
	.n_exercises = sizeof exercises / sizeof exercises[0],
	.reference = "allreduce_nccl",
};

} // namespace

GPULAB_PLUGIN_ENTRY
{
	return &plugin;
}
