/*
 * <gpulab/plugin.h> - the whole contract between gpulab and a plugin.
 *
 * A plugin is a shared object exporting one symbol, gpulab_plugin_entry(),
 * which returns a descriptor: the ABI version it was built against, its
 * name, and its exercises.  The core checks the version, the sizes of the
 * structs and every declaration before it calls anything else, and
 * refuses the plugin otherwise.
 *
 * Parameters are declared, not asked for.  Each exercise lists its keys
 * in a table of struct gpulab_param: a type, a default, limits, and the
 * offset of the value in a struct of the exercise's own.  The core
 * resolves every key once (command line, then the INI files, then the
 * default), checks it against the declaration, and hands the exercise
 * that struct, filled in, as ctx->params.  No callback parses a string.
 *
 * The life of one exercise in one `gpulab run`:
 *
 *   plan      check what the declarations cannot (a block size that must
 *             be a power of two, a shape the kernel cannot tile) and
 *             declare traffic and footprint; allocates nothing, so the
 *             core can refuse bad input and sizes that do not fit before
 *             any memory is touched
 *   setup     allocate, make the input, compute the CPU reference; it
 *             may still refuse with GPULAB_EPARAM what only the device
 *             can tell (a cluster larger than this GPU holds), and in a
 *             sweep that point is then skipped with its reason, as a
 *             refusal at plan is
 *   repeat warm-up + timed repetitions:
 *     reset   (optional, untimed) restore input an in-place kernel
 *             destroyed, poison outputs
 *     run     the GPU work, launched on ctx->stream; timed with events.
 *             It should only enqueue: the core holds the streams until
 *             run returns, so the events time the GPU's work alone, not
 *             the host's launches.  A run that waits for the GPU is
 *             noticed (after 250 ms) and timed unheld, its launch gaps
 *             included, and its rows say UNHELD.
 *     host    (optional) host work that finishes run (e.g. summing the
 *             per-block partial sums); timed with the host clock and
 *             reported apart from the GPU time
 *   verify    compare the last run's result with the CPU reference
 *   teardown  free everything; also called after a failed setup, so it
 *             must cope with a half-built state
 *
 * With --batch K, each timed sample is K runs enqueued back to back
 * between one pair of events, with no reset or host step between them;
 * the sample is the time over K.  Only exercises with no reset, or with
 * GPULAB_REPEATS, take it.
 *
 * Every callback returns GPULAB_OK or one of the codes below, after
 * saying what went wrong through ctx->error().  The core alone turns a
 * code into gpulab's exit status.
 *
 * How the ABI grows.  GPULAB_ABI_VERSION changes only when a plugin
 * built against the old header could be misread.  A minor version adds
 * fields at the end of a struct, never in the middle; the descriptor
 * records the sizes of the structs the plugin was built with, and the
 * core reads each array with the plugin's stride and takes a missing
 * trailing field as zero.  So a plugin built against 2.0 loads in every
 * 2.x gpulab; one built against a newer minor than the core's is refused,
 * since it may count on fields the core does not fill.
 */
#ifndef GPULAB_PLUGIN_H
#define GPULAB_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPULAB_ABI_VERSION 2  /* the major: old plugins would be misread */
#define GPULAB_ABI_MINOR 6    /* fields added at the ends of structs, flags */

/* The one symbol a plugin exports. */
#define GPULAB_ENTRY_SYMBOL "gpulab_plugin_entry"

enum gpulab_status {
	GPULAB_OK = 0,
	GPULAB_WRONG = 1,     /* verify: the result differs from the reference */
	GPULAB_EPARAM = 2,    /* plan (or setup): parameters this exercise cannot run with */
	GPULAB_ECUDA = 3,     /* a CUDA call failed */
	GPULAB_ENOMEM = 4,    /* host memory ran out */
	/* 2.1 */
	GPULAB_EINPUT = 5,    /* plan: a file the user named cannot be used (a
			       * kernel that does not compile); a usage error */
	/* 2.4 */
	GPULAB_ELOST = 6      /* a CUDA call failed and left the device unusable
			       * (a sticky error: an illegal address, a trap):
			       * nothing more can run in this process.  The core
			       * also finds this itself after GPULAB_ECUDA */
};

/* Element types; an exercise's `dtypes` is a mask of these. */
enum gpulab_dtype {
	GPULAB_INT32 = 1u << 0,
	GPULAB_FLOAT32 = 1u << 1
};

/* The type of a declared parameter, and what the core stores at its
 * offset in the exercise's parameter struct. */
enum gpulab_param_type {
	GPULAB_PARAM_COUNT = 1, /* uint64_t: 1024, 2^10 or 1K, within [min, max] */
	GPULAB_PARAM_INT,       /* int64_t: a decimal integer, within [min, max] */
	GPULAB_PARAM_ENUM,      /* unsigned: the index of the value in `choices` */
	GPULAB_PARAM_SHAPE,     /* struct gpulab_shape: WxH, each side within [min, max] */
	GPULAB_PARAM_SEED,      /* uint64_t: a number, or "random": the core draws
				 * one and records it, so every row can be rerun */
	/* 2.1 */
	GPULAB_PARAM_PATH       /* const char *: a file name as given, at most
				 * GPULAB_PATH_MAX bytes; "" for none.  One value,
				 * never a list (a path may hold a comma); it lives
				 * until teardown() */
};

