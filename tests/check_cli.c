/* The gpulab command as a user meets it, without a GPU: bad input gets
 * one line naming what is at fault and its own exit code; broken plugins
 * are refused without stopping the others.  Runs the built binary on the
 * host-only test plugins. */
#include "config.h"

#include "config/options.h"
#include "exitcode.h"
#include "testutil.h"

#include <check.h>
#include <dlfcn.h>
#include <gpulab/plugin.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char sysconf[4096], env_sys[4200], env_path[4200], env_xdg[4200];
static const char *bin;

/* A configuration naming the given plugin sections; the user's asks for
 * an exact count of runs, since no-op host exercises never get quiet
 * (noise_criterion tests that). */
static void configure(const char *ini)
{
	char *dir = temp_dir(), *xdg = temp_dir(), user[4200];
	snprintf(sysconf, sizeof sysconf, "%s", dir);
	write_file(dir, "gpulab.ini", ini);
	snprintf(user, sizeof user, "%s/gpulab", xdg);
	mkdir(user, 0700);
	write_file(user, "gpulab.ini", "[defaults]\nreps = 5\n");
	snprintf(env_sys, sizeof env_sys, "GPULAB_SYSCONFDIR=%s", dir);
	snprintf(env_path, sizeof env_path, "GPULAB_PLUGIN_PATH=/nonexistent:%s", getenv("GPULAB_TEST_PLUGINS"));
	snprintf(env_xdg, sizeof env_xdg, "XDG_CONFIG_HOME=%s", xdg);
	free(dir);
	free(xdg);
}

static const char *const good_ini =
	"[plugin fake]\nfile = fake.so\n"
	"[plugin badabi]\nfile = badabi.so\n"
	"[plugin nocb]\nfile = nocb.so\n"
	"[plugin noentry]\nfile = noentry.so\n"
	"[plugin gone]\nfile = gone.so\n"
	"[plugin oldminor]\nfile = oldminor.so\n"
	"[plugin newminor]\nfile = newminor.so\n";

static struct cmd_result o;

/* gpulab ARGS... (NULL-terminated), on the configuration configure() wrote */
static void gpulab(const char *first, ...)
{
	char *env[] = { env_sys, env_path, env_xdg, "GPULAB_CONFIG=", NULL };
	va_list ap;
	va_start(ap, first);
	run_cmd_va(&o, bin, env, first, ap);
	va_end(ap);
}

/* Exit code `code`, and stderr one line holding `words`. */
static void expect_error(int code, const char *words)
{
	ck_assert_msg(o.status == code, "exit %d, wanted %d; stderr: %s", o.status, code, o.err);
	ck_assert_msg(strstr(o.err, words) != NULL, "stderr lacks '%s': %s", words, o.err);
	ck_assert_msg(count_lines(o.err) == 1, "not one line: %s", o.err);
	ck_assert_msg(!strncmp(o.err, "gpulab: ", 8), "%s", o.err);
}

static int have_gpu(void)
{
	static int known = -1;
	if (known < 0) {
		gpulab("info", NULL);
		known = o.status == 0;
	}
	return known;
}

START_TEST(help_and_version)
{
	configure("");
	gpulab("--help", NULL);
	ck_assert_int_eq(o.status, 0);
	ck_assert(strstr(o.out, "usage: gpulab") != NULL);
	gpulab(NULL);
	ck_assert_int_eq(o.status, 0);
	gpulab("--version", NULL);
	ck_assert_int_eq(o.status, 0);
	ck_assert(strstr(o.out, "gpulab " PACKAGE_VERSION) != NULL);
}
END_TEST

/* help cites the pages where they are installed, not docs/ of a source
 * tree the user may not have (issue 52). */
START_TEST(help_cites_installed_pages)
{
	static const struct { const char *command, *page; } cites[] = {
		{ "run", "\npage:\n  /opt/lab/doc/record.md\n" },
		{ "learn", "\npage:\n  /opt/lab/doc/learn.md\n" },
		{ "record", "\npage:\n  /opt/lab/doc/record.md\n" },
		{ NULL, "installed in:\n  /opt/lab/doc\n" },
	};
	configure("");
	char *env[] = { env_sys, env_path, env_xdg, "GPULAB_CONFIG=", "GPULAB_DOCDIR=/opt/lab/doc", NULL };
	for (size_t i = 0; i < sizeof cites / sizeof cites[0]; i++) {
		char *argv[] = { (char *)bin, "help", (char *)cites[i].command, NULL };
		run_cmd(&o, argv, env);
		ck_assert_msg(o.status == 0 && strstr(o.out, cites[i].page), "help %s: %s", cites[i].command, o.out);
		ck_assert_msg(!strstr(o.out, "docs/"), "help %s cites docs/: %s", cites[i].command, o.out);
	}
}
END_TEST

START_TEST(usage_errors)
{
	configure(good_ini);
	gpulab("--bogus", NULL);
	expect_error(EXIT_USAGE, "--bogus");
	gpulab("run", "fake.ok", "-n", NULL);
	expect_error(EXIT_USAGE, "-n needs a value");
	gpulab("run", "fake.ok", "-n", "0", NULL);
	expect_error(EXIT_USAGE, "-n 0: expected a count from 1 to 2^40");
	gpulab("run", "fake.ok", "-n", "12Q", NULL);
	expect_error(EXIT_USAGE, "-n 12Q: expected a count");
	gpulab("run", "fake.ok", "-n", "2^64-1", NULL);
	expect_error(EXIT_USAGE, "-n 2^64-1");
	gpulab("run", "fake.ok", "-b", "4294967296", NULL);
	expect_error(EXIT_USAGE, "-b 4294967296: expected a count from 1 to 1024");
	gpulab("run", "fake.ok", "-w", "3000000000", NULL);
	expect_error(EXIT_USAGE, "-w 3000000000: expected a count from 0 to 1000000");
	gpulab("run", "fake.ok", "--format", "yaml", NULL);
	expect_error(EXIT_USAGE, "'yaml'");
	gpulab("run", "fake.ok", "-t", "double", NULL);
	expect_error(EXIT_USAGE, "-t double: expected one of int|float");
	gpulab("run", "fake.ok", "-p", "novalue", NULL);
	expect_error(EXIT_USAGE, "KEY=VALUE");
	gpulab("frobnicate", NULL);
	expect_error(EXIT_USAGE, "unknown command 'frobnicate'");
	gpulab("run", NULL);
	expect_error(EXIT_USAGE, "name at least one exercise");
	gpulab("info", "extra", NULL);
	expect_error(EXIT_USAGE, "unexpected argument 'extra'");
	gpulab("run", "fake.ok", "--metrics", "warp_eff", NULL);
	expect_error(EXIT_USAGE, "fake.ok: --metrics: 'warp_eff' is neither an alias");
	gpulab("run", "fake.ok", "--metrics", "default", NULL);
	expect_error(EXIT_USAGE, "fake.ok: --metrics default: this exercise declares no default metrics");
	/* a host-only exercise has nothing to count: its counters stay unread
	 * (once a crash: no profiler is opened where no job needs a GPU) */
	gpulab("run", "fake.ok", "--metrics", "dram_read_throughput", "-r", "3", "--format", "csv", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "\"fake.ok\",\"int\",1024"), "%d %s %s", o.status, o.out, o.err);
}
END_TEST

/* The commands' rows (cli/commands.h): an unknown command first, then an
 * option the row does not declare, then a format it does not print,
 * then an argument too many; each one line naming the command and what
 * it takes.  tests/rows.sh runs every command so. */
START_TEST(dispatch_refusals_in_order)
{
	configure(good_ini);
	gpulab("frobnicate", "extra", "--submit", "x.cu", "--template", NULL);
	expect_error(EXIT_USAGE, "unknown command 'frobnicate'");
	gpulab("list", "--cflags", "--template", NULL);
	expect_error(EXIT_USAGE, "list: takes no --template; it takes --format, --config\n");
	gpulab("config", "--nccl-tests", "x.txt", NULL);
	expect_error(EXIT_USAGE, "config: takes no --nccl-tests; it takes --size, --block, --type, --reps, --warmup, "
				 "--param, --format, --variable, --cflags, --config\n");
	gpulab("metrics", "--template", NULL);
	expect_error(EXIT_USAGE, "metrics: takes no --template; it takes --format, --config\n");
	gpulab("report", "--format", "csv", "extra", NULL);
	expect_error(EXIT_USAGE, "report: prints no --format csv; it prints table, json\n");
	gpulab("metrics", "--format", "json", "extra", NULL);
	expect_error(EXIT_USAGE, "metrics: unexpected argument 'extra' (gpulab metrics)\n");
	gpulab("list", "--submit", "x.cu", NULL);
	expect_error(EXIT_USAGE, "list: takes no --submit; it takes --format, --config\n");
	gpulab("run", "--template", NULL);
	expect_error(EXIT_USAGE, "run: takes no --template; it takes --size,");
	gpulab("learn", "-n", "2^20", NULL);
	expect_error(EXIT_USAGE, "learn: takes no -n/--size; it takes --format, --max-noise, --min-time, --timeout, --watchdog, "
				 "--submit, --config\n");
	/* where a command that prints json prints what is not its own */
	gpulab("config", "--variable", "plugindir", "--format", "json", NULL);
	expect_error(EXIT_USAGE, "config: --variable and --cflags print what pkg-config says: they take no --format\n");
	gpulab("try", "reduce", "--template", "--format", "json", NULL);
	expect_error(EXIT_USAGE, "try: --template prints a starting FILE.cu: it takes no --format\n");
	gpulab("info", "--wide", "extra", NULL);
	expect_error(EXIT_USAGE, "info: takes no --wide; it takes --format, --config\n");
	gpulab("help", "run", "extra", NULL);
	expect_error(EXIT_USAGE, "help: name one command (list, info,");
	gpulab("version", "extra", NULL);
	expect_error(EXIT_USAGE, "version: unexpected argument 'extra' (gpulab version)\n");
	gpulab("help", "--submit", "x.cu", NULL);
	expect_error(EXIT_USAGE, "help: takes no --submit; it takes --config\n");
	/* -h first: the help, whatever else is given */
	gpulab("info", "--wide", "-h", NULL);
	ck_assert_msg(o.status == 0 && !strncmp(o.out, "usage: gpulab info [OPTION]...\n", 31), "%d %s", o.status, o.out);
	gpulab("--version", NULL);
	ck_assert_msg(o.status == 0 && !strncmp(o.out, "gpulab " PACKAGE_VERSION, 7 + strlen(PACKAGE_VERSION)),
		      "%d %s", o.status, o.out);
}
END_TEST

/* Help is made from the rows: an option's line from options.c, with the
 * values its text names checked against the constants they are. */
