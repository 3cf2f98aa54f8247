/* The run's report as a table for people: the compact table that fits
 * 100 columns, or --wide's with every column; its title, a sweep's
 * header, and the legends and messages under it. */
#include "emit/table.h"

#include "config/options.h"
#include "emit/compared.h"
#include "emit/counters.h"
#include "emit/row.h"
#include "escape.h"
#include "wrap.h"
#include "stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* One table, two widths: the compact one (the default) has the columns
 * a reader needs first, in TABLE_FIT columns; --wide's has every column.
 * In the compact table a row's label (its name, and the keys of its own
 * that a sweep changes) longer than NARROW_NAME gets a line of its own,
 * the row's cells under it; flags that do not fit after the status go
 * on lines of their own under it.  What an exercise chose and noted is
 * --wide's. */
#define TABLE_FIT WRAP_WIDTH
#define NARROW_NAME 22

/* The words of text (split at spaces), from column *col on, none past
 * TABLE_FIT: a word that would cross it starts a new line, indented by
 * indent, and one longer than such a line is cut.  gap: the spaces
 * before the first word, where it stays on the line.  *col: where the
 * last line ends. */
static void put_wrapped(FILE *out, const char *text, int *col, int indent, int gap)
{
	wrap_words(out, text, col, &(struct wrap){ .width = TABLE_FIT, .indent = indent, .gap = gap, .cut = 1 });
}

/* v in at most width characters: fewer decimals as it grows, and past
 * what none fit, ">" and nines (an interval of 123456% says ">9999"),
 * so that no value moves the columns after it. */
static const char *fit_number(char *buf, size_t len, int width, int decimals, double v)
{
	for (int d = decimals; d >= 0; d--)
		if (snprintf(buf, len, "%.*f", d, v) <= width)
			return buf;
	snprintf(buf, len, ">%.*s", width - 1, "9999999999999999");
	return buf;
}

static int narrow_namew(const struct table_layout *t)
{
	return t->labelw < NARROW_NAME ? t->labelw : NARROW_NAME;
}

/* The columns after a row's name and type, in order. */
enum column { C_N, C_BLOCK, C_PARAMS, C_MEDIAN, C_CI, C_MIN, C_MAX, C_RUNS, C_NOISE, C_HOST, C_GBPS, C_PEAK,
	      C_SPEEDUP, C_SHARE, COLUMNS };

/* Each column's title in the compact table ([0]) and --wide's ([1]), NULL
 * where it is not in that one, and its values' width there: a space, the
 * number right-aligned in width, then its suffix.  The compact table fits
 * a number to its width (fewer decimals, or ">999"); --wide's prints it
 * whole.  params is --wide's text column, as wide as the widest. */
static const struct column_def {
	const char *title[2];
	int width[2], decimals;
	const char *suffix;
} columns[COLUMNS] = {
	[C_N] = { { "n", "elements" }, { 11, 11 }, 0, "" },
	[C_BLOCK] = { { NULL, "block" }, { 0, 5 }, 0, "" },
	[C_PARAMS] = { { NULL, "params" }, { 0, 0 }, 0, "" },
	[C_MEDIAN] = { { "median ms", "median ms" }, { 9, 10 }, 4, "" },
	[C_CI] = { { "+-%", NULL }, { 6, 0 }, 2, "" },
	[C_MIN] = { { NULL, "min ms" }, { 0, 10 }, 4, "" },
	[C_MAX] = { { NULL, "max ms" }, { 0, 10 }, 4, "" },
	[C_RUNS] = { { NULL, "runs" }, { 0, 7 }, 0, "" },
	[C_NOISE] = { { NULL, "noise%" }, { 0, 6 }, 2, "" },
	[C_HOST] = { { NULL, "host ms" }, { 0, 9 }, 4, "" },
	[C_GBPS] = { { "GB/s", "GB/s" }, { 7, 8 }, 1, "" },
	[C_PEAK] = { { "%peak", "%peak" }, { 5, 6 }, 1, "" },
	[C_SPEEDUP] = { { "speedup", "speedup" }, { 6, 7 }, 2, "x" },
	[C_SHARE] = { { "of ref", "of ref" }, { 5, 6 }, 0, "%" },
};

