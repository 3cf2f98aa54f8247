#include "command_names.h"
#include "plugins/registry.h"

#include "exitcode.h"
#include "config/trust.h"
#include "config/params.h"
#include "plugins/gate.h"

#include <dlfcn.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The smallest structs a 2.x plugin may hand in: up to its last field
 * every plugin must fill.  Later fields a plugin lacks read as zero. */
#define END_OF(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))
static const size_t min_plugin_size = END_OF(struct gpulab_plugin, n_exercises);
static const size_t min_exercise_size = END_OF(struct gpulab_exercise, data);
static const size_t min_param_size = END_OF(struct gpulab_param, max);

/* n elements of `size` bytes each at `from`, copied into the core's own
 * layout: each element's first min(size, have) bytes, the rest zero. */
static void *widen(const void *from, size_t n, size_t size, size_t have)
{
	char *to = calloc(n ? n : 1, have);
	for (size_t i = 0; to && i < n; i++)
		memcpy(to + i * have, (const char *)from + i * size, size < have ? size : have);
	return to;
}

static const char *missing_callback(const struct gpulab_exercise *e)
{
	if (!e->plan) return "plan";
	if (!e->setup) return "setup";
	if (!e->run) return "run";
	if (!e->verify) return "verify";
	if (!e->teardown) return "teardown";
	return NULL;
}

static int find_exercise(const struct gpulab_plugin *d, const char *name)
{
	for (size_t i = 0; name && i < d->n_exercises; i++)
		if (!strcmp(d->exercises[i].name, name))
			return (int)i;
	return -1;
}

int registry_check_version(const struct gpulab_plugin *d, char *err, size_t errlen)
{
	/* short: the line holds the plugin's path and name too, in 100 columns */
	if (d->abi != GPULAB_ABI_VERSION) {
		snprintf(err, errlen, "plugin ABI %u, %s than this gpulab's %u%s", d->abi,
			 d->abi < GPULAB_ABI_VERSION ? "older" : "newer", GPULAB_ABI_VERSION,
			 d->abi < GPULAB_ABI_VERSION ? ": rebuild it" : "");
		return -1;
	}
	/* read only now: an ABI 1 descriptor has no such fields */
	if (d->abi_minor > GPULAB_ABI_MINOR) {
		snprintf(err, errlen, "plugin ABI %u.%u, newer than this gpulab's %u.%u", d->abi, d->abi_minor,
			 GPULAB_ABI_VERSION, GPULAB_ABI_MINOR);
		return -1;
	}
	if (d->size < min_plugin_size || d->exercise_size < min_exercise_size || d->param_size < min_param_size) {
		snprintf(err, errlen, "plugin declares struct sizes %zu, %zu and %zu, smaller than ABI %u.0's",
			 d->size, d->exercise_size, d->param_size, GPULAB_ABI_VERSION);
		return -1;
	}
	return 0;
}

/* Each parameter's declaration, and no key twice. */
static int check_params(const struct gpulab_exercise *e, char *err, size_t errlen)
{
	char why[512];
	for (const struct gpulab_param *p = e->params; p && p->key; p++) {
		if (param_check_decl(p, e->params_size, why, sizeof why)) {
			snprintf(err, errlen, "exercise '%s': %s", e->name, why);
			return -1;
		}
		int g = generic_index(p->key);
		if (g >= 0 && (g != GEN_N && g != GEN_BLOCK ? 1 : exercise_takes(e, (enum generic)g))) {
			snprintf(err, errlen, "exercise '%s' declares a parameter '%s', a generic key it takes", e->name, p->key);
			return -1;
		}
		if (exercise_param(e, p->key) != p) {
			snprintf(err, errlen, "exercise '%s' declares parameter '%s' twice", e->name, p->key);
			return -1;
		}
	}
	return 0;
}

