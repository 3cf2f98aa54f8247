/* Hostile input (issue 12): every input ends at once with one line
 * naming what is at fault, its exit code, and nothing run.  Unit tests
 * of the pieces, and the gpulab command on the host-only test plugins. */
#include "config.h"

#include "escape.h"
#include "exitcode.h"
#include "config/options.h"
#include "config/settings.h"
#include "config/size.h"
#include "testutil.h"
#include "config/trust.h"

#include <check.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* --- sizes ------------------------------------------------------------------ */
static void expect_size(const char *s, uint64_t want)
{
	uint64_t v = 12345;
	ck_assert_msg(parse_size(s, &v) == 0, "refused '%s'", s);
	ck_assert_msg(v == want, "'%s' = %llu, wanted %llu", s, (unsigned long long)v, (unsigned long long)want);
}

static void expect_no_size(const char *s)
{
	uint64_t v;
	ck_assert_msg(parse_size(s, &v) != 0, "accepted '%s'", s);
}

/* Powers take constant time, so the huge exponents end at once; the
 * test case's timeout says if they hang. */
START_TEST(size_powers_exact)
{
	expect_size("0^0", 1);
	expect_size("1^0", 1);
	expect_size("0^1", 0);
	expect_size("2^0", 1);
	expect_size("0^99999999999999", 0);
	expect_size("1^99999999999999999", 1);
	expect_size("1^18446744073709551615", 1);
	expect_size("0^000000000000000000000000000000", 1);
	expect_size("1^99999999999999999999999999999999999999", 1);
	expect_size("0^99999999999999999999999999999999999999", 0);
	expect_size("2^63", 1ull << 63);
	expect_size("3^40", 12157665459056928801ull);
	expect_size("7^22", 3909821048582988049ull);
	expect_size("10^19", 10000000000000000000ull);
	expect_size("4294967295^2", 18446744065119617025ull);
	expect_size("18446744073709551615^1", UINT64_MAX);
	expect_size("18446744073709551615^0", 1);
	expect_size("2^05", 32);
}
END_TEST

START_TEST(size_powers_overflow)
{
	const char *bad[] = { "2^64", "3^41", "7^23", "10^20", "4294967296^2", "18446744073709551615^2",
			      "2^99999999999999999", "2^18446744073709551615", "2^18446744073709551616",
			      "1^", "0^", "1^x", "0^1x", "1^-1", "0^ 1", "1^+1", "2^-1", "^0",
			      "18446744073709551616^0", NULL };
	for (int i = 0; bad[i]; i++)
		expect_no_size(bad[i]);
}
END_TEST

/* --- configuration files ------------------------------------------------- */
static char err[4096];

/* A path in a fresh temporary directory; the directory is removed at exit. */
static const char *temp_path(const char *name)
{
	static char paths[4][4096];
	static int next;
	char *dir = temp_dir(), *p = paths[next++ % 4];
	snprintf(p, 4096, "%s/%s", dir, name);
	free(dir);
	return p;
}

/* Loading `path` (required or not) fails with one line holding `words`. */
static void expect_load_error(const char *path, int required, const char *words)
{
	struct config c = { 0 };
	err[0] = 0;
	ck_assert_int_eq(config_load(&c, path, required, err, sizeof err), EXIT_CONFIG);
	ck_assert_msg(strstr(err, words) != NULL, "'%s' lacks '%s'", err, words);
	ck_assert_msg(strchr(err, '\n') == NULL, "not one line: %s", err);
	config_free(&c);
}

static void expect_text_error(const char *text, const char *words)
{
	const char *path = temp_path("bad.ini");
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	expect_load_error(path, 1, words);
	ck_assert_msg(strstr(err, path) == err, "'%s' does not start with the file", err);
}

/* Directories, FIFOs and devices are refused at once, required or not:
 * a FIFO with no writer would block a read forever, /dev/zero never end. */
START_TEST(config_not_regular)
{
	const char *fifo = temp_path("fifo.ini"), *dir = temp_path("dir.ini");
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	for (int required = 0; required < 2; required++) {
		expect_load_error(fifo, required, ": a FIFO, not a regular file");
		expect_load_error(dir, required, ": a directory, not a regular file");
		expect_load_error("/dev/zero", required, "/dev/zero: a character device, not a regular file");
		expect_load_error("/dev/urandom", required, "/dev/urandom: a character device");
	}
}
END_TEST

START_TEST(config_size_cap)
{
	const char *path = temp_path("big.ini");
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < 1 << 20; i += 16)
		fputs(";comment 16 byt\n", f);
	fclose(f);
	struct config c = { 0 };
	ck_assert_int_eq(config_load(&c, path, 1, err, sizeof err), 0); /* exactly 1 MiB */
	config_free(&c);
	f = fopen(path, "a");
	fputc('\n', f);
	fclose(f);
	expect_load_error(path, 1, ": larger than 1 MiB, the most a configuration file may hold");
}
END_TEST

/* A line inih cannot hold whole is refused with its number: inih would
 * read the rest as a continuation line that sets the key again. */
START_TEST(config_long_lines)
{
	char text[1024], pad[400];
	memset(pad, ' ', sizeof pad);
	pad[sizeof pad - 1] = 0;
	snprintf(text, sizeof text, "[defaults]\nn = 1\n;%.197s\n", pad);      /* 198 bytes: fits */
	struct config c = { 0 };
	const char *path = temp_path("ok.ini");
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	ck_assert_int_eq(config_load(&c, path, 1, err, sizeof err), 0);
	config_free(&c);
	snprintf(text, sizeof text, "[defaults]\nn = 1\n;%.198s\n", pad);      /* 199: a long comment */
	expect_text_error(text, "bad.ini:3: line longer than 198 bytes");
	snprintf(text, sizeof text, "[defaults]\n\nreps = 1%.300s0\n", pad);   /* a long value */
	expect_text_error(text, "bad.ini:3: line longer than 198 bytes");
	snprintf(text, sizeof text, "[plugin x]\nfile = good.so%.200s/tmp/x/evil.so\n", pad);
	expect_text_error(text, "bad.ini:2: line longer than 198 bytes");
	snprintf(text, sizeof text, "[plugin x]\nfile = x.so\n\n;\n%.250s", pad); /* last line, no newline */
	expect_text_error(text, "bad.ini:5: line longer than 198 bytes");
}
END_TEST