#define GPULAB_PATH_MAX 255

struct gpulab_shape {
	uint32_t x, y;
};

/* One key of an exercise (-p key=value, or key = value in an INI file). */
struct gpulab_param {
	const char *key;              /* [a-z0-9_]+; not a generic key (n, block, ...) */
	enum gpulab_param_type type;
	size_t offset;                /* of the value in the exercise's parameter struct */
	const char *def;              /* the default, as text; checked like any value */
	const char *help;             /* one line for `gpulab list` */
	int64_t min, max;             /* COUNT and INT: the value; SHAPE: each side.
				       * min = max = 0: only the type's own limits */
	const char *choices;          /* ENUM: the names, '|'-separated: "uni|bi" */
};

/* Exercise flags. */
#define GPULAB_HOST_ONLY 1u /* runs on the host alone: no device, no stream,
			     * timed with the host clock (the core's tests) */
#define GPULAB_USER_CODE 2u /* 2.1: runs code a user wrote (gpulab try): the
			     * core stops a run that never ends (--watchdog)
			     * by default, not only when asked */
#define GPULAB_REPEATS 4u   /* 2.2: run() may follow itself with no reset
			     * between and compute the same (its reset only
			     * poisons outputs), so the core may time a batch
			     * of runs back to back (--batch).  An exercise
			     * with a reset and without this flag is never
			     * batched: its reset may restore an input the
			     * run consumed */
#define GPULAB_UNLIKE 8u    /* 2.5: does other work than its plugin's baseline
			     * and reference (divergence's *_debug: the book's
			     * trivial kernels), so its row gets no speedup
			     * or share of the reference: they would compare
			     * unlike work.  The core honours it from plugins
			     * of minor 5 on */
#define GPULAB_RANKS 16u    /* 2.6: runs as one rank of a launched job (mpirun,
			     * srun), meeting the others through ctx->group.
			     * Under a launcher the core runs only such
			     * exercises, and skips the others with the reason */

struct CUstream_st; /* cudaStream_t is a pointer to this */

/* 2.6.  The ranks of one job that a launcher (mpirun, srun) started, one
 * process per GPU, possibly on several machines.  A launcher plugin (see
 * `join` below) provides it; the core runs every rank through the same
 * points in the same order, rank 0 alone prints and writes the record,
 * and a sample's time is the slowest rank's.  An exercise meets its peers
 * through it too: the multigpu plugin hands rank 0's NCCL id to all.
 *
 * Every rank makes the same calls in the same order.  Each returns 0, or
 * -1 when the group cannot go on (a rank is gone, a wait passed its
 * bound), after saying why on stderr; the caller then ends the run. */
struct gpulab_group {
	unsigned rank, size;             /* this process's, and how many */
	unsigned local_rank, local_size; /* the same among the ranks of this machine */
	int (*bcast)(void *buf, size_t len);      /* rank 0's len bytes to every rank */
	int (*max)(double *v, size_t n);          /* each of v[0..n) becomes its largest over the ranks */
	int (*gather)(const void *mine, void *all, size_t len); /* every rank's len bytes, in rank order, to all */
	void (*leave)(void);                      /* the run is over: let the launcher go (MPI_Finalize) */
};

struct gpulab_ctx {
	/* The run's parameters, resolved and checked by the core before
	 * plan(); a plugin reads them and never writes them. */
	uint64_t n;                   /* the requested element count; 0 for an
				       * exercise that takes no -n */
	unsigned block;               /* threads per block; 0 if it takes no -b */
	enum gpulab_dtype dtype;
	const void *params;           /* the exercise's parameter struct, filled in */
	int quiet;                    /* --quiet: no device printf */

	/* The GPUs.  A single-GPU exercise uses stream, on the current
	 * device; one declaring max_devices > 1 gets ndevices of them. */
	struct CUstream_st *stream;   /* = streams[0]; NULL for a host-only exercise */
	unsigned ndevices;
	const int *devices;           /* CUDA ordinals */
	struct CUstream_st *const *streams;

