/*
 * The reduction kernels of the execution-model (chapter 3) and
 * shared-memory (chapter 5) chapters, in the book's shape, as templates
 * over the element type so int and float share them.
 *
 * What changed from the book, and why:
 * - In-place kernels (everything reducing in global memory) work on a copy
 *   of the input padded with zeros to whole blocks of blockDim x unroll, so
 *   no element is dropped and no thread returns before a __syncthreads():
 *   the book's `if (idx >= n) return;` and `if (idx + 7 * blockDim.x < n)`
 *   lost the tail whenever n was not such a multiple.
 * - Kernels that read the input directly (shared memory, shuffles) load 0
 *   past the end instead.
 * - The book's warp unrolling through a `volatile` pointer assumes a warp
 *   runs in lockstep.  Since Volta (independent thread scheduling) that is
 *   a data race; Tail::volatile_book keeps it for the lesson, and
 *   Tail::syncwarp is the corrected form.
 */
#ifndef GPULAB_REDUCE_BOOK_CUH
#define GPULAB_REDUCE_BOOK_CUH

enum class Tail {
	none,          /* the tree runs down to stride 1 with __syncthreads */
	volatile_book, /* the last warp unrolled through volatile: races */
	syncwarp,      /* the last warp unrolled, __syncwarp between steps */
	syncthreads    /* the book's exercise 4: every step a __syncthreads of the whole block, no volatile */
};

/* The last 64 partial sums of d (tid < 32 only), as the book writes it.
 * C++20 deprecates += on a volatile (warning 3012); the line is the
 * lesson, so it stays, and only here is the warning silenced. */
#pragma nv_diag_suppress 3012
template <typename T>
__device__ void warp_tail_volatile(T *d, unsigned tid)
{
	volatile T *vmem = d;
	vmem[tid] += vmem[tid + 32];
	vmem[tid] += vmem[tid + 16];
	vmem[tid] += vmem[tid + 8];
	vmem[tid] += vmem[tid + 4];
	vmem[tid] += vmem[tid + 2];
	vmem[tid] += vmem[tid + 1];
}
#pragma nv_diag_default 3012

/* The same with every read separated from every write by __syncwarp(). */
template <typename T>
__device__ void warp_tail_sync(T *d, unsigned tid)
{
	T v = d[tid];
#pragma unroll
	for (unsigned off = 32; off > 0; off >>= 1) {
		v += d[tid + off];
		__syncwarp();
		d[tid] = v;
		__syncwarp();
	}
}

/* Exercise 4 of the chapter: the last warp's steps without volatile,
 * each followed by a __syncthreads that every thread of the block must
 * reach (so no thread returns early).  The exercise's `if (tid < 32)
 * idata[tid] += idata[tid + 16]` reads a word another thread of the warp
 * writes in the same step; a barrier between the read and the write
 * keeps the order it meant. */
template <typename T>
__device__ void block_tail_sync(T *d, unsigned tid)
{
	for (unsigned off = 32; off > 0; off >>= 1) {
		T v = tid < 32 ? d[tid] + d[tid + off] : T(0);
		__syncthreads();
		if (tid < 32)
			d[tid] = v;
		__syncthreads();
	}
}

/* Interleaved pairs, halving the stride while it is above `down_to`. */
template <typename T>
__device__ void block_tree(T *d, unsigned tid, unsigned down_to)
{
	for (unsigned stride = blockDim.x / 2; stride > down_to; stride >>= 1) {
		if (tid < stride)
			d[tid] += d[tid + stride];
		__syncthreads();
	}
}

/* The tree unrolled for blocks of up to 1024 threads; BLOCK = 0 reads the
 * size at run time (reduceCompleteUnrollWarps8), otherwise it is a
 * template parameter and the dead branches vanish (reduceCompleteUnroll). */