/* No line continues another: an indented key is a key, and an indented
 * path after `file =` is a malformed line, not a second file. */
START_TEST(config_no_continuation)
{
	struct config c = { 0 };
	const char *path = temp_path("indent.ini");
	FILE *f = fopen(path, "w");
	fputs("[plugin x]\n  file = x.so\n\tn = 2^10\n", f);
	fclose(f);
	ck_assert_int_eq(config_load(&c, path, 1, err, sizeof err), 0);
	ck_assert_str_eq(config_get(&c, "x", NULL, "file")->value, "x.so");
	ck_assert_str_eq(config_get(&c, "x", "e", "n")->value, "2^10");
	ck_assert_int_eq(config_get(&c, "x", "e", "n")->line, 3);
	config_free(&c);
	expect_text_error("[plugin x]\nfile = good.so\n   /tmp/x/evil.so\n", "bad.ini:3: malformed line");
}
END_TEST

START_TEST(config_bad_bytes)
{
	const char *path = temp_path("nul.ini");
	FILE *f = fopen(path, "w");
	fwrite("[plugin x]\nfile = x.so\0/tmp/evil.so\n", 1, 36, f);
	fclose(f);
	expect_load_error(path, 1, "nul.ini:2: a NUL byte");
	char text[512];
	snprintf(text, sizeof text, "[defaults]\nn = 1\n[plugin %s]\nfile = x.so\n",
		 "abcdefghij_abcdefghij_abcdefghij_abcdefghij_abc"); /* inih would cut it */
	expect_text_error(text, "bad.ini:3: section name longer than 49 bytes");
	expect_text_error("[plugin x]\nfile = x.so\n = 2K\n", "bad.ini:3: a value with no key"); /* fuzz_ini found it */
}
END_TEST

/* Plugin and exercise names in section headers are [a-z0-9_]+. */
START_TEST(config_section_names)
{
	const char *bad[] = { "[plugin Reduce]\nfile = x.so\n", "[plugin re-duce]\nfile = x.so\n",
			      "[plugin  reduce]\nfile = x.so\n", "[plugin x.y]\nfile = x.so\n",
			      "[plugin ]\nfile = x.so\n", "[exercise reduce.Best]\nn = 1\n",
			      "[exercise .best]\nn = 1\n", "[exercise reduce.]\nn = 1\n",
			      "[exercise reduce.best.x]\nn = 1\n", "[exercise re duce.best]\nn = 1\n",
			      "[plugin \x1b[31mred]\nfile = x.so\n", NULL };
	for (int i = 0; bad[i]; i++)
		expect_text_error(bad[i], "bad.ini:1: bad name in ["); /* the section's line (issue 52) */
	ck_assert_msg(strstr(err, "made of a-z, 0-9 and _"), "%s", err);
	expect_text_error("[exercise reduce]\nn = 1\n", "bad.ini:1: unknown section [exercise reduce]");
}
END_TEST

START_TEST(config_dropins_unreadable)
{
	char *sys = temp_dir(), conf[4200];
	struct config c = { 0 };
	snprintf(conf, sizeof conf, "%s/conf.d", sys);
	write_file(sys, "conf.d", "[defaults]\n"); /* a file where a directory should be */
	ck_assert_int_eq(config_load_all(&c, sys, NULL, 0, err, sizeof err), EXIT_CONFIG);
	ck_assert_msg(strstr(err, "conf.d: cannot read the directory: Not a directory"), "%s", err);
	config_free(&c);
	unlink(conf);
	ck_assert_int_eq(mkdir(conf, 0700), 0);
	char fifo[4300];
	snprintf(fifo, sizeof fifo, "%s/10-fifo.ini", conf);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(config_load_all(&c, sys, NULL, 0, err, sizeof err), EXIT_CONFIG);
	ck_assert_msg(strstr(err, "10-fifo.ini: a FIFO, not a regular file"), "%s", err);
	config_free(&c);
	unlink(fifo);
	if (geteuid() != 0) { /* root reads it anyway */
		chmod(conf, 0);
		ck_assert_int_eq(config_load_all(&c, sys, NULL, 0, err, sizeof err), EXIT_CONFIG);
		ck_assert_msg(strstr(err, "conf.d: cannot read the directory: Permission denied"), "%s", err);
		config_free(&c);
		chmod(conf, 0700);
	}
	free(sys);
}
END_TEST

/* The user's file: a relative XDG_CONFIG_HOME is ignored for
 * $HOME/.config, as the XDG spec says; a variable too long to make a path
 * is named, never cut short into another file's name. */
