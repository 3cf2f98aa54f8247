/*
 * Host-only exercises (GPULAB_HOST_ONLY), so the core can be tested end to
 * end without a GPU, and, built with the macros below, the plugins the
 * loader must refuse or must still accept:
 *   FAKE_NAME       the name the plugin gives itself
 *   FAKE_ABI        the ABI version it claims
 *   FAKE_MINOR      the minor version it claims
 *   FAKE_NO_VERIFY  an exercise without its verify callback
 *   FAKE_NO_ENTRY   no gpulab_plugin_entry symbol at all
 *   FAKE_OLD_MINOR  built as against an older 2.x header, whose exercise
 *                   struct ended before max_devices: the core must read
 *                   the array with this plugin's stride (it claims 2.4:
 *                   its GPULAB_UNLIKE bit is not read)
 *   FAKE_TRY        instead, two challenges as `gpulab try` meets them
 *                   (FAKE_NAME "try"): `gated`, whose gate a kernel file
 *                   named *bad* fails at n = 1000003, and `hang`, whose
 *                   run never ends, for the watchdog; with a file named
 *                   *lost*, `gated` loses the device at n = 31 (in the
 *                   gate), and named *later*, at n = 4096 from the second
 *                   run of a setup on (past the gate's one run, in the
 *                   timed warm-up); named *crash*, `gated` aborts (a crash,
 *                   SIGABRT), *hang*, its run never ends, and *slow*, each
 *                   run sleeps 2 ms (for `gpulab grade`'s ranking)
 * Every exercise reports what it was handed as notes, so the tests can
 * check resolution with exact values.
 */
#include <gpulab/plugin.h>

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef FAKE_NAME
#define FAKE_NAME "fake"
#endif
#ifndef FAKE_ABI
#define FAKE_ABI GPULAB_ABI_VERSION
#endif
#ifndef FAKE_MINOR
#define FAKE_MINOR GPULAB_ABI_MINOR
#endif

struct keyed_opts {
	unsigned mode;
	uint64_t depth;
	struct gpulab_shape tile;
	int64_t offset;
	uint64_t seed;
};

struct shaped_opts {
	uint64_t rows, cols;
};

struct chooser_opts {
	unsigned ways; /* auto|one|two */
	uint64_t width; /* 0: auto */
	unsigned lie;   /* no|key|value|ignored|generic|late|early: a plugin's bug, for the core to catch */
};

struct state {
	unsigned resets;
	unsigned runs; /* by run_counted */
};

static int plan(struct gpulab_ctx *ctx)
{
	if (ctx->block % 32) {
		ctx->error(ctx, "block size %u is not a multiple of 32", ctx->block);
		return GPULAB_EPARAM;
	}
	ctx->bytes_read = ctx->elements * 4;
	ctx->bytes_written = 4;
	ctx->device_bytes = ctx->elements * 4;
	ctx->note(ctx, "n", (double)ctx->n);
	return GPULAB_OK;
}

#ifdef FAKE_GRID
/* The skeleton's old bug, in plan where gpulab check can see it: the
 * blocks of a thread an element as an unsigned count, 0 at n = 2^32 with
 * -b 1, refused without a word.  Only their corner shows it: -n 2^32
 * with the default -b, or -b 1 with the default -n, plans well. */
static int plan_gridded(struct gpulab_ctx *ctx)
{
	unsigned blocks = (unsigned)((ctx->elements + ctx->block - 1) / ctx->block);
	if (!blocks)
		return GPULAB_EPARAM;
	ctx->bytes_read = ctx->bytes_written = ctx->elements * 4;
	return GPULAB_OK;
}
#endif

static int plan_keyed(struct gpulab_ctx *ctx)
{
	const struct keyed_opts *o = ctx->params;
	ctx->note(ctx, "mode", o->mode);
	ctx->note(ctx, "depth", (double)o->depth);
	ctx->note(ctx, "tile_x", o->tile.x);
	ctx->note(ctx, "tile_y", o->tile.y);
	ctx->note(ctx, "offset", (double)o->offset);
	ctx->note(ctx, "seed", (double)o->seed);
	return plan(ctx);
}

