// Reads past its input: it loads int4 / float4 vectors, rounding n up to
// a whole number of vectors, so the last vector takes up to three
// elements past in[n - 1].  There lies the poison (-1, NaN), which the
// sum takes: wrong from the gate's first case, n = 1.
// gpulab: block=256 per_thread=4

template <typename T>
struct vec4;
template <>
struct vec4<int> { typedef int4 type; };
template <>
struct vec4<float> { typedef float4 type; };

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	__shared__ T data[GPULAB_BLOCK];
	typedef typename vec4<T>::type V;
	unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned vectors = (n + 3) / 4; /* the bug: the last one runs past n */
	T sum = 0;
	if (v < vectors) {
		V x = reinterpret_cast<const V *>(in)[v];
		sum = x.x + x.y + x.z + x.w;
	}
	data[threadIdx.x] = sum;
	__syncthreads();
	for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
		if (threadIdx.x < s)
			data[threadIdx.x] += data[threadIdx.x + s];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		partials[blockIdx.x] = data[0];
}
