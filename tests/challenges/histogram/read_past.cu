// Reads past its input: it loads int4 vectors, n rounded up to a whole
// number of them, and masks each value with & 255 "to stay in range".
// The last vector's elements past in[n - 1] are the poison (-1), which
// the mask turns into 255: bin 255 counts up to three elements too
// many.  Wrong from the gate's first case, n = 1.
// gpulab: block=256 per_thread=4

template <typename T>
__global__ void histogram(const T *in, unsigned *bins, unsigned n)
{
	unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
	if (v >= (n + 3) / 4) /* the bug: the last vector runs past n */
		return;
	int4 x = reinterpret_cast<const int4 *>(in)[v];
	atomicAdd(&bins[x.x & 255], 1u);
	atomicAdd(&bins[x.y & 255], 1u);
	atomicAdd(&bins[x.z & 255], 1u);
	atomicAdd(&bins[x.w & 255], 1u);
}
