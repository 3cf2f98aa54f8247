// Keeps state between launches: it remembers, in __device__ variables,
// the output and the shape it last transposed, and on a later launch
// with the same ones it returns at once ("out already holds it").  The
// first launch of a loaded module is right; a bench that poisons the
// output before every run (as gpulab does) sees the poison from the
// second launch on.
// The gate's second launch of each case (the same loaded module, other
// inputs) finds the poison: expected to fail there, grade --test too,
// with a wrong result.
// gpulab: block=32x8 tile=32x32

__device__ const void *done_out;
__device__ unsigned done_rows, done_cols, blocks_left;

template <typename T>
__global__ void transpose(const T *in, T *out, unsigned rows, unsigned cols)
{
	if (done_out == out && done_rows == rows && done_cols == cols)
		return; /* transposed last time */
	unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
	for (unsigned j = 0; j < 32; j += 8)
		if (x < cols && y + j < rows)
			out[(size_t)x * rows + y + j] = in[(size_t)(y + j) * cols + x];
	__syncthreads();
	if (threadIdx.x == 0 && threadIdx.y == 0) {
		unsigned blocks = gridDim.x * gridDim.y;
		if (atomicAdd(&blocks_left, 1u) == blocks - 1) { /* the last block remembers */
			done_out = out, done_rows = rows, done_cols = cols;
			blocks_left = 0;
		}
	}
}
