/*
 * The reduction ladder past the book: four rungs from `shfl` (the book's
 * last) to `best`, each adding one idea to the one before.
 *   wide         16-byte loads: one int4/float4 per thread, a quarter of
 *                the blocks and load instructions;
 *   persistent   a grid only as large as the GPU holds at once, each
 *                thread with best_loads 16-byte loads in flight a round
 *                (bytes in flight per SM: Little's law);
 *   cluster      the blocks of a thread-block cluster add their sums in
 *                rank 0's shared memory (distributed shared memory), so
 *                one sum a cluster, not a block, goes back to the host;
 *   one_pass     the last cluster to take a ticket adds the clusters'
 *                sums: one launch, nothing left for the host.
 * `best` is these four, with its finish chosen by the size and type
 * (best.cuh).  The pieces are best's: vec4, hsum, block_sum, stream_sum,
 * cluster_meet and last_adds.
 */
#ifndef GPULAB_REDUCE_RUNGS_CUH
#define GPULAB_REDUCE_RUNGS_CUH

#include "best.cuh"

/* Blocks a cluster in the cluster rungs, largest first: the portable 8
 * where whole clusters of 8 fill every slot of the persistent grid, else
 * the first smaller one that does (rung_grid in reduce.cu).  On an H200,
 * 8 blocks of 512 (4 SMs of a GPC) left 24 of 264 slots empty; 2 (one
 * SM) leave none. */
constexpr unsigned rung_clusters[] = { 8, 4, 2 };

/* wide: one 16-byte vector a thread (the n % 4 last elements are the
 * grid's first threads'), then the block's sum as shfl makes it. */
template <typename T, unsigned BLOCK>
__global__ void reduceWide(const T *__restrict__ in, size_t n, T *partials)
{
	using V = typename vec4<T>::type;
	const size_t nv = n / 4, i = (size_t)blockIdx.x * BLOCK + threadIdx.x, t = nv * 4 + i;
	T sum = t < n ? in[t] : T(0);
	if (i < nv)
		sum += hsum(reinterpret_cast<const V *>(in)[i]);
	sum = block_sum<T, BLOCK>(sum);
	if (threadIdx.x == 0)
		partials[blockIdx.x] = sum;
}

/* persistent: best's loads (stream_sum), one sum a block. */
template <typename T, unsigned BLOCK>
__global__ void BEST_BOUNDS(BLOCK) reducePersistent(const T *__restrict__ in, size_t n, T *partials)
{
	T sum = block_sum<T, BLOCK>(stream_sum<T, BLOCK>(in, n));
	if (threadIdx.x == 0)
		partials[blockIdx.x] = sum;
}

/* cluster: persistent's sums meet in each cluster's rank 0, one sum a
 * cluster.  best's cluster finish too, with one cluster and partials
 * its output.  Below sm_90 it is never launched: setup refuses, and
 * best_grid() asks for a cluster only where the GPU has them. */
template <typename T, unsigned BLOCK>
__global__ void BEST_BOUNDS(BLOCK) reduceClusterFinish(const T *__restrict__ in, size_t n, T *partials)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
	cluster_arrive_started();
	T sum = block_sum<T, BLOCK>(stream_sum<T, BLOCK>(in, n)), total = T(0);
	if (cluster_meet(sum, &total) && threadIdx.x == 0)
		partials[blockIdx.x / cooperative_groups::this_cluster().dim_blocks().x] = total;
#else
	__trap();
#endif
}

/* one_pass: cluster's, and then each cluster's rank 0 takes a ticket;
 * the last adds the clusters' sums (m: partials and tickets). */
template <typename T, unsigned BLOCK>
__global__ void BEST_BOUNDS(BLOCK) reduceOnePass(const T *__restrict__ in, size_t n, best_meet<T> m, T *out)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
	cluster_arrive_started();
	T sum = block_sum<T, BLOCK>(stream_sum<T, BLOCK>(in, n)), total = T(0);
	if (cluster_meet(sum, &total)) {
		const unsigned C = cooperative_groups::this_cluster().dim_blocks().x;
		last_adds<T, BLOCK>(total, m, out, blockIdx.x / C, gridDim.x / C);
	}
#else
	__trap();
#endif
}

#endif
