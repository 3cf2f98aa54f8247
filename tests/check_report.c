/* gpulab report, on the CPU: the committed sample records (tests/records)
 * drawn as the record says, hostile records refused in one line or drawn
 * escaped, and nothing half-written.  The page in a real browser is
 * tests/browser.sh's. */
#include "draw/numbers.h"
#include "exitcode.h"
#include "records/json.h"
#include "records/record.h"
#include "schema.h"
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
static char page[1 << 20];

/* gpulab ARGS... (NULL-terminated) */
static void gpulab(const char *first, ...)
{
	va_list ap;
	va_start(ap, first);
	run_cmd_va(&o, bin, NULL, first, ap);
	va_end(ap);
}

static const char *sample(const char *name)
{
	static char path[8][4200];
	static int next;
	char *p = path[next++ % 8];
	snprintf(p, 4200, "%s/%s", records, name);
	return p;
}

static const char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(page, 1, sizeof page - 1, f) : 0;
	page[n] = 0;
	if (f)
		fclose(f);
	return page;
}

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* Render record name to dir/out, which must succeed; the page's text. */
static const char *render(const char *dir, const char *name, const char *out)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", dir, out);
	gpulab("report", sample(name), "-o", path, NULL);
	ck_assert_msg(o.status == 0 && !o.err[0], "%s: exit %d: %s", name, o.status, o.err);
	return slurp(path);
}

/* One line on stderr holding words, and the exit code.  (How fast a
 * refusal comes is bench/refusals.sh's to measure, not a test's.) */
static void expect_error(int code, const char *words)
{
	ck_assert_msg(o.status == code, "exit %d, wanted %d; stderr: %s", o.status, code, o.err);
	ck_assert_msg(strstr(o.err, words) != NULL, "stderr lacks '%s': %s", words, o.err);
	ck_assert_msg(count_lines(o.err) == 1 && !strncmp(o.err, "gpulab: ", 8), "%s", o.err);
}

/* Every measured result of the record is a bar whose data-gbps is the
 * record's number, and whose height is that number on one scale. */
static void bars_match_record(const char *html, const char *name)
{
	char err[256], want[128];
	struct json *doc = json_read_file(sample(name), 1 << 20, err, sizeof err);
	const struct json *results = json_get(doc, "results");
	double scale = NAN, top = 0;
	int measured = 0;
	ck_assert_msg(doc, "%s", err);
	for (int pass = 0; pass < 2; pass++)
	for (size_t i = 0; i < json_len(results); i++) {
		const char *gbps = json_number_text(json_get(json_index(results, i), "gbps"));
		if (!gbps)
			continue;
		snprintf(want, sizeof want, "data-gbps=\"%s\"", gbps);
		const char *bar = strstr(html, want), *h = bar ? strstr(bar, "height=\"") : NULL;
		ck_assert_msg(h, "%s: no bar with %s", name, want);
		if (pass == 0) { /* the scale from the tallest bar, where rounding matters least */
			if (atof(gbps) > top)
				top = atof(gbps), scale = atof(h + 8) / top;
			continue;
		}
		measured++;
		ck_assert_msg(fabs(atof(h + 8) - scale * atof(gbps)) < 0.02, "%s: bar %s is %.2f high, not %.2f", name, gbps,
			      atof(h + 8), scale * atof(gbps));
	}
	ck_assert_int_eq(count(html, "<g class=\"bar\""), measured);
	json_free(doc);
}

START_TEST(ladder_is_bars)
{
	char *dir = temp_dir();
	const char *html = render(dir, "h200-reduce-2p24.json", "r.html");
	ck_assert(!strncmp(html, "<!DOCTYPE html>", 15));
	bars_match_record(html, "h200-reduce-2p24.json");
	/* the header, from the record */
	ck_assert(strstr(html, "<dt>device</dt><dd>NVIDIA H200</dd>"));
	ck_assert(strstr(html, "<dt>peak bandwidth</dt><dd>4814.3 GB/s"));
	ck_assert(strstr(html, "<dt>NVIDIA driver</dt><dd>580.95.05</dd>"));
	ck_assert(strstr(html, "<code>gpulab run reduce -t int -n 2^24 -w 5 --quiet --output docs/bench-reduce-2.json</code>"));
	/* the peak, cub as a ceiling, labels of speedup and share */
	ck_assert(strstr(html, "<g class=\"peak\" data-gbps=\"4814.3\">"));
	ck_assert_int_eq(count(html, "<g class=\"ceiling\""), 1);
	ck_assert(strstr(html, "<g class=\"ceiling\" data-gbps=\"2633.555\">"));
	ck_assert(strstr(html, ">10.25\u00d7</text>") && strstr(html, ">115%</text>"));
	/* accessible: a title and a description per chart, a table of it */
	ck_assert_int_eq(count(html, "<svg "), 1);
	ck_assert(strstr(html, "<title id=\"r1-c1-title\">GB/s by exercise</title>"));
	ck_assert(strstr(html, "<desc id=\"r1-c1-desc\">A bar chart of 19 points in GB/s; the device&#39;s peak is 4814.3 GB/s."));
	ck_assert_int_eq(count(html, "<table class=\"data\">"), 1);
	/* the terminal's columns, then --wide's folded: a row each */
	ck_assert_int_eq(count(html, "<td class=\"text\">reduce."), 2 * 19);
	ck_assert_int_eq(count(html, "<details class=\"wide\">"), 1);
	ck_assert(strstr(html, "<td title=\"gbps = 2633.555\">2633.6</td>"));
	ck_assert(strstr(html, "Every row that has it: n = 2^24 (16777216) \u00b7 block = 512 \u00b7 type = int \u00b7 warmup = 5"));
	/* nothing to fetch: no URL but the SVG namespace */
	ck_assert_int_eq(count(html, "://"), count(html, "xmlns=\"http://www.w3.org/2000/svg\""));
	ck_assert(!strstr(html, "<script"));
}
END_TEST

