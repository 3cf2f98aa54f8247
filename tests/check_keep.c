/* Nothing measured is lost (issue 28), and records that last (issue 37),
 * without a GPU: the built gpulab on the host-only fake plugin's sleepy,
 * loses and wrongat exercises, interrupted by signals, killed, resumed,
 * and stopped by a lost device; its journal pointed at what it must
 * refuse, written by two at once, torn at every byte.  Each checks the
 * rows printed, the record on disk (read back as every reader reads it)
 * against docs/record.schema.json, the temporaries left, and the exit
 * code. */
#include "config.h"

#include "exitcode.h"
#include "io/journal.h"
#include "io/outfile.h"
#include "records/json.h"
#include "records/ondisk.h"
#include "records/record.h"
#include "records/resume.h"
#include "schema.h"
#include "testutil.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[4096], env_sys[4200], env_path[4200], env_xdg[4200], env_log[4200], env_sleep[64];
static char env_setup[64], env_verify[64]; /* the sleepy exercise's setup and verify, 0 ms unless a test says */
static char record[4200], runs_log[4200];
static const char *bin;
static struct cmd_result o;

/* The plugins of ini, and a record and a run log in a fresh dir; each
 * run of the sleepy exercise sleeps sleep_ms. */
static void configure_with(const char *ini, int sleep_ms)
{
	char *d = temp_dir();
	snprintf(dir, sizeof dir, "%s", d);
	free(d);
	write_file(dir, "gpulab.ini", ini);
	snprintf(env_sys, sizeof env_sys, "GPULAB_SYSCONFDIR=%s", dir);
	snprintf(env_path, sizeof env_path, "GPULAB_PLUGIN_PATH=%s", getenv("GPULAB_TEST_PLUGINS"));
	snprintf(env_xdg, sizeof env_xdg, "XDG_CONFIG_HOME=%s", dir);
	snprintf(runs_log, sizeof runs_log, "%s/runs.log", dir);
	snprintf(env_log, sizeof env_log, "FAKE_RUNS_LOG=%s", runs_log);
	snprintf(env_sleep, sizeof env_sleep, "FAKE_SLEEP_MS=%d", sleep_ms);
	snprintf(env_setup, sizeof env_setup, "FAKE_SETUP_MS=0");
	snprintf(env_verify, sizeof env_verify, "FAKE_VERIFY_MS=0");
	snprintf(record, sizeof record, "%s/sweep.json", dir);
}

/* The fake plugin alone. */
static void configure(int sleep_ms)
{
	configure_with("[plugin fake]\nfile = fake.so\n", sleep_ms);
}

static char *const *env(void)
{
	static char *e[10];
	e[0] = env_sys, e[1] = env_path, e[2] = env_xdg, e[3] = env_log, e[4] = env_sleep, e[5] = "GPULAB_CONFIG=";
	e[6] = env_setup, e[7] = env_verify, e[8] = NULL;
	return e;
}

static void gpulab(const char *first, ...)
{
	va_list ap;
	va_start(ap, first);
	run_cmd_va(&o, bin, env(), first, ap);
	va_end(ap);
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static char out_path[4200], err_path[4200];

/* gpulab started in the background, its stdout and stderr to files in
 * dir; argv NULL-terminated, bin first. */
static pid_t start(char *const argv[])
{
	snprintf(out_path, sizeof out_path, "%s/stdout", dir);
	snprintf(err_path, sizeof err_path, "%s/stderr", dir);
	return spawn_cmd(argv, env(), out_path, err_path);
}

/* Its exit code, or 128 + the signal that ended it; and its output. */
static int finish(pid_t pid)
{
	int status = wait_cmd(pid);
	read_text(out_path, o.out, sizeof o.out);
	read_text(err_path, o.err, sizeof o.err);
	return status;
}

/* The record on disk as every reader reads it (records/ondisk.h), or
 * NULL where there is none (yet); what was found in `found`. */
static struct ondisk found;

static struct json *read_record(void)
{
	char err[512];
	return ondisk_read(record, 64 << 20, &found, err, sizeof err);
}

/* How many of the record's points have the status. */
static size_t count_status(const struct json *doc, const char *status)
{
	const struct json *r = json_get(doc, "results");
	size_t n = 0;
	for (size_t i = 0; i < json_len(r); i++)
		n += !strcmp(json_string(json_get(json_index(r, i), "status")), status);
	return n;
}

/* Wait until the checkpointed record holds k points done (at most 20 s). */
static void wait_for_points(size_t k)
{
	for (double t0 = now(); now() - t0 < 20; usleep(5000)) {
		struct json *doc = read_record();
		size_t done = doc ? count_status(doc, "ok") : 0;
		json_free(doc);
		if (done >= k)
			return;
	}
	ck_abort_msg("the record never held %zu points", k);
}

/* The record holds to docs/record.schema.json; returned for more checks. */
static struct json *valid_record(void)
{
	char path[4200], err[512];
	snprintf(path, sizeof path, "%s/docs/record.schema.json", getenv("srcdir") ? getenv("srcdir") : "..");
	struct json *schema = json_read_file(path, 1 << 20, err, sizeof err), *doc = read_record();
	ck_assert_msg(schema != NULL, "%s", err);
	ck_assert_msg(doc != NULL, "the record is not JSON");
	ck_assert_msg(schema_check(doc, schema, err, sizeof err) == 0, "%s", err);
	json_free(schema);
	return doc;
}

static const char *point_status(const struct json *doc, size_t i)
{
	return json_string(json_get(json_index(json_get(doc, "results"), i), "status"));
}

static const char *point_message(const struct json *doc, size_t i)
{
	return json_string(json_get(json_index(json_get(doc, "results"), i), "message"));
}

static int lines_in(const char *path)
{
	static char text[65536];
	return count_lines(read_text(path, text, sizeof text));
}

/* 9 points, 5 runs of sleep_ms each, no warm-up. */
#define SWEEP(fmt) { (char *)bin, "run", "fake.sleepy", "-n", "64:2^14", "-r", "5", "-w", "0", "--format", (char *)fmt, \
		     "-o", record, NULL }

/* The 9-point sweep in fmt, sig sent once `after` points are done: it
 * ends 128 + sig, and its record holds to the schema. */
static struct json *sweep_stopped(int sig, size_t after, const char *fmt)
{
	char *argv[] = SWEEP(fmt);
	configure(20);
	pid_t pid = start(argv);
	wait_for_points(after);
	/* results as they come: a point's row is out before its record is */
	const char *row = !strcmp(fmt, "csv") ? "\"fake.sleepy\",\"int\"" : "fake.sleepy int ";
	ck_assert_int_ge(occurrences(read_text(out_path, o.out, sizeof o.out), row), (int)after);
	kill(pid, sig);
	ck_assert_int_eq(finish(pid), 128 + sig);
	return valid_record();
}

/* SIGINT, SIGTERM or SIGHUP once 3 points are done: the rows done are
 * printed, the record says interrupted and why, its other points are
 * not run, no temporary is left, and the exit code is 128 + the signal. */
static void interrupt_with(int sig, const char *name, const char *fmt)
{
	char why[64];
	struct json *doc = sweep_stopped(sig, 3, fmt);
	size_t done = count_status(doc, "ok");
	ck_assert_int_eq(json_len(json_get(doc, "results")), 9);
	ck_assert_int_eq(done + count_status(doc, "not run"), 9);
	ck_assert_msg(done >= 3 && done < 9, "%zu done", done);
	ck_assert_int_eq(json_bool(json_get(doc, "interrupted")), 1);
	ck_assert_str_eq(json_string(json_get(doc, "interruption")), name);
	snprintf(why, sizeof why, "interrupted by %s", name);
	ck_assert_str_eq(point_message(doc, 8), why);
	ck_assert_str_eq(point_status(doc, done), "not run");
	/* a row for every point done, as it was done */
	ck_assert_int_eq(occurrences(o.out, !strcmp(fmt, "csv") ? "\"fake.sleepy\",\"int\"" : "fake.sleepy int "),
			 !strcmp(fmt, "csv") ? 9 : (int)done);
	if (!strcmp(fmt, "csv"))
		ck_assert_int_eq(occurrences(o.out, "\"not run\""), (int)(9 - done));
	ck_assert_int_eq(count_temporaries(dir), 0);
	ck_assert_msg(strstr(o.err, why) && count_lines(o.err) == 1, "%s", o.err);
	json_free(doc);
}

START_TEST(sigint_keeps_what_was_done)
{
	interrupt_with(SIGINT, "SIGINT", "table");
}
END_TEST

START_TEST(sigterm_keeps_what_was_done)
{
	interrupt_with(SIGTERM, "SIGTERM", "csv");
}
END_TEST

START_TEST(sighup_keeps_what_was_done)
{
	interrupt_with(SIGHUP, "SIGHUP", "table");
}
END_TEST

/* fake.sleepy at 64 and 128, r runs each, sent SIGINT `ms` after the
 * first point's setup began: the run exits 130 within a second of the
 * signal, and nothing good is replaced by nothing: there was no record,
 * and there is none (earlier_record_untouched has one, which stays as
 * it was); no temporary is left. */
static void interrupt_after(const char *r, long ms)
{
	char *argv[] = { (char *)bin, "run", "fake.sleepy", "-n", "64,128", "-r", (char *)r, "-w", "0", "-o", record, NULL };
	pid_t pid = start(argv);
	for (double t0 = now(); lines_in(runs_log) < 1 && now() - t0 < 10; usleep(2000))
		;
	usleep(ms * 1000);
	double t0 = now();
	kill(pid, SIGINT);
	ck_assert_int_eq(finish(pid), 130);
	/* about one sample (20 ms); the bound, far past it, tells stopping from running on */
	ck_assert_msg(now() - t0 < 10.0, "took %.2f s to stop", now() - t0);
	ck_assert_msg(strstr(o.err, "interrupted by SIGINT: 0 points done, 2 not run") && count_lines(o.err) == 1, "%s",
		      o.err);
	ck_assert_int_eq(access(record, F_OK), -1);
	ck_assert_int_eq(count_temporaries(dir), 0);
}

/* A point that would take 10 s more (500 runs of 20 ms) stops at the
 * next sample, well within a second of the signal. */
START_TEST(signal_stops_within_a_point)
{
	configure(20);
	interrupt_after("500", 300);
}
END_TEST

/* A huge point's setup (600 ms here) ends before the signal is seen, but
 * no sample is taken after it; the CPU check after the last sample (3 s
 * here) is not begun, nor would --metrics passes be: the point is
 * stopped between its steps. */
START_TEST(signal_stops_between_steps)
{
	configure(20);
	snprintf(env_setup, sizeof env_setup, "FAKE_SETUP_MS=600");
	interrupt_after("1", 100);
	configure(300); /* the signal in the one sample's run, before the check */
	snprintf(env_verify, sizeof env_verify, "FAKE_VERIFY_MS=3000");
	interrupt_after("1", 100);
}
END_TEST

/* A second SIGINT more than a second after the first ends it at once,
 * mid-step (a setup that no signal cuts short), and the journal on disk
 * then says the run did not finish: the point done, no closing entry, no
 * temporary beside it; and every reader says so.  Its exit status is its
 * own (14), not the graceful stop's 130 (issue 46). */
