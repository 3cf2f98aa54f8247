#include "draw/tables.h"

#include "config/options.h"
#include "draw/numbers.h"
#include "escape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The most parameter keys the table tells apart; an exercise declares a
 * handful. */
#define TABLE_KEYS 64

/* The keys that every point of the chart having them gives one value. */
struct shared {
	const char *key[TABLE_KEYS], *value[TABLE_KEYS];
	size_t n;
};

static const struct json *params_of(const struct chart *c, size_t i)
{
	return json_get(c->pl->p[c->pts[i]].row, "params");
}

static int is_shared(const struct shared *s, const char *key)
{
	for (size_t k = 0; k < s->n; k++)
		if (!strcmp(s->key[k], key))
			return 1;
	return 0;
}

/* key's one value across the chart's points that have it, or NULL. */
static const char *one_value(const struct chart *c, const char *key)
{
	const char *first = NULL;
	for (size_t i = 0; i < c->npts; i++) {
		const struct json *v = json_get(params_of(c, i), key);
		const char *text = v ? json_scalar_text(v) : NULL;
		if (v && (!text || (first && strcmp(first, text))))
			return NULL;
		first = first ? first : text;
	}
	return first;
}

static void shared_params(const struct chart *c, struct shared *s)
{
	s->n = 0;
	for (size_t i = 0; i < c->npts; i++) {
		const struct json *params = params_of(c, i);
		for (size_t k = 0; k < json_len(params) && s->n < TABLE_KEYS; k++) {
			const char *key = json_key(params, k), *v;
			if (!is_shared(s, key) && (v = one_value(c, key)))
				s->key[s->n] = key, s->value[s->n++] = v;
		}
	}
}

static int has_param(const struct chart *c, const char *key)
{
	for (size_t i = 0; i < c->npts; i++)
		if (json_get(params_of(c, i), key))
			return 1;
	return 0;
}

/* Do the points process different numbers of elements?  Then n is a column. */
static int sizes_vary(const struct chart *c)
{
	for (size_t i = 1; i < c->npts; i++)
		if (json_number(json_get(c->pl->p[c->pts[i]].row, "elements"))
		    != json_number(json_get(c->pl->p[c->pts[0]].row, "elements")))
			return 1;
	return 0;
}

/* "n = 2^24 (16777216)" for a size, else "key = value". */
static void say_param(FILE *out, const char *key, const char *value)
{
	char size[48] = "", *end;
	double v = strtod(value, &end);
	int pow2 = end != value && !*end && numbers_size(size, sizeof size, v)[1] == '^';
	fput_html(out, key);
	fputs(" = ", out);
	fputs(pow2 ? size : "", out);
	fputs(pow2 ? " (" : "", out);
	fput_html(out, value);
	fputs(pow2 ? ")" : "", out);
}

static void say_shared(FILE *out, const struct shared *s)
{
	fputs("<p class=\"same\">A number's title has the record's exact value.", out);
	fputs(s->n ? " Every row that has it: " : "", out);
	for (size_t k = 0; k < s->n; k++) {
		fputs(k ? " \u00b7 " : "", out);
		say_param(out, s->key[k], s->value[k]);
	}
	fputs("</p>\n", out);
}

/* The point's keys that the table does not say otherwise: those that
 * define it (label 1: not n and type, which have columns) or the rest
 * (label 0), "k=v" each. */
static void own_params(FILE *out, const struct shared *s, const struct plot_point *p, int label)
{
	const struct json *params = json_get(p->row, "params");
	int any = 0;
	for (size_t k = 0; k < json_len(params); k++) {
		const char *key = json_key(params, k), *v = json_scalar_text(json_index(params, k));
		int defines = record_defines_point(key) && strcmp(key, "n") && strcmp(key, "type");
		if (is_shared(s, key) || defines != label || (!label && (!strcmp(key, "n") || !strcmp(key, "type"))))
			continue;
		fprintf(out, "%s", any || label ? " " : "");
		fput_html(out, key);
		fputc('=', out);
		fput_html(out, v ? v : "?");
		any = 1;
	}
}

static void label_cell(FILE *out, const struct shared *s, const struct plot_point *p)
{
	fputs("<td class=\"text\">", out);
	fput_html(out, p->exercise);
	own_params(out, s, p, 1);
	fputs("</td>", out);
}

/* "ok", or the status and its flags (THROTTLED, NOISY). */
static void status_cell(FILE *out, const struct plot_point *p)
{
	fprintf(out, "<td class=\"text%s\">%s%s%s</td>", p->state == PLOT_OK && p->converged && !p->throttled ? "" : " flag",
		plot_state_word(p->state), p->throttled ? " THROTTLED" : "", plot_measured(p) && !p->converged ? " NOISY" : "");
}

/* --- the compact table ---------------------------------------------------------- */