START_TEST(config_xdg)
{
	char *sys = temp_dir(), *home = temp_dir(), *cwd = temp_dir(), path[4200], big[4200];
	struct config c = { 0 };
	snprintf(path, sizeof path, "%s/.config", home);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/.config/gpulab", home);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	write_file(path, "gpulab.ini", "[defaults]\nn = 7\n");
	ck_assert_int_eq(chdir(cwd), 0);
	ck_assert_int_eq(mkdir("rel", 0700) | mkdir("rel/gpulab", 0700), 0);
	write_file("rel/gpulab", "gpulab.ini", "[defaults]\nn = 9\n");
	setenv("HOME", home, 1);
	setenv("XDG_CONFIG_HOME", "rel", 1);
	unsetenv("GPULAB_CONFIG");
	ck_assert_int_eq(config_load_all(&c, sys, NULL, 0, err, sizeof err), 0);
	ck_assert_str_eq(config_get(&c, "p", "e", "n")->value, "7");
	config_free(&c);
	big[0] = '/';
	memset(big + 1, 'a', 4080);
	big[4081] = 0;
	setenv("XDG_CONFIG_HOME", big, 1);
	ck_assert_int_eq(config_load_all(&c, sys, NULL, 0, err, sizeof err), EXIT_CONFIG);
	ck_assert_str_eq(err, "XDG_CONFIG_HOME is too long: a configuration path made from it would exceed 4095 bytes");
	config_free(&c);
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", big, 1);
	ck_assert_int_eq(config_load_all(&c, sys, NULL, 0, err, sizeof err), EXIT_CONFIG);
	ck_assert_msg(!strncmp(err, "HOME is too long", 16), "%.200s", err);
	config_free(&c);
	memset(big + 1, 'a', 4090); /* /gpulab.ini no longer fits */
	big[4091] = 0;
	ck_assert_int_eq(config_load_all(&c, big, NULL, 0, err, sizeof err), EXIT_CONFIG);
	ck_assert_msg(!strncmp(err, "GPULAB_SYSCONFDIR is too long", 29), "%.200s", err);
	config_free(&c);
	free(sys);
	free(home);
	free(cwd);
}
END_TEST

/* Make xdg/gpulab/gpulab.ini, the user's file, a FIFO or a directory. */
static void make_user_file(const char *xdg, int fifo)
{
	char path[4300];
	snprintf(path, sizeof path, "%s/gpulab", xdg);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/gpulab/gpulab.ini", xdg);
	ck_assert_int_eq(fifo ? mkfifo(path, 0600) : mkdir(path, 0700), 0);
}

/* $XDG_CONFIG_HOME/gpulab/gpulab.ini is optional, but a directory or a
 * FIFO there is an error. */
START_TEST(config_xdg_not_regular)
{
	for (int fifo = 0; fifo < 2; fifo++) {
		char *sys = temp_dir(), *xdg = temp_dir();
		struct config c = { 0 };
		make_user_file(xdg, fifo);
		setenv("XDG_CONFIG_HOME", xdg, 1);
		ck_assert_int_eq(config_load_all(&c, sys, NULL, 0, err, sizeof err), EXIT_CONFIG);
		ck_assert_msg(strstr(err, fifo ? "gpulab/gpulab.ini: a FIFO, not a regular file"
					       : "gpulab/gpulab.ini: a directory, not a regular file"), "%s", err);
		config_free(&c);
		free(sys);
		free(xdg);
	}
}
END_TEST

/* --- the command --------------------------------------------------------- */
/* A lab: a system directory holding gpulab.ini, an empty XDG directory,
 * the test plugins; each test adds what it makes hostile. */
static struct {
	char sys[4096], xdg[4096];
	char env_sys[4200], env_xdg[4200], env_path[4200];
} lab;
static struct cmd_result o;

static void lab_setup(const char *ini)
{
	char *sys = temp_dir(), *xdg = temp_dir();
	snprintf(lab.sys, sizeof lab.sys, "%s", sys);
	snprintf(lab.xdg, sizeof lab.xdg, "%s", xdg);
	if (ini)
		write_file(sys, "gpulab.ini", ini);
	snprintf(lab.env_sys, sizeof lab.env_sys, "GPULAB_SYSCONFDIR=%s", sys);
	snprintf(lab.env_xdg, sizeof lab.env_xdg, "XDG_CONFIG_HOME=%s", xdg);
	snprintf(lab.env_path, sizeof lab.env_path, "GPULAB_PLUGIN_PATH=%s", getenv("GPULAB_TEST_PLUGINS"));
	free(sys);
	free(xdg);
}

/* gpulab ARGS... (NULL-terminated) with one more environment entry
 * `extra` (or NULL), which wins over the lab's. */
static void lab_run(char *extra, const char *first, ...)
{
	char *env[] = { lab.env_sys, lab.env_xdg, lab.env_path, "GPULAB_CONFIG=", extra, NULL };
	va_list ap;
	va_start(ap, first);
	run_cmd_va(&o, getenv("GPULAB_BIN"), env, first, ap);
	va_end(ap);
}

/* Exit `code`, nothing on stdout, one line on stderr holding `words`.
 * (How fast a refusal comes is bench/refusals.sh's to measure.) */
static void expect_refusal(int code, const char *words)
{
	ck_assert_msg(o.status == code, "exit %d, wanted %d; stderr: %.2000s", o.status, code, o.err);
	ck_assert_msg(strstr(o.err, words) != NULL, "stderr lacks '%s': %.2000s", words, o.err);
	ck_assert_msg(count_lines(o.err) == 1 && !strncmp(o.err, "gpulab: ", 8), "not one line: %.2000s", o.err);
	ck_assert_msg(o.out[0] == 0, "stdout: %.2000s", o.out);
}

static char *env_entry(const char *name, const char *value)
{
	static char buf[4][4500];
	static int next;
	char *e = buf[next++ % 4];
	snprintf(e, sizeof buf[0], "%s=%s", name, value);
	return e;
}

/* A FIFO by every route a configuration file comes: an error at once,
 * never a read that waits for a writer. */