static int plan_shaped(struct gpulab_ctx *ctx)
{
	const struct shaped_opts *o = ctx->params;
	if (o->rows * o->cols > (1u << 20)) {
		ctx->error(ctx, "matrix %llux%llu: at most 2^20 elements", (unsigned long long)o->rows,
			   (unsigned long long)o->cols);
		return GPULAB_EPARAM;
	}
	ctx->elements = o->rows * o->cols;
	ctx->bytes_read = ctx->bytes_written = ctx->elements * 4;
	return GPULAB_OK;
}

static int setup(struct gpulab_ctx *ctx)
{
	ctx->state = calloc(1, sizeof(struct state));
	return ctx->state ? GPULAB_OK : GPULAB_ENOMEM;
}

/* What only the device can tell, found at setup: as best's cluster of
 * more blocks than the GPU's holds.  Here, any n past 2048. */
static int setup_picky(struct gpulab_ctx *ctx)
{
	if (ctx->n > 2048) {
		ctx->error(ctx, "n %llu: this device takes at most 2048", (unsigned long long)ctx->n);
		return GPULAB_EPARAM;
	}
	return setup(ctx);
}

/* Resolves its automatic keys from n, as reduce.best does its grid and
 * finish, and tells the core (ctx->chose); -p lie= makes it tell wrong:
 * a key it lacks, a value out of range (returning the refusal, or
 * ignoring it), a generic key, or a choice told late, from verify, or
 * early, from plan. */
static int setup_chooser(struct gpulab_ctx *ctx)
{
	const struct chooser_opts *o = ctx->params;
	char width[32];
	int rc;
	snprintf(width, sizeof width, "%llu", (unsigned long long)(ctx->n < 64 ? 1 : ctx->n / 64 > 64 ? 64 : ctx->n / 64));
	if (o->lie == 1)
		return ctx->chose(ctx, "depth", "3");
	if (o->lie == 2)
		return ctx->chose(ctx, "width", "65");
	if (o->lie == 3) {
		ctx->chose(ctx, "width", "65");
		return setup(ctx);
	}
	if (o->lie == 4)
		return ctx->chose(ctx, "n", "5");
	if (o->ways == 0 && (rc = ctx->chose(ctx, "ways", ctx->n > 1024 ? "two" : "one")) != GPULAB_OK)
		return rc;
	if (o->width == 0 && (rc = ctx->chose(ctx, "width", width)) != GPULAB_OK)
		return rc;
	return setup(ctx);
}

static int plan_chooser(struct gpulab_ctx *ctx)
{
	const struct chooser_opts *o = ctx->params;
	return o->lie == 6 ? ctx->chose(ctx, "ways", "one") : plan(ctx);
}

static int verify_chooser(struct gpulab_ctx *ctx)
{
	const struct chooser_opts *o = ctx->params;
	if (o->lie == 5)
		ctx->chose(ctx, "ways", "one");
	return GPULAB_OK;
}

/* Half-built, then out of memory: teardown must still run. */
static int setup_fails(struct gpulab_ctx *ctx)
{
	setup(ctx);
	ctx->error(ctx, "no host memory for the input");
	return GPULAB_ENOMEM;
}

static int reset(struct gpulab_ctx *ctx)
{
	((struct state *)ctx->state)->resets++;
	return GPULAB_OK;
}

static int run(struct gpulab_ctx *ctx)
{
	(void)ctx;
	return GPULAB_OK;
}

static int run_counted(struct gpulab_ctx *ctx)
{
	((struct state *)ctx->state)->runs++;
	return GPULAB_OK;
}

/* Every other run spins 50 us: a noise (about 100%) no number of runs
 * lowers, where a no-op's host-clock times can all round to one value on
 * an idle machine and look perfectly quiet. */
static int run_jittery(struct gpulab_ctx *ctx)
{
	struct timespec t0, t;
	if (((struct state *)ctx->state)->runs++ % 2)
		return GPULAB_OK;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 50000);
	return GPULAB_OK;
}

