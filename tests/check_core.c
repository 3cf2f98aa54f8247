/* Unit tests of the core's pieces that need neither GPU nor plugin file:
 * the size parser, the INI files and their precedence, exercise-name
 * matching, descriptor checks, and the report formats. */
#include "config/ini_text.h"
#include "config/settings.h"
#include "emit/facts.h"
#include "emit/field.h"
#include "exitcode.h"
#include "plugins/match.h"
#include "plugins/registry.h"
#include "records/schema.h"
#include "emit/json.h"
#include "stats.h"
#include "config/size.h"
#include "schema.h"
#include "testutil.h"
#include "wrap.h"

#include <stddef.h>

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* --- sizes ------------------------------------------------------------------ */
/* text wrapped as w says from column col, into buf; the last column */
static int wrapped(char *buf, size_t len, const char *text, int col, struct wrap w)
{
	FILE *f = fmemopen(buf, len, "w");
	ck_assert_ptr_nonnull(f);
	wrap_words(f, text, &col, &w);
	fclose(f);
	return col;
}

/* The one word-wrapper: a line's edge, the indent, a cut word, a first
 * word kept, UTF-8 columns, tab-separated words, escaping. */
START_TEST(wrap_words_at_the_edge)
{
	char buf[256];
	ck_assert_int_eq(wrapped(buf, sizeof buf, "aaa bbb  ccc", 0, (struct wrap){ .width = 8, .indent = 2 }), 5);
	ck_assert_str_eq(buf, "aaa bbb\n  ccc");
	ck_assert_int_eq(wrapped(buf, sizeof buf, "abcdefghij", 4, (struct wrap){ .width = 8, .indent = 2, .gap = 2, .cut = 1 }), 6);
	ck_assert_str_eq(buf, "\n  abcdef\n  ghij");
	wrapped(buf, sizeof buf, "verylongname x", 5, (struct wrap){ .width = 8, .indent = 2, .keep_first = 1 });
	ck_assert_str_eq(buf, "verylongname\n  x");
	ck_assert_int_eq(wrapped(buf, sizeof buf, "\xc3\xa9\xc3\xa9\xc3\xa9 \xc3\xa9\xc3\xa9", 0, (struct wrap){ .width = 6 }), 6);
	ck_assert_str_eq(buf, "\xc3\xa9\xc3\xa9\xc3\xa9 \xc3\xa9\xc3\xa9");
	wrapped(buf, sizeof buf, "n=1 b=2\tt=int", 0, (struct wrap){ .width = 10, .sep = '\t' });
	ck_assert_str_eq(buf, "n=1 b=2\nt=int");
	wrapped(buf, sizeof buf, "a\x1b[31m", 0, (struct wrap){ .width = 80, .escaped = 1 });
	ck_assert_str_eq(buf, "a\\x1b[31m");
}
END_TEST

START_TEST(size_forms)
{
	uint64_t v;
	ck_assert_int_eq(parse_size("16777216", &v), 0);
	ck_assert_uint_eq(v, 16777216);
	ck_assert_int_eq(parse_size("2^24", &v), 0);
	ck_assert_uint_eq(v, 16777216);
	ck_assert_int_eq(parse_size("16M", &v), 0);
	ck_assert_uint_eq(v, 16777216);
	ck_assert_int_eq(parse_size("3k", &v), 0);
	ck_assert_uint_eq(v, 3072);
	ck_assert_int_eq(parse_size("1G", &v), 0);
	ck_assert_uint_eq(v, 1073741824);
	ck_assert_int_eq(parse_size("10^3", &v), 0);
	ck_assert_uint_eq(v, 1000);
	ck_assert_int_eq(parse_size("1000003", &v), 0);
	ck_assert_uint_eq(v, 1000003);
	ck_assert_int_eq(parse_size("0", &v), 0);
	ck_assert_uint_eq(v, 0);
}
END_TEST

START_TEST(size_rejects)
{
	uint64_t v;
	const char *bad[] = { "", "abc", "-1", "16MB", "2^", "^3", "2^64", "1.5M", "16 M", " 16",
			      "18446744073709551616", "17179869184G", "0x10", NULL };
	for (int i = 0; bad[i]; i++)
		ck_assert_msg(parse_size(bad[i], &v) != 0, "accepted '%s'", bad[i]);
	ck_assert_int_eq(parse_size("2^63", &v), 0);
	ck_assert_uint_eq(v, 1ull << 63);
}
END_TEST

/* --- INI files -------------------------------------------------------------- */
static char err[2048];

static int load_text(struct config *c, const char *dir, const char *name, const char *text)
{
	return config_load(c, write_file(dir, name, text), 1, err, sizeof err);
}

START_TEST(config_precedence)
{
	char *dir = temp_dir();
	struct config c = { 0 };
	ck_assert_int_eq(load_text(&c, dir, "a.ini",
				   "[defaults]\nn = 1K\nblock = 64\n"
				   "[plugin reduce]\nfile = reduce.so\nn = 2K\n"
				   "[exercise reduce.unroll8]\nn = 4K\n"), 0);
	ck_assert_int_eq(load_text(&c, dir, "b.ini", "[plugin reduce]\nblock = 128\nn = 3K\n[defaults]\nn = 5K\n"), 0);
	/* exercise beats plugin beats defaults, whichever file each is in */
	ck_assert_str_eq(config_get(&c, "reduce", "unroll8", "n")->value, "4K");
	ck_assert_str_eq(config_get(&c, "reduce", "unroll8", "block")->value, "128");
	ck_assert_str_eq(config_get(&c, "other", "x", "block")->value, "64");
	/* in sections of one kind, the later file wins */
	ck_assert_str_eq(config_get(&c, "reduce", "unroll2", "n")->value, "3K");
	ck_assert_str_eq(config_get(&c, "other", "x", "n")->value, "5K");
	ck_assert_str_eq(config_get_at(&c, SCOPE_DEFAULTS, "reduce", "unroll8", "n")->value, "5K");
	ck_assert_ptr_null(config_get(&c, "other", "x", "reps"));
	const struct setting *s = config_get(&c, "reduce", NULL, "file");
	ck_assert_str_eq(s->value, "reduce.so");
	ck_assert_int_eq(s->line, 5);
	ck_assert(strstr(s->file, "a.ini") != NULL);
	config_free(&c);
}
END_TEST