START_TEST(second_sigint_ends_at_once)
{
	char *argv[] = { (char *)bin, "run", "fake.sleepy", "-n", "64:1024", "-r", "1", "-w", "0", "-o", record, NULL };
	configure(1);
	snprintf(env_setup, sizeof env_setup, "FAKE_SETUP_MS=1500");
	pid_t pid = start(argv);
	wait_for_points(1);
	usleep(100000); /* into the next point's setup */
	kill(pid, SIGINT);
	usleep(1100000);
	double t0 = now();
	kill(pid, SIGINT);
	ck_assert_int_eq(finish(pid), EXIT_AT_ONCE); /* not 130: no closing line */
	ck_assert_msg(now() - t0 < 0.3, "took %.2f s to end", now() - t0);
	ck_assert_str_eq(o.err, ""); /* ended at once: no summary */
	struct json *doc = valid_record();
	ck_assert_int_eq(found.finished, 0);
	ck_assert_int_eq(json_len(json_get(doc, "results")), 1);
	ck_assert_int_eq(count_status(doc, "ok"), 1);
	ck_assert_int_eq(json_bool(json_get(doc, "interrupted")), 1);
	ck_assert_str_eq(json_string(json_get(doc, "interruption")), "the run did not finish: its journal has no closing entry");
	ck_assert_int_eq(count_temporaries(dir), 0);
	json_free(doc);
	gpulab("compare", record, record, NULL);
	ck_assert_msg(o.status == 0 && count_lines(o.err) == 2
		      && strstr(o.err, "sweep.json: the run did not finish (its journal has no closing entry): 1 point recorded\n"),
		      "%s", o.err);
	gpulab("run", "fake.sleepy", "-n", "64:1024", "-r", "1", "-w", "0", "-o", record, "--resume", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.err, "1 point recorded\n") && count_lines(o.err) == 1, "%s", o.err);
	doc = valid_record();
	ck_assert_int_eq(found.finished, 1);
	ck_assert_int_eq(count_status(doc, "ok"), 5);
	json_free(doc);
}
END_TEST

/* The same signal twice within a second, as `timeout -s INT` sends it (to
 * the process and to its group), is one: the run stops as for one, says
 * so, and its record says it was interrupted.  fake.threaded keeps a
 * thread that takes signals as CUDA's runtime's do, so the two copies may
 * be handled at once on two threads: tried 5 times, 0 to 3 ms apart. */
START_TEST(same_signal_twice_is_one)
{
	char *argv[] = { (char *)bin, "run", "fake.threaded", "-n", "64:2^20", "-r", "20000", "-w", "0", "-o", record, NULL };
	for (int k = 0; k < 5; k++) {
		configure(0);
		pid_t pid = start(argv);
		wait_for_points(1);
		kill(pid, SIGINT);
		if (k)
			usleep(1000 * (k - 1));
		kill(pid, SIGINT);
		ck_assert_int_eq(finish(pid), 130);
		ck_assert_msg(strstr(o.err, "gpulab: interrupted by SIGINT: ") && count_lines(o.err) == 1, "%s", o.err);
		struct json *doc = valid_record();
		ck_assert_int_eq(found.finished, 1);
		ck_assert_int_eq(json_bool(json_get(doc, "interrupted")), 1);
		ck_assert_str_eq(json_string(json_get(doc, "interruption")), "SIGINT");
		ck_assert_int_eq(count_temporaries(dir), 0);
		json_free(doc);
	}
}
END_TEST

/* kill -9: the record on disk holds every point done before it. */
START_TEST(kill9_keeps_every_completed_point)
{
	struct json *doc = sweep_stopped(SIGKILL, 4, "table");
	size_t done = count_status(doc, "ok"), begun = (size_t)lines_in(runs_log);
	/* every point begun is in the record, but the one in progress; and no
	 * closing entry: a run that did not finish */
	ck_assert_msg(done >= 4 && (done == begun || done + 1 == begun), "%zu done, %zu begun", done, begun);
	ck_assert_int_eq(json_len(json_get(doc, "results")), done);
	ck_assert_int_eq(found.finished, 0);
	for (size_t i = 0; i < done; i++)
		ck_assert_str_eq(point_status(doc, i), "ok");
	json_free(doc);
}
END_TEST

/* The median text of point i, to see a kept point kept as it was. */
static void median_of(const struct json *doc, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "%s", json_number_text(json_get(json_index(json_get(doc, "results"), i), "median_ms")));
}

/* --resume runs exactly the points the record lacks, keeps the others as
 * they were, and a second --resume runs none. */
START_TEST(resume_runs_only_what_is_missing)
{
	char before[3][64], after[64];
	struct json *doc = sweep_stopped(SIGINT, 3, "table");
	size_t done = count_status(doc, "ok");
	for (size_t i = 0; i < 3; i++)
		median_of(doc, i, before[i], sizeof before[i]);
	json_free(doc);
	unlink(runs_log);
	gpulab("run", "fake.sleepy", "-n", "64:2^14", "-r", "5", "-w", "0", "-o", record, "--resume", NULL);
	ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.err);
	ck_assert_int_eq(lines_in(runs_log), (int)(9 - done));
	ck_assert_int_eq(occurrences(o.out, "fake.sleepy int "), (int)(9 - done));
	char kept[128];
	snprintf(kept, sizeof kept, "%zu of 9 points kept from it, %zu to run", done, 9 - done);
	ck_assert_msg(strstr(o.out, kept), "%s", o.out);
	ck_assert_msg(!strstr(o.out, "NOISY"), "a kept point is no row of this run's: %s", o.out);
	doc = valid_record();
	ck_assert_int_eq(count_status(doc, "ok"), 9);
	ck_assert_int_eq(json_bool(json_get(doc, "interrupted")), 0);
	for (size_t i = 0; i < 3; i++) {
		median_of(doc, i, after, sizeof after);
		ck_assert_str_eq(after, before[i]);
	}
	json_free(doc);
	unlink(runs_log);
	gpulab("run", "fake.sleepy", "-n", "64:2^14", "-r", "5", "-w", "0", "-o", record, "--resume", NULL);
	ck_assert_int_eq(o.status, 0);
	ck_assert_int_eq(lines_in(runs_log), 0);
	ck_assert_int_eq(count_temporaries(dir), 0);
}
END_TEST

/* A run killed during its first point leaves no FILE (nothing good is
 * replaced by nothing) but its temporary; the retry loop `until gpulab
 * run ... -o FILE --resume; do :; done`, bounded here at 5 tries, then
 * ends at its first: with nothing to resume it starts afresh, says so in
 * one line, and writes the whole record (issue 46). */
START_TEST(resume_retry_loop_after_kill_in_first_point)
{
	char *argv[] = { (char *)bin, "run", "fake.sleepy", "-n", "64,128", "-r", "50", "-w", "0", "-o", record, NULL };
	int tries = 0;
	configure(20);
	pid_t pid = start(argv);
	for (double t0 = now(); lines_in(runs_log) < 1 && now() - t0 < 10; usleep(2000))
		;
	kill(pid, SIGKILL);
	ck_assert_int_eq(finish(pid), 128 + SIGKILL);
	ck_assert_int_eq(access(record, F_OK), -1);
	configure(0);
	do
		gpulab("run", "fake.sleepy", "-n", "64,128", "-r", "5", "-w", "0", "-o", record, "--resume", NULL);
	while (o.status != 0 && ++tries < 5);
	ck_assert_msg(o.status == 0 && tries == 0, "%d retries, exit %d: %s", tries, o.status, o.err);
	ck_assert_msg(count_lines(o.err) == 1
		      && strstr(o.err, "gpulab: --resume: ") && strstr(o.err, "sweep.json does not exist: nothing to resume, so all 2 points run\n"),
		      "%s", o.err);
	struct json *doc = valid_record();
	ck_assert_int_eq(found.finished, 1);
	ck_assert_int_eq(count_status(doc, "ok"), 2);
	ck_assert_int_eq(count_temporaries(dir), 0);
	json_free(doc);
}
END_TEST

/* --resume copies a journal's kept rows as they were written, byte for
 * byte (issue 46): it wrote each row's tree again, building a node for
 * every sample (811 MB and 8.8 s for 5 million; bench/record.sh), and
 * 1.50e-3 came back 0.0015. */
START_TEST(resume_copies_kept_rows_as_written)
{
	static char good[1 << 16], after[1 << 16];
	char line[1 << 14];
	configure(1);
	gpulab("run", "fake.sleepy", "-n", "64,128", "-r", "3", "-w", "0", "-o", record, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	read_text(record, good, sizeof good);
	const char *at = strstr(good, "\"samples_ms\": [");
	ck_assert_ptr_nonnull(at);
	at += strlen("\"samples_ms\": [");
	snprintf(after, sizeof after, "%.*s1.50e-3, %s", (int)(at - good), good, at);
	write_file(dir, "sweep.json", after);
	const char *second = strchr(after, '\n') + 1;
	snprintf(line, sizeof line, "%.*s", (int)(strchr(second, '\n') + 1 - second), second);
	gpulab("run", "fake.sleepy", "-n", "64,128", "-r", "3", "-w", "0", "-o", record, "--resume", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "2 of 2 points kept"), "%s%s", o.out, o.err);
	read_text(record, good, sizeof good);
	ck_assert_msg(strstr(good, line) != NULL, "%s", good);
}
END_TEST

/* A resumed run interrupted in turn: what it says it did and left counts
 * its own points, not those it kept. */
START_TEST(resumed_run_interrupted_again)
{
	char *resume[16] = SWEEP("table"), words[256]; /* room for --resume */
	struct json *doc = sweep_stopped(SIGINT, 2, "table");
	size_t first = count_status(doc, "ok");
	json_free(doc);
	resume[13] = "--resume";
	pid_t pid = start(resume);
	wait_for_points(first + 2);
	kill(pid, SIGINT);
	ck_assert_int_eq(finish(pid), 130);
	doc = valid_record();
	size_t now = count_status(doc, "ok");
	ck_assert_int_eq(now + count_status(doc, "not run"), 9);
	ck_assert_msg(now >= first + 2 && now < 9, "%zu then %zu", first, now);
	snprintf(words, sizeof words, "gpulab: interrupted by SIGINT: %zu points done, %zu not run; ", now - first, 9 - now);
	ck_assert_msg(!strncmp(o.err, words, strlen(words)), "%s", o.err);
	snprintf(words, sizeof words, "fake.sleepy: not run (%zu points): interrupted by SIGINT\n", 9 - now);
	ck_assert_msg(strstr(o.out, words), "%s", o.out);
	ck_assert_int_eq(occurrences(o.out, "fake.sleepy int "), (int)(now - first));
	json_free(doc);
}
END_TEST

/* A point the record lacks because the run was larger then it is now
 * (another -n): only the new sizes run, and the record keeps the old
 * ones it has that this run does not plan. */
