// Races: it counts in shared memory with a plain ++, not atomicAdd.  Two
// threads of a warp with the same value read the count at once and both
// write back count + 1, so one is lost; with 32 values in 256 bins a
// warp has such a pair more often than not.  Wrong once a case has
// enough elements.
// gpulab: block=256 per_thread=16

template <typename T>
__global__ void histogram(const T *in, unsigned *bins, unsigned n)
{
	__shared__ unsigned counts[256];
	counts[threadIdx.x] = 0;
	__syncthreads();
	for (unsigned k = 0; k < 16; k++) {
		size_t i = (size_t)blockIdx.x * GPULAB_TILE_X + k * 256 + threadIdx.x;
		if (i < n)
			counts[in[i]]++; /* the race: a read and a write, not one atomic step */
	}
	__syncthreads();
	atomicAdd(&bins[threadIdx.x], counts[threadIdx.x]);
}
