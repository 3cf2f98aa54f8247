#include "config.h"

#include "emit/result.h"

#include "emit/field.h"
#include "run/group.h"
#include "run/stats.h"
#include "escape.h"

#include <math.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

/* Measured by this run: not a point kept from a resumed record, whose
 * numbers are in its row there, not in the job. */
static int measured(const struct job *j)
{
	return !j->kept && (j->res.outcome == OUTCOME_OK || j->res.outcome == OUTCOME_UNVERIFIED);
}

/* Did the timeout stop row j, unconverged, before it had the runs (6)
 * that an interval of its median needs?  How sure its median is, is not
 * known.  (Too few runs asked for with -r are the user's choice.) */
static int cut_short(const struct job *j)
{
	const struct result *x = &j->res;
	return measured(j) && x->stopped_by == STOP_TIMEOUT && !(isfinite(x->median_lo) && isfinite(x->median_hi));
}

/* A measured row whose median is uncertain (run/stats.h), or not known
 * to be sure (cut_short): NOISY.  Not one whose single runs are spread,
 * over enough of them to pin the median down. */
static int noisy(const struct job *j)
{
	return measured(j) && (cut_short(j) || stats_median_unsure(j->res.gpu_med, j->res.median_lo, j->res.median_hi));
}

/* Has the row a median interval to give (6 runs or more)? */
static int has_interval(const struct job *j)
{
	const struct result *x = &j->res;
	return measured(j) && isfinite(x->median_lo) && isfinite(x->median_hi) && x->median_hi > 0;
}

/* The interval's half-width over the median, in %. */
static double interval_pct(const struct job *j)
{
	const struct result *x = &j->res;
	return x->gpu_med > 0 ? 100 * (x->median_hi - x->median_lo) / 2 / x->gpu_med : 0;
}

/* A row of a --batch run timed run by run: its exercise cannot repeat
 * without its reset (run/job.h): UNBATCHED. */
static int unbatched(const struct job *j)
{
	return !j->kept && j->unbatched && j->res.outcome != OUTCOME_SKIPPED && j->res.outcome != OUTCOME_NOT_RUN;
}

/* The runs per timed sample of row j. */
static unsigned row_batch(const struct report *r, const struct job *j)
{
	return j->unbatched || r->batch < 1 ? 1 : r->batch;
}

/* A measured row whose run could not be held (run/hold.h): UNHELD. */
static int unheld(const struct job *j)
{
	return measured(j) && j->res.timing == TIMING_UNHELD;
}

/* Did the GPU slow down during any of the job's timed runs? */
static int throttled(const struct job *j)
{
	return j->res.clocks.throttled > 0;
}

static const char *status_word(const struct job *j)
{
	switch (j->res.outcome) {
	case OUTCOME_OK: return "ok";
	case OUTCOME_UNVERIFIED: return "unverified";
	case OUTCOME_WRONG: return "FAILED";
	case OUTCOME_SKIPPED: return "skipped";
	case OUTCOME_NOT_RUN: return "not run";
	default: return "ERROR";
	}
}

/* The run's row for exercise `name` of j's plugin, if it was measured. */
/* Are j and k the same point: every parameter both were given holds the
 * same value?  The seed and the repetitions say how a point was measured,
 * not which it is; a key only one has (a block size cub lacks) says
 * nothing, and nor do the exercises' own defaults (sum_matrix's block
 * shapes are what its exercises differ in). */
static int same_point(const struct job *j, const struct job *k)
{
	for (size_t i = 0; i < j->nparams; i++) {
		const struct job_param *p = &j->params[i], *q = job_param_find(k, p->decl.key);
		if (!strcmp(p->decl.key, "seed") || p->generic == GEN_REPS || p->generic == GEN_WARMUP || !q
		    || p->defaulted || q->defaulted)
			continue;
		if (strcmp(p->text, q->text))
			return 0;
	}
	return j->ctx.n == k->ctx.n && j->ctx.dtype == k->ctx.dtype;
}

/* The plugin j's rows are compared within: its own, or the one its
 * exercise names as its peers (a `gpulab try` challenge, the plugin it
 * is a challenge of), where that plugin has rows in this run. */
static const struct plugin *peers(const struct report *r, const struct job *j)
{
	const char *name = j->pick.ex->peers;
	for (size_t i = 0; name && i < r->njobs; i++)
		if (!strcmp(r->jobs[i].pick.plugin->name, name))
			return r->jobs[i].pick.plugin;
	return j->pick.plugin;
}

/* The run's row for exercise `name` of j's peers at j's point of a
 * sweep, if it was measured. */
static const struct job *sibling(const struct report *r, const struct job *j, const char *name)
{
	const struct plugin *p = peers(r, j);
	for (size_t i = 0; name && i < r->njobs; i++) {
		const struct job *k = &r->jobs[i];
		if (k->pick.plugin == p && !strcmp(k->pick.ex->name, name) && measured(k) && same_point(j, k))
			return k;
	}
	return NULL;
}