static int check_exercise(const struct gpulab_plugin *d, size_t i, char *err, size_t errlen)
{
	const struct gpulab_exercise *e = &d->exercises[i];
	const char *cb;
	if (!param_valid_name(e->name)) {
		snprintf(err, errlen, "exercise %zu has an invalid name '%s' (use [a-z0-9_])", i, e->name ? e->name : "(null)");
		return -1;
	}
	if (find_exercise(d, e->name) != (int)i) {
		snprintf(err, errlen, "exercise '%s' is declared twice", e->name);
		return -1;
	}
	if ((cb = missing_callback(e))) {
		snprintf(err, errlen, "exercise '%s' has no %s callback", e->name, cb);
		return -1;
	}
	if (!(e->dtypes & (GPULAB_INT32 | GPULAB_FLOAT32)) || (e->dtypes & ~(unsigned)(GPULAB_INT32 | GPULAB_FLOAT32))
	    || !e->summary || e->n > PARAM_MAX_N || (e->n_max && e->n > e->n_max)
	    || e->block > (unsigned)generic_params[GEN_BLOCK].max) {
		snprintf(err, errlen, "exercise '%s' declares no summary, no known element type, or a default n or block past its limits",
			 e->name);
		return -1;
	}
	if (e->peers && !param_valid_name(e->peers)) {
		snprintf(err, errlen, "exercise '%s' names peers '%s', not a plugin name", e->name, e->peers);
		return -1;
	}
	char why[512];
	if (check_params(e, err, errlen))
		return -1;
	if (gate_check(e, why, sizeof why)) {
		snprintf(err, errlen, "exercise '%s': %s", e->name, why);
		return -1;
	}
	return 0;
}

int registry_check(const struct gpulab_plugin *d, const char *name, char *err, size_t errlen)
{
	if (!d->name || strcmp(d->name, name)) {
		snprintf(err, errlen, "the plugin calls itself '%s', but the INI section names it '%s'",
			 d->name ? d->name : "(null)", name);
		return -1;
	}
	if ((!d->exercises || d->n_exercises == 0) && !d->join) { /* a launcher alone may have none */
		snprintf(err, errlen, "the plugin declares no exercises");
		return -1;
	}
	for (size_t i = 0; i < d->n_exercises; i++)
		if (check_exercise(d, i, err, errlen))
			return -1;
	if ((d->baseline && find_exercise(d, d->baseline) < 0) || (d->reference && find_exercise(d, d->reference) < 0)) {
		snprintf(err, errlen, "the baseline or reference names no exercise of the plugin");
		return -1;
	}
	return 0;
}

