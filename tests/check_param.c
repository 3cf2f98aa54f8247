/* Typed parameters: each type parsed and refused with exact values, the
 * declarations a plugin may hand in, and resolution: the order of the
 * sources (command line, [exercise], [plugin], [defaults], default),
 * with the source named in every refusal. */
#include "exitcode.h"
#include "run/job.h"
#include "config/options.h"
#include "config/params.h"
#include "config/settings.h"
#include "testutil.h"

#include <check.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static char why[512];

static const struct gpulab_param count = { .key = "depth", .type = GPULAB_PARAM_COUNT, .def = "3", .help = "h",
					   .min = 1, .max = 10 };
static const struct gpulab_param integer = { .key = "offset", .type = GPULAB_PARAM_INT, .def = "0", .help = "h",
					     .min = -5, .max = 5 };
static const struct gpulab_param shape = { .key = "tile", .type = GPULAB_PARAM_SHAPE, .def = "4x2", .help = "h",
					   .min = 1, .max = 1024 };
static const struct gpulab_param choice = { .key = "mode", .type = GPULAB_PARAM_ENUM, .def = "fast", .help = "h",
					    .choices = "fast|slow|uni" };
static const struct gpulab_param seed = { .key = "seed", .type = GPULAB_PARAM_SEED, .def = "random", .help = "h" };

static struct param_value parsed(const struct gpulab_param *d, const char *text)
{
	struct param_value v;
	ck_assert_msg(param_parse(d, text, &v, why, sizeof why) == PARSE_OK, "%s refused '%s': %s", d->key, text, why);
	return v;
}

static void refused(const struct gpulab_param *d, const char *text, enum parse_result r, const char *words)
{
	struct param_value v;
	ck_assert_msg(param_parse(d, text, &v, why, sizeof why) == r, "%s took '%s'", d->key, text);
	ck_assert_msg(strstr(why, words) != NULL, "%s '%s': %s", d->key, text, why);
}

/* The option rows' help names the generic keys' defaults and the option
 * limits as the declarations have them, so that help cannot drift. */
START_TEST(option_rows_say_the_defaults)
{
	char want[64];
	snprintf(want, sizeof want, "(default %s)", generic_params[GEN_WARMUP].def);
	ck_assert_msg(strstr(option_rows[OPT_WARMUP].help, want), "%s", option_rows[OPT_WARMUP].help);
	snprintf(want, sizeof want, "at most %d)", BATCH_MAX);
	ck_assert_msg(strstr(option_rows[OPT_BATCH].help, want), "%s", option_rows[OPT_BATCH].help);
	/* what grade and learn pass to the gpulab they run, spelled from the rows */
	ck_assert_str_eq(options_long(OPT_MAX_NOISE), "--max-noise");
	ck_assert_str_eq(options_long(OPT_OUTPUT), "--output");
	ck_assert_str_eq(options_short(OPT_OUTPUT), "-o");
	ck_assert_str_eq(options_short(OPT_COLD), "--cold");
	ck_assert_str_eq(options_flag(GEN_WARMUP), "-w");
	ck_assert_str_eq(options_flag(GEN_N), "-n");
	for (int g = 0; g < NGENERIC; g++) /* the generic keys' ids are their enum's */
		ck_assert_str_eq(option_rows[g].name, generic_params[g].key[0] == 'n' ? "size" : generic_params[g].key);
}
END_TEST

START_TEST(counts)
{
	ck_assert_uint_eq(parsed(&count, "7").u, 7);
	ck_assert_uint_eq(parsed(&count, "10").u, 10);
	ck_assert_uint_eq(parsed(&count, "2^3").u, 8);
	refused(&count, "11", PARSE_RANGE, "a count from 1 to 10");
	refused(&count, "0", PARSE_RANGE, "from 1 to 10");
	refused(&count, "deep", PARSE_MALFORMED, "e.g. 1024, 2^10 or 1K");
	refused(&count, "", PARSE_MALFORMED, "count");
	refused(&count, "-1", PARSE_MALFORMED, "count");
	refused(&count, NULL, PARSE_MALFORMED, "count");
	/* the generic n: 2^40 at most, so byte counts cannot overflow */
	ck_assert_uint_eq(parsed(&generic_params[GEN_N], "2^40").u, 1ull << 40);
	refused(&generic_params[GEN_N], "18446744073709551615", PARSE_RANGE, "from 1 to 2^40");
	refused(&generic_params[GEN_BLOCK], "4294967296", PARSE_RANGE, "from 1 to 1024");
	ck_assert_uint_eq(parsed(&generic_params[GEN_WARMUP], "0").u, 0);
	refused(&generic_params[GEN_WARMUP], "3000000000", PARSE_RANGE, "from 0 to 1000000");
	refused(&generic_params[GEN_REPS], "4000000000", PARSE_RANGE, "from 1 to 1000000");
}
END_TEST