START_TEST(config_search_order)
{
	char *sys = temp_dir(), *xdg = temp_dir(), *extra = temp_dir(), path[4096];
	struct config c = { 0 };
	write_file(sys, "gpulab.ini", "[defaults]\nn = 1\nblock = 32\nreps = 5\nwarmup = 1\n");
	snprintf(path, sizeof path, "%s/conf.d", sys);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	write_file(path, "20-b.ini", "[defaults]\nn = 3\nblock = 96\n");
	write_file(path, "10-a.ini", "[defaults]\nn = 2\nblock = 64\nreps = 6\n");
	write_file(path, "README", "not an ini file [\n");
	snprintf(path, sizeof path, "%s/gpulab", xdg);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	write_file(path, "gpulab.ini", "[defaults]\nn = 4\n");
	const char *env = write_file(extra, "env.ini", "[defaults]\nn = 5\nwarmup = 2\n");
	const char *explicit_file = write_file(extra, "cli.ini", "[defaults]\nn = 6\n");
	setenv("XDG_CONFIG_HOME", xdg, 1);
	setenv("GPULAB_CONFIG", env, 1);
	ck_assert_int_eq(config_load_all(&c, sys, &explicit_file, 1, err, sizeof err), 0);
	ck_assert_uint_eq(c.nfiles, 6);
	ck_assert_str_eq(config_get(&c, "p", "e", "n")->value, "6");        /* --config */
	ck_assert_str_eq(config_get(&c, "p", "e", "warmup")->value, "2");   /* $GPULAB_CONFIG */
	ck_assert_str_eq(config_get(&c, "p", "e", "block")->value, "96");   /* conf.d, sorted */
	ck_assert_str_eq(config_get(&c, "p", "e", "reps")->value, "6");
	config_free(&c);
	/* --config twice: both read, in order; the second's n wins, the first's block stays */
	const char *two[2] = { write_file(extra, "one.ini", "[defaults]\nn = 7\nblock = 128\n"),
			       write_file(extra, "two.ini", "[defaults]\nn = 8\n") };
	ck_assert_int_eq(config_load_all(&c, sys, two, 2, err, sizeof err), 0);
	ck_assert_uint_eq(c.nfiles, 7);
	ck_assert_str_eq(config_get(&c, "p", "e", "n")->value, "8");
	ck_assert_str_eq(config_get(&c, "p", "e", "block")->value, "128");
	config_free(&c);
	/* without --config, $GPULAB_CONFIG and then XDG win */
	ck_assert_int_eq(config_load_all(&c, sys, NULL, 0, err, sizeof err), 0);
	ck_assert_str_eq(config_get(&c, "p", "e", "n")->value, "5");
	config_free(&c);
	unsetenv("GPULAB_CONFIG");
	ck_assert_int_eq(config_load_all(&c, sys, NULL, 0, err, sizeof err), 0);
	ck_assert_str_eq(config_get(&c, "p", "e", "n")->value, "4");
	config_free(&c);
}
END_TEST

/* The handler of the one INI reader's test: the last key and value, and
 * whether its line was indented. */
static char ini_key[64], ini_value[256];
static int ini_indented;

static int ini_last(void *user, const char *section, const char *key, const char *value)
{
	(void)section;
	snprintf(ini_key, sizeof ini_key, "%s", key);
	snprintf(ini_value, sizeof ini_value, "%s", value);
	ini_indented = ((struct ini_text *)user)->indented;
	return 1;
}

/* One reader, two ways with an indented line: a lesson's continues the
 * key above (inih hands the handler the key again, indented), a
 * configuration's is refused where it is read, naming it. */
START_TEST(one_ini_reader_two_ways)
{
	const char *text = "[s]\nkey = first\n\tsecond\n";
	char err[512] = "";
	struct ini_text t = { .file = "x.ini", .text = text, .len = strlen(text), .err = err, .errlen = sizeof err };
	ck_assert_int_eq(ini_text_parse(&t, ini_last, &t, "key = value"), 0);
	ck_assert_str_eq(ini_key, "key");
	ck_assert_str_eq(ini_value, "second");
	ck_assert_int_eq(ini_indented, 1);
	ck_assert_int_eq(t.sections, 1);
	t = (struct ini_text){ .file = "x.ini", .text = text, .len = strlen(text), .flat = 1, .err = err, .errlen = sizeof err };
	ck_assert_int_eq(ini_text_parse(&t, ini_last, &t, "key = value"), -1);
	ck_assert_str_eq(err, "x.ini:3: malformed line 'second' (expected key = value)");
	const char *nul = "[s]\nkey = a\0b\n";
	t = (struct ini_text){ .file = "x.ini", .text = nul, .len = 14, .err = err, .errlen = sizeof err };
	ck_assert_int_eq(ini_text_parse(&t, ini_last, &t, "key = value"), -1);
	ck_assert_str_eq(err, "x.ini:2: a NUL byte");
}
END_TEST

static void expect_config_error(const char *text, const char *line, const char *words)
{
	char *dir = temp_dir();
	struct config c = { 0 };
	ck_assert_int_eq(load_text(&c, dir, "bad.ini", text), EXIT_CONFIG);
	ck_assert_msg(strstr(err, line) && strstr(err, words), "message was: %s", err);
	ck_assert(strstr(err, "bad.ini") != NULL);
	ck_assert(strchr(err, '\n') == NULL);
	config_free(&c);
}

START_TEST(config_errors)
{
	expect_config_error("[defaults]\nn = 1\nthis line is broken\n", ":3:", "malformed");
	expect_config_error("n = 1\n", ":1:", "outside a section");
	/* a section's fault at the section's own line, though inih hands it
	 * over only with its first key, lines below (issue 52) */
	expect_config_error("[defaults]\n[plugins reduce]\nfile = x\n", "bad.ini:2: ",
			    "bad.ini:2: unknown section [plugins reduce]; expected [defaults], [plugin NAME] or "
			    "[exercise NAME.EXERCISE]");
	expect_config_error("[defaults]\n[bogus]\n; a note\n\nk = 1\n", "bad.ini:2: ", "bad.ini:2: unknown section [bogus];");
	expect_config_error("[plugin a]\nfile = a.so\n[plugin B]\n\nn = 1\n", "bad.ini:3: ",
			    "bad.ini:3: bad name in [plugin B]: plugin and exercise names are made of a-z, 0-9 and _");
	expect_config_error("[defaults]\n\nn = lots\n", ":3:", "bad value 'lots' for 'n'");
	expect_config_error("[defaults]\nblock = 0\n", ":2:", "from 1 to 1024");
	expect_config_error("[defaults]\nblock = 4294967296\n", ":2:", "from 1 to 1024");
	expect_config_error("[defaults]\nreps = 4000000000\n", ":2:", "from 1 to 1000000");
	expect_config_error("[defaults]\nwarmup = 3000000000\n", ":2:", "from 0 to 1000000");
	expect_config_error("[defaults]\nn = 18446744073709551615\n", ":2:", "from 1 to 2^40");
	expect_config_error("[defaults]\ntype = double\n", ":2:", "one of int|float");
	expect_config_error("[defaults]\nmode = fast\n", ":2:", "unknown key 'mode'");
	expect_config_error("[exercise reduce]\nn = 1\n", "bad.ini:1: ", "unknown section");
	expect_config_error("[defaults]\nfile = x.so\n", ":2:", "'file' belongs");
	expect_config_error("[plugin x]\nfile = x.so\n[oops\n", ":3:", "malformed");
	/* the line at fault, and what it says (issue 46, item 15) */
	expect_config_error("[plugin broken\nfile = x.so\n", ":1:", "section '[plugin broken' never closed (no ']')");
	expect_config_error("[plugin hist]\nfile hist.so\n", ":2:", "malformed line 'file hist.so' (expected key = value)");
	expect_config_error("[plugin hist]\r\nfile hist.so\r\n", ":2:", "'file hist.so' (expected");

	struct config c = { 0 };
	ck_assert_int_eq(config_load(&c, "/nonexistent/gpulab.ini", 1, err, sizeof err), EXIT_CONFIG);
	ck_assert(strstr(err, "/nonexistent/gpulab.ini") != NULL);
	ck_assert_int_eq(config_load(&c, "/nonexistent/gpulab.ini", 0, err, sizeof err), 0);
	config_free(&c);
}
END_TEST

