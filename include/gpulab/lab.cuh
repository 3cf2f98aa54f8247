/*
 * <gpulab/lab.cuh> - what every CUDA plugin of gpulab needs, so that a
 * plugin holds its kernels and its lesson, not plumbing:
 *
 *   LAB_PLUGIN(...)         the plugin's descriptor and its entry point, in one line
 *   LAB_TRY, LAB_LAUNCHED   checked CUDA calls: one line naming the call
 *   LAB_TYPED(fn)           a step for both element types from fn<int>, fn<float>
 *   LAB_TEARDOWN(S)         the teardown of a typed state S<int> or S<float>
 *   lab::teardown<S>        the teardown of a state that is no template: an
 *                           exercise of one type (.dtypes = GPULAB_INT32, its
 *                           steps plain functions, no LAB_TYPED) gives
 *                           .teardown = lab::teardown<my_state>
 *   lab::make_state, lab::state_of
 *                           setup's new state in ctx->state, and the steps' view
 *   lab::opts<Opts>, lab::stream
 *                           the keys' struct as gpulab filled it, the run's stream
 *   lab::host_vector        a host vector sized without throwing: ENOMEM is a line
 *   lab::elem_size, lab::bytes
 *                           the element type's size, and count elements' bytes
 *   LAB_SEED(Opts, field)   the shared `seed` parameter
 *   lab::state              device and pinned buffers freed on teardown,
 *                           also after a half-failed setup
 *   lab::poison             outputs filled with 0xff before every run
 *   state::alloc_guarded, lab::check_guards
 *                           buffers between guard zones: a write outside
 *                           one is caught, a read past one reads poison
 *   lab::fill, lab::rng     test data that sums exactly; lab::draw_at, element i
 *                           of it alone, and lab::fill_device, the same data
 *                           made on the GPU (no host copy to upload)
 *   lab::in_slices, lab::check_device
 *                           host work over the CPU's cores: a reference made,
 *                           or a device array checked, slice by slice
 *   lab::sum_reference, lab::add_up, lab::expect_sum
 *                           a sum on the CPU, as the GPU adds, and its check
 *   lab::grid               blocks for a thread an element, clamped to what a
 *                           grid holds: the kernel strides by the grid
 *   lab::launched           a run's end: the launch's error, if any
 *   lab::copy_back, lab::expect_equal, lab::expect_device, lab::expect_moved,
 *   lab::close_enough
 *                           comparisons naming the first mismatch
 *   lab::persistent_grid    as many blocks of a kernel as the GPU holds at once
 *   lab::code_arch, lab::need_code
 *                           the architecture a kernel's code was built for, and
 *                           a refusal where this build has none for sm_XY
 *
 * Header-only: each plugin is its own shared object, and device code
 * cannot be shared across them anyway.  C++20, for the designated
 * initialisers that declare exercises and parameters by name.
 */
#ifndef GPULAB_LAB_CUH
#define GPULAB_LAB_CUH

#include <gpulab/plugin.h>

#include <cuda_runtime.h>

#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <new>
#include <sched.h>
#include <system_error>
#include <thread>
#include <type_traits>
#include <vector>

/* What both the host and the GPU run (test data): nvcc's qualifiers, none
 * for a C++ compiler that includes this header for its host parts. */
#ifdef __CUDACC__
#define LAB_HD __host__ __device__
#else
#define LAB_HD
#endif

