/* libFuzzer target: options_parse on argv split from the input at NUL
 * bytes, and the escaping every error line goes through.  Checks: the
 * result is 0 or EXIT_USAGE with a message, and the escaped message is
 * one line of printable text that never carries a control byte.  Options
 * that parse then resolve the sweep of an exercise with a key of every
 * type (config/sweep.c): its points are the product of its axes, each
 * value typed or refused with a reason, or the whole sweep refused with
 * one. */
#include "escaped.h"
#include "exitcode.h"
#include "config/options.h"
#include "config/sweep.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_ARGS 64

struct keyed {
	uint64_t depth, seed;
	int64_t offset;
	unsigned mode;
	struct gpulab_shape tile;
	const char *file;
};

static const struct gpulab_param keyed_params[] = {
	{ .key = "mode", .type = GPULAB_PARAM_ENUM, .offset = offsetof(struct keyed, mode), .def = "fast", .help = "h",
	  .choices = "fast|slow" },
	{ .key = "depth", .type = GPULAB_PARAM_COUNT, .offset = offsetof(struct keyed, depth), .def = "3", .help = "h",
	  .min = 1, .max = 10 },
	{ .key = "tile", .type = GPULAB_PARAM_SHAPE, .offset = offsetof(struct keyed, tile), .def = "4x2", .help = "h",
	  .min = 1, .max = 64 },
	{ .key = "offset", .type = GPULAB_PARAM_INT, .offset = offsetof(struct keyed, offset), .def = "0", .help = "h",
	  .min = -5, .max = 5 },
	{ .key = "seed", .type = GPULAB_PARAM_SEED, .offset = offsetof(struct keyed, seed), .def = "random", .help = "h" },
	{ .key = "file", .type = GPULAB_PARAM_PATH, .offset = offsetof(struct keyed, file), .def = "", .help = "h" },
	{ NULL }
};

static const struct gpulab_exercise keyed = { .name = "keyed", .summary = "s", .dtypes = GPULAB_INT32 | GPULAB_FLOAT32,
					       .n = 1024, .n_max = 1u << 20, .block = 128, .params = keyed_params,
					       .params_size = sizeof(struct keyed) };

/* The sweep of o for `keyed`, checked. */
static void check_sweep(const struct options *o)
{
	struct config c = { 0 };
	struct sweep s;
	size_t product = 1;
	sweep_resolve(&s, "fuzz", &keyed, o, &c);
	if (s.refused && !s.why[0])
		abort();
	for (size_t i = 0; !s.refused && i < s.nkeys; i++) {
		product *= s.keys[i].nvalues;
		for (size_t k = 0; k < s.keys[i].nvalues; k++)
			if (s.keys[i].values[k].why)
				fuzz_check_escaped(s.keys[i].values[k].why);
	}
	if (!s.refused && (product != s.points || product > PARAM_MAX_POINTS))
		abort();
	if (sweep_points(&s) < 1)
		abort();
	sweep_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *argv[FUZZ_MAX_ARGS + 2] = { "gpulab" };
	int argc = 1;
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = 0;
	for (char *a = copy; a <= copy + size && argc <= FUZZ_MAX_ARGS; a += strlen(a) + 1)
		argv[argc++] = a;
	argv[argc] = NULL;
	struct options o;
	char err[512] = "";
	int rc = options_parse(&o, argc, argv, err, sizeof err);
	if (rc != 0 && ((rc != EXIT_USAGE && rc != EXIT_NOMEM) || !err[0]))
		abort();
	/* no command only where no word was left for one, or under --version */
	if (rc == 0 && ((!o.command && o.npatterns && !o.version) || o.npatterns < 0 || o.npatterns > argc
			|| o.nparams > MAX_KEYVALS))
		abort();
	for (int i = 0; rc == 0 && i < o.nparams; i++)
		if (!options_param(&o, o.params[i].key))
			abort();
	if (rc)
		fuzz_check_escaped(err);
	else
		check_sweep(&o);
	options_free(&o);
	free(copy);
	return 0;
}
