#include "config/settings.h"

#include "exitcode.h"
#include "config/params.h"

#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* inih does not hand line numbers to the handler in Debian's build, so the
 * reader counts them. */
struct parse {
	struct config *c;
	FILE *fp;
	const char *file;
	int line;
	char *err;
	size_t errlen;
	int failed;
};

static char *reader(char *str, int num, void *stream)
{
	struct parse *p = stream;
	char *r = fgets(str, num, p->fp);
	if (r)
		p->line++;
	return r;
}

/* Why `value` is no good for generic key `key`, or NULL if it is. */
static const char *generic_bad_value(const char *key, const char *value, char *why, size_t len)
{
	struct param_value v;
	return param_parse(&generic_params[generic_index(key)], value, &v, why, len) == PARSE_OK ? NULL : why;
}

static int parse_section(const char *section, enum scope *scope, const char **target)
{
	if (!strcmp(section, "defaults")) {
		*scope = SCOPE_DEFAULTS;
		*target = NULL;
		return 0;
	}
	if (!strncmp(section, "plugin ", 7) && section[7] && !strchr(section + 7, '.')) {
		*scope = SCOPE_PLUGIN;
		*target = section + 7;
		return 0;
	}
	if (!strncmp(section, "exercise ", 9)) {
		const char *dot = strchr(section + 9, '.');
		if (dot && dot > section + 9 && dot[1]) {
			*scope = SCOPE_EXERCISE;
			*target = section + 9;
			return 0;
		}
	}
	return -1;
}

static int add_setting(struct config *c, enum scope scope, const char *target,
		       const char *key, const char *value, const char *file, int line)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 32;
		struct setting *v = realloc(c->v, cap * sizeof *v);
		if (!v)
			return -1;
		c->v = v;
		c->cap = cap;
	}
	struct setting *s = &c->v[c->n];
	*s = (struct setting){ scope, target ? strdup(target) : NULL, strdup(key),
			       strdup(value), file, line };
	if ((target && !s->target) || !s->key || !s->value)
		return -1;
	c->n++;
	return 0;
}

__attribute__((format(printf, 2, 3)))
static int fail(struct parse *p, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s:%d: %s", p->file, p->line, msg);
	p->failed = 1;
	return 0;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
	struct parse *p = user;
	enum scope scope;
	const char *target;

	if (p->failed)
		return 0;
	if (!*section)
		return fail(p, "key '%s' outside a section", key);
	if (parse_section(section, &scope, &target) != 0)
		return fail(p, "unknown section [%s]; expected [defaults], [plugin NAME] or [exercise NAME.EXERCISE]",
			    section);
	if (!strcmp(key, "file")) {
		if (scope != SCOPE_PLUGIN)
			return fail(p, "'file' belongs in a [plugin NAME] section, not [%s]", section);
	} else if (generic_index(key) >= 0 && scope == SCOPE_DEFAULTS) {
		/* other sections are checked against the exercises' own
		 * declarations once the plugins are loaded */
		char buf[256];
		const char *why = generic_bad_value(key, value, buf, sizeof buf);
		if (why)
			return fail(p, "bad value '%s' for '%s': %s", value, key, why);
	} else if (scope == SCOPE_DEFAULTS) {
		return fail(p, "unknown key '%s' in [defaults] (allowed: n, block, type, reps, warmup)", key);
	}
	if (add_setting(p->c, scope, target, key, value, p->file, p->line) != 0)
		return fail(p, "out of memory");
	return 1;
}

