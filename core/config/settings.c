#include "config/settings.h"

#include "exitcode.h"
#include "config/ini_text.h"
#include "config/options.h"
#include "config/params.h"
#include "config/size.h"
#include "config/trust.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* No real configuration file comes near this; a bound keeps a hostile one,
 * or one that grows while it is read, from costing time or memory. */
#define CONFIG_MAX_BYTES (1L << 20)
#define CONFIG_MAX_NAME "1 MiB"

/* inih cuts a section name to 49 bytes (MAX_SECTION in its ini.c), which
 * could turn one name into another. */
#define SETTINGS_MAX_SECTION 49

/* One file read: its lines through the one INI reader (config/ini_text.h),
 * flat (no line continues another), into c. */
struct parse {
	struct ini_text t;
	struct config *c;
};

/* Why `value` is no good for generic key `key`, or NULL if it is. */
static const char *generic_bad_value(const char *key, const char *value, char *why, size_t len)
{
	struct param_value v;
	return param_parse(&generic_params[generic_index(key)], value, &v, why, len) == PARSE_OK ? NULL : why;
}

/* The bytes of plugin and exercise names, as the registry requires of
 * exercises: a section must not name what no plugin can declare. */
#define SETTINGS_NAME_CHARS "abcdefghijklmnopqrstuvwxyz0123456789_"

/* 0, or -1 for an unknown kind of section, -2 for a bad name in it. */
static int parse_section(const char *section, enum scope *scope, const char **target)
{
	if (!strcmp(section, "defaults")) {
		*scope = SCOPE_DEFAULTS;
		*target = NULL;
		return 0;
	}
	if (!strncmp(section, "plugin ", 7)) {
		*scope = SCOPE_PLUGIN;
		*target = section + 7;
		size_t len = strspn(*target, SETTINGS_NAME_CHARS);
		return len && !(*target)[len] ? 0 : -2;
	}
	if (!strncmp(section, "exercise ", 9) && strchr(section + 9, '.')) {
		*scope = SCOPE_EXERCISE;
		*target = section + 9;
		size_t plen = strspn(*target, SETTINGS_NAME_CHARS), elen;
		if (!plen || (*target)[plen] != '.')
			return -2;
		elen = strspn(*target + plen + 1, SETTINGS_NAME_CHARS);
		return elen && !(*target)[plen + 1 + elen] ? 0 : -2;
	}
	return -1;
}

int config_add(struct config *c, enum scope scope, const char *target,
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

static int handler(void *user, const char *section, const char *key, const char *value)
{
	struct parse *p = user;
	enum scope scope;
	const char *target;

	if (p->t.failed)
		return 0;
	if (!*key) /* inih takes "= 2K" for a key named "" */
		return ini_text_fail(&p->t, "a value with no key");
	if (!*section)
		return ini_text_fail(&p->t, "key '%s' outside a section", key);
	int kind = parse_section(section, &scope, &target);
	if (kind == -1)
		return ini_text_section_fail(&p->t, "unknown section [%s]; expected [defaults], [plugin NAME] or [exercise NAME.EXERCISE]",
			    section);
	if (kind == -2)
		return ini_text_section_fail(&p->t, "bad name in [%s]: plugin and exercise names are made of a-z, 0-9 and _", section);
	if (!strcmp(key, "file")) {
		if (scope != SCOPE_PLUGIN)
			return ini_text_fail(&p->t, "'file' belongs in a [plugin NAME] section, not [%s]", section);
	} else if (generic_index(key) >= 0 && scope == SCOPE_DEFAULTS) {
		/* other sections are checked against the exercises' own
		 * declarations once the plugins are loaded */
		char buf[256];
		const char *why = generic_bad_value(key, value, buf, sizeof buf);
		if (why)
			return ini_text_fail(&p->t, "bad value '%s' for '%s': %s", value, key, why);
	} else if (scope == SCOPE_DEFAULTS) {
		return ini_text_fail(&p->t, "unknown key '%s' in [defaults] (allowed: n, block, type, reps, warmup)", key);
	}
	if (config_add(p->c, scope, target, key, value, p->t.file, p->t.line) != 0)
		return ini_text_fail(&p->t, "out of memory");
	return 1;
}

/* Open a configuration file without ever blocking: a FIFO or a device
 * opens at once under O_NONBLOCK (O_NOCTTY: a terminal must not become
 * ours) and is refused on fstat; only a regular file of at most
 * CONFIG_MAX_BYTES is read, in blocking mode again.  NULL and *rc 0 for
 * a missing optional file. */
static FILE *settings_open(const char *path, int required, int *rc, char *err, size_t errlen)
{
	struct stat st;
	FILE *fp;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY), fl;
	*rc = 0;
	if (fd < 0 && !required && errno == ENOENT)
		return NULL;
	if (fd < 0 || fstat(fd, &st) != 0)
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		snprintf(err, errlen, "%s: %s, not a regular file", path, trust_kind(st.st_mode));
	else if (trust_config(path, &st, err, errlen))
		; /* err says why */
	else if (st.st_size > CONFIG_MAX_BYTES)
		snprintf(err, errlen, "%s: larger than %s, the most a configuration file may hold", path, CONFIG_MAX_NAME);
	else if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 || !(fp = fdopen(fd, "r")))
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
	else
		return fp;
	if (fd >= 0)
		close(fd);
	*rc = EXIT_CONFIG;
	return NULL;
}