/* Is column c in the table r prints?  host ms only where a row has host work. */
static int shown(const struct report *r, enum column c)
{
	return columns[c].title[r->wide] && (c != C_HOST || r->layout.with_host);
}

/* The header: the columns' titles over their values. */
static void table_header(const struct report *r, FILE *out, int namew)
{
	fprintf(out, "%-*s %-5s", namew, "exercise", "type");
	for (int c = 0; c < COLUMNS; c++)
		if (c == C_PARAMS && shown(r, c))
			fprintf(out, " %-*s", r->layout.paramw, columns[c].title[1]);
		else if (shown(r, c))
			fprintf(out, " %*s", columns[c].width[r->wide] + (int)strlen(columns[c].suffix), columns[c].title[r->wide]);
	fprintf(out, "  %s\n", "status");
}

/* Row j's value in each column, and whether it has one. */
struct row_cells {
	double v[COLUMNS];
	int have[COLUMNS];
};

static void fill_cells(const struct report *r, const struct job *j, struct row_cells *x)
{
	double speedup, share;
	int m = measured(j), planned = j->res.outcome != OUTCOME_SKIPPED;
	compare(r, j, &speedup, &share);
	*x = (struct row_cells){
		.v = { [C_N] = (double)j->ctx.elements, [C_BLOCK] = j->ctx.block, [C_MEDIAN] = j->res.gpu_med,
		       [C_CI] = interval_pct(j), [C_MIN] = j->res.gpu_min, [C_MAX] = j->res.gpu_max,
		       [C_RUNS] = j->res.nsamples, [C_NOISE] = noise_pct(j), [C_HOST] = j->res.host_med,
		       [C_GBPS] = j->res.gbps, [C_PEAK] = peak_pct(r, j), [C_SPEEDUP] = speedup, [C_SHARE] = 100 * share },
		/* a wrong result earns no bandwidth; a block of 0: the exercise takes none */
		.have = { [C_N] = planned, [C_BLOCK] = planned && j->ctx.block > 0, [C_MEDIAN] = m, [C_CI] = has_interval(j),
			  [C_MIN] = m, [C_MAX] = m, [C_RUNS] = m, [C_NOISE] = m && noise_pct(j) >= 0,
			  [C_HOST] = m && j->pick.ex->host, [C_GBPS] = m, [C_PEAK] = m && r->dev && r->dev->peak_gbps > 0,
			  [C_SPEEDUP] = speedup > 0, [C_SHARE] = share > 0 },
	};
}

/* Row j's cells after its name and type; params: --wide's text.  Returns
 * the characters printed. */
static int cells(const struct report *r, const struct job *j, const char *params, FILE *out)
{
	struct row_cells x;
	char text[64];
	int printed = 0;
	fill_cells(r, j, &x);
	for (int c = 0; c < COLUMNS; c++) {
		const struct column_def *d = &columns[c];
		int w = d->width[r->wide];
		if (!shown(r, c))
			continue;
		if (c == C_PARAMS)
			printed += fprintf(out, " %-*s", r->layout.paramw, params);
		else if (!x.have[c]) /* as wide as a value would be: the space before, and the suffix */
			printed += fprintf(out, " %*s", w + (int)strlen(d->suffix), "-");
		else if (r->wide)
			printed += fprintf(out, " %*.*f%s", w, d->decimals, x.v[c], d->suffix);
		else
			printed += fprintf(out, " %*s%s", w, fit_number(text, sizeof text, w, d->decimals, x.v[c]), d->suffix);
	}
	return printed;
}

/* A row's flags after its status. */
static void flags_text(const struct job *j, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s", status_word(j), throttled(j) ? " THROTTLED" : "", noisy(j) ? " NOISY" : "",
		 unheld(j) ? " UNHELD" : "", unbatched(j) ? " UNBATCHED" : "");
}

/* The compact table's row: its label (on a line of its own where longer
 * than namew), the cells, and the flags wrapped under the status. */
