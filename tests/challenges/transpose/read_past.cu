// Reads past its input: it takes the input's rows to be padded to whole
// tiles of 32 (a pitch of cols rounded up), as a pitched allocation
// would be.  gpulab's input is packed, so every row but the first is
// read from the wrong place, and the last rows from past the end of the
// input, where the poison lies.  1 x 1 passes; 31 x 33 does not.
// gpulab: block=32x8 tile=32x32

template <typename T>
__global__ void transpose(const T *in, T *out, unsigned rows, unsigned cols)
{
	size_t pitch = (cols + 31) / 32 * 32; /* the bug: in is not padded */
	unsigned x = blockIdx.x * 32 + threadIdx.x;
	for (unsigned y = blockIdx.y * 32 + threadIdx.y; y < blockIdx.y * 32 + 32; y += 8)
		if (x < cols && y < rows)
			out[(size_t)x * rows + y] = in[y * pitch + x];
}