template <unsigned BLOCK, typename T>
__device__ void complete_tree(T *d, unsigned tid)
{
	const unsigned bs = BLOCK ? BLOCK : blockDim.x;
	if (bs >= 1024 && tid < 512) d[tid] += d[tid + 512];
	__syncthreads();
	if (bs >= 512 && tid < 256) d[tid] += d[tid + 256];
	__syncthreads();
	if (bs >= 256 && tid < 128) d[tid] += d[tid + 128];
	__syncthreads();
	if (bs >= 128 && tid < 64) d[tid] += d[tid + 64];
	__syncthreads();
}

template <Tail TAIL, typename T>
__device__ void warp_tail(T *d, unsigned tid)
{
	if (TAIL == Tail::syncthreads)
		return block_tail_sync(d, tid); /* the whole block, barriers and all */
	if (tid >= 32)
		return;
	if (TAIL == Tail::volatile_book)
		warp_tail_volatile(d, tid);
	else
		warp_tail_sync(d, tid);
}

/* --- chapter 3: in global memory, in place --------------------------------- */

/* reduceNeighbored: the divergent `tid % (2 * stride)` test. */
template <typename T>
__global__ void reduceNeighbored(T *g_idata, T *g_odata)
{
	unsigned tid = threadIdx.x;
	T *idata = g_idata + blockIdx.x * blockDim.x;
	for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
		if ((tid % (2 * stride)) == 0)
			idata[tid] += idata[tid + stride];
		__syncthreads();
	}
	if (tid == 0)
		g_odata[blockIdx.x] = idata[0];
}

/* reduceNeighboredLess: the index remapped so active threads are the
 * first ones, and whole warps go idle instead of diverging. */
template <typename T>
__global__ void reduceNeighboredLess(T *g_idata, T *g_odata)
{
	unsigned tid = threadIdx.x;
	T *idata = g_idata + blockIdx.x * blockDim.x;
	for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
		unsigned index = 2 * stride * tid;
		if (index < blockDim.x)
			idata[index] += idata[index + stride];
		__syncthreads();
	}
	if (tid == 0)
		g_odata[blockIdx.x] = idata[0];
}

/* reduceInterleaved: the stride halves from blockDim / 2. */
template <typename T>
__global__ void reduceInterleaved(T *g_idata, T *g_odata)
{
	unsigned tid = threadIdx.x;
	T *idata = g_idata + blockIdx.x * blockDim.x;
	block_tree(idata, tid, 0);
	if (tid == 0)
		g_odata[blockIdx.x] = idata[0];
}

/* reduceUnrolling2/4/8/16 and reduceUnrollWarps8: each thread first adds
 * F data blocks (the book writes a1 + a2 + ... + a8 out; the unrolled loop
 * compiles to the same), then the interleaved tree.  F = 0 takes the
 * count at run time, so the compiler cannot unroll the loop. */
template <typename T, int F, Tail TAIL>
__global__ void reduceUnrolling(T *g_idata, T *g_odata, int factor)
{
	const int f = F ? F : factor;
	unsigned tid = threadIdx.x;
	unsigned idx = blockIdx.x * blockDim.x * f + threadIdx.x;
	T *idata = g_idata + blockIdx.x * blockDim.x * f;
	T sum = 0;
#pragma unroll
	for (int i = 0; i < f; i++)
		sum += g_idata[idx + i * blockDim.x];
	g_idata[idx] = sum;
	__syncthreads();
	block_tree(idata, tid, TAIL == Tail::none ? 0 : 32);
	if (TAIL != Tail::none)
		warp_tail<TAIL>(idata, tid);
	if (tid == 0)
		g_odata[blockIdx.x] = idata[0];
}

/* The chapter's exercise 3 as the notes write it (001 L1125-1131): unroll8
 * with its adds as a loop of the constant count 8, a pointer stepped by
 * blockDim.x, and no pragma; their claim is that the compiler unrolls it
 * into unroll8's code.  The same adds in the same order as unroll8, so
 * the same sum, floats included. */
