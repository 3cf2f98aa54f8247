// gpulab try transpose: your own out = in^T.  Start from this file
// (`gpulab try transpose --template > mine.cu`), run it with
// `gpulab try transpose mine.cu`, and compare with `gpulab run transpose`.
//
// The contract, which gpulab checks when it compiles the file:
//
//   template <typename T>
//   __global__ void transpose(const T *in, T *out, unsigned rows, unsigned cols)
//
// - T is int or float: gpulab compiles transpose<int> and transpose<float>.
// - in is rows x cols, row-major, and read-only; out is cols x rows:
//   out[c * rows + r] = in[r * cols + c].  Around both lies poison, and a
//   write outside out is found.
// - The launch is declared on the `gpulab:` line below:
//     block=WxH       threads per block (at most 1024 in all)
//     tile=WxH        the elements one block covers (default: the block's
//                     shape): the grid is ceil(cols / W) x ceil(rows / H),
//                     over the input
//     grid=persistent as many blocks as the GPU holds at once, in x only
//   The source sees them as GPULAB_BLOCK_X, GPULAB_BLOCK_Y, GPULAB_BLOCK
//   (threads in all), GPULAB_TILE_X and GPULAB_TILE_Y.
// - Before anything is timed, it must transpose 1x1, 31x33, 33x31,
//   1x4099, 4099x1 and 1000x3001, for ints and floats, bit for bit.
//
// This is the book's transposeNaiveRow: reads along rows (coalesced),
// writes down columns (strided); 32x8 threads move a 32x32 tile.
//
// gpulab: block=32x8 tile=32x32

template <typename T>
__global__ void transpose(const T *in, T *out, unsigned rows, unsigned cols)
{
	unsigned x = blockIdx.x * GPULAB_TILE_X + threadIdx.x;
	unsigned y = blockIdx.y * GPULAB_TILE_Y + threadIdx.y;
	for (unsigned j = 0; j < GPULAB_TILE_Y; j += GPULAB_BLOCK_Y)
		if (x < cols && y + j < rows)
			out[(size_t)x * rows + y + j] = in[(size_t)(y + j) * cols + x];
}
