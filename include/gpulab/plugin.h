/*
 * <gpulab/plugin.h> - the whole contract between gpulab and a plugin.
 *
 * A plugin is a shared object exporting one symbol, gpulab_plugin_entry(),
 * which returns a descriptor: the ABI version it was built against, its
 * name, and its exercises.  The core checks the version and the required
 * callbacks before it calls anything else, and refuses the plugin
 * otherwise.
 *
 * The life of one exercise in one `gpulab run`:
 *
 *   plan      validate the parameters, declare traffic and footprint;
 *             allocates nothing, so the core can refuse bad input and
 *             sizes that do not fit before any memory is touched.  An
 *             exercise whose shape comes from its own keys (rows x cols)
 *             sets ctx->n to the element count it will really process,
 *             so the report shows it
 *   setup     allocate, make the input, compute the CPU reference
 *   repeat warm-up + timed repetitions:
 *     reset   (optional, untimed) restore input an in-place kernel
 *             destroyed, poison outputs
 *     run     the GPU work, launched on ctx->stream; timed with events
 *     host    (optional) host work that finishes run (e.g. summing the
 *             per-block partial sums); timed with the host clock and
 *             reported apart from the GPU time
 *   verify    compare the last run's result with the CPU reference
 *   teardown  free everything; also called after a failed setup, so it
 *             must cope with a half-built state
 *
 * Every callback returns GPULAB_OK or one of the codes below, after
 * saying what went wrong through ctx->error().
 */
#ifndef GPULAB_PLUGIN_H
#define GPULAB_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on any change to the structs or callbacks below. */
#define GPULAB_ABI_VERSION 1

/* The one symbol a plugin exports. */
#define GPULAB_ENTRY_SYMBOL "gpulab_plugin_entry"

enum gpulab_status {
	GPULAB_OK = 0,
	GPULAB_WRONG = 1,     /* verify: the result differs from the reference */
	GPULAB_EPARAM = 2,    /* plan: a parameter the exercise cannot use */
	GPULAB_ECUDA = 3,     /* a CUDA call failed */
	GPULAB_ENOMEM = 4     /* host memory ran out */
};

/* Element types; an exercise's `dtypes` is a mask of these. */
enum gpulab_dtype {
	GPULAB_INT32 = 1u << 0,
	GPULAB_FLOAT32 = 1u << 1
};

/* A plugin-specific key (-p key=value), with its default. */
struct gpulab_param {
	const char *key;
	const char *def;
	const char *help;
};

struct CUstream_st; /* cudaStream_t is a pointer to this */

struct gpulab_ctx {
	/* Set by the core before plan(). */
	uint64_t n;                   /* element count, >= 1 */
	unsigned block;               /* threads per block */
	enum gpulab_dtype dtype;
	int quiet;                    /* --quiet: no device printf */
	struct CUstream_st *stream;   /* launch all GPU work here */

	/* Services of the core. */
	/* The value of a declared key: -p, INI, or its default. */
	const char *(*param)(const struct gpulab_ctx *ctx, const char *key);
	/* A declared key read as an unsigned size ("4096", "2^12", "4K");
	 * on a bad value it calls error() naming the key and returns
	 * GPULAB_EPARAM. */
	int (*param_u64)(struct gpulab_ctx *ctx, const char *key, uint64_t *out);
	/* One line, printf-style, saying what is wrong. */
	void (*error)(struct gpulab_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
		__attribute__((format(printf, 2, 3)))
#endif
		;
	/* A number worth reporting beside the timing (e.g. "launches"). */
	void (*note)(struct gpulab_ctx *ctx, const char *name, double value);

	/* Set by the exercise in plan(). */
	uint64_t bytes_read;          /* device memory read by one run() */
	uint64_t bytes_written;       /* device memory written by one run() */
	uint64_t device_bytes;        /* what setup() will cudaMalloc */

	/* The exercise's `data`, as declared; lets one set of callbacks
	 * serve several exercises. */
	const void *data;

	/* The exercise's own, between setup() and teardown(). */
	void *state;

	/* The core's own; a plugin leaves it alone. */
	void *core;
};

typedef int (*gpulab_step_fn)(struct gpulab_ctx *ctx);

struct gpulab_exercise {
	const char *name;             /* [a-z0-9_]+, unique in the plugin */
	const char *summary;          /* one line for `gpulab list` */
	unsigned dtypes;              /* mask of enum gpulab_dtype; the lowest bit is the default */
	uint64_t default_n;
	unsigned default_block;
	const struct gpulab_param *params; /* ends with {NULL}; may be NULL */
	const char *metrics;          /* default --metrics list; may be NULL */

	gpulab_step_fn plan;          /* required */
	gpulab_step_fn setup;         /* required */
	gpulab_step_fn reset;         /* optional */
	gpulab_step_fn run;           /* required */
	gpulab_step_fn host;          /* optional */
	gpulab_step_fn verify;        /* required */
	void (*teardown)(struct gpulab_ctx *ctx); /* required */
	const void *data;             /* handed to the callbacks as ctx->data */
};

struct gpulab_plugin {
	unsigned abi;                 /* GPULAB_ABI_VERSION; first, so it can be read at any version */
	const char *name;             /* must match the INI section naming it */
	const char *summary;
	const struct gpulab_exercise *exercises;
	size_t n_exercises;
	/* Optional names of exercises the report compares every row with:
	 * baseline as a speedup ("x"), reference as a share of its speed. */
	const char *baseline;
	const char *reference;
};

typedef const struct gpulab_plugin *(*gpulab_entry_fn)(void);

/* Declare the entry point in the plugin's one exporting file:
 *   GPULAB_PLUGIN_ENTRY { return &my_plugin; }                        */
#if defined(__GNUC__)
#define GPULAB_EXPORT __attribute__((visibility("default")))
#else
#define GPULAB_EXPORT
#endif
GPULAB_EXPORT const struct gpulab_plugin *gpulab_plugin_entry(void);
#define GPULAB_PLUGIN_ENTRY \
	const struct gpulab_plugin *gpulab_plugin_entry(void)

#ifdef __cplusplus
}
#endif

#endif /* GPULAB_PLUGIN_H */