START_TEST(help_from_rows)
{
	char want[256];
	configure(good_ini);
	gpulab("help", "run", NULL);
	ck_assert_int_eq(o.status, 0);
	snprintf(want, sizeof want, "\n      --watchdog S     stop gpulab, exit %d, if one run takes over S seconds\n"
				    "                       (default %d for try's kernels, else never; 0: never)\n",
		 EXIT_WATCHDOG, WATCHDOG_DEFAULT_S);
	ck_assert_msg(strstr(o.out, want), "%s", o.out);
	gpulab("help", "compare", NULL);
	snprintf(want, sizeof want, "      --fail-above PCT exit %d if a point is slower by more than PCT %%,\n", EXIT_SLOWER);
	ck_assert_msg(strstr(o.out, want), "%s", o.out);
	/* a command's own line for an option */
	gpulab("help", "report", NULL);
	ck_assert_msg(strstr(o.out, "\n  -o, --output FILE    the page (.html) or the chart (.svg) to write\n"), "%s", o.out);
	gpulab("help", "frobnicate", NULL);
	expect_error(EXIT_USAGE, "help: no command 'frobnicate' (list, info, metrics, run, compare, report, try, learn, grade, board, "
				 "config, new, check, record, help, version)\n");
}
END_TEST

/* `gpulab metrics`: every book name with the metric it reads. */
START_TEST(metrics_lists_aliases)
{
	configure(good_ini);
	gpulab("metrics", NULL);
	ck_assert_int_eq(o.status, 0);
	ck_assert(strstr(o.out, "warp_execution_efficiency") && strstr(o.out, "smsp__thread_inst_executed_per_inst_executed"));
	ck_assert(strstr(o.out, "shared_load_transactions_per_request") && strstr(o.out, "gld_efficiency"));
	ck_assert(strstr(o.out, "= l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\n      / l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"));
	/* the man page's table names every alias the program knows */
	char path[4200], man[65536] = "", *save, *line;
	snprintf(path, sizeof path, "%s/man/gpulab.1.in", getenv("srcdir") ? getenv("srcdir") : "..");
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s", path);
	man[fread(man, 1, sizeof man - 1, f)] = 0;
	fclose(f);
	for (line = strtok_r(o.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char alias[64], want[80];
		if (sscanf(line, "%63[a-z_] ", alias) != 1 || line[0] == ' ' || !strchr(line, ' ') || !strcmp(alias, "metrics"))
			continue;
		snprintf(want, sizeof want, "\n.B %s\n", alias);
		ck_assert_msg(strstr(man, want) != NULL, "gpulab.1's METRICS table lacks %s", alias);
	}
}
END_TEST

START_TEST(list_shows_good_refuses_bad)
{
	char want[4200];
	configure(good_ini);
	gpulab("list", NULL);
	ck_assert_msg(o.status == 0, "exit %d", o.status); /* none was asked for (issue 46) */
	ck_assert(strstr(o.out, "fake.ok") && strstr(o.out, "fake.keyed") && strstr(o.out, "oldminor.keyed"));
	/* every parameter at its default; -r as it truly is: no count */
	ck_assert_msg(strstr(o.out, "-n 1024 -b 128 -t int -p mode=fast -p depth=3 -p tile=4x2"), "%s", o.out);
	ck_assert_msg(strstr(o.out, "-r N (exactly N timed runs; by default a point repeats until its noise is"), "%s", o.out);
	snprintf(want, sizeof want, "%s/fake.so", getenv("GPULAB_TEST_PLUGINS"));
	ck_assert_msg(strstr(o.out, want) != NULL, "list does not name %s:\n%s", want, o.out);
	ck_assert(strstr(o.out, "gpulab.ini") != NULL);
	/* each broken plugin gets one line naming its file and the fault */
	ck_assert_int_eq(count_lines(o.err), 5);
	ck_assert(strstr(o.err, "plugin ABI 99, newer than this gpulab's 2\n") != NULL);
	ck_assert(strstr(o.err, "plugin ABI 2.99, newer than this gpulab's 2.6\n") != NULL);
	ck_assert(strstr(o.err, "nocb.so: exercise 'ok' has no verify callback") != NULL);
	ck_assert(strstr(o.err, "noentry.so: no gpulab_plugin_entry: not a gpulab plugin") != NULL);
	snprintf(want, sizeof want, "no gone.so in /nonexistent, %s or ", getenv("GPULAB_TEST_PLUGINS")); /* every place */
	ck_assert_msg(strstr(o.err, want) != NULL, "%s", o.err);
	ck_assert(strstr(o.out, "badabi.") == NULL && strstr(o.out, "nocb.") == NULL);
}
END_TEST

/* gpulab try's gate and the watchdog, on host-only challenges of a
 * plugin called try (tests/plugins/fake.c, FAKE_TRY). */
static const char *const try_ini = "[plugin fake]\nfile = fake.so\n[plugin try]\nfile = faketry.so\n";

START_TEST(try_gate_stops_at_first_failure)
{
	configure(try_ini);
	gpulab("try", "gated", "bad.cu", NULL);
	expect_error(EXIT_WRONG, "gpulab: try gated: bad.cu fails the gate at n=1000003 int: sum of 1000003 ints: "
				 "expected 1000003, got 1000000; nothing was timed");
	ck_assert_msg(!o.out[0], "%s", o.out);
	/* a path is one value, commas and all, and a string in the record */
	gpulab("run", "try.gated", "-p", "kernel=a,b.cu", "-n", "5", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && json_valid(o.out) && strstr(o.out, "\"kernel\": \"a,b.cu\""), "%d %s %s", o.status,
		      o.out, o.err);
	char longer[300];
	memset(longer, 'k', sizeof longer);
	memcpy(longer, "kernel=", 7);
	longer[7 + 256] = 0;
	gpulab("run", "try.gated", "-p", longer, NULL);
	expect_error(EXIT_PARAM, "expected a file name of at most 255 bytes");
}
END_TEST

/* A path reaches the table escaped, in its row and in a plugin's message
 * that quotes it (as try's compiler messages do), as error lines are. */
START_TEST(plugin_messages_are_escaped)
{
	configure(try_ini);
	gpulab("run", "try.gated", "-p", "kernel=quoted\x1b[2J\xe2\x80\xae.cu", "-n", "5", "--wide", NULL); /* the params column */
	ck_assert_msg(o.status == EXIT_WRONG, "exit %d: %s %s", o.status, o.out, o.err);
	ck_assert_msg(strstr(o.out, " kernel=quoted\\x1b[2J\\u202e.cu ") /* the row's params */
		      && strstr(o.out, "\ntry.gated: FAILED: quoted\\x1b[2J\\u202e.cu:1: error: expected a \";\"\n"),
		      "%s", o.out);
	ck_assert_msg(!strchr(o.out, '\x1b') && !strstr(o.out, "\xe2\x80\xae"), "%s", o.out);
}
END_TEST

START_TEST(watchdog_stops_a_run_that_never_ends)
{
	configure(try_ini);
	run_cmd_alarm(20);
	gpulab("try", "hang", "k.cu", "--watchdog", "0.5", NULL);
	expect_error(EXIT_WATCHDOG, "gpulab: try.hang (n=1 int): still running after 0.5 s, stopped by the watchdog (--watchdog)");
	ck_assert_msg(o.seconds >= 0.5 && o.seconds < 5, "%g s", o.seconds);
	gpulab("run", "try.hang", "-n", "7", "--watchdog", "0.2", NULL);
	expect_error(EXIT_WATCHDOG, "gpulab: try.hang (n=7 int): still running after 0.2 s");
	run_cmd_alarm(0);
	gpulab("run", "fake.ok", "--watchdog", "-1", NULL);
	expect_error(EXIT_USAGE, "--watchdog -1: expected a number from 0 to 86400");
	gpulab("run", "fake.ok", "--watchdog", "0.001", NULL); /* runs that end in time are not stopped */
	ck_assert_msg(o.status == 0, "%s", o.err);
}
END_TEST

START_TEST(config_errors)
{
	/* --format json: each key's value and where it came from, and a refusal */
	static const char head[] = "{\n  \"schema\": \"gpulab-config/1\",\n  \"files\": [\n";
	configure(good_ini);
	gpulab("config", "fake.keyed", "fake.shaped", "-n", "2^11", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && !strncmp(o.out, head, sizeof head - 1)
		      && strstr(o.out, "\n    {\"name\": \"fake.keyed\", \"keys\": [{\"key\": \"n\", \"flag\": \"-n\", \"value\": "
				       "\"2^11\", \"from\": \"-n 2^11\", \"defaulted\": false}, ")
		      && strstr(o.out, "\"refused\": \"takes no -n: its size is set by -p rows, -p cols\"}\n  ]\n}\n"),
		      "%d %s %s", o.status, o.out, o.err);
	/* as a table: CSV that parses, each row as wide as the header; a Markdown row as the key's */
	int fields;
	gpulab("config", "fake.keyed", "fake.shaped", "-n", "2^11", "--format", "csv", NULL);
	ck_assert_msg(o.status == 0 && csv_valid(o.out, &fields) && fields == 5 && !strncmp(o.out, "what,name,key,value,from\n", 25)
		      && strstr(o.out, "\n\"key\",\"fake.keyed\",\"-n\",\"2^11\",\"-n 2^11\"\n")
		      && strstr(o.out, "\n\"refused\",\"fake.shaped\",\"\",\"\",\"takes no -n: its size is set by -p rows, -p cols\"\n"),
		      "%d %s %s", o.status, o.out, o.err);
	gpulab("config", "fake.keyed", "-n", "2^11", "--format", "md", NULL);
	ck_assert_msg(o.status == 0 && !strncmp(o.out, "| what | name | key | value | from |\n|---|---|---|---|---|\n", 58)
		      && strstr(o.out, "\n| key | fake.keyed | -n | 2^11 | -n 2^11 |\n"), "%d %s %s", o.status, o.out, o.err);
	configure("[plugin fake]\nfile = fake.so\nthis is not ini\n");
	gpulab("list", NULL);
	expect_error(EXIT_CONFIG, "gpulab.ini:3: malformed line");
	/* a fault in a plugin's INI keys is the configuration's: exit 3 */
	configure("[plugin fake]\nfile = fake.so\nbogus = 1\n");
	gpulab("run", "fake.ok", NULL);
	expect_error(EXIT_CONFIG, "gpulab.ini:3: unknown key 'bogus' for fake");
	/* list's one rule (issue 52), run's: a plugin left out, for its INI
	 * keys as for a garbage .so, is a warning unless asked for */
	gpulab("list", NULL);
	ck_assert_msg(o.status == 0 && count_lines(o.err) == 1 && strstr(o.err, "gpulab.ini:3: unknown key 'bogus' for fake"),
		      "exit %d: %s", o.status, o.err);
	gpulab("list", "fake", NULL);
	expect_error(EXIT_CONFIG, "gpulab.ini:3: unknown key 'bogus' for fake (`gpulab list` shows the keys)\n");
	ck_assert_msg(!strncmp(o.err, "gpulab: list: ", 14), "%s", o.err);
	gpulab("config", NULL); /* config checks the INI files: their fault is its failure */
	ck_assert_int_eq(o.status, EXIT_CONFIG);
	/* the same limits as the command line's, from every section */
	static const struct {
		const char *ini, *words;
	} bad[] = {
		{ "[exercise fake.nope]\nn = 3\n", "gpulab.ini:4: plugin 'fake' has no exercise 'nope'" },
		{ "[exercise fake.ok]\nn = lots\n", "gpulab.ini:4: n = lots: expected a count" },
		{ "[exercise fake.keyed]\nn = 5000\n", "gpulab.ini:4: n = 5000: expected a count from 1 to 4096" },
		{ "warmup = 4294967295\n", "gpulab.ini:3: warmup = 4294967295: no exercise of the plugin takes it" },
		{ "reps = 4000000000\n", "gpulab.ini:3: reps = 4000000000" },
		{ "[exercise fake.shaped]\nn = 5\n", "gpulab.ini:4: n = 5: it takes no size n" },
		{ "[exercise fake.keyed]\ntile = 4294967328x1\n", "tile = 4294967328x1: expected a shape WxH" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char ini[512];
		snprintf(ini, sizeof ini, "[plugin fake]\nfile = fake.so\n%s", bad[i].ini);
		configure(ini);
		gpulab("run", "fake.ok", NULL);
		expect_error(EXIT_CONFIG, bad[i].words);
	}
	configure("[plugin fake]\nfile = fake.so\n");
	gpulab("--config", "/nonexistent.ini", "list", NULL);
	expect_error(EXIT_CONFIG, "/nonexistent.ini: cannot read");
}
END_TEST

/* The widest line of s, in bytes (these lines are ASCII). */
static size_t widest(const char *s)
{
	size_t most = 0;
	for (const char *nl; *s; s = nl + !!*nl) {
		nl = s + strcspn(s, "\n");
		most = (size_t)(nl - s) > most ? (size_t)(nl - s) : most;
	}
	return most;
}

/* A plugin of another ABI (issue 52): one line of at most 100 columns,
 * however long its directory, from list and run; check names the FILE
 * given once, on stderr, as it refuses any FILE that is no plugin. */
START_TEST(abi_lines_fit)
{
	char line[4096], *at;
	configure(good_ini);
	gpulab("list", NULL);
	/* its line with the test's directory taken out: what gpulab wrote,
	 * with room for a plugin directory as long as /usr/local/lib/gpulab */
	ck_assert_msg(o.status == 0 && (at = strstr(o.err, "gpulab: not loaded: ")) && strstr(at, "badabi"), "%s", o.err);
	snprintf(line, sizeof line, "%.*s", (int)strcspn(at, "\n"), at);
	at = strstr(line, getenv("GPULAB_TEST_PLUGINS"));
	ck_assert_msg(at != NULL, "%s", line);
	memmove(at, at + strlen(getenv("GPULAB_TEST_PLUGINS")), strlen(at + strlen(getenv("GPULAB_TEST_PLUGINS"))) + 1);
	ck_assert_str_eq(line, "gpulab: not loaded: /badabi.so: plugin ABI 99, newer than this gpulab's 2");
	ck_assert_uint_le(strlen(line), 100 - strlen("/usr/local/lib/gpulab"));
	gpulab("run", "badabi.ok", NULL);
	expect_error(EXIT_PLUGIN, "gpulab: 'badabi.ok': plugin 'badabi' did not load: ");
	ck_assert_msg(widest(o.err) <= 100, "%zu columns: %s", widest(o.err), o.err);
	/* check ./badabi.so, run where it is: a short path, as typed */
	char *dir = temp_dir(), src[4200], dst[4300], cmd[8700];
	snprintf(src, sizeof src, "%s/badabi.so", getenv("GPULAB_TEST_PLUGINS"));
	snprintf(dst, sizeof dst, "%s/badabi.so", dir);
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", src, dst);
	ck_assert_int_eq(system(cmd), 0);
	char *argv[] = { "/bin/sh", "-c", "cd \"$1\" && exec \"$2\" check ./badabi.so", "sh", dir, (char *)bin, NULL };
	char *env[] = { env_sys, env_path, env_xdg, "GPULAB_CONFIG=", NULL };
	run_cmd(&o, argv, env);
	ck_assert_int_eq(o.status, EXIT_PLUGIN);
	ck_assert_str_eq(o.out, "");
	ck_assert_str_eq(o.err, "gpulab: check: ./badabi.so: plugin ABI 99, newer than this gpulab's 2\n");
	free(dir);
}
END_TEST

/* Messages that said what did not happen (issue 52), each exactly. */
START_TEST(messages_say_what_happened)
{
	configure("[plugin fake]\nfile = fake.so\n");
	gpulab("run", "fake.ok", "--samples", "-1", NULL);
	ck_assert_int_eq(o.status, EXIT_USAGE);
	ck_assert_str_eq(o.err, "gpulab: --samples -1: expected all, or a count of samples from 1 to 1000000000\n");
	gpulab("help", "record", "upgrade", NULL);
	ck_assert_msg(o.status == 0 && !strncmp(o.out, "usage: gpulab record upgrade FILE", 33), "%s%s", o.out, o.err);
	gpulab("help", "record", "downgrade", NULL);
	expect_error(EXIT_USAGE, "help: name one command (");
}
END_TEST

/* --config twice reads both, in order: the first's keys stay, the
 * second's win where both set one (issue 52); config lists both. */
START_TEST(config_given_twice)
{
	configure("[plugin fake]\nfile = fake.so\n");
	char *dir = temp_dir();
	const char *one = write_file(dir, "one.ini", "[exercise fake.keyed]\nmode = slow\ndepth = 5\n");
	char first[4200];
	snprintf(first, sizeof first, "%s", one);
	const char *two = write_file(dir, "two.ini", "[exercise fake.keyed]\ndepth = 7\n");
	char want[2][4300];
	snprintf(want[0], sizeof want[0], "  -p mode          %s:2: mode = slow\n", first);
	snprintf(want[1], sizeof want[1], "  -p depth         %s:2: depth = 7\n", two);
	gpulab("--config", first, "--config", two, "config", "fake.keyed", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, want[0]) && strstr(o.out, want[1]), "%s%s", o.out, o.err);
	snprintf(want[0], sizeof want[0], "  read     --config        %s\n  read     --config        %s\n", first, two);
	ck_assert_msg(strstr(o.out, want[0]), "%s", o.out);
	free(dir);
}
END_TEST

/* `gpulab new` of an installed plugin's name (issue 52): its `make
 * install` would name a bare NAME.so that a plugin directory searched
 * first holds, and the user's exercise would vanish.  Refused, one line,
 * exit 2, no directory; and where a user's file is shadowed all the
 * same, list and run say which file won and why. */
START_TEST(new_refuses_an_installed_name)
{
	char *dir = temp_dir(), *data = temp_dir(), want[8800], env_data[4200], user[4300], cmd[8800];
	const char *plugins = getenv("GPULAB_TEST_PLUGINS");
	configure(good_ini);
	snprintf(env_data, sizeof env_data, "XDG_DATA_HOME=%s", data);
	char *env[] = { env_sys, env_path, env_xdg, env_data, "GPULAB_CONFIG=", NULL };
	static const char *const names[] = { "fake", "gridbug" };
	for (size_t i = 0; i < 2; i++) {
		char *argv[] = { "/bin/sh", "-c", "cd \"$1\" && exec \"$2\" new \"$3\"", "sh", dir, (char *)bin,
				 (char *)names[i], NULL };
		run_cmd(&o, argv, env);
		if (i == 0) /* named by an INI file */
			snprintf(want, sizeof want, "gpulab: new: 'fake' is an installed plugin's name (named at %s/gpulab.ini:2); "
				 "choose another NAME\n", sysconf);
		else /* in a plugin directory, named by none */
			snprintf(want, sizeof want, "gpulab: new: 'gridbug' is an installed plugin's name (%s/gridbug.so); "
				 "choose another NAME\n", plugins);
		ck_assert_int_eq(o.status, EXIT_USAGE);
		ck_assert_str_eq(o.err, want);
		struct stat st;
		snprintf(user, sizeof user, "%s/%s", dir, names[i]);
		ck_assert_int_eq(stat(user, &st), -1); /* no directory made */
	}
	/* a fake.so of the user's all the same: list and run say which won */
	snprintf(user, sizeof user, "%s/gpulab/plugins", data);
	snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp '%s/fake.so' '%s/'", user, plugins, user);
	ck_assert_int_eq(system(cmd), 0);
	char *list[] = { (char *)bin, "list", "fake.ok", NULL };
	run_cmd(&o, list, env);
	snprintf(want, sizeof want, "\n  over    %s/fake.so (not loaded: the first plugin directory holding it wins)\n", user);
	ck_assert_msg(o.status == 0 && strstr(o.out, want), "%s", o.out);
	char *run[] = { (char *)bin, "run", "fake.scale", NULL };
	run_cmd(&o, run, env);
	snprintf(want, sizeof want, "gpulab: no exercise matches 'fake.scale': plugin 'fake' is %s/fake.so, not %s/fake.so "
		 "(the first plugin directory holding it wins)\n", plugins, user);
	ck_assert_int_eq(o.status, EXIT_NOMATCH);
	ck_assert_str_eq(o.err, want);
	free(dir);
	free(data);
}
END_TEST

START_TEST(unknown_exercise)
{
	configure(good_ini);
	gpulab("run", "fake.okk", NULL);
	expect_error(EXIT_NOMATCH, "no exercise matches 'fake.okk'; did you mean fake.ok?");
	gpulab("run", "badabi.ok", NULL);
	expect_error(EXIT_PLUGIN, "'badabi.ok': plugin 'badabi' did not load: ");
	ck_assert(strstr(o.err, "plugin ABI 99, newer than this gpulab's 2\n") != NULL);
}
END_TEST

START_TEST(parameter_errors)
{
	configure("[plugin fake]\nfile = fake.so\n");
	gpulab("run", "fake.ok", "-p", "mode=slow", NULL);
	expect_error(EXIT_USAGE, "-p mode: no chosen exercise takes this key");
	gpulab("run", "fake.wrong", "-t", "float", NULL);
	expect_error(EXIT_PARAM, "fake.wrong: -t float: element type float is not supported (it takes int)");
	gpulab("run", "fake.ok", "-b", "33", NULL);
	expect_error(EXIT_PARAM, "fake.ok: block size 33 is not a multiple of 32");
	gpulab("run", "fake.keyed", "-p", "mode=medium", NULL);
	expect_error(EXIT_PARAM, "fake.keyed: -p mode=medium: expected one of fast|slow");
	gpulab("run", "fake.keyed", "-p", "depth=deep", NULL);
	expect_error(EXIT_PARAM, "fake.keyed: -p depth=deep: expected a count from 1 to 10");
	gpulab("run", "fake.keyed", "-p", "tile=65x1", NULL);
	expect_error(EXIT_PARAM, "fake.keyed: -p tile=65x1: expected a shape WxH, each side from 1 to 64");
	gpulab("run", "fake.keyed", "-n", "4097", NULL);
	expect_error(EXIT_PARAM, "fake.keyed: -n 4097: expected a count from 1 to 4096");
	/* -n is never ignored: an exercise sized by its own keys refuses it */
	gpulab("run", "fake.shaped", "-n", "1000", NULL);
	expect_error(EXIT_USAGE, "-n: no chosen exercise takes a size; fake.shaped's is set by its own keys");
	gpulab("run", "fake.shaped", "fake.ok", "-n", "1000", NULL);
	expect_error(EXIT_PARAM, "fake.shaped: takes no -n: its size is set by -p rows, -p cols");
	/* nothing half-done: an exercise named alone that refuses stops the
	 * run before any exercise starts, so no report is printed */
	gpulab("run", "fake.ok", "fake.wrong", "-b", "48", NULL);
	expect_error(EXIT_PARAM, "fake.ok: block size 48");
	ck_assert_str_eq(o.out, "");
}
END_TEST

/* The real plugins refuse what they cannot run in plan(), before any
 * device is needed: one line naming the exercise and the value. */
static void wrapper_run(const char *first, ...)
{
	char *env[] = { env_xdg, "GPULAB_CONFIG=", NULL };
	va_list ap;
	va_start(ap, first);
	run_cmd_va(&o, getenv("GPULAB_WRAPPER"), env, first, ap);
	va_end(ap);
}

START_TEST(plugins_refuse_bad_parameters)
{
	static const struct {
		const char *args[8];
		int code;
		const char *words;
	} cases[] = {
		{ { "reduce.smem", "-b", "1000" }, EXIT_PARAM, "reduce.smem: block size 1000: this kernel takes a power of two from 64 to 1024" },
		{ { "reduce.shfl", "-b", "48" }, EXIT_PARAM, "reduce.shfl: block size 48: this kernel takes a multiple of 32" },
		{ { "reduce.neighbored", "-n", "2^31" }, EXIT_PARAM, "reduce.neighbored: -n 2^31: expected a count from 1 to 2147483647" },
		{ { "reduce.best", "-n", "68719476737" }, EXIT_PARAM, "reduce.best: -n 68719476737: expected a count from 1 to 2^36" },
		{ { "reduce.cub", "-p", "seed=soon" }, EXIT_PARAM, "reduce.cub: -p seed=soon: expected a number, or random" },
		{ { "reduce.best", "-b", "2048" }, EXIT_USAGE, "-b 2048: expected a count from 1 to 1024" },
		{ { "reduce.best", "-t", "float", "-p", "finish=packed" }, EXIT_PARAM,
		  "reduce.best: -p finish=packed adds ints only: a float sum depends on the order of its adds" },
		{ { "reduce.best", "-p", "finish=packed", "-p", "blocks=65536" }, EXIT_PARAM,
		  "reduce.best: -p finish=packed: 65536 blocks, and its word counts at most 65535" },
		{ { "sum_matrix.block16x16", "-p", "block=0x4" }, EXIT_PARAM, "-p block=0x4: expected a shape WxH, each side from 1 to 1024" },
		{ { "sum_matrix.block16x16", "-p", "block=4294967328x1" }, EXIT_PARAM, "-p block=4294967328x1: expected a shape WxH" },
		{ { "sum_matrix.block16x16", "-p", "block= +32x +1" }, EXIT_PARAM, "-p block= +32x +1: expected a shape WxH" },
		{ { "sum_matrix.block32x32", "-p", "block=64x32" }, EXIT_PARAM, "-p block=64x32 on 16384 rows: at most 1024 threads a block" },
		{ { "sum_matrix.best", "-p", "nx=0" }, EXIT_PARAM, "sum_matrix.best: -p nx=0: expected a count from 1 to 2147483647" },
		{ { "sum_matrix.copy", "-p", "block=32x32" }, EXIT_USAGE, "-p block: no chosen exercise takes this key" },
		{ { "transpose.smem", "-p", "rows=0" }, EXIT_PARAM, "transpose.smem: -p rows=0: expected a count from 1 to 2097120" },
		{ { "transpose", "-p", "rows=65536", "-p", "cols=65536" }, EXIT_PARAM, "transpose.memcpy: matrix 65536x65536: fewer than 2^32 elements" },
		{ { "transpose", "-n", "1000" }, EXIT_USAGE, "-n: no chosen exercise takes a size; transpose.memcpy's is set by its own keys" },
		{ { "divergence.math1", "-p", "iters=many" }, EXIT_PARAM, "divergence.math1: -p iters=many: expected a count from 0 to 1000000" },
		{ { "divergence.math1_debug", "-p", "iters=5" }, EXIT_USAGE, "-p iters: no chosen exercise takes this key" },
		{ { "divergence.math1", "-t", "int" }, EXIT_PARAM, "divergence.math1: -t int: element type int is not supported" },
		{ { "nested.recursive_reduce_nosync", "-n", "4194305" }, EXIT_PARAM,
		  "n = 4194305 with block 512 needs 65544 device-side launches; at most 65536 tail launches" },
		{ { "nested.recursive_reduce", "-b", "96" }, EXIT_PARAM, "nested.recursive_reduce: block size 96: these kernels halve it to 1" },
		{ { "nested.hello_depth", "-p", "depth=20" }, EXIT_PARAM, "nested.hello_depth: -p depth=20: expected a count from 1 to 19" },
		{ { "nested.hello", "-p", "threads=1025" }, EXIT_PARAM, "nested.hello: -p threads=1025: expected a count from 1 to 1024" },
		{ { "reduce.unrol8" }, EXIT_NOMATCH, "did you mean reduce.unroll8" },
	};
	configure("");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *const *a = cases[i].args;
		wrapper_run("run", a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], NULL);
		expect_error(cases[i].code, cases[i].words);
	}
}
END_TEST