/* Does j's exercise say it does other work than its baseline and
 * reference (GPULAB_UNLIKE, read from plugins of ABI 2.5 on)? */
static int unlike(const struct job *j)
{
	return j->pick.plugin->desc->abi_minor >= 5 && (j->pick.ex->flags & GPULAB_UNLIKE);
}

/* Speedup over the plugin's baseline, and share of its reference's speed;
 * 0 where there is none, the work differs (unlike), or the timing does
 * (one row batched, the other UNBATCHED: launch gaps count in one only). */
static void compare(const struct report *r, const struct job *j, double *speedup, double *share)
{
	const struct job *b = unlike(j) ? NULL : sibling(r, j, peers(r, j)->desc->baseline);
	const struct job *f = unlike(j) ? NULL : sibling(r, j, peers(r, j)->desc->reference);
	b = b && b->unbatched == j->unbatched ? b : NULL;
	f = f && f->unbatched == j->unbatched ? f : NULL;
	*speedup = b && measured(j) ? b->res.total_med / j->res.total_med : 0;
	*share = f && measured(j) ? f->res.total_med / j->res.total_med : 0;
}

/* A measured row left uncompared for its work (unlike): its legend. */
static int uncompared(const struct job *j)
{
	return measured(j) && unlike(j);
}

static double peak_pct(const struct report *r, const struct job *j)
{
	return r->dev && r->dev->peak_gbps > 0 ? 100 * j->res.gbps / r->dev->peak_gbps : 0;
}

static void notes_text(const struct job *j, char *buf, size_t len, char sep)
{
	buf[0] = 0;
	for (int i = 0; i < j->res.nnotes; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s=%g", i ? (char[]){ sep, 0 } : "",
			 j->res.notes[i].name, j->res.notes[i].value);
}

/* What the exercise chose for its automatic keys, "key=value" joined
 * by sep; "" where it chose nothing. */
static void chosen_text(const struct job *j, char *buf, size_t len, char sep)
{
	buf[0] = 0;
	for (size_t i = 0; i < j->nparams; i++) {
		size_t at = strlen(buf);
		if (j->params[i].chosen[0])
			snprintf(buf + at, len - at, "%s%s=%s", at ? (char[]){ sep, 0 } : "", j->params[i].decl.key,
				 j->params[i].chosen);
	}
}

/* The exercise's own parameters as "key=value" joined by sep, those
 * swept (1), those not (0), or all (-1); the generic ones have columns of
 * their own.  Escaped for a terminal, or raw for CSV: a path is a value
 * as given, and may hold any byte. */
static void params_join(const struct job *j, char *buf, size_t len, char sep, int swept, int escaped)
{
	char value[512];
	buf[0] = 0;
	for (size_t i = 0; i < j->nparams; i++) {
		const struct job_param *p = &j->params[i];
		size_t at = strlen(buf);
		if (swept >= 0 && (p->values > 1) != swept)
			continue;
		if (p->generic < 0 && p->text[0])
			snprintf(buf + at, len - at, "%s%s=%s", at ? (char[]){ sep, 0 } : "", p->decl.key,
				 escaped ? escape_into(value, sizeof value, p->text) : p->text);
	}
}

/* For the table (swept as params_join's). */
static void params_some(const struct job *j, char *buf, size_t len, char sep, int swept)
{
	params_join(j, buf, len, sep, swept, 1);
}

/* For CSV: all, raw. */
static void params_text(const struct job *j, char *buf, size_t len, char sep)
{
	params_join(j, buf, len, sep, -1, 0);
}

/* A generic parameter's text, or "" where the job has none. */
static const char *generic_text(const struct job *j, enum generic g)
{
	const struct job_param *p = job_param_find(j, generic_params[g].key);
	return p ? p->text : "";
}

/* Do all rows share their warm-up, and how they stopped (the same exact
 * count, or on noise)?  Then the table's title says it once. */
static int same_repetitions(const struct report *r, unsigned *warmup, const struct job **first)
{
	*first = NULL;
	for (size_t i = 0; i < r->njobs; i++) {
		const struct job *j = &r->jobs[i], *f = *first;
		if (j->res.outcome == OUTCOME_SKIPPED || j->kept)
			continue; /* its repetitions may not be resolved; or it ran before */
		if (f && (j->warmup != f->warmup || j->exact_reps != f->exact_reps || (j->exact_reps && j->reps != f->reps)))
			return 0;
		*first = j;
		*warmup = j->warmup;
	}
	return *first != NULL;
}

/* The noise as a percentage, for the reports; -1 where there is none. */
static double noise_pct(const struct job *j)
{
	return j->res.nsamples > 1 && isfinite(j->res.noise) ? 100 * j->res.noise : -1;
}

/* --metrics: the labels any row has, in order of first appearance; the
 * caller frees them. */