static int verify_wrong(struct gpulab_ctx *ctx);

/* Sleep the milliseconds in $var (def where it is unset), whatever
 * signal comes: as a kernel, a host copy or a CPU check runs on. */
static void sleep_env(const char *var, long def)
{
	const char *ms = getenv(var);
	long k = ms ? atol(ms) : def;
	struct timespec t = { k / 1000, (k % 1000) * 1000000L };
	while (nanosleep(&t, &t) != 0)
		; /* a signal caught: sleep the rest */
}

/* Each run sleeps $FAKE_SLEEP_MS (20 by default), as a long kernel keeps
 * a sweep busy, so a test can interrupt it midway; each point's setup
 * appends "n=N" to $FAKE_RUNS_LOG, so a test can count the points run,
 * and then sleeps $FAKE_SETUP_MS, as a huge point's setup takes long;
 * verify sleeps $FAKE_VERIFY_MS, as a huge point's CPU check does. */
static int setup_sleepy(struct gpulab_ctx *ctx)
{
	const char *log = getenv("FAKE_RUNS_LOG");
	FILE *f = log ? fopen(log, "a") : NULL;
	if (f) {
		fprintf(f, "n=%llu\n", (unsigned long long)ctx->n);
		fclose(f);
	}
	sleep_env("FAKE_SETUP_MS", 0);
	return setup(ctx);
}

static int run_sleepy(struct gpulab_ctx *ctx)
{
	(void)ctx;
	sleep_env("FAKE_SLEEP_MS", 20);
	return GPULAB_OK;
}

static int verify_ok(struct gpulab_ctx *ctx);

static int verify_sleepy(struct gpulab_ctx *ctx)
{
	sleep_env("FAKE_VERIFY_MS", 0);
	return verify_ok(ctx);
}

/* A thread that lives on, as CUDA's runtime starts its own, and that does
 * not block the signals gpulab catches: the kernel may hand them to it,
 * while gpulab's own thread holds them back. */
static void *idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void start_idle(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, idle, NULL) == 0)
		pthread_detach(t);
}

static int setup_threaded(struct gpulab_ctx *ctx)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, start_idle);
	return setup(ctx);
}

/* At n = 256, what a kernel that traps leaves: a sticky error, the
 * device unusable (GPULAB_ELOST).  Any other n is fine, so the points
 * after it would run if the core let them. */
static int run_loses(struct gpulab_ctx *ctx)
{
	if (ctx->n == 256) {
		ctx->error(ctx, "kernel: unspecified launch failure (a trap)");
		return GPULAB_ELOST;
	}
	return GPULAB_OK;
}

/* Wrong at n = 256 alone: one failing point in the middle of a sweep. */
static int verify_wrong_at_256(struct gpulab_ctx *ctx)
{
	return ctx->n == 256 ? verify_wrong(ctx) : verify_ok(ctx);
}

static int run_fails(struct gpulab_ctx *ctx)
{
	ctx->error(ctx, "kernel launch: an illegal memory access was encountered");
	return GPULAB_ECUDA;
}

static int verify_ok(struct gpulab_ctx *ctx)
{
	struct state *s = ctx->state;
	if (s->resets)
		ctx->note(ctx, "resets", s->resets);
	if (s->runs)
		ctx->note(ctx, "runs", s->runs);
	return GPULAB_OK;
}

static int verify_wrong(struct gpulab_ctx *ctx)
{
	ctx->error(ctx, "sum: expected 42, got 41");
	return GPULAB_WRONG;
}

/* Leaves a line in $FAKE_TEARDOWN_LOG, so a test can see it ran. */
static void teardown(struct gpulab_ctx *ctx)
{
	const char *log = getenv("FAKE_TEARDOWN_LOG");
	FILE *f = log ? fopen(log, "a") : NULL;
	if (f) {
		fprintf(f, "teardown %s\n", ctx->state ? "with state" : "without state");
		fclose(f);
	}
	free(ctx->state);
	ctx->state = NULL;
}

