/*
 * `gpulab learn` alone: the map of lessons, each with the learner's
 * progress, and the next one; for people, or as one JSON document
 * (gpulab-learn/1, docs/json.md).
 */
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
	fprintf(out, "gpulab learn: %zu lessons, %zu seen, %zu tasks passed\n", s->n, seen, passed);
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
		fprintf(out, "\nNext: gpulab learn %s\n", next->name);
	else
		fprintf(out, "\nEvery task is passed. gpulab learn LESSON --submit FILE.cu tries for a better figure.\n");
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

void learn_map(const struct lesson_set *s, const struct progress *p, enum format f, FILE *out)
{
	if (report_for_people(f))
		learn_map_text(s, p, out);
	else
		learn_map_json(s, p, out);
}
