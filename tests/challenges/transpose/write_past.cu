// Writes outside its output: the tile is loaded with both bounds
// checked, but written back with none ("the tile is in shared memory,
// so it is safe"), so blocks on the edges write whole 32 x 32 tiles
// past out's end.  At 1 x 1 the write at out[1] is already past it,
// where the guard finds it.
// gpulab: block=32x8 tile=32x32

template <typename T>
__global__ void transpose(const T *in, T *out, unsigned rows, unsigned cols)
{
	__shared__ T tile[32][33];
	unsigned bx = blockIdx.x * 32, by = blockIdx.y * 32;
	for (unsigned j = threadIdx.y; j < 32; j += 8)
		if (bx + threadIdx.x < cols && by + j < rows)
			tile[j][threadIdx.x] = in[(size_t)(by + j) * cols + bx + threadIdx.x];
	__syncthreads();
	for (unsigned j = threadIdx.y; j < 32; j += 8) /* the bug: no bounds on the way out */
		out[(size_t)(bx + j) * rows + by + threadIdx.x] = tile[threadIdx.x][j];
}