static void compact_row(FILE *out, const struct shared *s, const struct plot_point *p, int type, int n)
{
	fputs("<tr>", out);
	label_cell(out, s, p);
	const char *t = json_scalar_text(json_get(json_get(p->row, "params"), "type"));
	if (type)
		numbers_text_cell(out, t ? t : "\u2013");
	if (n)
		numbers_size_cell(out, p->row, "elements");
	numbers_cell(out, p->row, "median_ms", 4, 1, "");
	numbers_cell(out, p->row, "median_ci_pct", 2, 1, "");
	numbers_cell(out, p->row, "gbps", 1, 1, "");
	numbers_cell(out, p->row, "peak_pct", 1, 1, "");
	numbers_cell(out, p->row, "speedup", 2, 1, "\u00d7");
	numbers_cell(out, p->row, "ref_share", 0, 100, "%");
	status_cell(out, p);
	fputs("</tr>\n", out);
}

static void compact(FILE *out, const struct chart *c, const struct shared *s)
{
	int type = !is_shared(s, "type") && has_param(c, "type"), n = sizes_vary(c);
	fputs("<table class=\"data\"><caption>The chart's numbers, as the terminal prints them</caption>\n"
	      "<tr><th class=\"text\">exercise</th>", out);
	fputs(type ? "<th class=\"text\">type</th>" : "", out);
	fputs(n ? "<th>n</th>" : "", out);
	fputs("<th>median ms</th><th title=\"half the median's 95% confidence interval, in % of it\">\u00b1%</th>"
	      "<th>GB/s</th><th>%peak</th><th>speedup</th><th>of ref</th><th class=\"text\">status</th></tr>\n", out);
	for (size_t i = 0; i < c->npts; i++)
		compact_row(out, s, &c->pl->p[c->pts[i]], type, n);
	fputs("</table>\n", out);
}

/* --- --wide's columns, folded ----------------------------------------------------- */

/* What the exercise chose and noted: "chose ways=2; noted n=1024". */
static void noted(FILE *out, const struct json *row)
{
	static const char *const keys[] = { "chosen", "notes" }, *const words[] = { "chose", "noted" };
	int any = 0;
	for (size_t w = 0; w < 2; w++) {
		const struct json *o = json_get(row, keys[w]);
		if (json_type(o) != JSON_OBJECT || !json_len(o))
			continue;
		fprintf(out, "%s%s", any ? "; " : "", words[w]);
		for (size_t k = 0; k < json_len(o); k++) {
			const char *v = json_scalar_text(json_index(o, k));
			fputc(' ', out);
			fput_html(out, json_key(o, k));
			fputc('=', out);
			fput_html(out, v ? v : "?");
		}
		any = 1;
	}
}

/* Does any point have a value at key (an object with members, for an object)? */
static int any_has(const struct chart *c, const char *key)
{
	for (size_t i = 0; i < c->npts; i++) {
		const struct json *v = json_get(c->pl->p[c->pts[i]].row, key);
		if (json_type(v) == JSON_NUMBER || (json_type(v) == JSON_OBJECT && json_len(v)))
			return 1;
	}
	return 0;
}

static void folded_row(FILE *out, const struct shared *s, const struct plot_point *p, int host, int notes)
{
	fputs("<tr>", out);
	label_cell(out, s, p);
	fputs("<td class=\"text\">", out);
	own_params(out, s, p, 0);
	fputs("</td>", out);
	numbers_cell(out, p->row, "min_ms", 4, 1, "");
	numbers_cell(out, p->row, "max_ms", 4, 1, "");
	numbers_cell(out, p->row, "runs", 0, 1, "");
	numbers_cell(out, p->row, "noise_pct", 2, 1, "");
	if (host)
		numbers_cell(out, p->row, "host_ms", 4, 1, "");
	if (notes) {
		fputs("<td class=\"text\">", out);
		noted(out, p->row);
		fputs("</td>", out);
	}
	fputs("</tr>\n", out);
}

static void folded(FILE *out, const struct chart *c, const struct shared *s)
{
	int host = any_has(c, "host_ms"), notes = any_has(c, "chosen") || any_has(c, "notes");
	fprintf(out, "<details class=\"wide\"><summary>Every column, as %s: params, min and max ms, runs, noise %%%s%s"
		"</summary>\n<table class=\"data wide\"><tr><th class=\"text\">exercise</th><th class=\"text\">params</th>"
		"<th>min ms</th><th>max ms</th><th>runs</th><th>noise %%</th>%s%s</tr>\n", options_long(OPT_WIDE),
		host ? ", host ms" : "",
		notes ? ", what each chose and noted" : "", host ? "<th>host ms</th>" : "",
		notes ? "<th class=\"text\">chose, noted</th>" : "");
	for (size_t i = 0; i < c->npts; i++)
		folded_row(out, s, &c->pl->p[c->pts[i]], host, notes);
	fputs("</table></details>\n", out);
}

void tables_chart(FILE *out, const struct chart *c)
{
	struct shared s;
	shared_params(c, &s);
	say_shared(out, &s);
	compact(out, c, &s);
	folded(out, c, &s);
}