START_TEST(cli_config_fifos)
{
	char path[4300];
	const char *fifo = temp_path("fifo.ini");
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	lab_setup("");
	lab_run(NULL, "--config", fifo, "list", NULL);
	expect_refusal(EXIT_CONFIG, "fifo.ini: a FIFO, not a regular file");
	lab_run(env_entry("GPULAB_CONFIG", fifo), "list", NULL);
	expect_refusal(EXIT_CONFIG, "fifo.ini: a FIFO, not a regular file");
	make_user_file(lab.xdg, 1);
	lab_run(NULL, "list", NULL);
	expect_refusal(EXIT_CONFIG, "gpulab/gpulab.ini: a FIFO, not a regular file");
	lab_setup(NULL);
	snprintf(path, sizeof path, "%s/gpulab.ini", lab.sys);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	lab_run(NULL, "run", "fake.ok", NULL);
	expect_refusal(EXIT_CONFIG, "/gpulab.ini: a FIFO, not a regular file");
	lab_setup("");
	snprintf(path, sizeof path, "%s/conf.d", lab.sys);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/conf.d/fake.ini", lab.sys);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	lab_run(NULL, "list", NULL);
	expect_refusal(EXIT_CONFIG, "conf.d/fake.ini: a FIFO, not a regular file");
}
END_TEST

/* Issue 56: an INI file or a conf.d folder that others may write (or,
 * run as root, another user owns) is refused in one line, as a plugin
 * file is, by every route: it names the plugins gpulab loads. */
START_TEST(cli_config_others_may_write)
{
	char path[4300], words[4600], ini[4200], *dir = temp_dir();
	snprintf(ini, sizeof ini, "%s", write_file(dir, "world.ini", "[defaults]\n"));
	free(dir);
	ck_assert_int_eq(chmod(ini, 0666), 0);
	lab_setup("");
	snprintf(words, sizeof words, "gpulab: %s: writable by group or others (mode 0666): an INI file picks the plugins gpulab "
				      "loads, so it is not read\n", ini);
	lab_run(NULL, "--config", ini, "list", NULL);
	expect_refusal(EXIT_CONFIG, words);
	ck_assert_str_eq(o.err, words);
	lab_run(env_entry("GPULAB_CONFIG", ini), "list", NULL);
	ck_assert_str_eq(o.err, words);
	ck_assert_int_eq(chmod(ini, 0620), 0); /* a group's */
	lab_run(NULL, "--config", ini, "list", NULL);
	expect_refusal(EXIT_CONFIG, "world.ini: writable by group or others (mode 0620)");
	ck_assert_int_eq(chmod(ini, 0644), 0);
	lab_run(NULL, "--config", ini, "list", NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);

	/* the system's file, and a conf.d folder, sticky or not */
	snprintf(path, sizeof path, "%s/gpulab.ini", lab.sys);
	ck_assert_int_eq(chmod(path, 0646), 0);
	lab_run(NULL, "list", NULL);
	expect_refusal(EXIT_CONFIG, "/gpulab.ini: writable by group or others (mode 0646)");
	ck_assert_int_eq(chmod(path, 0644), 0);
	snprintf(path, sizeof path, "%s/conf.d", lab.sys);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	write_file(path, "fake.ini", "[plugin fake]\nfile = fake.so\n");
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(chmod(path, i ? 01777 : 0777), 0);
		lab_run(NULL, "list", NULL);
		snprintf(words, sizeof words, "gpulab: %s: writable by group or others (mode %s): an INI folder picks the plugins "
					      "gpulab loads, so it is not read\n", path, i ? "1777" : "0777");
		expect_refusal(EXIT_CONFIG, words);
		ck_assert_str_eq(o.err, words);
	}
	ck_assert_int_eq(chmod(path, 0755), 0);
	if (geteuid() != 0) {
		fprintf(stderr, "check_hostile: not root: another user's INI file is not tried\n");
		return;
	}
	snprintf(path, sizeof path, "%s/conf.d/fake.ini", lab.sys);
	ck_assert_int_eq(chown(path, 65534, 65534), 0);
	lab_run(NULL, "list", NULL);
	snprintf(words, sizeof words, "gpulab: %s: owned by uid 65534, not by root or you: an INI file picks the plugins gpulab "
				      "loads, so it is not read\n", path);
	ck_assert_str_eq(o.err, words);
	ck_assert_int_eq(o.status, EXIT_CONFIG);
}
END_TEST

START_TEST(cli_config_not_files)
{
	lab_setup("");
	lab_run(NULL, "--config", lab.xdg, "list", NULL);
	expect_refusal(EXIT_CONFIG, ": a directory, not a regular file");
	lab_run(env_entry("GPULAB_CONFIG", lab.xdg), "list", NULL);
	expect_refusal(EXIT_CONFIG, ": a directory, not a regular file");
	lab_run(NULL, "--config", "/dev/zero", "list", NULL);
	expect_refusal(EXIT_CONFIG, "gpulab: /dev/zero: a character device, not a regular file");
	lab_run(env_entry("GPULAB_CONFIG", "/dev/urandom"), "list", NULL);
	expect_refusal(EXIT_CONFIG, "gpulab: /dev/urandom: a character device, not a regular file");
	make_user_file(lab.xdg, 0);
	lab_run(NULL, "list", NULL);
	expect_refusal(EXIT_CONFIG, "gpulab/gpulab.ini: a directory, not a regular file");
	/* a conf.d that cannot be read is not "no plugins configured" */
	lab_setup("");
	write_file(lab.sys, "conf.d", "");
	lab_run(NULL, "list", NULL);
	expect_refusal(EXIT_CONFIG, "conf.d: cannot read the directory: Not a directory");
}
END_TEST

/* The long line that used to load evil.so: refused, with its number. */
START_TEST(cli_config_long_line)
{
	char ini[1024], pad[300];
	memset(pad, ' ', sizeof pad - 1);
	pad[sizeof pad - 1] = 0;
	snprintf(ini, sizeof ini, "[plugin fake]\nfile = fake.so%s/tmp/x/evil.so\n", pad);
	lab_setup(ini);
	lab_run(NULL, "list", NULL);
	expect_refusal(EXIT_CONFIG, "/gpulab.ini:2: line longer than 198 bytes");
	char big[4200] = "XDG_CONFIG_HOME=/";
	memset(big + 17, 'x', 4080);
	big[4097] = 0;
	lab_setup("");
	lab_run(big, "list", NULL);
	expect_refusal(EXIT_CONFIG, "gpulab: XDG_CONFIG_HOME is too long");
}
END_TEST