/* --- descriptors and matching ---------------------------------------------- */
static int step(struct gpulab_ctx *ctx) { (void)ctx; return 0; }
static void down(struct gpulab_ctx *ctx) { (void)ctx; }
#define EX(ex_name) { .name = ex_name, .summary = "summary", .dtypes = GPULAB_INT32, .n = 1024, .block = 256, \
			  .plan = step, .setup = step, .run = step, .verify = step, .teardown = down }

static struct gpulab_exercise reduce_ex[] = { EX("neighbored"), EX("interleaved"), EX("unroll2"), EX("unroll8"), EX("cub") };
static struct gpulab_exercise transpose_ex[] = { EX("smem"), EX("smem_pad") };
static struct gpulab_plugin reduce_desc = { GPULAB_PLUGIN_HEAD, .name = "reduce", .summary = "", .exercises = reduce_ex,
					    .n_exercises = 5, .baseline = "neighbored", .reference = "cub" };
static struct gpulab_plugin transpose_desc = { GPULAB_PLUGIN_HEAD, .name = "transpose", .summary = "",
					       .exercises = transpose_ex, .n_exercises = 2 };

static struct registry fake_registry(void)
{
	static struct plugin v[3];
	v[0] = (struct plugin){ .name = "reduce", .desc = &reduce_desc };
	v[1] = (struct plugin){ .name = "transpose", .desc = &transpose_desc };
	v[2] = (struct plugin){ .name = "nested", .error = "nested.so: cannot open shared object file",
				.error_code = EXIT_PLUGIN };
	return (struct registry){ v, 3 };
}

static void expect_pick(const struct selection *s, size_t i, const char *plugin, const char *ex)
{
	ck_assert_uint_gt(s->n, i);
	ck_assert_str_eq(s->v[i].plugin->name, plugin);
	ck_assert_str_eq(s->v[i].ex->name, ex);
}

START_TEST(match_names)
{
	struct registry r = fake_registry();
	struct selection s;
	char *whole[] = { "reduce" }, *glob[] = { "reduce.unroll*", "transpose.smem", "reduce.unroll8" };
	ck_assert_int_eq(select_exercises(&r, whole, 1, &s, err, sizeof err), 0);
	ck_assert_uint_eq(s.n, 5);
	expect_pick(&s, 0, "reduce", "neighbored");
	expect_pick(&s, 4, "reduce", "cub");
	selection_free(&s);
	/* pattern order, each exercise once */
	ck_assert_int_eq(select_exercises(&r, glob, 3, &s, err, sizeof err), 0);
	ck_assert_uint_eq(s.n, 3);
	expect_pick(&s, 0, "reduce", "unroll2");
	expect_pick(&s, 1, "reduce", "unroll8");
	expect_pick(&s, 2, "transpose", "smem");
	selection_free(&s);
}
END_TEST

START_TEST(match_unknown_suggests)
{
	struct registry r = fake_registry();
	struct selection s;
	char *typo[] = { "reduce.unrol8" }, *bare[] = { "interleave" }, *none[] = { "zzzzzz" };
	char *dead[] = { "nested.hello" }, *plug[] = { "transpos" };
	ck_assert_int_eq(select_exercises(&r, typo, 1, &s, err, sizeof err), EXIT_NOMATCH);
	ck_assert_msg(strstr(err, "did you mean reduce.unroll8") != NULL, "%s", err);
	ck_assert_int_eq(select_exercises(&r, bare, 1, &s, err, sizeof err), EXIT_NOMATCH);
	ck_assert_msg(strstr(err, "reduce.interleaved") != NULL, "%s", err);
	ck_assert_int_eq(select_exercises(&r, plug, 1, &s, err, sizeof err), EXIT_NOMATCH);
	ck_assert_msg(strstr(err, "did you mean transpose") != NULL, "%s", err);
	ck_assert_int_eq(select_exercises(&r, none, 1, &s, err, sizeof err), EXIT_NOMATCH);
	ck_assert_msg(strstr(err, "gpulab list") != NULL, "%s", err);
	/* a plugin that failed to load says so instead of "no match" */
	ck_assert_int_eq(select_exercises(&r, dead, 1, &s, err, sizeof err), EXIT_PLUGIN);
	r.v[2].error_code = EXIT_CONFIG; /* its INI was at fault, not the .so */
	ck_assert_int_eq(select_exercises(&r, dead, 1, &s, err, sizeof err), EXIT_CONFIG);
	ck_assert_msg(strstr(err, "cannot open shared object") != NULL, "%s", err);
}
END_TEST

START_TEST(descriptor_checks)
{
	struct gpulab_plugin d = reduce_desc;
	struct gpulab_exercise bad[2] = { EX("ok"), EX("ok") };
	char want[128];
	ck_assert_int_eq(registry_check_version(&d, err, sizeof err), 0);
	ck_assert_int_eq(registry_check(&d, "reduce", err, sizeof err), 0);
	d.abi = 7;
	ck_assert_int_eq(registry_check_version(&d, err, sizeof err), -1);
	ck_assert_str_eq(err, "plugin ABI 7, newer than this gpulab's 2"); /* short: a line holds its path too */
	d.abi = 1;
	ck_assert_int_eq(registry_check_version(&d, err, sizeof err), -1);
	ck_assert_str_eq(err, "plugin ABI 1, older than this gpulab's 2: rebuild it");
	d = reduce_desc, d.abi_minor = GPULAB_ABI_MINOR + 1;
	ck_assert_int_eq(registry_check_version(&d, err, sizeof err), -1);
	snprintf(want, sizeof want, "plugin ABI 2.%d, newer than this gpulab's 2.%d", GPULAB_ABI_MINOR + 1, GPULAB_ABI_MINOR);
	ck_assert_str_eq(err, want);
	d = reduce_desc, d.exercise_size = offsetof(struct gpulab_exercise, teardown); /* lacks required fields */
	ck_assert_int_eq(registry_check_version(&d, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "struct sizes"), "%s", err);
	d = reduce_desc;
	ck_assert_int_eq(registry_check(&d, "reduction", err, sizeof err), -1);
	ck_assert(strstr(err, "'reduction'") != NULL);
	d.exercises = bad;
	d.n_exercises = 2;
	d.baseline = d.reference = NULL;
	ck_assert_int_eq(registry_check(&d, "reduce", err, sizeof err), -1);
	ck_assert(strstr(err, "declared twice") != NULL);
	bad[1].name = "Bad-Name";
	ck_assert_int_eq(registry_check(&d, "reduce", err, sizeof err), -1);
	ck_assert(strstr(err, "invalid name") != NULL);
	bad[1].name = "fine";
	bad[1].teardown = NULL;
	ck_assert_int_eq(registry_check(&d, "reduce", err, sizeof err), -1);
	ck_assert(strstr(err, "no teardown callback") != NULL);
	bad[1].teardown = down;
	bad[1].n = 1ull << 41; /* past the core's largest n */
	ck_assert_int_eq(registry_check(&d, "reduce", err, sizeof err), -1);
	bad[1].n = 100, bad[1].n_max = 10;
	ck_assert_int_eq(registry_check(&d, "reduce", err, sizeof err), -1);
	bad[1].n_max = 0, bad[1].dtypes = 4;
	ck_assert_int_eq(registry_check(&d, "reduce", err, sizeof err), -1);
	bad[1].dtypes = GPULAB_INT32;
	static const struct gpulab_param twice[] = { { .key = "k", .type = GPULAB_PARAM_COUNT, .def = "1", .help = "h" },
						     { .key = "k", .type = GPULAB_PARAM_COUNT, .def = "1", .help = "h" },
						     { NULL } };
	bad[1].params = twice, bad[1].params_size = 8;
	ck_assert_int_eq(registry_check(&d, "reduce", err, sizeof err), -1);
	ck_assert_msg(strstr(err, "declares parameter 'k' twice"), "%s", err);
	bad[1].params = twice + 1;
	ck_assert_int_eq(registry_check(&d, "reduce", err, sizeof err), 0);
	bad[1].params_size = 4; /* the count lies past the struct */
	ck_assert_int_eq(registry_check(&d, "reduce", err, sizeof err), -1);
	ck_assert_msg(strstr(err, "exercise 'fine': parameter 'k' lies outside"), "%s", err);
	/* a key of its own by a generic key's name, only where it takes none */
	static const struct gpulab_param shape[] = { { .key = "block", .type = GPULAB_PARAM_SHAPE, .def = "32x8", .help = "h" },
						     { NULL } };
	bad[1].params = shape, bad[1].params_size = 8;
	ck_assert_int_eq(registry_check(&d, "reduce", err, sizeof err), -1);
	ck_assert_msg(strstr(err, "declares a parameter 'block', a generic key it takes"), "%s", err);
	bad[1].block = 0;
	ck_assert_int_eq(registry_check(&d, "reduce", err, sizeof err), 0);
	bad[1].params = NULL;
	d.baseline = "missing";
	ck_assert_int_eq(registry_check(&d, "reduce", err, sizeof err), -1);
}
END_TEST