START_TEST(run_without_gpu)
{
	configure(good_ini);
	if (!have_gpu()) {
		gpulab("info", NULL);
		expect_error(EXIT_NODEVICE, "no CUDA device");
	}
	/* host-only exercises need no device at all */
	gpulab("run", "fake.ok", "oldminor.keyed", "--wide", NULL); /* --wide: the params column */
	ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.err);
	ck_assert_msg(strstr(o.out, "on the host, no GPU; median of 5 runs after 3 warm-up"), "%s", o.out);
	ck_assert_msg(strstr(o.out, "oldminor.keyed") && strstr(o.out, "mode=fast depth=3 tile=4x2 offset=0 seed="), "%s", o.out);
}
END_TEST

/* The plugin is handed exactly what was asked, typed, and every report
 * records it with the command that runs the row again. */
START_TEST(typed_values_reach_the_plugin)
{
	configure("[plugin fake]\nfile = fake.so\n[exercise fake.keyed]\ndepth = 9\n");
	gpulab("run", "fake.keyed", "-p", "mode=slow", "-p", "tile=3x5", "-p", "offset=-4", "-p", "seed=77", "-n", "2^12",
	       "-r", "4", "-w", "0", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && json_valid(o.out), "exit %d\n%s%s", o.status, o.out, o.err);
	ck_assert_msg(strstr(o.out, "\"params\": {\"n\": 4096, \"block\": 128, \"type\": \"int\", \"reps\": 4, \"warmup\": 0, "
				    "\"mode\": \"slow\", \"depth\": 9, \"tile\": \"3x5\", \"offset\": -4, \"seed\": 77}"), "%s", o.out);
	ck_assert_msg(strstr(o.out, "\"notes\": {\"mode\": 1, \"depth\": 9, \"tile_x\": 3, \"tile_y\": 5, \"offset\": -4, "
				    "\"seed\": 77, \"n\": 4096}"), "%s", o.out);
	ck_assert_msg(strstr(o.out, "\"rerun\": \"gpulab run fake.keyed -n 4096 -b 128 -t int -r 4 -w 0 -p mode=slow -p depth=9 "
				    "-p tile=3x5 -p offset=-4 -p seed=77\""), "%s", o.out);
	/* the rerun, run, gives the same parameters */
	gpulab("run", "fake.keyed", "-n", "4096", "-b", "128", "-t", "int", "-r", "4", "-w", "0", "-p", "mode=slow", "-p", "depth=9",
	       "-p", "tile=3x5", "-p", "offset=-4", "-p", "seed=77", "--format", "csv", NULL);
	ck_assert_msg(strstr(o.out, "\"fake.keyed\",\"int\",4096,128,4,0,\"mode=slow;depth=9;tile=3x5;offset=-4;seed=77\",4096,0,"),
		      "%s", o.out);
	/* a random seed is drawn once and recorded */
	gpulab("run", "fake.keyed", "--format", "json", NULL);
	ck_assert_msg(strstr(o.out, "\"seed\": ") && !strstr(o.out, "random"), "%s", o.out);
	/* an exercise sized by its own keys reports the elements it processed */
	gpulab("run", "fake.shaped", "-p", "rows=3", "-p", "cols=7", "--format", "json", NULL);
	ck_assert_msg(strstr(o.out, "\"params\": {\"type\": \"int\", \"reps\": 5, \"warmup\": 3, \"rows\": 3, \"cols\": 7}, "
				    "\"elements\": 21"), "%s", o.out);
}
END_TEST

