/* Challenges as folders (issue 55), without a GPU: challenge.ini read and
 * refused key by key (core/plugins/challenge.c), the installed folders,
 * a user's winning over an installed one, `gpulab list` naming the
 * folder that won, and a wrong folder refused by try and grade in one
 * line with exit 15 before anything runs. */
#include "exitcode.h"
#include "plugins/challenge.h"
#include "plugins/challenge_dirs.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *srcdir(void)
{
	return getenv("srcdir") ? getenv("srcdir") : "..";
}

/* A small valid challenge: a 1-D copy. */
static const char base[] = "[challenge]\n"
			   "name = mine\n"
			   "description = a copy\n"
			   "types = int, float\n"
			   "[kernel]\n"
			   "name = copy\n"
			   "args = in:input out:output n:n\n"
			   "[input]\n"
			   "generator = range\n"
			   "[check]\n"
			   "reference = copy\n"
			   "tolerance = exact\n"
			   "[test]\n"
			   "sizes = 1@1, 33@2\n"
			   "[bench]\n"
			   "sizes = 2^20\n";

static struct challenge c;
static char err[1024];

/* base with line `from` (a whole line) replaced by `to` ("" drops it). */
static int parse_with(const char *from, const char *to)
{
	static char text[8192];
	const char *at = strstr(base, from);
	ck_assert_msg(at != NULL, "%s", from);
	snprintf(text, sizeof text, "%.*s%s%s", (int)(at - base), base, to, at + strlen(from));
	return challenge_parse(&c, "x/challenge.ini", text, strlen(text), err, sizeof err);
}

START_TEST(base_reads)
{
	char sig[400], gate[1024];
	ck_assert_int_eq(challenge_parse(&c, "x/challenge.ini", base, strlen(base), err, sizeof err), 0);
	ck_assert_str_eq(c.name, "mine");
	ck_assert_int_eq(c.types, CHALLENGE_INT | CHALLENGE_FLOAT);
	ck_assert_int_eq(c.two_d, 0);
	ck_assert_int_eq(c.reference, REFERENCE_COPY);
	ck_assert_int_eq(c.launch, LAUNCH_BLOCK | LAUNCH_PER_THREAD | LAUNCH_TILE | LAUNCH_GRID); /* the default */
	ck_assert(c.min == 0 && c.max == 255 && c.kmin == -256 && c.kmax == 256 && c.time_limit_s == 10);
	ck_assert(c.nbench == 1 && c.bench[0].x == 1u << 20);
	challenge_signature(&c, sig, sizeof sig);
	ck_assert_str_eq(sig, "const T *in, T *out, unsigned n");
	ck_assert_int_eq(challenge_gate(&c, gate, sizeof gate), 0);
	ck_assert_str_eq(gate, "n=1 seed=1;n=33 seed=2");
}
END_TEST