/* The digits of every number in a cell that is not text: at most 5
 * significant (issue 48); how many cells were read. */
static int cells_for_people(const char *html)
{
	int cells = 0;
	for (const char *td = strstr(html, "<td"); td; td = strstr(td + 1, "<td")) {
		const char *open = strchr(td, '>'), *end = strstr(td, "</td>");
		if (!strncmp(td, "<td class=\"text", 15) || !open || !end)
			continue;
		cells++;
		for (const char *c = open + 1; c < end;) {
			int digits = 0, lead = 1;
			for (; c < end && ((*c >= '0' && *c <= '9') || (*c == '.' && !lead)); c++)
				if (*c != '.' && !(lead && *c == '0'))
					digits++, lead = 0;
			ck_assert_msg(digits <= 5, "%.*s", (int)(end - open - 1), open + 1);
			c += c < end;
		}
	}
	return cells;
}

START_TEST(numbers_for_people)
{
	char buf[64];
	ck_assert_str_eq(numbers_text(buf, sizeof buf, 0.00567494984716177, 4), "0.0057");
	ck_assert_str_eq(numbers_text(buf, sizeof buf, 123.4567, 4), "123.46");
	ck_assert_str_eq(numbers_text(buf, sizeof buf, 1962.519, 1), "1962.5");
	ck_assert_str_eq(numbers_text(buf, sizeof buf, 99999.96, 1), "100.00k");
	ck_assert_str_eq(numbers_text(buf, sizeof buf, 1000003, 0), "1.0000M");
	ck_assert_str_eq(numbers_text(buf, sizeof buf, -3.14159, 1), "-3.1");
	ck_assert_str_eq(numbers_text(buf, sizeof buf, NAN, 1), "\u2013");
	ck_assert_str_eq(numbers_size(buf, sizeof buf, 16777216), "2^24");
	ck_assert_str_eq(numbers_size(buf, sizeof buf, 512), "512");
	ck_assert_str_eq(numbers_size(buf, sizeof buf, 67108864 + 1), "67.109M");
	/* the 24-point sweep whose every digit the tables printed */
	char *dir = temp_dir();
	const char *html = render(dir, "h200-reduce-sweep24.json", "s24.html");
	ck_assert_int_eq(cells_for_people(html), 24 * 7 + 24 * 5); /* n and the compact table's 6 numbers; --wide's 5 */
	ck_assert(strstr(html, "<td title=\"median_ms = 0.00567494984716177\">0.0057</td>"));
	ck_assert(strstr(html, "<td title=\"gbps = 0.723178197257998\">0.7</td>"));
	ck_assert(strstr(html, "<td title=\"elements = 1024\">2^10</td>"));
	ck_assert(strstr(html, "<td title=\"noise_pct = 5.621433534918766\">5.62</td>"));
	ck_assert(strstr(html, "Every row that has it: block = 512 \u00b7 type = int \u00b7 warmup = 5</p>"));
	ck_assert_int_eq(count(html, "<td class=\"text\">reduce.cub</td>"), 2 * 8);
}
END_TEST

/* A grade's record is a board: every kernel with its rank or its failure
 * and its line, the teacher's command, the library and best as lines,
 * and only the kernels as bars (issue 48). */
