// gpulab try histogram: your own 256-bin histogram.  Start from this file
// (`gpulab try histogram --template > mine.cu`) and run it with
// `gpulab try histogram mine.cu`.
//
// The contract, which gpulab checks when it compiles the file:
//
//   template <typename T>
//   __global__ void histogram(const T *in, unsigned *bins, unsigned n)
//
// - T is int, and every in[i] is from 0 to 255: bins[v] counts the
//   elements equal to v.  in is read-only.
// - bins is 256 unsigned, zeroed before every run (inside the timed run),
//   so blocks may add into it.  Around every buffer lies poison, and a
//   write outside one is found.
// - The launch is declared on the `gpulab:` line below: block=N threads,
//   and a block covers GPULAB_TILE_X elements (N, or N * per_thread).
// - Before anything is timed, the counts must be right for odd sizes, for
//   inputs all in one bin (every thread adds to the same count), 0 and 255
//   alternating, and sorted input.
//
// This is the book's shared-memory histogram: each block counts its
// elements in shared memory, then adds its 256 counts into bins.
//
// gpulab: block=256

template <typename T>
__global__ void histogram(const T *in, unsigned *bins, unsigned n)
{
	__shared__ unsigned local[256];
	for (unsigned k = threadIdx.x; k < 256; k += blockDim.x)
		local[k] = 0;
	__syncthreads();
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&local[in[i] & 255], 1u);
	__syncthreads();
	for (unsigned k = threadIdx.x; k < 256; k += blockDim.x)
		if (local[k])
			atomicAdd(&bins[k], local[k]);
}