/* Each wrong file: one line naming the file, its line, the key, the value. */
START_TEST(wrong_keys_refused)
{
	static const struct {
		const char *from, *to, *says;
	} cases[] = {
		{ "generator = range\n", "generator = gauss\n",
		  "x/challenge.ini:9: [input] generator = 'gauss': unknown generator (range, sorted, constant, edges)" },
		{ "generator = range\n", "generator = range\ngaussian = 1\n", "x/challenge.ini:10: [input] gaussian: no such key" },
		{ "reference = copy\n", "reference = median\n",
		  "x/challenge.ini:11: [check] reference = 'median': no such CPU reference (sum, prefix_sum, histogram" },
		{ "tolerance = exact\n", "tolerance = abc\n",
		  "x/challenge.ini:12: [check] tolerance = 'abc': exact, or a relative tolerance: a number above 0 and below 1" },
		{ "tolerance = exact\n", "tolerance = 1e-3x\n", "[check] tolerance = '1e-3x'" },
		{ "tolerance = exact\n", "tolerance = nan\n", "[check] tolerance = 'nan'" },
		{ "sizes = 1@1, 33@2\n", "sizes = 0@1\n", "x/challenge.ini:14: [test] sizes = '0@1': out of range" },
		{ "sizes = 1@1, 33@2\n", "sizes = 1\n", "[test] sizes = '1': a test size is SIZE@SEED" },
		{ "sizes = 1@1, 33@2\n", "sizes = 1@1/gauss\n", "unknown generator 'gauss'" },
		{ "sizes = 2^20\n", "sizes = 2^40\n", "[bench] sizes = '2^40': out of range" },
		{ "sizes = 2^20\n", "sizes = 3000000000\n", "past 2^31 - 1" },
		{ "sizes = 2^20\n", "sizes = 64x64\n", "a 1-D challenge's sizes are N, not XxY" },
		{ "reference = copy\n", "", "x/challenge.ini: [check] reference is missing" },
		{ "reference = copy\n", "reference = add\n", "the reference add needs two inputs and one output" },
		{ "args = in:input out:output n:n\n", "args = in:input n:n\n",
		  "[kernel] args = 'in:input n:n': the reference copy needs one input and one output" },
		{ "reference = copy\n", "reference = transpose\n", "the reference transpose needs x and y, not n" },
		{ "types = int, float\n", "types = int, double\n", "[challenge] types = 'double': the types are int and float" },
		{ "types = int, float\n", "types = ;int\n", "[challenge] types = '': no type" }, /* fuzz: ';' starts a comment */
		{ "args = in:input out:output n:n\n", "args = in:input out:output\n", "one n (1-D), or one x and one y (2-D)" },
		{ "args = in:input out:output n:n\n", "args = in:input out:outptu n:n\n", "unknown role 'outptu'" },
		{ "args = in:input out:output n:n\n", "args = in:input in:output n:n\n", "'in' is named twice" },
		{ "name = copy\n", "name = Copy!\n", "[kernel] name = 'Copy!': a name is a-z, 0-9 and _" },
		{ "name = mine\n", "name = mine\nname = yours\n", "[challenge] name = 'yours': given twice" },
		{ "generator = range\n", "generator = range\nmin = 2^40\n", "[input] min = '2^40': not an integer" },
		{ "generator = range\n", "generator = range\nmin = 9\nmax = 3\n", "[input] max = '3': below min" },
		{ "[kernel]\n", "[kernel]\nlaunch = block, finish\n", "finish= is for the reference sum alone" },
		{ "[kernel]\n", "[kernel]\nlaunch = block, warp\n", "'warp': not a key of the contract line" },
		{ "sizes = 2^20\n", "sizes = 2^20\nrank = fastest\n", "[bench] rank = 'fastest': the one ranking is geomean" },
		{ "sizes = 2^20\n", "sizes = 2^20\ntime_limit = 0\n", "[bench] time_limit = '0': not an integer from 1 to 3600" },
		{ "description = a copy\n", "description = a copy\n\001\n", "x/challenge.ini:4: not a [section] or key = value" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		err[0] = 0;
		ck_assert_msg(parse_with(cases[i].from, cases[i].to) == -1, "case %zu (%s) read", i, cases[i].to);
		ck_assert_msg(strstr(err, cases[i].says) && !strchr(err, '\n'), "case %zu: '%s' not in '%s'", i, cases[i].says,
			      err);
	}
}
END_TEST

START_TEST(limits_refused)
{
	char line[400] = "sizes = ", big[300];
	for (int i = 0; i < CHALLENGE_MAX_SIZES + 1; i++)
		snprintf(line + strlen(line), sizeof line - strlen(line), "%d@%d ", i + 1, i);
	strcat(line, "\n");
	ck_assert_int_eq(parse_with("sizes = 1@1, 33@2\n", line), -1);
	ck_assert_msg(strstr(err, "longer than 190 bytes") || strstr(err, "more than 16 sizes"), "%s", err);
	memset(big, 'a', sizeof big - 2);
	big[sizeof big - 2] = '\n', big[sizeof big - 1] = 0;
	ck_assert_int_eq(parse_with("description = a copy\n", big), -1);
	ck_assert_msg(strstr(err, "x/challenge.ini:3: longer than 190 bytes"), "%s", err);
	ck_assert_int_eq(challenge_parse(&c, "x/challenge.ini", "[challenge]\nname = a\0b\n", 22, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "a NUL byte"), "%s", err);
	ck_assert_int_eq(challenge_load(&c, "/nonexistent", err, sizeof err), -1);
	ck_assert_msg(strstr(err, "/nonexistent/challenge.ini: cannot read"), "%s", err);
}
END_TEST

/* The installed challenges read, and keep the gates the plugin declared
 * in C before they were folders. */
START_TEST(installed_read)
{
	static const struct {
		const char *name, *gate;
	} want[] = {
		{ "reduce", "n=1 seed=1;n=31 seed=2;n=33 seed=3;n=1000003 seed=4;n=16777223 seed=5;n=67108864 seed=6" },
		{ "transpose", "rows=1 cols=1 seed=1;rows=31 cols=33 seed=2;rows=33 cols=31 seed=3;rows=1 cols=4099 seed=4;"
			       "rows=4099 cols=1 seed=5;rows=1000 cols=3001 seed=6" },
		{ "sum_matrix", "nx=1 ny=1 seed=1;nx=31 ny=33 seed=2;nx=33 ny=31 seed=3;nx=1 ny=4099 seed=4;nx=4099 ny=1 seed=5;"
				"nx=1000 ny=777 seed=6;nx=3 ny=2049 seed=7" },
		{ "prefix_sum", NULL },
		{ "histogram", NULL },
	};
	char dir[4200], gate[2048], sig[400];
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		snprintf(dir, sizeof dir, "%s/challenges/%s", srcdir(), want[i].name);
		ck_assert_msg(challenge_load(&c, dir, err, sizeof err) == 0, "%s", err);
		ck_assert_str_eq(c.name, want[i].name);
		ck_assert_int_eq(challenge_gate(&c, gate, sizeof gate), 0);
		if (want[i].gate)
			ck_assert_str_eq(gate, want[i].gate);
	}
	ck_assert_msg(strstr(gate, "n=100000 seed=6 input=constant"), "histogram's contention case: %s", gate);
	snprintf(dir, sizeof dir, "%s/challenges/prefix_sum", srcdir());
	ck_assert_int_eq(challenge_load(&c, dir, err, sizeof err), 0);
	challenge_signature(&c, sig, sizeof sig);
	ck_assert_str_eq(sig, "const T *in, T *out, unsigned n, unsigned *scratch");
}
END_TEST

