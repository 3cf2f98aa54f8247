/*
 * The nested plugin: dynamic parallelism (CDP2).  The hello exercises
 * print from every thread of a launch tree and log each thread in device
 * memory; verify checks the log against the tree the parameters imply.
 * The recursive reductions are the book's three, ported to CDP2 (see
 * kernels.cuh), with a host-launched reduction of the same size beside
 * them; every exercise reports its device-side launches per run.
 *
 * Two sets of callbacks: the launch trees (*_tree) and the reductions
 * (*_reduce), each with its own state; what both need (the launch
 * ceilings, reserve_launches) is above them.
 */
#include "kernels.cuh"

#include <gpulab/lab.cuh>

#include <algorithm>
#include <cinttypes>
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

enum kind { HELLO, HELLO_GRID, HELLO_DEPTH, RECURSIVE, RECURSIVE_NOSYNC, RECURSIVE2, HOST, VISIBILITY };

struct variant {
	kind k;
};

const variant *of(const gpulab_ctx *ctx) { return static_cast<const variant *>(ctx->data); }

/* gpulab's ceiling on a run's device-side launches: each pending launch
 * holds device memory, and a tree past this is a mistake, not a lesson. */
const uint64_t max_launches = 1u << 20;
/* Tail launches run one after another, and each costs more the more are
 * pending (H100: 16 us each at 16K launches, 46 us at 128K), so a run of
 * recursive_reduce_nosync grows as n^2: 2 s at this ceiling, 20 s at 16M. */
const uint64_t max_serial_launches = 1u << 16;
const int max_nesting = 24; /* CUDA's limit on nesting depth */

/* Device-side launches wait in a queue of fixed size: make it hold them. */
int reserve_launches(gpulab_ctx *ctx, uint64_t launches)
{
	size_t have = 0;
	LAB_TRY(ctx, cudaDeviceGetLimit(&have, cudaLimitDevRuntimePendingLaunchCount));
	if (launches + 64 > have)
		LAB_TRY(ctx, cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, launches + 64));
	return GPULAB_OK;
}

/* --- the launch trees: hello, hello_grid, hello_depth ---------------------- */

/* Their parameters: blocks and threads (hello, hello_grid) or depth
 * (hello_depth); the keys an exercise does not declare stay 0. */
struct shape {
	uint64_t blocks, threads, depth;
};

struct tree_state : lab::state {
	shape sh;                 /* read once in setup, not in the timed run() */
	entry *log = nullptr;
	unsigned *count = nullptr;
	std::vector<entry> want;
	unsigned runs = 0;
};

/* The tree the parameters imply: each thread's log entry to visit(),
 * in no particular order; returns the run's device-side launches.  plan()
 * counts with it, setup() builds the expected log. */
template <typename F>
uint64_t walk_tree(kind k, const shape &s, F visit)
{
	uint64_t launches = 0;
	if (k == HELLO) {
		for (int b = 0; b < (int)s.blocks; b++)
			for (int size = (int)s.threads, d = 0; size >= 1; size >>= 1, d++) {
				for (int t = 0; t < size; t++)
					visit(entry{ d, b, d ? 0 : b, t });
				launches += size > 1;
			}
	} else if (k == HELLO_GRID) {
		for (int blocks = (int)s.blocks, d = 0; blocks >= 1; blocks = blocks > 1 ? blocks / 2 : 0, d++) {
			for (int b = 0; b < blocks; b++)
				for (int t = 0; t < (int)s.threads; t++)
					visit(entry{ d, 0, b, t });
			launches += blocks > 1;
		}
	} else {
		for (int d = 0; d < (int)s.depth; d++) {
			for (int uid = 0; uid < 2 << d; uid++)
				for (int t = 0; t < 3; t++)
					visit(entry{ d, uid, uid & 1, t });
			launches += d + 1 < (int)s.depth ? 2u << d : 0;
		}
	}
	return launches;
}

/* Levels of the tree, for the nesting limit. */
int tree_levels(kind k, const shape &s)
{
	int levels = 0;
	if (k == HELLO_DEPTH)
		return (int)s.depth;
	for (uint64_t x = k == HELLO ? s.threads : s.blocks; x >= 1; x >>= 1)
		levels++;
	return levels;
}

/* The declarations bound the keys, and with them the tree (at most 11, 16
 * and 20 levels); the nesting limit stays checked should they grow.  Then
 * the size of the log. */
