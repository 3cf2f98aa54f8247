// Races: every thread adds its element into one shared total with a
// plain +=, not atomicAdd.  The 32 threads of a warp read the total at
// once and each writes back its own sum, so all but one addition of the
// warp is lost, and the warps race each other as well.  Wrong from the
// first case that has more than one element.
// gpulab: block=256

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	__shared__ T total;
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (threadIdx.x == 0)
		total = 0;
	__syncthreads();
	if (i < n)
		total += in[i]; /* the race: a read, an add and a write, not one atomic step */
	__syncthreads();
	if (threadIdx.x == 0)
		partials[blockIdx.x] = total;
}
