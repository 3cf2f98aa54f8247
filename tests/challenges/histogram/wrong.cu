// Wrong, by one bin: the shared counts are copied out to the global bins
// by a loop that stops at 255 ("bins 0 to 255, so b < 255"): what lands
// in bin 255 is never added.  Right for any input without a 255, wrong
// from the first case that has one.
// gpulab: block=128 per_thread=8

template <typename T>
__global__ void histogram(const T *in, unsigned *bins, unsigned n)
{
	__shared__ unsigned counts[256];
	for (unsigned b = threadIdx.x; b < 256; b += 128)
		counts[b] = 0;
	__syncthreads();
	for (unsigned k = 0; k < 8; k++) {
		size_t i = (size_t)blockIdx.x * GPULAB_TILE_X + k * 128 + threadIdx.x;
		if (i < n)
			atomicAdd(&counts[in[i]], 1u);
	}
	__syncthreads();
	for (unsigned b = threadIdx.x; b < 255; b += 128) /* the bug: b < 256 */
		atomicAdd(&bins[b], counts[b]);
}
