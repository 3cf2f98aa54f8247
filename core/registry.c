#include "registry.h"

#include "trust.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int valid_name(const char *s)
{
	if (!s || !*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

const struct gpulab_param *exercise_param(const struct gpulab_exercise *e, const char *key)
{
	for (const struct gpulab_param *p = e->params; p && p->key; p++)
		if (!strcmp(p->key, key))
			return p;
	return NULL;
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

int registry_check(const struct gpulab_plugin *d, const char *name, char *err, size_t errlen)
{
	if (d->abi != GPULAB_ABI_VERSION) {
		snprintf(err, errlen, "plugin ABI version %u, but this gpulab speaks version %u; rebuild the plugin against this gpulab's <gpulab/plugin.h>",
			 d->abi, GPULAB_ABI_VERSION);
		return -1;
	}
	if (!d->name || strcmp(d->name, name)) {
		snprintf(err, errlen, "the plugin calls itself '%s', but the INI section names it '%s'",
			 d->name ? d->name : "(null)", name);
		return -1;
	}
	if (!d->exercises || d->n_exercises == 0) {
		snprintf(err, errlen, "the plugin declares no exercises");
		return -1;
	}
	for (size_t i = 0; i < d->n_exercises; i++) {
		const struct gpulab_exercise *e = &d->exercises[i];
		const char *cb;
		if (!valid_name(e->name)) {
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
		if (!(e->dtypes & (GPULAB_INT32 | GPULAB_FLOAT32)) || !e->default_n || !e->summary) {
			snprintf(err, errlen, "exercise '%s' declares no element type, default size or summary", e->name);
			return -1;
		}
	}
	if ((d->baseline && find_exercise(d, d->baseline) < 0) || (d->reference && find_exercise(d, d->reference) < 0)) {
		snprintf(err, errlen, "the baseline or reference names no exercise of the plugin");
		return -1;
	}
	return 0;
}

/* A plugin's INI keys must be known to it: a typo would otherwise be
 * silently ignored. */
static int check_keys(const struct config *c, const struct plugin *p, char *err, size_t errlen)
{
	size_t len = strlen(p->name);
	for (size_t i = 0; i < c->n; i++) {
		const struct setting *s = &c->v[i];
		if (s->scope == SCOPE_DEFAULTS || strncmp(s->target, p->name, len)
		    || (s->target[len] != '.' && s->target[len] != 0))
			continue;
		const char *ex = s->scope == SCOPE_EXERCISE ? s->target + len + 1 : NULL;
		int known = 0, found = ex ? find_exercise(p->desc, ex) : 0;
		if (ex && found < 0) {
			snprintf(err, errlen, "%s:%d: plugin '%s' has no exercise '%s'", s->file, s->line, p->name, ex);
			return -1;
		}
		if (!strcmp(s->key, "file"))
			continue;
		for (size_t k = 0; k < p->desc->n_exercises; k++)
			if ((!ex || (int)k == found) && exercise_param(&p->desc->exercises[k], s->key))
				known = 1;
		const char *why = !known && config_generic_key(s->key) ? settings_bad_value(s->key, s->value) : NULL;
		if (why) {
			snprintf(err, errlen, "%s:%d: bad value '%s' for '%s': %s", s->file, s->line, s->value, s->key, why);
			return -1;
		}
		if (!known && !config_generic_key(s->key)) {
			snprintf(err, errlen, "%s:%d: unknown key '%s' for %s", s->file, s->line, s->key, s->target);
			return -1;
		}
	}
	return 0;
}

/* Where `file =` names the plugin.  A bare file name is looked up in the
 * plugin directories alone, never by dlopen's own search, which would
 * find libz.so.1 among the system's libraries; empty entries in
 * plugin_path are skipped (they once made "/" + file).  Anything else is
 * returned as it is: trust_plugin takes an absolute path and refuses the
 * rest.  The path is built to its full length: a path cut short would
 * name another file. */
static char *resolve(const char *file, const char *plugin_path)
{
	char *buf;
	if (file[0] == '/' || !trust_bare_name(file))
		return strdup(file);
	for (const char *dir = plugin_path; dir && *dir;) {
		int len = (int)strcspn(dir, ":");
		if (len) {
			if (asprintf(&buf, "%.*s/%s", len, dir, file) < 0)
				return NULL;
			if (access(buf, F_OK) == 0)
				return buf;
			free(buf);
		}
		dir += len + (dir[len] == ':');
	}
	/* not found anywhere: name it in the first directory, so the error
	 * says where it was expected */
	const char *first = plugin_path ? plugin_path + strspn(plugin_path, ":") : "";
	int len = (int)strcspn(first, ":");
	return asprintf(&buf, "%.*s%s%s", len, first, len ? "/" : "", file) < 0 ? NULL : buf;
}

static void load_one(struct plugin *p, const struct config *c)
{
	char err[1024];
	const char *dl;
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
	gpulab_entry_fn entry;
	*(void **)&entry = dlsym(p->handle, GPULAB_ENTRY_SYMBOL);
	if (!entry) {
		snprintf(err, sizeof err, "%s: no %s symbol: not a gpulab plugin", p->path, GPULAB_ENTRY_SYMBOL);
		goto fail;
	}
	p->desc = entry();
	if (!p->desc) {
		snprintf(err, sizeof err, "%s: %s returned no descriptor", p->path, GPULAB_ENTRY_SYMBOL);
		goto fail;
	}
	char why[768];
	if (registry_check(p->desc, p->name, why, sizeof why) != 0) {
		snprintf(err, sizeof err, "%s: %s", p->path, why);
		goto fail;
	}
	if (check_keys(c, p, err, sizeof err) != 0)
		goto fail;
	return;
fail:
	if (p->handle)
		dlclose(p->handle);
	p->handle = NULL;
	p->desc = NULL;
	p->error = strdup(err);
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
			continue;
		}
		p->ini = file->file;
		if (!(p->path = resolve(file->value, plugin_path)))
			return -1;
		load_one(p, c);
	}
	return 0;
}

void registry_free(struct registry *r)
{
	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i].handle)
			dlclose(r->v[i].handle);
		free(r->v[i].name);
		free(r->v[i].path);
		free(r->v[i].error);
	}
	free(r->v);
	*r = (struct registry){ 0 };
}
