// A kernel that never ends: it waits for a flag nothing sets.  The
// watchdog stops gpulab after --watchdog seconds with one line.
// gpulab: block=32

__device__ volatile int never_set = 0;

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	while (!never_set)
		;
	partials[blockIdx.x] = in[0];
}
