/*
 * A learner's kernel compiled at run time with NVRTC, for the GPU in use,
 * through the cache (cache.h).  Plain C over NVRTC's C API: no GPU is
 * needed to compile, so the CPU tests compile too.
 */
#ifndef GPULAB_TRY_COMPILE_H
#define GPULAB_TRY_COMPILE_H

#include "contract.h"

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define COMPILE_MAX_TYPES 2

struct compile_request {
	const char *path;        /* the learner's file, as named: the compiler's messages name it */
	const char *source;      /* its text */
	size_t source_len;
	const struct contract *contract;
	const char *checks;      /* appended after the source: the contract's static_asserts */
	const char *kernel;      /* the template's name: "reduce" */
	const char *types[COMPILE_MAX_TYPES]; /* instantiated as kernel<type>; NULL-terminated if fewer */
	int arch;                /* the GPU's compute capability, 90 for 9.0; 0 for none (PTX, to check it compiles) */
	int driver;              /* the CUDA driver's version (cudaDriverGetVersion); 0 for none */
	const char *gpu;         /* the GPU's name; NULL for none */
};

struct compiled {
	char *image;             /* CUBIN, or PTX; malloc'ed */
	size_t image_len;
	char lowered[COMPILE_MAX_TYPES][256]; /* the mangled name of each kernel<type> */
	int cached;              /* read from the cache, not compiled, when first asked for in this process */
	char target[32];         /* what it was built for: "sm_90", "compute_75" */
};

enum compile_status {
	COMPILE_OK = 0,
	COMPILE_FAILED = 1,      /* the source does not compile: the log went to `log`, its first error to err */
	COMPILE_ERROR = 2,       /* NVRTC or memory failed: why in err */
	COMPILE_REFUSED = 3,     /* the source asks what a kernel may not (filter.h): "FILE:LINE: why" in err */
	COMPILE_LIMIT = 4        /* the compile ran past a limit: which in err, one line */
};

/* Each compile runs in a child process under these limits (docs/security.md),
 * which the environment changes: GPULAB_COMPILE_CPU_S seconds of CPU time,
 * GPULAB_COMPILE_MEMORY_MB of address space beyond what the process held. */
#define COMPILE_CPU_S 10
#define COMPILE_MEMORY_MB 4096

/* Compile (or find in the cache) q's kernel.  out's image is the
 * caller's to free (compile_free). */
enum compile_status compile_kernel(const struct compile_request *q, struct compiled *out, FILE *log, char *err,
				   size_t errlen);

void compile_free(struct compiled *c);

/* The name q's code has in the cache (cache.h): 64 hex digits.  Anyone
 * can compute it, which is why an entry is signed with the user's
 * secret; the tests plant entries under it. */
void compile_cache_key(const struct compile_request *q, char key[65]);

/* What arch the request's code is built for: "sm_XX" where NVRTC builds
 * machine code for the GPU, else "compute_XX" PTX for the newest
 * architecture NVRTC knows below it, which the driver compiles. */
void compile_target(int arch, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
