#include "config/options.h"

#include "exitcode.h"
#include "config/opterr.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_COLD = 256, OPT_FORMAT, OPT_NO_VERIFY, OPT_CONFIG, OPT_HELP, OPT_VERSION, OPT_QUIET, OPT_METRICS, OPT_PROFILE,
       OPT_SAMPLES, OPT_MAX_NOISE, OPT_MIN_TIME, OPT_TIMEOUT,
       OPT_FAIL_ABOVE, OPT_MIN_CHANGE, OPT_BASE, OPT_NEW, OPT_WATCHDOG, OPT_TEMPLATE,
       OPT_BATCH, OPT_RESUME, OPT_WIDE, OPT_SUBMIT };

static const struct option long_options[] = {
	{ "size", required_argument, NULL, 'n' },
	{ "block", required_argument, NULL, 'b' },
	{ "reps", required_argument, NULL, 'r' },
	{ "warmup", required_argument, NULL, 'w' },
	{ "type", required_argument, NULL, 't' },
	{ "param", required_argument, NULL, 'p' },
	{ "cold", no_argument, NULL, OPT_COLD },
	{ "batch", required_argument, NULL, OPT_BATCH },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "no-verify", no_argument, NULL, OPT_NO_VERIFY },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "metrics", required_argument, NULL, OPT_METRICS },
	{ "profile", no_argument, NULL, OPT_PROFILE },
	{ "samples", no_argument, NULL, OPT_SAMPLES },
	{ "wide", no_argument, NULL, OPT_WIDE },
	{ "output", required_argument, NULL, 'o' },
	{ "resume", no_argument, NULL, OPT_RESUME },
	{ "max-noise", required_argument, NULL, OPT_MAX_NOISE },
	{ "min-time", required_argument, NULL, OPT_MIN_TIME },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "fail-above", required_argument, NULL, OPT_FAIL_ABOVE },
	{ "min-change", required_argument, NULL, OPT_MIN_CHANGE },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "new", required_argument, NULL, OPT_NEW },
	{ "watchdog", required_argument, NULL, OPT_WATCHDOG },
	{ "template", no_argument, NULL, OPT_TEMPLATE },
	{ "submit", required_argument, NULL, OPT_SUBMIT },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

void usage(FILE *out)
{
	const struct stopping stop = STOP_DEFAULTS;
	fprintf(out, "usage: gpulab [OPTION]... COMMAND [EXERCISE]...\n"
	      "\n"
	      "commands:\n"
	      "  list                 plugins and exercises, and the file each came from\n"
	      "  info                 the GPU: limits, caches, peak memory bandwidth\n"
	      "  metrics              the nvprof metric names --metrics takes, and what they read\n"
	      "  run EXERCISE...      run, verify and time: plugin.exercise, a plugin,\n"
	      "                       or a glob such as 'reduce.unroll*'\n"
	      "  compare BASE NEW     two records (run --output) point by point, with a\n"
	      "                       Mann-Whitney U test's verdict: faster, slower, same\n"
	      "  compare RECORD --base EX --new EX\n"
	      "                       two exercises of one record (or of two), size by size\n"
	      "  try CHALLENGE FILE   your kernel in FILE.cu, compiled at run time, checked on\n"
	      "                       edge cases, then timed beside the challenge's ladder;\n"
	      "                       challenges: reduce, transpose, sum_matrix\n"
	      "  try CHALLENGE --template   a starting FILE, with the kernel's contract\n"
	      "  report RECORD... -o FILE.html\n"
	      "                       records as one page of charts and tables, or -o\n"
	      "                       FILE.svg for the first chart alone\n"
	      "  learn                the lessons: the book's claims, tested on this GPU, and\n"
	      "                       your progress through them\n"
	      "  learn LESSON [--submit FILE.cu]\n"
	      "                       run a lesson's experiment and judge the claim; or run\n"
	      "                       your kernel for its task through try\n"
	      "  grade CHALLENGE DIR...\n"
	      "                       every .cu in DIR through try, each in its own process,\n"
	      "                       ranked; -o FILE writes the record (gpulab report draws it)\n"
	      "\n"
	      "options for run:\n"
	      "  -n, --size N         element count: 16777216, 2^24 or 16M (exercises sized by\n"
	      "                       their own keys refuse it)\n"
	      "  -b, --block N        threads per block\n"
	      "  -t, --type T         element type: int or float\n"
	      "  -r, --reps N         exactly N timed repetitions (default: stop on noise, or %s)\n"
	      "  -w, --warmup N       untimed runs first (default %s)\n"
	      "  -p, --param KEY=VAL  an exercise's own key (see gpulab list)\n"
	      "      --cold           flush the L2 cache before every repetition\n"
	      "      --batch K        time K runs back to back per sample, and take the time\n"
	      "                       over K (default 1; at most %d): less noise, no launch gaps\n"
	      "      --format F       table, csv, json or md (default table)\n"
	      "      --max-noise PCT  repeat each point until the relative standard deviation\n"
	      "                       of its samples is at most PCT %% (default %g), unless -r\n"
	      "      --min-time S     ...and its samples add up to S seconds of GPU time (%g)\n"
	      "      --timeout S      ...or S seconds have passed, unconverged (default %g)\n"
	      "  -o, --output FILE    also write the JSON record, every sample in it, to FILE\n"
	      "      --resume         with -o FILE: keep FILE's points, run only those it lacks\n"
	      "      --samples        every timed sample in the JSON report\n"
	      "      --wide           the table with every column (params, min, max, runs, noise)\n"
	      "      --no-verify      skip the check against the CPU reference\n"
	      "      --quiet          no device-side printing\n"
	      "      --profile        run each exercise once, no warm-up, for ncu or nsys\n"
	      "      --metrics LIST   hardware counters from extra, untimed runs: names from\n"
	      "                       `gpulab metrics`, Nsight Compute names, or 'default'\n"
	      "      --watchdog S     stop gpulab, exit %d, if one run takes over S seconds\n"
	      "                       (default %d for try's kernels, else never; 0: never)\n"
	      "\n"
	      "options for compare:\n"
	      "      --fail-above PCT exit %d if a point is slower by more than PCT %%, with confidence\n"
	      "      --min-change PCT a significant change under PCT %% counts as the same (default 0)\n"
	      "      --base EX        the base side is exercise EX's points alone...\n"
	      "      --new EX         ...and the new side EX's, matched by the parameters both take\n"
	      "      --format F       table, csv, json or md (default table)\n"
	      "\n"
	      "  --config FILE        read FILE after the other configuration files\n"
	      "  --help, --version\n"
	      "\n"
	      "See gpulab(1) for the configuration files and the exit codes.\n",
	      generic_params[GEN_REPS].def, generic_params[GEN_WARMUP].def, BATCH_MAX, 100 * stop.max_noise, stop.min_time_s,
	      stop.timeout_s, EXIT_WATCHDOG, WATCHDOG_DEFAULT_S, EXIT_SLOWER);
}

