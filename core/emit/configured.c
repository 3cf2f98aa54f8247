#include "command_names.h"
#include "emit/configured.h"

#include "config/options.h"
#include "emit/field.h"
#include "escape.h"

#include <string.h>

static const char *const seen_words[] = { [SEEN_READ] = "read", [SEEN_MISSING] = "missing",
					  [SEEN_REFUSED] = "refused", [SEEN_UNSET] = "unset" };

/* How the command line gives key p: "-n", "-p tile". */
static const char *configured_flag(const struct sweep_key *p, char *buf, size_t len)
{
	return options_key_spelling(p->generic, p->decl.key, NULL, buf, len);
}

/* Where key p's value came from; -r not set says what stops a point instead. */
static const char *configured_where(const struct sweep_key *p, char *buf, size_t len)
{
	const struct stopping stop = STOP_DEFAULTS;
	if (p->generic == GEN_REPS && p->defaulted)
		snprintf(buf, len, "not set: repeats until the noise is at most %g%% (gpulab " CMD_HELP " " CMD_RUN ")", 100 * stop.max_noise);
	else
		snprintf(buf, len, "%s", p->where);
	return buf;
}

/* The next of the plugin directories at *p ("a:b:c") into one, or NULL
 * past the last; an empty one is passed over. */
static const char *configured_dir(const char **p, char *one, size_t len)
{
	while (**p) {
		size_t n = strcspn(*p, ":");
		snprintf(one, len, "%.*s", (int)n, *p);
		*p += n + ((*p)[n] == ':');
		if (n)
			return one;
	}
	return NULL;
}

/* --- for people ------------------------------------------------------------------------ */

static void configured_text_begin(void *doc, FILE *out)
{
	const struct configured *d = doc;
	fputs("configuration files, in the order read (a later one wins):\n", out);
	for (size_t i = 0; i < d->c->nseen; i++) {
		const struct seen *s = &d->c->seen[i];
		fprintf(out, "  %-8s %-15s ", seen_words[s->state], s->role);
		if (s->state == SEEN_UNSET && !strcmp(s->path, s->role))
			fputs("(not set)", out);
		else
			fput_escaped(out, s->path);
		if (s->why) {
			fputs("\n           ", out);
			fput_escaped(out, s->why);
		}
		fputc('\n', out);
	}
	fputs("plugin directories, searched in order for a bare file = NAME.so:\n", out);
	for (const char *p = d->dirs ? d->dirs : d->dirs_error; *p;) {
		size_t len = d->dirs ? strcspn(p, ":") : strlen(p);
		char one[4096];
		snprintf(one, sizeof one, "%.*s", (int)len, p);
		if (len) {
			fputs("  ", out);
			fput_escaped(out, one);
			fputc('\n', out);
		}
		p += len + (p[len] == ':');
	}
}

static void configured_text_row(void *doc, size_t i, FILE *out)
{
	const struct configured *d = doc;
	char flag[128], where[512];
	(void)i;
	fputc('\n', out);
	fput_escaped(out, d->name);
	fputs(":\n", out);
	for (size_t k = 0; k < d->s->nkeys; k++) {
		const struct sweep_key *p = &d->s->keys[k];
		if (!p->axis)
			continue; /* not resolved: the refusal below says why */
		fprintf(out, "  %-16s ", configured_flag(p, flag, sizeof flag));
		fput_escaped(out, configured_where(p, where, sizeof where));
		fputc('\n', out);
	}
	if (d->refused) {
		fputs("  refused: ", out);
		fput_escaped(out, d->refused);
		fputc('\n', out);
	}
}

const struct writer configured_table = { .for_people = 1, .begin = configured_text_begin, .row = configured_text_row };

/* --- as JSON: gpulab-config/1 (docs/json.md) ----------------------------------------------- */

