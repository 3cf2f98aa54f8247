/*
 * `best`: a complete reduction in one launch.  A persistent grid (as many
 * blocks as fit on the GPU at once, fewer where the input gives a block
 * less than one round of loads, and one block up to two rounds) streams
 * the input with 16-byte loads, eight in flight per thread; each block
 * reduces in registers with shuffles, writes its sum, and the last block
 * to finish (counted with an acq_rel atomic ticket) adds the block sums;
 * a grid of one cluster adds them in distributed shared memory instead.  It returns one value,
 * as cub::DeviceReduce::Sum does, but in one launch instead of two.
 */
#ifndef GPULAB_REDUCE_BEST_CUH
#define GPULAB_REDUCE_BEST_CUH

#include "book.cuh"

#include <cooperative_groups.h>
#include <cuda/atomic>

template <typename T> struct vec4;
template <> struct vec4<int> { using type = int4; };
template <> struct vec4<float> { using type = float4; };

template <typename V>
__device__ __forceinline__ auto hsum(V v) -> decltype(v.x)
{
	return (v.x + v.y) + (v.z + v.w);
}

/* The sum of the block's `v`s, in thread 0. */
template <typename T, unsigned BLOCK>
__device__ T block_sum(T v)
{
	__shared__ T warp_sums[BLOCK / 32];
	unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	v = warp_reduce_shfl(v);
	if (lane == 0)
		warp_sums[warp] = v;
	__syncthreads();
	v = threadIdx.x < BLOCK / 32 ? warp_sums[threadIdx.x] : T(0);
	if (warp == 0)
		v = warp_reduce_shfl(v);
	return v;
}

/* Loads issued together per thread and iteration: with 16 B each, 8 keep
 * enough bytes in flight to cover device-memory latency at full rate. */
const int best_loads = 8;

/* This thread's share of the sum: the grid streams the input with
 * 16-byte loads, best_loads in flight per thread. */
template <typename T, unsigned BLOCK>
__device__ __forceinline__ T stream_sum(const T *__restrict__ in, size_t n)
{
	using V = typename vec4<T>::type;
	const V *in4 = reinterpret_cast<const V *>(in); /* cudaMalloc aligns to 256 B */
	const size_t nv = n / 4, stride = (size_t)gridDim.x * BLOCK;
	T sum = 0;
	/* predicated rather than a separate remainder loop, so the last
	 * iteration's loads are in flight together too */
	for (size_t i = (size_t)blockIdx.x * BLOCK + threadIdx.x; i < nv; i += best_loads * stride) {
		V v[best_loads];
#pragma unroll
		for (int k = 0; k < best_loads; k++)
			v[k] = i + k * stride < nv ? in4[i + k * stride] : V{ 0, 0, 0, 0 };
#pragma unroll
		for (int k = 0; k < best_loads; k++)
			sum += hsum(v[k]);
	}
	size_t t = nv * 4 + (size_t)blockIdx.x * BLOCK + threadIdx.x; /* the last n % 4 */
	if (t < n)
		sum += in[t];
	return sum;
}

template <typename T, unsigned BLOCK>
__global__ void __launch_bounds__(BLOCK)
reduceBest(const T *__restrict__ in, size_t n, T *partials, unsigned *tickets, T *out)
{
	T sum = block_sum<T, BLOCK>(stream_sum<T, BLOCK>(in, n));
	if (gridDim.x == 1) { /* small n: one block has the whole sum, with no fence, atomic or second pass */
		if (threadIdx.x == 0)
			*out = sum;
		return;
	}

	__shared__ bool last;
	if (threadIdx.x == 0) {
		partials[blockIdx.x] = sum;
		/* release: the sum is visible before the ticket is; acquire:
		 * the last block sees every sum.  The book's __threadfence()
		 * is a sequentially consistent fence, more than this needs
		 * (measured level or slightly slower, docs/bench-reduce-small.md) */
		cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket(*tickets);
		last = ticket.fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x - 1;
	}
	__syncthreads();
	if (!last)
		return;
	sum = 0;
	for (unsigned k = threadIdx.x; k < gridDim.x; k += BLOCK)
		sum += __ldcg(&partials[k]); /* from L2, where the ticket's release put them */
	sum = block_sum<T, BLOCK>(sum);
	if (threadIdx.x == 0) {
		*out = sum;
		*tickets = 0; /* ready for the next launch */
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
template <typename T, unsigned BLOCK>
__global__ void __launch_bounds__(BLOCK)
reduceBestCluster(const T *__restrict__ in, size_t n, T *out)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
	namespace cg = cooperative_groups;
	cg::cluster_group cluster = cg::this_cluster();
	__shared__ T sums[16]; /* rank 0's: one per block of the cluster */
	asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
	T sum = block_sum<T, BLOCK>(stream_sum<T, BLOCK>(in, n));
	asm volatile("barrier.cluster.wait.aligned;" ::: "memory"); /* every block has started */
	unsigned rank = cluster.block_rank();
	if (threadIdx.x == 0)
		*cluster.map_shared_rank(&sums[rank], 0) = sum;
	asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
	if (rank != 0)
		return;
	asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
	if (threadIdx.x < 32) {
		T v = threadIdx.x < cluster.num_blocks() ? sums[threadIdx.x] : T(0);
		v = warp_reduce_shfl(v);
		if (threadIdx.x == 0)
			*out = v;
	}
#else
	__trap(); /* never launched: best_grid() asks for a cluster only where the GPU has them */
#endif
}

#endif