/* --- the report ------------------------------------------------------------- */
static struct job jobs[3];
static struct job_param job_params[3][NGENERIC + 1];

/* The parameters a planned job would have: the generic five and a seed. */
static void give_params(struct job *j, struct job_param *p)
{
	static const struct gpulab_param seed = { .key = "seed", .type = GPULAB_PARAM_SEED, .def = "random", .help = "h" };
	const char *text[] = { "1048576", "256", "int", "10", "2", "42" };
	for (int g = 0; g <= NGENERIC; g++) {
		p[g] = (struct job_param){ .decl = g < NGENERIC ? generic_params[g] : seed, .generic = g < NGENERIC ? g : -1 };
		snprintf(p[g].text, sizeof p[g].text, "%s", text[g]);
	}
	j->params = p;
	j->nparams = NGENERIC + 1;
}

static void make_jobs(void)
{
	static struct plugin p = { .name = "reduce", .desc = &reduce_desc };
	const int ex[] = { 0, 3, 4 };
	for (int i = 0; i < 3; i++) {
		jobs[i] = (struct job){ .pick = { &p, &reduce_ex[ex[i]], 0 }, .reps = 10, .warmup = 2, .exact_reps = 1 };
		give_params(&jobs[i], job_params[i]);
		jobs[i].ctx.n = 1 << 20;
		jobs[i].ctx.elements = 1 << 20;
		jobs[i].ctx.block = 256;
		jobs[i].ctx.dtype = GPULAB_INT32;
		jobs[i].ctx.bytes_read = 4 << 20;
		jobs[i].res = (struct result){ .gpu_med = 4.0 / (i + 1), .gpu_min = 1, .gpu_max = 5,
					       .total_med = 4.0 / (i + 1), .gbps = 1.0 * (i + 1), .nsamples = 10,
					       .noise = 0.0125, .converged = 1 };
	}
	/* the middle one computed a wrong sum, in a message that needs quoting */
	jobs[1].res.outcome = OUTCOME_WRONG;
	snprintf(jobs[1].res.message, sizeof jobs[1].res.message, "expected 5, got \"4\", \\ and a, comma");
	jobs[2].res.nnotes = 1;
	snprintf(jobs[2].res.notes[0].name, sizeof jobs[2].res.notes[0].name, "launches");
	jobs[2].res.notes[0].value = 2;
}

static char *render_with(enum format f, int samples);

static char *render(enum format f)
{
	return render_with(f, 0);
}

static char *render_samples(enum format f)
{
	return render_with(f, 1);
}

static const char *interruption; /* the report's, where a test sets one */
static int wide;                  /* the table's every column (--wide), where a test sets it */
static unsigned batch;            /* --batch, where a test sets it */
static const char *devname;       /* the device's name, where a test sets one */
static const struct clocks *clk;  /* NVML's, where a test sets it */

static char *render_with(enum format f, int samples)
{
	static char buf[65536];
	struct device_info dev = { .cc_major = 9, .peak_gbps = 3000 };
	snprintf(dev.name, sizeof dev.name, "%s", devname ? devname : "Test GPU \"9\"");
	struct report r = { .format = f, .schema = RECORD_SCHEMA, .dev = &dev, .jobs = jobs, .njobs = 3, .command = "gpulab run 'reduce.*'",
			    .samples = samples, .stop = STOP_DEFAULTS, .interruption = interruption, .wide = wide,
			    .batch = batch, .clk = clk };
	FILE *out = fmemopen(buf, sizeof buf, "w");
	report_print(&r, out);
	fclose(out);
	return buf;
}

START_TEST(report_json_parses)
{
	make_jobs();
	char *s = render(FORMAT_JSON);
	ck_assert_msg(json_valid(s), "invalid JSON:\n%s", s);
	ck_assert(strstr(s, "\"status\": \"FAILED\"") != NULL);
	ck_assert(strstr(s, "\"verified\": false") != NULL);
	/* the wrong row reports no bandwidth */
	ck_assert(strstr(s, "\"exercise\": \"reduce.unroll8\"") != NULL);
	ck_assert(strstr(strstr(s, "reduce.unroll8"), "\"gbps\": null") != NULL);
	ck_assert(strstr(s, "\"launches\": 2") != NULL);
	/* the record of the run */
	ck_assert_msg(strstr(s, "\"schema\": \"gpulab-record/1.4\"") && strstr(s, "\"command\": \"gpulab run 'reduce.*'\"")
		      && strstr(s, "\"date\": \"20") && strstr(s, "\"host\": ") && strstr(s, "\"revision\": "), "%s", s);
	ck_assert_msg(strstr(s, "\"runs\": 10, \"noise_pct\": 1.25, \"converged\": true, \"stopped_by\": \"count\""), "%s", s);
	ck_assert_msg(strstr(s, "\"compute_capability\": \"9.0\"") && strstr(s, "\"peak_gbps\": 3000.0")
		      && strstr(s, "\"max_sm_mhz\": null"), "%s", s);
	ck_assert(strstr(s, "\"clocks\": null") != NULL); /* no NVML sample in these rows */
	/* every parameter, and the command that runs the row again */
	ck_assert_msg(strstr(s, "\"params\": {\"n\": 1048576, \"block\": 256, \"type\": \"int\", \"reps\": 10, "
			    "\"warmup\": 2, \"seed\": 42}, \"elements\": 1048576") != NULL, "%s", s);
	ck_assert(strstr(s, "\"rerun\": \"gpulab run reduce.cub -n 1048576 -b 256 -t int -r 10 -w 2 -p seed=42\"") != NULL);
	/* the validator itself must reject what is not JSON */
	ck_assert(!json_valid("{\"a\": 1,}"));
	ck_assert(!json_valid("{\"a\": nan}"));
	ck_assert(!json_valid("[1, 2"));
}
END_TEST