/* A run of several exercises skips those that refuse, says why, and runs
 * the rest; named alone, the same exercise fails the run. */
START_TEST(refusals_skip_in_groups)
{
	configure("[plugin fake]\nfile = fake.so\n");
	gpulab("run", "fake.s*", "fake.ok", "-n", "2000", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && json_valid(o.out), "exit %d\n%s%s", o.status, o.out, o.err);
	ck_assert_msg(strstr(o.out, "\"status\": \"skipped\", \"message\": \"takes no -n: its size is set by -p rows, -p cols\""),
		      "%s", o.out);
	ck_assert(strstr(o.out, "\"exercise\": \"fake.ok\"") && strstr(o.out, "\"status\": \"ok\""));
	gpulab("run", "fake.s*", "fake.ok", "-n", "2000", NULL);
	ck_assert_msg(strstr(o.out, "fake.shaped: skipped: takes no -n"), "%s", o.out);
	gpulab("run", "fake.[ko]*", "-n", "4097", "--format", "csv", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "\"skipped\",\"\",\"-n 4097: expected a count from 1 to 4096"), "%s", o.out);
	/* when every one refuses, nothing runs */
	gpulab("run", "fake.k*", "-n", "4097", NULL);
	expect_error(EXIT_PARAM, "fake.keyed: -n 4097");
	ck_assert_str_eq(o.out, "");
}
END_TEST

/* Sweeps: every key takes a list or a range, from the command line or an
 * INI file; an exercise's points are the product of its axes; points it
 * refuses are skipped with their reason; the table reads as curves. */
