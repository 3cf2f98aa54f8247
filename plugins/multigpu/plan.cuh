/*
 * What every exercise shares: planning (the GPUs, peer reads, the block),
 * the reduce plugin's `best` sum on one GPU, inputs and CPU references.
 * Part of the multigpu plugin, one translation unit: multigpu.cu includes
 * it, and it includes the parts it uses.
 */
#ifndef GPULAB_MULTIGPU_PLAN_CUH
#define GPULAB_MULTIGPU_PLAN_CUH

#include "../reduce/best.cuh"
#include "gpus.cuh"

#include <gpulab/lab.cuh>

#include <atomic>
#include <cinttypes>
#include <vector>

namespace {

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

/* lab::fill's values first .. first + n - 1 of `seed`, made on GPU r in
 * its buffer: no host array, no copy (lab::fill_device). */
template <typename T>
int upload(gpulab_ctx *ctx, unsigned r, T *dev, uint64_t n, uint64_t seed, uint64_t first = 0)
{
	return lab::fill_device(ctx, ctx->devices[r], dev, n, seed, first);
}

/* A sum as the GPU adds: ints wrap at 32 bits; floats exactly, in double,
 * with the magnitudes' sum for the tolerance (lab::close_enough).  Made
 * from the seed on the host's cores (lab::draw_at), never read back from
 * the GPU that made the input. */
struct sum_ref {
	double want = 0, sum_abs = 0;
	/* the n values of lab::fill(seed) */
	template <typename T>
	void of_fill(uint64_t n, uint64_t seed)
	{
		std::atomic<uint32_t> wrapped{ 0 };
		std::atomic<double> exact{ 0 }, mags{ 0 };
		lab::in_slices(n, [&](uint64_t lo, uint64_t hi) {
			double d = 0, a = 0;
			uint32_t u = 0;
			for (uint64_t i = lo; i < hi; i++) {
				T v = lab::draw_at<T>(seed, i);
				u += (uint32_t)v, d += v, a += std::fabs((double)v);
			}
			/* multiples of 1/256 under 2^45: exact in double, so the
			 * slices' order changes nothing */
			wrapped += u, exact += d, mags += a;
			return hi;
		});
		want = std::is_same<T, int>::value ? (double)(int32_t)wrapped.load() : exact.load();
		sum_abs = mags.load();
	}
	template <typename T>
	int check(gpulab_ctx *ctx, T got, uint64_t n, uint64_t seed) const
	{
		return lab::expect_sum(ctx, got, want, sum_abs, n, seed);
	}
};

/* Element i of the sum of the w inputs lab::fill makes with seeds seed ..
 * seed + w - 1, as the GPU adds: ints wrapping at 32 bits, floats exact
 * (in double: multiples of 1/256). */
template <typename T>
double sum_at(uint64_t seed, unsigned w, uint64_t i)
{
	uint32_t u = 0;
	double d = 0;
	for (unsigned q = 0; q < w; q++) {
		T v = lab::draw_at<T>(seed + q, i);
		u += (uint32_t)v, d += v;
	}
	return std::is_same<T, int>::value ? (double)(int32_t)u : d;
}

/* One GPU's output of n elements, checked as it comes back
 * (lab::check_device) against want(i), a sum over w ranks' inputs or a
 * copy of one: the first element off by more than w adds may round is
 * named with its rank and device.  Every collective checks its output
 * here, so a wrong result reads the same whichever went wrong. */
template <typename T, typename Want>
int check_rank_output(gpulab_ctx *ctx, unsigned rank, unsigned r, const void *out, uint64_t n, unsigned w,
		      uint64_t seed, Want want)
{
	uint64_t at;
	T got{};
	auto bad = [&](uint64_t i, T v) { return !lab::close_enough(v, want(i), (double)w, w); };
	int rc = lab::check_device(ctx, (const T *)out, n, bad, &at, &got);
	if (rc != GPULAB_OK || at >= n)
		return rc;
	ctx->error(ctx, "rank %u (device %d): out[%" PRIu64 "]: expected %.9g, got %.9g (-p seed=%" PRIu64 " reproduces)",
		   rank, ctx->devices[r], at, want(at), (double)got, seed);
	return GPULAB_WRONG;
}

/* Fill an output on GPU r with 0xff bytes (NaN, -1) on its own stream. */
int poison_on(gpulab_ctx *ctx, unsigned r, void *p, size_t bytes)
{
	gpus::device_kept keep;
	LAB_TRY(ctx, cudaSetDevice(ctx->devices[r]));
	LAB_TRY(ctx, cudaMemsetAsync(p, 0xff, bytes, gpus::stream(ctx, r)));
	return GPULAB_OK;
}

} // namespace

#endif