/* fp's text whole, to free, or NULL with one line in err: a file that
 * grew past CONFIG_MAX_BYTES while it was read is refused as one that
 * was larger to begin with. */
static char *settings_slurp(FILE *fp, const char *path, size_t *len, char *err, size_t errlen)
{
	char *text = malloc(CONFIG_MAX_BYTES + 1);
	*len = text ? fread(text, 1, CONFIG_MAX_BYTES + 1, fp) : 0;
	if (!text)
		snprintf(err, errlen, "%s: out of memory", path);
	else if (ferror(fp))
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
	else if (*len > CONFIG_MAX_BYTES)
		snprintf(err, errlen, "%s: larger than %s, the most a configuration file may hold", path, CONFIG_MAX_NAME);
	else
		return text;
	free(text);
	return NULL;
}

int config_load(struct config *c, const char *path, int required, char *err, size_t errlen)
{
	int rc;
	size_t len;
	FILE *fp = settings_open(path, required, &rc, err, errlen);
	if (!fp)
		return rc;
	char *text = settings_slurp(fp, path, &len, err, errlen), **files = NULL;
	fclose(fp);
	if (text && (!(files = realloc(c->files, (c->nfiles + 1) * sizeof *files)) || !(files[c->nfiles] = strdup(path))))
		snprintf(err, errlen, "%s: out of memory", path);
	c->files = files ? files : c->files;
	if (!text || !files || !files[c->nfiles]) {
		free(text);
		return EXIT_CONFIG;
	}
	struct parse p = { .t = { .file = c->files[c->nfiles], .text = text, .len = len, .flat = 1,
				  .max_section = SETTINGS_MAX_SECTION, .err = err, .errlen = errlen }, .c = c };
	c->nfiles++;
	rc = ini_text_parse(&p.t, handler, &p, "[section] or key = value") ? EXIT_CONFIG : 0;
	free(text);
	return rc;
}

/* dir + sep + name into path, or EXIT_CONFIG naming `var`, the variable
 * that made it too long: a path cut short would name another file. */
static int settings_path(char path[PATH_MAX], const char *dir, const char *sep, const char *name,
			 const char *var, char *err, size_t errlen)
{
	int n = snprintf(path, PATH_MAX, "%s%s%s", dir, sep, name);
	if (n >= 0 && n < PATH_MAX)
		return 0;
	snprintf(err, errlen, "%s is too long: a configuration path made from it would exceed %d bytes",
		 var, PATH_MAX - 1);
	return EXIT_CONFIG;
}

/* Remember that `path` was looked at in `role`, and what came of it;
 * `why` is the error of a refusal.  Memory running out loses a line of
 * `gpulab config`'s trace, never a setting. */
static void settings_saw(struct config *c, const char *path, const char *role, enum seen_state state, const char *why)
{
	struct seen *v = realloc(c->seen, (c->nseen + 1) * sizeof *v);
	if (!v)
		return;
	c->seen = v;
	v[c->nseen] = (struct seen){ strdup(path), role, state, why ? strdup(why) : NULL };
	if (v[c->nseen].path)
		c->nseen++;
}

/* config_load, recorded in c->seen. */
static int settings_load_seen(struct config *c, const char *path, int required, const char *role, char *err,
			      size_t errlen)
{
	size_t before = c->nfiles;
	int rc = config_load(c, path, required, err, errlen);
	settings_saw(c, path, role, rc ? SEEN_REFUSED : c->nfiles > before ? SEEN_READ : SEEN_MISSING, rc ? err : NULL);
	return rc;
}

static int settings_is_dropin(const struct dirent *d)
{
	size_t len = strlen(d->d_name);
	return len > 4 && !strcmp(d->d_name + len - 4, ".ini") && d->d_name[0] != '.';
}

static int settings_by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* conf.d drop-ins, in byte order of their names (as ls sorts in C).  No
 * conf.d means no drop-ins; one that cannot be read is an error, or its
 * plugins would go missing without a word.  `var` is the variable the
 * directory came from, for a path too long. */
