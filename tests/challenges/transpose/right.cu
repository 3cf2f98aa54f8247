// A right transpose, ranked: a 32x32 tile goes through shared memory,
// read along the input's rows and written along the output's rows, so
// both sides are coalesced; one column of padding keeps the column
// reads free of bank conflicts.
// gpulab: block=32x8 tile=32x32

template <typename T>
__global__ void transpose(const T *in, T *out, unsigned rows, unsigned cols)
{
	__shared__ T tile[32][33];
	unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
	for (unsigned j = 0; j < 32; j += 8)
		if (x < cols && y + j < rows)
			tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
	__syncthreads();
	x = blockIdx.y * 32 + threadIdx.x; /* now along a row of out, which has `rows` columns */
	y = blockIdx.x * 32 + threadIdx.y;
	for (unsigned j = 0; j < 32; j += 8)
		if (x < rows && y + j < cols)
			out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
