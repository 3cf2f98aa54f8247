#include "options.h"

#include "exitcode.h"
#include "opterr.h"
#include "size.h"

#include <getopt.h>
#include <string.h>

enum { OPT_COLD = 256, OPT_FORMAT, OPT_NO_VERIFY, OPT_CONFIG, OPT_HELP, OPT_VERSION, OPT_QUIET, OPT_METRICS };

static const struct option long_options[] = {
	{ "size", required_argument, NULL, 'n' },
	{ "block", required_argument, NULL, 'b' },
	{ "reps", required_argument, NULL, 'r' },
	{ "warmup", required_argument, NULL, 'w' },
	{ "type", required_argument, NULL, 't' },
	{ "param", required_argument, NULL, 'p' },
	{ "cold", no_argument, NULL, OPT_COLD },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "no-verify", no_argument, NULL, OPT_NO_VERIFY },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "metrics", required_argument, NULL, OPT_METRICS },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

void usage(FILE *out)
{
	fputs("usage: gpulab [OPTION]... COMMAND [EXERCISE]...\n"
	      "\n"
	      "commands:\n"
	      "  list                 plugins and exercises, and the file each came from\n"
	      "  info                 the GPU: limits, caches, peak memory bandwidth\n"
	      "  metrics              the nvprof metric names --metrics takes, and what they read\n"
	      "  run EXERCISE...      run, verify and time: plugin.exercise, a plugin,\n"
	      "                       or a glob such as 'reduce.unroll*'\n"
	      "\n"
	      "options for run:\n"
	      "  -n, --size N         element count: 16777216, 2^24 or 16M\n"
	      "  -b, --block N        threads per block\n"
	      "  -t, --type T         element type: int or float\n"
	      "  -r, --reps N         timed repetitions (default 20)\n"
	      "  -w, --warmup N       untimed runs first (default 3)\n"
	      "  -p, --param KEY=VAL  an exercise's own key (see gpulab list)\n"
	      "      --cold           flush the L2 cache before every repetition\n"
	      "      --format F       table, csv or json (default table)\n"
	      "      --no-verify      skip the check against the CPU reference\n"
	      "      --quiet          no device-side printing\n"
	      "      --metrics LIST   hardware counters from extra, untimed runs: names from\n"
	      "                       `gpulab metrics`, Nsight Compute names, or 'default'\n"
	      "\n"
	      "  --config FILE        read FILE after the other configuration files\n"
	      "  --help, --version\n"
	      "\n"
	      "See gpulab(1) for the configuration files and the exit codes.\n", out);
}

enum gpulab_dtype dtype_from_name(const char *name)
{
	if (!strcmp(name, "int"))
		return GPULAB_INT32;
	if (!strcmp(name, "float"))
		return GPULAB_FLOAT32;
	return 0;
}

const char *dtype_name(enum gpulab_dtype t)
{
	return t == GPULAB_FLOAT32 ? "float" : "int";
}

const char *options_param(const struct options *o, const char *key)
{
	const char *v = NULL;
	for (int i = 0; i < o->nparams; i++)
		if (!strcmp(o->params[i].key, key))
			v = o->params[i].value; /* the last one given wins */
	return v;
}

static int count(const char *opt, const char *arg, int allow_zero, uint64_t max, uint64_t *out,
		 char *err, size_t errlen)
{
	if (parse_size(arg, out) != 0 || (*out == 0 && !allow_zero) || *out > max) {
		snprintf(err, errlen, "%s: invalid value '%s' (expected a count%s, e.g. 1024, 2^10 or 1K)",
			 opt, arg, allow_zero ? "" : " of at least 1");
		return EXIT_USAGE;
	}
	return 0;
}

static int add_param(struct options *o, char *arg, char *err, size_t errlen)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg) {
		snprintf(err, errlen, "-p: expected KEY=VALUE, got '%s'", arg);
		return EXIT_USAGE;
	}
	if (o->nparams == MAX_KEYVALS) {
		snprintf(err, errlen, "-p: more than %d keys", MAX_KEYVALS);
		return EXIT_USAGE;
	}
	*eq = 0;
	o->params[o->nparams++] = (struct keyval){ arg, eq + 1 };
	return 0;
}

static int parse_format(struct options *o, const char *arg, char *err, size_t errlen)
{
	static const char *const names[] = { "table", "csv", "json" };
	for (int i = 0; i < 3; i++)
		if (!strcmp(arg, names[i])) {
			o->format = (enum format)i;
			return 0;
		}
	snprintf(err, errlen, "--format: unknown format '%s' (table, csv or json)", arg);
	return EXIT_USAGE;
}

static int parse_one(struct options *o, int c, char *arg, char *err, size_t errlen)
{
	uint64_t v;
	int rc = 0;
	switch (c) {
	case 'n':
		rc = count("-n", arg, 0, UINT64_MAX, &o->n, err, errlen);
		o->have_n = 1;
		break;
	case 'b':
		rc = count("-b", arg, 0, 0xffffffffu, &v, err, errlen);
		o->block = (unsigned)v, o->have_block = 1;
		break;
	case 'r':
		rc = count("-r", arg, 0, 1000000, &v, err, errlen);
		o->reps = (unsigned)v, o->have_reps = 1;
		break;
	case 'w':
		rc = count("-w", arg, 1, 1000000, &v, err, errlen);
		o->warmup = (unsigned)v, o->have_warmup = 1;
		break;
	case 't':
		if (!(o->dtype = dtype_from_name(arg))) {
			snprintf(err, errlen, "-t: unknown type '%s' (int or float)", arg);
			rc = EXIT_USAGE;
		}
		o->have_dtype = 1;
		break;
	case 'p': rc = add_param(o, arg, err, errlen); break;
	case OPT_COLD: o->cold = 1; break;
	case OPT_FORMAT: rc = parse_format(o, arg, err, errlen); break;
	case OPT_NO_VERIFY: o->verify = 0; break;
	case OPT_QUIET: o->quiet = 1; break;
	case OPT_METRICS: o->metrics = arg; break;
	case OPT_CONFIG: o->config = arg; break;
	case OPT_HELP: o->command = "help"; break;
	case OPT_VERSION: o->command = "version"; break;
	default:
		snprintf(err, errlen, "unknown option; `gpulab --help` lists them");
		rc = EXIT_USAGE;
	}
	return rc;
}

int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen)
{
	int c, rc;
	const char *forced = NULL;
	*o = (struct options){ .verify = 1, .format = FORMAT_TABLE };
	opterr = 0; /* we say it ourselves, in one line */
	optind = 0; /* glibc: start afresh, even where an error left getopt mid-argument */
	while ((c = getopt_long(argc, argv, ":n:b:r:w:t:p:", long_options, NULL)) != -1) {
		if (c == '?' || c == ':') {
			opterr_message(long_options, c, optopt, argv[optind - 1], err, errlen);
			return EXIT_USAGE;
		}
		if ((rc = parse_one(o, c, optarg, err, errlen)))
			return rc;
		if (o->command)
			forced = o->command;
	}
	o->command = forced ? forced : optind < argc ? argv[optind++] : "help";
	o->patterns = argv + optind;
	o->npatterns = argc - optind;
	return 0;
}