static struct cmd_result o;
static char env_data[4300], env_xdg[4300];

static void gpulab(const char *a, const char *b, const char *c_, const char *d)
{
	char *argv[] = { getenv("GPULAB_WRAPPER"), (char *)a, (char *)b, (char *)c_, (char *)d, NULL };
	char *env[] = { env_data, env_xdg, "GPULAB_CONFIG=", NULL };
	run_cmd(&o, argv, env);
}

/* A copy of an installed challenge at dir/NAME, its description changed. */
static const char *copy_challenge(const char *dir, const char *name, const char *description)
{
	static char at[4300];
	char from[4200], text[8192], *line;
	snprintf(at, sizeof at, "%s/%s", dir, name);
	mkdir(at, 0700);
	snprintf(from, sizeof from, "%s/challenges/%s/challenge.ini", srcdir(), name);
	read_text(from, text, sizeof text);
	if ((line = strstr(text, "description = ")) && description) {
		char rest[8192];
		snprintf(rest, sizeof rest, "%s", strchr(line, '\n'));
		snprintf(line, sizeof text - (size_t)(line - text), "description = %s%s", description, rest);
	}
	write_file(at, "challenge.ini", text);
	snprintf(from, sizeof from, "%s/challenges/%s/template.cu", srcdir(), name);
	write_file(at, "template.cu", read_text(from, text, sizeof text));
	return at;
}

/* A user's folder wins over the installed one of its name, and list says
 * which file won and what it hides. */
START_TEST(user_wins_and_list_says)
{
	char *data = temp_dir(), dir[4300];
	snprintf(env_data, sizeof env_data, "XDG_DATA_HOME=%s", data);
	snprintf(env_xdg, sizeof env_xdg, "XDG_CONFIG_HOME=%s", temp_dir());
	snprintf(dir, sizeof dir, "%s/gpulab", data);
	mkdir(dir, 0700);
	strcat(dir, "/challenges");
	mkdir(dir, 0700);
	const char *mine = copy_challenge(dir, "reduce", "my own sum");
	gpulab("list", NULL, NULL, NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "\nchallenges (gpulab try NAME FILE.cu; docs/challenge.md):\n"), "%d %s %s",
		      o.status, o.out, o.err);
	char want[9000];
	snprintf(want, sizeof want, "  reduce                   %s (hides ", mine);
	ck_assert_msg(strstr(o.out, want) && strstr(o.out, "/challenges/reduce)\n"), "%s", o.out);
	ck_assert_msg(strstr(o.out, "  histogram ") && strstr(o.out, "  prefix_sum "), "%s", o.out);
	gpulab("list", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && json_valid(o.out) && strstr(o.out, "\"name\": \"reduce\", \"folder\": ")
		      && strstr(o.out, "\"user\": true, \"hides\": \"") && strstr(o.out, "\"user\": false, \"hides\": null"),
		      "%s", o.out);
	/* the try plugin reads the winner (where NVRTC built it) */
	gpulab("list", "try.reduce", NULL, NULL);
	ck_assert_msg(o.status == EXIT_NOMATCH || strstr(o.out, "my own sum"), "%d %s %s", o.status, o.out, o.err);
	gpulab("list", "reduce", NULL, NULL); /* a pattern: no challenges listed */
	ck_assert_msg(!strstr(o.out, "\nchallenges ("), "%s", o.out);
}
END_TEST

