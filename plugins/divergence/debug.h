/* The -G-built book kernels (book_debug.cu), launched from the plugin. */
#ifndef GPULAB_DIVERGENCE_DEBUG_H
#define GPULAB_DIVERGENCE_DEBUG_H

#include <cuda_runtime.h>

/* which: 1, 2 or 3 for mathKernel1/2/3. */
cudaError_t launch_debug(int which, float *c, unsigned grid, unsigned block, cudaStream_t s);

#endif