int config_load(struct config *c, const char *path, int required, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "r");
	if (!fp) {
		if (!required && errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return EXIT_CONFIG;
	}
	char **files = realloc(c->files, (c->nfiles + 1) * sizeof *files);
	if (!files || !(files[c->nfiles] = strdup(path))) {
		c->files = files;
		fclose(fp);
		snprintf(err, errlen, "%s: out of memory", path);
		return EXIT_CONFIG;
	}
	c->files = files;
	struct parse p = { c, fp, c->files[c->nfiles], 0, err, errlen, 0 };
	c->nfiles++;
	int line = ini_parse_stream(reader, &p, handler, &p);
	fclose(fp);
	if (p.failed)
		return EXIT_CONFIG;
	if (line != 0) {
		snprintf(err, errlen, "%s:%d: malformed line (expected [section] or key = value)", path, line);
		return EXIT_CONFIG;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int has_ini_suffix(const char *name)
{
	size_t len = strlen(name);
	return len > 4 && !strcmp(name + len - 4, ".ini") && name[0] != '.';
}

/* conf.d drop-ins, in byte order of their names (as ls sorts in C). */
static int load_dropins(struct config *c, const char *dir, char *err, size_t errlen)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, NULL);
	if (n < 0)
		return 0;
	char **sorted = calloc(n ? n : 1, sizeof *sorted);
	int k = 0, rc = 0;
	for (int i = 0; i < n; i++) {
		if (sorted && has_ini_suffix(names[i]->d_name))
			sorted[k++] = names[i]->d_name;
	}
	if (sorted)
		qsort(sorted, k, sizeof *sorted, cmp_str);
	for (int i = 0; i < k && rc == 0; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, sorted[i]);
		rc = config_load(c, path, 1, err, errlen);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(sorted);
	if (!sorted && n > 0 && rc == 0) {
		snprintf(err, errlen, "%s: out of memory", dir);
		rc = EXIT_CONFIG;
	}
	return rc;
}

int config_load_all(struct config *c, const char *sysconfdir, const char *explicit_file,
		    char *err, size_t errlen)
{
	char path[4096];
	int rc;

	snprintf(path, sizeof path, "%s/gpulab.ini", sysconfdir);
	if ((rc = config_load(c, path, 0, err, errlen)))
		return rc;
	snprintf(path, sizeof path, "%s/conf.d", sysconfdir);
	if ((rc = load_dropins(c, path, err, errlen)))
		return rc;
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	if (xdg && *xdg)
		snprintf(path, sizeof path, "%s/gpulab/gpulab.ini", xdg);
	else if (home && *home)
		snprintf(path, sizeof path, "%s/.config/gpulab/gpulab.ini", home);
	else
		path[0] = 0;
	if (path[0] && (rc = config_load(c, path, 0, err, errlen)))
		return rc;
	const char *env = getenv("GPULAB_CONFIG");
	if (env && *env && (rc = config_load(c, env, 1, err, errlen)))
		return rc;
	if (explicit_file && (rc = config_load(c, explicit_file, 1, err, errlen)))
		return rc;
	return 0;
}

/* Does setting s's section cover (plugin, exercise) at exactly `scope`? */
static int covers(const struct setting *s, enum scope scope, const char *plugin, const char *exercise)
{
	size_t plen = strlen(plugin);
	if (s->scope != scope)
		return 0;
	switch (scope) {
	case SCOPE_DEFAULTS:
		return 1;
	case SCOPE_PLUGIN:
		return !strcmp(s->target, plugin);
	case SCOPE_EXERCISE:
		return exercise && !strncmp(s->target, plugin, plen) && s->target[plen] == '.'
		       && !strcmp(s->target + plen + 1, exercise);
	}
	return 0;
}

const struct setting *config_get_at(const struct config *c, enum scope scope, const char *plugin,
				    const char *exercise, const char *key)
{
	const struct setting *best = NULL;
	/* the later file wins, and in one file the later line: the last match */
	for (size_t i = 0; i < c->n; i++)
		if (covers(&c->v[i], scope, plugin, exercise) && !strcmp(c->v[i].key, key))
			best = &c->v[i];
	return best;
}

const struct setting *config_get(const struct config *c, const char *plugin, const char *exercise, const char *key)
{
	const struct setting *s = config_get_at(c, SCOPE_EXERCISE, plugin, exercise, key);
	if (!s)
		s = config_get_at(c, SCOPE_PLUGIN, plugin, exercise, key);
	return s ? s : config_get_at(c, SCOPE_DEFAULTS, plugin, exercise, key);
}

void config_free(struct config *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].target);
		free(c->v[i].key);
		free(c->v[i].value);
	}
	free(c->v);
	for (size_t i = 0; i < c->nfiles; i++)
		free(c->files[i]);
	free(c->files);
	*c = (struct config){ 0 };
}
