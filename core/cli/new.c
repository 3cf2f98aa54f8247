/*
 * `gpulab new NAME`: a plugin skeleton in the new directory NAME/, from
 * the files installed in $(pkgdatadir)/skeleton (GPULAB_SKELETON names
 * another directory): each file, and its name, with "skeleton" replaced
 * by NAME.  Nothing is left half-written: on any failure the files
 * written so far and the directory are removed.
 */
#include "config.h"

#include "cli/commands.h"
#include "cli/paths.h"
#include "config/settings.h"
#include "emit/facts.h"
#include "exitcode.h"
#include "io/outfile.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A plugin's name in an INI section is at most this long, so that
 * [exercise NAME.scale] still fits inih's 49 bytes with room to rename. */
#define NEW_NAME_MAX 32
#define NEW_FILE_MAX (64 * 1024)

static const char *const new_files[] = { "skeleton.cu", "Makefile", "skeleton.ini" };
#define NEW_NFILES (sizeof new_files / sizeof new_files[0])

/* [a-z][a-z0-9_]*, at most NEW_NAME_MAX bytes: a plugin name, a file
 * name and a make target alike. */
static int new_name_ok(const char *name)
{
	size_t len = strlen(name);
	return len && len <= NEW_NAME_MAX && name[0] >= 'a' && name[0] <= 'z'
	       && strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") == len;
}

/* Is name an installed plugin's: a [plugin NAME] in an INI file gpulab
 * reads, or NAME.so in a plugin directory?  Where, in `where`.  The
 * skeleton's `make install` names a bare NAME.so, which a plugin
 * directory searched before the user's would hold: the installed plugin
 * would be loaded, and the user's exercise never seen. */
static int new_name_taken(const struct options *o, const char *name, char *where, size_t len)
{
	struct config c = { 0 };
	char err[1024], dirs[2 * PATH_MAX];
	int taken = 0;
	if (config_load_all(&c, paths_sysconfdir(), o->configs, o->nconfigs, err, sizeof err) == 0)
		for (size_t i = 0; i < c.n && !taken; i++)
			if (c.v[i].scope == SCOPE_PLUGIN && !strcmp(c.v[i].target, name))
				taken = snprintf(where, len, "named at %s:%d", c.v[i].file, c.v[i].line) > 0;
	config_free(&c); /* a configuration that cannot be read is refused by the commands that use it */
	if (taken || paths_plugin_path(dirs, sizeof dirs, err, sizeof err))
		return taken;
	for (const char *d = dirs; *d && !taken; d += strcspn(d, ":"), d += *d == ':') {
		int n = (int)strcspn(d, ":");
		snprintf(where, len, "%.*s/%s.so", n, d, name);
		taken = n && access(where, F_OK) == 0;
	}
	return taken;
}

/* text with every "skeleton" replaced by name, and "@pkgconfigdir@" by
 * the directory of this gpulab's gpulab.pc (so that the Makefile finds
 * it under any prefix, with no PKG_CONFIG_PATH), written to path whole or
 * not at all (io/outfile.h): 0, or -1 with why in err. */
static int new_write(const char *path, const char *text, const char *name, char *err, size_t len)
{
	static const char dirword[] = "@pkgconfigdir@";
	struct outfile o;
	if (outfile_open(&o, path, err, len))
		return -1;
	FILE *f = o.f;
	for (;;) {
		const char *a = strstr(text, "skeleton"), *b = strstr(text, dirword);
		const char *at = a && (!b || a < b) ? a : b;
		if (!at)
			break;
		fprintf(f, "%.*s%s", (int)(at - text), text, at == a ? name : GPULAB_PKGCONFIGDIR);
		text = at + (at == a ? strlen("skeleton") : strlen(dirword));
	}
	fputs(text, f);
	return outfile_commit(&o, err, len) ? -1 : 0;
}

