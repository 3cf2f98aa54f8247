// Writes outside its output: block 0 walks the input a tile of 1024 at
// a time with warp shuffles, and writes each tile back whole, with no
// check against n ("the last tile is zero-padded anyway").  The padding
// lands past the end of out: at n = 1, out[1] .. out[1023].
// gpulab: block=1024

template <typename T>
__global__ void prefix_sum(const T *in, T *out, unsigned n, unsigned *scratch)
{
	__shared__ unsigned warp_end[32];
	if (blockIdx.x > 0)
		return;
	unsigned t = threadIdx.x, lane = t % 32, carry = 0;
	for (size_t base = 0; base < n; base += 1024) {
		unsigned v = base + t < n ? (unsigned)in[base + t] : 0u;
		for (unsigned d = 1; d < 32; d *= 2) {
			unsigned o = __shfl_up_sync(0xffffffffu, v, d);
			v += lane < d ? 0u : o;
		}
		if (lane == 31)
			warp_end[t / 32] = v;
		__syncthreads();
		unsigned add = carry;
		for (unsigned w = 0; w < t / 32; w++)
			add += warp_end[w];
		out[base + t] = (T)(add + v); /* the bug: base + t may be n or more */
		for (unsigned w = 0; w < 32; w++)
			carry += warp_end[w];
		__syncthreads();
	}
}