int plan_tree(gpulab_ctx *ctx)
{
	const shape &s = lab::opts<shape>(ctx);
	int levels = tree_levels(of(ctx)->k, s);
	if (levels > max_nesting) {
		ctx->error(ctx, "the launch tree is %d levels deep; CUDA nests at most %d", levels, max_nesting);
		return GPULAB_EPARAM;
	}
	uint64_t entries = 0;
	uint64_t launches = walk_tree(of(ctx)->k, s, [&entries](const entry &) { entries++; });
	ctx->elements = entries;
	ctx->bytes_read = 0;
	ctx->bytes_written = entries * sizeof(entry);
	ctx->device_bytes = entries * sizeof(entry) + sizeof(unsigned);
	ctx->note(ctx, "launches", (double)launches);
	return GPULAB_OK;
}

int setup_tree(gpulab_ctx *ctx)
{
	tree_state *s;
	int rc = lab::make_state(ctx, &s);
	if (rc != GPULAB_OK)
		return rc;
	s->sh = lab::opts<shape>(ctx);
	if ((rc = lab::host_vector(ctx, s->want, ctx->elements)) != GPULAB_OK)
		return rc;
	size_t at = 0;
	uint64_t launches = walk_tree(of(ctx)->k, s->sh, [s, &at](const entry &e) { s->want[at++] = e; });
	std::sort(s->want.begin(), s->want.end());
	if ((rc = reserve_launches(ctx, launches)) != GPULAB_OK || (rc = s->alloc(ctx, &s->log, s->want.size())) != GPULAB_OK)
		return rc;
	return s->alloc(ctx, &s->count, 1);
}

/* Untimed: an empty log, its entries poisoned. */
int reset_tree(gpulab_ctx *ctx)
{
	tree_state *s = lab::state_of<tree_state>(ctx);
	LAB_TRY(ctx, cudaMemsetAsync(s->count, 0, sizeof(unsigned), lab::stream(ctx)));
	return lab::poison(ctx, s->log, s->want.size() * sizeof(entry));
}

int run_tree(gpulab_ctx *ctx)
{
	tree_state *s = lab::state_of<tree_state>(ctx);
	const shape &sh = s->sh;
	cudaStream_t q = lab::stream(ctx);
	/* print once, on the first (warm-up) run, not on every repetition */
	hello_log log = { s->log, s->count, !ctx->quiet && s->runs++ == 0 };
	switch (of(ctx)->k) {
	case HELLO: nestedHelloWorld<<<(unsigned)sh.blocks, (unsigned)sh.threads, 0, q>>>((int)sh.threads, 0, 0, log); break;
	case HELLO_GRID: nestedHelloWorldGrid<<<(unsigned)sh.blocks, (unsigned)sh.threads, 0, q>>>(0, log); break;
	default: nestedHelloWorldDepth<<<2, 3, 0, q>>>(0, (int)sh.depth, 0, log); break;
	}
	return lab::launched(ctx);
}

/* Per depth first (what a reader of the tree wants to know), then the
 * first entry missing or extra. */
