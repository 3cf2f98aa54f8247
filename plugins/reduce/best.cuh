/*
 * `best`: a complete reduction in one launch.  A persistent grid (as many
 * blocks as fit on the GPU at once, fewer where the input is small)
 * streams the input with 16-byte loads, eight in flight per thread; each
 * block reduces in registers (a redux or shuffles a warp), and the block
 * sums meet in one of four ways (best_meet): each block adds its int sum
 * and a count in one 64-bit atomic, and the block that counts last has
 * the total; block 0 gathers every block's sum, tagged with the launch's
 * epoch; the last block to finish, counted with an atomic ticket, adds
 * them (the CUDA samples' threadFenceReduction); or, where the grid is
 * one thread-block cluster, in distributed shared memory.  An input that
 * one block covers in one round has a kernel of its own.  It returns one
 * value, as cub::DeviceReduce::Sum does, but in one launch instead of two.
 */
#ifndef GPULAB_REDUCE_BEST_CUH
#define GPULAB_REDUCE_BEST_CUH

#include "book.cuh"

#include <cooperative_groups.h>
#include <cuda/atomic>

#include <cstring>
#include <type_traits>

template <typename T> struct vec4;
template <> struct vec4<int> { using type = int4; };
template <> struct vec4<float> { using type = float4; };

template <typename V>
__device__ __forceinline__ auto hsum(V v) -> decltype(v.x)
{
	return (v.x + v.y) + (v.z + v.w);
}

/* The sum of the `v`s of a warp's first `used` lanes (of at most
 * `lanes`, a power of two; the rest hold 0), in lane 0.  Ints in one
 * instruction where the GPU has it (redux.sync, sm_80 on): a block's sum
 * is on the critical path of every launch, and five dependent shuffles
 * cost more than the loads of a small input.  Floats in as many
 * shuffles as `used` needs. */
template <typename T, unsigned lanes = 32>
__device__ __forceinline__ T warp_sum(T v, unsigned used = lanes)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
	constexpr bool redux = std::is_same_v<T, int>;
#else
	constexpr bool redux = false;
#endif
	if constexpr (redux) {
		return __reduce_add_sync(0xffffffffu, v);
	} else {
#pragma unroll
		for (unsigned off = lanes / 2; off > 0; off >>= 1)
			if (off < used) /* the same in every lane */
				v += __shfl_down_sync(0xffffffffu, v, off);
		return v;
	}
}

/* The sum of the `v`s of the block's `threads` threads (a multiple of
 * 32: BLOCK, or fewer where a one-round block is launched with only the
 * warps it needs), in thread 0: each warp's sum, then warp 0 adds those. */
template <typename T, unsigned BLOCK>
__device__ T block_sum(T v, unsigned threads = BLOCK)
{
	constexpr unsigned warps = BLOCK / 32;
	__shared__ T warp_sums[warps];
	unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, used = threads / 32;
	v = warp_sum(v);
	if (lane == 0)
		warp_sums[warp] = v;
	__syncthreads();
	if (warp == 0)
		v = warp_sum<T, warps>(lane < used ? warp_sums[lane] : T(0), used);
	return v;
}

/* Loads issued together per thread and iteration: with 16 B each, 8 keep
 * enough bytes in flight to cover device-memory latency at full rate. */
const int best_loads = 8;

/* best's kernels promise the compiler at most 1024 threads per SM (half
 * of Hopper's 2048), so it may give each thread 64 registers.  Aiming at
 * 2048, it keeps 32, enough for only four 16-byte loads in flight: the
 * other four waited for the first four's adds (seen in the SASS), which
 * put a second memory latency into every round of loads. */
#define BEST_BOUNDS(BLOCK) __launch_bounds__(BLOCK, 1024 / (BLOCK))

/* One round of a thread's loads: best_loads vectors at i, i + stride,
 * ..., those below nv, all asked for before the first add.  Predicated
 * rather than a separate remainder, so a last, partial round's loads are
 * in flight together too. */
template <typename V, typename I>
__device__ __forceinline__ auto round_sum(const V *__restrict__ in4, I i, I stride, I nv) -> decltype(V{}.x)
{
	V v[best_loads];
#pragma unroll
	for (int k = 0; k < best_loads; k++)
		v[k] = i + k * stride < nv ? in4[i + k * stride] : V{ 0, 0, 0, 0 };
	auto sum = hsum(v[0]);
#pragma unroll
	for (int k = 1; k < best_loads; k++)
		sum += hsum(v[k]);
	return sum;
}

/* Where one block covers the input in one round (a small n), the threads
 * it is launched with: a warp for each best_loads * 32 vectors, at least
 * one (the last n % 4 are warp 0's), at most BLOCK.  A warp without data
 * would still be launched and scheduled: 1024 ints took 3.49 us in a
 * block of 512 threads, 3.30 in one warp (held-timed A/B on an H200;
 * 2^12, four warps, was level either way). */
