// Traps: it reads int4 vectors and scans within one block, and checks
// both on the device (n a whole number of vectors, one block), trapping
// (__trap()) as a failed assert would.  n = 1 traps, and so does any
// n past one tile of 1024, the point to be timed (2^20) among them.
// gpulab: block=256 per_thread=4

template <typename T>
__global__ void prefix_sum(const T *in, T *out, unsigned n, unsigned *scratch)
{
	__shared__ unsigned s[256];
	if (n % 4 != 0 || gridDim.x > 1)
		__trap(); /* an input this kernel was not written for */
	unsigned t = threadIdx.x;
	size_t v = (size_t)blockIdx.x * 256 + t;
	int4 x = v < n / 4 ? reinterpret_cast<const int4 *>(in)[v] : make_int4(0, 0, 0, 0);
	s[t] = (unsigned)(x.x + x.y + x.z + x.w);
	__syncthreads();
	for (unsigned off = 1; off < 256; off *= 2) {
		unsigned a = t >= off ? s[t - off] : 0u;
		__syncthreads();
		s[t] += a;
		__syncthreads();
	}
	/* within the one tile: the carry across tiles is not written yet */
	unsigned before = s[t] - (unsigned)(x.x + x.y + x.z + x.w);
	if (v < n / 4) {
		int4 y = make_int4(before + x.x, before + x.x + x.y, before + x.x + x.y + x.z, s[t]);
		reinterpret_cast<int4 *>(out)[v] = y;
	}
}