static int load_dropins(struct config *c, const char *dir, const char *role, const char *var, char *err,
			size_t errlen)
{
	struct dirent **names;
	char path[PATH_MAX];
	struct stat st;
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && trust_config(dir, &st, err, errlen)) {
		settings_saw(c, dir, role, SEEN_REFUSED, err);
		return EXIT_CONFIG;
	}
	int n = scandir(dir, &names, settings_is_dropin, settings_by_name), rc = 0;
	if (n < 0 && errno == ENOENT) {
		settings_saw(c, dir, role, SEEN_MISSING, NULL);
		return 0;
	}
	if (n < 0) {
		snprintf(err, errlen, "%s: cannot read the directory: %s", dir, strerror(errno));
		settings_saw(c, dir, role, SEEN_REFUSED, err);
		return EXIT_CONFIG;
	}
	if (n == 0)
		settings_saw(c, dir, role, SEEN_MISSING, NULL); /* there, but no drop-in in it */
	for (int i = 0; i < n; i++) {
		if (rc == 0 && !(rc = settings_path(path, dir, "/", names[i]->d_name, var, err, errlen)))
			rc = settings_load_seen(c, path, 1, role, err, errlen);
		free(names[i]);
	}
	free(names);
	return rc;
}

/* $var/sub, else $HOME/fallback/sub; "" for neither.  The XDG Base
 * Directory spec says to ignore a relative XDG_*_HOME; a relative HOME is
 * ignored too, or the directory gpulab runs in would choose the plugins
 * it loads. */
static int settings_user_dir(char *path, size_t size, const char *var, const char *fallback, const char *sub,
			     char *err, size_t errlen)
{
	const char *xdg = getenv(var), *home = getenv("HOME");
	int n = 0;
	path[0] = 0;
	if (xdg && xdg[0] == '/')
		n = snprintf(path, size, "%s%s", xdg, sub);
	else if (home && home[0] == '/')
		n = snprintf(path, size, "%s/%s%s", home, fallback, sub), var = "HOME";
	if (n >= 0 && (size_t)n < size)
		return 0;
	path[0] = 0;
	snprintf(err, errlen, "%s is too long: a configuration path made from it would exceed %zu bytes", var,
		 size - 1);
	return EXIT_CONFIG;
}

int config_user_config_dir(char *path, size_t size, const char *sub, char *err, size_t errlen)
{
	return settings_user_dir(path, size, "XDG_CONFIG_HOME", ".config", sub, err, errlen);
}

int config_user_data_dir(char *path, size_t size, const char *sub, char *err, size_t errlen)
{
	return settings_user_dir(path, size, "XDG_DATA_HOME", ".local/share", sub, err, errlen);
}

/* The user's gpulab.ini, then the user's drop-ins. */
static int load_user(struct config *c, char *err, size_t errlen)
{
	char dir[PATH_MAX], path[PATH_MAX];
	const char *xdg = getenv("XDG_CONFIG_HOME"), *var = xdg && xdg[0] == '/' ? "XDG_CONFIG_HOME" : "HOME";
	int rc = config_user_config_dir(dir, sizeof dir, "/gpulab", err, errlen);
	if (!rc && !dir[0])
		settings_saw(c, "XDG_CONFIG_HOME and HOME", "user", SEEN_UNSET, NULL);
	if (rc || !dir[0])
		return rc;
	if ((rc = settings_path(path, dir, "/gpulab.ini", "", var, err, errlen))
	    || (rc = settings_load_seen(c, path, 0, "user", err, errlen)))
		return rc;
	if ((rc = settings_path(path, dir, "/conf.d", "", var, err, errlen)))
		return rc;
	return load_dropins(c, path, "user drop-in", var, err, errlen);
}

int config_load_all(struct config *c, const char *sysconfdir, const char *const *explicit, int n,
		    char *err, size_t errlen)
{
	char path[PATH_MAX];
	const char *var = "GPULAB_SYSCONFDIR";
	int rc;

	if ((rc = settings_path(path, sysconfdir, "/gpulab.ini", "", var, err, errlen))
	    || (rc = settings_load_seen(c, path, 0, "system", err, errlen)))
		return rc;
	if ((rc = settings_path(path, sysconfdir, "/conf.d", "", var, err, errlen))
	    || (rc = load_dropins(c, path, "system drop-in", var, err, errlen)))
		return rc;
	if ((rc = load_user(c, err, errlen)))
		return rc;
	const char *env = getenv("GPULAB_CONFIG");
	if (env && *env && (rc = settings_load_seen(c, env, 1, "GPULAB_CONFIG", err, errlen)))
		return rc;
	if (!(env && *env))
		settings_saw(c, "GPULAB_CONFIG", "GPULAB_CONFIG", SEEN_UNSET, NULL);
	for (int i = 0; i < n; i++)
		if ((rc = settings_load_seen(c, explicit[i], 1, options_long(OPT_CONFIG), err, errlen)))
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
	for (size_t i = 0; i < c->nseen; i++) {
		free(c->seen[i].path);
		free(c->seen[i].why);
	}
	free(c->seen);
	*c = (struct config){ 0 };
}