template <unsigned BLOCK>
inline unsigned tile_threads(size_t n)
{
	size_t warps = (n / 4 + best_loads * 32 - 1) / (best_loads * 32);
	return warps == 0 ? 32 : warps * 32 < BLOCK ? (unsigned)warps * 32 : BLOCK;
}

/* Whether n takes the one-block, one-round kernel (reduceBestTile). */
template <unsigned BLOCK>
inline bool one_tile(unsigned grid, size_t n)
{
	return grid == 1 && n <= 4ull * best_loads * BLOCK;
}

/* This thread's share of such a sum, over `threads` threads: 32-bit
 * indices, one base address and a multiple of the stride per load.
 * On an input this small, the block's instructions, not its bytes, are
 * the time (2^12 ints, read in ncu: stream_sum's took 160 warp
 * instructions a warp against cub's 55). */
template <typename T>
__device__ __forceinline__ T tile_sum(const T *__restrict__ in, unsigned n, unsigned threads)
{
	const unsigned nv = n / 4, t = nv * 4 + threadIdx.x;
	T tail = t < n ? in[t] : T(0);
	return tail + round_sum(reinterpret_cast<const typename vec4<T>::type *>(in), threadIdx.x, threads, nv);
}

/* This thread's share of the sum: the grid streams the input with
 * 16-byte loads, best_loads in flight per thread.
 * - Past one round of the grid, a block reads one contiguous span of
 *   best_loads * BLOCK vectors a round (a warp 512 B a load), and the
 *   spans go round the grid.
 * - Within one round, a thread's loads are a grid apart, so that every
 *   block has some of a small input.
 * Held-timed A/B in one process on five H200s, runs interleaved: the
 * spans took 0.4-0.7% less time than grid-wide strides at 2^28-2^31
 * ints, warm or cold; a first try that used spans within one round as
 * well was 1.5-10% slower than strides there, at 2^15-2^22
 * (docs/reduce.md). */
template <typename T, unsigned BLOCK>
__device__ __forceinline__ T stream_sum(const T *__restrict__ in, size_t n)
{
	using V = typename vec4<T>::type;
	const V *in4 = reinterpret_cast<const V *>(in); /* cudaMalloc aligns to 256 B */
	const size_t nv = n / 4, threads = (size_t)gridDim.x * BLOCK, span = best_loads * BLOCK;
	/* the last n % 4, loaded first so that it is in flight with the rest */
	size_t t = nv * 4 + (size_t)blockIdx.x * BLOCK + threadIdx.x;
	T sum = t < n ? in[t] : T(0);
	if (nv <= best_loads * threads)
		return sum + round_sum(in4, (size_t)blockIdx.x * BLOCK + threadIdx.x, threads, nv);
	for (size_t base = blockIdx.x * span; base < nv; base += gridDim.x * span)
		sum += round_sum(in4, base + threadIdx.x, (size_t)BLOCK, nv);
	return sum;
}

/* Where the block sums of a grid of several blocks meet.  With `packed`
 * (ints), each block adds its sum and 1 to one 64-bit word, and the block
 * whose add finds every other block counted has the total.  With `tagged`,
 * block 0 gathers them: each other block stores its sum and this
 * launch's epoch in one 64-bit word, and block 0 waits for every word to
 * carry the epoch.  One store each and one read, with no fence, atomic
 * or counter to reset; a new epoch per launch tells this launch's sums
 * from the last one's.  Without it, the last block to take a ticket adds
 * the sums that the others stored before taking theirs. */
template <typename T>
struct best_meet {
	unsigned long long *tagged; /* first block: one {epoch, sum} per block, zero before the first launch */
	unsigned epoch;             /* first block: this launch's, never 0 */
	T *partials;                /* last block: one sum per block */
	unsigned *tickets;          /* last block: blocks finished, 0 between launches */
	unsigned long long *packed; /* packed, ints: {blocks counted, carries, sum}, 0 between launches */
};

template <typename T>
__device__ __forceinline__ unsigned long long tag(T sum, unsigned epoch)
{
	unsigned bits;
	static_assert(sizeof(T) == sizeof bits, "a 32-bit sum");
	memcpy(&bits, &sum, sizeof bits);
	return (unsigned long long)epoch << 32 | bits;
}

/* A tagged word carries its sum and epoch together, so relaxed device-
 * scope accesses are enough: no other memory is ordered by them. */
__device__ __forceinline__ unsigned long long load_word(unsigned long long *word)
{
	return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*word).load(cuda::memory_order_relaxed);
}

__device__ __forceinline__ void store_word(unsigned long long *word, unsigned long long x)
{
	cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*word).store(x, cuda::memory_order_relaxed);
}