START_TEST(sweeps)
{
	int fields;
	configure("[plugin fake]\nfile = fake.so\n[exercise fake.keyed]\nn = 2^10:2^12\n");
	gpulab("run", "fake.keyed", "-p", "tile=2x2,4x4", "--format", "csv", NULL);
	ck_assert_msg(o.status == 0 && csv_valid(o.out, &fields), "exit %d: %s%s", o.status, o.out, o.err);
	ck_assert_int_eq(count_lines(o.out), 1 + 3 * 2);
	ck_assert_msg(strstr(o.out, "\"fake.keyed\",\"int\",1024,128,") && strstr(o.out, "\"fake.keyed\",\"int\",4096,128,")
		      && strstr(o.out, "tile=4x4"), "%s", o.out);
	/* past the exercise's largest n: skipped points, the rest run */
	gpulab("run", "fake.keyed", "-n", "2^11:2^13", "-t", "int,float", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && json_valid(o.out), "exit %d: %s%s", o.status, o.out, o.err);
	ck_assert_msg(strstr(o.out, "\"message\": \"-n 2^11:2^13: n 8192: expected a count from 1 to 4096"), "%s", o.out);
	ck_assert_msg(strstr(o.out, "\"message\": \"-t int,float: type float: element type float is not supported"), "%s", o.out);
	gpulab("run", "fake.keyed", "fake.ok", "-n", "2^11:2^13", "-r", "2", NULL);
	ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.err);
	/* fake.ok, the baseline, runs first although named last, so each
	 * row, printed as it is done, has its speedup */
	ck_assert_msg(strstr(o.out, "\n\nfake.keyed: 3 points, mode=fast depth=3 tile=4x2 offset=0 seed=")
		      && strstr(o.out, "fake.ok: 3 points\n") < strstr(o.out, "fake.keyed: 3 points")
		      && strstr(o.out, "fake.ok: 3 points\n")
		      && strstr(o.out, "fake.keyed: skipped: -n 2^11:2^13: n 8192: expected a count from 1 to 4096"), "%s", o.out);
	ck_assert_msg(!strstr(o.err, "[1/"), "progress went to a file: %s", o.err); /* not a terminal */
	/* refused at setup, where only the device can tell: skipped too,
	 * with the reason; alone, the run fails with it */
	gpulab("run", "fake.picky", "-n", "1024,4096,2048", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && json_valid(o.out), "exit %d: %s%s", o.status, o.out, o.err);
	ck_assert_msg(strstr(o.out, "\"status\": \"skipped\", \"message\": \"n 4096: this device takes at most 2048\"")
		      && occurrences(o.out, "\"status\": \"ok\"") == 2, "%s", o.out);
	gpulab("run", "fake.picky", "-n", "1024,4096", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "fake.picky: skipped: n 4096: this device takes at most 2048"), "%s",
		      o.out);
	gpulab("run", "fake.picky", "-n", "4096", NULL);
	ck_assert_msg(o.status == EXIT_PARAM && strstr(o.out, "n 4096: this device takes at most 2048"), "exit %d: %s%s",
		      o.status, o.out, o.err);
	/* malformed axes are usage errors before anything runs */
	gpulab("run", "fake.ok", "-n", "8:4", NULL);
	expect_error(EXIT_USAGE, "-n 8:4: '8:4' is not a range A:B or A:B:K");
	gpulab("run", "fake.ok", "fake.floaty", "-n", "1:2^40", "-b", "1:1024", "-t", "int,float", "-w", "1:2^19", NULL);
	expect_error(EXIT_USAGE, "a sweep of more than 10000 points");
}
END_TEST

/* --output: the table on the terminal, the whole record in the file,
 * written whole or not at all; --samples: every sample in the JSON. */
START_TEST(records)
{
	char *dir = temp_dir(), path[4200], bad[4200], text[65536] = "";
	snprintf(path, sizeof path, "%s/run.json", dir);
	snprintf(bad, sizeof bad, "%s/no/such/dir/run.json", dir);
	configure("[plugin fake]\nfile = fake.so\n");
	gpulab("run", "fake.ok", "fake.keyed", "-r", "5", "--output", path, NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "median of 5 runs"), "exit %d: %s%s", o.status, o.out, o.err);
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "no record at %s", path);
	text[fread(text, 1, sizeof text - 1, f)] = 0;
	fclose(f);
	/* a journal: every line one JSON value, the header first, the closing line last */
	for (char *line = text, *nl; *line; line = nl + 1) {
		ck_assert_msg((nl = strchr(line, '\n')) != NULL, "a line without its newline: %s", line);
		*nl = 0;
		ck_assert_msg(json_valid(line), "%s", line);
		*nl = '\n';
	}
	ck_assert_msg(strstr(text, "{\"schema\": \"gpulab-record/2.0\"") == text && strstr(text, "\"samples_ms\": [")
		      && strstr(text, "--output") && strstr(text, "\n{\"end\": {\"interrupted\": false, \"interruption\": "
							  "null, \"points\": 2}}\n"), "%s", text);
	const char *s1 = strstr(text, "\"samples_ms\": [");
	int commas = 0;
	for (const char *c = s1; *c != ']'; c++)
		commas += *c == ',';
	ck_assert_int_eq(commas, 4); /* five samples */
	gpulab("run", "fake.ok", "--samples", "-r", "3", "--format", "json", NULL);
	ck_assert_msg(json_valid(o.out) && strstr(o.out, "\"samples_ms\": ["), "%s", o.out);
	gpulab("run", "fake.ok", "--format", "json", NULL);
	ck_assert(!strstr(o.out, "samples_ms"));
	/* a path that cannot be written: one line, nothing run, nothing left */
	gpulab("run", "fake.ok", "--output", bad, NULL);
	expect_error(EXIT_USAGE, "--output ");
	ck_assert_str_eq(o.out, "");
	gpulab("run", "fake.ok", "--output", dir, NULL); /* a directory: refused before anything runs */
	expect_error(EXIT_USAGE, "is a directory, not a file a record may replace: nothing was run");
	ck_assert_str_eq(o.out, "");
	ck_assert_msg(count_temporaries(dir) == 0, "a temporary was left in %s", dir);
	free(dir);
}
END_TEST

/* An exercise that does other work than its baseline (GPULAB_UNLIKE, ABI
 * 2.5) gets no speedup or share; from a plugin of 2.4 the bit is not read. */
START_TEST(unlike_rows_not_compared)
{
	char row[4096];
	configure(good_ini);
	gpulab("run", "fake.ok", "fake.unlike", "oldminor.ok", "oldminor.unlike", "-r", "3", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && json_valid(o.out), "exit %d: %s%s", o.status, o.out, o.err);
	static const struct { const char *row, *speedup; } want[] = {
		{ "{\"exercise\": \"fake.ok\"", "\"speedup\": 1, " },
		{ "{\"exercise\": \"fake.unlike\"", "\"speedup\": null, " },
		{ "{\"exercise\": \"oldminor.ok\"", "\"speedup\": 1, " },
		{ "{\"exercise\": \"oldminor.unlike\"", "\"speedup\": " },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const char *at = strstr(o.out, want[i].row);
		ck_assert_msg(at, "no row %s: %s", want[i].row, o.out);
		snprintf(row, sizeof row, "%.*s", (int)strcspn(at, "\n"), at);
		ck_assert_msg(strstr(row, want[i].speedup), "%s", row);
	}
	ck_assert_msg(!strstr(strstr(o.out, "{\"exercise\": \"oldminor.unlike\""), "\"speedup\": null"), "%s", o.out);
	/* the table says why its "-": once an exercise, whatever its points */
	gpulab("run", "fake.ok", "fake.unlike", "oldminor.unlike", "-n", "512,1024", "-r", "3", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "\nfake.unlike     int           512 ")
		      && strstr(strstr(o.out, "\nfake.unlike     int           512 "), "       -      -  ok\n")
		      && strstr(o.out, "\n- in speedup, of ref: fake.unlike does other work than the baseline and reference\n")
		      && occurrences(o.out, "other work") == 1, "%s", o.out);
	gpulab("run", "fake.ok", "oldminor.unlike", "-r", "3", NULL);
	ck_assert_msg(o.status == 0 && !strstr(o.out, "other work"), "%s", o.out);
}
END_TEST

/* divergence's *_debug exercises, the book's trivial kernels, do other
 * work than math1, its baseline: GPULAB_UNLIKE, read from the plugin
 * this build made, where gpulab list finds it (no GPU needed); the other
 * exercises do math1's work. */
START_TEST(divergence_debug_is_unlike)
{
	char path[4096];
	configure("");
	wrapper_run("list", NULL);
	const char *at = strstr(o.out, "\ndivergence: ");
	if (!at) /* not built (no CUDA) */
		return;
	ck_assert_msg((at = strstr(at, "\n  file ")), "%s", o.out);
	at += strlen("\n  file ");
	snprintf(path, sizeof path, "%.*s", (int)strcspn(at, "\n"), at);
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	ck_assert_msg(lib, "%s", dlerror());
	gpulab_entry_fn entry = (gpulab_entry_fn)(uintptr_t)dlsym(lib, GPULAB_ENTRY_SYMBOL);
	ck_assert_msg(entry, "%s: no %s", path, GPULAB_ENTRY_SYMBOL);
	const struct gpulab_plugin *p = entry();
	size_t debug = 0;
	ck_assert_uint_ge(p->abi_minor, 5);
	for (size_t i = 0; i < p->n_exercises; i++) {
		const struct gpulab_exercise *e = (const void *)((const char *)p->exercises + i * p->exercise_size);
		int is_debug = strstr(e->name, "_debug") != NULL;
		debug += is_debug;
		ck_assert_msg(!(e->flags & GPULAB_UNLIKE) == !is_debug, "divergence.%s: flags %#x", e->name, e->flags);
	}
	ck_assert_uint_eq(debug, 3);
	dlclose(lib);
}
END_TEST

/* NOISY is the median's interval, not the runs' spread: runs of 0 or
 * 50 us (jittery) put the median between two modes, and its 95%
 * interval spans both; under 6 runs there is no interval and no flag. */
START_TEST(median_interval_flag)
{
	configure("[plugin fake]\nfile = fake.so\n");
	gpulab("run", "fake.jittery", "-r", "20", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && json_valid(o.out) && strstr(o.out, "\"median_ci_ms\": [")
		      && strstr(o.out, "\"median_ci_pct\": ") && strstr(o.out, "\"noisy\": true"), "%s", o.out);
	gpulab("run", "fake.jittery", "-r", "5", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && !strstr(o.out, "\"median_ci_ms\"") && strstr(o.out, "\"noisy\": false"), "%s", o.out);
	gpulab("run", "fake.jittery", "-r", "20", NULL);
	ck_assert_msg(strstr(o.out, "  ok NOISY\n") && strstr(o.out, "NOISY: the median is uncertain: half its 95% confidence "
		      "interval is over 1% of it\n"), "%s", o.out);
	gpulab("run", "fake.jittery", "-r", "5", NULL);
	ck_assert_msg(strstr(o.out, "      -  ") && strstr(o.out, "  ok\n") && !strstr(o.out, "NOISY"), "%s", o.out);
}
END_TEST

/* Without an exact -r, a point runs until it is quiet, or times out and
 * says so in every format; -r in any source is exact. */
