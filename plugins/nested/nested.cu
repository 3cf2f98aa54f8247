/*
 * The nested plugin: dynamic parallelism (CDP2).  The hello exercises
 * print from every thread of a launch tree and log each thread in device
 * memory; verify checks the log against the tree the parameters imply.
 * The recursive reductions are the book's three, ported to CDP2 (see
 * kernels.cuh), with a host-launched reduction of the same size beside
 * them; every exercise reports its device-side launches per run.
 */
#include "kernels.cuh"
#include "lab.cuh"

#include <algorithm>
#include <cinttypes>
#include <new>
#include <tuple>
#include <vector>

/* Log entries sort by depth, then lineage, block, thread.  Beside
 * `entry`, where the standard algorithms look for them. */
static bool operator<(const entry &a, const entry &b)
{
	return std::tie(a.depth, a.lineage, a.block, a.thread) < std::tie(b.depth, b.lineage, b.block, b.thread);
}

static bool operator==(const entry &a, const entry &b)
{
	return !(a < b) && !(b < a);
}

namespace {

enum kind { HELLO, HELLO_GRID, HELLO_DEPTH, RECURSIVE, RECURSIVE_NOSYNC, RECURSIVE2, HOST };

struct variant {
	kind k;
};

/* gpulab's ceiling on a run's device-side launches: each pending launch
 * holds device memory, and a tree past this is a mistake, not a lesson. */
const uint64_t max_launches = 1u << 20;
/* Tail launches run one after another, and each costs more the more are
 * pending (H100: 16 us each at 16K launches, 46 us at 128K), so a run of
 * recursive_reduce_nosync grows as n^2: 2 s at this ceiling, 20 s at 16M. */
const uint64_t max_serial_launches = 1u << 16;
const int max_nesting = 24; /* CUDA's limit on nesting depth */

struct shape {
	uint64_t blocks = 1, threads = 1, depth = 1;
};

struct state {
	/* hello */
	shape sh;                 /* read once in setup, not in the timed run() */
	entry *log = nullptr;
	unsigned *count = nullptr;
	std::vector<entry> want;
	unsigned runs = 0;
	/* reductions */
	int *in = nullptr, *work = nullptr, *partials = nullptr, *h_partials = nullptr;
	unsigned grid = 0;
	size_t n_pad = 0;
	int32_t want_sum = 0, got_sum = 0;
	uint64_t seed = 0;
};

const variant *of(const gpulab_ctx *ctx) { return static_cast<const variant *>(ctx->data); }
state *st(gpulab_ctx *ctx) { return static_cast<state *>(ctx->state); }
bool is_hello(const gpulab_ctx *ctx) { return of(ctx)->k <= HELLO_DEPTH; }

int read_shape(gpulab_ctx *ctx, shape *s)
{
	kind k = of(ctx)->k;
	if (k == HELLO_DEPTH)
		return ctx->param_u64(ctx, "depth", &s->depth);
	if (ctx->param_u64(ctx, "blocks", &s->blocks) != GPULAB_OK || ctx->param_u64(ctx, "threads", &s->threads) != GPULAB_OK)
		return GPULAB_EPARAM;
	if (!s->blocks || s->blocks > 65535 || !s->threads || s->threads > 1024) {
		ctx->error(ctx, "-p blocks=%" PRIu64 " -p threads=%" PRIu64 ": blocks from 1 to 65535, threads from 1 to 1024",
			   s->blocks, s->threads);
		return GPULAB_EPARAM;
	}
	return GPULAB_OK;
}

/* The log the tree must leave, in sorted order, and its launches. */
std::vector<entry> hello_tree(kind k, const shape &s, uint64_t *launches)
{
	std::vector<entry> v;
	*launches = 0;
	if (k == HELLO) {
		for (int b = 0; b < (int)s.blocks; b++)
			for (int size = (int)s.threads, d = 0; size >= 1; size >>= 1, d++) {
				for (int t = 0; t < size; t++)
					v.push_back({ d, b, d ? 0 : b, t });
				*launches += size > 1;
			}
	} else if (k == HELLO_GRID) {
		for (int blocks = (int)s.blocks, d = 0; blocks >= 1; blocks = blocks > 1 ? blocks / 2 : 0, d++) {
			for (int b = 0; b < blocks; b++)
				for (int t = 0; t < (int)s.threads; t++)
					v.push_back({ d, 0, b, t });
			*launches += blocks > 1;
		}
	} else {
		for (int d = 0; d < (int)s.depth; d++) {
			for (int uid = 0; uid < 2 << d; uid++)
				for (int t = 0; t < 3; t++)
					v.push_back({ d, uid, uid & 1, t });
			*launches += d + 1 < (int)s.depth ? 2u << d : 0;
		}
	}
	std::sort(v.begin(), v.end());
	return v;
}

/* Levels of the tree, for the nesting limit. */
int hello_levels(kind k, const shape &s)
{
	int levels = 0;
	if (k == HELLO_DEPTH)
		return (int)s.depth;
	for (uint64_t x = k == HELLO ? s.threads : s.blocks; x >= 1; x >>= 1)
		levels++;
	return levels;
}

uint64_t log2u(uint64_t x)
{
	uint64_t l = 0;
	while (x >>= 1)
		l++;
	return l;
}

uint64_t reduce_launches(const gpulab_ctx *ctx, uint64_t grid)
{
	uint64_t per_level = log2u(ctx->block) - 1; /* children from block/2 down to 2 (or 1) */
	switch (of(ctx)->k) {
	case RECURSIVE:
	case RECURSIVE_NOSYNC: return grid * per_level;
	case RECURSIVE2: return per_level;
	default: return 0;
	}
}

int plan_hello(gpulab_ctx *ctx)
{
	shape s;
	uint64_t launches;
	if (read_shape(ctx, &s) != GPULAB_OK)
		return GPULAB_EPARAM;
	if (of(ctx)->k == HELLO_DEPTH && (s.depth < 1 || s.depth > 20)) {
		ctx->error(ctx, "-p depth=%" PRIu64 ": from 1 to 20 (2^depth - 2 launches)", s.depth);
		return GPULAB_EPARAM;
	}
	int levels = hello_levels(of(ctx)->k, s);
	if (levels > max_nesting) {
		ctx->error(ctx, "the launch tree is %d levels deep; CUDA nests at most %d", levels, max_nesting);
		return GPULAB_EPARAM;
	}
	std::vector<entry> tree = hello_tree(of(ctx)->k, s, &launches);
	ctx->n = tree.size();
	ctx->bytes_read = 0;
	ctx->bytes_written = tree.size() * sizeof(entry);
	ctx->device_bytes = tree.size() * sizeof(entry) + sizeof(unsigned);
	ctx->note(ctx, "launches", (double)launches);
	return GPULAB_OK;
}

int plan(gpulab_ctx *ctx)
{
	if (is_hello(ctx))
		return plan_hello(ctx);
	uint64_t seed;
	if (ctx->block < 2 || ctx->block > 1024 || !lab::pow2(ctx->block)) {
		ctx->error(ctx, "block size %u: these kernels halve it to 1, so a power of two from 2 to 1024", ctx->block);
		return GPULAB_EPARAM;
	}
	if (ctx->n > 0x7fffffff || lab::seed(ctx, &seed) != GPULAB_OK) {
		ctx->error(ctx, "n = %" PRIu64 ": at most 2^31 - 1", ctx->n);
		return GPULAB_EPARAM;
	}
	uint64_t grid = lab::div_up(ctx->n, ctx->block), launches = reduce_launches(ctx, grid);
	bool serial = of(ctx)->k == RECURSIVE_NOSYNC;
	if (launches > (serial ? max_serial_launches : max_launches)) {
		ctx->error(ctx, "n = %" PRIu64 " with block %u needs %" PRIu64 " device-side launches; at most %" PRIu64
			   "%s (use a larger block or a smaller n)", ctx->n, ctx->block, launches,
			   serial ? max_serial_launches : max_launches, serial ? " tail launches, which run one after another" : "");
		return GPULAB_EPARAM;
	}
	ctx->note(ctx, "launches", (double)launches);
	ctx->bytes_read = ctx->n * sizeof(int);
	ctx->bytes_written = grid * sizeof(int);
	ctx->device_bytes = (ctx->n + grid * ctx->block + grid) * sizeof(int);
	return GPULAB_OK;
}

/* Device-side launches wait in a queue of fixed size: make it hold them. */
int reserve_launches(gpulab_ctx *ctx, uint64_t launches)
{
	size_t have = 0;
	LAB_TRY(ctx, cudaDeviceGetLimit(&have, cudaLimitDevRuntimePendingLaunchCount));
	if (launches + 64 > have)
		LAB_TRY(ctx, cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, launches + 64));
	return GPULAB_OK;
}