/* The plugin's descriptor in the core's layout, owned by p. */
static int adopt(struct plugin *p, const struct gpulab_plugin *d, char *err, size_t errlen)
{
	struct gpulab_plugin *own = widen(d, 1, d->size, sizeof *own);
	struct gpulab_exercise *ex = own ? widen(d->exercises, d->n_exercises, d->exercise_size, sizeof *ex) : NULL;
	p->desc = own;
	if (!ex) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	own->exercises = ex;
	for (size_t i = 0; i < own->n_exercises; i++) {
		size_t n = 0;
		const char *at = (const char *)ex[i].params;
		while (at && ((const struct gpulab_param *)(at + n * d->param_size))->key)
			n++;
		if (at && !(ex[i].params = widen(at, n + 1, d->param_size, sizeof(struct gpulab_param)))) {
			own->n_exercises = i; /* what registry_free must free */
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
}

static void drop_desc(struct plugin *p)
{
	struct gpulab_plugin *d = (struct gpulab_plugin *)p->desc;
	for (size_t i = 0; d && d->exercises && i < d->n_exercises; i++)
		free((void *)d->exercises[i].params);
	if (d)
		free((void *)d->exercises);
	free(d);
	p->desc = NULL;
}

/* May exercise e (all of p's exercises for NULL) have `key = value`?
 * A [plugin] section's value must suit at least one exercise taking it. */
static int ini_value_ok(const struct gpulab_plugin *d, int e, const struct setting *s, char *why, size_t len)
{
	size_t points;
	int ok = 0;
	for (size_t k = 0; k < d->n_exercises && !ok; k++)
		if (e < 0 || (int)k == e)
			ok = exercise_axis(&d->exercises[k], s->key, s->value, &points, why, len) == PARSE_OK;
	return ok;
}

/* Does exercise e (any of d's for -1) declare key? */
static int declared(const struct gpulab_plugin *d, int e, const char *key)
{
	for (size_t k = 0; k < d->n_exercises; k++)
		if ((e < 0 || (int)k == e) && exercise_param(&d->exercises[k], key))
			return 1;
	return 0;
}

/* A plugin's INI keys must be known to it and hold values it takes: a
 * typo would otherwise be silently ignored. */
static int check_ini_keys(const struct config *c, const struct plugin *p, char *err, size_t errlen)
{
	size_t len = strlen(p->name);
	char why[512];
	for (size_t i = 0; i < c->n; i++) {
		const struct setting *s = &c->v[i];
		if (s->scope == SCOPE_DEFAULTS || strncmp(s->target, p->name, len)
		    || (s->target[len] != '.' && s->target[len] != 0) || !strcmp(s->key, "file"))
			continue;
		const char *ex = s->scope == SCOPE_EXERCISE ? s->target + len + 1 : NULL;
		int e = ex ? find_exercise(p->desc, ex) : -1;
		if (ex && e < 0) {
			snprintf(err, errlen, "%s:%d: plugin '%s' has no exercise '%s'", s->file, s->line, p->name, ex);
			return -1;
		}
		if (generic_index(s->key) < 0 && !declared(p->desc, e, s->key)) {
			snprintf(err, errlen, "%s:%d: unknown key '%s' for %s (`gpulab " CMD_LIST "` shows the keys)", s->file, s->line,
				 s->key, s->target);
			return -1;
		}
		if (!ini_value_ok(p->desc, e, s, why, sizeof why)) {
			snprintf(err, errlen, "%s:%d: %s = %s: %s%s", s->file, s->line, s->key, s->value,
				 ex ? "" : "no exercise of the plugin takes it: ", why);
			return -1;
		}
	}
	return 0;
}

/* Where `file =` names the plugin.  A bare file name is looked up in the
 * plugin directories alone, never by dlopen's own search, which would
 * find libz.so.1 among the system's libraries; empty entries in
 * plugin_path are skipped (they once made "/" + file).  The first
 * directory holding it wins; the same name in a later one goes in
 * *shadowed, to be said (`gpulab list`), not loaded.  Anything else is
 * returned as it is: trust_plugin takes an absolute path and refuses the
 * rest.  The path is built to its full length: a path cut short would
 * name another file. */
static char *plugin_file_path(const char *file, const char *plugin_path, int *found, char **shadowed)
{
	char *buf, *found_at = NULL;
	*found = 1;
	if (file[0] == '/' || !trust_bare_name(file))
		return strdup(file);
	for (const char *dir = plugin_path; dir && *dir;) {
		int len = (int)strcspn(dir, ":");
		if (len) {
			if (asprintf(&buf, "%.*s/%s", len, dir, file) < 0) {
				free(found_at);
				return NULL;
			}
			if (access(buf, F_OK) == 0 && !found_at)
				found_at = buf; /* loaded; a later one is only named */
			else if (access(buf, F_OK) == 0)
				return *shadowed = buf, found_at;
			else
				free(buf);
		}
		dir += len + (dir[len] == ':');
	}
	if (found_at)
		return found_at;
	/* not found anywhere: name it in the first directory */
	*found = 0;
	const char *first = plugin_path ? plugin_path + strspn(plugin_path, ":") : "";
	int len = (int)strcspn(first, ":");
	return asprintf(&buf, "%.*s%s%s", len, first, len ? "/" : "", file) < 0 ? NULL : buf;
}

/* dir, with $HOME's part written ~, into buf: a line naming places
 * must fit a terminal. */
static void home_short(const char *dir, char *buf, size_t len)
{
	const char *home = getenv("HOME");
	size_t n = home && home[0] == '/' && home[1] ? strlen(home) : 0;
	if (n && !strncmp(dir, home, n) && (dir[n] == '/' || !dir[n]))
		snprintf(buf, len, "~%s", dir + n);
	else
		snprintf(buf, len, "%s", dir);
}

/* "no FILE in A, B or C": every directory searched for a bare name. */
static void not_found(const char *file, const char *plugin_path, char *err, size_t len)
{
	int k = snprintf(err, len, "no %s in ", file), ndirs = 0;
	for (const char *d = plugin_path; d && *d; d += strcspn(d, ":"), d += *d == ':')
		ndirs += strcspn(d, ":") > 0;
	for (const char *d = plugin_path; d && *d && k >= 0 && (size_t)k < len; d += strcspn(d, ":"), d += *d == ':') {
		char one[PATH_MAX], at[PATH_MAX];
		size_t n = strcspn(d, ":");
		if (!n)
			continue;
		snprintf(one, sizeof one, "%.*s", (int)n, d);
		home_short(one, at, sizeof at);
		k += snprintf(err + k, len - (size_t)k, "%s%s", at, --ndirs > 1 ? ", " : ndirs == 1 ? " or " : "");
	}
}

/* error past "path: ", where it starts so (dlerror's, and ours, do). */
static const char *past_path(const char *error, const char *path)
{
	size_t n = path ? strlen(path) : 0;
	return error && n && !strncmp(error, path, n) && !strncmp(error + n, ": ", 2) ? error + n + 2 : error;
}

static void load_one(struct plugin *p, const struct config *c)
{
	char err[1024];
	int code = EXIT_PLUGIN;
	const char *dl;
	p->unread = 1; /* until its version is known */
	/* dlopen runs the library's constructors, even for `gpulab list`:
	 * nothing anyone but root or the user could have written is opened */
	if (trust_plugin(p->path, err, sizeof err) != 0)
		goto fail;
	p->handle = dlopen(p->path, RTLD_NOW | RTLD_LOCAL);
	if (!p->handle) {
		dl = dlerror();
		snprintf(err, sizeof err, "%s", dl ? dl : "cannot be loaded");
		goto fail;
	}
	p->opened = 1;
	gpulab_entry_fn entry;
	*(void **)&entry = dlsym(p->handle, GPULAB_ENTRY_SYMBOL);
	if (!entry) {
		snprintf(err, sizeof err, "%s: no %s: not a gpulab plugin", p->path, GPULAB_ENTRY_SYMBOL);
		goto fail;
	}
	const struct gpulab_plugin *d = entry();
	if (!d) {
		snprintf(err, sizeof err, "%s: %s returned no descriptor", p->path, GPULAB_ENTRY_SYMBOL);
		goto fail;
	}
	char why[768] = "out of memory";
	if (registry_check_version(d, why, sizeof why)) {
		snprintf(err, sizeof err, "%s: %s", p->path, why);
		goto fail;
	}
	p->unread = 0;
	if (adopt(p, d, why, sizeof why)
	    || (!p->name && !(p->name = strdup(p->desc->name ? p->desc->name : "(null)"))) /* gpulab check's */
	    || registry_check(p->desc, p->name, why, sizeof why)) {
		snprintf(err, sizeof err, "%s: %s", p->path, why);
		goto fail;
	}
	if (check_ini_keys(c, p, err, sizeof err) != 0) {
		code = EXIT_CONFIG;
		goto fail;
	}
	return;
fail:
	drop_desc(p);
	if (p->handle)
		dlclose(p->handle);
	p->handle = NULL;
	p->error = strdup(err);
	p->why = past_path(p->error, p->path);
	p->error_code = code;
}

static int known(const struct registry *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].name, name))
			return 1;
	return 0;
}