START_TEST(resume_keeps_points_it_does_not_plan)
{
	configure(1);
	gpulab("run", "fake.sleepy", "-n", "64,128", "-r", "3", "-o", record, NULL);
	ck_assert_int_eq(o.status, 0);
	unlink(runs_log);
	gpulab("run", "fake.sleepy", "-n", "128,256", "-r", "3", "-o", record, "--resume", NULL);
	ck_assert_int_eq(o.status, 0);
	ck_assert_int_eq(lines_in(runs_log), 1);
	struct json *doc = valid_record();
	const struct json *r = json_get(doc, "results");
	ck_assert_int_eq(json_len(r), 3);
	/* in the order written: the point kept, the one not planned, the one run */
	ck_assert_str_eq(json_number_text(json_get(json_get(json_index(r, 0), "params"), "n")), "128");
	ck_assert_str_eq(json_number_text(json_get(json_get(json_index(r, 1), "params"), "n")), "64");
	ck_assert_str_eq(json_number_text(json_get(json_get(json_index(r, 2), "params"), "n")), "256");
	json_free(doc);
}
END_TEST

/* A device lost at n = 256 (the fake's sticky failure): that point is an
 * ERROR with its message, every later one, of this exercise and the
 * next, is not run with the reason, the record is written, exit 8. */
START_TEST(lost_device_ends_the_run)
{
	static const char *const want[] = { "ok", "ok", "ERROR", "not run", "not run", "not run", "not run" };
	configure(1);
	gpulab("run", "fake.loses", "fake.keyed", "-n", "64:1024", "-r", "3", "-o", record, NULL);
	ck_assert_int_eq(o.status, EXIT_CUDA);
	struct json *doc = valid_record();
	ck_assert_int_eq(json_len(json_get(doc, "results")), 10);
	for (size_t i = 0; i < 7; i++)
		ck_assert_str_eq(point_status(doc, i), want[i]);
	ck_assert_int_eq(count_status(doc, "not run"), 7);
	ck_assert_str_eq(point_message(doc, 2), "kernel: unspecified launch failure (a trap)");
	ck_assert_str_eq(point_message(doc, 3), "the CUDA context was lost at fake.loses n=256 int");
	ck_assert_str_eq(point_message(doc, 9), "the CUDA context was lost at fake.loses n=256 int");
	ck_assert_int_eq(json_bool(json_get(doc, "interrupted")), 1);
	ck_assert_str_eq(json_string(json_get(doc, "interruption")), "the CUDA context was lost at fake.loses n=256 int");
	ck_assert_msg(occurrences(o.out, "fake.loses int ") == 3, "%s", o.out);
	ck_assert_int_eq(occurrences(o.out, "fake.keyed int "), 0);
	ck_assert_msg(strstr(o.err, "gpulab: the CUDA context was lost at fake.loses n=256 int: 3 points done, 7 not run; ")
		      && count_lines(o.err) == 1, "%s", o.err);
	ck_assert_int_eq(count_temporaries(dir), 0);
	json_free(doc);
	/* resumed: the ERROR is not kept but run again (issue 46), and the
	 * fake loses its device at n = 256 every time: the two ok points
	 * kept, that one run, and the rest not run again */
	gpulab("run", "fake.loses", "fake.keyed", "-n", "64:1024", "-r", "3", "-o", record, "--resume", NULL);
	ck_assert_int_eq(o.status, EXIT_CUDA);
	ck_assert_msg(occurrences(o.out, "fake.loses int ") == 1, "%s", o.out);
	ck_assert_msg(strstr(o.out, "2 of 10 points kept from it, 8 to run"), "%s", o.out);
	doc = valid_record();
	ck_assert_int_eq(json_len(json_get(doc, "results")), 10);
	ck_assert_int_eq(count_status(doc, "ok"), 2);
	ck_assert_int_eq(count_status(doc, "ERROR"), 1);
	ck_assert_int_eq(count_status(doc, "not run"), 7);
	json_free(doc);
}
END_TEST

/* A wrong result, then a lost device: the lost device's 8 wins over the
 * wrong result's 1, since it cost every point after it. */
START_TEST(lost_device_wins_over_a_wrong_result)
{
	static const char *const want[] = { "ok", "ok", "FAILED", "ok", "ok", "ok", "ok", "ERROR", "not run", "not run" };
	configure(1);
	gpulab("run", "fake.wrongat", "fake.loses", "-n", "64:1024", "-r", "3", "-o", record, NULL);
	ck_assert_msg(o.status == EXIT_CUDA, "exit %d: %s", o.status, o.err);
	struct json *doc = valid_record();
	ck_assert_int_eq(json_len(json_get(doc, "results")), 10);
	for (size_t i = 0; i < 10; i++)
		ck_assert_str_eq(point_status(doc, i), want[i]);
	json_free(doc);
	/* lost at the last point: nothing was left undone, so the record is
	 * not interrupted and nothing is said of stopping, but the exit is 8 */
	gpulab("run", "fake.wrongat", "fake.loses", "-n", "64:256", "-r", "3", "-o", record, NULL);
	ck_assert_msg(o.status == EXIT_CUDA, "exit %d: %s", o.status, o.err);
	doc = valid_record();
	ck_assert_int_eq(count_status(doc, "not run"), 0);
	ck_assert_str_eq(point_status(doc, 5), "ERROR");
	ck_assert_int_eq(json_bool(json_get(doc, "interrupted")), 0);
	ck_assert_str_eq(o.err, "");
	json_free(doc);
}
END_TEST

/* Only a measured point replaces a record (issue 46): a run whose first
 * point errors (fake.picky -n 4096 refuses in setup, exit 7;
 * fake.failsetup, exit 10) leaves a good record byte for byte, says so in
 * one line, and leaves no temporary; where there was no record it writes
 * one, replacing nothing.  A run whose unmeasured points come before a
 * measured one writes them all, in order, once that one is done. */
