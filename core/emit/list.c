#include "config.h"

#include "command_names.h"
#include "emit/list.h"

#include "emit/field.h"
#include "emit/list_doc.h"
#include "emit/writer.h"
#include "escape.h"
#include "wrap.h"
#include "docs.h"
#include "config/params.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Each parameter e takes, the generic ones first, as `fn` sees them;
 * reps and warmup, the same for all, are left to the header. */
void each_param(const struct gpulab_exercise *e, void (*fn)(const struct gpulab_param *, int, void *), void *arg)
{
	for (int g = 0; g < GEN_REPS; g++)
		if (exercise_takes(e, (enum generic)g)) {
			struct gpulab_param d;
			char def[32];
			exercise_generic(e, (enum generic)g, &d, def, sizeof def);
			if (g == GEN_TYPE)
				d.choices = dtypes_text(e->dtypes, "int|float");
			fn(&d, g, arg);
		}
	for (const struct gpulab_param *p = e->params; p && p->key; p++)
		fn(p, -1, arg);
}

/* Is exercise e of p among the picks (every exercise for NULL)? */
int picked(const struct selection *only, const struct gpulab_exercise *e)
{
	for (size_t i = 0; only && i < only->n; i++)
		if (only->v[i].ex == e)
			return 1;
	return !only;
}

int any_picked(const struct selection *only, const struct plugin *p)
{
	for (size_t k = 0; p->desc && k < p->desc->n_exercises; k++)
		if (picked(only, &p->desc->exercises[k]))
			return 1;
	return 0;
}

/* Words of `text` (escaped, it may come from a plugin), separated by
 * `sep`, from column `at`, wrapped at WRAP_WIDTH to lines indented by
 * `indent`, a space between words; a word longer than a line has one to
 * itself.  Ends the line. */
static void wrap_list(FILE *out, int at, int indent, const char *text, char sep)
{
	wrap_words(out, text, &at, &(struct wrap){ .width = WRAP_WIDTH, .indent = indent, .sep = sep, .keep_first = 1,
						   .escaped = 1 });
	fputc('\n', out);
}

/* Text wrapped at its blanks. */
static void wrap_blanks(FILE *out, int at, int indent, const char *text)
{
	wrap_list(out, at, indent, text, ' ');
}

/* "-n 16777216", "-p seed=random": a key as the command line sets it. */
static void key_text(const struct gpulab_param *d, int g, char *buf, size_t len)
{
	if (g >= 0)
		snprintf(buf, len, "%s %s", options_flag((enum generic)g), d->def);
	else
		options_key_spelling(-1, d->key, d->def, buf, len);
}

/* The keys of one exercise at their defaults, as one line of words. */
struct keys_line {
	char text[2048];
};

static void keys_param(const struct gpulab_param *d, int g, void *arg)
{
	struct keys_line *k = arg;
	char one[512];
	key_text(d, g, one, sizeof one);
	size_t at = strlen(k->text);
	snprintf(k->text + at, sizeof k->text - at, "%s%s", at ? "\t" : "", one); /* a key is one word */
}

/* The column exercise names are padded to; a longer name has its line
 * to itself. */
#define LIST_NAME_COLUMN 28

static void table_exercise(const struct plugin *p, const struct gpulab_exercise *e, FILE *out)
{
	char full[256];
	struct keys_line keys = { "" };
	snprintf(full, sizeof full, "%s.%s", p->name, e->name);
	int w = (int)strlen(full) + 2;
	fputs("  ", out);
	fput_escaped(out, full);
	if (w + 1 > LIST_NAME_COLUMN) {
		fprintf(out, "\n%*s", LIST_NAME_COLUMN, "");
	} else {
		fprintf(out, "%*s", LIST_NAME_COLUMN - w, "");
	}
	wrap_blanks(out, LIST_NAME_COLUMN, LIST_NAME_COLUMN, e->summary);
	each_param(e, keys_param, &keys);
	fprintf(out, "%*s", LIST_NAME_COLUMN, "");
	wrap_list(out, LIST_NAME_COLUMN, LIST_NAME_COLUMN, keys.text, '\t');
}