START_TEST(integers_shapes_enums_seeds)
{
	ck_assert_int_eq(parsed(&integer, "-5").i, -5);
	ck_assert_int_eq(parsed(&integer, "5").i, 5);
	refused(&integer, "-6", PARSE_RANGE, "an integer from -5 to 5");
	refused(&integer, "+1", PARSE_MALFORMED, "integer");
	refused(&integer, "1.0", PARSE_MALFORMED, "integer");
	refused(&integer, "--1", PARSE_MALFORMED, "integer");
	struct gpulab_param any = integer;
	any.min = any.max = 0; /* the type's own limits */
	ck_assert_int_eq(parsed(&any, "-9223372036854775808").i, INT64_MIN);
	refused(&any, "9223372036854775808", PARSE_MALFORMED, "integer");

	struct param_value v = parsed(&shape, "32x16");
	ck_assert_uint_eq(v.s.x, 32);
	ck_assert_uint_eq(v.s.y, 16);
	refused(&shape, "0x4", PARSE_RANGE, "each side from 1 to 1024");
	refused(&shape, "2048x1", PARSE_RANGE, "each side");
	/* what sscanf("%ux%u") took: wrapped, signed and spaced sides */
	refused(&shape, "4294967328x1", PARSE_MALFORMED, "shape WxH");
	refused(&shape, "-4294967264x1", PARSE_MALFORMED, "shape");
	refused(&shape, " +32x +1", PARSE_MALFORMED, "shape");
	refused(&shape, "32x", PARSE_MALFORMED, "shape");
	refused(&shape, "32x16x2", PARSE_MALFORMED, "shape");
	refused(&shape, "32", PARSE_MALFORMED, "e.g. 32x8");

	ck_assert_uint_eq(parsed(&choice, "slow").e, 1);
	ck_assert_uint_eq(parsed(&choice, "uni").e, 2);
	refused(&choice, "medium", PARSE_RANGE, "one of fast|slow|uni");
	refused(&choice, "fas", PARSE_RANGE, "one of");
	refused(&choice, "fast|slow", PARSE_RANGE, "one of");

	ck_assert_uint_eq(parsed(&seed, "12345").u, 12345);
	ck_assert_int_eq(parsed(&seed, "random").random, 1);
	refused(&seed, "soon", PARSE_MALFORMED, "a number, or random");
}
END_TEST

/* param_format writes what param_parse reads back to the same value. */
START_TEST(format_round_trips)
{
	const struct gpulab_param *d[] = { &count, &integer, &shape, &choice, &seed };
	const char *text[] = { "2^3", "-4", "7x9", "slow", "2^10" }, *want[] = { "8", "-4", "7x9", "slow", "1024" };
	char buf[64];
	for (int i = 0; i < 5; i++) {
		struct param_value v = parsed(d[i], text[i]), w;
		param_format(d[i], &v, buf, sizeof buf);
		ck_assert_str_eq(buf, want[i]);
		w = parsed(d[i], buf);
		ck_assert(memcmp(&v.u, &w.u, sizeof v.u) == 0);
	}
}
END_TEST

/* param_equal compares values, not their text: each type's fields, so
 * that a value written two ways is one, and two values are two. */
START_TEST(equal_values_of_every_type)
{
	static const struct gpulab_param path = { .key = "file", .type = GPULAB_PARAM_PATH, .def = "", .help = "h" };
	const struct gpulab_param *d[] = { &count, &integer, &shape, &choice, &seed, &path };
	const char *same[][2] = { { "2^3", "8" }, { "-4", "-4" }, { "7x9", "7x9" }, { "slow", "slow" }, { "1K", "1024" },
				  { "a.cu", "a.cu" } };
	const char *other[][2] = { { "8", "9" }, { "-4", "4" }, { "7x9", "9x7" }, { "slow", "uni" },
				   { "random", "0" }, { "a.cu", "./a.cu" } };
	for (int i = 0; i < 6; i++) {
		struct param_value a = parsed(d[i], same[i][0]), b = parsed(d[i], same[i][1]);
		ck_assert_msg(param_equal(d[i], &a, &b), "%s: %s and %s", d[i]->key, same[i][0], same[i][1]);
		a = parsed(d[i], other[i][0]);
		b = parsed(d[i], other[i][1]);
		ck_assert_msg(!param_equal(d[i], &a, &b), "%s: %s and %s", d[i]->key, other[i][0], other[i][1]);
	}
}
END_TEST

struct opts {
	unsigned mode;
	uint64_t depth;
};