/* --- command-line option errors ------------------------------------------ */
/* options_parse on "gpulab" and the NULL-terminated arguments. */
static int parse_args(const char *first, ...)
{
	static char storage[16][64];
	char *argv[17] = { "gpulab" };
	struct options opts;
	int n = 1;
	va_list ap;
	va_start(ap, first);
	for (const char *a = first; a && n < 16; a = va_arg(ap, const char *), n++)
		argv[n] = strcpy(storage[n], a);
	va_end(ap);
	argv[n] = NULL;
	err[0] = 0;
	int rc = options_parse(&opts, n, argv, err, sizeof err);
	options_free(&opts);
	return rc;
}

static void expect_option_error(const char *words)
{
	ck_assert_msg(strstr(err, words) != NULL, "'%s' lacks '%s'", err, words);
}

START_TEST(options_errors_name_the_option)
{
	ck_assert_int_eq(parse_args("list", "--config", NULL), EXIT_USAGE);
	expect_option_error("option --config needs a value;");
	ck_assert_int_eq(parse_args("run", "x", "--size", NULL), EXIT_USAGE);
	expect_option_error("option --size needs a value;");
	ck_assert_int_eq(parse_args("run", "x", "--con", NULL), EXIT_USAGE);
	expect_option_error("option --config needs a value;");
	ck_assert_int_eq(parse_args("run", "x", "--metrics", NULL), EXIT_USAGE);
	expect_option_error("option --metrics needs a value;");
	ck_assert_int_eq(parse_args("run", "x", "-n", NULL), EXIT_USAGE);
	expect_option_error("option -n needs a value;");
	ck_assert_int_eq(parse_args("run", "x", "--cold=yes", NULL), EXIT_USAGE);
	expect_option_error("option --cold takes no value;");
	ck_assert_int_eq(parse_args("--bogus", "list", NULL), EXIT_USAGE);
	expect_option_error("option --bogus is unknown;");
	ck_assert_int_eq(parse_args("--bogus=1", "list", NULL), EXIT_USAGE);
	expect_option_error("option --bogus is unknown;");
	ck_assert_int_eq(parse_args("-Z", "list", NULL), EXIT_USAGE);
	expect_option_error("option -Z is unknown;");
}
END_TEST

START_TEST(options_ambiguous_abbreviations)
{
	ck_assert_int_eq(parse_args("--c", "list", NULL), EXIT_USAGE);
	ck_assert_str_eq(err, "option --c is ambiguous: --cold, --cflags, --config; `gpulab --help` lists them");
	ck_assert_int_eq(parse_args("run", "x", "--co=1", NULL), EXIT_USAGE);
	expect_option_error("option --co is ambiguous: --cold, --config;");
	ck_assert_int_eq(parse_args("--h", NULL), 0); /* --help alone */
	ck_assert_int_eq(parse_args("--no", "list", NULL), 0);
}
END_TEST

/* An error mid-way through "-Zn" leaves getopt half-way through that
 * argument; the next parse must not carry on in it. */
START_TEST(options_parse_twice)
{
	ck_assert_int_eq(parse_args("-Zn", "list", NULL), EXIT_USAGE);
	ck_assert_int_eq(parse_args("list", NULL), 0);
	ck_assert_int_eq(parse_args("-bZ", NULL), EXIT_USAGE);
	ck_assert_int_eq(parse_args("-b", "1", "list", NULL), 0);
}
END_TEST

/* --- escaping ------------------------------------------------------------ */
static const char *escaped_by(void (*put)(FILE *, const char *), const char *s)
{
	static char buf[1024];
	FILE *f = fmemopen(buf, sizeof buf, "w");
	buf[0] = 0; /* glibc writes no NUL where nothing was written */
	put(f, s);
	fclose(f);
	return buf;
}

static const char *escaped(const char *s)
{
	return escaped_by(fput_escaped, s);
}

START_TEST(escape_passes_utf8)
{
	const char *ok[] = { "plain ASCII, ~!@#$%^&*()", "h\xc3\xa9llo w\xc3\xb6rld", "\xe2\x9c\x93 \xe6\x97\xa5\xe6\x9c\xac",
			     "\xf0\x9d\x84\x9e", "\xc2\xa0", "\xed\x9f\xbf", "\xee\x80\x80", "\xef\xbf\xbf",
			     "\xf4\x8f\xbf\xbf", "\xf0\x90\x80\x80", NULL };
	for (int i = 0; ok[i]; i++)
		ck_assert_str_eq(escaped(ok[i]), ok[i]);
}
END_TEST