/* Evaluate a CUDA call; on failure say which, and return GPULAB_ECUDA. */
#define LAB_TRY(ctx, call)                                                          \
	do {                                                                        \
		cudaError_t lab_e_ = (call);                                        \
		if (lab_e_ != cudaSuccess) {                                        \
			(ctx)->error((ctx), "%s: %s", #call, cudaGetErrorString(lab_e_)); \
			return GPULAB_ECUDA;                                        \
		}                                                                   \
	} while (0)

/* After a launch: the launch error, if any. */
#define LAB_LAUNCHED(ctx) LAB_TRY(ctx, cudaGetLastError())

/* A step for both element types, from a template instantiated for each:
 *   .run = LAB_TYPED(run_t),  where  template <typename T> int run_t(gpulab_ctx *); */
#define LAB_TYPED(fn) (lab::typed<fn<int>, fn<float>>)

/* The `seed` parameter every exercise with random input shares.  The core
 * draws a number for "random" and records it in every report, so any row
 * can be rerun with its input. */
#define LAB_SEED(Opts, field)                                                           \
	gpulab_param {                                                                  \
		.key = "seed", .type = GPULAB_PARAM_SEED, .offset = offsetof(Opts, field), \
		.def = "random", .help = "input seed; the report records the one drawn"  \
	}

/* A step's teardown for a state that is a template on the element type,
 * S<int> or S<float> (each derived from lab::state), as made by
 * lab::make_state in a LAB_TYPED setup:  .teardown = LAB_TEARDOWN(state) */
#define LAB_TEARDOWN(S) (lab::typed_teardown<S>)

/* The plugin's descriptor and the one symbol it exports, from its name,
 * summary and array of exercises; the descriptor's optional fields, in
 * their order, may follow:
 *   LAB_PLUGIN("scale", "what it teaches", exercises, .baseline = "naive")
 * Once in a plugin, at file scope, outside any namespace. */
#define LAB_PLUGIN(Name, Summary, Exercises, ...)                                                     \
	static const gpulab_plugin lab_plugin_ = { GPULAB_PLUGIN_HEAD, .name = Name, .summary = Summary,   \
						   .exercises = Exercises,                                 \
						   .n_exercises = sizeof(Exercises) / sizeof((Exercises)[0]), \
						   __VA_ARGS__ };                                          \
	GPULAB_PLUGIN_ENTRY                                                                           \
	{                                                                                             \
		return &lab_plugin_;                                                                  \
	}

namespace lab {

inline cudaStream_t stream(const gpulab_ctx *ctx)
{
	return reinterpret_cast<cudaStream_t>(ctx->stream);
}

/* The exercise's parameter struct, as the core filled it in. */
template <typename Opts>
inline const Opts &opts(const gpulab_ctx *ctx)
{
	return *static_cast<const Opts *>(ctx->params);
}

inline bool pow2(uint64_t x) { return x && !(x & (x - 1)); }

inline uint64_t div_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* The most blocks a grid's x dimension holds. */
constexpr uint64_t max_grid = (1ull << 31) - 1;

/* Blocks of ctx->block threads for one thread an element, in 64-bit
 * arithmetic, at most max_grid: past that (n = 2^32 with -b 1) the
 * count is clamped, so a kernel launched with it strides by the grid,
 *     for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
 *          i < n; i += (uint64_t)gridDim.x * blockDim.x)
 * as the skeleton's does, and covers every element.  (Returned as an
 * unsigned once, it made 2^32 blocks 0: a launch that did nothing.) */
inline unsigned grid(const gpulab_ctx *ctx)
{
	uint64_t want = div_up(ctx->elements, ctx->block ? ctx->block : 1);
	return (unsigned)(want < max_grid ? want : max_grid);
}

inline const char *type_name(const gpulab_ctx *ctx) { return ctx->dtype == GPULAB_INT32 ? "int" : "float"; }

/* The size of one element of the run's type, and of count of them: what
 * plan() declares its traffic and footprint in. */
inline size_t elem_size(const gpulab_ctx *ctx) { return ctx->dtype == GPULAB_INT32 ? sizeof(int) : sizeof(float); }

inline uint64_t bytes(const gpulab_ctx *ctx, uint64_t count) { return count * elem_size(ctx); }

template <int (*I)(gpulab_ctx *), int (*F)(gpulab_ctx *)>
int typed(gpulab_ctx *ctx)
{
	return ctx->dtype == GPULAB_INT32 ? I(ctx) : F(ctx);
}

/* An exercise's state derives from this: what alloc() and alloc_pinned()
 * hand out is freed when the state is deleted, so a setup that fails
 * half-way leaves nothing behind once teardown has run. */
struct state {
	state() = default;
	state(const state &) = delete;
	state &operator=(const state &) = delete;
	virtual ~state()
	{
		for (void *p : device_)
			cudaFree(p);
		for (void *p : pinned_)
			cudaFreeHost(p);
	}

	template <typename T>
	int alloc(gpulab_ctx *ctx, T **p, size_t count)
	{
		return keep(ctx, cudaMalloc((void **)p, count * sizeof(T)), (void **)p, device_, cudaFree, "cudaMalloc",
			    count * sizeof(T));
	}

	/* count elements between two guard zones of guard_bytes, all of it
	 * 0xff bytes: a kernel that reads past the buffer reads NaN or -1,
	 * one that writes next to it changes a guard, which check_guards
	 * finds.  *p is 256-byte aligned, as cudaMalloc's pointers are. */
	static constexpr size_t guard_bytes = 64 * 1024;
	template <typename T>
	int alloc_guarded(gpulab_ctx *ctx, T **p, size_t count)
	{
		unsigned char *base;
		int rc = alloc(ctx, &base, count * sizeof(T) + 2 * guard_bytes);
		if (rc != GPULAB_OK)
			return rc;
		LAB_TRY(ctx, cudaMemset(base, 0xff, count * sizeof(T) + 2 * guard_bytes));
		*p = reinterpret_cast<T *>(base + guard_bytes);
		return GPULAB_OK;
	}

	/* Page-locked host memory, so copies back are asynchronous. */
	template <typename T>
	int alloc_pinned(gpulab_ctx *ctx, T **p, size_t count)
	{
		return keep(ctx, cudaMallocHost((void **)p, count * sizeof(T)), (void **)p, pinned_, cudaFreeHost,
			    "cudaMallocHost", count * sizeof(T));
	}

private:
	/* Remember *p for the destructor, or say why there is none. */
	int keep(gpulab_ctx *ctx, cudaError_t e, void **p, std::vector<void *> &list, cudaError_t (*release)(void *),
		 const char *what, size_t bytes)
	{
		if (e == cudaSuccess) {
			try {
				list.push_back(*p);
				return GPULAB_OK;
			} catch (const std::bad_alloc &) {
				release(*p);
				*p = nullptr;
				ctx->error(ctx, "out of host memory");
				return GPULAB_ENOMEM;
			}
		}
		*p = nullptr;
		ctx->error(ctx, "%s of %zu bytes: %s", what, bytes, cudaGetErrorString(e));
		return GPULAB_ECUDA;
	}

	std::vector<void *> device_, pinned_;
};

/* setup's first step: a new S (derived from lab::state) as ctx->state. */
template <typename S>
int make_state(gpulab_ctx *ctx, S **out)
{
	*out = new (std::nothrow) S;
	ctx->state = *out;
	if (*out)
		return GPULAB_OK;
	ctx->error(ctx, "out of host memory");
	return GPULAB_ENOMEM;
}

template <typename S>
S *state_of(gpulab_ctx *ctx)
{
	return static_cast<S *>(ctx->state);
}

/* The teardown of every exercise whose state is an S. */
template <typename S>
void teardown(gpulab_ctx *ctx)
{
	delete static_cast<S *>(ctx->state);
	ctx->state = nullptr;
}

/* LAB_TEARDOWN's: the teardown of S<int> or S<float>, by the run's type. */
template <template <typename> class S>
void typed_teardown(gpulab_ctx *ctx)
{
	if (ctx->dtype == GPULAB_INT32)
		teardown<S<int>>(ctx);
	else
		teardown<S<float>>(ctx);
}

/* Fill an output with 0xff bytes (NaN for floats, -1 for ints) before a
 * run, so that an element the kernel never writes cannot pass. */
inline int poison(gpulab_ctx *ctx, void *p, size_t bytes)
{
	LAB_TRY(ctx, cudaMemsetAsync(p, 0xff, bytes, stream(ctx)));
	return GPULAB_OK;
}

/* A host vector of n elements, or GPULAB_ENOMEM saying so. */
template <typename T>
int host_vector(gpulab_ctx *ctx, std::vector<T> &v, size_t n);

/* Are the guard zones around the count elements at p (from
 * state::alloc_guarded) still untouched?  Else one line naming the first
 * element written outside, and GPULAB_WRONG. */
template <typename T>
int check_guards(gpulab_ctx *ctx, const char *name, const T *p, size_t count)
{
	const size_t g = state::guard_bytes;
	std::vector<unsigned char> before, after;
	int rc = host_vector(ctx, before, g);
	if (rc != GPULAB_OK || (rc = host_vector(ctx, after, g)) != GPULAB_OK)
		return rc;
	LAB_TRY(ctx, cudaMemcpy(before.data(), (const unsigned char *)p - g, g, cudaMemcpyDeviceToHost));
	LAB_TRY(ctx, cudaMemcpy(after.data(), p + count, g, cudaMemcpyDeviceToHost));
	for (size_t i = 0; i < g; i++) /* the nearest first */
		if (before[g - 1 - i] != 0xff) {
			ctx->error(ctx, "%s: wrote outside it, at element -%zu (before the start)", name, i / sizeof(T) + 1);
			return GPULAB_WRONG;
		}
	for (size_t i = 0; i < g; i++)
		if (after[i] != 0xff) {
			ctx->error(ctx, "%s: wrote outside it, at element %zu of %zu (past the end)", name,
				   count + i / sizeof(T), count);
			return GPULAB_WRONG;
		}
	return GPULAB_OK;
}

/* Enough blocks of `kernel` to fill every SM once, and no more than
 * `useful`, the blocks with work to do. */
inline int persistent_grid(gpulab_ctx *ctx, const void *kernel, unsigned threads, uint64_t useful, unsigned *grid)
{
	int dev, sms, per_sm = 0;
	LAB_TRY(ctx, cudaGetDevice(&dev));
	LAB_TRY(ctx, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	LAB_TRY(ctx, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)threads, 0));
	uint64_t resident = (uint64_t)sms * (per_sm ? per_sm : 1);
	*grid = (unsigned)(useful < resident ? (useful ? useful : 1) : resident);
	return GPULAB_OK;
}

/* The architecture of the PTX that `kernel`'s running code was compiled
 * from (90 for sm_90), which decides its __CUDA_ARCH__: on a Hopper, a
 * build without sm_90 code runs older PTX that the driver compiles at
 * load, so a body guarded by __CUDA_ARCH__ >= 900 is its fallback (a
 * trap).  0 where the call fails. */
inline cudaError_t code_arch(const void *kernel, int *arch)
{
	cudaFuncAttributes a;
	cudaError_t e = cudaFuncGetAttributes(&a, kernel);
	*arch = e == cudaSuccess ? a.ptxVersion : 0;
	return e;
}

/* setup's refusal of a kernel this build has no sm_`arch` code of (the
 * GPU's own features, clusters or the copy engine, are the caller's to
 * check first): one line saying how to build it, and GPULAB_EPARAM. */
inline int need_code(gpulab_ctx *ctx, const void *kernel, int arch)
{
	int got;
	LAB_TRY(ctx, code_arch(kernel, &got));
	if (got >= arch)
		return GPULAB_OK;
	ctx->error(ctx, "this build has no sm_%d code for it (configure --with-cuda-arch with %d or later)", arch, arch);
	return GPULAB_EPARAM;
}

template <typename T>
int host_vector(gpulab_ctx *ctx, std::vector<T> &v, size_t n)
{
	try {
		v.resize(n);
		return GPULAB_OK;
	} catch (const std::bad_alloc &) {
		ctx->error(ctx, "no host memory for %zu elements", n);
		return GPULAB_ENOMEM;
	}
}

/* A run's last step: GPULAB_OK, or the launch's error named. */
inline int launched(gpulab_ctx *ctx)
{
	LAB_LAUNCHED(ctx);
	return GPULAB_OK;
}

/* The device's n elements at p, into v. */
template <typename T>
int copy_back(gpulab_ctx *ctx, std::vector<T> &v, const T *p, size_t n)
{
	int rc = host_vector(ctx, v, n);
	if (rc != GPULAB_OK)
		return rc;
	LAB_TRY(ctx, cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
	return GPULAB_OK;
}

/* splitmix64: fast, good enough for test data, the same on every host.
 * Its state only counts (s += the constant), so value i of a stream is
 * reached at once: lab::draw_at. */
struct rng {
	uint64_t s;
	LAB_HD uint64_t next()
	{
		uint64_t z = (s += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		return z ^ (z >> 31);
	}
};

/* Test values: ints in [0, 255] as in the book; floats k/256 for k in
 * [-256, 256], so every float they sum to below 2^16 is exact and a
 * reordered sum is still exact. */
template <typename T>
LAB_HD inline T draw(rng &r)
{
	uint64_t v = r.next();
	if (std::is_same<T, int>::value)
		return (T)(v & 0xff);
	return (T)((int)(v % 513) - 256) / (T)256;
}

/* Value i of fill(seed), alone: the stream's state after i steps. */
template <typename T>
LAB_HD inline T draw_at(uint64_t seed, uint64_t i)
{
	rng r{ seed + i * 0x9e3779b97f4a7c15ull };
	return draw<T>(r);
}

/* The host's threads for work over large arrays: every core this process
 * may run on (a launcher that binds a rank to one core gets one), up to
 * 16 (past that the memory's bandwidth, not the cores, bounds it). */
inline unsigned host_threads()
{
	cpu_set_t mine;
	unsigned n = std::thread::hardware_concurrency();
	if (sched_getaffinity(0, sizeof mine, &mine) == 0)
		n = (unsigned)CPU_COUNT(&mine);
	return std::clamp(n, 1u, 16u);
}

/* f(lo, hi) over [0, n) cut into slices, one a thread, side by side where
 * n is large (from 2^20; below, one call: a thread costs tens of
 * microseconds).  f returns the first index of its slice it found wrong,
 * or hi; in_slices returns the lowest of them, or n.  Without threads
 * (none can be started) the slices run in turn: slower, same answer. */
template <typename F>
uint64_t in_slices(uint64_t n, F f)
{
	unsigned k = n >= (1ull << 20) ? host_threads() : 1;
	std::vector<uint64_t> first(k, n);
	std::vector<std::thread> ts;
	auto slice = [&](unsigned t) {
		uint64_t lo = n / k * t, hi = t + 1 == k ? n : n / k * (t + 1), at = f(lo, hi);
		first[t] = at < hi ? at : n;
	};
	for (unsigned t = 1; t < k; t++) {
		try {
			ts.emplace_back(slice, t);
		} catch (const std::system_error &) {
			slice(t);
		}
	}
	slice(0);
	for (std::thread &t : ts)
		t.join();
	return *std::min_element(first.begin(), first.end());
}

/* lab::fill's n values of seed into h, slice by slice on the host's
 * cores: the same values as one pass, since value i is draw_at(seed, i). */
template <typename T>
inline void fill(T *h, uint64_t n, uint64_t seed)
{
	in_slices(n, [=](uint64_t lo, uint64_t hi) {
		rng r{ seed + lo * 0x9e3779b97f4a7c15ull };
		for (uint64_t i = lo; i < hi; i++)
			h[i] = draw<T>(r);
		return hi;
	});
}

/* The device's n elements at p, checked on the host: bad(i, v) says
 * whether element i, holding v, is wrong.  They come back in pieces of
 * 64 MiB through one pinned buffer, each piece checked on every core
 * (in_slices): no host array of the whole output (4 GiB at 2^30 floats),
 * and no pass to zero one.  *first is the lowest wrong index, or n, and
 * *got what it holds. */
template <typename T, typename Bad>
int check_device(gpulab_ctx *ctx, const T *p, uint64_t n, Bad bad, uint64_t *first, T *got)
{
	const uint64_t piece = (64ull << 20) / sizeof(T);
	T *h = nullptr;
	*first = n;
	if (n == 0)
		return GPULAB_OK;
	LAB_TRY(ctx, cudaMallocHost(&h, std::min(n, piece) * sizeof(T)));
	for (uint64_t at = 0; at < n && *first == n; at += piece) {
		const uint64_t m = std::min(piece, n - at);
		cudaError_t e = cudaMemcpy(h, p + at, m * sizeof(T), cudaMemcpyDeviceToHost);
		if (e != cudaSuccess) {
			cudaFreeHost(h);
			LAB_TRY(ctx, e);
		}
		uint64_t wrong = in_slices(m, [&](uint64_t lo, uint64_t hi) {
			for (uint64_t i = lo; i < hi; i++)
				if (bad(at + i, h[i]))
					return i;
			return hi;
		});
		if (wrong < m)
			*first = at + wrong, *got = h[wrong];
	}
	cudaFreeHost(h);
	return GPULAB_OK;
}

#ifdef __CUDACC__
template <typename T>
__global__ void fill_kernel(T *p, uint64_t n, uint64_t seed, uint64_t first)
{
	for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
		p[i] = draw_at<T>(seed, first + i);
}

/* lab::fill's values first .. first + n - 1 of seed, made on the GPU that
 * holds p (device `dev`) in its memory, with no host copy to upload: a
 * point of 2^30 elements is set up in milliseconds, not seconds.  The
 * reference stays the CPU's (draw_at, fill), so a wrong value here is a
 * wrong result there.  On the legacy stream; the core waits for setup's
 * work before the first run. */
template <typename T>
int fill_device(gpulab_ctx *ctx, int dev, T *p, uint64_t n, uint64_t seed, uint64_t first = 0)
{
	int was = 0;
	if (n == 0)
		return GPULAB_OK;
	LAB_TRY(ctx, cudaGetDevice(&was));
	LAB_TRY(ctx, cudaSetDevice(dev));
	fill_kernel<T><<<(unsigned)std::min<uint64_t>((n + 255) / 256, 4096), 256>>>(p, n, seed, first);
	cudaError_t e = cudaGetLastError();
	cudaSetDevice(was);
	LAB_TRY(ctx, e);
	return GPULAB_OK;
}
#endif

/* The sum of n values the way the GPU adds them: ints wrapping at 32
 * bits, floats exactly (in double); with sum_abs, the sum of their
 * magnitudes too, for close_enough's tolerance. */
template <typename T>
double exact_sum(const T *h, uint64_t n, double *sum_abs = nullptr)
{
	uint32_t isum = 0;
	double fsum = 0, abs_sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		isum += (uint32_t)h[i];
		fsum += (double)h[i];
		abs_sum += std::fabs((double)h[i]);
	}
	if (sum_abs)
		*sum_abs = abs_sum;
	return std::is_same<T, int>::value ? (double)(int32_t)isum : fsum;
}

/* The CPU's reference for a sum: the exact sum and the magnitudes'. */
template <typename T>
void sum_reference(const T *h, uint64_t n, double *want, double *sum_abs)
{
	*want = exact_sum(h, n, sum_abs);
}

/* The book's last step: the host adds per-block sums, and a float sum
 * rounds to float, as the result's type. */
template <typename T>
double add_up(const T *p, uint64_t n)
{
	return (double)(T)exact_sum(p, n);
}

/* Element i's name in a mismatch message: "[i]" by default; a matrix
 * passes its row length for "[row][col]". */
struct where {
	uint64_t row_len = 0;
	void print(char *buf, size_t len, uint64_t i) const
	{
		if (row_len)
			std::snprintf(buf, len, "[%" PRIu64 "][%" PRIu64 "]", i / row_len, i % row_len);
		else
			std::snprintf(buf, len, "[%" PRIu64 "]", i);
	}
};

/* Exactly equal, element by element (a NaN never equals anything, so a
 * poisoned float that was never written fails).  On the first mismatch,
 * one line naming it and GPULAB_WRONG. */
template <typename T>
int expect_equal(gpulab_ctx *ctx, const char *name, const T *got, const T *want, uint64_t n, where w = {})
{
	for (uint64_t i = 0; i < n; i++)
		if (!(got[i] == want[i])) {
			char at[64];
			w.print(at, sizeof at, i);
			ctx->error(ctx, "%s%s: expected %.9g, got %.9g", name, at, (double)want[i], (double)got[i]);
			return GPULAB_WRONG;
		}
	return GPULAB_OK;
}

/* The device's n elements at p, copied back, exactly equal to want's
 * (expect_equal). */
template <typename T>
int expect_device(gpulab_ctx *ctx, const char *name, const T *p, const T *want, uint64_t n, where w = {})
{
	std::vector<T> got;
	int rc = copy_back(ctx, got, p, n);
	return rc != GPULAB_OK ? rc : expect_equal(ctx, name, got.data(), want, n, w);
}

/* Is `got` the sum `want` of n values whose magnitudes add to sum_abs?
 * Ints: exactly (32-bit wrap-around, as the GPU adds).  Floats: within
 * eps * sum_abs * ceil(log2 n + 1), the rounding bound of a summation tree
 * of depth log2 n; with the inputs above every sum is exact in practice,
 * so this only forgives a legitimate change of order. */
inline bool close_enough(int got, double want, double, uint64_t)
{
	return (uint32_t)got == (uint32_t)(int64_t)want;
}

inline bool close_enough(float got, double want, double sum_abs, uint64_t n)
{
	double tol = FLT_EPSILON * sum_abs * std::ceil(std::log2((double)n) + 1);
	return std::fabs((double)got - want) <= tol;
}

/* Is `got` the sum of the n values of seed `seed`?  Else one line with
 * both, how to draw the same input again, and the likely cause where the
 * caller knows one (`hint`, after "; "). */
template <typename T>
int expect_sum(gpulab_ctx *ctx, T got, double want, double sum_abs, uint64_t n, uint64_t seed, const char *hint = nullptr)
{
	if (close_enough(got, want, sum_abs, n))
		return GPULAB_OK;
	ctx->error(ctx, "sum of %" PRIu64 " %s: expected %.17g, got %.17g (-p seed=%" PRIu64 " reproduces)%s%s", n,
		   std::is_same<T, int>::value ? "ints" : "floats", want, (double)got, seed, hint ? "; " : "",
		   hint ? hint : "");
	return GPULAB_WRONG;
}

/* Is the device's rows x cols output at out the input `in` moved, bit
 * for bit: transposed (out[c][r] = in[r][c]) or copied?  Else one line
 * naming the first element out of place and the input it should hold. */
template <typename T>
int expect_moved(gpulab_ctx *ctx, const T *out, const T *in, size_t rows, size_t cols, bool transposed)
{
	std::vector<T> got;
	int rc = copy_back(ctx, got, out, rows * cols);
	if (rc != GPULAB_OK)
		return rc;
	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < cols; c++) {
			size_t at = transposed ? c * rows + r : r * cols + c, width = transposed ? rows : cols;
			if (std::memcmp(&got[at], &in[r * cols + c], sizeof(T))) {
				ctx->error(ctx, "out[%zu][%zu]: expected in[%zu][%zu] = %.9g, got %.9g", at / width, at % width, r,
					   c, (double)in[r * cols + c], (double)got[at]);
				return GPULAB_WRONG;
			}
		}
	return GPULAB_OK;
}

} // namespace lab

#endif