static void configured_json_begin(void *doc, FILE *out)
{
	const struct configured *d = doc;
	fputs("{\n  \"schema\": \"gpulab-config/1\",\n  \"files\": [", out);
	for (size_t i = 0; i < d->c->nseen; i++) {
		const struct seen *s = &d->c->seen[i];
		fputs(i ? ",\n    {\"state\": " : "\n    {\"state\": ", out);
		emit_json(out, seen_words[s->state]);
		emit_json_string(out, "role", s->role);
		emit_json_string(out, "path", s->state == SEEN_UNSET && !strcmp(s->path, s->role) ? NULL : s->path);
		emit_json_string(out, "why", s->why);
		fputc('}', out);
	}
	fputs("\n  ],\n  \"plugin_directories\": [", out);
	char one[4096];
	for (const char *p = d->dirs ? d->dirs : "", *dir, *sep = ""; (dir = configured_dir(&p, one, sizeof one)); sep = ", ")
		fputs(sep, out), emit_json(out, dir);
	fputc(']', out);
	emit_json_string(out, "plugin_directories_error", d->dirs ? NULL : d->dirs_error);
	fputs(",\n  \"exercises\": [", out);
}

static void configured_json_row(void *doc, size_t i, FILE *out)
{
	struct configured *d = doc;
	char flag[128], where[512];
	(void)i;
	fputs(d->shown++ ? ",\n    {\"name\": " : "\n    {\"name\": ", out);
	emit_json(out, d->name);
	fputs(", \"keys\": [", out);
	for (size_t k = 0, n = 0; k < d->s->nkeys; k++) {
		const struct sweep_key *p = &d->s->keys[k];
		if (!p->axis)
			continue;
		fputs(n++ ? ", {\"key\": " : "{\"key\": ", out);
		emit_json(out, p->decl.key);
		emit_json_string(out, "flag", configured_flag(p, flag, sizeof flag));
		emit_json_string(out, "value", p->axis);
		emit_json_string(out, "from", configured_where(p, where, sizeof where));
		fprintf(out, ", \"defaulted\": %s}", p->defaulted ? "true" : "false");
	}
	fputc(']', out);
	emit_json_string(out, "refused", d->refused);
	fputc('}', out);
}

static void configured_json_end(void *doc, FILE *out)
{
	fputs(((struct configured *)doc)->shown ? "\n  ]\n}\n" : "]\n}\n", out);
}

const struct writer configured_json = { .begin = configured_json_begin, .row = configured_json_row,
					.end = configured_json_end };

/* --- as a table in CSV or Markdown: a row for each file seen, plugin directory and key ----- */

static const char *const configured_columns[] = { "what", "name", "key", "value", "from" };

static void configured_cells_begin(const struct configured *d, FILE *out, const struct cell_style *c)
{
	char one[4096];
	cells_header(out, c, configured_columns, 5);
	for (size_t i = 0; i < d->c->nseen; i++) {
		const struct seen *s = &d->c->seen[i];
		const char *path = s->state == SEEN_UNSET && !strcmp(s->path, s->role) ? "" : s->path;
		cells_row(out, c, (const char *const[]){ "file", s->role, seen_words[s->state], path, s->why }, 5);
	}
	for (const char *p = d->dirs ? d->dirs : "", *dir; (dir = configured_dir(&p, one, sizeof one));)
		cells_row(out, c, (const char *const[]){ "plugin directory", "", "", dir, "" }, 5);
	if (!d->dirs)
		cells_row(out, c, (const char *const[]){ "plugin directory", "", "", "", d->dirs_error }, 5);
}

static void configured_cells_row(const struct configured *d, FILE *out, const struct cell_style *c)
{
	char flag[128], where[512];
	for (size_t k = 0; k < d->s->nkeys; k++) {
		const struct sweep_key *p = &d->s->keys[k];
		if (p->axis)
			cells_row(out, c, (const char *const[]){ "key", d->name, configured_flag(p, flag, sizeof flag), p->axis,
								 configured_where(p, where, sizeof where) }, 5);
	}
	if (d->refused)
		cells_row(out, c, (const char *const[]){ "refused", d->name, "", "", d->refused }, 5);
}

static void configured_csv_begin(void *doc, FILE *out)
{
	configured_cells_begin(doc, out, &csv_cells);
}

static void configured_csv_row(void *doc, size_t i, FILE *out)
{
	(void)i;
	configured_cells_row(doc, out, &csv_cells);
}

static void configured_md_begin(void *doc, FILE *out)
{
	configured_cells_begin(doc, out, &md_cells);
}

static void configured_md_row(void *doc, size_t i, FILE *out)
{
	(void)i;
	configured_cells_row(doc, out, &md_cells);
}

const struct writer configured_csv = { .begin = configured_csv_begin, .row = configured_csv_row },
		    configured_markdown = { .begin = configured_md_begin, .row = configured_md_row };
