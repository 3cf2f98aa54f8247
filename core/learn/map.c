/*
 * `gpulab learn` alone: the map of lessons, each with the learner's
 * progress, and the next one; for people, or as one JSON document
 * (gpulab-learn/1, docs/json.md).
 */
#include "command_names.h"
#include "learn/map.h"

#include "emit/field.h"
#include "emit/writer.h"
#include "escape.h"
#include "learn/verdict.h"
#include "wrap.h"

#include <math.h>
#include <string.h>

static const char *learn_state(const struct progress_entry *e, char *buf, size_t len)
{
	if (!e || (!e->seen && !e->passed && !isfinite(e->best)))
		return "not started";
	if (!e->seen && !e->passed)
		snprintf(buf, len, "task tried, best %.2fx", e->best);
	else if (e->passed)
		snprintf(buf, len, "task passed, best %.2fx", e->best);
	else if (e->verdict >= 0 && isfinite(e->figure))
		snprintf(buf, len, "claim seen: %s, %.3g", verdict_key((enum verdict)e->verdict), e->figure);
	else
		snprintf(buf, len, "claim seen");
	return buf;
}

/* The first lesson not seen; else the first whose task is not passed. */
static const struct lesson *learn_next(const struct lesson_set *s, const struct progress *p)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < s->n; i++) {
			const struct progress_entry *e = progress_find(p, s->v[i].name);
			if (!e || (pass == 0 ? !e->seen : !e->passed))
				return &s->v[i];
		}
	return NULL;
}

static void learn_map_text(const struct lesson_set *s, const struct progress *p, FILE *out)
{
	/* a name whole, escaped (up to 4 bytes a byte): it is what the
	 * learner types back, and what bench/learn-table.sh reads */
	char name[4 * LESSON_MAX_NAME + 1], topic[48], state[64];
	const char *chapter = "";
	size_t seen = 0, passed = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct progress_entry *e = progress_find(p, s->v[i].name);
		seen += e && e->seen, passed += e && e->passed;
	}
	fprintf(out, "gpulab " CMD_LEARN ": %zu lessons, %zu seen, %zu tasks passed\n", s->n, seen, passed);
	for (size_t i = 0; i < s->n; i++) {
		const struct lesson *l = &s->v[i];
		int col = 0;
		if (strcmp(l->chapter, chapter)) {
			fputc('\n', out);
			wrap_words(out, l->chapter, &col, &(struct wrap){ .width = WRAP_WIDTH });
			fputc('\n', out);
		}
		chapter = l->chapter;
		fprintf(out, "  %-24s %-44s %s\n", escape_into(name, sizeof name, l->name), escape_into(topic, sizeof topic, l->topic),
		       learn_state(progress_find(p, l->name), state, sizeof state));
	}
	const struct lesson *next = learn_next(s, p);
	if (next)
		fprintf(out, "\nNext: gpulab " CMD_LEARN " %s\n", next->name);
	else
		fprintf(out, "\nEvery task is passed. gpulab " CMD_LEARN " LESSON %s FILE.cu tries for a better figure.\n",
			options_long(OPT_SUBMIT));
}

static void learn_map_json(const struct lesson_set *s, const struct progress *p, FILE *out)
{
	char state[64];
	const struct lesson *next = learn_next(s, p);
	fputs("{\n  \"schema\": \"gpulab-learn/1\",\n  \"lessons\": [\n", out);
	for (size_t i = 0; i < s->n; i++) {
		const struct lesson *l = &s->v[i];
		const struct progress_entry *e = progress_find(p, l->name);
		fputs("    {\"name\": ", out);
		emit_json(out, l->name);
		emit_json_string(out, "chapter", l->chapter);
		emit_json_string(out, "topic", l->topic);
		emit_json_string(out, "state", learn_state(e, state, sizeof state));
		fprintf(out, ", \"seen\": %s, \"passed\": %s", e && e->seen ? "true" : "false",
			e && e->passed ? "true" : "false");
		emit_json_string(out, "verdict", e && e->verdict >= 0 ? verdict_key((enum verdict)e->verdict) : NULL);
		emit_json_number(out, "figure", e != NULL, e ? e->figure : NAN); /* null: none */
		emit_json_number(out, "best", e != NULL, e ? e->best : NAN);
		fputs(i + 1 < s->n ? "},\n" : "}\n", out);
	}
	fputs("  ],\n  \"next\": ", out);
	if (next)
		emit_json(out, next->name);
	else
		fputs("null", out);
	fputs("\n}\n", out);
}

/* The map as a table in CSV or Markdown: a row a lesson, the JSON's
 * names as columns, the next one marked. */