const char *options_param(const struct options *o, const char *key)
{
	const char *v = NULL;
	for (int i = 0; i < o->nparams; i++)
		if (!strcmp(o->params[i].key, key))
			v = o->params[i].value; /* the last one given wins */
	return v;
}

static const char flags[NGENERIC] = { [GEN_N] = 'n', [GEN_BLOCK] = 'b', [GEN_TYPE] = 't', [GEN_REPS] = 'r',
					 [GEN_WARMUP] = 'w' };

const char *options_flag(enum generic g)
{
	static const char *const names[NGENERIC] = { "-n", "-b", "-t", "-r", "-w" };
	return names[g];
}

/* A generic value (or a list or range of them), checked here against
 * its declaration, so a malformed one is a usage error before anything
 * is loaded.  An exercise's own
 * limits (a largest n) are checked when it is planned. */
static int set_generic(struct options *o, enum generic g, const char *arg, char *err, size_t errlen)
{
	size_t values;
	char why[256];
	if (param_axis(&generic_params[g], arg, &values, why, sizeof why) != PARSE_OK) {
		snprintf(err, errlen, "%s %s: %s", options_flag(g), arg, why);
		return EXIT_USAGE;
	}
	o->generic[g] = arg;
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
	/* -p n=, -p block= ... are checked where they are resolved: an
	 * exercise may declare a key of its own by that name */
	o->params[o->nparams++] = (struct keyval){ arg, eq + 1 };
	return 0;
}

static int parse_format(struct options *o, const char *arg, char *err, size_t errlen)
{
	static const char *const names[FORMATS] = { "table", "csv", "json", "md" };
	for (int i = 0; i < FORMATS; i++)
		if (!strcmp(arg, names[i])) {
			o->format = (enum format)i;
			return 0;
		}
	snprintf(err, errlen, "--format: unknown format '%s' (table, csv, json or md)", arg);
	return EXIT_USAGE;
}

/* A decimal number from lo to hi (scaled by scale: percent to a
 * fraction), strictly: no spaces, no hex, no inf or nan. */
static int number(const char *opt, const char *arg, double lo, double hi, double scale, double *out, char *err,
		  size_t errlen)
{
	char *end;
	double v;
	errno = 0;
	v = arg[strspn(arg, "0123456789.")] == 0 && *arg ? strtod(arg, &end) : -1;
	if (errno || v < lo || v > hi) {
		snprintf(err, errlen, "%s %s: expected a number from %g to %g", opt, arg, lo, hi);
		return EXIT_USAGE;
	}
	*out = v * scale;
	return 0;
}

/* --batch K: a whole number of runs per sample. */
static int parse_batch(struct options *o, const char *arg, char *err, size_t errlen)
{
	double k;
	if (number("--batch", arg, 1, BATCH_MAX, 1, &k, err, errlen) || k != (unsigned)k) {
		snprintf(err, errlen, "--batch %s: expected a whole number of runs from 1 to %d", arg, BATCH_MAX);
		return EXIT_USAGE;
	}
	o->batch = (unsigned)k;
	return 0;
}