/* The template file `file` of dir, whole, into buf; -1 with errno. */
static int new_read(const char *dir, const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, len - 1, f);
	int bad = ferror(f) || !feof(f);
	fclose(f);
	buf[n] = 0;
	if (bad || memchr(buf, 0, n)) {
		errno = EFBIG;
		return -1;
	}
	return 0;
}

/* Each template into name/, its file name made from name; the path of
 * a failure in `failed`.  Removes what it wrote when one fails. */
static int new_copy(const char *dir, const char *name, char *failed, size_t len)
{
	static char text[NEW_FILE_MAX];
	char out[NEW_NFILES][PATH_MAX], why[PATH_MAX + 256];
	size_t i;
	for (i = 0; i < NEW_NFILES; i++) {
		const char *f = new_files[i];
		const char *ext = strncmp(f, "skeleton", 8) ? NULL : f + 8;
		snprintf(out[i], sizeof out[i], "%s/%s%s", name, ext ? name : f, ext ? ext : "");
		if (new_read(dir, f, text, sizeof text)) {
			snprintf(failed, len, "%s/%s: %s (GPULAB_SKELETON names another template directory)", dir, f,
				 strerror(errno));
			break;
		}
		if (new_write(out[i], text, name, why, sizeof why)) {
			snprintf(failed, len, "%s: %s", out[i], why);
			break;
		}
	}
	if (i == NEW_NFILES)
		return 0;
	while (i-- > 0)
		unlink(out[i]);
	rmdir(name);
	return -1;
}

int cmd_new(const struct options *o)
{
	const char *dir = getenv("GPULAB_SKELETON") && *getenv("GPULAB_SKELETON") ? getenv("GPULAB_SKELETON")
										    : GPULAB_SKELETONDIR;
	char why[PATH_MAX + 256];
	if (o->npatterns != 1)
		return fail(EXIT_USAGE, "new: name the plugin to make, one NAME (gpulab %s hist)", row_new.name);
	const char *name = o->patterns[0];
	if (!new_name_ok(name))
		return fail(EXIT_USAGE, "new: '%s' is not a plugin name: a-z, 0-9 and _, a letter first, at most %d bytes",
			    name, NEW_NAME_MAX);
	if (new_name_taken(o, name, why, sizeof why))
		return fail(EXIT_USAGE, "new: '%s' is an installed plugin's name (%s); choose another NAME", name, why);
	if (mkdir(name, 0755) != 0)
		return fail(EXIT_USAGE, "new: cannot make the directory '%s': %s", name,
			    errno == EEXIST ? "it exists; choose another NAME or remove it" : strerror(errno));
	if (new_copy(dir, name, why, sizeof why))
		return fail(EXIT_CONFIG, "new: %s", why);
	char cu[64], ini[64];
	snprintf(cu, sizeof cu, "%s.cu", name);
	snprintf(ini, sizeof ini, "%s.ini", name);
	writer_end(new_writer(o->format), &(struct new_doc){ name, (const char *const[]){ cu, "Makefile", ini }, 3 },
		   stdout);
	return 0;
}

const struct command_row row_new = {
	.name = CMD_NEW,
	.args = "NAME",
	.summary = "a plugin skeleton in NAME/, to build and install",
	.about = "Write a plugin skeleton into the new directory NAME/: NAME.cu with one\n"
		 "exercise (plan, setup, run, verify and its keys), a Makefile taking its\n"
		 "flags from pkg-config, and NAME.ini. `make install` there installs it for\n"
		 "you alone (~/.local/share/gpulab/plugins, ~/.config/gpulab/conf.d), no\n"
		 "root needed. NAME is a-z, 0-9 and _, starting with a letter, and no\n"
		 "installed plugin's (its .so would be loaded in place of yours).\n",
	.formats = FORMAT_BIT(FORMAT_TABLE) | FORMAT_BIT(FORMAT_JSON),
	.max_args = -1,
	.examples = "gpulab new hist && cd hist && make && make install && gpulab run hist\n"
		    "make check      # in hist/: gpulab check hist.so, no GPU needed\n",
	.run = cmd_new,
};