START_TEST(declarations_checked)
{
	struct gpulab_param d = count;
	ck_assert_int_eq(param_check_decl(&d, sizeof(uint64_t), why, sizeof why), 0);
	d.offset = 4; /* 8 bytes at 4 of 8 */
	ck_assert_int_eq(param_check_decl(&d, sizeof(uint64_t), why, sizeof why), -1);
	ck_assert_msg(strstr(why, "outside its struct"), "%s", why);
	d = count, d.def = "11";
	ck_assert_int_eq(param_check_decl(&d, 8, why, sizeof why), -1);
	ck_assert_msg(strstr(why, "default '11'"), "%s", why);
	d = count, d.min = 10, d.max = 1;
	ck_assert_int_eq(param_check_decl(&d, 8, why, sizeof why), -1);
	ck_assert_msg(strstr(why, "out of order"), "%s", why);
	d = count, d.key = "n"; /* a generic key's name: the registry decides, by the exercise */
	ck_assert_int_eq(param_check_decl(&d, 8, why, sizeof why), 0);
	d = count, d.key = "Depth";
	ck_assert_int_eq(param_check_decl(&d, 8, why, sizeof why), -1);
	d = count, d.type = (enum gpulab_param_type)42;
	ck_assert_int_eq(param_check_decl(&d, 8, why, sizeof why), -1);
	ck_assert_msg(strstr(why, "unknown type 42"), "%s", why);
	d = choice;
	ck_assert_int_eq(param_check_decl(&d, 4, why, sizeof why), 0);
	d.choices = "fast||slow";
	ck_assert_int_eq(param_check_decl(&d, 4, why, sizeof why), -1);
	d.choices = "fast|";
	ck_assert_int_eq(param_check_decl(&d, 4, why, sizeof why), -1);
	d = choice, d.help = NULL;
	ck_assert_int_eq(param_check_decl(&d, 4, why, sizeof why), -1);
}
END_TEST

/* --- resolution ------------------------------------------------------------- */
static int step(struct gpulab_ctx *ctx) { (void)ctx; return GPULAB_OK; }
static void down(struct gpulab_ctx *ctx) { (void)ctx; }

static int seen_depth, seen_mode;
static int plan_keyed(struct gpulab_ctx *ctx)
{
	const struct opts *o = ctx->params;
	seen_depth = (int)o->depth;
	seen_mode = (int)o->mode;
	return GPULAB_OK;
}

static const struct gpulab_param params[] = {
	{ .key = "mode", .type = GPULAB_PARAM_ENUM, .offset = offsetof(struct opts, mode), .def = "fast", .help = "h",
	  .choices = "fast|slow" },
	{ .key = "depth", .type = GPULAB_PARAM_COUNT, .offset = offsetof(struct opts, depth), .def = "3", .help = "h",
	  .min = 1, .max = 10 },
	{ NULL }
};

static struct gpulab_exercise ex[] = {
	{ .name = "keyed", .summary = "s", .dtypes = GPULAB_INT32 | GPULAB_FLOAT32, .n = 1024, .n_max = 4096, .block = 128,
	  .params = params, .params_size = sizeof(struct opts), .plan = plan_keyed, .setup = step, .run = step,
	  .verify = step, .teardown = down },
	{ .name = "shaped", .summary = "s", .dtypes = GPULAB_FLOAT32, .plan = step, .setup = step, .run = step,
	  .verify = step, .teardown = down },
};
static struct gpulab_plugin desc = { GPULAB_PLUGIN_HEAD, .name = "p", .exercises = ex, .n_exercises = 2 };
static struct plugin plug = { .name = "p", .desc = &desc };

static struct config cfg;
static struct options opt;
static struct job job;
static char ini_path[4200];

/* The configuration `ini`, then the command line argv (NULL-terminated;
 * copied, as options_parse writes into -p's arguments). */
static void given(const char *ini, char **argv)
{
	static char args[32][64];
	static char *copy[33];
	char *dir = temp_dir(), err[512];
	int argc = 0;
	config_free(&cfg);
	snprintf(ini_path, sizeof ini_path, "%s", write_file(dir, "gpulab.ini", ini));
	ck_assert_msg(config_load(&cfg, ini_path, 1, err, sizeof err) == 0, "%s", err);
	for (; argv[argc] && argc < 32; argc++)
		copy[argc] = strcpy(args[argc], argv[argc]);
	copy[argc] = NULL;
	options_free(&opt);
	ck_assert_msg(options_parse(&opt, argc, copy, err, sizeof err) == 0, "%s", err);
	free(dir);
}

/* Point `point` of pk's sweep, resolved for it alone and freed before
 * the job is read: the job keeps nothing of the sweep's. */
static int plan_at(const struct pick *pk, size_t point)
{
	struct sweep s;
	sweep_resolve(&s, pk->plugin->name, pk->ex, &opt, &cfg);
	job_free(&job);
	int rc = job_plan(&job, pk, &s, &opt, point);
	sweep_free(&s);
	return rc;
}

/* How many points pk's sweep has. */
static size_t points_of(const struct pick *pk)
{
	struct sweep s;
	sweep_resolve(&s, pk->plugin->name, pk->ex, &opt, &cfg);
	size_t n = sweep_points(&s);
	sweep_free(&s);
	return n;
}

