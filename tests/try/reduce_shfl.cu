// A learner's climb up the ladder, in one file: a persistent grid, four
// 16-byte loads in flight per thread, warp shuffles, and the n % 4 tail;
// the host adds the blocks' sums.  Passes the gate and is ranked.
// gpulab: block=512 grid=persistent

template <typename T> struct vec4;
template <> struct vec4<int> { using type = int4; };
template <> struct vec4<float> { using type = float4; };

template <typename T>
__device__ T warp_sum(T v)
{
	for (int off = 16; off > 0; off >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, off);
	return v;
}

template <typename T>
__global__ void __launch_bounds__(GPULAB_BLOCK) reduce(const T *in, T *partials, unsigned n)
{
	using V = typename vec4<T>::type;
	const V *in4 = reinterpret_cast<const V *>(in); /* gpulab's buffers are 256-byte aligned */
	unsigned nv = n / 4, stride = gridDim.x * GPULAB_BLOCK;
	T v = 0;
	for (unsigned i = blockIdx.x * GPULAB_BLOCK + threadIdx.x; i < nv; i += 4 * stride) {
		V x[4];
#pragma unroll
		for (int k = 0; k < 4; k++)
			x[k] = i + k * stride < nv ? in4[i + k * stride] : V{ 0, 0, 0, 0 };
#pragma unroll
		for (int k = 0; k < 4; k++)
			v += (x[k].x + x[k].y) + (x[k].z + x[k].w);
	}
	unsigned t = 4 * nv + blockIdx.x * GPULAB_BLOCK + threadIdx.x; /* the last n % 4 */
	if (t < n)
		v += in[t];
	__shared__ T warps[GPULAB_BLOCK / 32];
	v = warp_sum(v);
	if (threadIdx.x % 32 == 0)
		warps[threadIdx.x / 32] = v;
	__syncthreads();
	if (threadIdx.x < 32) {
		v = warp_sum(threadIdx.x < GPULAB_BLOCK / 32 ? warps[threadIdx.x] : T(0));
		if (threadIdx.x == 0)
			partials[blockIdx.x] = v;
	}
}