/* info's GPUs as a table: CSV that parses, JSON's names as columns, and
 * the Markdown row (a device is made here: none is needed). */
START_TEST(info_as_a_table)
{
	struct device_info d = { .ordinal = 0, .cc_major = 9, .sms = 132, .warp_size = 32, .max_threads_per_block = 1024,
				 .smem_per_block = 49152, .smem_per_sm = 233472, .l2_bytes = 62914560,
				 .mem_bytes = 150754820096, .mem_clock_khz = 3201000, .bus_width_bits = 6144, .peak_gbps = 4915.5 };
	char *text = NULL;
	size_t len = 0;
	int fields;
	snprintf(d.name, sizeof d.name, "NVIDIA H200");
	snprintf(d.bus_id, sizeof d.bus_id, "0000:18:00.0");
	FILE *f = open_memstream(&text, &len);
	writer_end(&info_csv, &(struct info_doc){ &d, 1 }, f);
	fclose(f);
	ck_assert_msg(csv_valid(text, &fields) && fields == 14 && count_lines(text) == 2, "%s", text);
	ck_assert_str_eq(text, "ordinal,name,compute_capability,multiprocessors,warp_size,max_threads_per_block,"
			       "shared_memory_per_block_bytes,shared_memory_per_sm_bytes,l2_bytes,global_memory_bytes,"
			       "memory_clock_khz,bus_width_bits,peak_memory_gbps,pci_bus\n\"0\",\"NVIDIA H200\",\"9.0\",\"132\","
			       "\"32\",\"1024\",\"49152\",\"233472\",\"62914560\",\"150754820096\",\"3201000\",\"6144\","
			       "\"4915.5\",\"0000:18:00.0\"\n");
	free(text);
	f = open_memstream(&text, &len);
	writer_end(&info_markdown, &(struct info_doc){ &d, 1 }, f);
	fclose(f);
	ck_assert_msg(strstr(text, "|---:|---|---|---:|") && strstr(text, "\n| 0 | NVIDIA H200 | 9.0 | 132 | 32 | 1024 | 49152 | "
								      "233472 | 62914560 | 150754820096 | 3201000 | 6144 | 4915.5 | "
								      "0000:18:00.0 |\n"), "%s", text);
	free(text);
}
END_TEST

START_TEST(report_csv_parses)
{
	int fields;
	make_jobs();
	char *s = render(FORMAT_CSV);
	ck_assert_msg(csv_valid(s, &fields), "invalid CSV:\n%s", s);
	ck_assert_int_eq(fields, 36);
	ck_assert_int_eq(count_lines(s), 4);
	ck_assert(strstr(s, ",\"FAILED\",") != NULL);
	ck_assert_msg(strstr(s, "\"reduce.cub\",\"int\",1048576,256,10,2,\"seed=42\",1048576,0,") != NULL, "%s", s);
	ck_assert(strstr(s, "\"expected 5, got \"\"4\"\", \\ and a, comma\"") != NULL);
	ck_assert(!csv_valid("a,b\n1,2,3\n", &fields));
}
END_TEST

START_TEST(report_table)
{
	make_jobs();
	wide = 1; /* the seed, runs and noise are --wide's columns */
	char *s = render(FORMAT_TABLE);
	ck_assert(strstr(s, "Test GPU") != NULL);
	ck_assert(strstr(s, "FAILED") != NULL);
	ck_assert_msg(strstr(s, "reduce.unroll8: FAILED: expected 5") != NULL, "%s", s);
	/* cub is 3x faster than neighbored: speedup 3.00x, and 100% of itself */
	const char *cub = strstr(s, "reduce.cub ");
	ck_assert_msg(cub && strstr(cub, "3.00x") && strstr(cub, "100%"), "%s", s);
	ck_assert(strstr(s, "launches=2") != NULL);
	ck_assert(strstr(s, "speedup: neighbored's time") != NULL);
	ck_assert_msg(strstr(s, "median of 10 runs after 2 warm-up") && strstr(cub, "seed=42"), "%s", s);
	ck_assert_msg(strstr(cub, "     10   1.25 "), "runs and noise%%: %s", s); /* 10 runs, 1.25% */
	/* a row is compared with its reference at the same point only: a key
	 * both have (here the block size) must agree, the seed need not */
	snprintf(job_params[2][NGENERIC].text, sizeof job_params[2][NGENERIC].text, "7");
	s = render(FORMAT_TABLE);
	ck_assert_msg(strstr(strstr(s, "reduce.cub "), "3.00x"), "a different seed is the same point: %s", s);
	snprintf(job_params[0][GEN_BLOCK].text, sizeof job_params[0][GEN_BLOCK].text, "128");
	s = render(FORMAT_TABLE);
	cub = strstr(s, "reduce.cub ");
	ck_assert_msg(cub && !strstr(cub, "3.00x"), "compared with another block size: %s", s);
	snprintf(job_params[0][GEN_BLOCK].text, sizeof job_params[0][GEN_BLOCK].text, "256");
	/* a skipped row says so, and why, and claims no numbers */
	jobs[1].res.outcome = OUTCOME_SKIPPED;
	snprintf(jobs[1].res.message, sizeof jobs[1].res.message, "takes no -n");
	s = render(FORMAT_TABLE);
	ck_assert_msg(strstr(s, "reduce.unroll8: skipped: takes no -n"), "%s", s);
	wide = 0;
}
END_TEST

static void add_metrics(void);

/* The record holds to its documented schema, docs/record.schema.json, in
 * every state a row can be in: measured, FAILED, skipped, with counters,
 * clocks and samples. */
