/*
 * `best`: a complete reduction in one launch.  A persistent grid (as many
 * blocks as fit on the GPU at once, fewer where the input gives a block
 * less than one round of loads) streams the input with 16-byte loads,
 * eight in flight per thread; each block reduces in registers with
 * shuffles, writes its sum, and the last block to finish (counted with an
 * atomic ticket after a fence) adds the block sums; a grid of one cluster
 * adds them in distributed shared memory instead.  It returns one value,
 * as cub::DeviceReduce::Sum does, but in one launch instead of two.
 */
#ifndef GPULAB_REDUCE_BEST_CUH
#define GPULAB_REDUCE_BEST_CUH

#include "book.cuh"

#include <cooperative_groups.h>

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
		__threadfence(); /* the sum is visible before the ticket is */
		last = atomicAdd(tickets, 1u) == gridDim.x - 1;
	}
	__syncthreads();
	if (!last)
		return;
	sum = 0;
	for (unsigned k = threadIdx.x; k < gridDim.x; k += BLOCK)
		sum += __ldcg(&partials[k]); /* from L2, where the fences put them */
	sum = block_sum<T, BLOCK>(sum);
	if (threadIdx.x == 0) {
		*out = sum;
		*tickets = 0; /* ready for the next launch */
	}
}

/*
 * Where the grid is small enough to be one thread-block cluster (Hopper:
 * up to 16 blocks on SMs of one GPC), the block sums meet in distributed
 * shared memory behind the cluster's hardware barrier, with no fence,
 * atomic or second trip through L2.
 */
template <typename T, unsigned BLOCK>
__global__ void __launch_bounds__(BLOCK)
reduceBestCluster(const T *__restrict__ in, size_t n, T *out)
{
	namespace cg = cooperative_groups;
	cg::cluster_group cluster = cg::this_cluster();
	__shared__ T total;
	T sum = block_sum<T, BLOCK>(stream_sum<T, BLOCK>(in, n));
	if (threadIdx.x == 0)
		total = sum;
	cluster.sync(); /* every block's total is written */
	if (cluster.block_rank() == 0 && threadIdx.x < 32) {
		T v = threadIdx.x < cluster.num_blocks() ? *cluster.map_shared_rank(&total, threadIdx.x) : T(0);
		v = warp_reduce_shfl(v);
		if (threadIdx.x == 0)
			*out = v;
	}
	cluster.sync(); /* no block exits, freeing its total, before rank 0 has read it */
}

#endif