static int parse_one(struct options *o, int c, char *arg, char *err, size_t errlen)
{
	int rc = 0;
	for (int g = 0; g < NGENERIC; g++)
		if (c == flags[g])
			return set_generic(o, (enum generic)g, arg, err, errlen);
	switch (c) {
	case 'p': rc = add_param(o, arg, err, errlen); break;
	case OPT_COLD: o->cold = 1; break;
	case OPT_BATCH: rc = parse_batch(o, arg, err, errlen); break;
	case OPT_FORMAT: rc = parse_format(o, arg, err, errlen); break;
	case OPT_NO_VERIFY: o->verify = 0; break;
	case OPT_QUIET: o->quiet = 1; break;
	case OPT_METRICS: o->metrics = arg; break;
	case OPT_PROFILE: o->profile = 1; break;
	case OPT_SAMPLES: o->samples = 1; break;
	case OPT_WIDE: o->wide = 1; break;
	case 'o': o->output = arg; break;
	case OPT_RESUME: o->resume = 1; break;
	case OPT_MAX_NOISE: rc = number("--max-noise", arg, 0.001, 100, 0.01, &o->stop.max_noise, err, errlen); break;
	case OPT_MIN_TIME: rc = number("--min-time", arg, 0, 3600, 1, &o->stop.min_time_s, err, errlen); break;
	case OPT_TIMEOUT: rc = number("--timeout", arg, 0.001, 86400, 1, &o->stop.timeout_s, err, errlen); break;
	case OPT_FAIL_ABOVE: rc = number("--fail-above", arg, 0, 1000, 1, &o->fail_above, err, errlen); break;
	case OPT_MIN_CHANGE: rc = number("--min-change", arg, 0, 100, 1, &o->min_change, err, errlen); break;
	case OPT_BASE: o->base_exercise = arg; break;
	case OPT_NEW: o->new_exercise = arg; break;
	case OPT_WATCHDOG: rc = number("--watchdog", arg, 0, 86400, 1, &o->watchdog, err, errlen); break;
	case OPT_TEMPLATE: o->template_only = 1; break;
	case OPT_SUBMIT: o->submit = arg; break;
	case OPT_CONFIG: o->config = arg; break;
	case OPT_HELP: o->command = "help"; break;
	case OPT_VERSION: o->command = "version"; break;
	default:
		snprintf(err, errlen, "unknown option; `gpulab --help` lists them");
		rc = EXIT_USAGE;
	}
	return rc;
}

/* argv as one line a shell reads back to the same words: words with
 * anything but safe characters in single quotes.  Cut with "..." where
 * it does not fit. */
static void quote_command(char *buf, size_t len, int argc, char **argv)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,:/^%@";
	char *line = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&line, &size);
	for (int i = 0; f && i < argc; i++) {
		const char *a = argv[i];
		int plain = *a && strspn(a, safe) == strlen(a);
		fputs(i ? (plain ? " " : " '") : (plain ? "" : "'"), f);
		for (; *a; a++)
			fputs(*a == '\'' ? "'\\''" : (char[]){ *a, 0 }, f); /* close, escaped quote, reopen */
		fputs(plain ? "" : "'", f);
	}
	if (f && fclose(f) == 0 && line) {
		snprintf(buf, len, "%s", line);
		if (size >= len)
			snprintf(buf + len - 4, 4, "...");
	} else {
		snprintf(buf, len, "%s", argc ? argv[0] : "");
	}
	free(line);
}

int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen)
{
	int c, rc;
	const char *forced = NULL;
	*o = (struct options){ .verify = 1, .batch = 1, .format = FORMAT_TABLE, .stop = STOP_DEFAULTS, .fail_above = -1, .watchdog = -1 };
	quote_command(o->command_line, sizeof o->command_line, argc, argv); /* before getopt reorders argv */
	opterr = 0; /* we say it ourselves, in one line */
	optind = 0; /* glibc: start afresh, even where an error left getopt mid-argument */
	while ((c = getopt_long(argc, argv, ":n:b:r:w:t:p:o:", long_options, NULL)) != -1) {
		if (c == '?' || c == ':') {
			opterr_message(long_options, c, optopt, argv[optind - 1], err, errlen);
			return EXIT_USAGE;
		}
		if ((rc = parse_one(o, c, optarg, err, errlen)))
			return rc;
		if (o->command)
			forced = o->command;
	}
	if (o->profile && (o->generic[GEN_REPS] || o->generic[GEN_WARMUP])) {
		snprintf(err, errlen, "--profile runs each exercise once: it takes no -r or -w");
		return EXIT_USAGE;
	}
	if (o->batch > 1 && (o->cold || o->profile)) {
		snprintf(err, errlen, "--batch runs back to back: it takes no %s", o->cold ? "--cold (a flush before every run)"
			 : "--profile (one run)");
		return EXIT_USAGE;
	}
	if (o->resume && !o->output) {
		snprintf(err, errlen, "--resume: name the record to resume with -o FILE");
		return EXIT_USAGE;
	}
	if (o->profile) /* one run, as if asked for on the command line */
		o->generic[GEN_REPS] = "1", o->generic[GEN_WARMUP] = "0";
	o->command = forced ? forced : optind < argc ? argv[optind++] : "help";
	o->patterns = argv + optind;
	o->npatterns = argc - optind;
	return 0;
}