START_TEST(record_matches_schema)
{
	char path[4200], err[512];
	snprintf(path, sizeof path, "%s/docs/record.schema.json", getenv("srcdir") ? getenv("srcdir") : "..");
	struct json *schema = json_read_file(path, 1 << 20, err, sizeof err);
	ck_assert_msg(schema != NULL, "%s", err);
	make_jobs();
	add_metrics();
	jobs[2].res.clocks = (struct clock_stats){ .samples = 10, .sm_min = 1755, .sm_max = 1980, .mem_mhz = 2619,
						   .sm_mean = 1900.5, .throttled = 2, .reasons = 0x4 };
	double samples[3] = { 1.5, 1.25, 2 };
	jobs[0].res.samples = samples, jobs[0].res.nsamples = 3;
	/* a number and a name, as the report writes what a job holds (which
	 * keys may hold a choice is ctx_chose's to check: check_cli) */
	snprintf(jobs[2].params[NGENERIC].chosen, sizeof jobs[2].params[NGENERIC].chosen, "7");
	snprintf(jobs[2].params[GEN_TYPE].chosen, sizeof jobs[2].params[GEN_TYPE].chosen, "float");
	for (int skip = 0; skip < 2; skip++) {
		if (skip)
			jobs[1].res.outcome = OUTCOME_SKIPPED;
		char *s = render_samples(FORMAT_JSON);
		struct json *doc = json_parse(s, strlen(s), err, sizeof err);
		ck_assert_msg(doc != NULL, "%s\n%s", err, s);
		ck_assert_msg(schema_check(doc, schema, err, sizeof err) == 0, "%s\n%s", err, s);
		ck_assert_msg(strstr(s, "\"samples_ms\": [1.5, 1.25, 2]") && strstr(s, "\"reasons\": \"sw_power_cap\"")
			      && strstr(s, "\"chosen\": {\"type\": \"float\", \"seed\": 7}") && strstr(s, "\"chosen\": {}"),
			      "%s", s);
		json_free(doc);
	}
	/* interrupted (1.1): a point not run, and why the run stopped */
	jobs[1].res.outcome = OUTCOME_NOT_RUN;
	snprintf(jobs[1].res.message, sizeof jobs[1].res.message, "interrupted by SIGINT");
	interruption = "SIGINT";
	char *s = render_samples(FORMAT_JSON);
	interruption = NULL;
	struct json *doc = json_parse(s, strlen(s), err, sizeof err);
	ck_assert_msg(doc != NULL, "%s\n%s", err, s);
	ck_assert_msg(schema_check(doc, schema, err, sizeof err) == 0, "%s\n%s", err, s);
	ck_assert_msg(strstr(s, "\"schema\": \"gpulab-record/1.4\"") && strstr(s, "\"interrupted\": true, \"interruption\": \"SIGINT\"")
		      && strstr(s, "\"status\": \"not run\", \"message\": \"interrupted by SIGINT\""), "%s", s);
	json_free(doc);
	/* a record of schema 1, before those, is still one */
	const char *at = strstr(s, "gpulab-record/1.4");
	memmove((char *)at + strlen("gpulab-record/1"), at + strlen("gpulab-record/1.4"), strlen(at + strlen("gpulab-record/1.4")) + 1);
	char *cut = strstr(s, "  \"interrupted\"");
	memmove(cut, strstr(cut, "  \"device\""), strlen(strstr(cut, "  \"device\"")) + 1);
	char *nr = strstr(s, "\"status\": \"not run\"");
	memcpy(nr, "\"status\": \"skipped\"", strlen("\"status\": \"skipped\""));
	memmove(nr + strlen("\"status\": \"skipped\""), nr + strlen("\"status\": \"not run\""),
		strlen(nr + strlen("\"status\": \"not run\"")) + 1);
	doc = json_parse(s, strlen(s), err, sizeof err);
	ck_assert_msg(doc != NULL, "%s\n%s", err, s);
	ck_assert_msg(strstr(s, "\"schema\": \"gpulab-record/1\"") && !strstr(s, "\"interrupted\""), "%s", s);
	ck_assert_msg(schema_check(doc, schema, err, sizeof err) == 0, "%s\n%s", err, s);
	json_free(doc);
	jobs[1].res.outcome = OUTCOME_OK;
	jobs[1].res.message[0] = 0;
	jobs[0].res.samples = NULL;
	jobs[2].params[NGENERIC].chosen[0] = jobs[2].params[GEN_TYPE].chosen[0] = 0;
	/* and the validator itself refuses what breaks the schema */
	const char *bad = "{\"schema\": \"gpulab-record/3\"}";
	doc = json_parse(bad, strlen(bad), err, sizeof err);
	ck_assert_int_eq(schema_check(doc, schema, err, sizeof err), -1);
	json_free(doc);
	json_free(schema);
}
END_TEST

/* JSON strings stay JSON whatever bytes a message holds. */
START_TEST(json_strings_escape)
{
	char buf[256];
	const struct {
		const char *in, *out;
	} cases[] = {
		{ "a\"b\\c", "\"a\\\"b\\\\c\"" },
		{ "\x1b[31mred\n", "\"\\u001b[31mred\\u000a\"" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" }, /* kept */
		{ "\xff\xfe", "\"\\ufffd\\ufffd\"" },                       /* not UTF-8 */
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },                       /* overlong '/' */
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },            /* a surrogate */
		{ "\xe2\x82", "\"\\ufffd\\ufffd\"" },                       /* cut short */
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },  /* past U+10FFFF */
		{ "\xc2\x9b" "31m", "\"\\u009b31m\"" },                 /* C1 CSI: the same text, inert */
		{ "abc\xe2\x80\xae" "fdp", "\"abc\\u202efdp\"" },        /* RIGHT-TO-LEFT OVERRIDE */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		FILE *f = fmemopen(buf, sizeof buf, "w");
		emit_json(f, cases[i].in);
		fclose(f);
		ck_assert_str_eq(buf, cases[i].out);
		ck_assert(json_valid(buf));
	}
}
END_TEST

