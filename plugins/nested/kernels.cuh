/*
 * The dynamic-parallelism kernels of the execution-model chapter, ported
 * to CDP2 (CUDA 12 and later; the only form sm_90 runs): a kernel can no
 * longer wait for its children with cudaDeviceSynchronize().  What CDP2
 * offers instead, and what each port uses:
 * - a parent grid completes only after all its children have completed,
 *   so the host sees the whole tree finished when the parent is;
 * - a launch into cudaStreamTailLaunch starts only after the whole
 *   launching grid has finished, so it sees every thread's writes.
 */
#ifndef GPULAB_NESTED_KERNELS_CUH
#define GPULAB_NESTED_KERNELS_CUH

#include <cstdio>

/* One line of the device-side log: who ran, where in the launch tree.
 * lineage tells apart threads that are otherwise alike: the root block
 * (hello), 0 (hello_grid), or a block's path from the root (hello_depth). */
struct entry {
	int depth, lineage, block, thread;
};

struct hello_log {
	entry *v;
	unsigned *count;
	bool print;
};

__device__ inline void record(const hello_log &log, int depth, int lineage)
{
	unsigned at = atomicAdd(log.count, 1u);
	log.v[at] = entry{ depth, lineage, (int)blockIdx.x, (int)threadIdx.x };
	if (log.print)
		printf("Recursion=%d: Hello World from thread %d block %d\n", depth, threadIdx.x, blockIdx.x);
}

/* nestedHelloWorld: thread 0 of every block launches a child of one
 * block with half the threads, down to one thread. */
__global__ void nestedHelloWorld(int iSize, int iDepth, int root, hello_log log)
{
	int tid = threadIdx.x;
	if (iDepth == 0)
		root = blockIdx.x;
	record(log, iDepth, root);
	int nthreads = iSize >> 1;
	if (tid == 0 && nthreads > 0)
		nestedHelloWorld<<<1, nthreads>>>(nthreads, iDepth + 1, root, log);
}

/* Child grids keep the block size and halve the blocks: one launch per
 * level, however many blocks. */
__global__ void nestedHelloWorldGrid(int iDepth, hello_log log)
{
	record(log, iDepth, 0);
	if (threadIdx.x == 0 && blockIdx.x == 0 && gridDim.x > 1)
		nestedHelloWorldGrid<<<gridDim.x / 2, blockDim.x>>>(iDepth + 1, log);
}

/* Every block's thread 0 launches 2 blocks x 3 threads until maxDepth;
 * a block's path from the root is its lineage. */
__global__ void nestedHelloWorldDepth(int iDepth, int maxDepth, int path, hello_log log)
{
	int me = path * 2 + blockIdx.x;
	record(log, iDepth, me);
	if (threadIdx.x == 0 && iDepth + 1 < maxDepth)
		nestedHelloWorldDepth<<<2, 3>>>(iDepth + 1, maxDepth, me, log);
}

/* --- recursive reductions: each block reduces blockDim ints in place and
 * leaves its sum in g_odata[blockIdx.x] for the host to add. ---------------- */

/* gpuRecursiveReduce: each block halves its data and launches a child of
 * half the threads on it.  The book then waited for the child with
 * cudaDeviceSynchronize(), which bought nothing here: the parent uses no
 * result of the child.  CDP2 drops the wait; __syncthreads() before the
 * launch makes the block's additions visible to the child. */
__global__ void gpuRecursiveReduce(int *g_idata, int *g_odata, unsigned isize)
{
	unsigned tid = threadIdx.x;
	int *idata = g_idata + blockIdx.x * blockDim.x;
	int *odata = &g_odata[blockIdx.x];
	if (isize == 2) { /* the book: && tid == 0, leaving thread 1 alone at the barrier */
		if (tid == 0)
			g_odata[blockIdx.x] = idata[0] + idata[1];
		return;
	}
	unsigned istride = isize >> 1;
	if (istride > 1 && tid < istride)
		idata[tid] += idata[tid + istride];
	__syncthreads();
	if (tid == 0 && istride > 1)
		gpuRecursiveReduce<<<1, istride>>>(idata, odata, istride);
}

