#include "command_names.h"
#include "config/options.h"

#include "exitcode.h"
#include "config/opterr.h"

#include <errno.h>
#include <stddef.h>
#include <limits.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define STR_(x) #x
#define STR(x) STR_(x)

/* Every option: spelled here alone; the commands' rows (cli/) take them
 * by id, and their help and completion come from these lines. */
const struct option_row option_rows[NOPTS] = {
	[OPT_SIZE] = { "size", 'n', required_argument, "N", "element count: 16777216, 2^24 or 16M (exercises sized\n"
							    "by their own keys refuse it)" },
	[OPT_BLOCK] = { "block", 'b', required_argument, "N", "threads per block" },
	[OPT_TYPE] = { "type", 't', required_argument, "T", "element type: int or float" },
	[OPT_REPS] = { "reps", 'r', required_argument, "N", "exactly N timed runs (default: until the noise is under\n"
							    "--max-noise; see below)" },
	[OPT_WARMUP] = { "warmup", 'w', required_argument, "N", "untimed runs first (default 3)" },
	[OPT_PARAM] = { "param", 'p', required_argument, "KEY=VAL", "an exercise's own key (gpulab " CMD_LIST " EXERCISE)" },
	[OPT_COLD] = { "cold", 0, no_argument, NULL, "flush the L2 cache before every run",
			  OPTK_FLAG, offsetof(struct options, cold), 1 },
	[OPT_BATCH] = { "batch", 0, required_argument, "K", "time K runs back to back per sample, and take the time\n"
							   "over K (default 1; at most " STR(BATCH_MAX) "): less noise, no gaps" },
	[OPT_FORMAT] = { "format", 0, required_argument, "F", "what to print: each command's help names its formats" },
	[OPT_MAX_NOISE] = { "max-noise", 0, required_argument, "PCT", "repeat each point until the relative standard deviation\n"
								  "of its samples is at most PCT % (default 0.5)",
			  OPTK_NUMBER, offsetof(struct options, stop.max_noise), 0, 0.001, 100, 0.01 },
	[OPT_MIN_TIME] = { "min-time", 0, required_argument, "S", "...and its samples add up to S seconds of GPU time (0.1)",
			  OPTK_NUMBER, offsetof(struct options, stop.min_time_s), 0, 0, 3600, 1 },
	[OPT_TIMEOUT] = { "timeout", 0, required_argument, "S", "...or S seconds have passed, unconverged (default 10)",
			  OPTK_NUMBER, offsetof(struct options, stop.timeout_s), 0, 0.001, 86400, 1 },
	[OPT_OUTPUT] = { "output", 'o', required_argument, "FILE", "also write the record to FILE, a journal appended as each\n"
								  "point is done (record.md, below); one writer at a time",
			  OPTK_TEXT, offsetof(struct options, output) },
	[OPT_RESUME] = { "resume", 0, no_argument, NULL, "with -o FILE: keep FILE's measured points, run the rest",
			  OPTK_FLAG, offsetof(struct options, resume), 1 },
	[OPT_SAMPLES] = { "samples", 0, optional_argument, "[N]", "the samples in the JSON report, at most 4096 a point (a\n"
								 "uniform subset), or N, or with all every one; -o's too" },
	[OPT_WIDE] = { "wide", 0, no_argument, NULL, "the table with every column (params, min, max, runs)",
			  OPTK_FLAG, offsetof(struct options, wide), 1 },
	[OPT_NO_VERIFY] = { "no-verify", 0, no_argument, NULL, "skip the check against the CPU reference",
			  OPTK_FLAG, offsetof(struct options, verify), 0 },
	[OPT_QUIET] = { "quiet", 0, no_argument, NULL, "no device-side printing",
			  OPTK_FLAG, offsetof(struct options, quiet), 1 },
	[OPT_PROFILE] = { "profile", 0, no_argument, NULL, "run each exercise once, no warm-up, for ncu or nsys",
			  OPTK_FLAG, offsetof(struct options, profile), 1 },
	[OPT_METRICS] = { "metrics", 0, required_argument, "LIST", "hardware counters from extra, untimed runs: names from\n"
								   "`gpulab " CMD_METRICS "`, Nsight Compute names, or 'default'",
			  OPTK_TEXT, offsetof(struct options, metrics) },
	[OPT_WATCHDOG] = { "watchdog", 0, required_argument, "S", "stop gpulab, exit 12, if one run takes over S seconds\n"
								 "(default " STR(WATCHDOG_DEFAULT_S) " for try's kernels, else never; 0: never)",
			  OPTK_NUMBER, offsetof(struct options, watchdog), 0, 0, 86400, 1 },
	[OPT_FAIL_ABOVE] = { "fail-above", 0, required_argument, "PCT", "exit 11 if a point is slower by more than PCT %,\n"
									"with confidence",
			  OPTK_NUMBER, offsetof(struct options, fail_above), 0, 0, 1000, 1 },
	[OPT_MIN_CHANGE] = { "min-change", 0, required_argument, "PCT", "a significant change under PCT % counts as the same\n"
									"(default 0)",
			  OPTK_NUMBER, offsetof(struct options, min_change), 0, 0, 100, 1 },
	[OPT_BASE] = { "base", 0, required_argument, "EX", "the base side is exercise EX's points alone...",
			  OPTK_TEXT, offsetof(struct options, base_exercise) },
	[OPT_NEW] = { "new", 0, required_argument, "EX", "...and the new side EX's, matched by their parameters",
			  OPTK_TEXT, offsetof(struct options, new_exercise) },
	[OPT_TEMPLATE] = { "template", 0, no_argument, NULL, "print a starting FILE.cu, with the kernel's contract",
			  OPTK_FLAG, offsetof(struct options, template_only), 1 },
	[OPT_SUBMIT] = { "submit", 0, required_argument, "FILE.cu", "your kernel for the lesson's task, run through try",
			  OPTK_TEXT, offsetof(struct options, submit) },
	[OPT_TEST] = { "test", 0, no_argument, NULL, "the gate alone: correctness at the challenge's test\n"
						    "sizes, nothing timed",
		       OPTK_FLAG, offsetof(struct options, test_only), 1 },
	[OPT_VARIABLE] = { "variable", 0, required_argument, "NAME", "gpulab.pc's NAME (plugindir, dropindir, nvcc,\n"
								     "nvccflags, ...) as pkg-config gives it, from this\n"
								     "gpulab's own gpulab.pc: no PKG_CONFIG_PATH needed",
			  OPTK_TEXT, offsetof(struct options, variable) },
	[OPT_CFLAGS] = { "cflags", 0, no_argument, NULL, "gpulab.pc's Cflags, the same way",
			  OPTK_FLAG, offsetof(struct options, cflags), 1 },
	[OPT_NCCL_TESTS] = { "nccl-tests", 0, required_argument, "FILE", "nccl-tests' output (all_reduce_perf and the like,\n"
									 "appended to one file): its busbw drawn beside;\n"
									 "the .svg is then the busbw chart",
			  OPTK_TEXT, offsetof(struct options, nccl_tests) },
	[OPT_CONFIG] = { "config", 0, required_argument, "FILE", "read FILE after the other configuration files; given\n"
								 "again, each FILE in the order given, the last winning" },
	[OPT_HELP] = { "help", 'h', no_argument, NULL, "the command's help: gpulab " CMD_RUN " --help",
			  OPTK_FLAG, offsetof(struct options, help), 1 },
	[OPT_VERSION] = { "version", 0, no_argument, NULL, "gpulab's version and plugin ABI",
			  OPTK_FLAG, offsetof(struct options, version), 1 },
};

