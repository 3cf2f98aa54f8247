#include "command_names.h"
#include "plugins/match.h"

#include "exitcode.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add_pick(struct selection *s, const struct plugin *p, const struct gpulab_exercise *e, int named)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].ex == e) {
			s->v[i].named |= named;
			return 0;
		}
	struct pick *v = realloc(s->v, (s->n + 1) * sizeof *v);
	if (!v)
		return -1;
	s->v = v;
	s->v[s->n++] = (struct pick){ p, e, named };
	return 0;
}

/* The plugin part of pattern pat (all of it, or before its dot). */
static void plugin_part(const char *pat, char *buf, size_t len)
{
	const char *dot = strchr(pat, '.');
	snprintf(buf, len, "%.*s", (int)(dot ? (size_t)(dot - pat) : strlen(pat)), pat);
}

int patterns_name_plugin(char *const *patterns, int n, const char *name)
{
	for (int i = 0; i < n; i++) {
		char want[128];
		plugin_part(patterns[i], want, sizeof want);
		if (!fnmatch(want, name, 0))
			return 1;
	}
	return 0;
}

/* The loaded plugin pat names, where it hides a file of its name in a
 * later plugin directory (a user's, as `make install` of a skeleton of
 * that name puts it); -1 for none. */
static int shadowing(const struct registry *r, const char *pat)
{
	char want[128];
	plugin_part(pat, want, sizeof want);
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].desc && r->v[i].shadowed && !strcmp(r->v[i].name, want))
			return (int)i;
	return -1;
}

/* Pattern `p` on its own means a whole plugin; `p.e` one exercise. */
static int match_pattern(const struct registry *r, const char *pat, struct selection *s, int *failed_plugin)
{
	int hits = 0;
	const char *dot = strchr(pat, '.');
	int named = dot && !strpbrk(pat, "*?[");
	for (size_t i = 0; i < r->n; i++) {
		const struct plugin *p = &r->v[i];
		char full[256];
		if (!p->desc) {
			char want[128];
			plugin_part(pat, want, sizeof want);
			if (!fnmatch(want, p->name, 0))
				*failed_plugin = (int)i;
			continue;
		}
		for (size_t k = 0; k < p->desc->n_exercises; k++) {
			const struct gpulab_exercise *e = &p->desc->exercises[k];
			snprintf(full, sizeof full, "%s.%s", p->name, e->name);
			if (fnmatch(pat, dot ? full : p->name, 0))
				continue;
			if (add_pick(s, p, e, named) != 0)
				return -1;
			hits++;
		}
	}
	return hits;
}

int select_exercises(const struct registry *r, char *const *patterns, int n,
		     struct selection *out, char *err, size_t errlen)
{
	*out = (struct selection){ 0 };
	for (int i = 0; i < n; i++) {
		int failed = -1;
		int hits = match_pattern(r, patterns[i], out, &failed);
		if (hits < 0) {
			snprintf(err, errlen, "out of memory");
			return EXIT_NOMEM;
		}
		if (hits > 0)
			continue;
		if (failed >= 0 && r->v[failed].error_code == EXIT_CONFIG) {
			snprintf(err, errlen, "%s", r->v[failed].error); /* FILE:LINE: key = value: why, already */
			return EXIT_CONFIG;
		}
		if (failed >= 0) {
			const struct plugin *p = &r->v[failed];
			int n = snprintf(err, errlen, "'%s': plugin '%s' did not load: %s", patterns[i], p->name, p->error);
			if (p->opened && n > 100 - (int)strlen("gpulab: ")) /* its path is in `gpulab list`'s line */
				snprintf(err, errlen, "'%s': plugin '%s' did not load: %s", patterns[i], p->name, p->why);
			return p->error_code;
		}
		char near[512];
		int k = shadowing(r, patterns[i]);
		if (k >= 0) { /* the user's exercise is in the file not loaded: say which was */
			snprintf(err, errlen, "no exercise matches '%s': plugin '%s' is %s, not %s (the first plugin directory "
				 "holding it wins)", patterns[i], r->v[k].name, r->v[k].path, r->v[k].shadowed);
			return EXIT_NOMATCH;
		}
		if (suggest(r, patterns[i], 3, near, sizeof near) > 0)
			snprintf(err, errlen, "no exercise matches '%s'; did you mean %s?", patterns[i], near);
		else
			snprintf(err, errlen, "no exercise matches '%s'; `gpulab " CMD_LIST "` shows them", patterns[i]);
		return EXIT_NOMATCH;
	}
	return 0;
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = malloc((lb + 1) * sizeof *row);
	if (!row)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best) best = up + 1;
			if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	size_t d = row[lb];
	free(row);
	return d;
}

struct candidate {
	char name[256];
	size_t dist;
};

static void consider(struct candidate *best, int max, const char *name, size_t d, size_t limit)
{
	if (d > limit)
		return;
	for (int i = 0; i < max; i++) {
		if (best[i].name[0] && !strcmp(best[i].name, name))
			return;
		if (!best[i].name[0] || d < best[i].dist) {
			memmove(&best[i + 1], &best[i], (max - 1 - i) * sizeof *best);
			snprintf(best[i].name, sizeof best[i].name, "%s", name);
			best[i].dist = d;
			return;
		}
	}
}

/* A bare word is compared with plugin names and exercise names alike, a
 * dotted one with full names; a typo of a third of the word is allowed. */
int suggest(const struct registry *r, const char *want, int max, char *buf, size_t len)
{
	struct candidate best[9] = { 0 };
	size_t limit = strlen(want) / 3 + 1;
	int dotted = strchr(want, '.') != NULL;
	char full[256];
	if (max > 8)
		max = 8;
	for (size_t i = 0; i < r->n; i++) {
		const struct plugin *p = &r->v[i];
		if (!dotted)
			consider(best, max, p->name, edit_distance(want, p->name), limit);
		for (size_t k = 0; p->desc && k < p->desc->n_exercises; k++) {
			const char *ex = p->desc->exercises[k].name;
			snprintf(full, sizeof full, "%s.%s", p->name, ex);
			size_t d = edit_distance(want, dotted ? full : ex);
			consider(best, max, full, d, limit);
		}
	}
	int n = 0;
	buf[0] = 0;
	for (int i = 0; i < max && best[i].name[0]; i++, n++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", n ? ", " : "", best[i].name);
	return n;
}

void selection_free(struct selection *s)
{
	free(s->v);
	*s = (struct selection){ 0 };
}
