#include "records/upgrade.h"

#include "emit/field.h"
#include "emit/json.h"
#include "exitcode.h"
#include "io/journal.h"
#include "records/ondisk.h"
#include "records/record.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The members of a document that are the journal's to say otherwise: the
 * schema (its own), the points, and how the run ended (its closing line). */
static int journal_says(const char *key)
{
	static const char *const own[] = { "schema", "results", "interrupted", "interruption", "finished", "samples_kept" };
	for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
		if (!strcmp(key, own[i]))
			return 1;
	return 0;
}

/* The header: doc's members, with ch's changes (NULL: none). */
static void journal_head(FILE *f, const struct json *doc, unsigned samples_keep, const struct head_change *ch)
{
	const char *schema = json_get(doc, "grade") ? RECORD_GRADE_SCHEMA : RECORD_JOURNAL_SCHEMA; /* upgraded, still grade's */
	fprintf(f, "{\"schema\": \"%s\"", ch ? ch->schema : schema);
	for (size_t i = 0; i < json_len(doc); i++) {
		const char *key = json_key(doc, i);
		if (journal_says(key) || (ch && !strcmp(key, ch->key)))
			continue;
		fputs(", ", f);
		emit_json(f, key);
		fputs(": ", f);
		if (ch && !strcmp(key, "command"))
			emit_json(f, ch->command);
		else
			ondisk_write_tree(f, json_index(doc, i));
	}
	if (ch)
		fprintf(f, ", \"%s\": %s", ch->key, ch->value);
	report_samples_kept(f, samples_keep);
	fputs("}\n", f);
}

/* The bound r's header says its points were kept to: rewriting it keeps
 * every sample it has, and says the same bound. */
static unsigned kept_by(const struct record *r)
{
	const struct json *k = json_get(r->doc, "samples_kept");
	double n = json_number(k);
	if (json_type(k) == JSON_STRING)
		return UINT_MAX; /* "all" */
	return json_type(k) == JSON_NUMBER && n >= 1 && n < UINT_MAX ? (unsigned)n : 0;
}

/* samples_ms, bounded as a run bounds them (emit/json.h). */
static int bounded_samples(FILE *f, const struct json *s, unsigned samples_keep)
{
	size_t n = json_len(s);
	double *v = malloc((n ? n : 1) * sizeof *v);
	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++)
		v[i] = json_number_at(s, i);
	report_samples(f, v, n, samples_keep);
	free(v);
	return 0;
}

static int row(FILE *f, const struct json *r, unsigned samples_keep)
{
	int bad = 0;
	fputc('{', f);
	for (size_t i = 0; i < json_len(r); i++) {
		fputs(i ? ", " : "", f);
		emit_json(f, json_key(r, i));
		fputs(": ", f);
		if (!strcmp(json_key(r, i), "samples_ms"))
			bad |= bounded_samples(f, json_get(r, "samples_ms"), samples_keep);
		else
			ondisk_write_tree(f, json_index(r, i));
	}
	fputs("}\n", f);
	return bad;
}

/* The whole journal but its closing line, and that line (none where the
 * run did not finish). */
static int journal_text(const struct record *r, unsigned samples_keep, const struct head_change *ch, char **body,
			size_t *nbody, char **end, size_t *nend)
{
	const struct json *results = json_get(r->doc, "results");
	FILE *f = open_memstream(body, nbody), *e = f ? open_memstream(end, nend) : NULL;
	if (!f || !e) {
		if (f)
			fclose(f);
		return EXIT_NOMEM;
	}
	journal_head(f, r->doc, samples_keep, ch);
	int bad = 0;
	for (size_t i = 0; i < json_len(results); i++)
		bad |= row(f, json_index(results, i), samples_keep);
	if (r->finished) {
		fprintf(e, "{\"end\": {\"interrupted\": %s", json_bool(json_get(r->doc, "interrupted")) == 1 ? "true" : "false");
		emit_json_string(e, "interruption", json_string(json_get(r->doc, "interruption")));
		fprintf(e, ", \"points\": %zu}}\n", json_len(results));
	}
	bad |= fclose(f) | fclose(e);
	return bad ? EXIT_NOMEM : 0;
}

/* in as a journal at out (NULL: in place), its header changed by ch. */
static int rewrite(const char *in, const char *out, unsigned samples_keep, const struct head_change *ch, char *err,
		   size_t len)
{
	struct journal j;
	struct record r = { .path = in };
	char *body = NULL, *end = NULL, why[1024];
	size_t nbody = 0, nend = 0;
	const char *target = out ? out : in;
	int rc = journal_open(&j, target, ondisk_is_record, why, sizeof why); /* the writers' lock before FILE is read */
	if (rc) {
		snprintf(err, len, "%s: %s", target, why);
		return rc;
	}
	if (!(rc = record_load(&r, err, len)) && (rc = journal_text(&r, ch ? kept_by(&r) : samples_keep, ch, &body, &nbody, &end, &nend)))
		snprintf(err, len, "%s: out of memory", in);
	if (!rc) {
		journal_header(&j, body, nbody);
		body = NULL; /* the journal's */
	}
	/* the closing line commits all; a run that did not finish: its last point does */
	if (!rc && nend && (rc = journal_append(&j, end, nend, why, sizeof why)))
		snprintf(err, len, "%s: %s", target, why);
	if (!rc && !nend && (rc = journal_commit_header(&j, why, sizeof why)))
		snprintf(err, len, "%s: %s", target, why);
	if (!rc)
		journal_say_other_names(&j, target);
	journal_close(&j);
	record_free(&r);
	free(body);
	free(end);
	return rc;
}

int record_upgrade(const char *in, const char *out, unsigned samples_keep, char *err, size_t len)
{
	return rewrite(in, out, samples_keep, NULL, err, len);
}

int record_rewrite(const char *in, const char *out, const struct head_change *ch, char *err, size_t len)
{
	return rewrite(in, out, 0, ch, err, len);
}