static int plan(int which)
{
	struct pick pk = { &plug, &ex[which], 1 };
	return plan_at(&pk, 0);
}

/* The job's value of key, and where it came from. */
static void expect(const char *key, const char *text, const char *where)
{
	const struct job_param *p = job_param_find(&job, key);
	ck_assert_msg(p != NULL, "no %s", key);
	ck_assert_str_eq(p->text, text);
	ck_assert_msg(strstr(p->where, where) != NULL, "%s came from '%s', not '%s'", key, p->where, where);
}

static const char *const layered =
	"[defaults]\nn = 100\nreps = 7\ntype = float\n"
	"[plugin p]\nfile = p.so\nn = 200\ndepth = 5\nwarmup = 0\n"
	"[exercise p.keyed]\nn = 300\nmode = slow\n";

START_TEST(precedence)
{
	char *none[] = { "gpulab", "run", "p.keyed", NULL };
	char *cli[] = { "gpulab", "-n", "400", "-p", "depth=9", "-t", "int", "-p", "mode=fast", "run", "p.keyed", NULL };
	given(layered, none);
	ck_assert_int_eq(plan(0), 0);
	expect("n", "300", ":11: n = 300");          /* [exercise] over [plugin] over [defaults] */
	expect("mode", "slow", ":12: mode = slow");
	expect("depth", "5", ":8: depth = 5");       /* [plugin] */
	expect("reps", "7", ":3: reps = 7");         /* [defaults] */
	expect("warmup", "0", ":9: warmup = 0");
	expect("type", "float", ":4: type = float");
	expect("block", "128", "the default block = 128");
	ck_assert_uint_eq(job.ctx.n, 300);
	ck_assert_uint_eq(job.ctx.elements, 300);
	ck_assert_int_eq(job.ctx.dtype, GPULAB_FLOAT32);
	ck_assert_uint_eq(job.reps, 7);
	ck_assert_uint_eq(job.warmup, 0);
	ck_assert_int_eq(seen_depth, 5);
	ck_assert_int_eq(seen_mode, 1);
	/* the command line over all of them */
	given(layered, cli);
	ck_assert_int_eq(plan(0), 0);
	expect("n", "400", "-n 400");
	expect("depth", "9", "-p depth=9");
	expect("mode", "fast", "-p mode=fast");
	expect("type", "int", "-t int");
	ck_assert_int_eq(seen_depth, 9);
	ck_assert_int_eq(seen_mode, 0);
}
END_TEST

/* Values code hands over typed (check's plans, try's gate, --profile)
 * win over the command line and the files, are narrowed by the
 * exercise's declaration and never parsed again; a copy of the options
 * owns the ones handed to it. */
START_TEST(handed_values_win)
{
	char *cli[] = { "gpulab", "-n", "400", "-p", "depth=9", "run", "p.keyed", NULL };
	char err[512];
	given(layered, cli);
	struct options copy = opt;
	ck_assert_int_eq(options_hand(&copy, &generic_params[GEN_N], &(struct param_value){ .u = 2048 }, 1), 0);
	ck_assert_int_eq(options_hand(&copy, &params[1], &(struct param_value){ .u = 2 }, 1), 0);
	ck_assert_int_eq(options_hand_text(&copy, &generic_params[GEN_TYPE], "float,int", err, sizeof err), 0);
	struct pick pk = { &plug, &ex[0], 1 };
	struct sweep s;
	ck_assert_int_eq(sweep_resolve(&s, "p", &ex[0], &copy, &cfg), 0);
	ck_assert_uint_eq(sweep_points(&s), 2);
	ck_assert_str_eq(s.keys[GEN_TYPE].values[0].text, "float");
	ck_assert_str_eq(s.keys[GEN_TYPE].where, "-t float,int");
	job_free(&job);
	ck_assert_int_eq(job_plan(&job, &pk, &s, &copy, 0), 0);
	sweep_free(&s);
	expect("n", "2048", "-n 2048");
	expect("depth", "2", "-p depth=2");
	ck_assert_int_eq(seen_depth, 2);
	ck_assert_int_eq(plan(0), 0); /* the original: its own command line still */
	expect("n", "400", "-n 400");
	expect("depth", "9", "-p depth=9");
	/* past the exercise's largest n: that point refused, as a parsed one is */
	ck_assert_int_eq(options_hand(&copy, &generic_params[GEN_N], &(struct param_value){ .u = 8192 }, 1), 0);
	sweep_resolve(&s, "p", &ex[0], &copy, &cfg);
	ck_assert_ptr_nonnull(s.keys[GEN_N].values[0].why);
	ck_assert_msg(strstr(s.keys[GEN_N].values[0].why, "4096"), "%s", s.keys[GEN_N].values[0].why);
	sweep_free(&s);
	/* typed by a declaration other than the exercise's: refused, not misread */
	struct gpulab_param as_depth = shape;
	as_depth.key = "depth";
	ck_assert_int_eq(options_hand(&copy, &as_depth, &(struct param_value){ .s = { 2, 2 } }, 1), 0);
	sweep_resolve(&s, "p", &ex[0], &copy, &cfg);
	const struct sweep_key *depth = &s.keys[s.nkeys - 1];
	ck_assert_str_eq(depth->decl.key, "depth");
	ck_assert_msg(depth->values[0].why && strstr(depth->values[0].why, "typed as a shape"), "%s", depth->values[0].why);
	sweep_free(&s);
	/* text handed over is typed there, once: a bad value, or too many, refused then */
	ck_assert_int_eq(options_hand_text(&copy, &generic_params[GEN_N], "0", err, sizeof err), EXIT_USAGE);
	ck_assert_msg(strstr(err, "from 1"), "%s", err);
	ck_assert_int_eq(options_hand_text(&copy, &generic_params[GEN_N], "1,2,3,4,5", err, sizeof err), EXIT_USAGE);
	ck_assert_msg(strstr(err, "n = 1,2,3,4,5: more than"), "%s", err);
}
END_TEST