static void narrow_row(FILE *out, const struct report *r, const struct job *j, int namew)
{
	char label[800], flags[128];
	int planned = j->res.outcome != OUTCOME_SKIPPED, col = 0;
	if ((int)strlen(row_label(j, label, sizeof label)) > namew) {
		put_wrapped(out, label, &col, 2, 0);
		fputc('\n', out);
		label[0] = 0;
	}
	col = fprintf(out, "%-*s %-5s", namew, label, planned ? generic_text(j, GEN_TYPE) : "-");
	col += cells(r, j, "", out);
	flags_text(j, flags, sizeof flags);
	put_wrapped(out, flags, &col, col + 2, 2); /* flags past the edge: under the status */
	fputc('\n', out);
}

/* --wide's row: the name, every cell, the flags, and what the exercise
 * chose and noted. */
static void wide_row(FILE *out, const struct report *r, const struct job *j)
{
	char name[256], notes[256], params[512], chosen[256], flags[128];
	const struct job *first;
	unsigned warmup;
	int planned = j->res.outcome != OUTCOME_SKIPPED;
	notes_text(j, notes, sizeof notes, ' ');
	chosen_text(j, chosen, sizeof chosen, ' ');
	params_some(j, params, sizeof params, ' ', j->points > 1 ? 1 : -1); /* a sweep's block header has the rest */
	if (planned && !same_repetitions(r, &warmup, &first))
		snprintf(params + strlen(params), sizeof params - strlen(params), "%swarmup=%u", params[0] ? " " : "",
			 j->warmup);
	fprintf(out, "%-*s %-5s", r->layout.namew, job_name(j, name, sizeof name), planned ? generic_text(j, GEN_TYPE) : "-");
	cells(r, j, params, out);
	/* the choices per row: in a sweep they change where the asked-for
	 * value, in the block's header, does not */
	flags_text(j, flags, sizeof flags);
	fprintf(out, "  %s%s%s%s%s\n", flags, chosen[0] ? "  chose " : "", chosen, notes[0] ? "  " : "", notes);
}

/* Does any row of r say what `is` asks (and so need its legend)? */
static int any_row(const struct report *r, int (*is)(const struct job *))
{
	for (size_t i = 0; i < r->njobs; i++)
		if (is(&r->jobs[i]))
			return 1;
	return 0;
}

/* One line of what the table says around its rows (its title, a
 * sweep's header, the legend), as fmt: in the compact table, newlines
 * in it are spaces and it is wrapped to TABLE_FIT columns, the lines
 * after the first indented by two; --wide's as it is. */