/* getopt_long's table and optstring, from the rows. */
static void getopt_tables(struct option *lo, char *shorts)
{
	char *s = shorts;
	*s++ = ':'; /* we say a missing value ourselves */
	for (int i = 0; i < NOPTS; i++) {
		lo[i] = (struct option){ option_rows[i].name, option_rows[i].arg, NULL, i + 256 };
		if (option_rows[i].letter) {
			*s++ = option_rows[i].letter;
			if (option_rows[i].arg == required_argument)
				*s++ = ':';
		}
	}
	lo[NOPTS] = (struct option){ 0 };
	*s = 0;
}

/* The id of getopt's answer c: a long option's val, or a letter's row. */
static int option_id(int c)
{
	if (c >= 256)
		return c - 256;
	for (int i = 0; i < NOPTS; i++)
		if (option_rows[i].letter && option_rows[i].letter == c)
			return i;
	return -1;
}

const char *options_spelling(enum opt_id id, char *buf, size_t len)
{
	const struct option_row *r = &option_rows[id];
	if (r->letter)
		snprintf(buf, len, "-%c/--%s", r->letter, r->name);
	else
		snprintf(buf, len, "--%s", r->name);
	return buf;
}

const char *options_param(const struct options *o, const char *key)
{
	const char *v = NULL;
	for (int i = 0; i < o->nparams; i++)
		if (!strcmp(o->params[i].key, key))
			v = o->params[i].value; /* the last one given wins */
	return v;
}