START_TEST(unmeasured_run_keeps_the_record)
{
	static char good[1 << 16], after[1 << 16];
	static const struct { const char *ex, *n; int status; } errs[] = {
		{ "fake.picky", "4096", EXIT_PARAM }, { "fake.failsetup", "64", EXIT_NOMEM },
	};
	configure(1);
	gpulab("run", "fake.ok", "-n", "64", "-r", "3", "-o", record, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	read_text(record, good, sizeof good);
	for (size_t i = 0; i < 2; i++) {
		gpulab("run", errs[i].ex, "-n", errs[i].n, "-r", "3", "-o", record, NULL);
		ck_assert_msg(o.status == errs[i].status, "%s: exit %d: %s", errs[i].ex, o.status, o.err);
		ck_assert_str_eq(read_text(record, after, sizeof after), good);
		ck_assert_msg(occurrences(o.err, "sweep.json is as it was: no point was measured to replace it with\n") == 1,
			      "%s", o.err);
		ck_assert_int_eq(count_temporaries(dir), 0);
	}
	/* the unmeasured first, then a measured one: all written */
	gpulab("run", "fake.failsetup", "fake.wrong", "fake.keyed", "-n", "64", "-r", "3", "-o", record, NULL);
	ck_assert_int_eq(o.status, EXIT_NOMEM);
	struct json *doc = valid_record();
	ck_assert_int_eq(json_len(json_get(doc, "results")), 3);
	ck_assert_str_eq(point_status(doc, 0), "ERROR");
	ck_assert_str_eq(point_status(doc, 1), "FAILED");
	ck_assert_str_eq(point_status(doc, 2), "ok");
	ck_assert_int_eq(found.finished, 1);
	json_free(doc);
	/* no record to replace: the ERROR is the record */
	unlink(record);
	gpulab("run", "fake.failsetup", "-n", "64", "-r", "3", "-o", record, NULL);
	ck_assert_int_eq(o.status, EXIT_NOMEM);
	doc = valid_record();
	ck_assert_int_eq(json_len(json_get(doc, "results")), 1);
	ck_assert_str_eq(point_status(doc, 0), "ERROR");
	json_free(doc);
	/* resumed, it runs again, and the record carries what it had */
	gpulab("run", "fake.failsetup", "-n", "64", "-r", "3", "-o", record, "--resume", NULL);
	ck_assert_int_eq(o.status, EXIT_NOMEM);
	ck_assert_msg(strstr(o.out, "0 of 1 points kept from it, 1 to run"), "%s", o.out);
	doc = valid_record();
	ck_assert_int_eq(json_len(json_get(doc, "results")), 1);
	json_free(doc);
}
END_TEST

/* One point failing verification in the middle of a sweep: the points
 * on both sides are measured and kept, and it is too, FAILED. */
START_TEST(failing_point_keeps_both_sides)
{
	static const char *const want[] = { "ok", "ok", "FAILED", "ok", "ok" };
	configure(1);
	gpulab("run", "fake.wrongat", "-n", "64:1024", "-r", "3", "-o", record, NULL);
	ck_assert_int_eq(o.status, EXIT_WRONG);
	struct json *doc = valid_record();
	ck_assert_int_eq(json_len(json_get(doc, "results")), 5);
	for (size_t i = 0; i < 5; i++)
		ck_assert_str_eq(point_status(doc, i), want[i]);
	ck_assert_str_eq(point_message(doc, 2), "sum: expected 42, got 41");
	ck_assert_int_eq(json_bool(json_get(doc, "interrupted")), 0);
	ck_assert_int_eq(occurrences(o.out, "fake.wrongat int "), 5);
	json_free(doc);
}
END_TEST

/* gpulab try with a kernel that traps (the try fake's `gated`, FAKE_TRY
 * in tests/plugins/fake.c), and the try plugin alone, so no peer's rows
 * run beside it. */
static void configure_try(void)
{
	configure_with("[plugin try]\nfile = faketry.so\n", 1);
}

/* A kernel that traps in the gate (at n = 31): nothing was measured, so
 * one line, exit 8, and no record, even with -o, nor a temporary. */
START_TEST(trap_in_the_gate_writes_no_record)
{
	configure_try();
	gpulab("try", "gated", "lost.cu", "-n", "1024:4096", "-t", "int", "-o", record, NULL);
	ck_assert_int_eq(o.status, EXIT_CUDA);
	ck_assert_str_eq(o.err, "gpulab: try gated: lost.cu at n=31 int: kernel: unspecified launch failure (a trap); "
				"nothing was timed\n");
	ck_assert_str_eq(o.out, "");
	ck_assert_int_eq(access(record, F_OK), -1);
	ck_assert_int_eq(count_temporaries(dir), 0);
}
END_TEST

/* A kernel that passes the gate (one run a point) and traps at 4096 in
 * the timed sweep (its second run there): the sizes before it kept, that
 * one an ERROR, the later ones not run, the record written, exit 8. */
START_TEST(trap_mid_sweep_keeps_the_points_before)
{
	static const char *const want[] = { "ok", "ok", "ERROR", "not run", "not run" };
	const char *lost = "the CUDA context was lost at try.gated n=4096 int";
	configure_try();
	gpulab("try", "gated", "later.cu", "-n", "1024:16384", "-t", "int", "-r", "3", "-o", record, NULL);
	ck_assert_msg(o.status == EXIT_CUDA, "exit %d: %s", o.status, o.err);
	struct json *doc = valid_record();
	ck_assert_int_eq(json_len(json_get(doc, "results")), 5);
	for (size_t i = 0; i < 5; i++)
		ck_assert_str_eq(point_status(doc, i), want[i]);
	ck_assert_str_eq(point_message(doc, 2), "kernel: unspecified launch failure (a trap)");
	ck_assert_str_eq(point_message(doc, 3), lost);
	ck_assert_str_eq(point_message(doc, 4), lost);
	ck_assert_str_eq(json_string(json_get(doc, "interruption")), lost);
	ck_assert_msg(strstr(o.out, "later.cu passed the gate: 3 cases") && occurrences(o.out, "try.gated int ") == 3,
		      "%s", o.out);
	ck_assert_msg(!strncmp(o.err, "gpulab: the CUDA context was lost at try.gated n=4096 int: 3 points done, 2 not run; ",
			       85) && count_lines(o.err) == 1, "%s", o.err);
	ck_assert_int_eq(count_temporaries(dir), 0);
	json_free(doc);
}
END_TEST

/* The fsyncs of this process, seen by a stand-in for libc's (the linker
 * takes it for io/outfile.c's calls too): what each synced, by name,
 * and a failure (EIO) to return when asked. */
static char synced[4][PATH_MAX];
static int nsynced, fsync_fails;

int fsync(int fd)
{
	char link[64];
	if (nsynced < 4) {
		snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
		ssize_t n = readlink(link, synced[nsynced], sizeof synced[0] - 1);
		synced[nsynced++][n > 0 ? n : 0] = 0;
	}
	if (fsync_fails) {
		errno = EIO;
		return -1;
	}
	return (int)syscall(SYS_fsync, fd);
}

/* This process's fdatasyncs, by a stand-in as for fsync: each slowed by
 * datasync_ms, as a busy disk's are, and counted once done. */
static atomic_int datasyncs_done, datasync_ms;

int fdatasync(int fd)
{
	if (atomic_load(&datasync_ms))
		usleep(1000u * (unsigned)atomic_load(&datasync_ms));
	int rc = (int)syscall(SYS_fdatasync, fd);
	atomic_fetch_add(&datasyncs_done, 1);
	return rc;
}

/* docs/record.md's promise (issue 46): an entry's sync runs on the
 * journal's thread while the next point runs, and the next entry is
 * written only once it is done, so at most the last entry written is
 * unsynced.  Syncs of 300 ms each: after entry k+1 (the first is the
 * header's commit, fsynced in line), the k-1 syncs of the entries before
 * it are done; the closing one is done by journal_close. */
START_TEST(each_entry_synced_before_the_next)
{
	struct journal j;
	char err[512];
	configure(0);
	atomic_store(&datasyncs_done, 0);
	atomic_store(&datasync_ms, 300);
	ck_assert_int_eq(journal_open(&j, record, ondisk_is_record, err, sizeof err), 0);
	journal_header(&j, strdup("{\"h\": 1}\n"), 9);
	for (int k = 1; k <= 4; k++) {
		ck_assert_int_eq(journal_append(&j, "{\"p\": 1}\n", 9, err, sizeof err), 0);
		int done = atomic_load(&datasyncs_done);
		ck_assert_msg(done >= k - 2, "entry %d written with %d syncs done", k, done);
	}
	journal_close(&j);
	ck_assert_int_eq(atomic_load(&datasyncs_done), 4); /* entries 2 to 4, and the last one close makes */
	atomic_store(&datasync_ms, 0);
	ck_assert_int_eq(lines_in(record), 5);
}
END_TEST

/* One file written by outfile at path, with text: its commit's code. */
static int write_whole(const char *path, const char *text, char *err, size_t len)
{
	struct outfile f;
	ck_assert_int_eq(outfile_open(&f, path, err, len), 0);
	fputs(text, f.f);
	return outfile_commit(&f, err, len);
}

/* A record is on the disk before its name, and its name after (the
 * directory synced), so a power loss costs at most the point under way;
 * a sync that fails is a write that fails: the old record stays, and no
 * temporary. */
START_TEST(commit_syncs_the_file_then_its_directory)
{
	char real[PATH_MAX], tmp[PATH_MAX + 32], err[512], text[64];
	configure(0);
	ck_assert_ptr_nonnull(realpath(dir, real));
	snprintf(tmp, sizeof tmp, "%s/sweep.json" OUTFILE_SUFFIX, real);
	ck_assert_int_eq(write_whole(record, "{}\n", err, sizeof err), 0);
	ck_assert_int_eq(nsynced, 2);
	ck_assert_str_eq(synced[0], tmp);
	ck_assert_str_eq(synced[1], real);
	ck_assert_str_eq(read_text(record, text, sizeof text), "{}\n");
	/* a name without a directory: the current one */
	nsynced = 0;
	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(write_whole("here.json", "[]\n", err, sizeof err), 0);
	ck_assert_int_eq(nsynced, 2);
	ck_assert_str_eq(synced[1], real);
	fsync_fails = 1;
	ck_assert_int_eq(write_whole(record, "[1]\n", err, sizeof err), EXIT_USAGE);
	ck_assert_str_eq(err, "cannot write: Input/output error");
	ck_assert_str_eq(read_text(record, text, sizeof text), "{}\n");
	ck_assert_int_eq(count_temporaries(dir), 0);
	fsync_fails = 0;
}
END_TEST

/* A file written whole elsewhere and moved into place (learn keeps a
 * lesson's record so) meets the refusals any target does, its source
 * left where it was; a lock file (the learner's progress) is held by one
 * descriptor at a time, and made without being written. */
START_TEST(move_and_lock_go_through_io)
{
	char from[4200], to[4200], fifo[4200], lock[4200], err[512], text[64];
	struct stat st;
	configure(0);
	snprintf(from, sizeof from, "%s/run.json", dir);
	snprintf(fifo, sizeof fifo, "%s/fifo.json", dir);
	snprintf(to, sizeof to, "%s/kept.json", dir);
	write_file(dir, "run.json", "{}\n");
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(outfile_move(from, fifo, err, sizeof err), EXIT_USAGE);
	ck_assert_str_eq(err, "is a FIFO, not a file a record may replace: nothing was run");
	ck_assert_int_eq(outfile_move(from, dir, err, sizeof err), EXIT_USAGE);
	ck_assert_int_eq(stat(from, &st), 0);
	ck_assert_int_eq(outfile_move(from, to, err, sizeof err), 0);
	ck_assert_str_eq(read_text(to, text, sizeof text), "{}\n");
	ck_assert_int_eq(stat(from, &st), -1);
	snprintf(lock, sizeof lock, "%s/progress.lock", dir);
	int held = outfile_lock_file(lock), other = open(lock, O_RDONLY);
	ck_assert_int_ge(held, 0);
	ck_assert_int_ge(other, 0);
	ck_assert_int_eq(flock(other, LOCK_EX | LOCK_NB), -1);
	ck_assert_int_eq(fstat(held, &st), 0);
	ck_assert_int_eq(st.st_size, 0);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	close(held);
	ck_assert_int_eq(flock(other, LOCK_EX | LOCK_NB), 0);
	close(other);
}
END_TEST

/* --resume on what cannot be resumed: one line naming the file, exit 2,
 * in under a second, nothing run, the file untouched, no temporary. */
static void refused(const char *text, const char *words)
{
	static char before[1 << 16], after[1 << 16];
	if (text)
		write_file(dir, "sweep.json", text);
	read_text(record, before, sizeof before);
	unlink(runs_log);
	gpulab("run", "fake.sleepy", "-n", "64,128", "-r", "3", "-o", record, "--resume", NULL);
	ck_assert_msg(o.status == EXIT_USAGE, "exit %d: %s", o.status, o.err);
	ck_assert_msg(strstr(o.err, words) && count_lines(o.err) == 1 && !strncmp(o.err, "gpulab: --resume: ", 18), "%s",
		      o.err);
	ck_assert_msg(strstr(o.err, record), "%s", o.err);
	ck_assert_int_eq(lines_in(runs_log), 0);
	ck_assert_str_eq(o.out, "");
	read_text(record, after, sizeof after);
	ck_assert_str_eq(after, before);
	ck_assert_int_eq(count_temporaries(dir), 0);
}

/* Edit a real record: the first `from` becomes `to`. */
static void edited(const char *good, const char *from, const char *to, const char *words)
{
	static char text[1 << 16];
	const char *at = strstr(good, from);
	ck_assert_msg(at != NULL, "no %s", from);
	snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
	refused(text, words);
}

START_TEST(resume_refuses_what_it_cannot_take)
{
	static char good[1 << 16], cut[4096];
	configure(1);
	refused("", "empty: no record");
	gpulab("run", "fake.sleepy", "-n", "64,128", "-r", "3", "-o", record, NULL);
	ck_assert_int_eq(o.status, 0);
	read_text(record, good, sizeof good);
	/* a line in the middle that is not JSON: corruption, not a torn end */
	snprintf(cut, sizeof cut, "%.*s{\"exercise\": \n%s", (int)(strchr(good, '\n') + 1 - good), good, strchr(good, '\n') + 1);
	refused(cut, "sweep.json: line 2, column 14: expected a value"); /* the line's column, not "line 2: line 1" */
	refused("{\"results\": []}", "not a gpulab-record/1 or /2 record");
	refused("{\"schema\": \"gpulab-record/3\", \"results\": []}", "its schema is gpulab-record/3");
	refused("{\"schema\": \"gpulab-record/1.3\", \"results\": [{\"n\": 1}]}", "result 1 has no exercise");
	edited(good, "\"version\": \"" PACKAGE_VERSION "\"", "\"version\": \"0.0.1\"",
	       "its gpulab version is 0.0.1, and this run's " PACKAGE_VERSION ": not resumed");
	edited(good, "\"device\": null", "\"device\": {\"name\": \"NVIDIA H200\", \"uuid\": \"GPU-1234\"}",
	       "recorded on GPU-1234, and this run is on the host: not resumed");
	edited(good, "\"cold\": false", "\"cold\": true", "its --cold is true, and this run's false: not resumed");
	edited(good, "\"batch\": 1", "\"batch\": 20", "its --batch is 20, and this run's 1: not resumed");
	/* without -o there is nothing to resume */
	gpulab("run", "fake.sleepy", "--resume", NULL);
	ck_assert_int_eq(o.status, EXIT_USAGE);
	ck_assert_msg(strstr(o.err, "gpulab: --resume: name the record to resume with -o FILE"), "%s", o.err);
}
END_TEST

/* A record of schema 1 (before interrupted and not run), a document as
 * -o wrote it before the journal, is still one: resumed, its points are
 * kept, and it is written anew as a journal. */
START_TEST(resume_reads_records_of_schema_1)
{
	static char good[1 << 16], old[1 << 16];
	configure(1);
	gpulab("run", "fake.sleepy", "-n", "64,128", "-r", "3", "--samples", "--format", "json", NULL);
	snprintf(good, sizeof good, "%s", o.out);
	const char *a = strstr(good, "\"gpulab-record/1.4\""), *b = strstr(good, "  \"interrupted\"");
	const char *c = b ? strstr(b, "\"device\"") : NULL;
	ck_assert(a && b && c);
	snprintf(old, sizeof old, "%.*s\"gpulab-record/1\"%.*s  %s", (int)(a - good), good,
		 (int)(b - a - strlen("\"gpulab-record/1.4\"")), a + strlen("\"gpulab-record/1.4\""), c);
	write_file(dir, "sweep.json", old);
	struct json *doc = valid_record();
	ck_assert_ptr_null(json_get(doc, "interrupted"));
	json_free(doc);
	unlink(runs_log);
	gpulab("run", "fake.sleepy", "-n", "64,128,256", "-r", "3", "-o", record, "--resume", NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert_int_eq(lines_in(runs_log), 1);
	doc = valid_record();
	ck_assert_str_eq(json_string(json_get(doc, "schema")), "gpulab-record/2.0");
	ck_assert_int_eq(count_status(doc, "ok"), 3);
	json_free(doc);
}
END_TEST

/* --- --resume matches points on their typed values ------------------------- */

/* The keys of a sweep's points, as the run's planned points give them to
 * records/resume.h: n, block, type, reps (which says how, not which
 * point), a shape and a path of the exercise's own. */
static const struct gpulab_param match_decls[] = {
	{ .key = "n", .type = GPULAB_PARAM_COUNT, .min = 1, .max = (int64_t)PARAM_MAX_N },
	{ .key = "block", .type = GPULAB_PARAM_COUNT, .min = 1, .max = 1024 },
	{ .key = "type", .type = GPULAB_PARAM_ENUM, .choices = "int|float" },
	{ .key = "reps", .type = GPULAB_PARAM_COUNT, .min = 1, .max = 1000000 },
	{ .key = "tile", .type = GPULAB_PARAM_SHAPE, .min = 1, .max = 1024 },
	{ .key = "file", .type = GPULAB_PARAM_PATH },
};
#define MATCH_KEYS (sizeof match_decls / sizeof match_decls[0])

/* A planned point of fake.sleepy: n, block 32, type int, reps 20, tile
 * 32x8, file a.cu; all given. */
static void planned(struct resume_param *p, struct resume_point *pt, uint64_t n)
{
	for (size_t k = 0; k < MATCH_KEYS; k++)
		p[k] = (struct resume_param){ .decl = &match_decls[k], .given = 1 };
	p[0].value.u = n;
	p[1].value.u = 32;
	p[2].value.e = 0;
	p[3].value.u = 20;
	p[4].value.s = (struct gpulab_shape){ 32, 8 };
	p[5].value.str = "a.cu";
	*pt = (struct resume_point){ .exercise = "fake.sleepy", .params = p, .nparams = MATCH_KEYS };
}

/* A record of rows, each "exercise|status|params", made by this gpulab on
 * the host. */
static struct json *record_of(const char *const *rows, size_t n)
{
	static char text[1 << 14];
	char err[256];
	size_t at = (size_t)snprintf(text, sizeof text, "{\"schema\": \"gpulab-record/1.4\", \"gpulab\": {\"version\": \"%s\", "
				     "\"revision\": \"%s\"}, \"cold\": false, \"batch\": 1, \"device\": null, \"results\": [",
				     PACKAGE_VERSION, GPULAB_REVISION);
	for (size_t i = 0; i < n; i++) {
		const char *bar = strchr(rows[i], '|'), *bar2 = strchr(bar + 1, '|');
		at += (size_t)snprintf(text + at, sizeof text - at, "%s{\"exercise\": \"%.*s\", \"params\": {%s}, \"elements\": 1, "
				       "\"median_ms\": null, \"min_ms\": null, \"max_ms\": null, \"noise_pct\": null, \"gbps\": null, "
				       "\"peak_pct\": null, \"speedup\": null, \"ref_share\": null, \"runs\": 0, \"converged\": false, "
				       "\"message\": \"\", \"status\": \"%.*s\", \"clocks\": null}", i ? ", " : "",
				       (int)(bar - rows[i]), rows[i], bar2 + 1, (int)(bar2 - bar - 1), bar + 1);
	}
	snprintf(text + at, sizeof text - at, "]}");
	struct json *doc = json_parse(text, strlen(text), err, sizeof err);
	ck_assert_msg(doc != NULL, "%s: %s", err, text);
	return doc;
}

/* Resume the one planned point of n = 1024 against rows: is it kept, and
 * how many rows are kept after it? */
static int kept_of(const char *const *rows, size_t n, size_t *extra)
{
	struct resume_param p[MATCH_KEYS];
	struct resume_point pt;
	struct resume r;
	char err[512];
	planned(p, &pt, 1024);
	struct resume_plan plan = { .points = &pt, .n = 1, .device = "the host", .version = PACKAGE_VERSION,
				    .revision = GPULAB_REVISION, .batch = 1 };
	ck_assert_msg(resume_take(&r, "old.json", record_of(rows, n), &plan, err, sizeof err) == 0, "%s", err);
	int kept = r.kept[0] != NULL;
	ck_assert_int_eq(r.nkept, (size_t)kept);
	*extra = r.nextra;
	resume_free(&r);
	return kept;
}

#define SAME "\"block\": 32, \"type\": \"int\", \"tile\": \"32x8\", \"file\": \"a.cu\""

/* The same values written otherwise are the same point: n as 2^10, 1K or
 * "1024", block as a string, the keys in another order or spelt with a
 * JSON escape; reps, seed and warmup say how it was measured, not which. */
START_TEST(resume_matches_values_not_their_spelling)
{
	static const char *const same[] = {
		"fake.sleepy|ok|\"n\": 1024, " SAME,
		"fake.sleepy|ok|\"n\": \"2^10\", " SAME,
		"fake.sleepy|ok|\"n\": \"1K\", " SAME,
		"fake.sleepy|unverified|\"n\": \"1024\", " SAME,
		"fake.sleepy|ok|\"file\": \"a.cu\", \"tile\": \"32x8\", \"type\": \"int\", \"block\": \"32\", \"n\": 1024",
		"fake.sleepy|ok|\"\\u006e\": 1024, " SAME,
		"fake.sleepy|ok|\"n\": 1024, " SAME ", \"reps\": 3, \"warmup\": 0, \"seed\": 7",
	};
	size_t extra;
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
		ck_assert_msg(kept_of(&same[i], 1, &extra), "not kept: %s", same[i]);
		ck_assert_int_eq(extra, 0);
	}
}
END_TEST

/* --resume keeps a measured row alone (issue 46): ok, or unverified
 * (--no-verify's); a FAILED, ERROR or skipped row of a planned point is
 * paired (not kept after the run's own) but not kept: its point runs
 * again.  A "not run" row is not paired at all. */
START_TEST(resume_keeps_only_measured_points)
{
	static const struct { const char *row; int kept; } rows[] = {
		{ "fake.sleepy|ok|\"n\": 1024, " SAME, 1 },      { "fake.sleepy|unverified|\"n\": 1024, " SAME, 1 },
		{ "fake.sleepy|FAILED|\"n\": 1024, " SAME, 0 },  { "fake.sleepy|ERROR|\"n\": 1024, " SAME, 0 },
		{ "fake.sleepy|skipped|\"n\": 1024, " SAME, 0 }, { "fake.sleepy|not run|\"n\": 1024, " SAME, 0 },
	};
	size_t extra;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		ck_assert_msg(kept_of(&rows[i].row, 1, &extra) == rows[i].kept, "%s", rows[i].row);
		ck_assert_int_eq(extra, 0);
	}
}
END_TEST