START_TEST(noise_criterion)
{
	int fields;
	configure("[plugin fake]\nfile = fake.so\n");
	char *env[] = { env_sys, env_path, "XDG_CONFIG_HOME=/nonexistent", "GPULAB_CONFIG=", NULL };
	char *argv[] = { (char *)bin, "run", "fake.jittery", "--timeout", "0.2", "--min-time", "0", "--format", "json", NULL };
	run_cmd(&o, argv, env); /* without the tests' reps = 5 */
	ck_assert_msg(o.status == 0 && json_valid(o.out), "exit %d: %s%s", o.status, o.out, o.err);
	ck_assert_msg(strstr(o.out, "\"stopping\": {\"max_noise_pct\": 0.5, "
		      "\"min_time_s\": 0, \"timeout_s\": 0.2, \"min_runs\": 10}"), "%s", o.out);
	ck_assert_msg(!strstr(o.out, "\"reps\""), "reps is no parameter of a run stopped by noise: %s", o.out);
	ck_assert_msg(!strstr(o.out, " -r "), "the rerun must not fix the count: %s", o.out);
	/* a run that takes 0 or 50 us never gets quiet: its noise settled
	 * above the limit, or it timed out */
	ck_assert_msg(strstr(o.out, "\"converged\": false") && (strstr(o.out, "\"stopped_by\": \"stable\"")
		      || strstr(o.out, "\"stopped_by\": \"timeout\"")), "%s", o.out);
	/* a host-only exercise is timed on the host clock, and says so */
	ck_assert_msg(strstr(o.out, "\"timing\": \"host\"") && !strstr(o.out, " UNHELD"), "%s", o.out);
	char *table[] = { (char *)bin, "run", "fake.jittery", "--timeout", "0.1", NULL };
	run_cmd(&o, table, env);
	ck_assert_msg(strstr(o.out, " NOISY") && strstr(o.out, "then runs until the noise is at most 0.5% over 0.1 s of GPU time, or 0.1 s"),
		      "%s", o.out);
	char *csv[] = { (char *)bin, "run", "fake.ok", "-r", "4", "--format", "csv", NULL };
	run_cmd(&o, csv, env);
	/* runs (field 15) is exactly 4, and an exact count is converged (field
	 * 17), whatever the noise of four no-op runs on the host clock */
	ck_assert_msg(csv_valid(o.out, &fields), "%s", o.out);
	const char *row = strchr(o.out, '\n') + 1;
	char runs[16] = "", converged[16] = "";
	for (int f = 1; f < 17 && row; f++, row = strchr(row, ',') + 1) {
		if (f == 15)
			sscanf(row, "%15[^,]", runs);
		if (f == 16)
			sscanf(strchr(row, ',') + 1, "%15[^,]", converged);
	}
	ck_assert_msg(!strcmp(runs, "4") && !strcmp(converged, "1"), "runs %s, converged %s: %s", runs, converged, o.out);
	gpulab("run", "fake.ok", "--max-noise", "0", NULL);
	expect_error(EXIT_USAGE, "--max-noise 0: expected a number from 0.001 to 100");
	gpulab("run", "fake.ok", "--timeout", "inf", NULL);
	expect_error(EXIT_USAGE, "--timeout inf");
	gpulab("run", "fake.ok", "--min-time", "1e3", NULL);
	expect_error(EXIT_USAGE, "--min-time 1e3");
}
END_TEST

/* What every reader needs of a row besides its exercise, parameters,
 * status and samples (records/validate.h: one check for compare, report
 * and --resume), as a record made by hand for compare gives it. */
#define ROW_FIELDS "\"elements\": 1, \"median_ms\": null, \"min_ms\": null, \"max_ms\": null, \"runs\": 30, " \
	"\"noise_pct\": null, \"converged\": true, \"gbps\": null, \"peak_pct\": null, \"speedup\": null, " \
	"\"ref_share\": null, \"message\": \"\", \"clocks\": null, "

/* A record with one point of fake.ok whose samples are base * (1 + k / 100)
 * for k in 0..29: 30 samples, spread 30%. */
static const char *write_record(const char *dir, const char *name, double base)
{
	char text[8192];
	int n = snprintf(text, sizeof text,
			 "{\"schema\": \"gpulab-record/1\", \"device\": {\"name\": \"GPU\", \"uuid\": \"GPU-1\"}, \"cold\": false,"
			 " \"results\": [{\"exercise\": \"fake.ok\", \"params\": {\"n\": 1024, \"seed\": %d},"
			 " \"status\": \"ok\", " ROW_FIELDS "\"samples_ms\": [", (int)base);
	for (int k = 0; k < 30; k++)
		n += snprintf(text + n, sizeof text - n, "%s%g", k ? ", " : "", base * (1 + k / 100.0));
	snprintf(text + n, sizeof text - n, "]}]}\n");
	return write_file(dir, name, text);
}

/* A record of two exercises at two sizes: lib.ref (no block) takes
 * ref_ms at both, lib.mine (block 256) mine_ms at 1024 and ref_ms at
 * 2048; 30 samples each, spread 30% as in write_record. */
static const char *write_pair_record(const char *dir, double ref_ms, double mine_ms)
{
	static const char *const ex[] = { "lib.ref", "lib.mine" };
	char text[16384];
	int n = snprintf(text, sizeof text, "{\"schema\": \"gpulab-record/1\", \"device\": {\"name\": \"GPU\"}, "
			 "\"cold\": false, \"results\": [");
	for (int row = 0; row < 4; row++) {
		int mine = row >= 2, size = row % 2 ? 2048 : 1024;
		double ms = mine && size == 1024 ? mine_ms : ref_ms;
		n += snprintf(text + n, sizeof text - n, "%s{\"exercise\": \"%s\", \"params\": {\"n\": %d, %s\"seed\": %d}, "
			      "\"status\": \"ok\", " ROW_FIELDS "\"samples_ms\": [", row ? ", " : "", ex[mine], size,
			      mine ? "\"block\": 256, " : "", row);
		for (int k = 0; k < 30; k++)
			n += snprintf(text + n, sizeof text - n, "%s%g", k ? ", " : "", ms * (1 + k / 100.0));
		n += snprintf(text + n, sizeof text - n, "]}");
	}
	snprintf(text + n, sizeof text - n, "]}\n");
	return write_file(dir, "pair.json", text);
}

/* compare RECORD --base EX --new EX: one exercise against another, point
 * by point over the parameters both take (mine's block is not ref's). */
START_TEST(compare_exercises)
{
	char *dir = temp_dir(), rec[4200];
	configure("[plugin fake]\nfile = fake.so\n");
	snprintf(rec, sizeof rec, "%s", write_pair_record(dir, 10, 8));
	gpulab("compare", rec, "--base", "lib.ref", "--new", "lib.mine", NULL);
	ck_assert_msg(o.status == 0 && count_lines(o.out) == 6, "exit %d: %s%s", o.status, o.out, o.err);
	ck_assert_msg(strstr(o.out, "base lib.ref of ") && strstr(o.out, "new  lib.mine of "), "%s", o.out);
	const char *small = strstr(o.out, "lib.mine vs lib.ref"), *big = small ? strstr(small + 1, "lib.mine vs lib.ref") : NULL;
	ck_assert_msg(small && big && strstr(small, "n=1024") < big && strstr(small, "-20.0%") < big
		      && strstr(small, "faster") < big && strstr(big, "n=2048") && strstr(big, "+0.0%") && strstr(big, "same"),
		      "%s", o.out);
	ck_assert_msg(!strstr(o.out, "unmatched") && !strstr(o.out, "block="), "%s", o.out);
	gpulab("compare", rec, rec, "--base", "lib.ref", "--new", "lib.mine", "--format", "json", NULL);
	ck_assert_msg(json_valid(o.out) && strstr(o.out, "{\"exercise\": \"lib.ref\", \"new_exercise\": \"lib.mine\", "
		      "\"params\": \"n=1024\""), "%s", o.out);
	gpulab("compare", rec, "--base", "lib.ref", NULL);
	expect_error(EXIT_USAGE, "--base and --new go together");
	gpulab("compare", rec, "--base", "lib.ref", "--new", "lib.other", NULL);
	expect_error(EXIT_USAGE, "no point of lib.other in this record");
	free(dir);
}
END_TEST

/* A record of four points of fake.ok with 300000 samples each, more
 * than the JSON reader's 2^20 values all told (a sweep of 52 points made
 * 1.3 million): 5 * (20 + k % 6) ms, times 6/5 where slow, so that the
 * medians are 20% apart exactly.  Three bytes a sample keep it fast. */
static void write_many_samples(const char *path, int slow)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("{\"schema\": \"gpulab-record/1\", \"device\": {\"name\": \"GPU\"}, \"cold\": false, \"results\": [", f);
	for (int p = 0; p < 4; p++) {
		fprintf(f, "%s{\"exercise\": \"fake.ok\", \"params\": {\"n\": %d}, \"status\": \"ok\", " ROW_FIELDS "\"samples_ms\": [",
			p ? ", " : "", 1024 << p);
		for (int k = 0; k < 300000; k++)
			fprintf(f, "%s%d", k ? "," : "", (slow ? 6 : 5) * (20 + k % 6));
		fputs("]}", f);
	}
	fputs("]}\n", f);
	ck_assert_int_eq(fclose(f), 0);
}

/* Samples are read packed (core/records/json.h), so 1.2 million of them
 * in a record are compared, where they were once refused. */
START_TEST(compare_many_samples)
{
	char *dir = temp_dir(), a[4200], b[4200];
	configure("[plugin fake]\nfile = fake.so\n");
	snprintf(a, sizeof a, "%s/base.json", dir);
	snprintf(b, sizeof b, "%s/slow.json", dir);
	write_many_samples(a, 0);
	write_many_samples(b, 1);
	gpulab("compare", a, b, NULL);
	ck_assert_msg(o.status == 0 && !o.err[0], "exit %d: %s%s", o.status, o.out, o.err);
	const char *at = o.out;
	for (int p = 0; p < 4; p++) {
		char n[32];
		snprintf(n, sizeof n, "n=%d ", 1024 << p);
		at = strstr(at, n);
		ck_assert_msg(at && strstr(at, "+20.0%") && strstr(at, "slower"), "n=%d: %s", 1024 << p, o.out);
	}
	free(dir);
}
END_TEST

/* What an exercise chose for its automatic keys (ctx->chose): shown in
 * every format beside the value asked for, checked against the key's
 * declaration, and warned of by compare where two records differ. */
