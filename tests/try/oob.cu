// A kernel that writes far outside any buffer: an illegal address, which
// poisons the CUDA context.  gpulab names the challenge and the case in
// one line and exits 8.
// gpulab: block=256

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	partials[blockIdx.x + (1ull << 36)] = in[0]; /* 256 GiB past the end: mapped by nothing */
}
