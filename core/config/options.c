#include "config/options.h"

#include "exitcode.h"
#include "config/opterr.h"

#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_COLD = 256, OPT_FORMAT, OPT_NO_VERIFY, OPT_CONFIG, OPT_VERSION, OPT_QUIET, OPT_METRICS, OPT_PROFILE,
       OPT_SAMPLES, OPT_MAX_NOISE, OPT_MIN_TIME, OPT_TIMEOUT,
       OPT_FAIL_ABOVE, OPT_MIN_CHANGE, OPT_BASE, OPT_NEW, OPT_WATCHDOG, OPT_TEMPLATE,
       OPT_BATCH, OPT_RESUME, OPT_WIDE, OPT_SUBMIT, OPT_VARIABLE, OPT_CFLAGS, OPT_NCCL_TESTS };

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
	{ "samples", optional_argument, NULL, OPT_SAMPLES },
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
	{ "variable", required_argument, NULL, OPT_VARIABLE },
	{ "cflags", no_argument, NULL, OPT_CFLAGS },
	{ "nccl-tests", required_argument, NULL, OPT_NCCL_TESTS },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

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

/* A generic value (or a list or range of them), typed here against its
 * declaration, once: a malformed one is a usage error before anything
 * is loaded.  An exercise's own limits (a largest n, the types it takes)
 * narrow these values when its sweep is resolved (config/sweep.c). */
static int set_generic(struct options *o, enum generic g, const char *arg, char *err, size_t errlen)
{
	char why[256];
	typed_axis_free(&o->axes[g]); /* the last one given wins */
	o->generic[g] = NULL;
	if (typed_axis_parse(&generic_params[g], arg, &o->axes[g], why, sizeof why) != PARSE_OK) {
		int nomem = !o->axes[g].v && o->axes[g].n;
		typed_axis_free(&o->axes[g]);
		snprintf(err, errlen, "%s %s: %s", options_flag(g), arg, why);
		return nomem ? EXIT_NOMEM : EXIT_USAGE;
	}
	o->generic[g] = arg;
	return 0;
}

void options_free(struct options *o)
{
	for (int g = 0; g < NGENERIC; g++)
		typed_axis_free(&o->axes[g]);
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

/* --config FILE, after those given before it: all are read, in order. */
static int add_config(struct options *o, const char *arg, char *err, size_t errlen)
{
	if (o->nconfigs == MAX_CONFIGS) {
		snprintf(err, errlen, "--config %s: more than %d configuration files", arg, MAX_CONFIGS);
		return EXIT_USAGE;
	}
	o->configs[o->nconfigs++] = arg;
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

/* --samples: the samples in the JSON report, at most 4096 a point;
 * --samples N (or =N): at most N, there and in the record; --samples all:
 * every one. */
static int parse_samples(struct options *o, const char *arg, char *err, size_t errlen)
{
	double n;
	o->samples = 1;
	if (!arg)
		return 0;
	if (!strcmp(arg, "all")) {
		o->samples_keep = UINT_MAX;
		return 0;
	}
	if (number("--samples", arg, 1, 1e9, 1, &n, err, errlen) || n != (unsigned)n) {
		snprintf(err, errlen, "--samples %s: expected all, or a count of samples from 1 to 1000000000", arg);
		return EXIT_USAGE;
	}
	o->samples_keep = (unsigned)n;
	return 0;
}

/* Is word --samples' value, given as a word of its own: all, or a
 * number, a negative one too, so that `--samples -1` is refused as a
 * count out of range and not as an unknown option -1. */
static int samples_word(const char *word)
{
	const char *digits = word + (word[0] == '-');
	return !strcmp(word, "all") || (*digits && strspn(digits, "0123456789") == strlen(digits));
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
	case OPT_SAMPLES: rc = parse_samples(o, arg, err, errlen); break;
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
	case OPT_VARIABLE: o->variable = arg; break;
	case OPT_CFLAGS: o->cflags = 1; break;
	case OPT_NCCL_TESTS: o->nccl_tests = arg; break;
	case OPT_CONFIG: rc = add_config(o, arg, err, errlen); break;
	case 'h': o->help = 1; break;
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
	while ((c = getopt_long(argc, argv, ":n:b:r:w:t:p:o:h", long_options, NULL)) != -1) {
		if (c == '?' || c == ':') {
			opterr_message(long_options, c, optopt, argv[optind - 1], err, errlen);
			return EXIT_USAGE;
		}
		/* --samples all or N, as two words: getopt takes an optional argument only as --samples=all */
		if (c == OPT_SAMPLES && !optarg && optind < argc && samples_word(argv[optind]))
			optarg = argv[optind++];
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
	/* --help or -h after a command is that command's help */
	o->command = forced ? forced : optind < argc ? argv[optind++] : "help";
	o->patterns = argv + optind;
	o->npatterns = argc - optind;
	return 0;
}
