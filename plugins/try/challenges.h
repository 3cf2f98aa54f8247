/*
 * The try plugin's exercises, one a challenge folder (docs/challenge.md):
 * read when gpulab loads the plugin, from the folders the core found and
 * names in GPULAB_CHALLENGE_FOLDERS (':'-separated, the first of a name
 * wins; cli/load.c sets it).  Each folder's challenge.ini is read by the
 * core's own reader (core/plugins/challenge.h, linked from
 * core/libshared.la), so the plugin holds nothing of a challenge in C:
 * the exercise's name, summary, types, keys, gate and peers all come from
 * the file.  A folder that does not read is left out here; the core has
 * said why, in one line, before it loads the plugin.
 *
 * Plain C: the CPU tests build the exercises as the plugin does.
 */
#ifndef GPULAB_TRY_CHALLENGES_H
#define GPULAB_TRY_CHALLENGES_H

#include "plugins/challenge.h"

#include <gpulab/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The keys' struct of every challenge's exercise: the kernel's file, the
 * sides of a 2-D challenge (1-D takes -n), the input's seed and
 * generator (-p input=constant; a test size may name its own). */
struct try_opts {
	const char *kernel;
	uint64_t x, y;
	uint64_t seed;
	unsigned input;         /* the generator: enum challenge_generator */
};

/* One challenge as an exercise: what its declaration points into. */
struct try_challenge {
	struct challenge c;
	char summary[640];
	char gate[4096];          /* 16 cases of at most ~130 bytes each */
	char peers[CHALLENGE_MAX_NAME];
	char defaults[2][24];
	struct gpulab_param params[6];
};

/* The exercises of the folders in `folders` (':'-separated; NULL or ""
 * for none), each `proto` (the callbacks) with the challenge's own
 * declarations, and ->data its struct try_challenge.  *out is malloc'ed
 * (with what it points into), never freed: the plugin's for the life of
 * the process.  The count; 0 with *out NULL for none or out of memory. */
size_t try_challenges(const char *folders, const struct gpulab_exercise *proto, struct gpulab_exercise **out);

#ifdef __cplusplus
}
#endif

#endif