/* --profile: one run, no warm-up, handed over typed in the command line's place. */
START_TEST(profile_hands_one_run)
{
	char *cli[] = { "gpulab", "--profile", "run", "p.keyed", NULL };
	given(layered, cli);
	ck_assert_int_eq(opt.nhanded, 2);
	ck_assert_int_eq(plan(0), 0);
	expect("reps", "1", "-r 1");
	expect("warmup", "0", "-w 0");
	ck_assert_uint_eq(job.reps, 1);
	ck_assert_uint_eq(job.warmup, 0);
}
END_TEST

START_TEST(later_file_same_section)
{
	char *none[] = { "gpulab", "run", "p.keyed", NULL }, err[512];
	given(layered, none);
	/* a later file's [plugin] does not beat an earlier [exercise]... */
	ck_assert_int_eq(config_load(&cfg, write_file(temp_dir(), "later.ini", "[plugin p]\nn = 250\ndepth = 6\n"), 1,
				     err, sizeof err), 0);
	ck_assert_int_eq(plan(0), 0);
	expect("n", "300", ":11:");
	/* ...but beats an earlier [plugin] */
	expect("depth", "6", "later.ini:3: depth = 6");
}
END_TEST

/* Shared sections apply where they can: [defaults] type = float does not
 * make an int-only exercise fail, and n is not asked of one without it. */
START_TEST(shared_sections_apply_where_they_can)
{
	char *none[] = { "gpulab", "run", "p.shaped", NULL };
	given("[defaults]\nn = 100\ntype = int\n", none);
	ck_assert_int_eq(plan(1), 0);
	ck_assert_ptr_null(job_param_find(&job, "n"));
	ck_assert_ptr_null(job_param_find(&job, "block"));
	expect("type", "float", "the default type = float");
	ck_assert_uint_eq(job.ctx.n, 0);
	ck_assert_uint_eq(job.ctx.block, 0);
}
END_TEST

/* Out of range at each level: refused, with the source named. */
static void expect_refusal(const char *ini, char **argv, int which, const char *words)
{
	given(ini, argv);
	ck_assert_int_eq(plan(which), EXIT_PARAM);
	ck_assert_msg(strstr(job.res.message, words) != NULL, "message was: %s", job.res.message);
	ck_assert(strchr(job.res.message, '\n') == NULL);
}

START_TEST(refusals_name_their_source)
{
	char *none[] = { "gpulab", "run", "p.keyed", NULL };
	char *deep[] = { "gpulab", "-p", "depth=11", "run", "p.keyed", NULL };
	char *big[] = { "gpulab", "-n", "4097", "run", "p.keyed", NULL };
	char *sized[] = { "gpulab", "-n", "10", "run", "p.shaped", NULL };
	char *inty[] = { "gpulab", "-t", "int", "run", "p.shaped", NULL };
	expect_refusal("", deep, 0, "-p depth=11: expected a count from 1 to 10");
	expect_refusal("", big, 0, "-n 4097: expected a count from 1 to 4096");
	expect_refusal("[exercise p.keyed]\ndepth = 0\n", none, 0, "gpulab.ini:2: depth = 0: expected a count from 1 to 10");
	expect_refusal("[plugin p]\nmode = medium\n", none, 0, "gpulab.ini:2: mode = medium: expected one of fast|slow");
	expect_refusal("[defaults]\nn = 5000\n", none, 0, "gpulab.ini:2: n = 5000: expected a count from 1 to 4096");
	expect_refusal("", sized, 1, "takes no -n: its size is set by itself");
	expect_refusal("", inty, 1, "element type int is not supported (it takes float)");
	char *pblock[] = { "gpulab", "-p", "block=2048", "run", "p.keyed", NULL };
	expect_refusal("", pblock, 0, "-p block=2048: expected a count from 1 to 1024");
}
END_TEST

