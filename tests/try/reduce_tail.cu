// A learner's reduction that drops the tail: past 4096 elements it reads
// int4/float4 vectors and forgets the n % 4 elements no vector covers.
// Small inputs take the scalar path and pass; n = 1000003 (n % 4 = 3) is
// the gate's first case it fails.
// gpulab: block=256 grid=persistent

template <typename T> struct vec4;
template <> struct vec4<int> { using type = int4; };
template <> struct vec4<float> { using type = float4; };

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	__shared__ T sums[GPULAB_BLOCK];
	unsigned tid = threadIdx.x, stride = gridDim.x * blockDim.x;
	T v = 0;
	if (n < 4096) {
		for (unsigned i = blockIdx.x * blockDim.x + tid; i < n; i += stride)
			v += in[i];
	} else {
		const typename vec4<T>::type *in4 = reinterpret_cast<const typename vec4<T>::type *>(in);
		for (unsigned i = blockIdx.x * blockDim.x + tid; i < n / 4; i += stride)
			v += (in4[i].x + in4[i].y) + (in4[i].z + in4[i].w);
		/* the bug: nothing adds in[4 * (n / 4)] ... in[n - 1] */
	}
	sums[tid] = v;
	__syncthreads();
	for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
		if (tid < s)
			sums[tid] += sums[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		partials[blockIdx.x] = sums[0];
}