static void table_say(const struct report *r, FILE *out, const char *fmt, ...)
{
	char text[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	if (r->wide) {
		fputs(text, out);
		return;
	}
	if (!text[0])
		return;
	for (char *c = strchr(text, '\n'); c; c = strchr(c, '\n'))
		*c = ' ';
	int col = 0;
	put_wrapped(out, text, &col, 2, 0);
	fputc('\n', out);
}

/* The table's first line: the device, the cache, and the repetitions
 * where every row had the same.  The compact table says each on a line
 * of its own, to fit. */
static void table_title(const struct report *r, FILE *out)
{
	char dev[512], batch[128] = "", reps[256] = "";
	const struct job *f;
	unsigned warmup;
	const char *runs = r->batch > 1 ? "samples" : "runs", *sep = r->wide ? "; " : "";
	if (r->dev)
		snprintf(dev, sizeof dev, "%s (sm_%d%d), peak %.1f GB/s; %s L2", r->dev->name, r->dev->cc_major,
			 r->dev->cc_minor, r->dev->peak_gbps, r->cold ? "cold (flushed)" : "warm");
	else
		snprintf(dev, sizeof dev, "on the host, no GPU");
	if (r->batch > 1)
		snprintf(batch, sizeof batch, "%seach sample %u runs back to back, timed together", sep, r->batch);
	if (same_repetitions(r, &warmup, &f) && f->exact_reps)
		snprintf(reps, sizeof reps, "%smedian of %u %s after %u warm-up", sep, f->reps, runs, warmup);
	else if (f)
		snprintf(reps, sizeof reps, "%s%s%u warm-up, then %s until the noise is at most %g%% over %g s of GPU time, or %g s",
			 sep, !same_repetitions(r, &warmup, &f) ? "per row: " : "", warmup, runs, 100 * r->stop.max_noise,
			 r->stop.min_time_s, r->stop.timeout_s);
	table_say(r, out, "%s", dev);
	table_say(r, out, "%s", batch);
	table_say(r, out, "%s%s", reps, r->wide ? "\n" : "");
	if (r->nranks > 1) /* how a sample and its noise come from several clocks */
		table_say(r, out, "as %zu ranks: a sample is the slowest rank's run, the runs started together; the ranks "
				  "stop at the same sample, by the rule above", r->nranks);
}

/* What the clocks did over the timed runs of all rows, or why they are
 * unknown; and what THROTTLED means where a row says it. */
static void clocks_footer(const struct report *r, FILE *out)
{
	unsigned lo = 0, hi = 0, mem = 0, any = 0, slow = 0;
	unsigned long long reasons = 0;
	char words[128];
	if (!r->clk)
		return;
	for (size_t i = 0; i < r->njobs; i++) {
		const struct clock_stats *c = &r->jobs[i].res.clocks;
		if (!c->samples)
			continue;
		lo = any && lo < c->sm_min ? lo : c->sm_min;
		hi = hi > c->sm_max ? hi : c->sm_max;
		mem = c->mem_mhz, any = 1;
		slow += c->throttled > 0;
		reasons |= c->reasons;
	}
	if (!any) {
		table_say(r, out, "clocks unknown: %s\n", r->clk->lib ? "no sample was read" : r->clk->why);
		return;
	}
	table_say(r, out, "clocks over the timed runs: SM %u-%u MHz (ceiling %u), memory %u MHz\n", lo, hi, r->clk->max_sm_mhz, mem);
	if (slow)
		table_say(r, out, "THROTTLED: the SM clock fell below %.0f%% of its ceiling, or NVML reported a slowdown (%s), in %u row%s' runs\n",
			100 * THROTTLE_SHARE, clocks_reasons(reasons, words, sizeof words)[0] ? words : "clock", slow,
			slow == 1 ? "" : "s");
}

/* Above a sweep's rows: a blank line between exercises, and the keys that
 * stay the same for all its points. */
static void sweep_header(const struct report *r, FILE *out, const struct job *j, int blank)
{
	char name[256], fixed[512];
	params_some(j, fixed, sizeof fixed, ' ', 0);
	if (blank)
		fputc('\n', out);
	table_say(r, out, "%s: %zu points%s%s\n", job_name(j, name, sizeof name), j->points, fixed[0] ? ", " : "", fixed);
}

/* " (3 points)" where row i's message stands for several of its exercise. */
static const char *times_text(const struct report *r, size_t i, char *buf, size_t len)
{
	const struct job *j = &r->jobs[i];
	size_t n = 0;
	for (size_t k = i; k < r->njobs; k++)
		n += r->jobs[k].pick.ex == j->pick.ex && r->jobs[k].res.outcome == j->res.outcome
		     && !strcmp(r->jobs[k].res.message, j->res.message);
	snprintf(buf, len, n > 1 ? " (%zu points)" : "", n);
	return buf;
}

/* The columns' widths, from every planned row: fixed before the first
 * is printed, so rows printed as they come line up. */
static void table_begin(void *doc, FILE *out)
{
	struct report *r = doc;
	struct table_layout *t = &r->layout;
	const struct job *first;
	unsigned warmup;
	char name[800], params[512];
	*t = (struct table_layout){ .namew = 8, .labelw = 8, .paramw = 6, .last = -1 };
	int same = same_repetitions(r, &warmup, &first) || !first; /* no row to run: nothing to say per row */
	for (size_t i = 0; i < r->njobs; i++) {
		const struct job *j = &r->jobs[i];
		int len = (int)strlen(job_name(j, name, sizeof name));
		t->namew = len > t->namew ? len : t->namew;
		len = (int)strlen(row_label(j, name, sizeof name));
		t->labelw = len > t->labelw ? len : t->labelw;
		params_some(j, params, sizeof params, ' ', j->points > 1 ? 1 : -1); /* as wide_row shows them */
		len = (int)strlen(params) + (same ? 0 : 16);
		t->paramw = len > t->paramw ? len : t->paramw;
		t->with_host |= j->pick.ex->host != NULL;
	}
	table_title(r, out);
	table_header(r, out, r->wide ? t->namew : narrow_namew(t));
}

/* Is row i the first printed of its sweep? */
static int starts_sweep(const struct report *r, size_t i)
{
	const struct job *j = &r->jobs[i], *prev = r->layout.last >= 0 ? &r->jobs[r->layout.last] : NULL;
	return j->points > 1 && (!prev || prev->pick.ex != j->pick.ex || prev->point >= j->point);
}

/* Is row i one the table leaves out as it goes?  A point kept from a
 * resumed record (its row is the record's), or not run. */
static int unprinted(const struct job *j)
{
	return j->kept || j->res.outcome == OUTCOME_NOT_RUN;
}

/* Above row i: its sweep's header, where the sweep starts. */
static void table_sweep(void *doc, size_t i, FILE *out)
{
	const struct report *r = doc;
	if (!unprinted(&r->jobs[i]) && starts_sweep(r, i))
		sweep_header(r, out, &r->jobs[i], r->layout.last >= 0);
}

/* Row i, as its point is done: the cells that compare it with other
 * rows (speedup, of ref) from the rows done by then. */
static void table_point(void *doc, size_t i, FILE *out)
{
	struct report *r = doc;
	const struct job *j = &r->jobs[i];
	const struct table_layout *t = &r->layout;
	if (unprinted(j))
		return;
	if (!(j->points > 1 && j->res.outcome == OUTCOME_SKIPPED)) /* a sweep's skipped points are counted below, by reason */
		r->wide ? wide_row(out, r, j) : narrow_row(out, r, j, narrow_namew(t));
	r->layout.last = (long)i;
}

/* The baseline and reference any row was compared with, for the legend. */
static void compared_with(const struct report *r, const char **base, const char **ref)
{
	*base = *ref = NULL;
	for (size_t i = 0; i < r->njobs; i++) {
		const struct job *j = &r->jobs[i];
		if (sibling(r, j, peers(r, j)->desc->baseline))
			*base = peers(r, j)->desc->baseline;
		if (sibling(r, j, peers(r, j)->desc->reference))
			*ref = peers(r, j)->desc->reference;
	}
}

/* The legend of the uncompared rows' "-": their exercises, each once. */
static void uncompared_legend(const struct report *r, FILE *out)
{
	char names[1024] = "", name[256];
	size_t count = 0;
	for (size_t i = 0; i < r->njobs; i++) {
		const struct job *j = &r->jobs[i];
		size_t k = 0, at = strlen(names);
		while (k < i && !(uncompared(&r->jobs[k]) && r->jobs[k].pick.ex == j->pick.ex))
			k++;
		if (!uncompared(j) || k < i)
			continue;
		snprintf(names + at, sizeof names - at, "%s%s", at ? ", " : "", job_name(j, name, sizeof name));
		count++;
	}
	if (count)
		table_say(r, out, "- in speedup, of ref: %s %s other work than the baseline and reference\n", names,
			  count == 1 ? "does" : "do");
}

static void table_end(void *doc, FILE *out)
{
	const struct report *r = doc;
	const char *base, *ref;
	char name[256], params[512];
	compared_with(r, &base, &ref);
	clocks_footer(r, out);
	if (base)
		table_say(r, out, "speedup: %s's time over this row's\n", base);
	if (ref)
		table_say(r, out, "of ref: this row's speed as a share of %s's (- where it has no time at this point)\n",
			ref);
	if (base || ref)
		uncompared_legend(r, out);
	if (r->layout.with_host)
		table_say(r, out, "host ms: host work finishing the GPU's (not in median/min/max ms); speedups compare GPU + host\n");
	if (r->wide)
		table_say(r, out, "noise%%: the relative standard deviation of the runs' GPU times\n");
	else
	{
		table_say(r, out, "+-%%: half the median's 95%% confidence interval (order statistics), in %% of it; - under 6 runs");
		table_say(r, out, "%s: every column (params, min ms, max ms, runs, noise%%, host ms), and what each exercise "
				  "chose and noted", options_long(OPT_WIDE));
	}
	if (any_row(r, noisy))
		table_say(r, out, "NOISY: the median is uncertain: half its 95%% confidence interval is over %g%% of it\n",
			100 * STATS_CI_BOUND);
	if (any_row(r, cut_short))
		table_say(r, out, "NOISY with no +-%%: the timeout stopped it under 6 runs: how uncertain its median is, "
				  "is unknown\n");
	if (any_row(r, unbatched))
		table_say(r, out, "UNBATCHED: timed run by run, not in batches of %u: each run needs its reset first (it may\n"
			     "restore an input the run consumes)\n", r->batch);
	if (any_row(r, unheld))
		table_say(r, out, "UNHELD: its stream was not held while the run was enqueued (the run waited for the GPU\n"
			     "itself, or %s): its time includes the host's launch gaps\n", options_long(OPT_PROFILE));
	print_metrics_table(r, out, r->layout.namew);
	for (size_t i = 0; i < r->njobs; i++) {
		const struct job *j = &r->jobs[i];
		if (!j->kept && j->res.outcome != OUTCOME_OK && j->res.message[0] && !same_message_before(r, i)) {
			/* escaped: a plugin's message may quote a user's file (try's compiler log) */
			fprintf(out, "%s: %s%s: ", job_name(j, name, sizeof name), status_word(j),
				times_text(r, i, params, sizeof params));
			fput_escaped(out, j->res.message);
			fputc('\n', out);
		}
	}
}

const struct writer report_table = {
	.for_people = 1, .streams = 1, .begin = table_begin, .header = table_sweep, .row = table_point, .footer = table_end
};

/* --- `gpulab compare` as a table ----------------------------------------------------------- */

/* The table's first column: the exercise and its parameters, escaped (a
 * record may hold anything, as error lines do), padded to COMPARE_LABEL;
 * a longer one has its line to itself and the numbers go under it, so
 * that a row fits 100 columns ("too few samples" the longest verdict). */
#define COMPARE_LABEL 48
static void table_label(FILE *out, const char *ex, const char *params)
{
	char e[512], p[1024], label[1600];
	snprintf(label, sizeof label, "%s %s", escape_into(e, sizeof e, ex), escape_into(p, sizeof p, params));
	if (strlen(label) > COMPARE_LABEL)
		fprintf(out, "%s\n%*s", label, COMPARE_LABEL, "");
	else
		fprintf(out, "%-*s", COMPARE_LABEL, label);
}

static void table_head(void *doc, FILE *out)
{
	const struct compared *c = doc;
	fprintf(out, "base %s%s%s\nnew  %s%s%s\nmedians of GPU time, Mann-Whitney U test (two-sided, alpha %g)\n",
		c->base_exercise ? c->base_exercise : "", c->base_exercise ? " of " : "", c->base_path,
		c->new_exercise ? c->new_exercise : "", c->new_exercise ? " of " : "", c->new_path, STATS_ALPHA);
	if (c->min_change > 0)
		fprintf(out, "a change under %g%% counts as the same, however small its p\n", c->min_change);
	fprintf(out, "%-*s %8s %8s %8s %7s  %s\n", COMPARE_LABEL, "exercise and params", "base ms", "new ms", "change",
		"p", "verdict");
}

static void table_pair(void *doc, size_t i, FILE *out)
{
	const struct compared_pair *pr = &((const struct compared *)doc)->pair;
	(void)i; /* the row is the document's pair */
	table_label(out, pr->both, pr->params);
	if (pr->have)
		fprintf(out, " %8.4f %8.4f %+7.1f%%", pr->base_ms, pr->new_ms, 100 * (pr->ratio - 1));
	else
		fprintf(out, " %8s %8s %8s", "-", "-", "-");
	if (isfinite(pr->p))
		fprintf(out, " %7.4f", pr->p);
	else
		fprintf(out, " %7s", "-");
	fprintf(out, "  %s\n", pr->verdict);
}

static void table_unmatched_one(FILE *out, const char *which, const char *ex, const char *params, int first)
{
	fputs(first ? "unmatched:\n" : "", out);
	table_label(out, ex, params);
	fprintf(out, "  only in %s\n", which);
}

static void table_unmatched(void *doc, FILE *out)
{
	compared_each_unmatched(doc, out, table_unmatched_one);
}

static void table_slow(void *doc, FILE *out)
{
	const struct compared *c = doc;
	if (c->fail_above >= 0)
		fprintf(out, "%d point%s slower by more than %g%% with confidence\n", c->slow, c->slow == 1 ? "" : "s",
			c->fail_above);
}

const struct writer compare_table = {
	.for_people = 1, .streams = 1, .begin = table_head, .row = table_pair, .footer = table_unmatched, .end = table_slow
};