template <typename T>
__device__ __forceinline__ T untag(unsigned long long x)
{
	unsigned bits = (unsigned)x;
	T sum;
	memcpy(&sum, &bits, sizeof sum);
	return sum;
}

/* The packed word: a count of the blocks that have added in bits 48-63,
 * their sums as 32 unsigned bits in bits 0-47.  The carries out of bit 31
 * collect in bits 32-47, which hold them all for up to 65535 blocks
 * (their sums stay below 65535 * 2^32 < 2^48), so none reaches the count. */
const unsigned packed_count_shift = 48;
const unsigned packed_most_blocks = 65535;

/* The sum rides with the ticket, so the block that counts last has the
 * total from its own atomic: one round trip to L2, where first_block
 * (stores, then block 0 asks) and last_block (a ticket, then a read of
 * the sums) take two.  Ints only: their sum, wrapping at 32 bits, is the
 * same in any order of adds; a float sum is not.  The atomic alone
 * carries the data, so relaxed order is enough.  Held-timed against
 * block 0 gathering, on an H200: 0.2-0.5 us less from 2^15 to 2^22 ints
 * (3.78 us against 4.26 at 2^15, 4.29 against 4.61 at 2^20). */
__device__ inline void packed_adds(int sum, const best_meet<int> &m, int *out)
{
	if (threadIdx.x != 0)
		return;
	cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(*m.packed);
	unsigned long long was = word.fetch_add(1ull << packed_count_shift | (unsigned)sum, cuda::memory_order_relaxed);
	if (was >> packed_count_shift == gridDim.x - 1) { /* every other block's sum is in `was` */
		*out = (int)((unsigned)was + (unsigned)sum);
		word.store(0, cuda::memory_order_relaxed); /* ready for the next launch */
	}
}

/* Words one thread of block 0 asks for before it waits on any: one
 * round trip to L2 for all of them, not one each. */
const int best_gather = 16;

/* This thread's share of the tagged words, `threads` of block 0 taking
 * them in turn (word 0, block 0's own, is `own`): the words of a batch
 * are all asked for, and those without this launch's epoch yet are all
 * asked for again, together, until none is left. */
template <typename T>
__device__ T gather_words(const best_meet<T> &m, unsigned threads, T own)
{
	T v = own;
	for (unsigned k0 = threadIdx.x; k0 < gridDim.x; k0 += best_gather * threads) {
		unsigned long long w[best_gather];
#pragma unroll
		for (int j = 0; j < best_gather; j++) {
			unsigned k = k0 + j * threads;
			w[j] = k && k < gridDim.x ? load_word(&m.tagged[k]) : tag(T(0), m.epoch);
		}
		for (bool waiting = true; waiting;) { /* ask again for all the words not stored yet, together */
			waiting = false;
#pragma unroll
			for (int j = 0; j < best_gather; j++)
				if ((unsigned)(w[j] >> 32) != m.epoch)
					w[j] = load_word(&m.tagged[k0 + j * threads]);
#pragma unroll
			for (int j = 0; j < best_gather; j++)
				waiting |= (unsigned)(w[j] >> 32) != m.epoch;
		}
#pragma unroll
		for (int j = 0; j < best_gather; j++)
			v += untag<T>(w[j]);
	}
	return v;
}

/* Block 0 adds every block's sum, in a fixed order, so a float total is
 * the same from launch to launch; the other blocks only store theirs.
 * Up to 32 * best_gather blocks (every grid `auto` gathers), warp 0
 * alone takes the words and adds them with shuffles: no barrier and no
 * second pass through shared memory.  Held-timed against the whole
 * block gathering, on an H200: 2^20 ints 4.83 us against 4.99, 2^21
 * 5.34 against 5.63, floats 2-3% less at 2^18-2^22; at 8-14 blocks
 * (2^16, 100003) within one tick of the timer (0.16 us), either way. */
template <typename T, unsigned BLOCK>
__device__ void gather_first(T sum, const best_meet<T> &m, T *out)
{
	if (blockIdx.x != 0) {
		if (threadIdx.x == 0)
			store_word(&m.tagged[blockIdx.x], tag(sum, m.epoch));
		return;
	}
	T own = threadIdx.x == 0 ? sum : T(0), v;
	if (gridDim.x <= 32u * best_gather) {
		if (threadIdx.x >= 32)
			return;
		v = warp_sum(gather_words(m, 32, own));
	} else {
		v = gather_words(m, BLOCK, own);
		__syncthreads(); /* block_sum's warp_sums: its first use is read */
		v = block_sum<T, BLOCK>(v);
	}
	if (threadIdx.x == 0)
		*out = v;
}

/* The last block to take a ticket adds the sums the others stored: of
 * `of` blocks taking part (every block of the grid, or one a cluster in
 * reduce.one_pass), this one the `me`th. */