static const struct gpulab_param keyed_params[] = {
	{ .key = "mode", .type = GPULAB_PARAM_ENUM, .offset = offsetof(struct keyed_opts, mode), .def = "fast",
	  .help = "how", .choices = "fast|slow" },
	{ .key = "depth", .type = GPULAB_PARAM_COUNT, .offset = offsetof(struct keyed_opts, depth), .def = "3",
	  .help = "how deep", .min = 1, .max = 10 },
	{ .key = "tile", .type = GPULAB_PARAM_SHAPE, .offset = offsetof(struct keyed_opts, tile), .def = "4x2",
	  .help = "tile shape", .min = 1, .max = 64 },
	{ .key = "offset", .type = GPULAB_PARAM_INT, .offset = offsetof(struct keyed_opts, offset), .def = "0",
	  .help = "a signed shift", .min = -5, .max = 5 },
	{ .key = "seed", .type = GPULAB_PARAM_SEED, .offset = offsetof(struct keyed_opts, seed), .def = "random",
	  .help = "input seed" },
	{ NULL }
};

static const struct gpulab_param shaped_params[] = {
	{ .key = "rows", .type = GPULAB_PARAM_COUNT, .offset = offsetof(struct shaped_opts, rows), .def = "8",
	  .help = "rows", .min = 1, .max = 65536 },
	{ .key = "cols", .type = GPULAB_PARAM_COUNT, .offset = offsetof(struct shaped_opts, cols), .def = "4",
	  .help = "columns", .min = 1, .max = 65536 },
	{ NULL }
};

static const struct gpulab_param chooser_params[] = {
	{ .key = "ways", .type = GPULAB_PARAM_ENUM, .offset = offsetof(struct chooser_opts, ways), .def = "auto",
	  .help = "auto: one up to n 1024, then two", .choices = "auto|one|two" },
	{ .key = "width", .type = GPULAB_PARAM_COUNT, .offset = offsetof(struct chooser_opts, width), .def = "0",
	  .help = "0: n/64, from 1 to 64", .min = 0, .max = 64 },
	{ .key = "lie", .type = GPULAB_PARAM_ENUM, .offset = offsetof(struct chooser_opts, lie), .def = "no",
	  .help = "tell the core a wrong choice (see setup_chooser)", .choices = "no|key|value|ignored|generic|late|early" },
	{ NULL }
};

/* collective: the ranks' own all-reduce, over the launcher's group (a
 * max of rank + 1, which is the number of ranks): host-only, so
 * `mpirun -np 2` on a CPU machine runs gpulab's ranks end to end. */
struct collective_opts {
	int64_t fail_rank, wrong_rank, slow_rank; /* -1: none */
};

struct collective_state {
	double got;
};

static const struct gpulab_param collective_params[] = {
	{ .key = "fail_rank", .type = GPULAB_PARAM_INT, .offset = offsetof(struct collective_opts, fail_rank), .def = "-1",
	  .help = "this rank fails setup (-1: none)", .min = -1, .max = 1023 },
	{ .key = "wrong_rank", .type = GPULAB_PARAM_INT, .offset = offsetof(struct collective_opts, wrong_rank), .def = "-1",
	  .help = "this rank computes a wrong sum (-1: none)", .min = -1, .max = 1023 },
	{ .key = "slow_rank", .type = GPULAB_PARAM_INT, .offset = offsetof(struct collective_opts, slow_rank), .def = "-1",
	  .help = "this rank takes 2 ms more a run, with jitter (-1: none)", .min = -1, .max = 1023 },
	{ NULL }
};

static unsigned rank_of(const struct gpulab_ctx *ctx)
{
	return ctx->group ? ctx->group->rank : 0;
}

static int plan_collective(struct gpulab_ctx *ctx)
{
	ctx->bytes_read = ctx->bytes_written = sizeof(double);
	return GPULAB_OK;
}

static int setup_collective(struct gpulab_ctx *ctx)
{
	const struct collective_opts *o = ctx->params;
	if (o->fail_rank == (int64_t)rank_of(ctx)) {
		ctx->error(ctx, "setup fails on rank %u, as asked (-p fail_rank)", rank_of(ctx));
		return GPULAB_ECUDA;
	}
	ctx->note(ctx, "ranks", ctx->group ? ctx->group->size : 1);
	return (ctx->state = calloc(1, sizeof(struct collective_state))) ? GPULAB_OK : GPULAB_ENOMEM;
}

