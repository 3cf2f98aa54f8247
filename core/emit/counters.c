/* --metrics under the table: each row's counters, and what each label
 * read (CUPTI's range profiler, from untimed runs). */
#include "emit/counters.h"

#include "emit/row.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

void print_metric_source(FILE *out, const char *label, const char *source)
{
	const char *div = strstr(source, " / ");
	int at = (int)strlen(label) + 3;
	if (at + strlen(source) <= 100 || !div) {
		fprintf(out, "%s = %s\n", label, source);
		return;
	}
	if (at + (div - source) > 100) /* a long label: the ratio under it */
		at = 4, fprintf(out, "%s =\n%*s", label, at, "");
	else
		fprintf(out, "%s = ", label);
	fprintf(out, "%.*s\n%*s%s\n", (int)(div - source), source, at, "", div + 1);
}

void print_metrics_table(const struct report *r, FILE *out, int namew)
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
				print_metric_source(out, l[k], source);
				break;
			}
		}
	free(l);
}