int registry_load(struct registry *r, const struct config *c, const char *plugin_path)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct setting *s = &c->v[i];
		if (s->scope != SCOPE_PLUGIN || known(r, s->target))
			continue;
		struct plugin *v = realloc(r->v, (r->n + 1) * sizeof *v);
		if (!v)
			return -1;
		r->v = v;
		struct plugin *p = &r->v[r->n++];
		*p = (struct plugin){ .name = strdup(s->target) };
		const struct setting *file = config_get(c, s->target, NULL, "file");
		if (!p->name)
			return -1;
		if (!file) {
			char err[512];
			snprintf(err, sizeof err, "%s:%d: [plugin %s] has no 'file' key", s->file, s->line, s->target);
			p->ini = s->file;
			p->error = strdup(err);
			p->why = p->error;
			p->error_code = EXIT_CONFIG;
			continue;
		}
		p->ini = file->file;
		int found;
		if (!(p->path = plugin_file_path(file->value, plugin_path, &found, &p->shadowed)))
			return -1;
		if (found || p->path[0] != '/') { /* one in a relative directory: trust refuses it */
			load_one(p, c);
			continue;
		}
		char err[1024];
		not_found(file->value, plugin_path, err, sizeof err);
		if (!(p->error = strdup(err)))
			return -1;
		p->why = p->error;
		p->error_code = EXIT_PLUGIN;
	}
	return 0;
}

int registry_load_file(struct registry *r, const char *path, const char *origin)
{
	struct plugin *v = realloc(r->v, (r->n + 1) * sizeof *v);
	struct config none = { 0 };
	if (!v)
		return -1;
	r->v = v;
	struct plugin *p = &r->v[r->n++];
	*p = (struct plugin){ .path = strdup(path), .ini = origin };
	if (!p->path)
		return -1;
	load_one(p, &none);
	if (!p->name && !(p->name = strdup(path))) /* refused before its name was read */
		return -1;
	return 0;
}

void registry_free(struct registry *r)
{
	for (size_t i = 0; i < r->n; i++) {
		drop_desc(&r->v[i]);
		if (r->v[i].handle)
			dlclose(r->v[i].handle);
		free(r->v[i].name);
		free(r->v[i].path);
		free(r->v[i].shadowed);
		free(r->v[i].error);
	}
	free(r->v);
	*r = (struct registry){ 0 };
}
