/*
 * The contract line of a `gpulab try` kernel: how the file says to launch
 * it.  One line of the file reads, for example,
 *
 *   // gpulab: block=512 per_thread=2
 *   // gpulab: block=32x8 tile=32x32
 *   // gpulab: block=256 grid=persistent finish=device
 *
 *   block=N or WxH   threads per block (at most 1024 in all); required
 *   per_thread=P     elements each thread covers along x: a block covers
 *                    block.x * P by block.y elements (default 1)
 *   tile=N or WxH    the elements a block covers, in x and y, where that
 *                    is not block times per_thread (not with per_thread)
 *   grid=tiles       one block per tile of the data (the default)
 *   grid=persistent  as many blocks as are resident on the GPU at once,
 *                    at most one per tile: the kernel loops over the data
 *   finish=host      (reduce) the host adds the per-block sums (default)
 *   finish=device    (reduce) the kernel leaves the whole sum in partials[0],
 *                    which is zeroed before each run (inside the timed
 *                    run, as a real caller pays for it), so blocks may
 *                    atomicAdd their sums into it; the other elements
 *                    keep the poison of every output
 *
 * Plain C, no CUDA: the CPU tests and the fuzzer read it as the plugin
 * does.
 */
#ifndef GPULAB_TRY_CONTRACT_H
#define GPULAB_TRY_CONTRACT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CONTRACT_MAX_THREADS 1024
#define CONTRACT_MAX_TILE (1u << 24)

struct contract {
	unsigned block_x, block_y; /* threads */
	unsigned tile_x, tile_y;   /* elements a block covers */
	int persistent;            /* grid=persistent */
	int finish_device;         /* finish=device */
	int finish_given;          /* finish= was written: only reduce takes it */
	int line;                  /* the contract's line, from 1; 0 where there is none */
	unsigned given;            /* the keys written: bit i for the i-th of block,
				    * per_thread, tile, grid, finish (a challenge's
				    * `launch` says which it allows) */
};

/* The contract's keys, in the order of `given`'s bits. */
extern const char *const contract_keys[5];

/* Read the contract line of the source text src[0..len).  0, or -1 with
 * why in err (c->line then says where; 0 for no contract line at all). */
int contract_parse(const char *src, size_t len, struct contract *c, char *err, size_t errlen);

/* The macros the kernel is compiled with, so that its source can size
 * shared memory by the contract: GPULAB_BLOCK_X, GPULAB_BLOCK_Y,
 * GPULAB_BLOCK (threads in all), GPULAB_TILE_X, GPULAB_TILE_Y.  Each
 * "-DNAME=VALUE" into its own defs[i]. */
#define CONTRACT_NDEFS 5
void contract_defines(const struct contract *c, char defs[CONTRACT_NDEFS][48]);

/* A reduction's wrong sum explained, when it is off by exactly the
 * poison (-1 for ints, NaN for floats) that lies past in[n - 1] and in
 * every element of partials the kernel does not write: the likely cause
 * into buf, and 1; else 0.  finish_device is the contract's finish. */
int contract_poison_hint(int finish_device, int is_int, double got, double want, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