START_TEST(choices_are_recorded)
{
	char *dir = temp_dir(), *at, a[4200], b[4200];
	configure("[plugin fake]\nfile = fake.so\n");
	gpulab("run", "fake.chooser", "-n", "512,4096", "-r", "2", "--wide", NULL); /* the table's notes column */
	ck_assert_msg(o.status == 0 && strstr(o.out, "fake.chooser: 2 points, ways=auto width=0 lie=no\n")
		      && strstr(o.out, "  ok  chose ways=one width=8  n=512\n")
		      && strstr(o.out, "  ok  chose ways=two width=64  n=4096\n"), "exit %d: %s%s", o.status, o.out, o.err);
	gpulab("run", "fake.chooser", "-r", "2", "-p", "ways=one", "-p", "width=5", "--wide", NULL);
	ck_assert_msg(o.status == 0 && !strstr(o.out, "chose") && strstr(o.out, "  ok  n=4096\n"), "%s", o.out);
	/* the compact table: a swept key of its own beside the row's name */
	gpulab("run", "fake.chooser", "-n", "512", "-r", "2", "-p", "ways=one,two", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "\nfake.chooser ways=one int           512 ")
		      && strstr(o.out, "\nfake.chooser ways=two int           512 ") && !strstr(o.out, "  ok  ways"), "%s", o.out);
	gpulab("run", "fake.chooser", "-r", "2", "--format", "csv", NULL);
	ck_assert_msg(strstr(o.out, ",throttled,chosen,median_lo_ms,median_hi_ms,median_ci_pct,noisy,batch\n")
		      && strstr(o.out, "\"ways=auto;width=0;lie=no\"") && strstr(o.out, ",\"ways=two;width=64\",,,,0,1\n"), "%s", o.out);
	gpulab("run", "fake.chooser", "-r", "6", "-p", "ways=one", "--samples", "--format", "json", NULL);
	ck_assert_msg(json_valid(o.out) && strstr(o.out, "\"ways\": \"one\", \"width\": 0, \"lie\": \"no\"}")
		      && strstr(o.out, "\"chosen\": {\"width\": 64}"), "%s", o.out);
	gpulab("run", "fake.ok", "-r", "2", "--format", "json", NULL);
	ck_assert_msg(strstr(o.out, "\"chosen\": {}"), "%s", o.out);
	/* a choice the declarations refuse is the plugin's bug: an error,
	 * not a point skipped, even in a sweep */
	static const char *const lies[][2] = {
		{ "lie=key", "the exercise chose depth = \"3\": not one of its own keys, or a seed or path (a plugin's bug)" },
		{ "lie=generic", "the exercise chose n = \"5\": not one of its own keys, or a seed or path (a plugin's bug)" },
		{ "lie=ignored", "the exercise chose width = \"65\": expected a count from 0 to 64" }, /* setup returned OK */
		{ "lie=late", "the exercise chose ways = \"one\": told outside setup() (a plugin's bug)" },
	};
	for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
		gpulab("run", "fake.chooser", "-r", "2", "-p", lies[i][0], "--wide", NULL); /* a cell after the status */
		ck_assert_msg(o.status == EXIT_PLUGIN && strstr(o.out, " -  ERROR  ") && strstr(o.out, lies[i][1]),
			      "%s: exit %d: %s", lies[i][0], o.status, o.out);
	}
	/* told from plan, and plan returned the refusal: still the plugin's
	 * bug (exit 4), not a parameter refused (7), alone or in a sweep */
	gpulab("run", "fake.chooser", "-p", "lie=early", NULL);
	expect_error(EXIT_PLUGIN, "fake.chooser: the exercise chose ways = \"one\": told outside setup() (a plugin's bug)");
	gpulab("run", "fake.chooser", "fake.ok", "-n", "512,1024", "-p", "lie=early", NULL);
	expect_error(EXIT_PLUGIN, "told outside setup() (a plugin's bug)");
	gpulab("run", "fake.chooser", "fake.ok", "-n", "512,1024", "-r", "2", "-p", "lie=value", "--wide", NULL);
	ck_assert_msg(o.status == EXIT_PLUGIN && occurrences(o.out, "  ERROR  n=") == 2 && strstr(o.out, "fake.ok ")
		      && strstr(o.out, "fake.chooser: ERROR (2 points): the exercise chose width = \"65\": expected a count "
				       "from 0 to 64 (e.g. 1024, 2^10 or 1K) (a plugin's bug)"), "exit %d: %s", o.status, o.out);
	/* compare matches by what was asked for, and says where the choices differ */
	gpulab("run", "fake.chooser", "-r", "6", "--samples", "--format", "json", NULL);
	snprintf(a, sizeof a, "%s", write_file(dir, "a.json", o.out));
	ck_assert_msg((at = strstr(o.out, "\"chosen\": {\"ways\": \"two\"")) != NULL, "%s", o.out);
	memcpy(at + strlen("\"chosen\": {\"ways\": "), "\"one\"", 5);
	snprintf(b, sizeof b, "%s", write_file(dir, "b.json", o.out));
	gpulab("compare", a, b, NULL);
	ck_assert_msg(o.status == 0 && count_lines(o.err) == 1
		      && strstr(o.err, "gpulab: warning: fake.chooser n=4096 block=32 type=int ways=auto width=0 lie=no: the "
				       "exercise chose ways=two width=64 in the base record and ways=one width=64 in the new one\n"),
		      "exit %d: %s%s", o.status, o.out, o.err);
	gpulab("compare", a, a, NULL);
	ck_assert_msg(o.status == 0 && !o.err[0], "%s", o.err);
	/* two exercises have their own choices: nothing to warn of */
	gpulab("run", "fake.chooser", "fake.ok", "-n", "4096", "-b", "64", "-r", "6", "--output", a, NULL);
	gpulab("compare", "--base", "fake.ok", "--new", "fake.chooser", a, NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "fake.chooser vs fake.ok") && !o.err[0], "exit %d: %s%s", o.status,
		      o.out, o.err);
	free(dir);
}
END_TEST

/* gpulab compare: points matched across records, a verdict from the
 * samples, a gate for CI, and bad records refused in one line. */
START_TEST(compare_records)
{
	char *dir = temp_dir(), a[4200], b[4200], c[4200], d[4200];
	configure("[plugin fake]\nfile = fake.so\n");
	snprintf(a, sizeof a, "%s/a.json", dir);
	snprintf(b, sizeof b, "%s/b.json", dir);
	gpulab("run", "fake.ok", "fake.wrong", "-r", "6", "--output", a, NULL);
	gpulab("run", "fake.ok", "fake.keyed", "-r", "6", "--output", b, NULL);
	gpulab("compare", a, b, NULL);
	ck_assert_msg(o.status == 0, "exit %d: %s%s", o.status, o.out, o.err);
	ck_assert_msg(strstr(o.out, "Mann-Whitney U") && strstr(o.out, "fake.ok ") && strstr(o.out, "unmatched:"), "%s", o.out);
	ck_assert_msg(strstr(o.out, "only in base") && strstr(o.out, "only in new"), "%s", o.out);
	gpulab("compare", a, b, "--format", "json", NULL);
	ck_assert_msg(json_valid(o.out) && strstr(o.out, "\"slower_than_allowed\": 0"), "%s", o.out);
	/* 20% slower over 30 samples each: slower, and the gate fails */
	snprintf(c, sizeof c, "%s", write_record(dir, "base.json", 10));
	snprintf(d, sizeof d, "%s", write_record(dir, "slow.json", 12));
	gpulab("compare", c, d, "--fail-above", "10", NULL);
	ck_assert_msg(o.status == EXIT_SLOWER && strstr(o.out, "slower") && strstr(o.out, "+20.0%")
		      && strstr(o.out, "1 point slower by more than 10%"), "exit %d: %s%s", o.status, o.out, o.err);
	gpulab("compare", c, d, "--fail-above", "25", NULL);
	ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.out);
	/* a significant 20% counts as the same only under a larger --min-change */
	gpulab("compare", c, d, "--min-change", "10", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "  slower") && strstr(o.out, "under 10% counts as the same"), "%s", o.out);
	gpulab("compare", c, d, "--min-change", "25", "--fail-above", "10", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && json_valid(o.out) && strstr(o.out, "\"min_change_pct\": 25")
		      && strstr(o.out, "\"verdict\": \"same\"") && strstr(o.out, "\"slower_than_allowed\": 0"),
		      "exit %d: %s", o.status, o.out);
	gpulab("compare", c, d, "--min-change", "101", NULL);
	expect_error(EXIT_USAGE, "--min-change 101: expected a number from 0 to 100");
	gpulab("compare", c, c, NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "  same"), "%s", o.out);
	/* a warning quotes the records, escaped: one line, whatever they hold */
	snprintf(d, sizeof d, "%s", write_file(dir, "odd.json", "{\"schema\": \"gpulab-record/1\", \"device\": "
							       "{\"name\": \"GPU\\n\\u001b[2J\"}, \"cold\": false, \"results\": []}"));
	gpulab("compare", c, d, NULL);
	ck_assert_msg(o.status == 0 && count_lines(o.err) == 1
		      && strstr(o.err, "gpulab: warning: the records differ in the device's name: GPU and GPU\\n\\x1b[2J\n"),
		      "exit %d: %s", o.status, o.err);
	/* and so does the table, which quotes their names and parameters */
	snprintf(d, sizeof d, "%s", write_file(dir, "odd.json", "{\"schema\": \"gpulab-record/1\", \"results\": "
							       "[{\"exercise\": \"fake.ok\\n\\u001b[2J\", \"params\": "
							       "{\"k\": \"a\\rb\"}, " ROW_FIELDS "\"status\": \"ok\"}]}"));
	gpulab("compare", d, d, NULL);
	ck_assert_msg(o.status == 0 && !strchr(o.out, '\x1b') && !strchr(o.out, '\r')
		      && strstr(o.out, "\nfake.ok\\n\\x1b[2J ") && strstr(o.out, " k=a\\rb "), "exit %d: %s", o.status, o.out);
	/* bad input: one line, exit 2 */
	gpulab("compare", a, NULL);
	expect_error(EXIT_USAGE, "compare: name two records");
	gpulab("compare", a, "/nonexistent.json", NULL);
	expect_error(EXIT_USAGE, "/nonexistent.json");
	gpulab("compare", a, dir, NULL);
	expect_error(EXIT_USAGE, dir);
	write_file(dir, "old.json", "{\"schema\": \"gpulab-record/0\", \"results\": []}");
	snprintf(c, sizeof c, "%s/old.json", dir);
	gpulab("compare", a, c, NULL);
	expect_error(EXIT_USAGE, "not a gpulab-record/1 or /2 record: its schema is gpulab-record/0");
	write_file(dir, "cut.json", "{\"schema\": \"gpulab-record/1\", \"results\": [");
	snprintf(c, sizeof c, "%s/cut.json", dir);
	gpulab("compare", a, c, NULL);
	expect_error(EXIT_USAGE, "cut.json");
	gpulab("compare", a, b, "--fail-above", "-1", NULL);
	expect_error(EXIT_USAGE, "--fail-above -1: expected a number from 0 to 1000");
	free(dir);
}
END_TEST

/* Each status of a plugin becomes its exit code in one place: a wrong
 * result 1, a CUDA failure 8, host memory 10; teardown always runs. */
START_TEST(failures_and_teardown)
{
	char *dir = temp_dir(), log[4200], env_log[4300], line[256] = "";
	snprintf(log, sizeof log, "%s/teardown.log", dir);
	snprintf(env_log, sizeof env_log, "FAKE_TEARDOWN_LOG=%s", log);
	char *env[] = { env_sys, env_path, env_xdg, "GPULAB_CONFIG=", env_log, NULL };
	char *argv[] = { (char *)bin, "run", "fake.failsetup", NULL };
	configure("[plugin fake]\nfile = fake.so\n");
	snprintf(env_sys, sizeof env_sys, "GPULAB_SYSCONFDIR=%s", sysconf);
	run_cmd(&o, argv, env);
	ck_assert_msg(o.status == EXIT_NOMEM, "exit %d: %s", o.status, o.out);
	ck_assert_msg(strstr(o.out, "fake.failsetup: ERROR: no host memory for the input"), "%s", o.out);
	FILE *f = fopen(log, "r");
	ck_assert_msg(f && fgets(line, sizeof line, f), "teardown did not run after a failed setup");
	fclose(f);
	ck_assert_str_eq(line, "teardown with state\n");
	gpulab("run", "fake.failrun", NULL);
	ck_assert_int_eq(o.status, EXIT_CUDA);
	ck_assert(strstr(o.out, "fake.failrun: ERROR: kernel launch: an illegal memory access") != NULL);
	free(dir);
}
END_TEST

/* A wrong result is FAILED in every format, earns no bandwidth, and
 * makes gpulab exit 1. */
START_TEST(wrong_result_fails)
{
	int fields;
	configure("[plugin fake]\nfile = fake.so\n");
	gpulab("run", "fake.ok", "fake.wrong", NULL);
	ck_assert_int_eq(o.status, EXIT_WRONG);
	ck_assert_msg(strstr(o.out, "fake.wrong: FAILED: sum: expected 42, got 41"), "%s", o.out);
	gpulab("run", "fake.wrong", "--format", "csv", NULL);
	ck_assert_int_eq(o.status, EXIT_WRONG);
	ck_assert(csv_valid(o.out, &fields) && strstr(o.out, ",\"FAILED\","));
	ck_assert(strstr(o.out, ",,,,\"FAILED\",") != NULL); /* no GB/s, % of peak, ratios */
	gpulab("run", "fake.wrong", "--format", "json", NULL);
	ck_assert_int_eq(o.status, EXIT_WRONG);
	ck_assert(json_valid(o.out));
	ck_assert(strstr(o.out, "\"gbps\": null") && strstr(o.out, "\"status\": \"FAILED\""));
	gpulab("run", "fake.wrong", "--no-verify", NULL);
	ck_assert_int_eq(o.status, 0);
	ck_assert(strstr(o.out, "unverified") != NULL);
}
END_TEST