	/* Services of the core. */
	/* One line, printf-style, saying what is wrong. */
	void (*error)(struct gpulab_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
		__attribute__((format(printf, 2, 3)))
#endif
		;
	/* A number worth reporting beside the timing (e.g. "launches"). */
	void (*note)(struct gpulab_ctx *ctx, const char *name, double value);

	/* Set by the exercise in plan(). */
	uint64_t elements;            /* elements one run processes; the core
				       * sets it to n first */
	uint64_t bytes_read;          /* device memory read by one run() */
	uint64_t bytes_written;       /* device memory written by one run() */
	uint64_t device_bytes;        /* what setup() will allocate, per device */

	/* The exercise's `data`, as declared; lets one set of callbacks
	 * serve several exercises. */
	const void *data;

	/* The exercise's own, between setup() and teardown(). */
	void *state;

	/* The core's own; a plugin leaves it alone. */
	void *core;

	/* 2.3.  What an automatic value of one of the exercise's own keys
	 * came to, told from setup(): `-p finish=auto` chose "cluster",
	 * `-p blocks=0` chose "16".  The record keeps both, the value asked
	 * for (by which points are matched) and the one chosen (which a
	 * reader needs to explain the time).  `value` is text the key's
	 * declaration takes.  A key not declared (or a seed, a path or a
	 * generic key), a value its declaration refuses, or a call from
	 * anywhere but setup() is the plugin's bug: it returns GPULAB_EPARAM,
	 * and the core ends the point in an error with that reason (gpulab
	 * exits 4), whatever setup() returns or says after. */
	int (*chose)(struct gpulab_ctx *ctx, const char *key, const char *value);

	/* 2.6.  The ranks this process is one of, under a launcher; NULL
	 * when gpulab runs alone (one process for all the GPUs it sees).
	 * Then the core gives the exercise one GPU, the one whose ordinal is
	 * the rank's local rank, and devices/ndevices name it alone. */
	const struct gpulab_group *group;
};

typedef int (*gpulab_step_fn)(struct gpulab_ctx *ctx);

struct gpulab_exercise {
	const char *name;             /* [a-z0-9_]+, unique in the plugin */
	const char *summary;          /* one line for `gpulab list` */
	unsigned dtypes;              /* mask of enum gpulab_dtype; the lowest bit is the default */
	uint64_t n;                   /* default element count; 0: takes no -n
				       * (its size comes from its own keys) */
	uint64_t n_max;               /* the largest n it takes; 0: the core's limit */
	unsigned block;               /* default threads per block; 0: takes no -b */
	const struct gpulab_param *params; /* ends with { NULL }; may be NULL */
	size_t params_size;           /* sizeof the struct the offsets point into */

	gpulab_step_fn plan;          /* required */
	gpulab_step_fn setup;         /* required */
	gpulab_step_fn reset;         /* optional */
	gpulab_step_fn run;           /* required */
	gpulab_step_fn host;          /* optional */
	gpulab_step_fn verify;        /* required */
	void (*teardown)(struct gpulab_ctx *ctx); /* required */
	const void *data;             /* handed to the callbacks as ctx->data */

	const char *metrics;          /* default --metrics list; may be NULL */
	unsigned flags;               /* GPULAB_HOST_ONLY, ... */
	unsigned max_devices;         /* 0 or 1: one GPU; more: up to that many */
	/* 2.1 */
	const char *peers;            /* a plugin whose baseline and reference this
				       * exercise's rows are compared with, as if
				       * they were its own; NULL: its own plugin's */
	const char *gate;             /* the cases `gpulab try` runs and verifies,
				       * for every element type, before anything is
				       * timed: ';'-separated, each space-separated
				       * key=value pairs: "n=1;rows=33 cols=31" */
	/* fields added in 2.2 and later go here, at the end */
};

struct gpulab_plugin {
	unsigned abi;                 /* GPULAB_ABI_VERSION; first, so it can be read at any version */
	unsigned abi_minor;           /* GPULAB_ABI_MINOR */
	size_t size;                  /* sizeof(struct gpulab_plugin), as built */
	size_t exercise_size;         /* sizeof(struct gpulab_exercise): the stride of exercises */
	size_t param_size;            /* sizeof(struct gpulab_param): the stride of params */
	const char *name;             /* must match the INI section naming it */
	const char *summary;
	const struct gpulab_exercise *exercises;
	size_t n_exercises;
	/* Optional names of exercises the report compares every row with:
	 * baseline as a speedup ("x"), reference as a share of its speed. */
	const char *baseline;
	const char *reference;
	/* 2.6.  A launcher plugin: where this process was started by one
	 * (mpirun, srun), join its ranks and return them; NULL when it was
	 * not, or with one line on stderr and *failed set when it was and the
	 * ranks cannot meet.  The core asks before any point runs, and only
	 * for `gpulab run`.  Such a plugin may have no exercises. */
	const struct gpulab_group *(*join)(int *failed);
	/* fields added in 2.7 and later go here, at the end */
};

/* The first fields of every descriptor, as this header has them:
 *   const struct gpulab_plugin plugin = { GPULAB_PLUGIN_HEAD, .name = "x", ... }; */
#define GPULAB_PLUGIN_HEAD \
	.abi = GPULAB_ABI_VERSION, .abi_minor = GPULAB_ABI_MINOR, \
	.size = sizeof(struct gpulab_plugin), .exercise_size = sizeof(struct gpulab_exercise), \
	.param_size = sizeof(struct gpulab_param)

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