static int run_collective(struct gpulab_ctx *ctx)
{
	struct collective_state *st = ctx->state;
	const struct collective_opts *o = ctx->params;
	if (o->slow_rank == (int64_t)rank_of(ctx)) /* never quiet: only the timeout stops a point */
		usleep(2000 + (useconds_t)(rand() % 1000));
	st->got = rank_of(ctx) + 1.0;
	return !ctx->group || ctx->group->max(&st->got, 1) == 0 ? GPULAB_OK : GPULAB_ECUDA;
}

static int verify_collective(struct gpulab_ctx *ctx)
{
	const struct collective_opts *o = ctx->params;
	const struct collective_state *st = ctx->state;
	double want = ctx->group ? ctx->group->size : 1;
	if (st->got != want || o->wrong_rank == (int64_t)rank_of(ctx)) {
		ctx->error(ctx, "rank %u: the max of rank + 1 over the ranks is %g, not %g", rank_of(ctx), want,
			   o->wrong_rank == (int64_t)rank_of(ctx) ? want + 1 : st->got);
		return GPULAB_WRONG;
	}
	return GPULAB_OK;
}

static void teardown_collective(struct gpulab_ctx *ctx)
{
	free(ctx->state);
	ctx->state = NULL;
}

#ifdef FAKE_NO_VERIFY
#define VERIFY_OK NULL
#else
#define VERIFY_OK verify_ok
#endif

#ifdef FAKE_OLD_MINOR
/* struct gpulab_exercise as a header without max_devices had it */
struct old_exercise {
	const char *name, *summary;
	unsigned dtypes;
	uint64_t n, n_max;
	unsigned block;
	const struct gpulab_param *params;
	size_t params_size;
	gpulab_step_fn plan, setup, reset, run, host, verify;
	void (*teardown)(struct gpulab_ctx *);
	const void *data;
	const char *metrics;
	unsigned flags;
};
#define EXERCISE struct old_exercise
#define EXERCISE_SIZE sizeof(struct old_exercise)
#else
#define EXERCISE struct gpulab_exercise
#define EXERCISE_SIZE sizeof(struct gpulab_exercise)
#endif

#define HOST .flags = GPULAB_HOST_ONLY, .teardown = teardown