template <typename T, unsigned BLOCK>
__device__ void last_adds(T sum, const best_meet<T> &m, T *out, unsigned me, unsigned of)
{
	__shared__ bool last;
	if (threadIdx.x == 0) {
		m.partials[me] = sum;
		/* release: the sum is visible before the ticket is; acquire:
		 * the last block sees every sum.  The book's __threadfence()
		 * is a sequentially consistent fence, more than this needs
		 * (measured level or slightly slower, docs/bench-reduce-small.md) */
		cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket(*m.tickets);
		last = ticket.fetch_add(1u, cuda::memory_order_acq_rel) == of - 1;
	}
	__syncthreads();
	if (!last)
		return;
	sum = 0;
	for (unsigned k = threadIdx.x; k < of; k += BLOCK)
		sum += __ldcg(&m.partials[k]); /* from L2, where the ticket's release put them */
	sum = block_sum<T, BLOCK>(sum);
	if (threadIdx.x == 0) {
		*out = sum;
		*m.tickets = 0; /* ready for the next launch */
	}
}

/* An input that one block covers in one round (one_tile), in one block
 * of tile_threads.  A kernel of its own: as a branch of reduceBest, with
 * that kernel's code and its 64 registers (48 here), it took one more
 * tick of the timer (0.19 us) at some of 1024-16384, ints and floats:
 * 4096 ints 3.52 us against 3.33 now, where CUB took 3.52; 16384 floats
 * 3.94 against 3.74 (held-timed A/B on two H200s).  Its launch_bounds
 * stay best's: with 32 registers it took a tick more again. */
template <typename T, unsigned BLOCK>
__global__ void BEST_BOUNDS(BLOCK) reduceBestTile(const T *__restrict__ in, unsigned n, T *out)
{
	T sum = block_sum<T, BLOCK>(tile_sum<T>(in, n, blockDim.x), blockDim.x);
	if (threadIdx.x == 0)
		*out = sum;
}

template <typename T, unsigned BLOCK>
__global__ void BEST_BOUNDS(BLOCK) reduceBest(const T *__restrict__ in, size_t n, best_meet<T> m, T *out)
{
	T sum = block_sum<T, BLOCK>(stream_sum<T, BLOCK>(in, n));
	if (gridDim.x == 1) { /* -p blocks=1: one block has the whole sum */
		if (threadIdx.x == 0)
			*out = sum;
	} else if (m.tagged) {
		gather_first<T, BLOCK>(sum, m, out);
	} else if (!m.packed) {
		last_adds<T, BLOCK>(sum, m, out, blockIdx.x, gridDim.x);
	} else if constexpr (std::is_same_v<T, int>) { /* a float grid is never packed: plan() refuses it */
		packed_adds(sum, m, out);
	}
}

/*
 * Where the grid is small enough to be one thread-block cluster (Hopper:
 * up to 16 blocks on SMs of one GPC), the block sums meet in distributed
 * shared memory behind the cluster's hardware barrier, with no atomic or
 * second trip through L2.  One barrier phase does it: each block stores
 * its sum straight into rank 0's shared memory and arrives (release);
 * only rank 0 waits (acquire) and adds them, so the other blocks may
 * leave at once.  A first, relaxed phase, arrived at on entry and waited
 * on only after the loads, makes sure rank 0 has started before anyone
 * writes to its shared memory, at no cost.  (cluster.sync() twice, read
 * by rank 0 from the others, took 5.1 us at 2^16 ints; this, 4.7.)
 */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
/* The first phase: every block arrives on entry (cluster_meet waits). */
__device__ __forceinline__ void cluster_arrive_started()
{
	asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
}

/* The block sums (thread 0's `sum`) of a cluster of at most 16 blocks,
 * met in rank 0's shared memory, after cluster_arrive_started.  True in
 * every thread of rank 0, whose thread 0 has the cluster's sum in
 * *total; false in the other blocks, which may leave. */
template <typename T>
__device__ __forceinline__ bool cluster_meet(T sum, T *total)
{
	namespace cg = cooperative_groups;
	cg::cluster_group cluster = cg::this_cluster();
	__shared__ T sums[16]; /* rank 0's: one per block of the cluster */
	asm volatile("barrier.cluster.wait.aligned;" ::: "memory"); /* every block has started */
	unsigned rank = cluster.block_rank();
	if (threadIdx.x == 0)
		*cluster.map_shared_rank(&sums[rank], 0) = sum;
	asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
	if (rank != 0)
		return false;
	asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
	if (threadIdx.x < 32) {
		T v = threadIdx.x < cluster.num_blocks() ? sums[threadIdx.x] : T(0);
		*total = warp_sum<T, 16>(v);
	}
	return true;
}
#endif

#endif