static void learn_map_cells(const struct lesson_set *s, const struct progress *p, const struct cell_style *c, FILE *out)
{
	static const char *const columns[] = { "name", "chapter", "topic", "state", "seen", "passed", "verdict", "figure:",
					       "best:", "next" };
	const struct lesson *next = learn_next(s, p);
	char state[64], figure[32], best[32];
	cells_header(out, c, columns, 10);
	for (size_t i = 0; i < s->n; i++) {
		const struct lesson *l = &s->v[i];
		const struct progress_entry *e = progress_find(p, l->name);
		snprintf(figure, sizeof figure, e && isfinite(e->figure) ? "%.4g" : "", e ? e->figure : 0);
		snprintf(best, sizeof best, e && isfinite(e->best) ? "%.4g" : "", e ? e->best : 0);
		cells_row(out, c, (const char *const[]){ l->name, l->chapter, l->topic, learn_state(e, state, sizeof state),
							 e && e->seen ? "yes" : "no", e && e->passed ? "yes" : "no",
							 e && e->verdict >= 0 ? verdict_key((enum verdict)e->verdict) : "",
							 figure, best, l == next ? "yes" : "" }, 10);
	}
}

void learn_map(const struct lesson_set *s, const struct progress *p, enum format f, FILE *out)
{
	const struct cell_style *c = cells_for(f);
	if (report_for_people(f))
		learn_map_text(s, p, out);
	else if (c)
		learn_map_cells(s, p, c, out);
	else
		learn_map_json(s, p, out);
}

/* The claims of docs/claims.md a lesson tests, "001.12 004.5", as an array. */
static void lesson_claims_json(const char *claims, FILE *out)
{
	char id[64];
	int n = 0;
	fputs(", \"claims\": [", out);
	for (const char *c = claims ? claims : ""; *(c += strspn(c, " \t")); c += strcspn(c, " \t")) {
		snprintf(id, sizeof id, "%.*s", (int)strcspn(c, " \t"), c);
		fputs(n++ ? ", " : "", out);
		emit_json(out, id);
	}
	fputc(']', out);
}

/* What was measured and the verdict on it; null where none was told. */
static void lesson_verdict_json(const struct lesson *l, const struct lesson_outcome *r, FILE *out)
{
	const struct figure_value *f = &r->f;
	if (r->verdict < 0) {
		fputs("null", out);
		return;
	}
	fputs("{\"verdict\": ", out);
	emit_json(out, verdict_key((enum verdict)r->verdict));
	emit_json_string(out, "words", verdict_words((enum verdict)r->verdict));
	emit_json_number(out, "value", 1, f->value);
	emit_json_number(out, "lo", isfinite(f->lo), f->lo); /* null: no interval */
	emit_json_number(out, "hi", isfinite(f->hi), f->hi);
	emit_json_string(out, "unit", l->unit);
	emit_json_number(out, "p", isfinite(r->p), r->p);
	emit_json_number(out, "a", isfinite(f->va), f->va);
	emit_json_number(out, "b", isfinite(f->vb), f->vb);
	emit_json_string(out, "device", f->device);
	fputc('}', out);
}

/* `, "key": "value"` of each, null where a value is NULL, to the { 0 } that ends them. */
struct lesson_field {
	const char *key, *value;
};

static void lesson_fields_json(FILE *out, const struct lesson_field *f)
{
	for (; f->key; f++)
		emit_json_string(out, f->key, f->value);
}

void learn_lesson_json(const struct lesson *l, const struct lesson_outcome *r, FILE *out)
{
	fputs("{\n  \"schema\": \"gpulab-lesson/1\",\n  \"name\": ", out);
	emit_json(out, l->name);
	fprintf(out, ", \"order\": %d", l->order);
	lesson_fields_json(out, (const struct lesson_field[]){ { "chapter", l->chapter }, { "topic", l->topic }, { 0 } });
	fputs(",\n  \"claim\": ", out);
	emit_json(out, r->claim);
	lesson_fields_json(out, (const struct lesson_field[]){ { "book", l->book }, { "notes", l->notes }, { 0 } });
	lesson_claims_json(l->claims, out);
	fputs(",\n  \"run\": ", out);
	emit_json(out, l->run);
	lesson_fields_json(out, (const struct lesson_field[]){ { "figure", l->figure }, { "rule", l->rule }, { "why", r->why },
							       { "because", r->because }, { "page", r->page }, { 0 } });
	fputs(",\n  \"task\": {\"challenge\": ", out);
	emit_json(out, l->challenge);
	lesson_fields_json(out, (const struct lesson_field[]){ { "text", r->task }, { "args", l->args }, { 0 } });
	emit_json_number(out, "target_times", 1, l->target_times);
	lesson_fields_json(out, (const struct lesson_field[]){ { "target", l->target_ref.exercise }, { "require", l->require },
							       { 0 } });
	fprintf(out, "},\n  \"ran\": %s", r->ran ? "true" : "false");
	lesson_fields_json(out, (const struct lesson_field[]){ { "error", r->error }, { "record", r->record },
							       { "here", r->here }, { 0 } });
	fputs(",\n  \"result\": ", out);
	lesson_verdict_json(l, r, out);
	fputs("\n}\n", out);
}