#ifndef FAKE_TRY
static const EXERCISE exercises[] = {
	{ .name = "ok", .summary = "always right", .dtypes = GPULAB_INT32 | GPULAB_FLOAT32, .n = 1024, .block = 256,
	  .plan = plan, .setup = setup, .run = run, .verify = VERIFY_OK, HOST },
	{ .name = "wrong", .summary = "always wrong", .dtypes = GPULAB_INT32, .n = 1024, .block = 256,
	  .plan = plan, .setup = setup, .run = run, .verify = verify_wrong, HOST },
	{ .name = "keyed", .summary = "takes a key of every type", .dtypes = GPULAB_INT32, .n = 1024, .n_max = 4096,
	  .block = 128, .params = keyed_params, .params_size = sizeof(struct keyed_opts),
	  .plan = plan_keyed, .setup = setup, .run = run, .verify = verify_ok, HOST },
	{ .name = "floaty", .summary = "float only, with a host step", .dtypes = GPULAB_FLOAT32, .n = 4096, .block = 64,
	  .plan = plan, .setup = setup, .run = run, .host = run, .verify = verify_ok, HOST },
	{ .name = "shaped", .summary = "its size from its own keys: takes no n or block", .dtypes = GPULAB_INT32,
	  .params = shaped_params, .params_size = sizeof(struct shaped_opts),
	  .plan = plan_shaped, .setup = setup, .run = run, .verify = verify_ok, HOST },
	{ .name = "resets", .summary = "counts its reset steps", .dtypes = GPULAB_INT32, .n = 64, .block = 32,
	  .plan = plan, .setup = setup, .reset = reset, .run = run, .verify = verify_ok, HOST },
	{ .name = "failsetup", .summary = "setup fails half-way", .dtypes = GPULAB_INT32, .n = 64, .block = 32,
	  .plan = plan, .setup = setup_fails, .run = run, .verify = verify_ok, HOST },
	{ .name = "picky", .summary = "setup refuses n past 2048", .dtypes = GPULAB_INT32, .n = 64, .block = 32,
	  .plan = plan, .setup = setup_picky, .run = run, .verify = verify_ok, HOST },
	{ .name = "chooser", .summary = "says what its automatic keys came to", .dtypes = GPULAB_INT32, .n = 4096,
	  .block = 32, .params = chooser_params, .params_size = sizeof(struct chooser_opts),
	  .plan = plan_chooser, .setup = setup_chooser, .run = run, .verify = verify_chooser, HOST },
	{ .name = "failrun", .summary = "run fails as a CUDA call would", .dtypes = GPULAB_INT32, .n = 64, .block = 32,
	  .plan = plan, .setup = setup, .run = run_fails, .verify = verify_ok, HOST },
	{ .name = "repeats", .summary = "counts its resets and runs; may be batched", .dtypes = GPULAB_INT32, .n = 64,
	  .block = 32, .plan = plan, .setup = setup, .reset = reset, .run = run_counted, .verify = verify_ok,
	  .flags = GPULAB_HOST_ONLY | GPULAB_REPEATS, .teardown = teardown },
	{ .name = "jittery", .summary = "every other run takes 50 us: never quiet", .dtypes = GPULAB_INT32, .n = 64,
	  .block = 32, .plan = plan, .setup = setup, .run = run_jittery, .verify = verify_ok, HOST },
	{ .name = "sleepy", .summary = "each run sleeps FAKE_SLEEP_MS; each point logged to FAKE_RUNS_LOG",
	  .dtypes = GPULAB_INT32 | GPULAB_FLOAT32, .n = 64, .block = 32, .plan = plan, .setup = setup_sleepy,
	  .run = run_sleepy, .verify = verify_sleepy, HOST },
	{ .name = "loses", .summary = "at n 256 the device is lost, as after a trap", .dtypes = GPULAB_INT32, .n = 64,
	  .block = 32, .plan = plan, .setup = setup, .run = run_loses, .verify = verify_ok, HOST },
	{ .name = "wrongat", .summary = "wrong at n 256 alone", .dtypes = GPULAB_INT32, .n = 64, .block = 32,
	  .plan = plan, .setup = setup, .run = run, .verify = verify_wrong_at_256, HOST },
	{ .name = "threaded", .summary = "starts a thread that lives on, as CUDA's runtime does; counts its runs", .dtypes = GPULAB_INT32,
	  .n = 64, .block = 32, .plan = plan, .setup = setup_threaded, .run = run_counted, .verify = verify_ok, HOST },
	{ .name = "unlike", .summary = "ok's point, other work (2.5): no speedup over ok", .dtypes = GPULAB_INT32 | GPULAB_FLOAT32,
	  .n = 1024, .block = 256, .plan = plan, .setup = setup, .run = run, .verify = VERIFY_OK,
	  .flags = GPULAB_HOST_ONLY | GPULAB_UNLIKE, .teardown = teardown },
	{ .name = "collective", .summary = "the ranks' max of rank + 1 (2.6): gpulab under mpirun, on the host",
	  .dtypes = GPULAB_INT32, .n = 1, .params = collective_params, .params_size = sizeof(struct collective_opts),
	  .plan = plan_collective, .setup = setup_collective, .run = run_collective, .verify = verify_collective,
	  .flags = GPULAB_HOST_ONLY | GPULAB_RANKS, .teardown = teardown_collective },
#ifdef FAKE_GRID
	{ .name = "gridded", .summary = "an unsigned count of blocks: 0 at -n 2^32 -b 1", .dtypes = GPULAB_INT32,
	  .n = 1 << 20, .n_max = 1ull << 32, .block = 256, .plan = plan_gridded, .setup = setup, .run = run,
	  .verify = verify_ok, HOST },
#endif
};