/* Another value, another key, a key lacking or one the exercise does not
 * take, another exercise, or a value it cannot take: another point, kept
 * after the run's own; a "not run" row is lacking, and not kept at all. */
START_TEST(resume_keeps_apart_what_differs)
{
	static const char *const other[] = {
		"fake.sleepy|ok|\"n\": 1025, " SAME,
		"fake.sleepy|ok|\"n\": \"2^11\", " SAME,
		"fake.sleepy|ok|\"n\": 1024, \"block\": 64, \"type\": \"int\", \"tile\": \"32x8\", \"file\": \"a.cu\"",
		"fake.sleepy|ok|\"n\": 1024, \"block\": 32, \"type\": \"float\", \"tile\": \"32x8\", \"file\": \"a.cu\"",
		"fake.sleepy|ok|\"n\": 1024, \"block\": 32, \"type\": \"int\", \"tile\": \"8x32\", \"file\": \"a.cu\"",
		"fake.sleepy|ok|\"n\": 1024, \"block\": 32, \"type\": \"int\", \"tile\": \"32x8\", \"file\": \"./a.cu\"",
		"fake.sleepy|ok|\"n\": 1024, \"block\": 32, \"type\": \"int\", \"tile\": \"32x8\"",
		"fake.sleepy|ok|\"n\": 1024, " SAME ", \"rows\": 3",
		"fake.sleepy|ok|\"n\": \"lots\", " SAME,
		"fake.sleepy|ok|\"n\": 0, " SAME,
		"fake.loses|ok|\"n\": 1024, " SAME,
	};
	size_t extra;
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
		ck_assert_msg(!kept_of(&other[i], 1, &extra), "kept: %s", other[i]);
		ck_assert_int_eq(extra, 1);
	}
	static const char *const lacking[] = { "fake.sleepy|not run|\"n\": 1024, " SAME };
	ck_assert(!kept_of(lacking, 1, &extra));
	ck_assert_int_eq(extra, 0);
}
END_TEST

/* Each planned point takes FILE's first row of its key not taken yet: of
 * two rows of one point, one is kept for it and one after the run's. */
START_TEST(resume_pairs_each_row_once)
{
	static const char *const twice[] = {
		"fake.sleepy|ok|\"n\": 2048, " SAME,
		"fake.sleepy|ok|\"n\": \"1K\", " SAME,
		"fake.sleepy|FAILED|\"n\": 1024, " SAME,
	};
	struct resume_param p[2][MATCH_KEYS];
	struct resume_point pt[2];
	struct resume r;
	char err[512];
	planned(p[0], &pt[0], 1024);
	planned(p[1], &pt[1], 4096);
	p[1][4].given = 0; /* refused before its tile: only the rows without one could be it */
	p[1][5].given = 0;
	struct resume_plan plan = { .points = pt, .n = 2, .device = "the host", .version = PACKAGE_VERSION,
				    .revision = GPULAB_REVISION, .batch = 1 };
	ck_assert_msg(resume_take(&r, "old.json", record_of(twice, 3), &plan, err, sizeof err) == 0, "%s", err);
	ck_assert_ptr_nonnull(r.kept[0]);
	ck_assert_msg(strstr(r.kept[0], "\"1K\"") && strstr(r.kept[0], "\"ok\""), "%s", r.kept[0]);
	ck_assert_ptr_null(r.kept[1]);
	ck_assert_int_eq(r.nkept, 1);
	ck_assert_int_eq(r.nextra, 2);
	ck_assert_msg(strstr(r.extra[0], "2048") && strstr(r.extra[1], "FAILED"), "%s %s", r.extra[0], r.extra[1]);
	resume_free(&r);
}
END_TEST

/* The end to end of it: a record whose n a person wrote 2^6 and whose
 * keys they reordered still has that point, and --resume keeps it. */
