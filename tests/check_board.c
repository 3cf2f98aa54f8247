/* gpulab board, on the CPU: a class's grade records (tests/records/board,
 * made by hand, and the header of a real one, h200-s58.json) read into
 * one board per GPU model with each student's best, first, latest and
 * history, exactly; the table, CSV, Markdown and JSON printed from them,
 * parsed; the page drawn; and hostile records refused in one line. */
#include "emit/board_doc.h"
#include "exitcode.h"
#include "records/board_read.h"
#include "records/json.h"
#include "testutil.h"

#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *bin;
static char records[4096];
static struct cmd_result o;

static void gpulab(const char *first, ...)
{
	va_list ap;
	va_start(ap, first);
	run_cmd_va(&o, bin, NULL, first, ap);
	va_end(ap);
}

/* tests/records/NAME (rotating static storage) */
static const char *sample(const char *name)
{
	static char path[16][4200];
	static int next;
	char *p = path[next++ % 16];
	snprintf(p, 4200, "%s/%s", records, name);
	return p;
}

/* The class: four weeks on an H200 (the fourth grade --test's), one on
 * an H100, named out of time order. */
#define W3 sample("board/h200-week3.json")
#define W1 sample("board/h200-week1.json")
#define H100 sample("board/h100-week2.json")
#define W4 sample("board/h200-week4-test.json")
#define W2 sample("board/h200-week2.json")