/* reset runs before every run, warm-up included: -w 2 -r 5 is 7. */
START_TEST(reset_before_every_run)
{
	configure("[plugin fake]\nfile = fake.so\n");
	gpulab("run", "fake.resets", "-r", "5", "-w", "2", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "\"resets\": 7"), "%s%s", o.out, o.err);
	gpulab("run", "fake.resets", "-r", "1", "-w", "0", "--cold", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "\"resets\": 1") && strstr(o.out, "\"cold\": true")
		      && strstr(o.out, " --cold\""), "%s%s", o.out, o.err);
	/* --profile: one run, no warm-up, for ncu and nsys; and recorded so */
	gpulab("run", "fake.resets", "--profile", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "\"resets\": 1") && strstr(o.out, "\"reps\": 1, \"warmup\": 0"), "%s%s",
		      o.out, o.err);
	gpulab("run", "fake.resets", "--profile", "-r", "3", NULL);
	expect_error(EXIT_USAGE, "--profile runs each exercise once: it takes no -r or -w");
}
END_TEST

/* --batch K: each timed sample is K runs with one reset before them;
 * warm-ups stay single; an exercise whose reset may restore a consumed
 * input runs unbatched, the others batched; the table and records say so. */
START_TEST(batches_of_runs)
{
	configure("[plugin fake]\nfile = fake.so\n");
	gpulab("run", "fake.repeats", "-r", "5", "-w", "2", "--batch", "4", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && json_valid(o.out), "exit %d: %s%s", o.status, o.out, o.err);
	ck_assert_msg(strstr(o.out, "\"resets\": 7, \"runs\": 22") && strstr(o.out, "\"runs\": 5,")
		      && strstr(o.out, "\"batch\": 4,") && strstr(o.out, " --batch 4\""), "%s", o.out);
	gpulab("run", "fake.re*", "fake.ok", "-r", "3", "--batch", "10", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && json_valid(o.out), "exit %d: %s%s", o.status, o.out, o.err);
	/* resets cannot repeat without its reset: it runs unbatched, a reset
	 * before each of its 3 warm-ups and 3 timed runs, and says so */
	const char *resets = strstr(o.out, "{\"exercise\": \"fake.resets\""), *repeats = strstr(o.out, "{\"exercise\": \"fake.repeats\"");
	ck_assert_msg(resets && strstr(resets, "\"batch\": 1, ") < strstr(resets, "\"status\": \"ok\", \"message\": \"\", "
		      "\"notes\": {\"n\": 64, \"resets\": 6}") && strstr(resets, "-r 3 -w 3\"}"), "%s", o.out);
	ck_assert_msg(repeats && strstr(repeats, "\"batch\": 10, ") && strstr(repeats, "\"resets\": 6, \"runs\": 33")
		      && strstr(repeats, " --batch 10\"}"), "%s", o.out); /* 3 warm-ups, 3 x 10 */
	gpulab("run", "fake.re*", "fake.ok", "-r", "3", "--batch", "10", NULL);
	ck_assert_msg(o.status == 0 && occurrences(o.out, " UNBATCHED") == 1 && strstr(o.out, "\nfake.resets ")
		      && strstr(strstr(o.out, "\nfake.resets "), "      -      -  ok UNBATCHED\n") /* no speedup over batched ok */
		      && strstr(o.out, "\nUNBATCHED: timed run by run, not in batches of 10: each run needs its reset first"), "%s", o.out);
	gpulab("run", "fake.re*", "fake.ok", "-r", "3", "--batch", "10", "--format", "csv", NULL);
	ck_assert_msg(occurrences(o.out, ",0,1\n") == 1 && occurrences(o.out, ",0,10\n") == 2, "%s", o.out); /* noisy, batch */
	gpulab("run", "fake.ok", "-r", "3", "--batch", "10", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "\neach sample 10 runs back to back, timed together\nmedian of 3 "
		      "samples after"), "%s", o.out);
	gpulab("run", "fake.ok", "-r", "3", "--format", "json", NULL);
	ck_assert_msg(strstr(o.out, "\"batch\": 1,") && !strstr(o.out, "--batch"), "%s", o.out);
	char *dir = temp_dir(), a[4200], b[4200];
	snprintf(a, sizeof a, "%s/one.json", dir);
	snprintf(b, sizeof b, "%s/four.json", dir);
	gpulab("run", "fake.ok", "-r", "6", "--output", a, NULL);
	gpulab("run", "fake.ok", "-r", "6", "--batch", "4", "--output", b, NULL);
	gpulab("compare", a, b, NULL);
	ck_assert_msg(o.status == 0 && strstr(o.err, "warning: the records time batches of 1 and 4 runs (--batch)"), "%s",
		      o.err);
	free(dir);
	gpulab("run", "fake.resets", "--batch", "2", NULL);
	expect_error(EXIT_PARAM, "fake.resets: takes no --batch");
	static const char *const bad[][2] = { { "0", "--batch 0: expected a whole number of runs from 1 to 1000" },
					      { "1001", "--batch 1001: expected a whole number" },
					      { "2.5", "--batch 2.5: expected a whole number" },
					      { "-3", "--batch -3: expected a whole number" },
					      { "x", "--batch x: expected a whole number" } };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		gpulab("run", "fake.ok", "--batch", bad[i][0], NULL);
		expect_error(EXIT_USAGE, bad[i][1]);
	}
	gpulab("try", "reduce", "kernel.cu", "--batch", "2", NULL);
	expect_error(EXIT_USAGE, "try: --batch is for run; try times one call per sample");
	gpulab("run", "fake.ok", "--batch", "2", "--cold", NULL);
	expect_error(EXIT_USAGE, "--batch runs back to back: it takes no --cold");
	gpulab("run", "fake.ok", "--batch", "2", "--profile", NULL);
	expect_error(EXIT_USAGE, "--batch runs back to back: it takes no --profile");
}
END_TEST

/* compare reads each point's batch: an UNBATCHED row of a --batch run
 * was timed run by run.  Warned of once for each pair of exercises timed
 * differently, whatever its points; not where both sides ran alike. */
START_TEST(compare_reads_each_rows_batch)
{
	char *dir = temp_dir(), b1[4200], b10[4200], cold[4200];
	configure("[plugin fake]\nfile = fake.so\n");
	snprintf(b1, sizeof b1, "%s/b1.json", dir);
	snprintf(b10, sizeof b10, "%s/b10.json", dir);
	snprintf(cold, sizeof cold, "%s/cold.json", dir);
	gpulab("run", "fake.resets", "fake.repeats", "-n", "64,128", "-r", "6", "--output", b1, NULL);
	gpulab("run", "fake.resets", "fake.repeats", "-n", "64,128", "-r", "6", "--batch", "10", "--output", b10, NULL);
	gpulab("compare", b10, "--base", "fake.resets", "--new", "fake.repeats", NULL);
	ck_assert_msg(o.status == 0 && !strcmp(o.err, "gpulab: warning: fake.repeats vs fake.resets: the base times batches "
			"of 1 runs and the new 10 (--batch; an UNBATCHED row's is 1): launch gaps count differently\n"),
		      "%s", o.err);
	gpulab("compare", b10, b10, "--base", "fake.repeats", "--new", "fake.repeats", NULL);
	ck_assert_msg(o.status == 0 && !o.err[0], "%s", o.err); /* both batched alike */
	gpulab("compare", b1, b10, NULL); /* resets ran run by run in both: only repeats differs */
	ck_assert_msg(o.status == 0 && !strcmp(o.err, "gpulab: warning: fake.repeats: the base times batches of 1 runs and "
			"the new 10 (--batch; an UNBATCHED row's is 1): launch gaps count differently\n"), "%s", o.err);
	gpulab("compare", b10, b10, NULL);
	ck_assert_msg(o.status == 0 && !o.err[0], "%s", o.err);
	/* --cold on one side alone */
	gpulab("run", "fake.resets", "-n", "64,128", "-r", "6", "--cold", "--output", cold, NULL);
	gpulab("compare", b1, cold, NULL);
	ck_assert_msg(o.status == 0 && !strcmp(o.err, "gpulab: warning: one record flushed the L2 cache (--cold) and the "
			"other did not\n"), "%s", o.err);
	gpulab("compare", cold, cold, NULL);
	ck_assert_msg(o.status == 0 && !o.err[0], "%s", o.err);
	free(dir);
}
END_TEST

int main(void)
{
	bin = getenv("GPULAB_BIN");
	if (!bin || !getenv("GPULAB_TEST_PLUGINS") || !getenv("GPULAB_WRAPPER")) {
		fprintf(stderr, "GPULAB_BIN, GPULAB_WRAPPER and GPULAB_TEST_PLUGINS must be set (make check sets them)\n");
		return 99;
	}
	Suite *s = suite_create("cli");
	TCase *t = tcase_create("cli");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, help_and_version);
	tcase_add_test(t, help_cites_installed_pages);
	tcase_add_test(t, usage_errors);
	tcase_add_test(t, dispatch_refusals_in_order);
	tcase_add_test(t, help_from_rows);
	tcase_add_test(t, metrics_lists_aliases);
	tcase_add_test(t, list_shows_good_refuses_bad);
	tcase_add_test(t, config_errors);
	tcase_add_test(t, try_gate_stops_at_first_failure);
	tcase_add_test(t, plugin_messages_are_escaped);
	tcase_add_test(t, watchdog_stops_a_run_that_never_ends);
	tcase_add_test(t, unknown_exercise);
	tcase_add_test(t, abi_lines_fit);
	tcase_add_test(t, new_refuses_an_installed_name);
	tcase_add_test(t, messages_say_what_happened);
	tcase_add_test(t, config_given_twice);
	tcase_add_test(t, parameter_errors);
	tcase_add_test(t, plugins_refuse_bad_parameters);
	tcase_add_test(t, run_without_gpu);
	tcase_add_test(t, typed_values_reach_the_plugin);
	tcase_add_test(t, refusals_skip_in_groups);
	tcase_add_test(t, failures_and_teardown);
	tcase_add_test(t, sweeps);
	tcase_add_test(t, records);
	tcase_add_test(t, noise_criterion);
	tcase_add_test(t, compare_records);
	tcase_add_test(t, choices_are_recorded);
	tcase_add_test(t, compare_exercises);
	tcase_add_test(t, compare_many_samples);
	tcase_add_test(t, wrong_result_fails);
	tcase_add_test(t, reset_before_every_run);
	tcase_add_test(t, batches_of_runs);
	tcase_add_test(t, compare_reads_each_rows_batch);
	tcase_add_test(t, median_interval_flag);
	tcase_add_test(t, unlike_rows_not_compared);
	tcase_add_test(t, divergence_debug_is_unlike);
	suite_add_tcase(s, t);
	return run_suite(s, 0);
}