START_TEST(escape_controls_and_bad_utf8)
{
	const char *cases[][2] = {
		{ "\x1b[31mred", "\\x1b[31mred" },
		{ "a\nb\tc\rd\\e", "a\\nb\\tc\\rd\\\\e" },
		{ "\x7f\x01", "\\x7f\\x01" },
		{ "\xc0\xaf", "\\xc0\\xaf" },                       /* overlong '/' */
		{ "\xe0\x80\xaf", "\\xe0\\x80\\xaf" },              /* overlong, 3 bytes */
		{ "\xf0\x80\x80\xaf", "\\xf0\\x80\\x80\\xaf" },     /* overlong, 4 bytes */
		{ "\xc1\xbf", "\\xc1\\xbf" },
		{ "\xed\xa0\x80", "\\xed\\xa0\\x80" },              /* surrogate D800 */
		{ "\xed\xbf\xbf", "\\xed\\xbf\\xbf" },              /* surrogate DFFF */
		{ "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80" },     /* 110000 */
		{ "\xf5\x80\x80\x80", "\\xf5\\x80\\x80\\x80" },
		{ "x\xe2\x82", "x\\xe2\\x82" },                     /* cut short at the end */
		{ "\xe2\x82X", "\\xe2\\x82X" },                     /* cut short by ASCII */
		{ "\xf0\x9d\x84", "\\xf0\\x9d\\x84" },
		{ "\x80\xbf", "\\x80\\xbf" },                       /* lone continuations */
		{ "\xff\xfe", "\\xff\\xfe" },
		{ "\xc2\x9b" "1m", "\\u009b1m" },                   /* C1 CSI */
		{ "\xc2\x80", "\\u0080" },
		{ "abc\xe2\x80\xae" "fdp.exe", "abc\\u202efdp.exe" }, /* RIGHT-TO-LEFT OVERRIDE */
		{ "\xe2\x80\xa8", "\\u2028" },
		{ "\xe2\x81\xa6", "\\u2066" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ck_assert_str_eq(escaped(cases[i][0]), cases[i][1]);
	ck_assert_int_eq(escape_utf8_len("\xf4\x8f\xbf\xbf"), 4);
	ck_assert_int_eq(escape_utf8_len("\xe2\x82"), 0);
	ck_assert_int_eq(escape_utf8_len(""), 1); /* the NUL is ASCII */
}
END_TEST

/* Escaped into a column's buffer: cut before the first piece that does
 * not fit whole, never inside a UTF-8 character or an escape. */
START_TEST(escape_into_cuts_whole_pieces)
{
	char buf[8];
	const char *cases[][2] = {
		{ "abcdefghij", "abcdefg" },
		{ "ab\xc3\xa9\xc3\xa9\xc3\xa9", "ab\xc3\xa9\xc3\xa9" }, /* 2 + 2 + 2 bytes: the third does not fit */
		{ "\x1b\x1b\x1b", "\\x1b" },                          /* 4 + 4 > 7 */
		{ "a\xc2\x9b", "a\\u009b" },                          /* 1 + 6 */
		{ "ab\xc2\x9b", "ab" },
		{ "\xf0\x9f\x98\x80\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80" },
		{ "", "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ck_assert_str_eq(escape_into(buf, sizeof buf, cases[i][0]), cases[i][1]);
	ck_assert_str_eq(escape_into(buf, 1, "abc"), "");
}
END_TEST

/* Text for a page: nothing in it opens a tag, ends an attribute or is
 * a byte XML refuses; what had to go shows as U+FFFD. */
START_TEST(escape_html)
{
	const char *cases[][2] = {
		{ "</script><script>alert(1)</script>", "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" },
		{ "<svg onload=alert(1)>", "&lt;svg onload=alert(1)&gt;" },
		{ "a\" onmouseover='x' b", "a&quot; onmouseover=&#39;x&#39; b" },
		{ "&amp; stays text", "&amp;amp; stays text" },
		{ "h\xc3\xa9llo \xe2\x9c\x93\tand\n", "h\xc3\xa9llo \xe2\x9c\x93\tand\n" },
		{ "\x1b[31m\x01\x7f", "\xef\xbf\xbd[31m\xef\xbf\xbd\xef\xbf\xbd" },
		{ "\r", "\xef\xbf\xbd" },
		{ "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd" },        /* overlong '/': two bad bytes */
		{ "x\xe2\x82", "x\xef\xbf\xbd\xef\xbf\xbd" },      /* cut short */
		{ "\xef\xbf\xbe\xef\xbf\xbf", "\xef\xbf\xbd\xef\xbf\xbd" }, /* U+FFFE, U+FFFF: not XML */
		{ "abc\xe2\x80\xae" "fdp", "abc\xef\xbf\xbd" "fdp" },    /* RIGHT-TO-LEFT OVERRIDE */
		{ "\xc2\x9b", "\xef\xbf\xbd" },                      /* C1 CSI */
		{ "\xf0\x9d\x84\x9e", "\xf0\x9d\x84\x9e" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ck_assert_str_eq(escaped_by(fput_html, cases[i][0]), cases[i][1]);
	ck_assert_str_eq(escaped_by(fput_html, NULL), "");
}
END_TEST

/* No control byte of an argument or an INI file reaches stderr raw. */
static void expect_clean_stderr(void)
{
	for (const char *c = o.err; *c; c++)
		ck_assert_msg((unsigned char)*c >= 0x20 || (*c == '\n' && !c[1]), "raw byte %#x in %s",
			      (unsigned char)*c, o.err);
}

START_TEST(cli_errors_escaped)
{
	lab_setup("[defaults]\nn = \x1b]0;owned\x07\n");
	lab_run(NULL, "list", NULL);
	expect_refusal(EXIT_CONFIG, "bad value '\\x1b]0;owned\\x07' for 'n'");
	expect_clean_stderr();
	lab_setup("");
	lab_run(NULL, "\x1b[2J\xc0\xaf\xe2\x80\xae", NULL);
	expect_refusal(EXIT_USAGE, "unknown command '\\x1b[2J\\xc0\\xaf\\u202e'");
	expect_clean_stderr();
	lab_run(NULL, "-\x01", NULL);
	expect_refusal(EXIT_USAGE, "option -\\x01 is unknown");
	lab_run(NULL, "--\x1b", NULL);
	expect_refusal(EXIT_USAGE, "option --\\x1b is unknown");
	lab_run(NULL, "list", "--c", NULL);
	expect_refusal(EXIT_USAGE, "option --c is ambiguous: --cold, --cflags, --config");
	lab_run(NULL, "list", "--config", NULL);
	expect_refusal(EXIT_USAGE, "option --config needs a value");
}
END_TEST

/* --- no driver ------------------------------------------------------------ */
/* Without any NVIDIA driver, gpulab info says so, not that the driver is
 * too old; "no CUDA device" stays, as check_cli expects it. */
START_TEST(cli_no_driver)
{
	void *cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
	if (cuda) {
		dlclose(cuda); /* a driver is installed: nothing to check here */
		return;
	}
	lab_setup("");
	lab_run(NULL, "info", NULL);
	expect_refusal(EXIT_NODEVICE, "gpulab: no CUDA device: no NVIDIA driver found (libcuda.so.1: ");
	ck_assert_msg(strstr(o.err, "insufficient") == NULL, "%s", o.err);
	ck_assert_msg(strlen(o.err) <= 101, "%zu columns: %s", strlen(o.err) - 1, o.err); /* issue 46, item 17 */
}
END_TEST

/* --- plugin trust ---------------------------------------------------------- */
/* A copy of the fake test plugin as dir/name, with the given mode. */
static const char *copy_plugin(const char *dir, const char *name, mode_t mode)
{
	static char path[4][4300];
	static int next;
	char src[4300], buf[65536], *dst = path[next++ % 4];
	size_t n;
	snprintf(src, sizeof src, "%s/fake.so", getenv("GPULAB_TEST_PLUGINS"));
	snprintf(dst, sizeof path[0], "%s/%s", dir, name);
	FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
	ck_assert_msg(in && out, "%s -> %s", src, dst);
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
	fclose(in);
	fclose(out);
	ck_assert_int_eq(chmod(dst, mode), 0);
	return dst;
}

static void expect_trusted(const char *path)
{
	err[0] = 0;
	ck_assert_msg(trust_plugin(path, err, sizeof err) == 0, "%s refused: %s", path, err);
}

static void expect_distrusted(const char *path, const char *words)
{
	err[0] = 0;
	ck_assert_msg(trust_plugin(path, err, sizeof err) == -1, "%s trusted", path);
	ck_assert_msg(strstr(err, words) != NULL, "'%s' lacks '%s'", err, words);
	ck_assert_msg(!strncmp(err, path, strlen(path)) || path[0] != '/', "'%s' does not name %s", err, path);
}

/* The build tree's plugins, and a copy in a directory of /tmp made with
 * a normal umask, are loaded; a file or a directory others may write is
 * not, nor anything but a regular file. */
START_TEST(trust_modes)
{
	char *dir = temp_dir(), sub[4200], path[4300];
	snprintf(path, sizeof path, "%s/fake.so", getenv("GPULAB_TEST_PLUGINS"));
	expect_trusted(path);
	const char *ok = copy_plugin(dir, "ok.so", 0755);
	expect_trusted(ok);
	const char *shared = copy_plugin(dir, "shared.so", 0666);
	expect_distrusted(shared, "shared.so: the file is writable by group or others (mode 0666)");
	ck_assert_int_eq(chmod(shared, 0664), 0);
	expect_distrusted(shared, "(mode 0664)");
	ck_assert_int_eq(chmod(dir, 0777), 0);
	expect_distrusted(ok, "is writable by group or others (mode 0777)");
	ck_assert_msg(strstr(err, dir) != NULL, "%s", err);
	/* sticky: only a root-owned one, like /tmp, may be world-writable */
	ck_assert_int_eq(chmod(dir, 01777), 0);
	if (geteuid() == 0)
		expect_trusted(ok);
	else
		expect_distrusted(ok, "(mode 1777)");
	ck_assert_int_eq(chmod(dir, 0700), 0);
	snprintf(sub, sizeof sub, "%s/fifo.so", dir);
	ck_assert_int_eq(mkfifo(sub, 0600), 0);
	expect_distrusted(sub, "fifo.so: a FIFO, not a regular file");
	expect_distrusted(dir, ": a directory, not a regular file");
	expect_distrusted("/dev/zero", "/dev/zero: a character device, not a regular file");
	free(dir);
}
END_TEST

/* Symbolic links are walked: each directory on the way to the target is
 * checked, and `..` is taken after the links, as the kernel takes it. */
START_TEST(trust_links_and_dots)
{
	char *dir = temp_dir(), open_dir[4200], link[4300], dots[4300];
	snprintf(open_dir, sizeof open_dir, "%s/open", dir);
	ck_assert_int_eq(mkdir(open_dir, 0700), 0);
	const char *inside = copy_plugin(open_dir, "x.so", 0755);
	snprintf(link, sizeof link, "%s/link.so", dir);
	ck_assert_int_eq(symlink(inside, link), 0);
	expect_trusted(link);
	snprintf(dots, sizeof dots, "%s/open/../open/./x.so", dir);
	expect_trusted(dots);
	ck_assert_int_eq(chmod(open_dir, 0777), 0);
	expect_distrusted(link, "/open is writable by group or others");
	ck_assert_int_eq(chmod(open_dir, 0700), 0);
	snprintf(link, sizeof link, "%s/loop.so", dir);
	ck_assert_int_eq(symlink(link, link), 0);
	expect_distrusted(link, "Too many levels of symbolic links");
	expect_distrusted("/nonexistent/gone.so", "/nonexistent/gone.so: cannot open shared object file: No such file");
	expect_distrusted("fake.so", "not an absolute path");
	expect_distrusted("sub/fake.so", "not an absolute path");
	expect_distrusted("../fake.so", "not an absolute path");
	free(dir);
}
END_TEST

/* Run as root, the owner rule: anyone's file but root's is refused. */
START_TEST(trust_owners)
{
	if (geteuid() != 0)
		return; /* only root can give a file away */
	char *dir = temp_dir(), sub[4200], link[4300];
	const char *file = copy_plugin(dir, "theirs.so", 0755);
	ck_assert_int_eq(chown(file, 12345, 12345), 0);
	expect_distrusted(file, "the file is owned by uid 12345, not by root or you (uid 0)");
	snprintf(sub, sizeof sub, "%s/theirs", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	const char *in_theirs = copy_plugin(sub, "x.so", 0755);
	ck_assert_int_eq(chown(sub, 12345, 12345), 0);
	expect_distrusted(in_theirs, "/theirs is owned by uid 12345");
	const char *mine = copy_plugin(dir, "mine.so", 0755);
	snprintf(link, sizeof link, "%s/their-link.so", dir);
	ck_assert_int_eq(symlink(mine, link), 0);
	ck_assert_int_eq(lchown(link, 12345, 12345), 0);
	expect_distrusted(link, "symbolic link");
	expect_distrusted(link, "is owned by uid 12345");
	free(dir);
}
END_TEST

START_TEST(trust_bare_names)
{
	ck_assert(trust_bare_name("reduce.so"));
	ck_assert(trust_bare_name("libz.so.1"));
	ck_assert(!trust_bare_name(""));
	ck_assert(!trust_bare_name("."));
	ck_assert(!trust_bare_name(".."));
	ck_assert(!trust_bare_name("..so"));
	ck_assert(!trust_bare_name("a/b.so"));
	ck_assert(!trust_bare_name("/abs.so"));
}
END_TEST

/* gpulab list refuses them, each in one line, and lists the rest; a FIFO
 * named by `file =` does not hang it. */
/* Paths from INI files reach the terminal escaped in `gpulab list` too. */
START_TEST(cli_list_escapes_paths)
{
	char ini[4096], dir[4200];
	char *tmp = temp_dir();
	snprintf(dir, sizeof dir, "%s/esc\x1b[2Jdir", tmp);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	char cmd[8600];
	snprintf(cmd, sizeof cmd, "cp %s/fake.so '%s/fake.so'", getenv("GPULAB_TEST_PLUGINS"), dir);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(ini, sizeof ini, "[plugin fake]\nfile = %s/fake.so\n", dir);
	lab_setup(ini);
	lab_run(NULL, "list", NULL);
	ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.err);
	ck_assert_msg(strstr(o.out, "esc\\x1b[2Jdir") && !strchr(o.out, '\x1b'), "%s", o.out);
	free(tmp);
}
END_TEST

START_TEST(cli_plugin_trust)
{
	char *dir = temp_dir(), ini[8192], fifo[4200];
	const char *shared = copy_plugin(dir, "fake.so", 0666);
	snprintf(fifo, sizeof fifo, "%s/fifo.so", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	snprintf(ini, sizeof ini, "[plugin fake]\nfile = %s\n[plugin fifo]\nfile = %s\n"
		 "[plugin rel]\nfile = ../fake.so\n[plugin z]\nfile = libz.so.1\n", shared, fifo);
	lab_setup(ini);
	lab_run(NULL, "list", NULL);
	ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.err); /* none was asked for (issue 46) */
	ck_assert_msg(count_lines(o.err) == 4, "%s", o.err);
	ck_assert_msg(strstr(o.err, "fake.so: the file is writable by group or others (mode 0666)"), "%s", o.err);
	ck_assert_msg(strstr(o.err, "fifo.so: a FIFO, not a regular file"), "%s", o.err);
	ck_assert_msg(strstr(o.err, "../fake.so: not an absolute path"), "%s", o.err);
	snprintf(fifo, sizeof fifo, "no libz.so.1 in %s or ", getenv("GPULAB_TEST_PLUGINS"));
	ck_assert_msg(strstr(o.err, fifo), "a bare name went past the plugin directory: %s", o.err);
	/* the good copy loads, from an absolute path or through the path */
	chmod(shared, 0644);
	snprintf(ini, sizeof ini, "[plugin fake]\nfile = %s\n", shared);
	lab_setup(ini);
	lab_run(NULL, "list", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "fake.ok"), "exit %d: %s", o.status, o.err);
	lab_setup("[plugin fake]\nfile = fake.so\n");
	lab_run(env_entry("GPULAB_PLUGIN_PATH", "::relative/dir"), "run", "fake.ok", NULL);
	expect_refusal(EXIT_PLUGIN, "relative/dir/fake.so: not an absolute path");
	free(dir);
}
END_TEST

int main(void)
{
	if (!getenv("GPULAB_BIN") || !getenv("GPULAB_TEST_PLUGINS")) {
		fprintf(stderr, "GPULAB_BIN and GPULAB_TEST_PLUGINS must be set (make check sets them)\n");
		return 99;
	}
	run_cmd_alarm(10);
	Suite *s = suite_create("hostile");
	TCase *t = tcase_create("hostile");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, size_powers_exact);
	tcase_add_test(t, size_powers_overflow);
	tcase_add_test(t, config_not_regular);
	tcase_add_test(t, config_size_cap);
	tcase_add_test(t, config_long_lines);
	tcase_add_test(t, config_no_continuation);
	tcase_add_test(t, config_bad_bytes);
	tcase_add_test(t, config_section_names);
	tcase_add_test(t, config_dropins_unreadable);
	tcase_add_test(t, config_xdg);
	tcase_add_test(t, config_xdg_not_regular);
	tcase_add_test(t, cli_config_fifos);
	tcase_add_test(t, cli_config_others_may_write);
	tcase_add_test(t, cli_list_escapes_paths);
	tcase_add_test(t, cli_config_not_files);
	tcase_add_test(t, cli_config_long_line);
	tcase_add_test(t, options_errors_name_the_option);
	tcase_add_test(t, options_ambiguous_abbreviations);
	tcase_add_test(t, options_parse_twice);
	tcase_add_test(t, escape_passes_utf8);
	tcase_add_test(t, escape_controls_and_bad_utf8);
	tcase_add_test(t, escape_html);
	tcase_add_test(t, escape_into_cuts_whole_pieces);
	tcase_add_test(t, cli_errors_escaped);
	tcase_add_test(t, cli_no_driver);
	tcase_add_test(t, trust_modes);
	tcase_add_test(t, trust_links_and_dots);
	tcase_add_test(t, trust_owners);
	tcase_add_test(t, trust_bare_names);
	tcase_add_test(t, cli_plugin_trust);
	suite_add_tcase(s, t);
	return run_suite(s, 0);
}