int setup_hello(gpulab_ctx *ctx, state *s)
{
	uint64_t launches;
	read_shape(ctx, &s->sh); /* checked in plan() */
	s->want = hello_tree(of(ctx)->k, s->sh, &launches);
	if (reserve_launches(ctx, launches) != GPULAB_OK)
		return GPULAB_ECUDA;
	LAB_TRY(ctx, cudaMalloc(&s->log, s->want.size() * sizeof(entry)));
	LAB_TRY(ctx, cudaMalloc(&s->count, sizeof(unsigned)));
	return GPULAB_OK;
}

int setup_reduce(gpulab_ctx *ctx, state *s)
{
	size_t n = ctx->n;
	s->grid = (unsigned)lab::div_up(n, ctx->block);
	s->n_pad = (size_t)s->grid * ctx->block;
	if (lab::seed(ctx, &s->seed) != GPULAB_OK || reserve_launches(ctx, reduce_launches(ctx, s->grid)) != GPULAB_OK)
		return GPULAB_ECUDA;
	std::vector<int> h(n);
	lab::fill(h.data(), n, s->seed);
	uint32_t sum = 0;
	for (int x : h)
		sum += (uint32_t)x;
	s->want_sum = (int32_t)sum;
	LAB_TRY(ctx, cudaMalloc(&s->in, n * sizeof(int)));
	LAB_TRY(ctx, cudaMalloc(&s->work, s->n_pad * sizeof(int)));
	LAB_TRY(ctx, cudaMalloc(&s->partials, s->grid * sizeof(int)));
	LAB_TRY(ctx, cudaMallocHost(&s->h_partials, s->grid * sizeof(int)));
	LAB_TRY(ctx, cudaMemcpy(s->in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
	return GPULAB_OK;
}

int setup(gpulab_ctx *ctx)
{
	state *s = new (std::nothrow) state;
	if (!(ctx->state = s))
		return GPULAB_ENOMEM;
	return is_hello(ctx) ? setup_hello(ctx, s) : setup_reduce(ctx, s);
}

/* Untimed: an empty log; the in-place copy restored (padding zero), and
 * the per-block sums poisoned. */
int reset(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	cudaStream_t q = lab::stream(ctx);
	if (is_hello(ctx)) {
		LAB_TRY(ctx, cudaMemsetAsync(s->count, 0, sizeof(unsigned), q));
		LAB_TRY(ctx, cudaMemsetAsync(s->log, 0xff, s->want.size() * sizeof(entry), q));
		return GPULAB_OK;
	}
	LAB_TRY(ctx, cudaMemsetAsync(s->work, 0, s->n_pad * sizeof(int), q));
	LAB_TRY(ctx, cudaMemcpyAsync(s->work, s->in, ctx->n * sizeof(int), cudaMemcpyDeviceToDevice, q));
	LAB_TRY(ctx, cudaMemsetAsync(s->partials, 0xff, s->grid * sizeof(int), q));
	return GPULAB_OK;
}

int run_hello(gpulab_ctx *ctx, state *s)
{
	const shape &sh = s->sh;
	cudaStream_t q = lab::stream(ctx);
	/* print once, on the first (warm-up) run, not on every repetition */
	hello_log log = { s->log, s->count, !ctx->quiet && s->runs++ == 0 };
	switch (of(ctx)->k) {
	case HELLO: nestedHelloWorld<<<(unsigned)sh.blocks, (unsigned)sh.threads, 0, q>>>((int)sh.threads, 0, 0, log); break;
	case HELLO_GRID: nestedHelloWorldGrid<<<(unsigned)sh.blocks, (unsigned)sh.threads, 0, q>>>(0, log); break;
	default: nestedHelloWorldDepth<<<2, 3, 0, q>>>(0, (int)sh.depth, 0, log); break;
	}
	LAB_LAUNCHED(ctx);
	return GPULAB_OK;
}

int run(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	if (is_hello(ctx))
		return run_hello(ctx, s);
	cudaStream_t q = lab::stream(ctx);
	unsigned b = ctx->block;
	switch (of(ctx)->k) {
	case RECURSIVE: gpuRecursiveReduce<<<s->grid, b, 0, q>>>(s->work, s->partials, b); break;
	case RECURSIVE_NOSYNC: gpuRecursiveReduceNosync<<<s->grid, b, 0, q>>>(s->work, s->partials, b); break;
	case RECURSIVE2: gpuRecursiveReduce2<<<s->grid, b / 2, 0, q>>>(s->work, s->partials, b / 2, b); break;
	default: reduceInterleaved<<<s->grid, b, 0, q>>>(s->work, s->partials); break;
	}
	LAB_LAUNCHED(ctx);
	LAB_TRY(ctx, cudaMemcpyAsync(s->h_partials, s->partials, s->grid * sizeof(int), cudaMemcpyDeviceToHost, q));
	return GPULAB_OK;
}

/* The book's last step: the host adds the per-block sums (32-bit wrap). */
int host(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	if (is_hello(ctx))
		return GPULAB_OK;
	uint32_t sum = 0;
	for (unsigned i = 0; i < s->grid; i++)
		sum += (uint32_t)s->h_partials[i];
	s->got_sum = (int32_t)sum;
	return GPULAB_OK;
}

/* Per depth first (what a reader of the tree wants to know), then the
 * first entry missing or extra. */
int verify_hello(gpulab_ctx *ctx, state *s)
{
	unsigned count = 0;
	LAB_TRY(ctx, cudaMemcpy(&count, s->count, sizeof count, cudaMemcpyDeviceToHost));
	std::vector<entry> got(std::min<size_t>(count, s->want.size()));
	LAB_TRY(ctx, cudaMemcpy(got.data(), s->log, got.size() * sizeof(entry), cudaMemcpyDeviceToHost));
	std::sort(got.begin(), got.end());
	for (int d = 0; d <= (s->want.empty() ? 0 : s->want.back().depth); d++) {
		auto at = [d](const entry &e) { return e.depth == d; };
		long w = std::count_if(s->want.begin(), s->want.end(), at), g = std::count_if(got.begin(), got.end(), at);
		if (w != g) {
			ctx->error(ctx, "depth %d: expected %ld threads in the log, got %ld (%u entries in all, %zu expected)",
				   d, w, g, count, s->want.size());
			return GPULAB_WRONG;
		}
	}
	if (count != s->want.size() || got != s->want) {
		auto m = std::mismatch(s->want.begin(), s->want.end(), got.begin());
		const entry &e = m.first != s->want.end() ? *m.first : s->want.back();
		ctx->error(ctx, "the log differs from the launch tree near depth %d, lineage %d, block %d, thread %d "
			   "(missing or duplicated)", e.depth, e.lineage, e.block, e.thread);
		return GPULAB_WRONG;
	}
	return GPULAB_OK;
}

int verify(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	if (is_hello(ctx))
		return verify_hello(ctx, s);
	if (s->got_sum == s->want_sum)
		return GPULAB_OK;
	ctx->error(ctx, "sum of %" PRIu64 " ints: expected %d, got %d (-p seed=%" PRIu64 " reproduces)", ctx->n,
		   s->want_sum, s->got_sum, s->seed);
	return GPULAB_WRONG;
}

void teardown(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	if (!s)
		return;
	cudaFree(s->log);
	cudaFree(s->count);
	cudaFree(s->in);
	cudaFree(s->work);
	cudaFree(s->partials);
	cudaFreeHost(s->h_partials);
	delete s;
	ctx->state = nullptr;
}

const gpulab_param hello_params[] = {
	{ "blocks", "1", "blocks of the parent grid" },
	{ "threads", "8", "threads of the parent's blocks" },
	{ nullptr, nullptr, nullptr }
};
const gpulab_param grid_params[] = {
	{ "blocks", "8", "blocks of the parent grid; each level halves them" },
	{ "threads", "8", "threads per block, at every level" },
	{ nullptr, nullptr, nullptr }
};
const gpulab_param depth_params[] = {
	{ "depth", "3", "levels of the tree, the parent's included" },
	{ nullptr, nullptr, nullptr }
};
const gpulab_param reduce_params[] = {
	{ "seed", "random", "input seed; a number reproduces a run" },
	{ nullptr, nullptr, nullptr }
};

const variant v_hello = { HELLO }, v_grid = { HELLO_GRID }, v_depth = { HELLO_DEPTH }, v_rec = { RECURSIVE },
	      v_nosync = { RECURSIVE_NOSYNC }, v_rec2 = { RECURSIVE2 }, v_host = { HOST };

/* --metrics default: how busy the device-launched grids keep the SMs. */
const char lesson_metrics[] = "achieved_occupancy,sm_efficiency,inst_per_warp";

#define EXERCISE(name, summary, n, block, params, v) \
	{ name, summary, GPULAB_INT32, n, block, params, lesson_metrics, \
	  plan, setup, reset, run, host, verify, teardown, &v }

const gpulab_exercise exercises[] = {
	EXERCISE("hello", "nested hello world: each block's thread 0 launches half the threads, down to one; printed once", 1, 0, hello_params, v_hello),
	EXERCISE("hello_grid", "children keep the block size and halve the blocks: one launch per level", 1, 0, grid_params, v_grid),
	EXERCISE("hello_depth", "every block launches 2 blocks x 3 threads until -p depth", 1, 0, depth_params, v_depth),
	EXERCISE("recursive_reduce", "gpuRecursiveReduce: a child per block per level; the book's device sync dropped (CDP2)", 1u << 20, 512, reduce_params, v_rec),
	EXERCISE("recursive_reduce_nosync", "no barrier: children go to the tail-launch stream, after the whole parent grid (CDP2)", 1u << 20, 512, reduce_params, v_nosync),
	EXERCISE("recursive_reduce2", "one launch per level for all blocks, tail-launched so no block is overtaken (CDP2)", 1u << 20, 512, reduce_params, v_rec2),
	EXERCISE("host_reduce", "for comparison: the interleaved reduction launched from the host, no device launches", 1u << 20, 512, reduce_params, v_host),
};

const gpulab_plugin plugin = {
	GPULAB_ABI_VERSION, "nested", "dynamic parallelism (CDP2): kernels that launch kernels",
	exercises, sizeof exercises / sizeof exercises[0], nullptr, "host_reduce"
};

} // namespace

GPULAB_PLUGIN_ENTRY
{
	return &plugin;
}