START_TEST(resume_keeps_a_point_written_otherwise)
{
	static char good[1 << 16], text[1 << 16];
	configure(1);
	gpulab("run", "fake.sleepy", "-n", "64,128", "-r", "3", "-o", record, NULL);
	ck_assert_int_eq(o.status, 0);
	read_text(record, good, sizeof good);
	const char *from = "\"params\": {\"n\": 64, \"block\": 32, \"type\": \"int\"";
	const char *at = strstr(good, from);
	ck_assert_msg(at != NULL, "%s", good);
	snprintf(text, sizeof text, "%.*s\"params\": {\"type\": \"int\", \"block\": \"32\", \"n\": \"2^6\"%s", (int)(at - good), good,
		 at + strlen(from));
	write_file(dir, "sweep.json", text);
	unlink(runs_log);
	gpulab("run", "fake.sleepy", "-n", "64,128", "-r", "3", "-o", record, "--resume", NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert_int_eq(lines_in(runs_log), 0);
	ck_assert_msg(strstr(o.out, "2 of 2 points kept from it, 0 to run (nothing: it is complete)"), "%s", o.out);
}
END_TEST

/* --- where a record may go, and who may write it (issue 37) --------------- */

/* -o at what is not a file a record may replace: exit 2, one line naming
 * it, in under a second, nothing run, nothing left beside it. */
static void target_refused(const char *path, const char *words)
{
	unlink(runs_log);
	gpulab("run", "fake.sleepy", "-n", "64,128", "-r", "1", "-o", path, NULL);
	ck_assert_msg(o.status == EXIT_USAGE, "exit %d: %s", o.status, o.err);
	ck_assert_msg(strstr(o.err, words) && strstr(o.err, path) && count_lines(o.err) == 1, "%s", o.err);
	ck_assert_str_eq(o.out, "");
	ck_assert_int_eq(lines_in(runs_log), 0);
	ck_assert_int_eq(count_temporaries(dir), 0);
}

START_TEST(unsafe_targets_refused)
{
	char fifo[4200], node[4200], sock[4200];
	struct stat st;
	configure(1);
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	target_refused(fifo, "is a FIFO, not a file a record may replace: nothing was run");
	target_refused(dir, "is a directory, not a file a record may replace");
	/* a device node, made here (as root alone may), never the machine's own */
	snprintf(node, sizeof node, "%s/null", dir);
	if (mknod(node, S_IFCHR | 0666, makedev(1, 3)) == 0) {
		target_refused(node, "is a character device, not a file a record may replace");
		ck_assert_int_eq(stat(node, &st), 0);
		ck_assert(S_ISCHR(st.st_mode));
	} else {
		fprintf(stderr, "check_keep: not root: the device-node case is not run\n");
	}
	snprintf(sock, sizeof sock, "%s/sock", dir);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock);
	if (fd >= 0 && strlen(sock) < sizeof addr.sun_path && bind(fd, (struct sockaddr *)&addr, sizeof addr) == 0)
		target_refused(sock, "is a socket, not a file a record may replace");
	if (fd >= 0)
		close(fd);
	/* a link to nothing is not followed, nor created */
	snprintf(node, sizeof node, "%s/dangling", dir);
	ck_assert_int_eq(symlink("nowhere/at/all", node), 0);
	target_refused(node, "a symbolic link to nothing: not followed");
	ck_assert_int_eq(lstat(node, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
}
END_TEST

/* A symbolic link is followed: the record goes to its target, the link
 * stays a link, and the target keeps its permissions (0600 stays 0600). */
START_TEST(symlink_followed_and_mode_kept)
{
	char target[4200], text[256];
	struct stat st;
	configure(1);
	snprintf(target, sizeof target, "%s/real.json", dir);
	write_file(dir, "real.json", "{\"schema\": \"gpulab-record/2.0\", \"stale\": true}\n"); /* -o replaces only a record */
	ck_assert_int_eq(chmod(target, 0600), 0);
	ck_assert_int_eq(symlink("real.json", record), 0);
	gpulab("run", "fake.sleepy", "-n", "64", "-r", "1", "-o", record, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert_int_eq(lstat(record, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert_int_eq(stat(target, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
	ck_assert_msg(strncmp(read_text(target, text, sizeof text), "{\"schema\": \"gpulab-record/2.0\"", 30) == 0, "%s", text);
	struct json *doc = valid_record();
	ck_assert_int_eq(count_status(doc, "ok"), 1);
	json_free(doc);
	ck_assert_int_eq(count_temporaries(dir), 0);
}
END_TEST

/* Replacing a record keeps its permissions without the s-bits (a 06750
 * record becomes 0750: a record is data); a record with another name (a
 * hard link) is replaced at the name given alone, the other keeps the old
 * record byte for byte, and one line says so (issue 46). */
START_TEST(replaced_record_mode_and_hard_links)
{
	static char before[1 << 16], after[1 << 16];
	char other[4200];
	struct stat st;
	configure(1);
	gpulab("run", "fake.sleepy", "-n", "64", "-r", "1", "-o", record, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert_int_eq(chmod(record, 06750), 0);
	ck_assert_int_eq(stat(record, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 06750);
	snprintf(other, sizeof other, "%s/other.json", dir);
	ck_assert_int_eq(link(record, other), 0);
	read_text(other, before, sizeof before);
	gpulab("run", "fake.sleepy", "-n", "128", "-r", "1", "-o", record, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert_int_eq(stat(record, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0750);
	ck_assert_int_eq(st.st_nlink, 1);
	ck_assert_str_eq(read_text(other, after, sizeof after), before);
	ck_assert_msg(count_lines(o.err) == 1
		      && strstr(o.err, "gpulab: warning: /")
		      && strstr(o.err, "sweep.json had 1 other name (hard link), which keeps the record it replaced: "
				"the new one is at this name alone\n"), "%s", o.err);
	struct json *doc = valid_record();
	ck_assert_str_eq(json_number_text(json_get(json_get(json_index(json_get(doc, "results"), 0), "params"), "n")), "128");
	json_free(doc);
	/* a record with one name: nothing to say */
	gpulab("run", "fake.sleepy", "-n", "64", "-r", "1", "-o", record, NULL);
	ck_assert_msg(o.status == 0 && o.err[0] == 0, "%s", o.err);
	ck_assert_int_eq(count_temporaries(dir), 0);
}
END_TEST

/* Two runs on one record: the second is refused at once with one line
 * naming the first's PID; the first's record is whole.  --resume takes
 * the lock too. */
START_TEST(one_writer_at_a_time)
{
	char *argv[] = { (char *)bin, "run", "fake.sleepy", "-n", "64:1024", "-r", "3", "-w", "0", "-o", record, NULL };
	char pid_text[64];
	configure(50);
	pid_t pid = start(argv);
	for (double t0 = now(); lines_in(runs_log) < 1 && now() - t0 < 10; usleep(2000))
		; /* started, before its first entry: it holds the temporary */
	gpulab("run", "fake.sleepy", "-n", "64", "-r", "1", "-o", record, NULL);
	snprintf(pid_text, sizeof pid_text, "in use by another gpulab run (PID %ld): one writer at a time", (long)pid);
	ck_assert_msg(o.status == EXIT_USAGE && strstr(o.err, pid_text) && count_lines(o.err) == 1, "%s", o.err);
	wait_for_points(2); /* past its first entry: it holds the record */
	gpulab("run", "fake.sleepy", "-n", "64:1024", "-r", "1", "-o", record, "--resume", NULL);
	ck_assert_msg(o.status == EXIT_USAGE && strstr(o.err, pid_text) && count_lines(o.err) == 1, "%s", o.err);
	ck_assert_int_eq(finish(pid), 0);
	struct json *doc = valid_record();
	ck_assert_int_eq(found.finished, 1);
	ck_assert_int_eq(count_status(doc, "ok"), 5);
	json_free(doc);
	ck_assert_int_eq(count_temporaries(dir), 0);
}
END_TEST

/* A run that ends before its first point leaves an earlier record at the
 * path byte for byte as it was; a temporary a killed run left (no PID in
 * its name) is taken over by the next run, not tripped over. */
START_TEST(earlier_record_untouched)
{
	static char before[1 << 16], after[1 << 16];
	char *argv[] = { (char *)bin, "run", "fake.sleepy", "-n", "64,128", "-r", "500", "-w", "0", "-o", record, NULL };
	char tmp[4300];
	configure(1);
	gpulab("run", "fake.sleepy", "-n", "64,128", "-r", "1", "-o", record, NULL);
	ck_assert_int_eq(o.status, 0);
	read_text(record, before, sizeof before);
	configure_with("[plugin fake]\nfile = fake.so\n", 20);
	write_file(dir, "sweep.json", before);
	pid_t pid = start(argv);
	for (double t0 = now(); lines_in(runs_log) < 1 && now() - t0 < 10; usleep(2000))
		;
	usleep(100000);
	kill(pid, SIGINT);
	ck_assert_int_eq(finish(pid), 130);
	ck_assert_msg(strstr(o.err, "sweep.json is as it was: nothing was done to replace it with"), "%s", o.err);
	ck_assert_str_eq(read_text(record, after, sizeof after), before);
	ck_assert_int_eq(count_temporaries(dir), 0);
	/* kill -9 in the first point: the same, but its temporary stays... */
	pid = start(argv);
	for (double t0 = now(); lines_in(runs_log) < 2 && now() - t0 < 10; usleep(2000))
		;
	kill(pid, SIGKILL);
	finish(pid);
	ck_assert_str_eq(read_text(record, after, sizeof after), before);
	snprintf(tmp, sizeof tmp, "%s" OUTFILE_SUFFIX, record);
	ck_assert_int_eq(access(tmp, F_OK), 0);
	/* ...and the next run takes it over */
	gpulab("run", "fake.sleepy", "-n", "64", "-r", "1", "-o", record, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert_int_eq(count_temporaries(dir), 0);
}
END_TEST

/* The same stop where there was no record: the line says none was made,
 * not that one is "as it was" (issue 52), and none is. */
START_TEST(no_record_not_made)
{
	char *argv[] = { (char *)bin, "run", "fake.sleepy", "-n", "64,128", "-r", "500", "-w", "0", "-o", record, NULL };
	configure(20);
	pid_t pid = start(argv);
	for (double t0 = now(); lines_in(runs_log) < 1 && now() - t0 < 10; usleep(2000))
		;
	usleep(100000);
	kill(pid, SIGINT);
	ck_assert_int_eq(finish(pid), 130);
	char want[4400];
	snprintf(want, sizeof want, "gpulab: interrupted by SIGINT: 0 points done, 2 not run; %s was not made: nothing "
		 "was done to put in it\n", record);
	ck_assert_str_eq(o.err, want);
	ck_assert_int_eq(access(record, F_OK), -1);
	ck_assert_int_eq(count_temporaries(dir), 0);
}
END_TEST

/* Issue 52: `-o code.cu` replaced a C file with a journal.  A file that
 * is not a gpulab record is refused, in one line, exit 2, nothing run, the
 * file byte for byte as it was; an empty one may be written. */
START_TEST(only_a_record_is_replaced)
{
	static const char code[] = "int main(void) { return 0; }\n";
	char text[256], want[4600];
	configure(1);
	const char *path = write_file(dir, "code.cu", code);
	unlink(runs_log);
	gpulab("run", "fake.sleepy", "-n", "64", "-r", "1", "-o", path, NULL);
	snprintf(want, sizeof want, "gpulab: --output %s: is not a gpulab record, and -o replaces only a record: nothing was run "
				    "(move it, or name another file)\n", path);
	ck_assert_int_eq(o.status, EXIT_USAGE);
	ck_assert_str_eq(o.err, want);
	ck_assert_str_eq(read_text(path, text, sizeof text), code);
	ck_assert_int_eq(lines_in(runs_log), 0);
	ck_assert_int_eq(count_temporaries(dir), 0);
	/* nor does record upgrade write over one */
	gpulab("record", "upgrade", record, path, NULL);
	ck_assert_int_eq(o.status, EXIT_USAGE);
	ck_assert_str_eq(read_text(path, text, sizeof text), code);
	const char *empty = write_file(dir, "empty.json", "");
	gpulab("run", "fake.sleepy", "-n", "64", "-r", "1", "-o", empty, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	gpulab("run", "fake.sleepy", "-n", "64", "-r", "1", "-o", empty, NULL); /* a record now */
	ck_assert_msg(o.status == 0, "%s", o.err);
}
END_TEST

/* Issue 56: a temporary beside the target that is not this user's own
 * plain file is not taken over, so that no other user owns the record or
 * sets its mode: another name of a file (taken over, it would be cut to
 * nothing) and, run as root, another user's at 0666.  A record another
 * user owned is replaced by one its writer owns. */
START_TEST(foreign_temporary_refused)
{
	char tmp[4300], text[64], want[4600];
	struct stat st;
	configure(1);
	snprintf(tmp, sizeof tmp, "%s" OUTFILE_SUFFIX, record);
	const char *victim = write_file(dir, "victim.txt", "keep me\n");
	ck_assert_int_eq(link(victim, tmp), 0);
	gpulab("run", "fake.sleepy", "-n", "64", "-r", "1", "-o", record, NULL);
	snprintf(want, sizeof want, "gpulab: --output %s: cannot write beside it: %s is there, with another name: not taken "
				    "over (remove it)\n", record, tmp);
	ck_assert_int_eq(o.status, EXIT_USAGE);
	ck_assert_str_eq(o.err, want);
	ck_assert_str_eq(read_text(victim, text, sizeof text), "keep me\n");
	ck_assert_int_eq(unlink(tmp), 0);
	if (geteuid() != 0) {
		fprintf(stderr, "check_keep: not root: another user's temporary is not tried\n");
		return;
	}
	int fd = open(tmp, O_CREAT | O_EXCL | O_WRONLY, 0666);
	ck_assert(fd >= 0 && fchown(fd, 65534, 65534) == 0 && fchmod(fd, 0666) == 0 && close(fd) == 0);
	gpulab("run", "fake.sleepy", "-n", "64", "-r", "1", "-o", record, NULL);
	snprintf(want, sizeof want, "gpulab: --output %s: cannot write beside it: %s is there, another user's: not taken "
				    "over (remove it)\n", record, tmp);
	ck_assert_int_eq(o.status, EXIT_USAGE);
	ck_assert_str_eq(o.err, want);
	ck_assert(access(record, F_OK) != 0);
	ck_assert_int_eq(unlink(tmp), 0);
	gpulab("run", "fake.sleepy", "-n", "64", "-r", "1", "-o", record, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert_int_eq(chown(record, 65534, 65534), 0);
	ck_assert_int_eq(chmod(record, 0640), 0);
	gpulab("run", "fake.sleepy", "-n", "64", "-r", "1", "-o", record, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert_int_eq(stat(record, &st), 0);
	ck_assert_int_eq(st.st_uid, geteuid());
	ck_assert_int_eq(st.st_mode & 07777, 0640);
	ck_assert_int_eq(count_temporaries(dir), 0);
}
END_TEST

/* A journal cut at every byte of its last entry (as a power loss may
 * leave it): every reader keeps exactly the complete entries, and says
 * it dropped the rest; the closing line cut is a run that did not finish. */
START_TEST(torn_journal_at_every_byte)
{
	static char text[1 << 16];
	char err[512], warn[1024];
	configure(1);
	gpulab("run", "fake.sleepy", "-n", "64:256", "-r", "2", "-o", record, NULL);
	ck_assert_int_eq(o.status, 0);
	size_t len = strlen(read_text(record, text, sizeof text));
	ck_assert(len > 0 && text[len - 1] == '\n');
	/* the last two entries: the third point, then the closing line */
	size_t end_at = (size_t)((char *)memrchr(text, '\n', len - 1) - text) + 1;
	size_t point_at = (size_t)((char *)memrchr(text, '\n', end_at - 1) - text) + 1;
	for (size_t cut = point_at; cut <= len; cut++) {
		struct ondisk d;
		struct json *doc = ondisk_parse("r.json", text, cut, &d, err, sizeof err);
		ck_assert_msg(doc != NULL, "cut at %zu: %s", cut, err);
		size_t want = cut < end_at ? 2 : 3;
		ck_assert_msg(json_len(json_get(doc, "results")) == want, "cut at %zu: %zu points", cut,
			      json_len(json_get(doc, "results")));
		ck_assert_int_eq(d.finished, cut == len);
		ck_assert_int_eq(d.torn_line != 0, cut != point_at && cut != end_at && cut != len);
		ondisk_warning("r.json", &d, warn, sizeof warn);
		ck_assert_msg((cut == len) == !warn[0], "cut at %zu: %s", cut, warn);
		if (d.torn_line)
			ck_assert_msg(strstr(warn, "cut off after") && strstr(warn, "is dropped"), "%s", warn);
		struct record r = { .path = "r.json" };
		ck_assert_msg(record_take(&r, doc, err, sizeof err) == 0, "cut at %zu: %s", cut, err);
		record_free(&r);
	}
	/* and a file cut so, read by compare: the warning, then the comparison */
	ck_assert_int_eq(truncate(record, (off_t)(point_at + 10)), 0);
	gpulab("compare", record, record, NULL);
	ck_assert_msg(o.status == 0 && strstr(o.err, "sweep.json: line 4, cut off after 10 bytes as it was written, is "
							"dropped; the run did not finish"), "%s", o.err);
}
END_TEST

/* kill -9 at 50 random moments of a sweep: each leaves a journal every
 * reader takes (the one check, record_take), holding the points done. */
START_TEST(kill9_at_random_moments)
{
	char *argv[] = { (char *)bin, "run", "fake.sleepy", "-n", "64:2^13", "-r", "2", "-w", "0", "-o", record, NULL };
	char err[512];
	configure(1);
	srand(37);
	for (int k = 0; k < 50; k++) {
		unlink(record);
		pid_t pid = start(argv);
		usleep((useconds_t)(rand() % 60000));
		kill(pid, SIGKILL);
		finish(pid);
		struct record r = { .path = record };
		int rc = access(record, F_OK) ? -1 : record_load(&r, err, sizeof err);
		ck_assert_msg(rc <= 0, "kill %d: %s", k, err); /* none yet, or one every reader takes */
		record_free(&r);
	}
	ck_assert_int_le(count_temporaries(dir), 1); /* at most the last's, which the next run takes over */
}
END_TEST

/* --- what a record holds ---------------------------------------------------- */

/* At most 4096 samples a point unless --samples all, the runs counting
 * all of them; integers in notes exact. */
START_TEST(samples_bounded_numbers_exact)
{
	configure(0);
	gpulab("run", "fake.ok", "-n", "2^20", "-r", "5000", "-w", "0", "-o", record, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	struct json *doc = valid_record();
	const struct json *row = json_index(json_get(doc, "results"), 0);
	ck_assert_int_eq(json_len(json_get(row, "samples_ms")), 4096);
	ck_assert_str_eq(json_number_text(json_get(row, "runs")), "5000");
	ck_assert_str_eq(json_number_text(json_get(json_get(row, "notes"), "n")), "1048576");
	ck_assert_str_eq(json_number_text(json_get(doc, "samples_kept")), "4096");
	json_free(doc);
	gpulab("run", "fake.ok", "-n", "2^20", "-r", "5000", "-w", "0", "--samples", "all", "-o", record, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	doc = valid_record();
	ck_assert_int_eq(json_len(json_get(json_index(json_get(doc, "results"), 0), "samples_ms")), 5000);
	ck_assert_str_eq(json_string(json_get(doc, "samples_kept")), "all");
	json_free(doc);
	gpulab("run", "fake.ok", "-n", "64", "-r", "500", "-w", "0", "--samples", "100", "-o", record, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	doc = valid_record();
	ck_assert_int_eq(json_len(json_get(json_index(json_get(doc, "results"), 0), "samples_ms")), 100);
	ck_assert_str_eq(json_number_text(json_get(doc, "samples_kept")), "100");
	json_free(doc);
	gpulab("run", "fake.ok", "--samples=some", NULL);
	ck_assert_msg(o.status == EXIT_USAGE && strstr(o.err, "--samples some: expected all, or a count"), "%s", o.err);
}
END_TEST

/* Numbers written exactly (issue 46): a point's median_ci_pct is the
 * double its interval and median give, not a %.4f that reads 0.0000 at
 * every point of a fake sweep (fake.jittery's is about 99.8, to 15 or
 * more digits); a note of 2^64 - 1 (fake.keyed notes its
 * seed; a note is a double, so 2^64) is in plain digits. */
START_TEST(interval_and_notes_written_exactly)
{
	configure(0);
	gpulab("run", "fake.jittery", "-n", "64,2^20", "-r", "100", "-w", "0", "-o", record, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	struct json *doc = valid_record();
	for (size_t i = 0; i < 2; i++) {
		const struct json *row = json_index(json_get(doc, "results"), i), *ci = json_get(row, "median_ci_ms");
		double pct = 100 * (json_number_at(ci, 1) - json_number_at(ci, 0)) / 2 / json_number(json_get(row, "median_ms"));
		const char *text = json_number_text(json_get(row, "median_ci_pct"));
		ck_assert_msg(json_number(json_get(row, "median_ci_pct")) == pct, "%s, not %.17g", text, pct);
		ck_assert_msg(pct > 1 && strlen(strchr(text, '.')) > 5, "%s: %%.4f's", text);
	}
	json_free(doc);
	gpulab("run", "fake.keyed", "-n", "64", "-r", "3", "-w", "0", "-p", "seed=18446744073709551615", "-o", record, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	doc = valid_record();
	const struct json *row = json_index(json_get(doc, "results"), 0);
	ck_assert_str_eq(json_number_text(json_get(json_get(row, "notes"), "seed")), "18446744073709551616");
	ck_assert_str_eq(json_number_text(json_get(json_get(row, "params"), "seed")), "18446744073709551615");
	json_free(doc);
}
END_TEST

/* One check for every reader: what one refuses, all refuse, with the
 * same line. */
/* text as the record: compare, report and --resume each refuse it
 * (exit 2) with the same one line, holding words; that line. */
static const char *every_reader_refuses(const char *text, const char *words)
{
	static char line[2][1024];
	char html[4200];
	snprintf(html, sizeof html, "%s/r.html", dir);
	write_file(dir, "sweep.json", text);
	gpulab("compare", record, record, NULL);
	snprintf(line[0], sizeof line[0], "%s", o.err);
	ck_assert_int_eq(o.status, EXIT_USAGE);
	gpulab("report", record, "-o", html, NULL);
	snprintf(line[1], sizeof line[1], "%s", o.err);
	ck_assert_int_eq(o.status, EXIT_USAGE);
	gpulab("run", "fake.sleepy", "-n", "64,128", "-r", "3", "-o", record, "--resume", NULL);
	ck_assert_int_eq(o.status, EXIT_USAGE);
	ck_assert_msg(strstr(line[0], words) && count_lines(line[0]) == 1, "%s", line[0]);
	ck_assert_str_eq(line[1], line[0]);
	ck_assert_msg(!strncmp(o.err, "gpulab: --resume: ", 18) && !strcmp(o.err + 18, line[0] + 8), "%s", o.err);
	return line[0];
}

/* good with its first `from` made `to`. */
static const char *replaced(const char *good, const char *from, const char *to)
{
	static char text[1 << 16];
	const char *at = strstr(good, from);
	ck_assert_msg(at != NULL, "no %s", from);
	snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
	return text;
}

START_TEST(one_validator_for_every_reader)
{
	static char good[1 << 16];
	static const struct { const char *from, *to, *words; } cases[] = {
		{ "\"median_ms\": ", "\"median_ms\": \"bogus\", \"x\": ", "\"median_ms\": expected a number or null, found a string" },
		{ "\"samples_ms\": [", "\"samples_ms\": [-1, ", "\"samples_ms\": sample 1 is -1: expected a number from 0 to 1e9" },
		{ "\"runs\": ", "\"runs\": 2.5, \"x\": ", "\"runs\": expected a count, found 2.5" },
	};
	configure(1);
	gpulab("run", "fake.sleepy", "-n", "64,128", "-r", "3", "-o", record, NULL);
	read_text(record, good, sizeof good);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ck_assert_msg(strstr(every_reader_refuses(replaced(good, cases[i].from, cases[i].to), cases[i].words),
				     "result 1 (fake.sleepy): "), "%s", o.err);
}
END_TEST

/* The closing line is checked by the one validator too (issue 46): its
 * points counted, interrupted true or false and said why exactly where
 * true; and what is no journal is told for what it is: a header cut
 * before its newline, a schema of a newer gpulab. */
START_TEST(closing_line_and_header_checked)
{
	static char good[1 << 16], cut[4096];
	static const struct { const char *from, *to, *words; } cases[] = {
		{ "\"points\": 2}", "\"points\": 99}", "sweep.json: line 4, the closing entry: \"points\": 99, but the journal holds 2\n" },
		{ "{\"end\": {\"interrupted\": false", "{\"end\": {\"interrupted\": \"yes\"",
		  "sweep.json: line 4, the closing entry: \"interrupted\": expected true or false, found a string\n" },
		{ "{\"end\": {\"interrupted\": false", "{\"end\": {\"interrupted\": true",
		  "sweep.json: line 4, the closing entry: \"interrupted\": true, but \"interruption\" is null\n" },
		{ "\"points\": 2}", "\"points\": -2}", "sweep.json: line 4, the closing entry: \"points\": expected a count, found -2\n" },
		{ "\"schema\": \"gpulab-record/2.0\"", "\"schema\": \"gpulab-record/3.0\"",
		  "sweep.json: its schema is gpulab-record/3.0, which this gpulab does not read (it reads gpulab-record/1 and /2; "
		  "a newer one wrote it)\n" },
	};
	configure(1);
	gpulab("run", "fake.sleepy", "-n", "64,128", "-r", "3", "-o", record, NULL);
	read_text(record, good, sizeof good);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		every_reader_refuses(replaced(good, cases[i].from, cases[i].to), cases[i].words);
	/* the header whole but for its newline */
	size_t head = (size_t)(strchr(good, '\n') - good);
	snprintf(cut, sizeof cut, "%.*s", (int)head, good);
	snprintf(good, sizeof good, "line 1, a journal's header, is cut off after %zu bytes (no newline), and no point "
		 "follows it: no record\n", head);
	every_reader_refuses(cut, good);
}
END_TEST

/* A journal's line is told by its own line and column, not the parser's
 * "line 1" of the one line it read; a closing line written wrong is told
 * as that, not as a point with no exercise (issue 52). */
START_TEST(journal_lines_told_exactly)
{
	static char good[1 << 16], text[1 << 16];
	char want[256];
	configure(1);
	gpulab("run", "fake.sleepy", "-n", "64,128", "-r", "3", "-o", record, NULL);
	read_text(record, good, sizeof good);
	const char *line2 = strchr(good, '\n') + 1, *at = strstr(line2, "\"median_ms\": ");
	snprintf(want, sizeof want, "sweep.json: line 2, column %d: expected a value, found '}'\n",
		 (int)(at - line2) + (int)strlen("\"median_ms\": ") + 1);
	every_reader_refuses(replaced(good, "\"median_ms\": ", "\"median_ms\": }"), want);
	const char *end = strstr(good, "{\"end\": ");
	snprintf(text, sizeof text, "%.*s{\"end\": 5}\n", (int)(end - good), good);
	every_reader_refuses(text, "sweep.json: line 4: a closing entry whose \"end\" is not an object\n");
}
END_TEST

/* gpulab record upgrade: a 1.x document becomes a journal, in place
 * (atomically, its permissions kept) or to -o, its samples bounded; a
 * journal that did not finish stays one that did not finish. */
START_TEST(record_upgrade)
{
	static char text[1 << 20];
	char out[4200];
	struct stat st;
	configure(0);
	char *argv[] = { (char *)bin, "run", "fake.ok", "-n", "64,128", "-r", "5000", "-w", "0", "--samples", "all",
			 "--format", "json", NULL };
	ck_assert_int_eq(finish(start(argv)), 0); /* its stdout, a 1.4 document, to a file */
	ck_assert_int_eq(rename(out_path, record), 0);
	ck_assert_int_eq(chmod(record, 0640), 0);
	snprintf(out, sizeof out, "%s/new.json", dir);
	gpulab("record", "upgrade", record, "-o", out, NULL);
	ck_assert_msg(o.status == 0 && !o.err[0], "%s", o.err);
	ck_assert_msg(strstr(read_text(record, text, sizeof text), "\"gpulab-record/1.4\""), "left alone");
	gpulab("record", "upgrade", record, NULL);
	ck_assert_msg(o.status == 0 && !o.err[0], "%s", o.err);
	ck_assert_int_eq(stat(record, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0640);
	struct json *doc = valid_record();
	ck_assert_str_eq(json_string(json_get(doc, "schema")), "gpulab-record/2.0");
	ck_assert_int_eq(found.finished, 1);
	ck_assert_int_eq(json_len(json_get(json_index(json_get(doc, "results"), 1), "samples_ms")), 4096);
	ck_assert_str_eq(json_number_text(json_get(json_index(json_get(doc, "results"), 1), "runs")), "5000");
	json_free(doc);
	ck_assert_str_eq(read_text(record, text, sizeof text), read_text(out, text + (1 << 19), 1 << 19));
	/* cut before its closing line: upgraded, it still did not finish */
	char *last = memrchr(text, '\n', strlen(text) - 1);
	last[1] = 0;
	write_file(dir, "sweep.json", text);
	gpulab("record", "upgrade", record, NULL);
	ck_assert_msg(o.status == 0 && strstr(o.err, "the run did not finish"), "%s", o.err);
	doc = valid_record();
	ck_assert_int_eq(found.finished, 0);
	json_free(doc);
	gpulab("record", "upgrade", dir, NULL);
	ck_assert_msg(o.status == EXIT_USAGE && strstr(o.err, "is a directory") && count_lines(o.err) == 1, "%s", o.err);
	gpulab("record", "downgrade", record, NULL);
	ck_assert_int_eq(o.status, EXIT_USAGE);
	ck_assert_int_eq(count_temporaries(dir), 0);
}
END_TEST

int main(void)
{
	bin = getenv("GPULAB_BIN");
	if (!bin || !getenv("GPULAB_TEST_PLUGINS")) {
		fprintf(stderr, "check_keep: GPULAB_BIN and GPULAB_TEST_PLUGINS must be set (make check sets them)\n");
		return 99;
	}
	Suite *s = suite_create("keep");
	TCase *t = tcase_create("keep");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, sigint_keeps_what_was_done);
	tcase_add_test(t, sigterm_keeps_what_was_done);
	tcase_add_test(t, sighup_keeps_what_was_done);
	tcase_add_test(t, signal_stops_within_a_point);
	tcase_add_test(t, signal_stops_between_steps);
	tcase_add_test(t, second_sigint_ends_at_once);
	tcase_add_test(t, same_signal_twice_is_one);
	tcase_add_test(t, kill9_keeps_every_completed_point);
	tcase_add_test(t, resume_runs_only_what_is_missing);
	tcase_add_test(t, resume_retry_loop_after_kill_in_first_point);
	tcase_add_test(t, resume_copies_kept_rows_as_written);
	tcase_add_test(t, resume_keeps_points_it_does_not_plan);
	tcase_add_test(t, resumed_run_interrupted_again);
	tcase_add_test(t, lost_device_ends_the_run);
	tcase_add_test(t, failing_point_keeps_both_sides);
	tcase_add_test(t, unmeasured_run_keeps_the_record);
	tcase_add_test(t, lost_device_wins_over_a_wrong_result);
	tcase_add_test(t, trap_in_the_gate_writes_no_record);
	tcase_add_test(t, trap_mid_sweep_keeps_the_points_before);
	tcase_add_test(t, commit_syncs_the_file_then_its_directory);
	tcase_add_test(t, move_and_lock_go_through_io);
	tcase_add_test(t, each_entry_synced_before_the_next);
	tcase_add_test(t, resume_refuses_what_it_cannot_take);
	tcase_add_test(t, resume_reads_records_of_schema_1);
	tcase_add_test(t, unsafe_targets_refused);
	tcase_add_test(t, symlink_followed_and_mode_kept);
	tcase_add_test(t, replaced_record_mode_and_hard_links);
	tcase_add_test(t, one_writer_at_a_time);
	tcase_add_test(t, earlier_record_untouched);
	tcase_add_test(t, no_record_not_made);
	tcase_add_test(t, only_a_record_is_replaced);
	tcase_add_test(t, foreign_temporary_refused);
	tcase_add_test(t, torn_journal_at_every_byte);
	tcase_add_test(t, kill9_at_random_moments);
	tcase_add_test(t, samples_bounded_numbers_exact);
	tcase_add_test(t, interval_and_notes_written_exactly);
	tcase_add_test(t, one_validator_for_every_reader);
	tcase_add_test(t, closing_line_and_header_checked);
	tcase_add_test(t, journal_lines_told_exactly);
	tcase_add_test(t, record_upgrade);
	suite_add_tcase(s, t);
	TCase *m = tcase_create("resume_match");
	tcase_add_test(m, resume_matches_values_not_their_spelling);
	tcase_add_test(m, resume_keeps_apart_what_differs);
	tcase_add_test(m, resume_keeps_only_measured_points);
	tcase_add_test(m, resume_pairs_each_row_once);
	tcase_add_test(m, resume_keeps_a_point_written_otherwise);
	suite_add_tcase(s, m);
	return run_suite(s, 0);
}