const char *options_flag(enum generic g)
{
	return options_short((enum opt_id)g);
}

const char *options_key_spelling(int g, const char *key, const char *value, char *buf, size_t len)
{
	const char *flag = options_short(g >= 0 ? (enum opt_id)g : OPT_PARAM);
	if (g >= 0)
		snprintf(buf, len, "%s%s%s", flag, value ? " " : "", value ? value : "");
	else
		snprintf(buf, len, "%s %s%s%s", flag, key, value ? "=" : "", value ? value : "");
	return buf;
}

/* "--name" and "-x" of every row, made once from the rows. */
static struct {
	char spelled[NOPTS][24], letter[NOPTS][3];
} spellings;

static void spellings_make(void)
{
	if (spellings.spelled[0][0])
		return;
	for (int i = 0; i < NOPTS; i++) {
		snprintf(spellings.letter[i], sizeof spellings.letter[i], "-%c", option_rows[i].letter);
		snprintf(spellings.spelled[i], sizeof spellings.spelled[i], "--%s", option_rows[i].name);
	}
}

const char *options_long(enum opt_id id)
{
	spellings_make();
	return spellings.spelled[id];
}

const char *options_short(enum opt_id id)
{
	spellings_make();
	return option_rows[id].letter ? spellings.letter[id] : spellings.spelled[id];
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

/* The slot of key: the one it was handed in before (the last given
 * wins), or a new one; NULL where every slot is taken. */
static struct handed_key *handed_slot(struct options *o, const char *key)
{
	for (int i = 0; i < o->nhanded; i++)
		if (!strcmp(o->handed[i].key, key))
			return &o->handed[i];
	return o->nhanded < MAX_HANDED ? &o->handed[o->nhanded++] : NULL;
}

/* n typed values of key d->key, each with its text, into o. */
static int hand_typed(struct options *o, const struct gpulab_param *d, const struct typed_value *v, size_t n)
{
	struct handed_key *h = n && n <= HANDED_VALUES ? handed_slot(o, d->key) : NULL;
	if (!h)
		return EXIT_USAGE;
	*h = (struct handed_key){ .key = d->key, .type = d->type, .n = n };
	memcpy(h->v, v, n * sizeof *v);
	for (size_t i = 0, at = 0; i < n && at < sizeof h->text; i++)
		at += (size_t)snprintf(h->text + at, sizeof h->text - at, "%s%s", i ? "," : "", v[i].text);
	return 0;
}

int options_hand(struct options *o, const struct gpulab_param *d, const struct param_value *v, size_t n)
{
	struct typed_value t[HANDED_VALUES];
	for (size_t i = 0; i < n && i < HANDED_VALUES; i++) {
		t[i].value = v[i];
		param_format(d, &v[i], t[i].text, sizeof t[i].text);
	}
	return hand_typed(o, d, t, n);
}

int options_hand_text(struct options *o, const struct gpulab_param *d, const char *text, char *why, size_t len)
{
	struct typed_axis a;
	if (typed_axis_parse(d, text, &a, why, len) != PARSE_OK) {
		typed_axis_free(&a);
		return EXIT_USAGE;
	}
	int rc = hand_typed(o, d, a.v, a.n);
	if (rc)
		snprintf(why, len, "%s = %s: more than %d keys or %d values handed over", d->key, text, MAX_HANDED,
			 HANDED_VALUES);
	typed_axis_free(&a);
	return rc;
}

const struct handed_key *options_handed(const struct options *o, const char *key)
{
	for (int i = 0; i < o->nhanded; i++)
		if (!strcmp(o->handed[i].key, key))
			return &o->handed[i];
	return NULL;
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

static const char *const format_names[FORMATS] = { "table", "csv", "json", "md" };

const char *options_format_name(enum format f)
{
	return format_names[f];
}

static int parse_format(struct options *o, const char *arg, char *err, size_t errlen)
{
	for (int i = 0; i < FORMATS; i++)
		if (!strcmp(arg, format_names[i])) {
			o->format = (enum format)i;
			return 0;
		}
	snprintf(err, errlen, "--format: unknown format '%s' (table, csv, json or md)", arg);
	return EXIT_USAGE;
}

/* A decimal number from lo to hi (scaled by scale: percent to a
 * fraction), strictly: no spaces, no hex, no inf or nan. */
static int number(enum opt_id id, const char *arg, double lo, double hi, double scale, double *out, char *err,
		  size_t errlen)
{
	const char *opt = option_rows[id].name;
	char *end;
	double v;
	errno = 0;
	v = arg[strspn(arg, "0123456789.")] == 0 && *arg ? strtod(arg, &end) : -1;
	if (errno || v < lo || v > hi) {
		snprintf(err, errlen, "--%s %s: expected a number from %g to %g", opt, arg, lo, hi);
		return EXIT_USAGE;
	}
	*out = v * scale;
	return 0;
}

/* --batch K: a whole number of runs per sample. */
static int parse_batch(struct options *o, const char *arg, char *err, size_t errlen)
{
	double k;
	if (number(OPT_BATCH, arg, 1, BATCH_MAX, 1, &k, err, errlen) || k != (unsigned)k) {
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
	if (number(OPT_SAMPLES, arg, 1, 1e9, 1, &n, err, errlen) || n != (unsigned)n) {
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

/* The options with a grammar of their own. */
static int parse_own(struct options *o, int c, char *arg, char *err, size_t errlen)
{
	if (c < NGENERIC)
		return set_generic(o, (enum generic)c, arg, err, errlen);
	switch (c) {
	case OPT_PARAM: return add_param(o, arg, err, errlen);
	case OPT_BATCH: return parse_batch(o, arg, err, errlen);
	case OPT_FORMAT: return parse_format(o, arg, err, errlen);
	case OPT_SAMPLES: return parse_samples(o, arg, err, errlen);
	case OPT_CONFIG: return add_config(o, arg, err, errlen);
	}
	snprintf(err, errlen, "unknown option; `gpulab --help` lists them");
	return EXIT_USAGE;
}

/* Option c's value into o, as its row types it. */
static int parse_one(struct options *o, int c, char *arg, char *err, size_t errlen)
{
	const struct option_row *r = &option_rows[c];
	char *field = (char *)o + r->at;
	switch (r->kind) {
	case OPTK_FLAG: *(int *)field = r->set; return 0;
	case OPTK_TEXT: *(const char **)field = arg; return 0;
	case OPTK_NUMBER: return number((enum opt_id)c, arg, r->lo, r->hi, r->scale, (double *)field, err, errlen);
	case OPTK_OWN: break;
	}
	return parse_own(o, c, arg, err, errlen);
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
	*o = (struct options){ .verify = 1, .batch = 1, .format = FORMAT_TABLE, .stop = STOP_DEFAULTS, .fail_above = -1, .watchdog = -1 };
	quote_command(o->command_line, sizeof o->command_line, argc, argv); /* before getopt reorders argv */
	opterr = 0; /* we say it ourselves, in one line */
	optind = 0; /* glibc: start afresh, even where an error left getopt mid-argument */
	struct option long_options[NOPTS + 1];
	char shorts[2 * NOPTS + 2];
	getopt_tables(long_options, shorts);
	while ((c = getopt_long(argc, argv, shorts, long_options, NULL)) != -1) {
		if (c == '?' || c == ':') {
			opterr_message(long_options, c, optopt, argv[optind - 1], err, errlen);
			return EXIT_USAGE;
		}
		c = option_id(c);
		o->given |= OPT_BIT(c);
		/* --samples all or N, as two words: getopt takes an optional argument only as --samples=all */
		if (c == OPT_SAMPLES && !optarg && optind < argc && samples_word(argv[optind]))
			optarg = argv[optind++];
		if ((rc = parse_one(o, c, optarg, err, errlen)))
			return rc;
	}
	if (o->profile && (o->axes[GEN_REPS].n || o->axes[GEN_WARMUP].n)) {
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
	if (o->profile) { /* one run, in the command line's place */
		options_hand(o, &generic_params[GEN_REPS], &(struct param_value){ .u = 1 }, 1);
		options_hand(o, &generic_params[GEN_WARMUP], &(struct param_value){ .u = 0 }, 1);
	}
	/* the command's name, but under --version (whose command it is) and
	 * where there is none (the general help): cli/ names the commands */
	if (!o->version && optind < argc)
		o->command = argv[optind++];
	o->patterns = argv + optind;
	o->npatterns = argc - optind;
	return 0;
}
