/* The command line. */
#ifndef GPULAB_OPTIONS_H
#define GPULAB_OPTIONS_H

#include <gpulab/plugin.h>

#include <stdint.h>
#include <stdio.h>

enum format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };

/* A -p key=value pair. */
struct keyval {
	const char *key;   /* points into the argument, '=' replaced */
	const char *value;
};

#define MAX_KEYVALS 64

struct options {
	const char *command;       /* list, info, metrics, run, help, version */
	char **patterns;           /* run's exercise names */
	int npatterns;
	/* what the command line sets; `have` says which */
	uint64_t n;
	unsigned block, reps, warmup;
	enum gpulab_dtype dtype;
	unsigned have_n : 1, have_block : 1, have_reps : 1, have_warmup : 1, have_dtype : 1;
	struct keyval params[MAX_KEYVALS];
	int nparams;
	int cold, verify, quiet;
	enum format format;
	const char *config;
	const char *metrics;       /* --metrics LIST, or NULL */
};

/* Parse argv (which it may modify).  Returns 0, or EXIT_USAGE with one
 * line in err. */
int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen);

/* The value of a -p key, or NULL. */
const char *options_param(const struct options *o, const char *key);

/* "int"/"float" <-> enum gpulab_dtype; 0 for an unknown name. */
enum gpulab_dtype dtype_from_name(const char *name);
const char *dtype_name(enum gpulab_dtype t);

void usage(FILE *out);

#endif