#endif

#ifdef FAKE_TRY
struct try_opts {
	const char *kernel;
};

static const struct gpulab_param try_params[] = {
	{ .key = "kernel", .type = GPULAB_PARAM_PATH, .offset = offsetof(struct try_opts, kernel), .def = "",
	  .help = "the kernel's file" },
	{ NULL }
};

static int verify_gated(struct gpulab_ctx *ctx)
{
	const struct try_opts *o = ctx->params;
	if (ctx->n == 1000003 && strstr(o->kernel, "bad")) {
		ctx->error(ctx, "sum of 1000003 ints: expected 1000003, got 1000000");
		return GPULAB_WRONG;
	}
	if (strstr(o->kernel, "quoted")) { /* as try's messages quote the learner's file */
		ctx->error(ctx, "%s:1: error: expected a \";\"", o->kernel);
		return GPULAB_WRONG;
	}
	return GPULAB_OK;
}

/* A kernel that traps (see FAKE_TRY above): the device lost, as
 * run_loses has it. */
static int run_gated(struct gpulab_ctx *ctx)
{
	const struct try_opts *o = ctx->params;
	unsigned runs = ++((struct state *)ctx->state)->runs;
	struct timespec slow = { 0, 2000000 };
	if (strstr(o->kernel, "crash"))
		abort();
	while (strstr(o->kernel, "hang"))
		pause();
	if (strstr(o->kernel, "slow"))
		nanosleep(&slow, NULL);
	if ((strstr(o->kernel, "lost") && ctx->n == 31) || (strstr(o->kernel, "later") && ctx->n == 4096 && runs >= 2)) {
		ctx->error(ctx, "kernel: unspecified launch failure (a trap)");
		return GPULAB_ELOST;
	}
	return GPULAB_OK;
}

/* A run that never returns, as a host thread waiting for an endless
 * kernel does not. */
static int run_forever(struct gpulab_ctx *ctx)
{
	(void)ctx;
	for (;;)
		pause();
	return GPULAB_OK;
}

#define TRY_EXERCISE(ex_name, run_fn, verify_fn) \
	{ .name = ex_name, .summary = "a challenge", .dtypes = GPULAB_INT32 | GPULAB_FLOAT32, .n = 1024, .n_max = 1u << 30, \
	  .params = try_params, .params_size = sizeof(struct try_opts), .plan = plan, .setup = setup, .run = run_fn, \
	  .verify = verify_fn, .teardown = teardown, .flags = GPULAB_HOST_ONLY | GPULAB_USER_CODE, .peers = "fake", \
	  .gate = "n=1;n=31;n=1000003" }

static const struct gpulab_exercise try_exercises[] = {
	TRY_EXERCISE("gated", run_gated, verify_gated),
	TRY_EXERCISE("hang", run_forever, verify_ok),
};
#undef EXERCISE_SIZE
#define EXERCISE_SIZE sizeof(struct gpulab_exercise)
#define EXERCISES try_exercises
#define BASELINE NULL /* its rows are compared with fake's (peers) */
#else
#define EXERCISES exercises
#define BASELINE "ok"
#endif

static const struct gpulab_plugin plugin = {
	.abi = FAKE_ABI, .abi_minor = FAKE_MINOR, .size = sizeof(struct gpulab_plugin),
	.exercise_size = EXERCISE_SIZE, .param_size = sizeof(struct gpulab_param),
	.name = FAKE_NAME, .summary = "host-only exercises for the core's tests",
	.exercises = (const struct gpulab_exercise *)EXERCISES, .n_exercises = sizeof EXERCISES / sizeof EXERCISES[0],
	.baseline = BASELINE,
#ifdef FAKE_REFERENCE
	.reference = FAKE_REFERENCE,
#endif
};

#ifdef FAKE_NO_ENTRY
GPULAB_EXPORT const struct gpulab_plugin *not_the_entry(void)
#else
GPULAB_PLUGIN_ENTRY
#endif
{
	return &plugin;
}