static void read_class(struct board_doc *b)
{
	char *paths[] = { (char *)W3, (char *)W1, (char *)H100, (char *)W4, (char *)W2 };
	char err[4096] = "";
	int rc = board_read(b, paths, 5, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
}

static const struct board_student *student(const struct board_gpu *g, const char *name)
{
	for (size_t i = 0; i < g->nstudents; i++)
		if (!strcmp(g->students[i].name, name))
			return &g->students[i];
	ck_abort_msg("no student %s on %s", name, g->device);
	return NULL;
}

static void expect_error(int code, const char *words)
{
	ck_assert_msg(o.status == code, "exit %d, wanted %d; stderr: %s", o.status, code, o.err);
	ck_assert_msg(strstr(o.err, words) != NULL, "stderr lacks '%s': %s", words, o.err);
	ck_assert_msg(count_lines(o.err) == 1 && !strncmp(o.err, "gpulab: ", 8), "%s", o.err);
	ck_assert_msg(!o.out[0], "stdout: %s", o.out);
}

/* One board per GPU model, by name; each its records in time order. */
START_TEST(one_board_per_gpu)
{
	struct board_doc b;
	read_class(&b);
	ck_assert_str_eq(b.challenge, "reduce");
	ck_assert_uint_eq(b.nrecords, 5);
	ck_assert_str_eq(b.records[0].date, "2026-10-01T09:00:00Z");
	ck_assert_str_eq(b.records[2].device, "NVIDIA H100 80GB HBM3");
	ck_assert_str_eq(b.records[4].date, "2026-10-20T09:00:00Z");
	ck_assert_int_eq(b.records[4].test, 1);
	ck_assert_uint_eq(b.ngpus, 2);
	ck_assert_str_eq(b.gpus[0].device, "NVIDIA H100 80GB HBM3");
	ck_assert_str_eq(b.gpus[1].device, "NVIDIA H200");
	ck_assert_uint_eq(b.gpus[0].nrecords, 1);
	ck_assert_uint_eq(b.gpus[1].nrecords, 4);
	const size_t want[] = { 0, 1, 3, 4 }; /* the H100's, 2, is not the H200's */
	for (size_t r = 0; r < 4; r++)
		ck_assert_uint_eq(b.gpus[1].records[r], want[r]);
	/* alice's 95% on the H100 is that board's alone */
	ck_assert_uint_eq(b.gpus[0].nstudents, 2);
	ck_assert_uint_eq(student(&b.gpus[0], "alice")->rank, 1);
	ck_assert_double_eq(student(&b.gpus[0], "alice")->best, 0.95);
	ck_assert_uint_eq(student(&b.gpus[1], "alice")->rank, 2);
	ck_assert_double_eq(student(&b.gpus[1], "alice")->best, 0.7);
	board_free(&b);
}
END_TEST

/* The H200's board: ranked by best share; first, best, latest and the
 * change between first and latest; grade --test's record never ranks. */
START_TEST(best_and_history)
{
	struct board_doc b;
	read_class(&b);
	const struct board_gpu *g = &b.gpus[1];
	const char *order[] = { "dave", "alice", "carol", "bob", "erin" };
	const size_t ranks[] = { 1, 2, 3, 4, 0 };
	ck_assert_uint_eq(g->nstudents, 5);
	for (size_t i = 0; i < 5; i++) {
		ck_assert_str_eq(g->students[i].name, order[i]);
		ck_assert_uint_eq(g->students[i].rank, ranks[i]);
	}
	double by = 0;
	const struct board_student *alice = student(g, "alice"), *bob = student(g, "bob"), *carol = student(g, "carol");
	const struct board_student *dave = student(g, "dave"), *erin = student(g, "erin");
	ck_assert(alice->first == 0.5 && alice->first_at == 0 && alice->best == 0.7 && alice->best_at == 1);
	ck_assert(alice->latest == 0.65 && alice->latest_at == 2);
	ck_assert(board_changed(alice, &by) && by == 0.65 - 0.5);
	ck_assert(alice->tries[3].present && alice->tries[3].test && alice->tries[3].passed && !alice->tries[3].measured);
	ck_assert(bob->first == 0.3 && bob->best == 0.4 && bob->best_at == 2 && bob->latest == 0.4);
	ck_assert(board_changed(bob, &by) && by == 0.4 - 0.3);
	ck_assert(bob->tries[1].share == 0.25 && bob->tries[1].grade_rank == 3);
	ck_assert(bob->tries[3].test && !bob->tries[3].passed && !strcmp(bob->tries[3].failure, "wrong result"));
	/* failed in the latest: no latest share, no change */
	ck_assert(carol->first == 0.6 && carol->best == 0.6 && isnan(carol->latest) && carol->latest_at == 2);
	ck_assert(!board_changed(carol, &by));
	ck_assert_str_eq(carol->tries[0].failure, "wrong result");
	/* measured once: first, best and latest are that one, no change */
	ck_assert(dave->first == 0.9 && dave->latest == 0.9 && !board_changed(dave, &by));
	ck_assert(!dave->tries[0].present && !strcmp(dave->tries[1].failure, "faulted or trapped"));
	/* in the test's record alone: on the board, never ranked */
	ck_assert(isnan(erin->best) && erin->latest_at == BOARD_NONE && !board_changed(erin, &by));
	ck_assert(erin->tries[3].passed && !erin->tries[0].present);
	board_free(&b);
}
END_TEST

/* A real grade record's header (s58: an H200), and records from before
 * grade kept ref_share, whose shares are their points'. */
START_TEST(real_and_older_records)
{
	struct board_doc b;
	char err[4096] = "";
	char *real[] = { (char *)sample("board/h200-s58.json") };
	ck_assert_msg(board_read(&b, real, 1, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(b.ngpus, 1);
	ck_assert_str_eq(b.gpus[0].students[0].name, "shfl");
	ck_assert_double_eq(b.gpus[0].students[0].best, 0.7318448858689685);
	ck_assert_str_eq(b.gpus[0].students[1].name, "template");
	ck_assert_double_eq(b.gpus[0].students[1].best, 0.3679328942040959);
	ck_assert_str_eq(b.gpus[0].students[2].name, "forever");
	ck_assert_uint_eq(b.gpus[0].students[2].rank, 0);
	ck_assert_str_eq(b.gpus[0].students[2].tries[0].failure, "hung: stopped");
	board_free(&b);
	char *older[] = { (char *)sample("h200-grade-reduce-2.json"), (char *)sample("h200-grade-reduce-1.json") };
	ck_assert_msg(board_read(&b, older, 2, err, sizeof err) == 0, "%s", err);
	const struct board_student *ada = &b.gpus[0].students[0];
	ck_assert_str_eq(ada->name, "ada_shfl");
	ck_assert_double_eq(ada->first, 1.0648230225335031);
	ck_assert_double_eq(ada->best, 1.1725772520834064);
	ck_assert_uint_eq(b.gpus[0].nstudents, 8);
	board_free(&b);
}
END_TEST

/* text of record with the first `from` replaced by `to`, into dir/name: its path */
static const char *edited(const char *dir, const char *name, const char *record, const char *from, const char *to)
{
	char text[4096], out[4096];
	read_text(record, text, sizeof text);
	char *at = strstr(text, from);
	ck_assert_msg(at != NULL, "%s lacks %s", record, from);
	snprintf(out, sizeof out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return write_file(dir, name, out);
}

/* A student is the file's name without its directory and .cu; one in a
 * record twice (grade DIR1 DIR2) counts at their better. */
START_TEST(students_by_file_name)
{
	char buf[64], *dir = temp_dir(), err[4096] = "";
	struct board_doc b;
	ck_assert_str_eq(board_student_of(buf, sizeof buf, "class/a/alice.cu"), "alice");
	ck_assert_str_eq(board_student_of(buf, sizeof buf, "bob.cu"), "bob");
	ck_assert_str_eq(board_student_of(buf, sizeof buf, "x/carol.cuh"), "carol.cuh");
	/* bob at 30%, then failed in other/ */
	char *paths[] = { (char *)edited(dir, "failed.json", W1, "class/carol.cu", "other/bob.cu") };
	ck_assert_msg(board_read(&b, paths, 1, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(b.gpus[0].nstudents, 2);
	ck_assert_double_eq(student(&b.gpus[0], "bob")->best, 0.3);
	board_free(&b);
	/* bob at 50% in other/, then at 30% */
	paths[0] = (char *)edited(dir, "better.json", W1, "class/alice.cu", "other/bob.cu");
	ck_assert_msg(board_read(&b, paths, 1, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(b.gpus[0].nstudents, 2);
	ck_assert_double_eq(student(&b.gpus[0], "bob")->best, 0.5);
	ck_assert_uint_eq(student(&b.gpus[0], "bob")->tries[0].grade_rank, 1);
	board_free(&b);
}
END_TEST

/* The table for people, as a teacher reads it. */
START_TEST(table_for_people)
{
	gpulab("board", W3, W1, H100, W4, W2, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert(strstr(o.out, "gpulab board reduce: 5 records, 2 GPU models;"));
	ck_assert(strstr(o.out, "\nNVIDIA H100 80GB HBM3: 1 record, 2026-10-09\n"));
	ck_assert(strstr(o.out, "\nNVIDIA H200: 4 records, 2026-10-01 to 2026-10-20\n"
				"rank  student                    best  on          first  latest   change  history\n"
				"   1  dave                        90%  2026-10-15    90%     90%        -  - fail 90% -\n"
				"   2  alice                       70%  2026-10-08    50%     65%   +15 pt  50% 70% 65% pass\n"
				"   3  carol                       60%  2026-10-08    60%       -        -  fail 60% fail -\n"
				"   4  bob                         40%  2026-10-15    30%     40%   +10 pt  30% 25% 40% fail\n"
				"   -  erin                          -  -               -       -        -  - - - pass\n"
				"improved, first to latest: alice (+15 pt), bob (+10 pt)\n"));
}
END_TEST

/* CSV: a row a student and GPU, as wide as its header; Markdown too. */
START_TEST(csv_and_markdown)
{
	int fields = 0;
	gpulab("board", W3, W1, H100, W4, W2, "--format", "csv", NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert(csv_valid(o.out, &fields) && fields == 9);
	ck_assert_int_eq(count_lines(o.out), 1 + 2 + 5);
	ck_assert(!strncmp(o.out, "device,rank,student,best,best_date,first,latest,change,history\n", 63));
	ck_assert(strstr(o.out, "\n\"NVIDIA H100 80GB HBM3\",\"1\",\"alice\",\"0.95\",\"2026-10-09T14:00:00Z\",\"0.95\",\"0.95\",\"\","
				"\"0.95\"\n"));
	ck_assert(strstr(o.out, "\n\"NVIDIA H200\",\"2\",\"alice\",\"0.7\",\"2026-10-08T09:00:00Z\",\"0.5\",\"0.65\",\"0.15\","
				"\"0.5 0.7 0.65 pass\"\n"));
	ck_assert(strstr(o.out, "\n\"NVIDIA H200\",\"\",\"erin\",\"\",\"\",\"\",\"\",\"\",\"- - - pass\"\n"));
	gpulab("board", W1, W2, "--format", "md", NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert(strstr(o.out, "| GPU | rank | student | best | on | first | latest | change | history |\n"
				"|---|---:|---|---:|---|---:|---:|---:|---|\n"
				"| NVIDIA H200 | 1 | alice | 70% | 2026-10-08T09:00:00Z | 50% | 70% | +20 pt | 50% 70% |\n"));
}
END_TEST

static const struct json *at(const struct json *v, size_t i)
{
	return json_index(v, i);
}

/* JSON: one gpulab-board/1 document, read back with the record's reader. */
START_TEST(json_document)
{
	char err[256];
	gpulab("board", W3, W1, H100, W4, W2, "--format", "json", NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	struct json *doc = json_parse(o.out, strlen(o.out), err, sizeof err);
	ck_assert_msg(doc != NULL, "%s", err);
	ck_assert_str_eq(json_string(json_get(doc, "schema")), "gpulab-board/1");
	ck_assert_str_eq(json_string(json_get(doc, "challenge")), "reduce");
	const struct json *recs = json_get(doc, "records"), *boards = json_get(doc, "boards");
	ck_assert_uint_eq(json_len(recs), 5);
	ck_assert_str_eq(json_string(json_get(at(recs, 0), "path")), W1);
	ck_assert_str_eq(json_string(json_get(at(recs, 4), "mode")), "test");
	ck_assert_uint_eq(json_len(boards), 2);
	const struct json *h200 = at(boards, 1), *alice = at(json_get(h200, "students"), 1);
	ck_assert_str_eq(json_string(json_get(h200, "device")), "NVIDIA H200");
	ck_assert_uint_eq(json_len(json_get(h200, "records")), 4);
	ck_assert_str_eq(json_string(json_get(alice, "student")), "alice");
	ck_assert_double_eq(json_number(json_get(alice, "rank")), 2);
	ck_assert_double_eq(json_number(json_get(alice, "best")), 0.7);
	ck_assert_str_eq(json_string(json_get(alice, "best_date")), "2026-10-08T09:00:00Z");
	ck_assert_double_eq(json_number(json_get(alice, "change")), 0.65 - 0.5);
	const struct json *hist = json_get(alice, "history");
	ck_assert_uint_eq(json_len(hist), 4);
	ck_assert_double_eq(json_number(json_get(at(hist, 2), "ref_share")), 0.65);
	ck_assert_double_eq(json_number(json_get(at(hist, 2), "rank")), 2);
	ck_assert_int_eq(json_bool(json_get(at(hist, 3), "passed")), 1);
	ck_assert_int_eq(json_type(json_get(at(hist, 3), "ref_share")), JSON_NULL);
	const struct json *dave = at(json_get(h200, "students"), 0);
	ck_assert_int_eq(json_type(at(json_get(dave, "history"), 0)), JSON_NULL);
	ck_assert_str_eq(json_string(json_get(at(json_get(dave, "history"), 1), "failure")), "faulted or trapped");
	ck_assert_int_eq(json_type(json_get(dave, "change")), JSON_NULL);
	json_free(doc);
}
END_TEST

/* The page: a section per GPU model, a row and a picture per student. */
START_TEST(page_per_gpu)
{
	char *dir = temp_dir(), path[4200], page[1 << 17];
	snprintf(path, sizeof path, "%s/class.html", dir);
	gpulab("board", W3, W1, H100, W4, W2, "-o", path, NULL);
	ck_assert_msg(o.status == 0 && !o.out[0] && !o.err[0], "%d %s", o.status, o.err);
	read_text(path, page, sizeof page);
	ck_assert_int_eq(occurrences(page, "<section class=\"gpu-board\""), 2);
	ck_assert(strstr(page, "data-device=\"NVIDIA H100 80GB HBM3\">\n<h2>NVIDIA H100 80GB HBM3</h2>"));
	ck_assert(strstr(page, "<tr data-student=\"alice\" data-rank=\"1\" data-best=\"0.94999999999999996\">"));
	ck_assert(strstr(page, "<tr data-student=\"alice\" data-rank=\"2\" data-best=\"0.69999999999999996\"><td>2</td>"
			       "<td class=\"text\">alice</td><td title=\"0.69999999999999996\">70%</td><td class=\"text\">"
			       "2026-10-08</td><td title=\"0.5\">50%</td><td title=\"0.65000000000000002\">65%</td>"
			       "<td title=\"15.000000000000002\">+15 pt</td>"));
	ck_assert(strstr(page, "<tr data-student=\"erin\"><td>\u2013</td>"));
	ck_assert_int_eq(occurrences(page, "<svg "), 7);
	ck_assert_int_eq(occurrences(page, "<circle class=\"try\""), 2 + 3 + 3 + 1 + 1);
	ck_assert_int_eq(occurrences(page, "<path class=\"fail\""), 4);
	ck_assert_int_eq(occurrences(page, "<circle class=\"pass\""), 2);
	ck_assert(strstr(page, "Improved from their first share to their latest: alice (+15 pt), bob (+10 pt).</p>"));
	ck_assert(strstr(page, "content=\"default-src 'none'; style-src 'unsafe-inline'\""));
	ck_assert(!strstr(page, "<script"));
	/* a student's name is text, whatever it holds */
	char text[4096];
	read_text(W1, text, sizeof text);
	char *bob = strstr(text, "class/bob.cu");
	memcpy(bob, "class/<b>.cu", 12);
	snprintf(path, sizeof path, "%s/hostile.html", dir);
	gpulab("board", write_file(dir, "hostile.json", text), "-o", path, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	read_text(path, page, sizeof page);
	ck_assert(!strstr(page, "<b>") && strstr(page, "data-student=\"&lt;b&gt;\""));
	/* and so is a date (the fuzzer's find: a day was cut, not escaped) */
	snprintf(path, sizeof path, "%s/dated.html", dir);
	gpulab("board", edited(dir, "dated.json", W1, "2026-10-01", "2<script>\\u001b"), "-o", path, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	read_text(path, page, sizeof page);
	ck_assert(!strstr(page, "<script") && strstr(page, "<td class=\"text\">2&lt;script&gt;\ufffd</td>"));
	gpulab("board", edited(dir, "dated.json", W1, "2026-10-01", "2<script>\\u001b"), NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert(strstr(o.out, "\nNVIDIA H200: 1 record, 2<script>\\x1b\n"));
}
END_TEST

/* gpulab report of grade records on two GPU models: not one history
 * (nor a comparison), but a board each, as gpulab board draws them. */
START_TEST(report_never_ranks_two_gpus_together)
{
	char *dir = temp_dir(), path[4200], page[1 << 17];
	snprintf(path, sizeof path, "%s/two.html", dir);
	gpulab("report", W1, H100, "-o", path, NULL);
	ck_assert_msg(o.status == 0 && !o.err[0], "%d %s", o.status, o.err);
	read_text(path, page, sizeof page);
	ck_assert_int_eq(occurrences(page, "<section class=\"history\""), 1);
	ck_assert(strstr(page, "<h2>The class over time, a board per GPU model</h2>"));
	ck_assert_int_eq(occurrences(page, "<section class=\"gpu-board\""), 2);
	ck_assert_int_eq(occurrences(page, "<section class=\"record\""), 2);
	ck_assert(!strstr(page, "class=\"comparison\"") && !strstr(page, "<table class=\"history\""));
	ck_assert(strstr(page, "<tr data-student=\"alice\" data-rank=\"1\" data-best=\"0.5\">"));
	/* one GPU model: the history as before */
	gpulab("report", W1, W2, "-o", path, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	read_text(path, page, sizeof page);
	ck_assert(strstr(page, "<table class=\"history\"") && !strstr(page, "class=\"gpu-board\""));
	/* a record report draws but board refuses: the line, on the page */
	gpulab("report", W1, edited(dir, "undated.json", H100, "\"date\": \"2026-10-09T14:00:00Z\", ", ""), "-o", path,
	       NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	read_text(path, page, sizeof page);
	ck_assert(strstr(page, "<p>No board: ") && strstr(page, "undated.json: no &quot;date&quot;: a board orders its "
								 "records by it.</p>"));
}
END_TEST

/* A record a board cannot use: one line naming it and what is wrong, exit 2. */
START_TEST(hostile_records_refused)
{
	char *dir = temp_dir();
	char line[4300];
	gpulab("board", W1, write_file(dir, "garbage.json", "not json at all\n"), NULL);
	expect_error(EXIT_USAGE, "garbage.json");
	gpulab("board", sample("h200-reduce-2p24.json"), NULL);
	expect_error(EXIT_USAGE, "h200-reduce-2p24.json: not a grade record: no \"grade\"");
	gpulab("board", W1, edited(dir, "undated.json", W2, "\"date\": \"2026-10-08T09:00:00Z\", ", ""), NULL);
	expect_error(EXIT_USAGE, "undated.json: no \"date\": a board orders its records by it");
	gpulab("board", edited(dir, "nodevice.json", W2, "\"device\": {", "\"devices\": {"), NULL);
	expect_error(EXIT_USAGE, "nodevice.json: no \"device\" name: a board ranks one GPU model's records");
	gpulab("board", edited(dir, "quiz.json", W2, "\"challenge\": \"reduce\"", "\"challenge\": \"reduce\", \"mode\": \"quiz\""),
	       NULL);
	expect_error(EXIT_USAGE, "quiz.json: \"grade.mode\": expected \"test\" or \"ranked\"");
	gpulab("board", edited(dir, "badkernel.json", W2, "\"rank\": 1,", "\"rank\": \"first\","), NULL);
	expect_error(EXIT_USAGE, "badkernel.json: \"grade.kernels[0].rank\"");
	snprintf(line, sizeof line, "%s: a grade of \"transpose\", but %s is of \"reduce\": a board is of one challenge",
		 sample("board/transpose-week1.json"), W1);
	gpulab("board", W1, sample("board/transpose-week1.json"), NULL);
	expect_error(EXIT_USAGE, line);
	gpulab("board", NULL);
	expect_error(EXIT_USAGE, "board: name grade records of one challenge");
	struct board_doc b;
	char err[256] = "";
	ck_assert_int_eq(board_read(&b, NULL, 0, err, sizeof err), EXIT_USAGE);
	ck_assert_str_eq(err, "no records: a board is of grade records (gpulab grade -o writes them)");
	board_free(&b);
	gpulab("board", W1, "-o", "x.html", "--format", "csv", NULL);
	expect_error(EXIT_USAGE, "board: -o draws the page, --format prints the board: one or the other");
	gpulab("board", W1, "-o", "x.svg", NULL);
	expect_error(EXIT_USAGE, "board: -o x.svg: the page is a .html file");
	gpulab("board", W1, "--base", "x", NULL);
	expect_error(EXIT_USAGE, "board: takes no --base");
	/* a test-mode record without a device is on a board of its own */
	gpulab("board", edited(dir, "gateonly.json", W4, "\"device\": {", "\"devices\": {"), NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert(strstr(o.out, "\nno GPU: 1 record, 2026-10-20\n"));
}
END_TEST

int main(void)
{
	bin = getenv("GPULAB_BIN");
	if (!bin) {
		fprintf(stderr, "GPULAB_BIN must be set (make check sets it)\n");
		return 99;
	}
	snprintf(records, sizeof records, "%s/tests/records", getenv("srcdir") ? getenv("srcdir") : "..");
	run_cmd_alarm(20);
	Suite *s = suite_create("board");
	TCase *t = tcase_create("board");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, one_board_per_gpu);
	tcase_add_test(t, best_and_history);
	tcase_add_test(t, real_and_older_records);
	tcase_add_test(t, students_by_file_name);
	tcase_add_test(t, table_for_people);
	tcase_add_test(t, csv_and_markdown);
	tcase_add_test(t, json_document);
	tcase_add_test(t, page_per_gpu);
	tcase_add_test(t, report_never_ranks_two_gpus_together);
	tcase_add_test(t, hostile_records_refused);
	suite_add_tcase(s, t);
	return run_suite(s, 0);
}
