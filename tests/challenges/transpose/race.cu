// Races: one warp loads the whole 32 x 32 tile into shared memory ("one
// warp is enough to keep the loads coalesced"), and the other seven read
// it without waiting: the __syncthreads() between the loads and the
// reads is missing.  A reading warp sees what the block before it left
// in shared memory, wherever it runs ahead of the loading warp.
// gpulab: block=32x8 tile=32x32

template <typename T>
__global__ void transpose(const T *in, T *out, unsigned rows, unsigned cols)
{
	__shared__ T tile[32][33];
	unsigned bx = blockIdx.x * 32, by = blockIdx.y * 32, tx = threadIdx.x;
	if (threadIdx.y == 0)
		for (unsigned r = 0; r < 32; r++)
			if (bx + tx < cols && by + r < rows)
				tile[r][tx] = in[(size_t)(by + r) * cols + bx + tx];
	/* the race: a __syncthreads() belongs here */
	for (unsigned c = threadIdx.y; c < 32; c += 8)
		if (by + tx < rows && bx + c < cols)
			out[(size_t)(bx + c) * rows + by + tx] = tile[tx][c];
}