template <typename T>
__global__ void reduceUnrollingLoop8(T *g_idata, T *g_odata)
{
	unsigned tid = threadIdx.x;
	unsigned idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
	T *idata = g_idata + blockIdx.x * blockDim.x * 8;
	const T *ptr = g_idata + idx;
	T tmp = 0;
	for (int i = 0; i < 8; i++) {
		tmp += *ptr;
		ptr += blockDim.x;
	}
	g_idata[idx] = tmp;
	__syncthreads();
	block_tree(idata, tid, 0);
	if (tid == 0)
		g_odata[blockIdx.x] = idata[0];
}

/* reduceCompleteUnrollWarps8 (BLOCK = 0), reduceCompleteUnroll<BLOCK>
 * (F = 8) and chapter 5's reduceGmem (F = 1): the whole tree unrolled. */
template <typename T, int F, unsigned BLOCK, Tail TAIL>
__global__ void reduceCompleteUnroll(T *g_idata, T *g_odata)
{
	unsigned tid = threadIdx.x;
	unsigned idx = blockIdx.x * blockDim.x * F + threadIdx.x;
	T *idata = g_idata + blockIdx.x * blockDim.x * F;
	if (F > 1) {
		T sum = 0;
#pragma unroll
		for (int i = 0; i < F; i++)
			sum += g_idata[idx + i * blockDim.x];
		g_idata[idx] = sum;
		__syncthreads();
	}
	complete_tree<BLOCK>(idata, tid);
	warp_tail<TAIL>(idata, tid);
	if (tid == 0)
		g_odata[blockIdx.x] = idata[0];
}

/* --- chapter 5: in shared memory, the input left alone --------------------- */

/* reduceSmem (static shared memory, DYN false), reduceSmemDyn (dynamic,
 * sized at launch: DYN true) and reduceSmemUnroll (F = 4): gmem's kernel
 * with the tree in shared memory.  BLOCK = 0 reads the block size at run
 * time, as gmem does (smem_blockdim: dynamic shared memory, since a
 * static array needs its size when compiling); smem and smem_dyn both
 * take it as a template parameter, so they differ in where the array is
 * declared alone. */
template <typename T, int F, unsigned BLOCK, bool DYN = BLOCK == 0>
__global__ void reduceSmem(const T *g_idata, T *g_odata, unsigned n)
{
	__shared__ T static_smem[BLOCK && !DYN ? BLOCK : 1];
	extern __shared__ unsigned char dyn_smem[];
	T *smem = DYN ? reinterpret_cast<T *>(dyn_smem) : static_smem;
	unsigned tid = threadIdx.x;
	unsigned idx = blockIdx.x * blockDim.x * F + threadIdx.x;
	T sum = 0;
#pragma unroll
	for (int i = 0; i < F; i++)
		if (idx + i * blockDim.x < n)
			sum += g_idata[idx + i * blockDim.x];
	smem[tid] = sum;
	__syncthreads();
	complete_tree<BLOCK>(smem, tid);
	warp_tail<Tail::syncwarp>(smem, tid);
	if (tid == 0)
		g_odata[blockIdx.x] = smem[0];
}

/* --- warp shuffles ----------------------------------------------------------- */

template <typename T>
__device__ T warp_reduce_shfl(T v)
{
#pragma unroll
	for (int off = 16; off > 0; off >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, off);
	return v;
}

/* reduceShfl: each warp reduces in registers; lane 0 of each warp puts
 * its sum in shared memory, and the first warp reduces those. */
template <typename T>
__global__ void reduceShfl(const T *g_idata, T *g_odata, unsigned n)
{
	__shared__ T warp_sums[32];
	unsigned tid = threadIdx.x, idx = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned lane = tid % 32, warp = tid / 32;
	T v = warp_reduce_shfl(idx < n ? g_idata[idx] : T(0));
	if (lane == 0)
		warp_sums[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = warp_reduce_shfl(lane < blockDim.x / 32 ? warp_sums[lane] : T(0));
		if (tid == 0)
			g_odata[blockIdx.x] = v;
	}
}

#endif