/* gpuRecursiveReduceNosync: no barrier in the block.  The book's thread 0
 * launched the child right after its own addition, while its neighbours
 * might not have done theirs: a race.  In CDP2 the child goes to the
 * tail-launch stream instead, so it starts after the whole parent grid,
 * every addition done, and still nobody waits. */
__global__ void gpuRecursiveReduceNosync(int *g_idata, int *g_odata, unsigned isize)
{
	unsigned tid = threadIdx.x;
	int *idata = g_idata + blockIdx.x * blockDim.x;
	int *odata = &g_odata[blockIdx.x];
	if (isize == 2 && tid == 0) {
		g_odata[blockIdx.x] = idata[0] + idata[1];
		return;
	}
	unsigned istride = isize >> 1;
	if (istride > 1 && tid < istride) {
		idata[tid] += idata[tid + istride];
		if (tid == 0)
			gpuRecursiveReduceNosync<<<1, istride, 0, cudaStreamTailLaunch>>>(idata, odata, istride);
	}
}

/* gpuRecursiveReduce2: one thread of the whole grid launches the next
 * level for every block at once, with the stride as a parameter.  In the
 * book the child could start before the parent's other blocks had added
 * their halves; the tail launch makes it wait for the whole grid. */
__global__ void gpuRecursiveReduce2(int *g_idata, int *g_odata, int iStride, int const iDim)
{
	int *idata = g_idata + blockIdx.x * iDim;
	if (iStride == 1 && threadIdx.x == 0) {
		g_odata[blockIdx.x] = idata[0] + idata[1];
		return;
	}
	idata[threadIdx.x] += idata[threadIdx.x + iStride];
	if (threadIdx.x == 0 && blockIdx.x == 0)
		gpuRecursiveReduce2<<<gridDim.x, iStride / 2, 0, cudaStreamTailLaunch>>>(g_idata, g_odata, iStride / 2, iDim);
}

/* --- what a child grid sees (the chapter's nested execution and its
 * exercise 7): parent and child grids share global memory, consistent at
 * two moments only, the child's launch and its completion. --------------- */

__host__ __device__ inline int parent_value(unsigned i) { return (int)((i * 2654435761u) >> 4); }

/* A block's child: it reads the words its parent block wrote before the
 * launch, counts those that differ (CUDA says none can), and writes
 * each plus one for the grid that looks after it completes. */
__global__ void childSees(const int *data, int *child_out, unsigned base, unsigned *stale)
{
	unsigned i = base + threadIdx.x;
	int v = data[i];
	if (v != parent_value(i))
		atomicAdd(stale, 1u);
	child_out[i] = v + 1;
}

/* Tail-launched by the parent: it starts after the parent grid and all
 * its children have completed, as the book's parent did after
 * cudaDeviceSynchronize(), and counts the children's words it does not
 * see. */
__global__ void afterChildren(const int *child_out, unsigned n, unsigned *late)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n && child_out[i] != parent_value(i) + 1)
		atomicAdd(late, 1u);
}

/* Each block writes its words, makes them visible to its child with
 * __syncthreads (the launch orders thread 0's view, the barrier the
 * block's), and thread 0 launches the child; block 0 also queues the
 * check after every child. */
__global__ void parentWrites(int *data, int *child_out, unsigned n, unsigned *counts)
{
	unsigned base = blockIdx.x * blockDim.x, i = base + threadIdx.x;
	if (i < n)
		data[i] = parent_value(i);
	__syncthreads();
	if (threadIdx.x == 0) {
		unsigned threads = min(blockDim.x, n - base);
		childSees<<<1, threads>>>(data, child_out, base, &counts[0]);
		if (blockIdx.x == 0)
			afterChildren<<<gridDim.x, blockDim.x, 0, cudaStreamTailLaunch>>>(child_out, n, &counts[1]);
	}
}

/* For comparison, launched from the host: the interleaved reduction. */
__global__ void reduceInterleaved(int *g_idata, int *g_odata)
{
	unsigned tid = threadIdx.x;
	int *idata = g_idata + blockIdx.x * blockDim.x;
	for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
		if (tid < stride)
			idata[tid] += idata[tid + stride];
		__syncthreads();
	}
	if (tid == 0)
		g_odata[blockIdx.x] = idata[0];
}

#endif
