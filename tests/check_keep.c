/* Nothing measured is lost (issue 28), without a GPU: the built gpulab
 * on the host-only fake plugin's sleepy, loses and wrongat exercises,
 * interrupted by signals, killed, resumed, and stopped by a lost device.
 * Each checks the rows printed, the record on disk against
 * docs/record.schema.json, the temporaries left, and the exit code. */
#include "config.h"

#include "emit/outfile.h"
#include "exitcode.h"
#include "records/json.h"
#include "schema.h"
#include "testutil.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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

/* The record on disk, or NULL where it is not (yet) JSON. */
static struct json *read_record(void)
{
	char err[512];
	return json_read_file(record, 64 << 20, err, sizeof err);
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
 * first point's setup began: both points are not run, interrupted by
 * SIGINT, and the run exits 130 within a second of the signal, leaving
 * no temporary. */
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
	ck_assert_msg(now() - t0 < 1.0, "took %.2f s to stop", now() - t0);
	struct json *doc = valid_record();
	ck_assert_str_eq(point_status(doc, 0), "not run");
	ck_assert_str_eq(point_status(doc, 1), "not run");
	ck_assert_str_eq(point_message(doc, 0), "interrupted by SIGINT");
	ck_assert_int_eq(count_temporaries(dir), 0);
	json_free(doc);
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

/* A second SIGINT ends it at once, mid-sample, and the record on disk is
 * still the last complete one, with no temporary beside it. */
START_TEST(second_sigint_ends_at_once)
{
	char *argv[] = { (char *)bin, "run", "fake.sleepy", "-n", "64:1024", "-r", "1", "-w", "0", "-o", record, NULL };
	configure(600);
	pid_t pid = start(argv);
	wait_for_points(1);
	usleep(100000); /* into the next point's 600 ms sample */
	double t0 = now();
	kill(pid, SIGINT);
	usleep(20000);
	kill(pid, SIGINT);
	ck_assert_int_eq(finish(pid), 130);
	ck_assert_msg(now() - t0 < 0.4, "took %.2f s to end", now() - t0);
	struct json *doc = valid_record();
	ck_assert_int_eq(count_status(doc, "ok"), 1);
	ck_assert_int_eq(count_status(doc, "not run"), 4);
	ck_assert_str_eq(point_message(doc, 4), "not reached when this record was written: the run was still going");
	ck_assert_int_eq(json_bool(json_get(doc, "interrupted")), 0);
	ck_assert_int_eq(count_temporaries(dir), 0);
	json_free(doc);
}
END_TEST

/* A second SIGINT while the record is being written, when gpulab's own
 * thread holds the signals back and another thread (the fake's, as
 * CUDA's runtime keeps) takes them: it ends the run at once, and still
 * leaves no temporary.  200000 samples a point make each write of the
 * record last long enough (tens of ms) to be caught at it. */
START_TEST(second_sigint_on_another_thread)
{
	char *argv[] = { (char *)bin, "run", "fake.threaded", "-n", "64:2^20", "-r", "200000", "-w", "0", "-o", record,
			 NULL };
	configure(0);
	pid_t pid = start(argv);
	double t0 = now();
	while (access(record, F_OK) && now() - t0 < 20) /* the first point written */
		usleep(1000);
	while (!count_temporaries(dir) && now() - t0 < 20) /* the second being written */
		;
	ck_assert_msg(count_temporaries(dir) == 1, "never caught writing the record");
	kill(pid, SIGINT);
	usleep(2000); /* two signals, not one merged */
	kill(pid, SIGINT);
	ck_assert_int_eq(finish(pid), 130);
	ck_assert_int_eq(count_temporaries(dir), 0);
	struct json *doc = valid_record();
	ck_assert_int_ge(count_status(doc, "ok"), 1);
	json_free(doc);
}
END_TEST

/* A signal once the last point is done, while its record is written:
 * nothing was left undone, so the record is not interrupted, nothing is
 * said of stopping, and the exit code is the run's own. */
START_TEST(signal_after_the_last_point_interrupts_nothing)
{
	char *argv[] = { (char *)bin, "run", "fake.ok", "-n", "64", "-r", "200000", "-w", "0", "-o", record, NULL };
	char tmp[4300];
	struct stat st = { 0 };
	configure(0);
	pid_t pid = start(argv);
	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", record, (long)pid);
	/* the temporary --output's check leaves for a moment is empty; the
	 * record's is not */
	for (double t0 = now(); (stat(tmp, &st) || st.st_size == 0) && now() - t0 < 20;)
		;
	ck_assert_msg(st.st_size > 0, "never caught writing the record");
	kill(pid, SIGINT);
	ck_assert_int_eq(finish(pid), 0);
	ck_assert_str_eq(o.err, "");
	struct json *doc = valid_record();
	ck_assert_str_eq(point_status(doc, 0), "ok");
	ck_assert_int_eq(json_bool(json_get(doc, "interrupted")), 0);
	ck_assert_int_eq(count_temporaries(dir), 0);
	json_free(doc);
}
END_TEST

/* kill -9: the record on disk holds every point done before it. */
START_TEST(kill9_keeps_every_completed_point)
{
	struct json *doc = sweep_stopped(SIGKILL, 4, "table");
	size_t done = count_status(doc, "ok"), begun = (size_t)lines_in(runs_log);
	/* every point begun is in the record, but the one in progress */
	ck_assert_msg(done >= 4 && (done == begun || done + 1 == begun), "%zu done, %zu begun", done, begun);
	ck_assert_int_eq(done + count_status(doc, "not run"), 9);
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
	ck_assert_str_eq(json_number_text(json_get(json_get(json_index(r, 0), "params"), "n")), "128");
	ck_assert_str_eq(json_number_text(json_get(json_get(json_index(r, 1), "params"), "n")), "256");
	ck_assert_str_eq(json_number_text(json_get(json_get(json_index(r, 2), "params"), "n")), "64");
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
	/* resumed (on a device that works again): the ERROR is kept, the rest run */
	unlink(runs_log);
	gpulab("run", "fake.loses", "fake.keyed", "-n", "64:1024", "-r", "3", "-o", record, "--resume", NULL);
	ck_assert_int_eq(o.status, 0);
	doc = valid_record();
	ck_assert_int_eq(count_status(doc, "not run"), 0);
	ck_assert_str_eq(point_status(doc, 2), "ERROR");
	ck_assert_int_eq(count_status(doc, "ok"), 9);
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
 * takes it for emit/outfile.c's calls too): what each synced, by name,
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
	snprintf(tmp, sizeof tmp, "%s/sweep.json.%ld.tmp", real, (long)getpid());
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
	ck_assert(o.seconds < 1.0);
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
	refused(NULL, "No such file or directory");
	refused("", "line 1, column 1: expected a value");
	gpulab("run", "fake.sleepy", "-n", "64,128", "-r", "3", "-o", record, NULL);
	ck_assert_int_eq(o.status, 0);
	read_text(record, good, sizeof good);
	snprintf(cut, sizeof cut, "%.*s", (int)(strstr(good, "\"median_ms\"") - good), good); /* mid-row, as a full disk leaves it */
	refused(cut, ": line 12, column ");
	refused("{\"results\": []}", "not a gpulab-record/1 record");
	refused("{\"schema\": \"gpulab-record/2\", \"results\": []}", "its schema is gpulab-record/2");
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

/* A record of schema 1 (before interrupted and not run) is still one:
 * resumed, it is kept, and rewritten as 1.2. */
START_TEST(resume_reads_records_of_schema_1)
{
	static char good[1 << 16], old[1 << 16];
	configure(1);
	gpulab("run", "fake.sleepy", "-n", "64,128", "-r", "3", "-o", record, NULL);
	read_text(record, good, sizeof good);
	const char *a = strstr(good, "\"gpulab-record/1.3\""), *b = strstr(good, "  \"interrupted\"");
	const char *c = b ? strstr(b, "\"device\"") : NULL;
	ck_assert(a && b && c);
	snprintf(old, sizeof old, "%.*s\"gpulab-record/1\"%.*s  %s", (int)(a - good), good,
		 (int)(b - a - strlen("\"gpulab-record/1.3\"")), a + strlen("\"gpulab-record/1.3\""), c);
	write_file(dir, "sweep.json", old);
	struct json *doc = valid_record();
	ck_assert_ptr_null(json_get(doc, "interrupted"));
	json_free(doc);
	unlink(runs_log);
	gpulab("run", "fake.sleepy", "-n", "64,128,256", "-r", "3", "-o", record, "--resume", NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert_int_eq(lines_in(runs_log), 1);
	doc = valid_record();
	ck_assert_str_eq(json_string(json_get(doc, "schema")), "gpulab-record/1.3");
	ck_assert_int_eq(count_status(doc, "ok"), 3);
	json_free(doc);
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
	tcase_add_test(t, second_sigint_on_another_thread);
	tcase_add_test(t, kill9_keeps_every_completed_point);
	tcase_add_test(t, resume_runs_only_what_is_missing);
	tcase_add_test(t, resume_keeps_points_it_does_not_plan);
	tcase_add_test(t, resumed_run_interrupted_again);
	tcase_add_test(t, lost_device_ends_the_run);
	tcase_add_test(t, failing_point_keeps_both_sides);
	tcase_add_test(t, lost_device_wins_over_a_wrong_result);
	tcase_add_test(t, signal_after_the_last_point_interrupts_nothing);
	tcase_add_test(t, trap_in_the_gate_writes_no_record);
	tcase_add_test(t, trap_mid_sweep_keeps_the_points_before);
	tcase_add_test(t, commit_syncs_the_file_then_its_directory);
	tcase_add_test(t, resume_refuses_what_it_cannot_take);
	tcase_add_test(t, resume_reads_records_of_schema_1);
	suite_add_tcase(s, t);
	return run_suite(s, 0);
}