/* The command line refuses what no exercise could take before anything
 * is loaded: the generic keys' own limits. */
START_TEST(options_check_generic_values)
{
	struct options o;
	char err[512];
	struct {
		const char *flag, *value, *words;
	} bad[] = {
		{ "-n", "0", "-n 0: expected a count from 1 to 2^40" },
		{ "-n", "2^64-1", "-n 2^64-1: expected a count" },
		{ "-b", "4294967296", "-b 4294967296: expected a count from 1 to 1024" },
		{ "-r", "0", "-r 0: expected a count from 1 to 1000000" },
		{ "-w", "1000001", "-w 1000001: expected a count from 0 to 1000000" },
		{ "-t", "double", "-t double: expected one of int|float" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char flag[8], value[32];
		snprintf(flag, sizeof flag, "%s", bad[i].flag);
		snprintf(value, sizeof value, "%s", bad[i].value);
		char *argv[] = { "gpulab", flag, value, "run", "x", NULL };
		ck_assert_int_eq(options_parse(&o, 5, argv, err, sizeof err), EXIT_USAGE);
		ck_assert_msg(strstr(err, bad[i].words) != NULL, "%s %s: %s", bad[i].flag, bad[i].value, err);
	}
	char block[] = "block=96", n[] = "-n", big[] = "2^40";
	char *ok[] = { "gpulab", "-p", block, n, big, "run", "x", NULL };
	ck_assert_int_eq(options_parse(&o, 7, ok, err, sizeof err), 0);
	ck_assert_str_eq(o.command_line, "gpulab -p block=96 -n 2^40 run x");
	/* -p block= is resolved per exercise: its own key, or else -b */
	ck_assert_ptr_null(o.generic[GEN_BLOCK]);
	ck_assert_str_eq(options_param(&o, "block"), "96");
	ck_assert_str_eq(o.generic[GEN_N], "2^40");
	ck_assert_int_eq(o.nparams, 1);
	options_free(&o);
	char glob[] = "reduce.*", quote[] = "it's";
	char *odd[] = { "gpulab", "run", glob, quote, NULL };
	ck_assert_int_eq(options_parse(&o, 4, odd, err, sizeof err), 0);
	ck_assert_str_eq(o.command_line, "gpulab run 'reduce.*' 'it'\\''s'"); /* as a shell reads it back */

}
END_TEST

START_TEST(seed_drawn_and_recorded)
{
	static const struct gpulab_param sp[] = { { .key = "seed", .type = GPULAB_PARAM_SEED, .def = "random", .help = "h" },
						  { NULL } };
	char *none[] = { "gpulab", "run", "p.keyed", NULL };
	struct gpulab_exercise e = ex[1];
	e.params = sp;
	e.params_size = sizeof(uint64_t);
	struct pick pk = { &plug, &e, 1 };
	given("", none);
	ck_assert_int_eq(plan_at(&pk, 0), 0);
	const struct job_param *p = job_param_find(&job, "seed");
	uint64_t stored;
	memcpy(&stored, job.opts, sizeof stored);
	ck_assert_uint_eq(strtoull(p->text, NULL, 10), stored); /* what the report says is what the plugin got */
	ck_assert_str_ne(p->text, "random");
	char cmd[512];
	job_command(&job, 1, 1, cmd, sizeof cmd);
	char want[128];
	/* reps was not asked for: the run stopped on noise, and so will the rerun */
	snprintf(want, sizeof want, "gpulab run p.shaped -t float -w 3 -p seed=%s --cold", p->text);
	ck_assert_str_eq(cmd, want);
}
END_TEST

/* Lists and ranges: the values, in order, exactly. */
static void expect_axis(const struct gpulab_param *d, const char *text, const char *const *want, size_t n)
{
	size_t count;
	char buf[64];
	ck_assert_msg(param_axis(d, text, &count, why, sizeof why) == PARSE_OK, "'%s': %s", text, why);
	ck_assert_uint_eq(count, n);
	for (size_t i = 0; i < n; i++) {
		param_axis_value(text, i, buf, sizeof buf);
		ck_assert_str_eq(buf, want[i]);
	}
}

START_TEST(sweep_axes)
{
	const char *pow2[] = { "1024", "2048", "4096", "8192" }, *step[] = { "1048576", "4194304", "16777216" };
	const char *mixed[] = { "1000", "1000003", "64", "128", "256" }, *types[] = { "int", "float" };
	const char *shapes[] = { "32x32", "16x32" }, *one[] = { "7" }, *odd[] = { "3", "6", "12" };
	struct gpulab_param big = count;
	big.max = 1ll << 30;
	expect_axis(&big, "2^10:2^13", pow2, 4);
	expect_axis(&big, "2^20:2^24:2", step, 3);
	expect_axis(&big, "2^20:2^25:2", step, 3);   /* up to B, not past it */
	expect_axis(&big, "1000,1000003,64:256", mixed, 5);
	expect_axis(&big, "3:12", odd, 3);
	expect_axis(&big, "7", one, 1);
	expect_axis(&generic_params[GEN_TYPE], "int,float", types, 2);
	expect_axis(&shape, "32x32,16x32", shapes, 2);
	size_t n;
	ck_assert_int_eq(param_axis(&big, "1,,2", &n, why, sizeof why), PARSE_MALFORMED);
	ck_assert_int_eq(param_axis(&big, "8:4", &n, why, sizeof why), PARSE_MALFORMED);
	ck_assert_msg(strstr(why, "'8:4' is not a range A:B or A:B:K"), "%s", why);
	ck_assert_int_eq(param_axis(&big, "0:4", &n, why, sizeof why), PARSE_MALFORMED);
	ck_assert_int_eq(param_axis(&big, "1:4:0", &n, why, sizeof why), PARSE_MALFORMED);
	ck_assert_int_eq(param_axis(&big, "1:4:64", &n, why, sizeof why), PARSE_MALFORMED);
	ck_assert_int_eq(param_axis(&big, "1:2^64", &n, why, sizeof why), PARSE_MALFORMED);
	ck_assert_int_eq(param_axis(&shape, "1:4", &n, why, sizeof why), PARSE_MALFORMED); /* ranges are for counts */
	ck_assert_int_eq(param_axis(&big, "1,", &n, why, sizeof why), PARSE_MALFORMED);
	/* past the declared largest: counted, so the sweep can skip those points */
	ck_assert_int_eq(param_axis(&count, "1:16", &n, why, sizeof why), PARSE_RANGE);
	ck_assert_uint_eq(n, 5);
	ck_assert_msg(strstr(why, "from 1 to 10"), "%s", why);
	/* a list long enough to be a mistake */
	ck_assert_int_eq(param_axis(&big, "1:2^62,1:2^62,1:2^62,1:2^62,1:2^62,1:2^62,1:2^62,1:2^62,1:2^62,1:2^62,"
				    "1:2^62,1:2^62,1:2^62,1:2^62,1:2^62,1:2^62,1:2^62,1:2^62,1:2^62,1:2^62", &n, why,
				    sizeof why), PARSE_RANGE); /* values past 2^30 */
	struct gpulab_param huge = count;
	huge.min = huge.max = 0;
	static char many[2 * PARAM_MAX_POINTS + 8];
	for (int i = 0; i <= PARAM_MAX_POINTS; i++)
		memcpy(many + 2 * i, ",1", 2);
	many[0] = '1', many[2 * PARAM_MAX_POINTS + 2] = 0;
	ck_assert_int_eq(param_axis(&huge, many, &n, why, sizeof why), PARSE_MALFORMED);
	ck_assert_msg(strstr(why, "more than 10000 values"), "%s", why);
}
END_TEST

/* v of generic key g refused by e, as parsing `text` for key `key` of e says it: words. */
static void narrowed_as_parsed(const struct gpulab_exercise *e, enum generic g, const struct typed_value *v,
			       const char *key, const char *words)
{
	char direct[512];
	struct param_value parsed_v;
	ck_assert_int_eq(exercise_narrow(e, g, v, why, sizeof why), PARSE_RANGE);
	ck_assert_int_eq(exercise_parse(e, key, v->text, &parsed_v, direct, sizeof direct), PARSE_RANGE);
	ck_assert_str_eq(why, direct);
	ck_assert_str_eq(why, words);
}

/* An axis typed once (options.c's -n ... -w), then narrowed by an
 * exercise's declaration (config/sweep.c): the same values, and the
 * same refusals, as parsing each value's text against that declaration. */
START_TEST(typed_axis_narrowed)
{
	struct typed_axis a;
	ck_assert_int_eq(typed_axis_parse(&generic_params[GEN_N], "2^10:2^12,5", &a, why, sizeof why), PARSE_OK);
	ck_assert_uint_eq(a.n, 4);
	ck_assert_str_eq(a.text, "2^10:2^12,5");
	const char *texts[] = { "1024", "2048", "4096", "5" };
	const uint64_t values[] = { 1024, 2048, 4096, 5 };
	for (size_t i = 0; i < 4; i++) {
		ck_assert_str_eq(a.v[i].text, texts[i]);
		ck_assert_uint_eq(a.v[i].value.u, values[i]);
	}
	struct gpulab_exercise small = { .name = "small", .dtypes = GPULAB_FLOAT32, .n = 64, .n_max = 2048, .block = 32 };
	ck_assert_int_eq(exercise_narrow(&small, GEN_N, &a.v[1], why, sizeof why), PARSE_OK);
	narrowed_as_parsed(&small, GEN_N, &a.v[2], "n", "expected a count from 1 to 2048 (e.g. 1024, 2^10 or 1K)");
	typed_axis_free(&a);
	ck_assert_ptr_null(a.v);
	ck_assert_int_eq(typed_axis_parse(&generic_params[GEN_TYPE], "int,float", &a, why, sizeof why), PARSE_OK);
	ck_assert_uint_eq(a.n, 2);
	ck_assert_int_eq(exercise_narrow(&small, GEN_TYPE, &a.v[1], why, sizeof why), PARSE_OK);
	narrowed_as_parsed(&small, GEN_TYPE, &a.v[0], "type", "element type int is not supported (it takes float)");
	typed_axis_free(&a);
	/* refused whole, as param_axis says it, and left empty */
	ck_assert_int_eq(typed_axis_parse(&generic_params[GEN_N], "0,4", &a, why, sizeof why), PARSE_RANGE);
	ck_assert_str_eq(why, "expected a count from 1 to 2^40 (e.g. 1024, 2^10 or 1K)");
	ck_assert_uint_eq(a.n, 0);
	ck_assert_ptr_null(a.v);
	ck_assert_int_eq(typed_axis_parse(&generic_params[GEN_N], "1,,2", &a, why, sizeof why), PARSE_MALFORMED);
	ck_assert_uint_eq(a.n, 0);
}
END_TEST

/* options.c keeps -n typed, with its text; the last -n given wins. */
START_TEST(options_type_generic_once)
{
	struct options o;
	char err[512], n[] = "-n", first[] = "7", last[] = "2^3,9";
	char *argv[] = { "gpulab", n, first, n, last, "run", "x", NULL };
	ck_assert_int_eq(options_parse(&o, 7, argv, err, sizeof err), 0);
	ck_assert_ptr_eq(o.generic[GEN_N], last); /* grade's copy of the text */
	ck_assert_ptr_eq(o.axes[GEN_N].text, last);
	ck_assert_int_eq(o.nhanded, 0);
	char spelled[64]; /* a sweep key as the command line gives it, spelled from the rows */
	ck_assert_str_eq(options_key_spelling(GEN_N, "n", "2^20", spelled, sizeof spelled), "-n 2^20");
	ck_assert_str_eq(options_key_spelling(GEN_BLOCK, "block", NULL, spelled, sizeof spelled), "-b");
	ck_assert_str_eq(options_key_spelling(-1, "rows", "4", spelled, sizeof spelled), "-p rows=4");
	ck_assert_str_eq(options_key_spelling(-1, "rows", NULL, spelled, sizeof spelled), "-p rows");
	ck_assert_uint_eq(o.axes[GEN_N].n, 2);
	ck_assert_uint_eq(o.axes[GEN_N].v[0].value.u, 8);
	ck_assert_uint_eq(o.axes[GEN_N].v[1].value.u, 9);
	ck_assert_ptr_null(o.axes[GEN_BLOCK].text);
	options_free(&o);
	ck_assert_ptr_null(o.axes[GEN_N].v);
}
END_TEST

/* A sweep's points: the first parameter varies fastest. */
START_TEST(sweep_order)
{
	char *argv[] = { "gpulab", "-n", "1024,2048", "-p", "mode=fast,slow", "-p", "depth=1:4", "run", "p.keyed", NULL };
	struct pick pk = { &plug, &ex[0], 1 };
	given("", argv);
	ck_assert_uint_eq(points_of(&pk), 2 * 2 * 3);
	ck_assert_int_eq(plan(0), 0);
	ck_assert_uint_eq(job.points, 12);
	expect("n", "1024", "-n 1024,2048");
	ck_assert_int_eq(plan_at(&pk, 1), 0);
	expect("n", "2048", "-n");
	expect("mode", "fast", "-p mode=fast,slow");
	ck_assert_int_eq(plan_at(&pk, 11), 0);
	expect("n", "2048", "-n");
	expect("mode", "slow", "-p mode");
	expect("depth", "4", "-p depth=1:4");
	ck_assert_int_eq(seen_depth, 4);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("param");
	TCase *t = tcase_create("param");
	tcase_add_test(t, option_rows_say_the_defaults);
	tcase_add_test(t, counts);
	tcase_add_test(t, integers_shapes_enums_seeds);
	tcase_add_test(t, format_round_trips);
	tcase_add_test(t, equal_values_of_every_type);
	tcase_add_test(t, declarations_checked);
	tcase_add_test(t, precedence);
	tcase_add_test(t, later_file_same_section);
	tcase_add_test(t, shared_sections_apply_where_they_can);
	tcase_add_test(t, refusals_name_their_source);
	tcase_add_test(t, options_check_generic_values);
	tcase_add_test(t, seed_drawn_and_recorded);
	tcase_add_test(t, sweep_axes);
	tcase_add_test(t, sweep_order);
	tcase_add_test(t, handed_values_win);
	tcase_add_test(t, profile_hands_one_run);
	tcase_add_test(t, typed_axis_narrowed);
	tcase_add_test(t, options_type_generic_once);
	suite_add_tcase(s, t);
	return run_suite(s, 0);
}