int verify_tree(gpulab_ctx *ctx)
{
	tree_state *s = lab::state_of<tree_state>(ctx);
	unsigned count = 0;
	std::vector<entry> got;
	LAB_TRY(ctx, cudaMemcpy(&count, s->count, sizeof count, cudaMemcpyDeviceToHost));
	int rc = lab::copy_back(ctx, got, s->log, std::min<size_t>(count, s->want.size()));
	if (rc != GPULAB_OK)
		return rc;
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

/* --- the reductions: recursive_reduce, _nosync, 2, and host_reduce --------- */

struct reduce_opts {
	uint64_t seed;
};

struct reduce_state : lab::state {
	int *in = nullptr, *work = nullptr, *partials = nullptr, *h_partials = nullptr;
	unsigned grid = 0;
	size_t n_pad = 0;
	int32_t want_sum = 0, got_sum = 0;
};

uint64_t log2u(uint64_t x)
{
	uint64_t l = 0;
	while (x >>= 1)
		l++;
	return l;
}

/* A run's device-side launches, for a grid of `grid` blocks. */
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

/* n (at most 2^31 - 1) and block (1 to 1024) are bounded by their
 * declarations; these kernels need a power of two, and the tree a
 * bounded number of launches. */
int plan_reduce(gpulab_ctx *ctx)
{
	if (ctx->block < 2 || !lab::pow2(ctx->block)) {
		ctx->error(ctx, "block size %u: these kernels halve it to 1, so a power of two from 2 to 1024", ctx->block);
		return GPULAB_EPARAM;
	}
	uint64_t grid = lab::div_up(ctx->elements, ctx->block), launches = reduce_launches(ctx, grid);
	bool serial = of(ctx)->k == RECURSIVE_NOSYNC;
	if (launches > (serial ? max_serial_launches : max_launches)) {
		ctx->error(ctx, "n = %" PRIu64 " with block %u needs %" PRIu64 " device-side launches; at most %" PRIu64
			   "%s (use a larger block or a smaller n)", ctx->n, ctx->block, launches,
			   serial ? max_serial_launches : max_launches, serial ? " tail launches, which run one after another" : "");
		return GPULAB_EPARAM;
	}
	ctx->note(ctx, "launches", (double)launches);
	ctx->bytes_read = ctx->elements * sizeof(int);
	ctx->bytes_written = grid * sizeof(int);
	ctx->device_bytes = (ctx->elements + grid * ctx->block + grid) * sizeof(int);
	return GPULAB_OK;
}

int setup_reduce(gpulab_ctx *ctx)
{
	reduce_state *s;
	std::vector<int> h;
	size_t n = ctx->elements;
	int rc = lab::make_state(ctx, &s);
	if (rc != GPULAB_OK)
		return rc;
	s->grid = (unsigned)lab::div_up(n, ctx->block);
	s->n_pad = (size_t)s->grid * ctx->block;
	if ((rc = reserve_launches(ctx, reduce_launches(ctx, s->grid))) != GPULAB_OK
	    || (rc = lab::host_vector(ctx, h, n)) != GPULAB_OK)
		return rc;
	lab::fill(h.data(), n, lab::opts<reduce_opts>(ctx).seed);
	uint32_t sum = 0;
	for (int x : h)
		sum += (uint32_t)x;
	s->want_sum = (int32_t)sum;
	if ((rc = s->alloc(ctx, &s->in, n)) != GPULAB_OK || (rc = s->alloc(ctx, &s->work, s->n_pad)) != GPULAB_OK
	    || (rc = s->alloc(ctx, &s->partials, s->grid)) != GPULAB_OK
	    || (rc = s->alloc_pinned(ctx, &s->h_partials, s->grid)) != GPULAB_OK)
		return rc;
	LAB_TRY(ctx, cudaMemcpy(s->in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
	return GPULAB_OK;
}

/* Untimed: the in-place copy restored (padding zero), and the per-block
 * sums poisoned. */
int reset_reduce(gpulab_ctx *ctx)
{
	reduce_state *s = lab::state_of<reduce_state>(ctx);
	cudaStream_t q = lab::stream(ctx);
	LAB_TRY(ctx, cudaMemsetAsync(s->work, 0, s->n_pad * sizeof(int), q));
	LAB_TRY(ctx, cudaMemcpyAsync(s->work, s->in, ctx->elements * sizeof(int), cudaMemcpyDeviceToDevice, q));
	return lab::poison(ctx, s->partials, s->grid * sizeof(int));
}

int run_reduce(gpulab_ctx *ctx)
{
	reduce_state *s = lab::state_of<reduce_state>(ctx);
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
int host_reduce(gpulab_ctx *ctx)
{
	reduce_state *s = lab::state_of<reduce_state>(ctx);
	uint32_t sum = 0;
	for (unsigned i = 0; i < s->grid; i++)
		sum += (uint32_t)s->h_partials[i];
	s->got_sum = (int32_t)sum;
	return GPULAB_OK;
}

int verify_reduce(gpulab_ctx *ctx)
{
	reduce_state *s = lab::state_of<reduce_state>(ctx);
	if (s->got_sum == s->want_sum)
		return GPULAB_OK;
	ctx->error(ctx, "sum of %" PRIu64 " ints: expected %d, got %d (-p seed=%" PRIu64 " reproduces)", ctx->elements,
		   s->want_sum, s->got_sum, lab::opts<reduce_opts>(ctx).seed);
	return GPULAB_WRONG;
}

/* --- visibility: what a child grid sees of its parent's memory -------------- */

struct vis_state : lab::state {
	int *data = nullptr, *child_out = nullptr;
	unsigned *counts = nullptr; /* [0] the children's stale reads, [1] the tail grid's late ones */
	unsigned grid = 0;
};

/* One child per block, and the tail-launched check. */
int plan_visibility(gpulab_ctx *ctx)
{
	uint64_t grid = lab::div_up(ctx->elements, ctx->block);
	if (grid + 1 > max_launches) {
		ctx->error(ctx, "n = %" PRIu64 " with block %u needs %" PRIu64 " device-side launches; at most %" PRIu64,
			   ctx->n, ctx->block, grid + 1, max_launches);
		return GPULAB_EPARAM;
	}
	ctx->note(ctx, "launches", (double)(grid + 1));
	ctx->bytes_read = 2 * ctx->elements * sizeof(int);
	ctx->bytes_written = 2 * ctx->elements * sizeof(int);
	ctx->device_bytes = 2 * ctx->elements * sizeof(int) + 2 * sizeof(unsigned);
	return GPULAB_OK;
}

int setup_visibility(gpulab_ctx *ctx)
{
	vis_state *s;
	int rc = lab::make_state(ctx, &s);
	if (rc != GPULAB_OK)
		return rc;
	s->grid = (unsigned)lab::div_up(ctx->elements, ctx->block);
	if ((rc = reserve_launches(ctx, s->grid + 1)) != GPULAB_OK || (rc = s->alloc(ctx, &s->data, ctx->elements))
	    || (rc = s->alloc(ctx, &s->child_out, ctx->elements)))
		return rc;
	return s->alloc(ctx, &s->counts, 2);
}

/* Untimed: both arrays poisoned, so a word nobody wrote differs; no count yet. */
int reset_visibility(gpulab_ctx *ctx)
{
	vis_state *s = lab::state_of<vis_state>(ctx);
	int rc = lab::poison(ctx, s->data, ctx->elements * sizeof(int));
	if (rc || (rc = lab::poison(ctx, s->child_out, ctx->elements * sizeof(int))))
		return rc;
	LAB_TRY(ctx, cudaMemsetAsync(s->counts, 0, 2 * sizeof(unsigned), lab::stream(ctx)));
	return GPULAB_OK;
}

int run_visibility(gpulab_ctx *ctx)
{
	vis_state *s = lab::state_of<vis_state>(ctx);
	parentWrites<<<s->grid, ctx->block, 0, lab::stream(ctx)>>>(s->data, s->child_out, (unsigned)ctx->elements, s->counts);
	return lab::launched(ctx);
}

/* The children's words checked on the host: their count of stale reads
 * must be the words they got wrong, and the host must find every word
 * the tail grid found.  What they saw is the lesson, in the notes
 * `stale` and `late` (0 where CUDA's guarantees hold). */
int verify_visibility(gpulab_ctx *ctx)
{
	vis_state *s = lab::state_of<vis_state>(ctx);
	std::vector<int> out;
	unsigned counts[2];
	int rc = lab::copy_back(ctx, out, s->child_out, ctx->elements);
	if (rc != GPULAB_OK)
		return rc;
	LAB_TRY(ctx, cudaMemcpy(counts, s->counts, sizeof counts, cudaMemcpyDeviceToHost));
	uint64_t wrong = 0;
	for (uint64_t i = 0; i < ctx->elements; i++)
		wrong += out[i] != parent_value((unsigned)i) + 1;
	ctx->note(ctx, "stale", counts[0]);
	ctx->note(ctx, "late", counts[1]);
	if (wrong == counts[0])
		return GPULAB_OK;
	ctx->error(ctx, "the children wrote %" PRIu64 " words that differ from the parent's plus one, and counted %u stale "
		   "reads: a child did not run, or did not finish", wrong, counts[0]);
	return GPULAB_WRONG;
}

/* --- the declarations ------------------------------------------------------- */

const gpulab_param hello_params[] = {
	{ .key = "blocks", .type = GPULAB_PARAM_COUNT, .offset = offsetof(shape, blocks), .def = "1",
	  .help = "blocks of the parent grid", .min = 1, .max = 65535 },
	{ .key = "threads", .type = GPULAB_PARAM_COUNT, .offset = offsetof(shape, threads), .def = "8",
	  .help = "threads of the parent's blocks", .min = 1, .max = 1024 },
	{}
};
const gpulab_param grid_params[] = {
	{ .key = "blocks", .type = GPULAB_PARAM_COUNT, .offset = offsetof(shape, blocks), .def = "8",
	  .help = "blocks of the parent grid; each level halves them", .min = 1, .max = 65535 },
	{ .key = "threads", .type = GPULAB_PARAM_COUNT, .offset = offsetof(shape, threads), .def = "8",
	  .help = "threads per block, at every level", .min = 1, .max = 1024 },
	{}
};
/* At most 19 levels: this tree keeps all its launches pending at once,
 * and on an H100 the device runtime caps the pending-launch pool at about
 * 600K (cudaDeviceSetLimit reports success, then launches past it fail),
 * so depth 20's 2^20 - 2 launches do not fit; 19's 2^19 - 2 do. */
const gpulab_param depth_params[] = {
	{ .key = "depth", .type = GPULAB_PARAM_COUNT, .offset = offsetof(shape, depth), .def = "3",
	  .help = "levels of the tree, the parent's included (2^depth - 2 launches)", .min = 1, .max = 19 },
	{}
};
const gpulab_param reduce_params[] = {
	LAB_SEED(reduce_opts, seed),
	{}
};

const variant v_hello = { HELLO }, v_grid = { HELLO_GRID }, v_depth = { HELLO_DEPTH }, v_rec = { RECURSIVE },
	      v_nosync = { RECURSIVE_NOSYNC }, v_rec2 = { RECURSIVE2 }, v_host = { HOST }, v_vis = { VISIBILITY };

/* --metrics default: how busy the device-launched grids keep the SMs. */
const char lesson_metrics[] = "achieved_occupancy,sm_efficiency,inst_per_warp";

/* A launch tree takes no -n and no -b: its own keys size it. */
#define TREE .dtypes = GPULAB_INT32, .n = 0, .block = 0
#define TREE_STEPS .params_size = sizeof(shape), .plan = plan_tree, .setup = setup_tree, .reset = reset_tree, \
	.run = run_tree, .verify = verify_tree, .teardown = lab::teardown<tree_state>
/* A reduction of n ints, at most 2^31 - 1 (the kernels index with int). */
#define REDUCTION .dtypes = GPULAB_INT32, .n = 1u << 20, .n_max = 0x7fffffff, .block = 512, .params = reduce_params, \
	.params_size = sizeof(reduce_opts), .plan = plan_reduce, .setup = setup_reduce, .reset = reset_reduce, \
	.run = run_reduce, .host = host_reduce, .verify = verify_reduce, .teardown = lab::teardown<reduce_state>

const gpulab_exercise exercises[] = {
	{ .name = "hello", .summary = "nested hello world: each block's thread 0 launches half the threads, down to one; printed once",
	  TREE, .params = hello_params, TREE_STEPS, .data = &v_hello, .metrics = lesson_metrics },
	{ .name = "hello_grid", .summary = "children keep the block size and halve the blocks: one launch per level",
	  TREE, .params = grid_params, TREE_STEPS, .data = &v_grid, .metrics = lesson_metrics },
	{ .name = "hello_depth", .summary = "every block launches 2 blocks x 3 threads until -p depth",
	  TREE, .params = depth_params, TREE_STEPS, .data = &v_depth, .metrics = lesson_metrics },
	{ .name = "recursive_reduce", .summary = "gpuRecursiveReduce: a child per block per level; the book's device sync dropped (CDP2)",
	  REDUCTION, .data = &v_rec, .metrics = lesson_metrics },
	{ .name = "recursive_reduce_nosync", .summary = "no barrier: children go to the tail-launch stream, after the whole parent grid (CDP2)",
	  REDUCTION, .data = &v_nosync, .metrics = lesson_metrics },
	{ .name = "recursive_reduce2", .summary = "one launch per level for all blocks, tail-launched so no block is overtaken (CDP2)",
	  REDUCTION, .data = &v_rec2, .metrics = lesson_metrics },
	{ .name = "visibility", .summary = "each block writes, its child reads and writes, a tail-launched grid reads: notes stale and late reads",
	  .dtypes = GPULAB_INT32, .n = 1u << 20, .n_max = 1u << 30, .block = 512, .plan = plan_visibility,
	  .setup = setup_visibility, .reset = reset_visibility, .run = run_visibility, .verify = verify_visibility,
	  .teardown = lab::teardown<vis_state>, .data = &v_vis, .metrics = lesson_metrics },
	{ .name = "host_reduce", .summary = "for comparison: the interleaved reduction launched from the host, no device launches",
	  REDUCTION, .data = &v_host, .metrics = lesson_metrics },
};

} // namespace

LAB_PLUGIN("nested", "dynamic parallelism (CDP2): kernels that launch kernels", exercises, .reference = "host_reduce")