START_TEST(grade_is_a_board)
{
	char *dir = temp_dir();
	const char *html = render(dir, "h200-grade-reduce-1.json", "g.html");
	ck_assert(strstr(html, "<code>gpulab grade reduce submissions/ -n 2^24 -t int -o grade-1.json</code>"));
	ck_assert(!strstr(html, "gpulab try") && !strstr(html, ".gpulab-grade-"));
	ck_assert(strstr(html, "<caption>gpulab grade reduce: 8 kernels, 2 measured, 6 failed</caption>"));
	ck_assert(strstr(html, "<tr data-kernel=\"submissions/ada_shfl.cu\" data-rank=\"1\"><td>1</td>"));
	ck_assert(strstr(html, "<tr data-kernel=\"submissions/brian_unroll.cu\" data-rank=\"2\"><td>2</td>"));
	ck_assert_int_eq(count(html, "data-failure=\"wrong result\""), 2);
	ck_assert(strstr(html, "<td class=\"text flag\" colspan=\"4\">hung: stopped</td>"));
	ck_assert(strstr(html, "<dt>grace_ptr.cu (exit 134)</dt><dd>crashed: Aborted</dd>"));
	ck_assert(strstr(html, "<dt>carla_tail.cu (exit 1)</dt><dd>try reduce: submissions/carla_tail.cu fails the gate at "
			       "n=1000003 int: sum of 1000003 ints: expected 1000003, got 1000000; nothing was timed</dd>"));
	ck_assert_int_eq(count(html, "<g class=\"bar\""), 2);
	ck_assert_int_eq(count(html, "<g class=\"ceiling\""), 2);
	ck_assert(strstr(html, ">reduce.best 3028.0 GB/s<") && strstr(html, ">reduce.cub 2634.2 GB/s<"));
	ck_assert(strstr(html, ">ada_shfl.cu</text>") && strstr(html, ">brian_unroll.cu</text>"));
	ck_assert(!strstr(html, "class=\"comparison\""));
	/* two days of the class: each kernel's best, and who improved */
	char path[4200];
	snprintf(path, sizeof path, "%s/h.html", dir);
	gpulab("report", sample("h200-grade-reduce-1.json"), sample("h200-grade-reduce-2.json"), "-o", path, NULL);
	ck_assert_msg(o.status == 0 && !o.err[0], "%s", o.err);
	html = slurp(path);
	ck_assert_int_eq(count(html, "<section class=\"history\""), 1);
	ck_assert_int_eq(count(html, "<section class=\"record\""), 2);
	ck_assert(!strstr(html, "class=\"comparison\""));
	ck_assert(strstr(html, "Improved in the last record (2026-11-27), past their best before it: ada_shfl.cu, "
			       "hugo_race.cu, carla_tail.cu, brian_unroll.cu, erin_spin.cu.</p>"));
	ck_assert(strstr(html, "<tr><td class=\"text\">dmitri_oob.cu</td><td class=\"text flag\">faulted or trapped</td>"
			       "<td class=\"text flag\">faulted or trapped</td><td>\u2013</td>"));
	ck_assert_int_eq(cells_for_people(html) > 0, 1);
	/* the board's "of ref" is grade's own share where the record has it
	 * (each kernel after the first compared against a resumed point) */
	char shared[1 << 16], *k2;
	snprintf(shared, sizeof shared, "%s", slurp(sample("h200-grade-reduce-1.json")));
	ck_assert((k2 = strstr(shared, "\"kernel\": \"submissions/brian_unroll.cu\", \"rank\": 2, \"exit\"")));
	k2 = strstr(k2, "\"exit\"");
	memmove(k2 + 21, k2, strlen(k2) + 1);
	memcpy(k2, "\"ref_share\": 0.4321, ", 21);
	gpulab("report", write_file(dir, "shared.json", shared), "-o", path, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert(strstr(slurp(path), "data-rank=\"2\">") && strstr(slurp(path), "<td title=\"ref_share = 0.4321\">43%</td>"));
	/* a kernel's file name is text, whatever it holds */
	char text[1 << 16], *at;
	snprintf(text, sizeof text, "%s", slurp(sample("h200-grade-reduce-1.json")));
	while ((at = strstr(text, "carla_tail")))
		memcpy(at, "<b>carla>", 9), at[9] = '<';
	write_file(dir, "hostile.json", text);
	snprintf(path, sizeof path, "%s/hostile.json", dir);
	char page_path[4300];
	snprintf(page_path, sizeof page_path, "%s/hostile.html", dir);
	gpulab("report", path, "-o", page_path, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	html = slurp(page_path);
	ck_assert(!strstr(html, "<b>carla") && strstr(html, "<dt>&lt;b&gt;carla&gt;&lt;.cu (exit 1)</dt>"));
	/* and so is a record's date, in every place the history prints its day */
	snprintf(text, sizeof text, "%s", slurp(sample("h200-grade-reduce-2.json")));
	ck_assert((at = strstr(text, "2026-11-27T10:05:13Z")));
	memcpy(at, "2026<img src=x>aaaaa", 20);
	gpulab("report", sample("h200-grade-reduce-1.json"), write_file(dir, "date.json", text), "-o", page_path, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	html = slurp(page_path);
	ck_assert(!strstr(html, "<img") && strstr(html, "Improved in the last record (2026&lt;img s), past")
		  && strstr(html, "\">2026&lt;img s</th>"));
}
END_TEST

START_TEST(sweep_is_lines)
{
	char *dir = temp_dir();
	const char *html = render(dir, "h200-reduce-sweep.json", "s.html");
	ck_assert_int_eq(count(html, "<g class=\"series\""), 3);
	ck_assert(strstr(html, "data-series=\"reduce.unroll8\"") && strstr(html, "data-series=\"reduce.cub\"")
		  && strstr(html, "data-series=\"reduce.best\""));
	ck_assert_int_eq(count(html, "<polyline class=\"line\""), 3);
	ck_assert_int_eq(count(html, "<polygon class=\"band\""), 3);
	ck_assert_int_eq(count(html, "<g class=\"point\""), 21);
	ck_assert(strstr(html, "data-n=\"65536\"") && strstr(html, "data-n=\"268435456\""));
	ck_assert(strstr(html, ">2^16</text>") && strstr(html, ">2^28</text>") && !strstr(html, ">2^30</text>"));
	ck_assert(strstr(html, "n, elements (log\u2082 scale)"));
	/* cub's best as its ceiling; the one unconverged point hollow, and
	 * said in the table, not in a word over it (a sweep has many points) */
	ck_assert(strstr(html, "<g class=\"ceiling\" data-gbps=\"4386.346\">"));
	ck_assert_int_eq(count(html, ">NOISY</text>"), 0);
	ck_assert_int_eq(count(html, "<td class=\"text flag\">ok NOISY</td>"), 1);
	ck_assert_int_eq(count(html, "fill=\"#ffffff\" stroke=\"#0072B2\""), 1);
}
END_TEST

START_TEST(states_cannot_pass_for_good)
{
	char *dir = temp_dir();
	const char *html = render(dir, "h200-states.json", "st.html");
	bars_match_record(html, "h200-states.json");
	ck_assert_int_eq(count(html, "<g class=\"missing\""), 3);
	ck_assert(strstr(html, "data-exercise=\"reduce.interleaved\" data-status=\"FAILED\">"));
	ck_assert(strstr(html, "data-exercise=\"reduce.unroll16\" data-status=\"ERROR\">"));
	ck_assert(strstr(html, "data-exercise=\"reduce.smem_dyn\" data-status=\"skipped\">"));
	ck_assert_int_eq(count(html, "<rect class=\"caveat\""), 3); /* NOISY, THROTTLED, unverified: hatched */
	ck_assert(strstr(html, ">NOISY</text>") && strstr(html, ">THROTTLED</text>") && strstr(html, ">unverified</text>"));
	ck_assert(strstr(html, "<td class=\"text flag\">ok THROTTLED</td>"));
	ck_assert(strstr(html, "<td class=\"text flag\">ok NOISY</td>"));
	ck_assert(strstr(html, "<b>FAILED</b>: sum: expected 2147483648, got 2147483136"));
	ck_assert(strstr(html, "3 not measured (FAILED, ERROR, skipped or not run), 3 measured but NOISY, THROTTLED or unverified"));
}
END_TEST

START_TEST(blocks_are_grouped_metrics_beside)
{
	char *dir = temp_dir();
	const char *html = render(dir, "h200-reduce-blocks.json", "b.html");
	bars_match_record(html, "h200-reduce-blocks.json");
	ck_assert(strstr(html, "<title id=\"r1-c1-title\">GB/s by exercise and parameters</title>"));
	ck_assert_int_eq(count(html, "data-variant=\"block=128\""), 4);
	ck_assert_int_eq(count(html, "data-variant=\"block=1024\""), 4);
	ck_assert(strstr(html, ">block=256</text>"));
	html = render(dir, "h100-divergence-metrics.json", "d.html");
	ck_assert(strstr(html, "<div class=\"metrics\"><table class=\"counters\">"));
	/* a header may break only between its words (issue 52) */
	ck_assert(strstr(html, "<th title=\"smsp__thread_inst_executed_per_inst_executed.pct\">warp_<wbr>execution_<wbr>"
			       "efficiency</th>"));
	ck_assert_int_eq(count(html, "<td>50.16</td>"), 2);
	ck_assert_int_eq(count(html, "<td>100</td>"), 4);
	/* 32 GB/s against a 3352 GB/s peak: the peak is left off the axis */
	ck_assert(!strstr(html, "class=\"peak\""));
}
END_TEST

START_TEST(two_records_compare)
{
	char *dir = temp_dir(), path[4200];
	snprintf(path, sizeof path, "%s/c.html", dir);
	gpulab("report", sample("h200-reduce-2p24.json"), sample("h200-reduce-2p24-new.json"), "-o", path, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	const char *html = slurp(path);
	ck_assert_int_eq(count(html, "<g class=\"ratio\""), 19);
	ck_assert(strstr(html, "<g class=\"ratio\" data-exercise=\"reduce.unroll8\" data-verdict=\"faster\""));
	ck_assert(strstr(html, "<g class=\"ratio\" data-exercise=\"reduce.best\" data-verdict=\"slower\""));
	ck_assert_int_eq(count(html, "<section class=\"record\""), 2);
	/* records that share no point are two sections, no comparison */
	gpulab("report", sample("h200-reduce-2p24.json"), sample("h200-reduce-2p28.json"), "-o", path, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	html = slurp(path);
	ck_assert(!strstr(html, "class=\"comparison\"") && count(html, "<section class=\"record\"") == 2);
	ck_assert_msg(!o.out[0], "%s", o.out); /* for people, the page alone */
	/* --format json: what the page shows, from which records, as one document */
	gpulab("report", sample("h200-reduce-2p24.json"), sample("h200-reduce-2p28.json"), "-o", path, "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "\"shows\": \"records\", \"paired\": 0,"), "%d %s %s", o.status, o.out,
		      o.err);
	gpulab("report", sample("h200-reduce-2p24.json"), sample("h200-reduce-2p24-new.json"), "-o", path, "--format", "json",
	       NULL);
	ck_assert_msg(o.status == 0 && !strncmp(o.out, "{\n  \"schema\": \"gpulab-report/1\",\n  \"output\": \"", 46)
		      && strstr(o.out, "\"shows\": \"comparison\", \"paired\": 19,") && count(o.out, "\"points\": 19, \"measured\": 19}") == 2
		      && strstr(o.out, "h200-reduce-2p24-new.json\", \"schema\": \"gpulab-record/1\", \"device\": \"NVIDIA H200\", "
				       "\"grade\": false, \"finished\": true"), "%d %s %s", o.status, o.out, o.err);
	ck_assert_int_eq(count(slurp(path), "<g class=\"ratio\""), 19); /* the page the same */
}
END_TEST

START_TEST(one_chart_as_svg)
{
	char *dir = temp_dir(), path[4200];
	snprintf(path, sizeof path, "%s/one.svg", dir);
	gpulab("report", sample("h200-transpose-8192.json"), "-o", path, NULL);
	ck_assert_msg(o.status == 0 && !o.err[0], "%s", o.err);
	const char *svg = slurp(path);
	const char *head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"";
	ck_assert_msg(!strncmp(svg, head, strlen(head)), "%.200s", svg);
	ck_assert_int_eq(count(svg, "<svg "), 1);
	ck_assert(!strstr(svg, "<html"));
	ck_assert_int_eq(count(svg, "<g class=\"ceiling\""), 2); /* memcpy and copy_row */
	/* two records: the first chart, and a warning that there are more */
	gpulab("report", sample("h200-transpose-8192.json"), sample("h200-reduce-2p24.json"), "-o", path, NULL);
	ck_assert_msg(o.status == 0 && strstr(o.err, "warning: the .svg holds the first of 2 charts"), "%s", o.err);
}
END_TEST

/* The samples are what gpulab run --output writes: they hold to its schema. */
START_TEST(samples_hold_to_the_schema)
{
	static const char *const names[] = { "h200-reduce-2p24.json", "h200-reduce-2p24-new.json", "h200-reduce-2p28.json",
					     "h200-reduce-sweep.json", "h200-reduce-blocks.json", "h200-transpose-8192.json",
					     "h100-divergence-metrics.json", "h200-states.json", "h200-reduce-sweep24.json",
					     "h200-grade-reduce-1.json", "h200-grade-reduce-2.json" };
	char err[512], path[4200];
	snprintf(path, sizeof path, "%s/../../docs/record.schema.json", records);
	struct json *schema = json_read_file(path, 1 << 20, err, sizeof err);
	ck_assert_msg(schema, "%s", err);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct json *doc = record_read(sample(names[i]), err, sizeof err); /* a journal as every reader reads it */
		ck_assert_msg(doc, "%s", err);
		ck_assert_msg(schema_check(doc, schema, err, sizeof err) == 0, "%s: %s", names[i], err);
		json_free(doc);
	}
	json_free(schema);
}
END_TEST

/* --- hostile records ----------------------------------------------------------- */

/* The 2^24 sample with `from` replaced by `to` (its first occurrence). */
static const char *edited(const char *dir, const char *name, const char *from, const char *to)
{
	static char text[1 << 17];
	char out[sizeof text];
	slurp(sample("h200-reduce-2p24.json"));
	snprintf(text, sizeof text, "%s", page);
	char *at = strstr(text, from);
	ck_assert_msg(at, "no '%s' in the sample", from);
	snprintf(out, sizeof out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return write_file(dir, name, out);
}

/* Two records timed differently (--batch, --cold) are compared with a
 * warning on stderr, as gpulab compare gives, and on the page above the
 * comparison; alike ones without. */
START_TEST(two_records_timed_differently)
{
	char *dir = temp_dir(), path[4200], base[4200];
	snprintf(path, sizeof path, "%s/c.html", dir);
	snprintf(base, sizeof base, "%s", sample("h200-reduce-2p24.json"));
	gpulab("report", base, sample("h200-reduce-2p24.json"), "-o", path, NULL);
	ck_assert_msg(o.status == 0 && !strstr(o.err, "warning"), "%s", o.err);
	ck_assert_msg(!strstr(slurp(path), "class=\"warnings\""), "%s", page);
	const char *rec = edited(dir, "batch.json", "\"cold\": false, ", "\"cold\": false, \"batch\": 20, ");
	gpulab("report", base, rec, "-o", path, NULL);
	ck_assert_msg(o.status == 0 && strstr(o.err, "gpulab: warning: the records time batches of 1 and 20 runs (--batch): "
					       "launch gaps count differently\n"), "%s", o.err);
	const char *html = slurp(path), *cmp = strstr(html, "<section class=\"comparison\"");
	ck_assert_msg(cmp && strstr(cmp, "</h2>\n<ul class=\"warnings\">\n<li>the records time batches of 1 and 20 runs "
					"(--batch): launch gaps count differently</li>\n</ul>\n<figure>"), "%s", html);
	rec = edited(dir, "cold.json", "\"cold\": false, ", "\"cold\": true, ");
	gpulab("report", base, rec, "-o", path, NULL);
	ck_assert_msg(o.status == 0 && !strstr(o.err, "--batch")
		      && strstr(o.err, "gpulab: warning: one record flushed the L2 cache (--cold) and the other did not\n"), "%s", o.err);
	ck_assert_msg(strstr(slurp(path), "<li>one record flushed the L2 cache (--cold) and the other did not</li>\n</ul>"),
		      "%s", page);
}
END_TEST

START_TEST(hostile_names_are_text)
{
	char *dir = temp_dir(), path[4200];
	snprintf(path, sizeof path, "%s/h.html", dir);
	const char *rec = edited(dir, "a.json", "\"reduce.neighbored\"", "\"reduce.</script><script>alert(1)</script>\"");
	char in[4200];
	snprintf(in, sizeof in, "%s", rec);
	rec = edited(dir, "b.json", "\"type\": \"int\"", "\"type\": \"<svg onload=alert(1)>\\\" onmouseover='x'\"");
	gpulab("report", in, rec, "-o", path, NULL);
	ck_assert_msg(o.status == 0, "%s", o.err);
	const char *html = slurp(path);
	ck_assert(!strstr(html, "<script") && !strstr(html, "<svg onload") && !strstr(html, "' onmouseover"));
	ck_assert(strstr(html, "reduce.&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
	ck_assert(strstr(html, "type=&lt;svg onload=alert(1)&gt;&quot; onmouseover=&#39;x&#39;"));
	ck_assert(strstr(html, "Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\""));
}
END_TEST

START_TEST(hostile_records_refused)
{
	char *dir = temp_dir(), out[4200], *in = malloc(4200);
	snprintf(out, sizeof out, "%s/r.html", dir);
	write_file(dir, "r.html", "the old report\n");
	struct {
		const char *from, *to, *words;
	} cases[] = {
		{ "\"gbps\": 301.193", "\"gbps\": NaN", "line 1, column" },
		{ "\"gbps\": 301.193, ", "", "result 1 (reduce.neighbored): \"gbps\" is missing" },
		{ "\"gbps\": 301.193", "\"gbps\": \"fast\"", "result 1 (reduce.neighbored): \"gbps\": expected a number or null, found a string" },
		{ "\"gbps\": 301.193", "\"gbps\": 1e300", "\"gbps\": 1e300 is outside 0 to 1e+09" },
		{ "\"gbps\": 301.193", "\"gbps\": -1", "\"gbps\": -1 is outside" },
		{ "\"status\": \"ok\"", "\"status\": \"fine\"", "\"status\": expected ok, unverified, FAILED, ERROR, skipped or not run" },
		{ "\"schema\": \"gpulab-record/1\"", "\"schema\": \"gpulab-record/3\"", "its schema is gpulab-record/3" },
		/* what a refusal quotes from the record reaches the terminal escaped, on one line */
		{ "\"schema\": \"gpulab-record/1\"", "\"schema\": \"gpulab-record/3\\r\\n\\u009b\"",
		  "its schema is gpulab-record/3\\r\\n\\u009b (gpulab run --output writes one)" },
		{ "\"exercise\": \"reduce.neighbored\", \"params\": {",
		  "\"exercise\": \"reduce.\\n\\u001b[2Jneighbored\", \"params\": {\"x\": [1], ",
		  "result 1 (reduce.\\n\\x1b[2Jneighbored): \"params\": a value is an array" },
		{ "\"device\": {", "\"device\": 7, \"x\": {", "\"device\": expected an object or null, found a number" },
		{ "\"command\": ", "\"command\": 5, \"commanded\": ", "\"command\": expected a string, found a number" },
		{ "\"elements\": 16777216", "\"elements\": 1.5", "\"elements\": expected a count, found 1.5" },
		{ "\"throttled\": 0", "\"throttled\": -2", "expected a count of runs, found -2" },
		{ "\"params\": {", "\"params\": {\"x\": [1], ", "\"params\": a value is an array" },
		/* grade's member (issue 48), each key of it named */
		{ "\"command\": ", "\"grade\": 5, \"command\": ", "\"grade\": expected an object, found a number" },
		{ "\"command\": ", "\"grade\": {\"challenge\": \"reduce\"}, \"command\": ", "\"grade.kernels\" is missing" },
		{ "\"command\": ", "\"grade\": {\"challenge\": \"reduce\", \"kernels\": [{\"kernel\": \"a.cu\", \"rank\": 1.5, "
		  "\"exit\": null, \"failure\": null, \"reason\": null}]}, \"command\": ",
		  "\"grade.kernels[0].rank\": expected a count, found 1.5" },
		{ "\"command\": ", "\"grade\": {\"challenge\": \"reduce\", \"kernels\": [{\"kernel\": \"a.cu\", \"rank\": null, "
		  "\"exit\": 1, \"failure\": null}]}, \"command\": ", "\"grade.kernels[0].reason\" is missing" },
		{ "\"command\": ", "\"grade\": {\"challenge\": \"reduce\", \"kernels\": [[]]}, \"command\": ",
		  "\"grade.kernels[0]\": expected an object, found an array" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(in, 4200, "%s", edited(dir, "bad.json", cases[i].from, cases[i].to));
		gpulab("report", in, "-o", out, NULL);
		expect_error(EXIT_USAGE, cases[i].words);
		ck_assert_msg(strstr(o.err, in), "the file is not named: %s", o.err);
	}
	/* truncated: the reader says where it ran out */
	slurp(sample("h200-reduce-2p24.json"));
	page[strlen(page) / 2] = 0;
	snprintf(in, 4200, "%s", write_file(dir, "cut.json", page));
	gpulab("report", in, "-o", out, NULL);
	expect_error(EXIT_USAGE, "cut.json: line 1, column");
	/* nothing half-written: the old file stands, no temporary is left */
	ck_assert_str_eq(slurp(out), "the old report\n");
	gpulab("report", sample("h200-reduce-2p24.json"), "-o", "/nonexistent/r.html", NULL);
	expect_error(EXIT_USAGE, "-o /nonexistent/r.html: cannot write beside it");
	ck_assert_int_eq(count_temporaries(dir), 0);
	free(in);
}
END_TEST

/* A record of 10^6 points is refused before it is drawn; so is one of more points
 * than a run makes. */
START_TEST(huge_records_refused)
{
	char *dir = temp_dir(), out[4200], path[4200];
	snprintf(out, sizeof out, "%s/r.html", dir);
	snprintf(path, sizeof path, "%s/huge.json", dir);
	FILE *f = fopen(path, "w");
	fputs("{\"schema\": \"gpulab-record/1\", \"results\": [", f);
	/* 4 values a result: 300000 results pass the parser's 2^20 values, in
	 * 16 MB rather than 53 */
	for (int i = 0; i < 300000; i++)
		fprintf(f, "%s{\"exercise\": \"reduce.best\", \"params\": {\"n\": %d}}", i ? "," : "", i + 1);
	fputs("]}\n", f);
	fclose(f);
	gpulab("report", path, "-o", out, NULL);
	expect_error(EXIT_USAGE, "more than 1048576 values");
	f = fopen(path, "w");
	fputs("{\"schema\": \"gpulab-record/1\", \"gpulab\": {\"version\": \"0.1.0\"}, \"host\": \"h\", \"date\": \"d\", "
	      "\"command\": \"c\", \"device\": null, \"results\": [", f);
	for (int i = 0; i < 10001; i++)
		fprintf(f, "%s{\"exercise\": \"reduce.best\"}", i ? "," : "");
	fputs("]}\n", f);
	fclose(f);
	gpulab("report", path, "-o", out, NULL);
	expect_error(EXIT_USAGE, "10001 results, more than the 10000 one run makes");
}
END_TEST

/* A ranked record of the multigpu collectives (docs/records/bench-ranks-1.json)
 * beside nccl-tests' output of the same call (issue 45): the busbw chart
 * has a line for each exercise with a busbw and for each collective of
 * the file, and its table holds nccl-tests' figures as written. */
START_TEST(busbw_beside_nccl_tests)
{
	char *dir = temp_dir(), html[4200], svg[4200], rec[4200], nt[4200];
	const char *src = getenv("srcdir") ? getenv("srcdir") : "..";
	snprintf(rec, sizeof rec, "%s/docs/records/bench-ranks-1.json", src);
	snprintf(nt, sizeof nt, "%s/docs/records/bench-ranks-nccl-tests.txt", src);
	snprintf(html, sizeof html, "%s/busbw.html", dir);
	snprintf(svg, sizeof svg, "%s/busbw.svg", dir);
	gpulab("report", rec, "--nccl-tests", nt, "-o", html, NULL);
	ck_assert_msg(o.status == 0 && !o.err[0], "exit %d: %s", o.status, o.err);
	const char *doc = slurp(html);
	ck_assert_int_eq(count(doc, "busbw against the size, as nccl-tests defines it"), 1);
	ck_assert_int_eq(count(doc, "data-series=\"multigpu.allreduce_nccl\""), 2); /* GB/s, and busbw */
	ck_assert_int_eq(count(doc, "data-series=\"all_reduce\""), 1);
	ck_assert_int_eq(count(doc, "data-series=\"broadcast\""), 1);
	/* all_reduce_perf at 1 MiB: 69.08 GB/s out of place (the in-place 69.94 is not read) */
	ck_assert_msg(strstr(doc, "<td class=\"text\">nccl-tests all_reduce</td><td>1048576</td><td>69.08</td>"), "no row");
	ck_assert_int_eq(count(doc, "<td class=\"text\">nccl-tests "), 4 * 6);
	/* the .svg is then the busbw chart alone */
	gpulab("report", rec, "--nccl-tests", nt, "-o", svg, NULL);
	ck_assert_msg(o.status == 0 && !o.err[0], "exit %d: %s", o.status, o.err);
	ck_assert_int_eq(count(slurp(svg), "<polyline"), 5 + 4);
	/* without the file: the busbw chart, gpulab's lines alone */
	gpulab("report", rec, "-o", html, NULL);
	doc = slurp(html);
	ck_assert_int_eq(count(doc, "data-series=\"all_reduce\""), 0);
	ck_assert_int_eq(count(doc, "busbw against the size, as nccl-tests defines it"), 1);
}
END_TEST

/* nccl-tests' output is the user's file: what is not, is refused in one
 * line naming the file and the line. */
START_TEST(nccl_tests_refused)
{
	char *dir = temp_dir(), path[4200], html[4200];
	static const struct {
		const char *text, *words;
	} cases[] = {
		{ "", "no rows of nccl-tests' output" },
		{ "# nothing here\n", "no rows of nccl-tests' output" },
		{ "   1048576  262144 float sum -1 15.18 69.08 69.08 0\n", "line 1: a row before any \"# Collective test starting:\" line" },
		{ "# Collective test starting: all_reduce_perf\n 1048576 262144 float sum -1 15.18 69.08\n",
		  "line 2: not a row of nccl-tests'" },
		{ "# Collective test starting: all_reduce_perf\n 1048576 262144 float sum -1 x 69.08 69.08 0\n",
		  "line 2: not a row of nccl-tests'" },
		{ "# Collective test starting: all_reduce_perf\n 1048576 262144 float sum -1 1 1 -5 0\n",
		  "line 2: not a row of nccl-tests'" },
		{ "# Collective test starting: all_reduce_perf\n 0 0 float sum -1 1 1 1 0\n", "line 2: not a row" },
		{ "# Collective test starting: all_reduce_perf\n 1048576 1 float sum -1 1 1 \x1b[31m 0\n", "\\x1b[31m" },
	};
	snprintf(path, sizeof path, "%s/nt.txt", dir);
	snprintf(html, sizeof html, "%s/x.html", dir);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		FILE *f = fopen(path, "w");
		ck_assert(f && fputs(cases[i].text, f) >= 0 && fclose(f) == 0);
		gpulab("report", sample("h200-reduce-2p24.json"), "--nccl-tests", path, "-o", html, NULL);
		expect_error(EXIT_USAGE, cases[i].words);
		ck_assert_msg(strstr(o.err, path), "case %zu: %s", i, o.err);
	}
	gpulab("run", "--nccl-tests", path, "fake.ok", NULL);
	expect_error(EXIT_USAGE, "run: takes no --nccl-tests; it takes ");
}
END_TEST

START_TEST(usage)
{
	gpulab("report", sample("h200-reduce-2p24.json"), NULL);
	expect_error(EXIT_USAGE, "report: name the output with -o FILE.html");
	gpulab("report", sample("h200-reduce-2p24.json"), "-o", "/tmp/x.png", NULL);
	expect_error(EXIT_USAGE, "-o FILE.svg");
	gpulab("report", "-o", "/tmp/x.html", NULL);
	expect_error(EXIT_USAGE, "report: name at least one record");
	gpulab("report", "/nonexistent.json", "-o", "/tmp/x.html", NULL);
	expect_error(EXIT_USAGE, "/nonexistent.json: No such file or directory");
	gpulab("report", "--help", NULL);
	ck_assert(strstr(o.out, "usage: gpulab report RECORD.json... -o FILE.html|FILE.svg"));
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
	Suite *s = suite_create("report");
	TCase *t = tcase_create("report");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, samples_hold_to_the_schema);
	tcase_add_test(t, ladder_is_bars);
	tcase_add_test(t, sweep_is_lines);
	tcase_add_test(t, numbers_for_people);
	tcase_add_test(t, grade_is_a_board);
	tcase_add_test(t, states_cannot_pass_for_good);
	tcase_add_test(t, blocks_are_grouped_metrics_beside);
	tcase_add_test(t, two_records_compare);
	tcase_add_test(t, two_records_timed_differently);
	tcase_add_test(t, one_chart_as_svg);
	tcase_add_test(t, hostile_names_are_text);
	tcase_add_test(t, hostile_records_refused);
	tcase_add_test(t, huge_records_refused);
	tcase_add_test(t, busbw_beside_nccl_tests);
	tcase_add_test(t, nccl_tests_refused);
	tcase_add_test(t, usage);
	suite_add_tcase(s, t);
	return run_suite(s, 0);
}