/* --- --metrics ----------------------------------------------------------- */
START_TEST(metrics_resolve_names)
{
	struct metric_set m;
	char err[512], src[300];
	double raw[4] = { 400, 100, 0, 7 };
	/* an alias, a ratio sharing its numerator, a raw name, one repeated */
	ck_assert_int_eq(metrics_resolve(&m, "gld_transactions, gld_transactions_per_request,sm__cycles_active.avg,"
					     "gld_transactions", NULL, err, sizeof err), 0);
	ck_assert_uint_eq(m.ncols, 3);
	ck_assert_uint_eq(m.nraw, 3); /* sectors, requests, cycles */
	ck_assert_str_eq(m.raw_ptrs[0], "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
	ck_assert_str_eq(m.raw_ptrs[1], "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
	ck_assert_double_eq(metrics_value(&m, raw, 1), 4);
	ck_assert_str_eq(metrics_source(&m, 1, src, sizeof src),
			 "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum / l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
	raw[1] = 0; /* no requests: no ratio */
	ck_assert(isnan(metrics_value(&m, raw, 1)));
	/* default expands to the exercise's list */
	ck_assert_int_eq(metrics_resolve(&m, "default,inst_per_warp", "achieved_occupancy,inst_per_warp", err, sizeof err), 0);
	ck_assert_uint_eq(m.ncols, 2);
	ck_assert_str_eq(m.cols[0].label, "achieved_occupancy");
}
END_TEST

START_TEST(metrics_resolve_errors)
{
	struct metric_set m;
	char err[512], many[4096] = "";
	ck_assert_int_eq(metrics_resolve(&m, "gld_efficiency,warp_eff", NULL, err, sizeof err), EXIT_USAGE);
	ck_assert_msg(strstr(err, "'warp_eff' is neither an alias"), "%s", err);
	ck_assert_int_eq(metrics_resolve(&m, "Sm__Cycles.sum", NULL, err, sizeof err), EXIT_USAGE);
	ck_assert_int_eq(metrics_resolve(&m, "default", NULL, err, sizeof err), EXIT_USAGE);
	ck_assert_msg(strstr(err, "declares no default metrics"), "%s", err);
	ck_assert_int_eq(metrics_resolve(&m, "default", "default", err, sizeof err), EXIT_USAGE);
	ck_assert_int_eq(metrics_resolve(&m, " , ", NULL, err, sizeof err), EXIT_USAGE);
	for (int i = 0; i <= MAX_METRIC_COLS; i++)
		snprintf(many + strlen(many), sizeof many - strlen(many), "sm__c%d.sum,", i);
	ck_assert_int_eq(metrics_resolve(&m, many, NULL, err, sizeof err), EXIT_USAGE);
	ck_assert_msg(strstr(err, "at most 32 metrics"), "%s", err);
}
END_TEST

/* Rows with counters, one without (an error), a ratio without a value. */
static void add_metrics(void)
{
	char err[256];
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(metrics_resolve(&jobs[i].metrics, "achieved_occupancy,gld_transactions_per_request",
						 NULL, err, sizeof err), 0);
		jobs[i].res.profiled = i != 1;
		jobs[i].res.passes = 2;
		jobs[i].res.raw[0] = 50.5, jobs[i].res.raw[1] = 1000, jobs[i].res.raw[2] = i ? 250 : 0;
	}
}

START_TEST(report_metrics)
{
	int fields;
	make_jobs();
	add_metrics();
	char *s = render(FORMAT_JSON);
	ck_assert_msg(json_valid(s), "invalid JSON:\n%s", s);
	ck_assert(strstr(s, "\"achieved_occupancy\": {\"metric\": \"sm__warps_active.avg.pct_of_peak_sustained_active\", "
			    "\"value\": 50.5}") != NULL);
	ck_assert(strstr(s, "\"gld_transactions_per_request\": {\"metric\": \"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum / "
			    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\", \"value\": null}") != NULL); /* 0 requests */
	ck_assert(strstr(s, "\"value\": 4}}, \"metric_passes\": 2") != NULL);
	s = render(FORMAT_CSV);
	ck_assert_msg(csv_valid(s, &fields), "invalid CSV:\n%s", s);
	ck_assert_int_eq(fields, 38);
	ck_assert(strstr(s, ",rerun,sm_mhz,mem_mhz,throttled,chosen,median_lo_ms,median_hi_ms,median_ci_pct,noisy,batch,\"achieved_occupancy\",\"gld_transactions_per_request\"\n") != NULL);
	ck_assert(strstr(s, ",50.5,4\n") != NULL && strstr(s, ",50.5,\n") != NULL);
	s = render(FORMAT_TABLE);
	ck_assert_msg(strstr(s, "counters (CUPTI") && strstr(s, "achieved_occupancy = sm__warps_active"), "%s", s);
	const char *cub = strstr(strstr(s, "counters"), "reduce.cub ");
	ck_assert_msg(cub && strstr(cub, "50.50") && strstr(cub, "(2 passes)"), "%s", s);
}
END_TEST

/* The longest line of s, in bytes (the table is ASCII). */
static size_t widest_line(const char *s)
{
	size_t most = 0;
	for (const char *line = s; *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		most = len > most ? len : most;
		line += len + (end != NULL);
	}
	return most;
}

/* What a ratio's label read fits 100 columns: the shared-load ratio's was
 * 130 under learn smem-pad (issue 46, item 19). */
START_TEST(report_metric_source_fits)
{
	char err[256];
	make_jobs();
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(metrics_resolve(&jobs[i].metrics, "shared_load_transactions_per_request", NULL, err, sizeof err), 0);
		jobs[i].res.profiled = 1;
		jobs[i].res.raw[0] = 1024, jobs[i].res.raw[1] = 32;
	}
	char *s = render(FORMAT_TABLE);
	ck_assert_msg(strstr(s, "\nshared_load_transactions_per_request = l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\n"
			       "                                       / smsp__inst_executed_op_shared_ld.sum\n"), "%s", s);
	ck_assert_msg(widest_line(s) <= 100, "%zu columns:\n%s", widest_line(s), s);
}
END_TEST

/* The default table fits 100 columns: a name longer than its column gets
 * a line of its own, the cells under it; the median's interval in +-%;
 * NOISY only where that interval is over 1% of the median.  --wide has
 * the params, min, max, runs and noise% it leaves out. */
START_TEST(report_table_fits)
{
	static struct plugin longp = { .name = "a_plugin_with_a_long_name_indeed", .desc = &reduce_desc };
	make_jobs();
	for (int i = 0; i < 3; i++)
		jobs[i].pick.plugin = &longp;
	jobs[0].res.median_lo = 3.99, jobs[0].res.median_hi = 4.01; /* 0.25% of 4 */
	jobs[2].res.median_lo = 1.2, jobs[2].res.median_hi = 1.4;   /* 0.1 of 1.3333: 7.50% */
	char *s = render(FORMAT_TABLE);
	ck_assert_msg(widest_line(s) <= 100, "%zu columns:\n%s", widest_line(s), s);
	ck_assert_msg(strstr(s, "\nexercise               type            n median ms    +-%    GB/s %peak speedup of ref  status\n"),
		      "%s", s);
	ck_assert_msg(strstr(s, "\na_plugin_with_a_long_name_indeed.cub\n                       int       1048576    1.3333   7.50     3.0   0.1   3.00x   100%  ok NOISY\n"),
		      "%s", s);
	ck_assert_msg(strstr(s, "\n                       int       1048576    4.0000   0.25     1.0   0.0   1.00x    33%  ok\n"), "%s", s);
	ck_assert_msg(strstr(s, "NOISY: the median is uncertain: half its 95% confidence interval is over 1% of it\n"), "%s", s);
	ck_assert_msg(!strstr(s, "seed=42") && !strstr(s, "launches=2") && !strstr(s, "    min ms"), "%s", s);
	for (int i = 0; i < 3; i++)
		jobs[i].exact_reps = 0; /* the title's stopping rule: on a line of its own */
	s = render(FORMAT_TABLE);
	ck_assert_msg(widest_line(s) <= 100 && strstr(s, "warm L2\n2 warm-up, then runs until the noise is at most 0.5%"),
		      "%zu columns:\n%s", widest_line(s), s);
	wide = 1;
	s = render(FORMAT_TABLE);
	wide = 0;
	ck_assert_msg(widest_line(s) > 100 && strstr(s, "seed=42") && strstr(s, "launches=2") && strstr(s, "    min ms")
		      && strstr(s, "noise%"), "%s", s);
}
END_TEST

/* What crowds a row stays in 100 columns too: n of 2^36 (11 digits), a
 * +-% past its column (">99999"), flags stacked after the status (those
 * past the edge on a line under it), a sweep's keys (beside the name, or
 * over the row where long), a long device's name with --batch (the batch
 * on a line of its own), and the THROTTLED legend (wrapped).  --wide
 * stays one line a row. */
START_TEST(report_table_crowded_fits)
{
	static int lib; /* loaded: any address */
	static const struct clocks nvml = { .lib = &lib, .max_sm_mhz = 1980 };
	make_jobs();
	jobs[1].res = jobs[0].res; /* measured: n, +-% and flags to show */
	jobs[0].ctx.elements = jobs[1].ctx.elements = jobs[2].ctx.elements = 1ull << 36;
	jobs[0].res.median_lo = 0, jobs[0].res.median_hi = 1e6; /* +-% of 12.5 million */
	for (int i = 0; i < 3; i++)
		jobs[i].res.clocks = (struct clock_stats){ .samples = 4, .sm_min = 900, .sm_max = 1980, .throttled = 2,
							   .reasons = 0x4 | 0x20 | 0x40 | 0x80 };
	jobs[0].res.timing = TIMING_UNHELD, jobs[0].unbatched = 1; /* ok THROTTLED NOISY UNHELD UNBATCHED */
	jobs[1].res.outcome = OUTCOME_UNVERIFIED;
	jobs[1].res.median_lo = 1, jobs[1].res.median_hi = 3; /* 25%: unverified THROTTLED NOISY */
	job_params[1][NGENERIC].values = job_params[2][NGENERIC].values = 2; /* a sweep of seeds */
	snprintf(job_params[2][NGENERIC].text, sizeof job_params[2][NGENERIC].text, "%s", "12345678901234567890");
	batch = 1000, devname = "NVIDIA H100 80GB HBM3", clk = &nvml;
	char *s = render(FORMAT_TABLE);
	ck_assert_msg(widest_line(s) <= 100, "%zu columns:\n%s", widest_line(s), s);
	ck_assert_msg(strstr(s, "NVIDIA H100 80GB HBM3 (sm_90), peak 3000.0 GB/s; warm L2\n"
				"each sample 1000 runs back to back, timed together\nmedian of 10 samples after 2 warm-up\n"), "%s", s);
	ck_assert_msg(strstr(s, "\nreduce.neighbored      int   68719476736    4.0000 >99999     1.0   0.0   1.00x      -  ok THROTTLED\n"
				"                                                                                        NOISY UNHELD\n"
				"                                                                                        UNBATCHED\n"), "%s", s);
	ck_assert_msg(strstr(s, "\nreduce.unroll8 seed=42 int   68719476736    4.0000  25.00     1.0   0.0       -    33%  unverified\n"
				"                                                                                        THROTTLED\n"
				"                                                                                        NOISY\n"), "%s", s);
	ck_assert_msg(strstr(s, "\nreduce.cub seed=12345678901234567890\n                       int   68719476736    1.3333"), "%s", s);
	ck_assert_msg(strstr(s, "\nTHROTTLED: the SM clock fell below 75% of its ceiling, or NVML reported a slowdown\n"
				"  (sw_power_cap,sw_thermal,hw_thermal,hw_power_brake), in 3 rows' runs\n"), "%s", s);
	devname = "NVIDIA GeForce of a name so long that no terminal would hold it on one line with the rest of the title";
	s = render(FORMAT_TABLE);
	ck_assert_msg(widest_line(s) <= 100 && strstr(s, "\n  title (sm_90), peak 3000.0 GB/s; warm L2\n"), "%zu columns:\n%s", widest_line(s), s);
	wide = 1;
	s = render(FORMAT_TABLE);
	wide = 0, batch = 0, devname = NULL, clk = NULL;
	ck_assert_msg(strstr(s, "GB/s; warm L2; each sample 1000 runs back to back, timed together; median of 10 samples")
		      && strstr(s, "  ok THROTTLED NOISY UNHELD UNBATCHED\n") && strstr(s, "  unverified THROTTLED NOISY\n"),
		      "%s", s);
}
END_TEST

/* Row i timed by samples v[0..n), stopped as why: its median and
 * interval as the bench computes them (none under 6 samples). */
static void timed(int i, const double *v, size_t n, enum stop_reason why)
{
	struct result *x = &jobs[i].res;
	double sorted[16];
	memcpy(sorted, v, n * sizeof *v);
	for (size_t a = 1; a < n; a++) /* insertion sort: the median of a few */
		for (size_t b = a; b > 0 && sorted[b - 1] > sorted[b]; b--) {
			double t = sorted[b];
			sorted[b] = sorted[b - 1], sorted[b - 1] = t;
		}
	if (stats_median_ci(v, n, STATS_CI_CONF, &x->median_lo, &x->median_hi))
		x->median_lo = x->median_hi = NAN;
	x->gpu_med = x->total_med = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	x->nsamples = (unsigned)n, x->stopped_by = why, x->converged = why != STOP_TIMEOUT;
	x->outcome = OUTCOME_OK;
	jobs[i].exact_reps = why == STOP_COUNT;
}

/* NOISY where the timeout stopped a point, unconverged, under 6 runs:
 * its median has no interval, and how sure it is is unknown.  Not where
 * -r asked for so few, nor where the timeout left an interval under 1%. */
START_TEST(report_noisy_when_cut_short)
{
	static const double few[] = { 1.00, 1.02, 1.01, 1.30 }, many[] = { 1.000, 1.001, 1.002, 1.001, 1.000, 1.003,
									     1.002, 1.001, 1.000, 1.002 };
	make_jobs();
	timed(0, few, 4, STOP_TIMEOUT);
	timed(1, few, 4, STOP_COUNT);
	timed(2, many, 10, STOP_TIMEOUT);
	ck_assert(isnan(jobs[0].res.median_lo) && isfinite(jobs[2].res.median_lo));
	char *s = render(FORMAT_JSON);
	const char *a = strstr(s, "{\"exercise\": \"reduce.neighbored\""), *b = strstr(s, "{\"exercise\": \"reduce.unroll8\""),
		   *c = strstr(s, "{\"exercise\": \"reduce.cub\"");
	ck_assert_msg(a && b && c && a < b && b < c, "%s", s);
	ck_assert_msg(strstr(a, "\"noisy\": true") < b, "%s", s);
	ck_assert_msg(strstr(b, "\"noisy\": false") < c && strstr(c, "\"noisy\": false"), "%s", s);
	s = render(FORMAT_TABLE);
	ck_assert_msg(strstr(s, "\nreduce.neighbored int       1048576    1.0150      -     1.0   0.0   1.00x    99%  ok NOISY\n")
		      && occurrences(s, " NOISY\n") == 1
		      && strstr(s, "\nNOISY with no +-%: the timeout stopped it under 6 runs: how uncertain its median is, is "
				   "unknown\n"), "%s", s);
	jobs[0].res.stopped_by = STOP_STABLE; /* settled, say, at 4: not the timeout's */
	s = render(FORMAT_TABLE);
	ck_assert_msg(!strstr(s, "NOISY"), "%s", s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("core");
	TCase *t = tcase_create("core");
	tcase_add_test(t, wrap_words_at_the_edge);
	tcase_add_test(t, size_forms);
	tcase_add_test(t, size_rejects);
	tcase_add_test(t, config_precedence);
	tcase_add_test(t, config_search_order);
	tcase_add_test(t, config_errors);
	tcase_add_test(t, one_ini_reader_two_ways);
	tcase_add_test(t, match_names);
	tcase_add_test(t, match_unknown_suggests);
	tcase_add_test(t, descriptor_checks);
	tcase_add_test(t, report_json_parses);
	tcase_add_test(t, report_metric_source_fits);
	tcase_add_test(t, report_csv_parses);
	tcase_add_test(t, info_as_a_table);
	tcase_add_test(t, report_table);
	tcase_add_test(t, report_table_fits);
	tcase_add_test(t, report_table_crowded_fits);
	tcase_add_test(t, report_noisy_when_cut_short);
	tcase_add_test(t, json_strings_escape);
	tcase_add_test(t, record_matches_schema);
	tcase_add_test(t, metrics_resolve_names);
	tcase_add_test(t, metrics_resolve_errors);
	tcase_add_test(t, report_metrics);
	suite_add_tcase(s, t);
	return run_suite(s, 0);
}