static size_t metric_labels(const struct report *r, const char ***out)
{
	size_t n = 0;
	const char **v = malloc((r->njobs * MAX_METRIC_COLS + 1) * sizeof *v);
	for (size_t i = 0; v && i < r->njobs; i++)
		for (size_t c = 0; c < r->jobs[i].metrics.ncols; c++) {
			const char *l = r->jobs[i].metrics.cols[c].label;
			size_t k = 0;
			while (k < n && strcmp(v[k], l))
				k++;
			if (k == n)
				v[n++] = l;
		}
	*out = v;
	return v ? n : 0;
}

/* Row j's value of the metric labelled l; 0 where it has none. */
static int metric_of(const struct job *j, const char *l, double *v, const char **source, char *buf, size_t len)
{
	for (size_t c = 0; c < j->metrics.ncols; c++)
		if (!strcmp(j->metrics.cols[c].label, l)) {
			*v = metrics_value(&j->metrics, j->res.raw, c);
			if (source)
				*source = metrics_source(&j->metrics, c, buf, len);
			return j->res.profiled && isfinite(*v);
		}
	return 0;
}

/* Counts whole, ratios and percentages to two places. */
static void metric_text(char *buf, size_t len, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else if (fabs(v) < 1e6)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

/* A metric's column: as wide as its label, and room for 10 digits. */
static int label_width(const char *label)
{
	int w = (int)strlen(label);
	return w > 10 ? w : 10;
}

static void print_metrics_table(const struct report *r, FILE *out, int namew)
{
	const char **l;
	size_t n = metric_labels(r, &l);
	char name[256], text[64], src[2 * MAX_METRIC_NAME + 4];
	const char *source = NULL;
	double v;
	if (n)
		fprintf(out, "\ncounters (CUPTI range profiler, from untimed runs of each exercise)\n%-*s", namew, "exercise");
	for (size_t k = 0; k < n; k++)
		fprintf(out, "  %*s", label_width(l[k]), l[k]);
	for (size_t i = 0; n && i < r->njobs; i++) {
		const struct job *j = &r->jobs[i];
		fprintf(out, "\n%-*s", namew, job_name(j, name, sizeof name));
		for (size_t k = 0; k < n; k++) {
			int have = metric_of(j, l[k], &v, NULL, NULL, 0);
			if (have)
				metric_text(text, sizeof text, v);
			fprintf(out, "  %*s", label_width(l[k]), have ? text : "-");
		}
		if (j->res.profiled)
			fprintf(out, "  (%u pass%s)", j->res.passes, j->res.passes == 1 ? "" : "es");
	}
	if (n)
		fputc('\n', out);
	for (size_t k = 0; k < n; k++) /* what each label read */
		for (size_t i = 0; i < r->njobs; i++) {
			source = NULL;
			metric_of(&r->jobs[i], l[k], &v, &source, src, sizeof src);
			if (source) {
				fprintf(out, "%s = %s\n", l[k], source);
				break;
			}
		}
	free(l);
}

static void cell(FILE *out, int width, int show, const char *fmt, double v)
{
	if (show)
		fprintf(out, fmt, width, v);
	else /* as wide as a value would be: the space before, and a suffix (x, %) */
		fprintf(out, "%*s", snprintf(NULL, 0, fmt, width, 0.0), "-");
}

/* The compact table (the default): the columns a reader needs first, in
 * TABLE_FIT columns.  A row's label (its name, and the keys of its own
 * that a sweep changes) longer than NARROW_NAME gets a line of its own,
 * the row's cells under it; flags that do not fit after the status go
 * on lines of their own under it.  What an exercise chose and noted is
 * --wide's. */
#define TABLE_FIT 100
#define NARROW_NAME 22

/* The words of text (split at spaces), from column *col on, none past
 * TABLE_FIT: a word that would cross it starts a new line, indented by
 * indent, and one longer than such a line is cut.  gap: the spaces
 * before the first word, where it stays on the line.  *col: where the
 * last line ends. */
static void put_wrapped(FILE *out, const char *text, int *col, int indent, int gap)
{
	const char *w = text + strspn(text, " ");
	while (*w) {
		int len = (int)strcspn(w, " ");
		if (*col + gap + len > TABLE_FIT && *col > indent) {
			fprintf(out, "\n%*s", indent, "");
			*col = indent, gap = 0;
			continue;
		}
		int room = TABLE_FIT - *col - gap, fit = len < room ? len : room > 1 ? room : 1;
		fprintf(out, "%*s%.*s", gap, "", fit, w);
		*col += gap + fit, gap = 1, w += fit;
		w += fit == len ? strspn(w, " ") : 0;
	}
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

/* A compact table's cell: a space, v in width, and its suffix (x, %); or
 * "-" in their place.  Returns the characters printed. */
static int narrow_cell(FILE *out, int width, int show, int decimals, const char *suffix, double v)
{
	char text[32];
	if (!show)
		return fprintf(out, " %*s", width + (int)strlen(suffix), "-");
	return fprintf(out, " %*s%s", width, fit_number(text, sizeof text, width, decimals, v), suffix);
}

static int narrow_namew(const struct table_layout *t)
{
	return t->labelw < NARROW_NAME ? t->labelw : NARROW_NAME;
}

static void narrow_header(FILE *out, int namew)
{
	fprintf(out, "%-*s %-5s %11s %9s %6s %7s %5s %7s %6s  %s\n", namew, "exercise", "type", "n", "median ms", "+-%",
		"GB/s", "%peak", "speedup", "of ref", "status");
}

/* The row's keys swept besides n and type (which have columns), as
 * "key=value", for the compact table. */
static void swept_keys(const struct job *j, char *buf, size_t len)
{
	char value[512];
	buf[0] = 0;
	for (size_t i = 0; i < j->nparams; i++) {
		const struct job_param *p = &j->params[i];
		size_t at = strlen(buf);
		if (p->values > 1 && p->generic != GEN_N && p->generic != GEN_TYPE && p->text[0])
			snprintf(buf + at, len - at, "%s%s=%s", at ? " " : "", p->decl.key,
				 escape_into(value, sizeof value, p->text));
	}
}

/* The compact table's label of row j: its name, and the keys of its
 * own that its sweep changes. */
static const char *row_label(const struct job *j, char *buf, size_t len)
{
	char keys[512];
	size_t at = strlen(job_name(j, buf, len));
	swept_keys(j, keys, sizeof keys);
	if (keys[0])
		snprintf(buf + at, len - at, " %s", keys);
	return buf;
}

static void narrow_row(FILE *out, const struct report *r, const struct job *j, int namew)
{
	char label[800], flags[128];
	double speedup, share;
	int m = measured(j), planned = j->res.outcome != OUTCOME_SKIPPED, col = 0;
	compare(r, j, &speedup, &share);
	if ((int)strlen(row_label(j, label, sizeof label)) > namew) {
		put_wrapped(out, label, &col, 2, 0);
		fputc('\n', out);
		label[0] = 0;
	}
	col = fprintf(out, "%-*s %-5s", namew, label, planned ? generic_text(j, GEN_TYPE) : "-");
	col += narrow_cell(out, 11, planned, 0, "", (double)j->ctx.elements);
	col += narrow_cell(out, 9, m, 4, "", j->res.gpu_med);
	col += narrow_cell(out, 6, has_interval(j), 2, "", interval_pct(j));
	col += narrow_cell(out, 7, m, 1, "", j->res.gbps);
	col += narrow_cell(out, 5, m && r->dev && r->dev->peak_gbps > 0, 1, "", peak_pct(r, j));
	col += narrow_cell(out, 6, speedup > 0, 2, "x", speedup);
	col += narrow_cell(out, 5, share > 0, 0, "%", 100 * share);
	snprintf(flags, sizeof flags, "%s%s%s%s%s", status_word(j), throttled(j) ? " THROTTLED" : "",
		 noisy(j) ? " NOISY" : "", unheld(j) ? " UNHELD" : "", unbatched(j) ? " UNBATCHED" : "");
	put_wrapped(out, flags, &col, col + 2, 2); /* flags past the edge: under the status */
	fputc('\n', out);
}

static void table_header(FILE *out, int namew, int paramw, int with_host)
{
	fprintf(out, "%-*s %-5s %11s %5s %-*s %10s %10s %10s %7s %6s", namew, "exercise", "type", "elements", "block",
		paramw, "params", "median ms", "min ms", "max ms", "runs", "noise%");
	if (with_host)
		fprintf(out, " %9s", "host ms");
	fprintf(out, " %8s %6s %8s %7s  %s\n", "GB/s", "%peak", "speedup", "of ref", "status");
}

static void table_row(FILE *out, const struct report *r, const struct job *j, int namew, int paramw, int with_host)
{
	char name[256], notes[256], params[512], chosen[256];
	const struct job *first;
	double speedup, share;
	unsigned warmup;
	int m = measured(j), planned = j->res.outcome != OUTCOME_SKIPPED;
	compare(r, j, &speedup, &share);
	notes_text(j, notes, sizeof notes, ' ');
	chosen_text(j, chosen, sizeof chosen, ' ');
	params_some(j, params, sizeof params, ' ', j->points > 1 ? 1 : -1); /* a sweep's block header has the rest */
	if (planned && !same_repetitions(r, &warmup, &first))
		snprintf(params + strlen(params), sizeof params - strlen(params), "%swarmup=%u", params[0] ? " " : "",
			 j->warmup);
	fprintf(out, "%-*s %-5s", namew, job_name(j, name, sizeof name), planned ? generic_text(j, GEN_TYPE) : "-");
	cell(out, 11, planned, " %*.0f", (double)j->ctx.elements);
	cell(out, 5, planned && j->ctx.block > 0, " %*.0f", j->ctx.block); /* 0: takes no block size */
	fprintf(out, " %-*s", paramw, params);
	cell(out, 10, m, " %*.4f", j->res.gpu_med);
	cell(out, 10, m, " %*.4f", j->res.gpu_min);
	cell(out, 10, m, " %*.4f", j->res.gpu_max);
	cell(out, 7, m, " %*.0f", j->res.nsamples);
	cell(out, 6, m && noise_pct(j) >= 0, " %*.2f", noise_pct(j));
	if (with_host)
		cell(out, 9, m && j->pick.ex->host, " %*.4f", j->res.host_med);
	/* a wrong result earns no bandwidth */
	cell(out, 8, m, " %*.1f", j->res.gbps);
	cell(out, 6, m && r->dev && r->dev->peak_gbps > 0, " %*.1f", peak_pct(r, j));
	cell(out, 7, speedup > 0, " %*.2fx", speedup);
	cell(out, 6, share > 0, " %*.0f%%", 100 * share);
	/* the choices per row: in a sweep they change where the asked-for
	 * value, in the block's header, does not */
	fprintf(out, "  %s%s%s%s%s%s%s%s%s\n", status_word(j), throttled(j) ? " THROTTLED" : "", noisy(j) ? " NOISY" : "",
		unheld(j) ? " UNHELD" : "", unbatched(j) ? " UNBATCHED" : "", chosen[0] ? "  chose " : "", chosen,
		notes[0] ? "  " : "", notes);
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

/* Was row i's message already said for an earlier row of its exercise? */
static int same_message_before(const struct report *r, size_t i)
{
	const struct job *j = &r->jobs[i];
	for (size_t k = 0; k < i; k++)
		if (r->jobs[k].pick.ex == j->pick.ex && r->jobs[k].res.outcome == j->res.outcome
		    && !strcmp(r->jobs[k].res.message, j->res.message))
			return 1;
	return 0;
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
static void table_begin(struct report *r, FILE *out)
{
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
		params_some(j, params, sizeof params, ' ', j->points > 1 ? 1 : -1); /* as table_row shows them */
		len = (int)strlen(params) + (same ? 0 : 16);
		t->paramw = len > t->paramw ? len : t->paramw;
		t->with_host |= j->pick.ex->host != NULL;
	}
	table_title(r, out);
	if (r->wide)
		table_header(out, t->namew, t->paramw, t->with_host);
	else
		narrow_header(out, narrow_namew(t));
}

/* Is row i the first printed of its sweep? */
static int starts_sweep(const struct report *r, size_t i)
{
	const struct job *j = &r->jobs[i], *prev = r->layout.last >= 0 ? &r->jobs[r->layout.last] : NULL;
	return j->points > 1 && (!prev || prev->pick.ex != j->pick.ex || prev->point >= j->point);
}

/* Row i, as its point is done: the cells that compare it with other
 * rows (speedup, of ref) from the rows done by then. */
static void table_point(struct report *r, size_t i, FILE *out)
{
	const struct job *j = &r->jobs[i];
	const struct table_layout *t = &r->layout;
	if (j->kept || j->res.outcome == OUTCOME_NOT_RUN)
		return;
	if (starts_sweep(r, i))
		sweep_header(r, out, j, r->layout.last >= 0);
	if (!(j->points > 1 && j->res.outcome == OUTCOME_SKIPPED)) /* a sweep's skipped points are counted below, by reason */
		r->wide ? table_row(out, r, j, t->namew, t->paramw, t->with_host) : narrow_row(out, r, j, narrow_namew(t));
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

static void table_end(const struct report *r, FILE *out)
{
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
		table_say(r, out, "--wide: every column (params, min ms, max ms, runs, noise%%, host ms), and what each exercise "
				  "chose and noted");
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
			     "itself, or --profile): its time includes the host's launch gaps\n");
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

/* One CSV row: strings quoted (RFC 4180), numbers bare, nothing where
 * there is no value. */
static void csv_row(const struct report *r, const struct job *j, const char **labels, size_t nl, FILE *out)
{
	char name[256], notes[256], params[512], rerun[1024], chosen[256];
	const struct result *x = &j->res;
	double speedup, share, v;
	int m = measured(j);
	compare(r, j, &speedup, &share);
	notes_text(j, notes, sizeof notes, ';');
	params_text(j, params, sizeof params, ';');
	chosen_text(j, chosen, sizeof chosen, ';');
	job_command(j, r->cold, row_batch(r, j), rerun, sizeof rerun);
	emit_csv(out, job_name(j, name, sizeof name));
	fputc(',', out);
	emit_csv(out, generic_text(j, GEN_TYPE));
	fprintf(out, ",%s,%s,%s,%s,", generic_text(j, GEN_N), generic_text(j, GEN_BLOCK), generic_text(j, GEN_REPS),
		generic_text(j, GEN_WARMUP));
	emit_csv(out, params);
	fprintf(out, ",%llu,%d,", (unsigned long long)j->ctx.elements, r->cold);
	if (m)
		fprintf(out, "%.6f,%.6f,%.6f,%.6f,%.6f,%u,", x->gpu_med, x->gpu_min, x->gpu_max, x->host_med, x->total_med,
			x->nsamples);
	else
		fputs(",,,,,,", out);
	if (m && noise_pct(j) >= 0)
		fprintf(out, "%.4f", noise_pct(j));
	fprintf(out, ",%d,%s,", m ? x->converged : 0, m ? stop_reason_name(x->stopped_by) : "");
	fprintf(out, "%llu,", (unsigned long long)(j->ctx.bytes_read + j->ctx.bytes_written));
	if (m)
		fprintf(out, "%.3f,", x->gbps);
	else
		fputc(',', out);
	if (m && r->dev)
		fprintf(out, "%.3f", peak_pct(r, j));
	fputc(',', out);
	if (speedup > 0)
		fprintf(out, "%.4f", speedup);
	fputc(',', out);
	if (share > 0)
		fprintf(out, "%.4f", share);
	fputc(',', out);
	emit_csv(out, status_word(j));
	fputc(',', out);
	emit_csv(out, notes);
	fputc(',', out);
	emit_csv(out, x->message);
	fputc(',', out);
	emit_csv(out, rerun);
	if (x->clocks.samples)
		fprintf(out, ",%.1f,%u,%u", x->clocks.sm_mean, x->clocks.mem_mhz, x->clocks.throttled);
	else
		fputs(",,,", out);
	fputc(',', out);
	emit_csv(out, chosen);
	if (has_interval(j))
		fprintf(out, ",%.6f,%.6f,%.4f", x->median_lo, x->median_hi, interval_pct(j));
	else
		fputs(",,,", out);
	fprintf(out, ",%d,%u", noisy(j), row_batch(r, j));
	for (size_t k = 0; k < nl; k++) {
		fputc(',', out);
		if (metric_of(j, labels[k], &v, NULL, NULL, 0))
			fprintf(out, "%.9g", v);
	}
	fputc('\n', out);
}

static void csv_begin(const struct report *r, FILE *out)
{
	const char **l;
	size_t nl = metric_labels(r, &l);
	fputs("exercise,type,n,block,reps,warmup,params,elements,cold,median_ms,min_ms,max_ms,host_ms,total_ms,runs,"
	      "noise_pct,converged,stopped_by,"
	      "bytes,gbps,peak_pct,speedup,ref_share,status,notes,message,rerun,sm_mhz,mem_mhz,throttled,chosen,"
	      "median_lo_ms,median_hi_ms,median_ci_pct,noisy,batch", out);
	for (size_t k = 0; k < nl; k++) {
		fputc(',', out);
		emit_csv(out, l[k]);
	}
	fputc('\n', out);
	free(l);
}

/* Row i, or with not_run the rows of the points not run (at the end). */
static void csv_point(const struct report *r, size_t i, int not_run, FILE *out)
{
	const struct job *j = &r->jobs[i];
	const char **l;
	if (j->kept || (j->res.outcome == OUTCOME_NOT_RUN) != not_run)
		return;
	size_t nl = metric_labels(r, &l);
	csv_row(r, j, l, nl, out);
	free(l);
}

/* "metrics": {label: {"metric": Nsight Compute name, "value": v}}, and
 * the passes they took. */
static void json_metrics(const struct job *j, FILE *out)
{
	char src[2 * MAX_METRIC_NAME + 4];
	double v;
	if (!j->metrics.ncols)
		return;
	fputs(", \"metrics\": {", out);
	for (size_t c = 0; c < j->metrics.ncols; c++) {
		const char *l = j->metrics.cols[c].label, *source = NULL;
		int have = metric_of(j, l, &v, &source, src, sizeof src);
		fputs(c ? ", " : "", out);
		emit_json(out, l);
		fputs(": {\"metric\": ", out);
		emit_json(out, source);
		emit_json_number(out, "value", have, v);
		fputc('}', out);
	}
	fputc('}', out);
	emit_json_number(out, "metric_passes", j->res.profiled, j->res.passes);
}

/* "params": every effective parameter, as asked for; "chosen": what the
 * exercise chose for those it resolves itself (ctx->chose).  Numbers
 * bare, names quoted. */
static void print_json_params(const struct job *j, const char *field, int chosen, FILE *out)
{
	int first = 1;
	fprintf(out, ", \"%s\": {", field);
	for (size_t i = 0; i < j->nparams; i++) {
		const struct job_param *p = &j->params[i];
		const char *text = chosen ? p->chosen : p->text;
		enum gpulab_param_type t = p->decl.type;
		int number = t != GPULAB_PARAM_ENUM && t != GPULAB_PARAM_SHAPE && t != GPULAB_PARAM_PATH;
		if (!text[0])
			continue; /* not resolved (the job was refused before it), or not chosen */
		fputs(first ? "" : ", ", out);
		emit_json(out, p->decl.key);
		fputs(": ", out);
		if (number)
			fputs(text, out);
		else
			emit_json(out, text);
		first = 0;
	}
	fputc('}', out);
}

/* "clocks": the SM and memory clocks over the timed runs, or null. */
static void json_clocks(const struct job *j, FILE *out)
{
	const struct clock_stats *c = &j->res.clocks;
	char words[128];
	if (!c->samples) {
		fputs(", \"clocks\": null", out);
		return;
	}
	fprintf(out, ", \"clocks\": {\"samples\": %u, \"sm_mhz_min\": %u, \"sm_mhz_mean\": %.1f, \"sm_mhz_max\": %u, "
		"\"mem_mhz\": %u, \"throttled\": %u, \"reasons\": ", c->samples, c->sm_min, c->sm_mean, c->sm_max,
		c->mem_mhz, c->throttled);
	emit_json(out, clocks_reasons(c->reasons, words, sizeof words));
	fputc('}', out);
}

static void json_result(const struct report *r, const struct job *j, FILE *out)
{
	char name[256], rerun[1024];
	const struct result *x = &j->res;
	double speedup, share;
	int m = measured(j);
	compare(r, j, &speedup, &share);
	fputs("    {\"exercise\": ", out);
	emit_json(out, job_name(j, name, sizeof name));
	print_json_params(j, "params", 0, out);
	fprintf(out, ", \"elements\": %llu", (unsigned long long)j->ctx.elements);
	emit_json_number(out, "median_ms", m, x->gpu_med);
	emit_json_number(out, "min_ms", m, x->gpu_min);
	emit_json_number(out, "max_ms", m, x->gpu_max);
	fprintf(out, ", \"runs\": %u", x->nsamples);
	emit_json_number(out, "noise_pct", m && noise_pct(j) >= 0, noise_pct(j));
	fprintf(out, ", \"converged\": %s", x->converged ? "true" : "false");
	emit_json_string(out, "stopped_by", m ? stop_reason_name(x->stopped_by) : NULL);
	emit_json_string(out, "timing", m ? timing_mode_name(x->timing) : NULL);
	if (has_interval(j))
		fprintf(out, ", \"median_ci_ms\": [%.6g, %.6g], \"median_ci_pct\": %.4f", x->median_lo, x->median_hi,
			interval_pct(j));
	fprintf(out, ", \"noisy\": %s", noisy(j) ? "true" : "false");
	fprintf(out, ", \"batch\": %u", row_batch(r, j));
	emit_json_number(out, "host_ms", m && j->pick.ex->host, x->host_med);
	emit_json_number(out, "total_ms", m, x->total_med);
	fprintf(out, ", \"bytes\": %llu", (unsigned long long)(j->ctx.bytes_read + j->ctx.bytes_written));
	emit_json_number(out, "gbps", m, x->gbps);
	emit_json_number(out, "peak_pct", m && r->dev, peak_pct(r, j));
	emit_json_number(out, "speedup", speedup > 0, speedup);
	emit_json_number(out, "ref_share", share > 0, share);
	fprintf(out, ", \"verified\": %s, \"status\": \"%s\", \"message\": ",
		x->outcome == OUTCOME_OK ? "true" : "false", status_word(j));
	emit_json(out, x->message);
	fputs(", \"notes\": {", out);
	for (int i = 0; i < x->nnotes; i++) {
		fputs(i ? ", " : "", out);
		emit_json(out, x->notes[i].name);
		fprintf(out, ": %.6g", x->notes[i].value);
	}
	fputc('}', out);
	print_json_params(j, "chosen", 1, out);
	json_metrics(j, out);
	json_clocks(j, out);
	if (r->samples) {
		fputs(", \"samples_ms\": [", out);
		for (unsigned i = 0; x->samples && i < x->nsamples; i++)
			fprintf(out, "%s%.6g", i ? ", " : "", x->samples[i]);
		fputc(']', out);
	}
	job_command(j, r->cold, row_batch(r, j), rerun, sizeof rerun);
	fputs(", \"rerun\": ", out);
	emit_json(out, rerun);
	fputc('}', out);
}

/* "device": what the numbers depend on; null for a run on the host. */
static void json_device(const struct report *r, FILE *out)
{
	const struct device_info *d = r->dev;
	if (!d) {
		fputs("null", out);
		return;
	}
	fputs("{\"name\": ", out);
	emit_json(out, d->name);
	fputs(", \"uuid\": ", out);
	emit_json(out, r->clk && r->clk->uuid[0] ? r->clk->uuid : "");
	fputs(", \"bus_id\": ", out);
	emit_json(out, d->bus_id);
	fprintf(out, ", \"compute_capability\": \"%d.%d\", \"sms\": %d, \"l2_bytes\": %zu, \"memory_bytes\": %zu, "
		"\"memory_clock_mhz\": %d, \"bus_width_bits\": %d, \"peak_gbps\": %.1f",
		d->cc_major, d->cc_minor, d->sms, d->l2_bytes, d->mem_bytes, d->mem_clock_khz / 1000, d->bus_width_bits,
		d->peak_gbps);
	emit_json_number(out, "max_sm_mhz", r->clk && r->clk->max_sm_mhz, r->clk ? r->clk->max_sm_mhz : 0);
	fprintf(out, ", \"cuda_driver\": \"%d.%d\", \"cuda_runtime\": \"%d.%d\", \"driver\": ", d->driver_version / 1000,
		(d->driver_version % 1000) / 10, d->runtime_version / 1000, (d->runtime_version % 1000) / 10);
	emit_json(out, r->clk ? r->clk->driver : "");
	fputs(", \"clocks\": ", out);
	emit_json(out, r->clk && r->clk->lib ? "nvml" : r->clk ? r->clk->why : "");
	fputc('}', out);
}

/* "host", "date" (UTC), and the command as typed. */
static void json_provenance(const struct report *r, FILE *out)
{
	char host[256] = "", date[32] = "";
	time_t now = time(NULL);
	struct tm tm;
	if (gethostname(host, sizeof host) != 0)
		host[0] = 0;
	host[sizeof host - 1] = 0;
	if (gmtime_r(&now, &tm))
		strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
	fputs("  \"host\": ", out);
	emit_json(out, host);
	fputs(", \"date\": ", out);
	emit_json(out, date);
	fputs(",\n  \"command\": ", out);
	emit_json(out, r->command ? r->command : "");
	fputs(",\n", out);
}

/* "ranks" (schema 1.3), under a launcher: every rank's machine and GPU,
 * in rank order; "device" above is rank 0's. */
static void json_ranks(const struct report *r, FILE *out)
{
	if (r->nranks < 2)
		return;
	fputs(",\n  \"ranks\": [", out);
	for (size_t i = 0; i < r->nranks; i++) {
		fprintf(out, "%s{\"rank\": %zu, \"host\": ", i ? ", " : "", i);
		emit_json(out, r->ranks[i].host);
		fputs(", \"device\": ", out);
		emit_json(out, r->ranks[i].device);
		fputs(", \"bus_id\": ", out);
		emit_json(out, r->ranks[i].bus_id);
		fprintf(out, ", \"ordinal\": %d}", r->ranks[i].ordinal);
	}
	fputc(']', out);
}

/* Row i: as run, or as kept from the record resumed. */
static void json_row(const struct report *r, size_t i, FILE *out)
{
	if (!r->jobs[i].kept) {
		json_result(r, &r->jobs[i], out);
		return;
	}
	fprintf(out, "    %s", r->jobs[i].kept);
}

static void print_json(const struct report *r, FILE *out)
{
	fprintf(out, "{\n  \"schema\": \"%s\",\n  \"gpulab\": {\"version\": \"%s\", \"revision\": ", REPORT_SCHEMA,
		PACKAGE_VERSION);
	emit_json(out, GPULAB_REVISION);
	fprintf(out, ", \"abi\": \"%d.%d\"},\n", GPULAB_ABI_VERSION, GPULAB_ABI_MINOR);
	json_provenance(r, out);
	fprintf(out, "  \"cold\": %s,\n  \"batch\": %u,\n  \"stopping\": {\"max_noise_pct\": %g, \"min_time_s\": %g, \"timeout_s\": %g, "
		"\"min_runs\": %d},\n  \"interrupted\": %s", r->cold ? "true" : "false", r->batch > 1 ? r->batch : 1,
		100 * r->stop.max_noise, r->stop.min_time_s, r->stop.timeout_s, MIN_SAMPLES, r->interruption ? "true" : "false");
	emit_json_string(out, "interruption", r->interruption);
	fputs(",\n  \"device\": ", out);
	json_device(r, out);
	json_ranks(r, out);
	fputs(",\n  \"results\": [\n", out);
	for (size_t i = 0; i < r->njobs; i++) {
		json_row(r, i, out);
		fputs(i + 1 < r->njobs || r->nextra ? ",\n" : "\n", out);
	}
	for (size_t i = 0; i < r->nextra; i++) {
		fprintf(out, "    %s", r->extra[i]);
		fputs(i + 1 < r->nextra ? ",\n" : "\n", out);
	}
	fputs("  ]\n}\n", out);
}

int report_streams(const struct report *r)
{
	return r->format != FORMAT_JSON;
}

void report_begin(struct report *r, FILE *out)
{
	if (r->format == FORMAT_CSV)
		csv_begin(r, out);
	else if (r->format == FORMAT_TABLE)
		table_begin(r, out);
}

void report_point(struct report *r, size_t i, FILE *out)
{
	if (r->format == FORMAT_CSV)
		csv_point(r, i, 0, out);
	else if (r->format == FORMAT_TABLE)
		table_point(r, i, out);
}

void report_end(const struct report *r, FILE *out)
{
	if (r->format == FORMAT_CSV)
		for (size_t i = 0; i < r->njobs; i++)
			csv_point(r, i, 1, out);
	else if (r->format == FORMAT_TABLE)
		table_end(r, out);
	else
		print_json(r, out);
}

void report_print(const struct report *r, FILE *out)
{
	struct report c = *r;
	report_begin(&c, out);
	for (size_t i = 0; i < c.njobs; i++)
		report_point(&c, i, out);
	report_end(&c, out);
}
