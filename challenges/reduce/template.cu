// gpulab try reduce: your own sum of n ints or floats.  Start from this
// file (`gpulab try reduce --template > mine.cu`), run it with
// `gpulab try reduce mine.cu`, and climb the ladder of `gpulab run reduce`.
//
// The contract, which gpulab checks when it compiles the file:
//
//   template <typename T>
//   __global__ void reduce(const T *in, T *partials, unsigned n)
//
// - T is int or float: gpulab compiles reduce<int> and reduce<float>.
//   Ints add with 32-bit wrap-around; floats are k/256 values that sum
//   exactly, so any order of adding gives the expected sum.
// - in holds the n values and is read-only.  Past in[n - 1] lies poison
//   (NaN, -1): a kernel that reads past the end sums it and fails.
// - Each block writes its sum to partials[blockIdx.x], and gpulab adds the
//   blocks' sums on the host (timed apart, as host ms), as the book does.
//   With finish=device the kernel leaves the whole sum in partials[0]
//   instead, and the other elements are not read.  partials[0] then
//   starts at 0 (gpulab zeroes it inside the timed run, as any caller
//   pays for it), so each block may atomicAdd its sum into it.  Every
//   element you do not write holds poison (-1, NaN): a sum off by
//   exactly that has added one, and the gate says so.
// - The launch is declared on the `gpulab:` line below:
//     block=N         threads per block (at most 1024)
//     per_thread=P    elements each thread covers: the grid is
//                     ceil(n / (N * P)) blocks of N threads
//     grid=persistent as many blocks as the GPU holds at once (at most one
//                     per N * P elements): the kernel loops over the input
//     finish=device   the kernel finishes the sum itself (see above)
//   The source sees them as GPULAB_BLOCK (threads per block) and
//   GPULAB_TILE_X (N * P, the elements one block covers).
// - Before anything is timed, the kernel must give the right sum for
//   n = 1, 31, 33, 1000003, 2^24 + 7 and 2^26, for ints and for floats.
//
// This is the book's reduceInterleaved, one element per thread, with the
// tree in shared memory (so the input stays as it is).  It needs a block
// size that is a power of two.
//
// gpulab: block=512 per_thread=1

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	__shared__ T data[GPULAB_BLOCK];
	unsigned tid = threadIdx.x;
	unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
	data[tid] = idx < n ? in[idx] : T(0); /* past the end: 0 adds nothing */
	__syncthreads();
	/* interleaved pairs: the stride halves from blockDim.x / 2 */
	for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
		if (tid < stride)
			data[tid] += data[tid + stride];
		__syncthreads();
	}
	if (tid == 0)
		partials[blockIdx.x] = data[0];
}