/* What every exercise takes: -r and -w, with the defaults they truly
 * have (a count of runs is asked for; by default the noise decides). */
static void list_common(FILE *out)
{
	const struct stopping stop = STOP_DEFAULTS;
	char text[512];
	snprintf(text, sizeof text,
		 "Every exercise also takes %s N (exactly N timed runs; by default a point repeats until its "
		 "noise is at most %g%%, over at least %d runs and %g s of GPU time, or gives up after %g s) "
		 "and %s N (%s, default %s). `gpulab " CMD_LIST " EXERCISE` shows one exercise in full.",
		 options_flag(GEN_REPS), 100 * stop.max_noise, MIN_SAMPLES, stop.min_time_s, stop.timeout_s, options_flag(GEN_WARMUP), generic_params[GEN_WARMUP].help,
		 generic_params[GEN_WARMUP].def);
	wrap_blanks(out, 0, 0, text);
}

/* The file of the same name in a later plugin directory, which the
 * loaded one hides: a user's `make install` of a plugin the system has
 * too, said where the user looks, not lost without a word. */
static void list_shadowed(const struct plugin *p, const char *label, FILE *out)
{
	if (!p->shadowed)
		return;
	fputs(label, out);
	fput_escaped(out, p->shadowed);
	fputs(" (not loaded: the first plugin directory holding it wins)", out);
}

static void plugin_head(const struct plugin *p, FILE *out)
{
	fputc('\n', out);
	fput_escaped(out, p->name);
	fputs(": ", out);
	wrap_blanks(out, (int)strlen(p->name) + 2, 2, p->desc->summary ? p->desc->summary : "");
	/* the paths come from INI files: escaped, like every error line */
	fputs("  file ", out);
	fput_escaped(out, p->path);
	fputs("\n  from ", out);
	fput_escaped(out, p->ini);
	list_shadowed(p, "\n  over ", out);
	fputc('\n', out);
}

/* One exercise named alone is shown in full (list_one, below), and
 * nothing else. */
static int list_table_one(const struct list_doc *l)
{
	return l->only && l->only->n == 1 && l->only->v[0].named;
}

static void list_one(const struct pick *k, FILE *out);

static void list_table_head(void *doc, FILE *out)
{
	const struct registry *r = ((struct list_doc *)doc)->r;
	size_t loaded = 0;
	if (list_table_one(doc)) {
		list_one(&((struct list_doc *)doc)->only->v[0], out);
		return;
	}
	for (size_t i = 0; i < r->n; i++)
		loaded += r->v[i].desc != NULL;
	if (loaded) /* with none, stdout stays empty: the errors said it all */
		list_common(out);
}

static void list_table_plugin(void *doc, size_t i, FILE *out)
{
	const struct list_doc *l = doc;
	const struct plugin *p = &l->r->v[i];
	if (!p->desc || !any_picked(l->only, p) || list_table_one(l))
		return;
	plugin_head(p, out);
	for (size_t k = 0; k < p->desc->n_exercises; k++)
		if (picked(l->only, &p->desc->exercises[k]))
			table_exercise(p, &p->desc->exercises[k], out);
}

/* The challenges found, each with the folder that won (and the one it
 * hides), as a plugin's file is shown: after the plugins, not for a
 * pattern. */
static void list_table_challenges(const struct list_doc *l, FILE *out)
{
	const struct challenge_set *s = l->challenges;
	if (!s || !s->n || l->only)
		return;
	fprintf(out, "\nchallenges (gpulab " CMD_TRY " NAME FILE.cu; docs/challenge.md):\n");
	for (size_t i = 0; i < s->n; i++) {
		fprintf(out, "  %-24s ", s->v[i].name);
		fput_escaped(out, s->v[i].dir);
		if (s->v[i].hidden[0])
			fputs(" (hides ", out), fput_escaped(out, s->v[i].hidden), fputs(")", out);
		fputc('\n', out);
	}
}

