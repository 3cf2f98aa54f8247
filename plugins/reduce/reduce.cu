/*
 * The reduce plugin: the parallel-reduction ladder of the execution-model
 * and shared-memory chapters, the rungs past it (rungs.cuh), a
 * single-pass `best`, and cub::DeviceReduce::Sum as the reference.  Every
 * exercise sums n ints (32-bit wrap-around) or floats and is checked
 * against a CPU sum of the same input.
 */
#include "best.cuh"
#include "book.cuh"
#include "rungs.cuh"

#include <gpulab/lab.cuh>

#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <vector>

namespace {

template <typename T>
struct args {
	const T *in;          /* the input, never written */
	T *work;              /* in-place kernels: a padded copy of in */
	T *partials;          /* one per block */
	T *out;               /* complete reductions: the sum */
	unsigned *tickets;    /* best, last block: blocks finished */
	void *temp;           /* cub: its temporary storage */
	size_t temp_bytes;
	size_t n;             /* the book's kernels take it as unsigned: they stop at 2^31 - 1 */
	unsigned grid, block;
	cudaStream_t s;
	bool cluster;         /* best: the grid is one cluster (reduceClusterFinish, rungs.cuh) */
	unsigned long long *tagged; /* best, first block: one {epoch, sum} per block */
	unsigned epoch;       /* best, first block: this launch's */
	unsigned long long *packed; /* best, packed: the word every block adds to; with both null, the last block adds */
	unsigned cluster_blocks;    /* cluster rungs: blocks a cluster (rung_grid's choice) */
};

template <typename T> using launch_fn = void (*)(const args<T> &);
template <typename T> using grid_fn = int (*)(gpulab_ctx *, unsigned *, unsigned *);

struct variant {
	bool in_place;        /* reduces a padded copy of the input, which reset() restores */
	bool host_finish;     /* leaves per-block sums for the host to add */
	unsigned unroll;      /* data blocks per thread block */
	unsigned block_min;   /* 0: the exercise takes no block size */
	bool block_pow2;      /* else a multiple of 32 */
	launch_fn<int> launch_int;
	launch_fn<float> launch_float;
	grid_fn<int> grid_int;       /* rungs: the grid, where n alone does not set it */
	grid_fn<float> grid_float;
	bool cluster;                 /* rungs: the block sums meet in clusters (rung_grid sizes them) */
};

template <typename T> launch_fn<T> launcher(const variant *v);
template <> launch_fn<int> launcher<int>(const variant *v) { return v->launch_int; }
template <> launch_fn<float> launcher<float>(const variant *v) { return v->launch_float; }
template <typename T> grid_fn<T> gridder(const variant *v);
template <> grid_fn<int> gridder<int>(const variant *v) { return v->grid_int; }
template <> grid_fn<float> gridder<float>(const variant *v) { return v->grid_float; }

/* --- launchers: one per kernel shape ---------------------------------------- */

template <typename T> void neighbored(const args<T> &a)
{
	reduceNeighbored<T><<<a.grid, a.block, 0, a.s>>>(a.work, a.partials);
}

template <typename T> void neighbored_less(const args<T> &a)
{
	reduceNeighboredLess<T><<<a.grid, a.block, 0, a.s>>>(a.work, a.partials);
}

template <typename T> void interleaved(const args<T> &a)
{
	reduceInterleaved<T><<<a.grid, a.block, 0, a.s>>>(a.work, a.partials);
}

template <int F, Tail TAIL> struct unrolling {
	template <typename T> static void go(const args<T> &a)
	{
		reduceUnrolling<T, F, TAIL><<<a.grid, a.block, 0, a.s>>>(a.work, a.partials, 8);
	}
};

template <typename T> void unrolling_loop8(const args<T> &a)
{
	reduceUnrollingLoop8<T><<<a.grid, a.block, 0, a.s>>>(a.work, a.partials);
}

/* The block size as a template parameter: a switch over the sizes the
 * kernels take (powers of two from 64 to 1024). */
template <typename T, template <typename, unsigned> class K>
void by_block(const args<T> &a)
{
	switch (a.block) {
	case 64: K<T, 64>::go(a); break;
	case 128: K<T, 128>::go(a); break;
	case 256: K<T, 256>::go(a); break;
	case 512: K<T, 512>::go(a); break;
	default: K<T, 1024>::go(a); break; /* plan() admits nothing else */
	}
}

template <int F, Tail TAIL> struct complete {
	template <typename T, unsigned B> struct k {
		static void go(const args<T> &a)
		{
			reduceCompleteUnroll<T, F, B, TAIL><<<a.grid, a.block, 0, a.s>>>(a.work, a.partials);
		}
	};
	template <typename T> static void templated(const args<T> &a) { by_block<T, k>(a); }
	template <typename T> static void runtime(const args<T> &a) { k<T, 0>::go(a); }
};

template <int F, bool DYN> struct smem {
	template <typename T, unsigned B> struct k {
		static void go(const args<T> &a)
		{
			size_t dyn = DYN ? a.block * sizeof(T) : 0;
			reduceSmem<T, F, B, DYN><<<a.grid, a.block, dyn, a.s>>>(a.in, a.partials, a.n);
		}
	};
	template <typename T> static void fixed(const args<T> &a) { by_block<T, k>(a); }
	template <typename T> static void runtime(const args<T> &a) { k<T, 0>::go(a); } /* DYN: sized at launch */
};

template <typename T> void shfl(const args<T> &a)
{
	reduceShfl<T><<<a.grid, a.block, 0, a.s>>>(a.in, a.partials, a.n);
}

/* k<<<a.grid, a.block>>>(xs...) in clusters of `blocks`. */
template <typename T, typename... P, typename... A>
void launch_cluster(void (*k)(P...), const args<T> &a, unsigned blocks, A... xs)
{
	cudaLaunchAttribute cluster = { .id = cudaLaunchAttributeClusterDimension };
	cluster.val.clusterDim = { blocks, 1, 1 };
	cudaLaunchConfig_t c = { .gridDim = a.grid, .blockDim = a.block, .stream = a.s, .attrs = &cluster, .numAttrs = 1 };
	cudaLaunchKernelEx(&c, k, xs...); /* its error: LAB_LAUNCHED */
}

template <typename T, unsigned B> struct best_k {
	static void go(const args<T> &a)
	{
		if (one_tile<B>(a.grid, a.n)) {
			reduceBestTile<T, B><<<1, tile_threads<B>(a.n), 0, a.s>>>(a.in, (unsigned)a.n, a.out);
			return;
		}
		if (!a.cluster) {
			best_meet<T> m = { a.tagged, a.epoch, a.partials, a.tickets, a.packed };
			reduceBest<T, B><<<a.grid, B, 0, a.s>>>(a.in, a.n, m, a.out);
			return;
		}
		launch_cluster(reduceClusterFinish<T, B>, a, a.grid, a.in, a.n, a.out); /* one cluster, one sum */
	}
	/* The most blocks of B threads one cluster holds on this GPU: 16 on
	 * a Hopper with every SM of a GPC free, past the portable 8; 0 on a
	 * GPU without clusters (before Hopper), or in a build without sm_90
	 * code, where the cluster kernel's body is __trap() (lab::code_arch). */
	static cudaError_t max_cluster(int *blocks)
	{
		int dev, can = 0, arch = 0;
		cudaError_t e = cudaGetDevice(&dev);
		*blocks = 0;
		if (e || (e = cudaDeviceGetAttribute(&can, cudaDevAttrClusterLaunch, dev)) || !can
		    || (e = lab::code_arch((const void *)reduceClusterFinish<T, B>, &arch)) || arch < 90)
			return e;
		e = cudaFuncSetAttribute(reduceClusterFinish<T, B>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
		cudaLaunchConfig_t c = { .gridDim = 16, .blockDim = B };
		return e ? e : cudaOccupancyMaxPotentialClusterSize(blocks, reduceClusterFinish<T, B>, &c);
	}
};
template <typename T> void best(const args<T> &a) { by_block<T, best_k>(a); }

/* --- the rungs past the book (rungs.cuh) ---------------------------------- */

template <typename T, unsigned B> struct wide_k {
	static void go(const args<T> &a) { reduceWide<T, B><<<a.grid, B, 0, a.s>>>(a.in, a.n, a.partials); }
};
template <typename T, unsigned B> struct persistent_k {
	static const void *kernel() { return (const void *)reducePersistent<T, B>; }
	static void go(const args<T> &a) { reducePersistent<T, B><<<a.grid, B, 0, a.s>>>(a.in, a.n, a.partials); }
};
template <typename T, unsigned B> struct cluster_k {
	static const void *kernel() { return (const void *)reduceClusterFinish<T, B>; }
	static void go(const args<T> &a) { launch_cluster(reduceClusterFinish<T, B>, a, a.cluster_blocks, a.in, a.n, a.partials); }
};
template <typename T, unsigned B> struct one_pass_k {
	static const void *kernel() { return (const void *)reduceOnePass<T, B>; }
	static void go(const args<T> &a)
	{
		best_meet<T> m = { nullptr, 0, a.partials, a.tickets, nullptr };
		launch_cluster(reduceOnePass<T, B>, a, a.cluster_blocks, a.in, a.n, m, a.out);
	}
};

/* K's kernel for the block size (plan() admits powers of two, 64-1024). */
template <typename T, template <typename, unsigned> class K>
const void *kernel_of(unsigned block)
{
	switch (block) {
	case 64: return K<T, 64>::kernel();
	case 128: return K<T, 128>::kernel();
	case 256: return K<T, 256>::kernel();
	case 512: return K<T, 512>::kernel();
	default: return K<T, 1024>::kernel();
	}
}

/* Can k run in clusters here: a GPU with them (Hopper and later), and
 * this build's sm_90 code of k, not older PTX whose body is __trap()?
 * Else one line saying which is missing, and GPULAB_EPARAM. */
int can_cluster(gpulab_ctx *ctx, const void *k)
{
	int dev, can = 0;
	LAB_TRY(ctx, cudaGetDevice(&dev));
	LAB_TRY(ctx, cudaDeviceGetAttribute(&can, cudaDevAttrClusterLaunch, dev));
	if (!can) {
		ctx->error(ctx, "this GPU has no thread-block clusters (Hopper and later do)");
		return GPULAB_EPARAM;
	}
	return lab::need_code(ctx, k, 90);
}

/* A persistent rung's grid: a block for each round of best_loads
 * vectors a thread that n needs, at most as many as the GPU holds at
 * once.  With CLUSTERS, whole clusters, of the largest size in
 * rung_clusters whose clusters fill the same grid: a cluster's blocks
 * must share one GPC, and where whole clusters do not fit every SM's
 * slots, the grid keeps fewer bytes in flight (8 blocks of 512 on an
 * H200: 240 of 264 slots, and the rung 5% slower; docs/hopper.md).
 * Without clusters, or their code, it refuses (can_cluster). */
template <typename T, template <typename, unsigned> class K, bool CLUSTERS>
int rung_grid(gpulab_ctx *ctx, unsigned *grid, unsigned *cluster_blocks)
{
	const void *k = kernel_of<T, K>(ctx->block);
	uint64_t useful = lab::div_up(ctx->elements, 4ull * best_loads * ctx->block);
	int rc = lab::persistent_grid(ctx, k, ctx->block, useful, grid);
	*cluster_blocks = 0;
	if (rc || !CLUSTERS || (rc = can_cluster(ctx, k)))
		return rc;
	unsigned plain = *grid;
	for (unsigned C : rung_clusters) {
		int clusters = 0;
		cudaLaunchAttribute cluster = { .id = cudaLaunchAttributeClusterDimension };
		cluster.val.clusterDim = { C, 1, 1 };
		cudaLaunchConfig_t c = { .gridDim = C, .blockDim = ctx->block, .attrs = &cluster, .numAttrs = 1 };
		LAB_TRY(ctx, cudaOccupancyMaxActiveClusters(&clusters, k, &c));
		uint64_t want = lab::div_up(plain, C);
		if (!clusters || (want > (uint64_t)clusters && C != rung_clusters[std::size(rung_clusters) - 1]))
			continue; /* leaves slots empty: a smaller cluster */
		*cluster_blocks = C;
		*grid = C * (unsigned)std::min<uint64_t>(want, (uint64_t)clusters);
		return GPULAB_OK;
	}
	ctx->error(ctx, "no cluster of %u blocks of %u threads fits this GPU", rung_clusters[std::size(rung_clusters) - 1],
		   ctx->block);
	return GPULAB_EPARAM;
}

template <typename T> void wide(const args<T> &a) { by_block<T, wide_k>(a); }
template <typename T> void persistent(const args<T> &a) { by_block<T, persistent_k>(a); }
template <typename T> void cluster_finish(const args<T> &a) { by_block<T, cluster_k>(a); }
template <typename T> void one_pass(const args<T> &a) { by_block<T, one_pass_k>(a); }

/* CUB picks its offset type from the count's: 32-bit indexing (its
 * fastest) while n fits an int, 64-bit past it.  With temp null this
 * asks for the scratch size instead. */
template <typename T> cudaError_t cub_call(const args<T> &a, size_t *bytes)
{
	if (a.n <= INT32_MAX)
		return cub::DeviceReduce::Sum(a.temp, *bytes, a.in, a.out, (int32_t)a.n, a.s);
	return cub::DeviceReduce::Sum(a.temp, *bytes, a.in, a.out, (int64_t)a.n, a.s);
}

template <typename T> void cub_sum(const args<T> &a)
{
	size_t bytes = a.temp_bytes;
	cub_call(a, &bytes);
}

#define BOTH(...) __VA_ARGS__<int>, __VA_ARGS__<float>
#define RUNG_GRID(K, C) rung_grid<int, K, C>, rung_grid<float, K, C>

const variant v_neighbored = { true, true, 1, 32, true, BOTH(neighbored) };
const variant v_neighbored_less = { true, true, 1, 32, true, BOTH(neighbored_less) };
const variant v_interleaved = { true, true, 1, 32, true, BOTH(interleaved) };
const variant v_unroll2 = { true, true, 2, 32, true, BOTH(unrolling<2, Tail::none>::go) };
const variant v_unroll4 = { true, true, 4, 32, true, BOTH(unrolling<4, Tail::none>::go) };
const variant v_unroll8 = { true, true, 8, 32, true, BOTH(unrolling<8, Tail::none>::go) };
const variant v_unroll16 = { true, true, 16, 32, true, BOTH(unrolling<16, Tail::none>::go) };
const variant v_unroll8_loop = { true, true, 8, 32, true, BOTH(unrolling<0, Tail::none>::go) };
const variant v_unroll8_const_loop = { true, true, 8, 32, true, BOTH(unrolling_loop8) };
const variant v_unroll_warps8 = { true, true, 8, 64, true, BOTH(unrolling<8, Tail::volatile_book>::go) };
const variant v_unroll_warps8_sync = { true, true, 8, 64, true, BOTH(unrolling<8, Tail::syncwarp>::go) };
const variant v_complete_warps8 = { true, true, 8, 64, true, BOTH(complete<8, Tail::volatile_book>::runtime) };
const variant v_complete = { true, true, 8, 64, true, BOTH(complete<8, Tail::syncwarp>::templated) };
const variant v_complete_book = { true, true, 8, 64, true, BOTH(complete<8, Tail::volatile_book>::templated) };
const variant v_complete_syncthreads = { true, true, 8, 64, true, BOTH(complete<8, Tail::syncthreads>::templated) };
const variant v_gmem = { true, true, 1, 64, true, BOTH(complete<1, Tail::syncwarp>::runtime) };
const variant v_smem = { false, true, 1, 64, true, BOTH(smem<1, false>::fixed) };
const variant v_smem_dyn = { false, true, 1, 64, true, BOTH(smem<1, true>::fixed) };
const variant v_smem_blockdim = { false, true, 1, 64, true, BOTH(smem<1, true>::runtime) };
const variant v_unroll4_smem = { false, true, 4, 64, true, BOTH(smem<4, false>::fixed) };
const variant v_shfl = { false, true, 1, 32, false, BOTH(shfl) };
const variant v_wide = { false, true, 4, 64, true, BOTH(wide) };
/* a round of best_loads vectors a thread: what plan() counts a block */
const variant v_persistent = { false, true, 4 * best_loads, 64, true, BOTH(persistent), RUNG_GRID(persistent_k, false) };
const variant v_cluster = { false, true, 4 * best_loads, 64, true, BOTH(cluster_finish),
			    RUNG_GRID(cluster_k, true), true };
const variant v_one_pass = { false, false, 4 * best_loads, 64, true, BOTH(one_pass),
			     RUNG_GRID(one_pass_k, true), true };
const variant v_cub = { false, false, 1, 0, false, BOTH(cub_sum) };
const variant v_best = { false, false, 1, 64, true, BOTH(best) };

/* --- the exercise driver ------------------------------------------------------ */

struct opts {
	uint64_t seed;
	uint64_t blocks; /* best's grid; 0: best_grid() chooses */
	unsigned finish; /* best: how block sums meet; enum finish */
};

enum finish { FINISH_AUTO, FINISH_FIRST_BLOCK, FINISH_LAST_BLOCK, FINISH_PACKED, FINISH_CLUSTER };
#define FINISH_NAMES "auto|first_block|last_block|packed|cluster" /* -p finish, in enum finish's order */

struct state : lab::state {
	void *in = nullptr, *work = nullptr, *partials = nullptr, *out = nullptr, *temp = nullptr;
	unsigned *tickets = nullptr;
	unsigned long long *tagged = nullptr; /* best: its first block gathers; null otherwise */
	unsigned long long *packed = nullptr; /* best: every block adds its int sum here; null otherwise */
	unsigned epoch = 0;            /* best: the last launch's, for tagged */
	void *h_partials = nullptr;    /* pinned, so the copy back is asynchronous */
	size_t temp_bytes = 0, n_pad = 0;
	unsigned grid = 0;
	unsigned sums = 0;             /* host_finish: the sums the host adds (one a block, or a cluster) */
	unsigned cluster_blocks = 0;   /* cluster rungs: blocks a cluster */
	unsigned meet = 0;             /* best: how its block sums meet (enum finish, not auto) */
	double want = 0, sum_abs = 0;  /* the CPU's sum and the sum of magnitudes */
	double host_sum = 0;           /* host_finish: what host() added up */
};

const variant *of(const gpulab_ctx *ctx) { return static_cast<const variant *>(ctx->data); }
state *st(gpulab_ctx *ctx) { return lab::state_of<state>(ctx); }
size_t elem(const gpulab_ctx *ctx) { return ctx->dtype == GPULAB_INT32 ? sizeof(int) : sizeof(float); }
uint64_t seed_of(const gpulab_ctx *ctx) { return lab::opts<opts>(ctx).seed; }

int check_block(gpulab_ctx *ctx, const variant *v)
{
	unsigned b = ctx->block;
	if (!v->block_min)
		return GPULAB_OK;
	if (b < v->block_min || b > 1024 || (v->block_pow2 ? !lab::pow2(b) : b % 32)) {
		ctx->error(ctx, "block size %u: this kernel takes %s from %u to 1024", b,
			   v->block_pow2 ? "a power of two" : "a multiple of 32", v->block_min);
		return GPULAB_EPARAM;
	}
	return GPULAB_OK;
}

/* Elements one block covers; exercises without a block size (cub) are
 * planned as if with 256. */
size_t per_block(const gpulab_ctx *ctx, const variant *v)
{
	return (size_t)(v->block_min ? ctx->block : 256) * v->unroll;
}

/* -p finish=packed: the sums of ints, of no more blocks than the packed
 * word counts. */
int check_packed(gpulab_ctx *ctx)
{
	const opts &o = lab::opts<opts>(ctx);
	if (o.finish != FINISH_PACKED)
		return GPULAB_OK;
	if (ctx->dtype != GPULAB_INT32) {
		ctx->error(ctx, "-p finish=packed adds ints only: a float sum depends on the order of its adds, and the "
				"blocks add in the order they finish");
		return GPULAB_EPARAM;
	}
	if (o.blocks > packed_most_blocks) {
		ctx->error(ctx, "-p finish=packed: %" PRIu64 " blocks, and its word counts at most %u", o.blocks,
			   packed_most_blocks);
		return GPULAB_EPARAM;
	}
	return GPULAB_OK;
}

int plan(gpulab_ctx *ctx)
{
	const variant *v = of(ctx);
	/* n's largest is declared: cub and the book index with int */
	if (check_block(ctx, v) != GPULAB_OK || check_packed(ctx) != GPULAB_OK)
		return GPULAB_EPARAM;
	size_t e = elem(ctx);
	uint64_t blocks = lab::opts<opts>(ctx).blocks, grid = std::max(lab::div_up(ctx->elements, per_block(ctx, v)), blocks);
	/* best's tagged words: one a block where block 0 gathers, which auto
	 * has it do for no more blocks than a block has threads */
	uint64_t tagged = v->launch_int == best<int> ? std::max<uint64_t>(blocks, 1024) : 0;
	ctx->bytes_read = ctx->elements * e;
	ctx->bytes_written = v->host_finish ? grid * e : e;
	/* input, padded copy, partial sums, tagged words, and slack for cub's
	 * scratch */
	ctx->device_bytes = ctx->elements * e + (v->in_place ? grid * per_block(ctx, v) * e : 0) + grid * e
			    + tagged * sizeof(unsigned long long) + (1 << 20);
	return GPULAB_OK;
}

template <typename T>
int make_input(gpulab_ctx *ctx, state *s)
{
	std::vector<T> h;
	int rc = lab::host_vector(ctx, h, ctx->elements);
	if (rc != GPULAB_OK)
		return rc;
	lab::fill(h.data(), ctx->elements, seed_of(ctx));
	lab::sum_reference(h.data(), ctx->elements, &s->want, &s->sum_abs);
	LAB_TRY(ctx, cudaMemcpy(s->in, h.data(), ctx->elements * sizeof(T), cudaMemcpyHostToDevice));
	return GPULAB_OK;
}

/* The most blocks of best's that one cluster holds here. */
template <typename T>
cudaError_t best_max_cluster(unsigned block, int *blocks)
{
	switch (block) {
	case 64: return best_k<T, 64>::max_cluster(blocks);
	case 128: return best_k<T, 128>::max_cluster(blocks);
	case 256: return best_k<T, 256>::max_cluster(blocks);
	case 512: return best_k<T, 512>::max_cluster(blocks);
	default: return best_k<T, 1024>::max_cluster(blocks);
	}
}

/* Blocks worth launching for n, in rounds (one round: every thread of
 * one block with its best_loads loads in flight).  One block while n is
 * at most one round, since its sum needs no meeting; then two blocks a
 * round, so that a thread has about half a round in flight and more SMs
 * pull from L2 at once, up to one block an SM; from one round an SM on,
 * as many as the GPU holds (persistent_grid caps it).  Held-timed over
 * -p blocks on the H200 (docs/bench-reduce-small.md, the grid): 2^14
 * ints in one block of 512, 3.8 us against 4.1-4.4 in 4 to 264; 2^20,
 * 4.7 in 66 or 132 against 5.6 in 16 and 4.9 in 264. */
uint64_t useful_blocks(uint64_t n, unsigned block, unsigned sms, bool one_for_one_round)
{
	uint64_t rounds = lab::div_up(n, 4ull * best_loads * block);
	if (rounds <= 1 && one_for_one_round)
		return 1;
	return rounds >= sms ? rounds : std::min<uint64_t>(2 * rounds, sms);
}

/* The most blocks of best's that one cluster holds here, and
 * reduceClusterFinish adds at most 16 (its sums[]); 0 on a GPU without
 * clusters. */
template <typename T>
unsigned best_cluster_most(unsigned block)
{
	int most = 0;
	if (best_max_cluster<T>(block, &most) != cudaSuccess) {
		cudaGetLastError(); /* no cluster, then */
		return 0;
	}
	return (unsigned)std::min(most, 16);
}

/* How auto meets a grid's sums.  One block has nothing to meet: it
 * writes its sum (so packed never has a grid of one).  Ints meet in the
 * packed word, in any grid auto makes (a GPU holds at most 32 blocks an
 * SM: 4224 on an H200).  Floats must add in a fixed order: a grid that
 * fits one cluster meets in rank 0's shared memory, where the sums
 * travel SM to SM and never through L2.  A/B on an H200, held-timed
 * (512 threads): 2^15 floats in 4 blocks, 4.16 us in a cluster against
 * 4.48 with block 0 gathering (cub 5.28-5.44); 2^16 in 8, 4.29-4.32
 * against 4.61-4.64; 2^17 in 16, 4.48-4.64 against 4.64-4.67; but 2^18
 * in a cluster of 16, each block two rounds, 4.96 against 4.48 in 32
 * blocks, so a larger grid keeps its blocks.  Past a cluster, block 0
 * gathers while the grid has no more blocks than a block has threads
 * (at most 132 of 1024, 264 of 512: warp 0 alone then takes the words,
 * gather_first).  Past that (small blocks, a full grid) block 0's
 * spinning cost more than the ticket: 2^24 ints in 2772 blocks of 64,
 * 36.8 us against 23.2 (measured while all of block 0 gathered; the
 * rule was not re-measured for warp 0).  cluster_most: best_cluster_most,
 * asked once by the caller. */
template <typename T>
unsigned best_auto_meet(unsigned grid, unsigned block, unsigned cluster_most)
{
	if (grid == 1)
		return FINISH_FIRST_BLOCK;
	if (std::is_same_v<T, int> && grid <= packed_most_blocks)
		return FINISH_PACKED;
	if (std::is_same_v<T, float> && grid <= cluster_most)
		return FINISH_CLUSTER;
	return grid <= block ? FINISH_FIRST_BLOCK : FINISH_LAST_BLOCK;
}

/* best's grid, and how its block sums meet (*meet: enum finish, never
 * auto): useful blocks, as many as the GPU holds at once at most, met
 * as best_auto_meet says.  -p blocks and -p finish choose instead, for
 * the lesson: a finish asked for keeps two blocks at one round, so that
 * it is what runs, and a cluster asked for gets no more blocks than one
 * holds, unless -p blocks says how many. */
template <typename T>
int best_grid(gpulab_ctx *ctx, unsigned *grid, unsigned *meet)
{
	const opts &o = lab::opts<opts>(ctx);
	const void *k;
	switch (ctx->block) {
	case 64: k = (const void *)reduceBest<T, 64>; break;
	case 128: k = (const void *)reduceBest<T, 128>; break;
	case 256: k = (const void *)reduceBest<T, 256>; break;
	case 512: k = (const void *)reduceBest<T, 512>; break;
	default: k = (const void *)reduceBest<T, 1024>; break;
	}
	int rc, dev, sms;
	/* asked only where a cluster may be chosen: an occupancy query */
	unsigned most = o.finish == FINISH_CLUSTER || (std::is_same_v<T, float> && o.finish == FINISH_AUTO)
				? best_cluster_most<T>(ctx->block)
				: 0;
	LAB_TRY(ctx, cudaGetDevice(&dev));
	LAB_TRY(ctx, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	if (o.blocks)
		*grid = (unsigned)o.blocks;
	else if ((rc = lab::persistent_grid(ctx, k, ctx->block,
					    useful_blocks(ctx->elements, ctx->block, sms, o.finish == FINISH_AUTO), grid)))
		return rc;
	if (o.finish == FINISH_AUTO)
		*meet = best_auto_meet<T>(*grid, ctx->block, most);
	else
		*meet = *grid == 1 ? FINISH_FIRST_BLOCK : o.finish;
	if (*meet != FINISH_CLUSTER)
		return GPULAB_OK;
	if (most && !o.blocks) /* a cluster asked for, and no grid: as many blocks as one holds */
		*grid = std::min(*grid, most);
	if (*grid <= most)
		return GPULAB_OK;
	if (most)
		ctx->error(ctx, "-p finish=cluster: %u blocks of %u threads, and a cluster holds at most %u here", *grid,
			   ctx->block, most);
	else if ((rc = can_cluster(ctx, kernel_of<T, cluster_k>(ctx->block)))) /* which is missing: clusters, or their code */
		return rc;
	else
		ctx->error(ctx, "-p finish=cluster: no cluster of blocks of %u threads fits this GPU", ctx->block);
	return GPULAB_EPARAM;
}

/* What best's automatic keys came to, for the record (ctx->chose): the
 * grid where -p blocks=0, and how its sums meet where -p finish=auto and
 * there are several (a grid of one has nothing to meet). */
int tell_choices(gpulab_ctx *ctx, unsigned grid, unsigned meet)
{
	const opts &o = lab::opts<opts>(ctx);
	char text[32];
	const char *name = FINISH_NAMES;
	int rc;
	snprintf(text, sizeof text, "%u", grid);
	if (!o.blocks && (rc = ctx->chose(ctx, "blocks", text)) != GPULAB_OK)
		return rc;
	if (o.finish != FINISH_AUTO || grid == 1)
		return GPULAB_OK;
	for (unsigned k = 0; k < meet && name; k++)
		if ((name = strchr(name, '|')))
			name++;
	if (!name) /* an enum finish past FINISH_NAMES: the core refuses "" */
		name = "";
	snprintf(text, sizeof text, "%.*s", (int)strcspn(name, "|"), name);
	return ctx->chose(ctx, "finish", text);
}

template <typename T>
int setup_t(gpulab_ctx *ctx)
{
	const variant *v = of(ctx);
	state *s;
	size_t n = ctx->elements;
	int rc;
	if ((rc = lab::make_state(ctx, &s)) != GPULAB_OK)
		return rc;
	s->grid = (unsigned)lab::div_up(n, per_block(ctx, v));
	s->n_pad = (size_t)s->grid * per_block(ctx, v);
	if (v->launch_int == best<int>
	    && ((rc = best_grid<T>(ctx, &s->grid, &s->meet)) != GPULAB_OK || (rc = tell_choices(ctx, s->grid, s->meet))))
		return rc;
	if (gridder<T>(v) && (rc = gridder<T>(v)(ctx, &s->grid, &s->cluster_blocks)) != GPULAB_OK)
		return rc;
	s->sums = s->cluster_blocks ? s->grid / s->cluster_blocks : s->grid;
	if (gridder<T>(v)) { /* what explains a rung's step: its grid, and what is left for the host */
		ctx->note(ctx, "blocks", s->grid);
		ctx->note(ctx, "host_sums", v->host_finish ? s->sums : 0);
		if (v->cluster)
			ctx->note(ctx, "cluster", s->cluster_blocks);
	}
	if ((rc = s->alloc(ctx, (T **)&s->in, n)) || (rc = s->alloc(ctx, (T **)&s->partials, s->grid))
	    || (rc = s->alloc(ctx, (T **)&s->out, 1)) || (rc = s->alloc(ctx, &s->tickets, 1))
	    || (v->in_place && (rc = s->alloc(ctx, (T **)&s->work, s->n_pad)))
	    || (v->host_finish && (rc = s->alloc_pinned(ctx, (T **)&s->h_partials, s->sums))))
		return rc;
	LAB_TRY(ctx, cudaMemset(s->tickets, 0, sizeof(unsigned)));
	if (v->launch_int == best<int> && s->meet == FINISH_FIRST_BLOCK && s->grid > 1) {
		if ((rc = s->alloc(ctx, &s->tagged, s->grid)))
			return rc;
		LAB_TRY(ctx, cudaMemset(s->tagged, 0, s->grid * sizeof *s->tagged)); /* epoch 0: none yet */
	}
	if (v->launch_int == best<int> && s->meet == FINISH_PACKED) {
		if ((rc = s->alloc(ctx, &s->packed, 1)))
			return rc;
		LAB_TRY(ctx, cudaMemset(s->packed, 0, sizeof *s->packed)); /* no block counted yet */
	}
	if (v->launch_int == cub_sum<int>) {
		args<T> a = { (const T *)s->in, nullptr, nullptr, (T *)s->out, nullptr, nullptr, 0, n, 0, 0, 0 };
		LAB_TRY(ctx, cub_call(a, &s->temp_bytes));
		if ((rc = s->alloc(ctx, (char **)&s->temp, s->temp_bytes)))
			return rc;
	}
	return make_input<T>(ctx, s);
}

/* Untimed, before every run: the in-place copy restored (its padding
 * zero), and the outputs poisoned so a kernel that writes nothing fails. */
int reset(gpulab_ctx *ctx)
{
	const variant *v = of(ctx);
	state *s = st(ctx);
	size_t e = elem(ctx);
	cudaStream_t q = lab::stream(ctx);
	if (v->in_place) {
		LAB_TRY(ctx, cudaMemsetAsync(s->work, 0, s->n_pad * e, q));
		LAB_TRY(ctx, cudaMemcpyAsync(s->work, s->in, ctx->elements * e, cudaMemcpyDeviceToDevice, q));
	}
	int rc = lab::poison(ctx, s->partials, (size_t)s->grid * e);
	return rc ? rc : lab::poison(ctx, s->out, e);
}

template <typename T>
int run_t(gpulab_ctx *ctx)
{
	const variant *v = of(ctx);
	state *s = st(ctx);
	args<T> a = { (const T *)s->in, (T *)s->work, (T *)s->partials, (T *)s->out, s->tickets, s->temp,
		      s->temp_bytes, ctx->elements, s->grid, ctx->block, lab::stream(ctx), s->meet == FINISH_CLUSTER,
		      s->tagged, 0, s->packed, s->cluster_blocks };
	if (s->tagged && (a.epoch = ++s->epoch) == 0) /* 0 marks a word never written */
		a.epoch = s->epoch = 1;
	launcher<T>(v)(a);
	LAB_LAUNCHED(ctx);
	if (v->host_finish)
		LAB_TRY(ctx, cudaMemcpyAsync(s->h_partials, s->partials, (size_t)s->sums * sizeof(T),
					     cudaMemcpyDeviceToHost, a.s));
	return GPULAB_OK;
}

/* The book's last step: the host adds the per-block sums. */
template <typename T>
int host_t(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	if (of(ctx)->host_finish)
		s->host_sum = lab::add_up(static_cast<const T *>(s->h_partials), s->sums);
	return GPULAB_OK;
}

template <typename T>
int verify_t(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	T got;
	if (of(ctx)->host_finish)
		got = (T)s->host_sum;
	else
		LAB_TRY(ctx, cudaMemcpy(&got, s->out, sizeof(T), cudaMemcpyDeviceToHost));
	return lab::expect_sum(ctx, got, s->want, s->sum_abs, ctx->elements, seed_of(ctx));
}

const gpulab_param params[] = {
	LAB_SEED(opts, seed),
	{ nullptr }
};

/* best's grid and finish, to be varied: the lesson of what meeting costs */
const gpulab_param best_params[] = {
	LAB_SEED(opts, seed),
	{ .key = "blocks", .type = GPULAB_PARAM_COUNT, .offset = offsetof(opts, blocks), .def = "0",
	  .help = "blocks in the grid; 0: one up to a round of loads, then two a round up to one an SM, then as many as the GPU holds",
	  .min = 0,
	  .max = 1 << 20 },
	{ .key = "finish", .type = GPULAB_PARAM_ENUM, .offset = offsetof(opts, finish), .def = "auto",
	  .help = "how the block sums meet: block 0 gathers them; the last block to take a ticket adds them; packed "
		  "(ints): every block adds its sum and a count in one 64-bit atomic, and the last to count has the total; "
		  "or, where the grid fits one cluster, in its shared memory; auto: packed for ints; for floats a cluster "
		  "where the grid fits one, else block 0 up to as many blocks as it has threads, else the last block",
	  .choices = FINISH_NAMES },
	{ nullptr }
};

/* --metrics default: the chapters' evidence, global load efficiency and
 * instructions per warp. */
const char lesson_metrics[] = "gld_transactions,gld_transactions_per_request,gld_efficiency,gld_throughput,inst_per_warp";

/* Every exercise sums ints or floats, 2^24 by default, with a seed.  The
 * book's kernels index with int and take at most 2^31 - 1; cub and best
 * index with 64 bits and take up to 2^36 (256 GiB of ints: what fits the
 * GPU's memory decides before that). */
#define REDUCE_UPTO(b, v, max, p) \
	.dtypes = GPULAB_INT32 | GPULAB_FLOAT32, .n = 1u << 24, .n_max = max, .block = b, .params = p, \
	.params_size = sizeof(opts), .plan = plan, .setup = LAB_TYPED(setup_t), .reset = reset, .run = LAB_TYPED(run_t), \
	.host = LAB_TYPED(host_t), .verify = LAB_TYPED(verify_t), .teardown = lab::teardown<state>, .data = &v, \
	.metrics = lesson_metrics, .flags = (v).in_place ? 0u : GPULAB_REPEATS /* only in-place kernels need reset() */
#define REDUCE(b, v) REDUCE_UPTO(b, v, 0x7fffffff, params)
#define REDUCE64(b, v, p) REDUCE_UPTO(b, v, 1ull << 36, p)

/* In ladder order: the book's rungs, the rungs past it (each adds one
 * idea to the one before), best (all of them), and last cub, the
 * reference every row is compared with, which is no rung. */
const gpulab_exercise exercises[] = {
	{ .name = "neighbored", .summary = "neighbored pairs, tid % (2*stride): divergent warps; in place in global memory", REDUCE(512, v_neighbored) },
	{ .name = "neighbored_less", .summary = "neighbored pairs, index remapped so active threads are contiguous", REDUCE(512, v_neighbored_less) },
	{ .name = "interleaved", .summary = "interleaved pairs, stride halving from blockDim/2", REDUCE(512, v_interleaved) },
	{ .name = "unroll2", .summary = "each thread first adds 2 data blocks, then interleaved", REDUCE(512, v_unroll2) },
	{ .name = "unroll4", .summary = "each thread first adds 4 data blocks, then interleaved", REDUCE(512, v_unroll4) },
	{ .name = "unroll8", .summary = "each thread first adds 8 data blocks, then interleaved", REDUCE(512, v_unroll8) },
	{ .name = "unroll16", .summary = "each thread first adds 16 data blocks, then interleaved", REDUCE(512, v_unroll16) },
	{ .name = "unroll8_loop", .summary = "unroll8's adds as a loop over a run-time count: not unrolled, fewer loads in flight", REDUCE(512, v_unroll8_loop) },
	{ .name = "unroll8_const_loop", .summary = "unroll8's adds as the notes' loop: a constant count of 8, a pointer stepped by blockDim.x, no pragma", REDUCE(512, v_unroll8_const_loop) },
	{ .name = "unroll_warps8", .summary = "unroll8 + last warp unrolled via volatile (the book's; a data race since Volta)", REDUCE(512, v_unroll_warps8) },
	{ .name = "unroll_warps8_sync", .summary = "unroll8 + last warp unrolled with __syncwarp between steps (the race fixed)", REDUCE(512, v_unroll_warps8_sync) },
	{ .name = "complete_unroll_warps8", .summary = "unroll8 + whole tree unrolled, volatile last warp (the book's; a data race since Volta)", REDUCE(512, v_complete_warps8) },
	{ .name = "complete_unroll", .summary = "unroll8 + whole tree unrolled, block size a template parameter; __syncwarp last warp", REDUCE(512, v_complete) },
	{ .name = "complete_unroll_book", .summary = "the book's reduceCompleteUnroll: complete_unroll_warps8 with the block size a template parameter (volatile; a data race since Volta)", REDUCE(512, v_complete_book) },
	{ .name = "complete_unroll_syncthreads", .summary = "complete_unroll_book with no volatile: a __syncthreads of the block after each last-warp step (the chapter's exercise 4)", REDUCE(512, v_complete_syncthreads) },
	{ .name = "gmem", .summary = "chapter 5: one element per thread, complete unroll, in place in global memory", REDUCE(512, v_gmem) },
	{ .name = "smem", .summary = "gmem's kernel with the tree in static shared memory", REDUCE(512, v_smem) },
	{ .name = "smem_blockdim", .summary = "smem reading the block size at run time, as gmem does: the two differ in where the tree lives alone", REDUCE(512, v_smem_blockdim) },
	{ .name = "smem_dyn", .summary = "smem with dynamic shared memory (size at launch); the same template, so the array is all that differs", REDUCE(512, v_smem_dyn) },
	{ .name = "unroll4_smem", .summary = "4 data blocks per thread, then the tree in shared memory", REDUCE(512, v_unroll4_smem) },
	{ .name = "shfl", .summary = "warp shuffles (__shfl_down_sync), shared memory only between warps", REDUCE(512, v_shfl) },
	{ .name = "wide", .summary = "shfl with 16-byte loads: an int4/float4 per thread, a quarter of the blocks and load instructions", REDUCE64(512, v_wide, params) },
	{ .name = "persistent", .summary = "wide + a persistent grid: 8 16-byte loads in flight per thread, only as many blocks as the GPU holds", REDUCE64(512, v_persistent, params) },
	{ .name = "cluster", .summary = "persistent + a cluster finish: 8 blocks (or 4 or 2, whichever fill the GPU) add their sums in distributed shared memory, one sum a cluster to the host (sm_90+)", REDUCE64(512, v_cluster, params) },
	{ .name = "one_pass", .summary = "cluster + one pass: the last cluster to take a ticket adds the clusters' sums, nothing left for the host (sm_90+)", REDUCE64(512, v_one_pass, params) },
	{ .name = "best", .summary = "one launch: persistent grid, 8 16-byte loads in flight per thread, warp reductions; the block sums meet in one atomic (ints), or in a cluster or block 0 (floats)", REDUCE64(512, v_best, best_params) },
	{ .name = "cub", .summary = "cub::DeviceReduce::Sum (CCCL): two launches, one value out; the reference", REDUCE64(0, v_cub, params) },
};

} // namespace

LAB_PLUGIN("reduce",
	   "parallel reduction: the book's ladder against CUB",
	   exercises,
	   .baseline = "neighbored",
	   .reference = "cub")