/* A wrong folder: one line, exit 15, nothing run or graded. */
START_TEST(wrong_folder_refused)
{
	char *data = temp_dir(), *subs = temp_dir(), want[9000];
	snprintf(env_data, sizeof env_data, "XDG_DATA_HOME=%s", data);
	snprintf(env_xdg, sizeof env_xdg, "XDG_CONFIG_HOME=%s", temp_dir());
	const char *bad = copy_challenge(temp_dir(), "histogram", NULL);
	char ini[4400], text[8192];
	snprintf(ini, sizeof ini, "%s/challenge.ini", bad);
	read_text(ini, text, sizeof text);
	char *g = strstr(text, "generator = range");
	ck_assert(g != NULL);
	memcpy(g, "generator = gauss", 17);
	write_file(bad, "challenge.ini", text);
	write_file(subs, "k.cu", "// a kernel\n");
	gpulab("try", bad, "k.cu", NULL);
	snprintf(want, sizeof want, "gpulab: try: %s/challenge.ini:13: [input] generator = 'gauss': unknown generator", bad);
	ck_assert_msg(o.status == EXIT_CHALLENGE && !strncmp(o.err, want, strlen(want)) && count_lines(o.err) == 1
		      && !o.out[0], "%d %s", o.status, o.err);
	gpulab("try", bad, "--template", NULL);
	ck_assert_msg(o.status == EXIT_CHALLENGE && count_lines(o.err) == 1 && !o.out[0], "%d %s", o.status, o.err);
	gpulab("grade", bad, subs, NULL);
	ck_assert_msg(o.status == EXIT_CHALLENGE && strstr(o.err, "gpulab: grade: ") && strstr(o.err, "gauss")
		      && count_lines(o.err) == 1 && !o.out[0], "%d %s %s", o.status, o.out, o.err);
	gpulab("grade", "--test", bad, subs);
	ck_assert_int_eq(o.status, EXIT_CHALLENGE);
	/* in the user's folder, list says it is left out, and lists the rest */
	char mine[4300];
	snprintf(mine, sizeof mine, "%s/gpulab", data);
	mkdir(mine, 0700);
	strcat(mine, "/challenges");
	mkdir(mine, 0700);
	const char *user = copy_challenge(mine, "histogram", NULL);
	write_file(user, "challenge.ini", text);
	gpulab("list", NULL, NULL, NULL);
	snprintf(want, sizeof want, "gpulab: list: %s/challenge.ini:13: [input] generator = 'gauss': unknown generator", user);
	ck_assert_msg(o.status == 0 && !strncmp(o.err, want, strlen(want)) && strstr(o.err, " (left out)\n")
		      && count_lines(o.err) == 1 && strstr(o.out, "  reduce "), "%d %s", o.status, o.err);
	/* a folder whose name is not its challenge's */
	char *parent = temp_dir(), renamed[4400];
	const char *other = copy_challenge(parent, "histogram", NULL);
	snprintf(renamed, sizeof renamed, "%s/mine", parent);
	ck_assert_int_eq(rename(other, renamed), 0);
	gpulab("try", renamed, "--template", NULL);
	snprintf(want, sizeof want, "gpulab: try: %s/challenge.ini: [challenge] name = 'histogram': not its folder's name 'mine'",
		 renamed);
	ck_assert_msg(o.status == EXIT_CHALLENGE && !strncmp(o.err, want, strlen(want)) && count_lines(o.err) == 1
		      && !o.out[0], "%d %s", o.status, o.err);
	/* a folder without challenge.ini is no challenge; a name none has, none */
	gpulab("try", subs, "k.cu", NULL);
	ck_assert_msg(o.status == EXIT_NOMATCH && strstr(o.err, "it holds no challenge.ini"), "%d %s", o.status, o.err);
	gpulab("grade", "no/such", subs, NULL);
	ck_assert_int_eq(o.status, EXIT_NOMATCH);
	gpulab("grade", "Bad!", subs, NULL);
	ck_assert_int_eq(o.status, EXIT_USAGE);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("challenge");
	TCase *t = tcase_create("challenge");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, base_reads);
	tcase_add_test(t, wrong_keys_refused);
	tcase_add_test(t, limits_refused);
	tcase_add_test(t, installed_read);
	tcase_add_test(t, user_wins_and_list_says);
	tcase_add_test(t, wrong_folder_refused);
	suite_add_tcase(s, t);
	return run_suite(s, 0);
}