static void list_table_none(void *doc, FILE *out)
{
	if (((struct list_doc *)doc)->r->n == 0 && !list_table_one(doc))
		fprintf(out, "no plugins configured (see gpulab(1), FILES)\n");
	list_table_challenges(doc, out);
}

const struct writer list_table = {
	.for_people = 1, .streams = 1, .begin = list_table_head, .row = list_table_plugin, .end = list_table_none
};

/* One key in full: how it is set, its type and default, then what it
 * is and the values it takes. */
static void full_param(const struct gpulab_param *d, int g, void *arg)
{
	FILE *out = arg;
	char flag[96], what[256], text[1024];
	if (g >= 0)
		snprintf(flag, sizeof flag, "%s", options_flag((enum generic)g));
	else
		options_key_spelling(-1, d->key, NULL, flag, sizeof flag);
	param_describe(d, what, sizeof what);
	fprintf(out, "  %-20s %-6s default ", flag, param_type_name(d->type));
	fput_escaped(out, d->def);
	fputs("\n      ", out);
	snprintf(text, sizeof text, "%s; %s", d->help ? d->help : "", what);
	wrap_blanks(out, 6, 6, text);
}

/* The page of the docs that teaches plugin p: NAME.md, else
 * bench-NAME.md, in the documentation directory; "" for none. */
static void docs_page(const struct plugin *p, char *buf, size_t len)
{
	static const char *const forms[] = { "%s/%s.md", "%s/bench-%s.md" };
	const char *dir = docs_dir();
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		snprintf(buf, len, forms[i], dir, p->name);
		if (access(buf, R_OK) == 0)
			return;
	}
	buf[0] = 0;
}

/* `gpulab list plugin.exercise`: the one exercise in full. */
static void list_one(const struct pick *k, FILE *out)
{
	char docs[4096];
	const struct gpulab_exercise *e = k->ex;
	fput_escaped(out, k->plugin->name);
	fputc('.', out);
	fput_escaped(out, e->name);
	fputs(": ", out);
	wrap_blanks(out, (int)(strlen(k->plugin->name) + strlen(e->name) + 3), 2, e->summary);
	fputs("  plugin  ", out);
	fput_escaped(out, k->plugin->name);
	fputs(": ", out);
	wrap_blanks(out, 12 + (int)strlen(k->plugin->name), 10, k->plugin->desc->summary ? k->plugin->desc->summary : "");
	fputs("  file    ", out);
	fput_escaped(out, k->plugin->path);
	fputs("\n  from    ", out);
	fput_escaped(out, k->plugin->ini);
	list_shadowed(k->plugin, "\n  over    ", out);
	docs_page(k->plugin, docs, sizeof docs);
	if (docs[0]) {
		fputs("\n  docs    ", out);
		fput_escaped(out, docs);
	}
	fputs("\n\nkeys (`gpulab " CMD_CONFIG " ", out);
	fput_escaped(out, k->plugin->name);
	fputc('.', out);
	fput_escaped(out, e->name);
	fputs("` shows the values in effect, and where each comes from):\n", out);
	each_param(e, full_param, out);
	fputc('\n', out);
	list_common(out);
}

/* "key=default;..." for one field (CSV's, Markdown's cell), into a
 * buffer of 4096 as each_param's fn. */
void list_default_param(const struct gpulab_param *d, int g, void *arg)
{
	char *buf = arg;
	size_t at = strlen(buf);
	(void)g;
	snprintf(buf + at, 4096 - at, "%s%s=%s", at ? ";" : "", d->key, d->def);
}

void list_print(const struct registry *r, const struct selection *only, const struct challenge_set *challenges,
		enum format f, FILE *out)
{
	const struct writer *w = list_writer(f);
	struct list_doc doc = { r, only, 0, challenges };
	writer_begin(w, &doc, out);
	for (size_t i = 0; i < r->n; i++)
		writer_row(w, &doc, i, out);
	writer_end(w, &doc, out);
}
