/*
 * `gpulab check FILE.so...`: what an author can know of a plugin without
 * a GPU.  It is loaded as gpulab loads any (trust, ABI, struct sizes,
 * every descriptor and parameter table), then each exercise's plan() is
 * called at its defaults, which it must take, at each key's limits, and
 * at the corners where the limits meet (every key at its least, every key
 * at its most, the most -n with the least -b and the reverse), where it
 * may refuse but must say why.  Each plan runs in a child
 * process, so a crash or a hang is one line, not the end of the check.
 * This file is the command (its FILEs, their loading, the verdict); the
 * plans are session/plan_check.c's.
 */
#include "config.h"

#include "cli/commands.h"
#include "escape.h"
#include "exitcode.h"
#include "plugins/challenge_dirs.h"
#include "emit/facts.h"
#include "session/plan_check.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A FILE that is no shared object at all (none, a directory, a .cu) is
 * not a plugin's problem but the command's: refused on stderr, as every
 * command refuses, and the next FILE still checked.  1 if refused. */
static int refuse_non_object(const char *file, char *abs)
{
	unsigned char magic[4] = { 0 };
	struct stat st;
	FILE *f;
	if (!*file)
		return fail(EXIT_PLUGIN, "check: an empty file name: name a plugin's shared object (FILE.so)"), 1;
	if (!realpath(file, abs) || stat(abs, &st) != 0)
		return fail(EXIT_PLUGIN, "check: %s: %s", file, strerror(errno)), 1;
	if (S_ISDIR(st.st_mode))
		return fail(EXIT_PLUGIN, "check: %s: a directory; name its plugins: %s/*.so", file, file), 1;
	if (!S_ISREG(st.st_mode) || !(f = fopen(abs, "rb")))
		return fail(EXIT_PLUGIN, "check: %s: %s", file, S_ISREG(st.st_mode) ? strerror(errno) : "not a regular file"), 1;
	size_t got = fread(magic, 1, sizeof magic, f);
	fclose(f);
	if (got != sizeof magic || memcmp(magic, "\177ELF", 4) != 0)
		return fail(EXIT_PLUGIN, "check: %s: not a shared object; check takes the FILE.so a build makes", file), 1;
	return 0;
}

/* FILE checked: its problems counted, and what it is into *shown; a
 * line for a clean one, but quiet. */
static int check_file(const char *file, const struct options *o, struct check_shown *shown, int quiet)
{
	char abs[PATH_MAX];
	struct registry r = { 0 };
	int bad = 0;
	*shown = (struct check_shown){ .file = file, .refused = 1 };
	if (refuse_non_object(file, abs))
		return 1;
	shown->refused = 0;
	char err[1024];
	if (challenges_export_unset(err, sizeof err)) /* the try plugin's exercises are its challenge folders */
		return fail(EXIT_CONFIG, "check: %s", err), 1;
	char label[64];
	snprintf(label, sizeof label, "gpulab %s", row_check.name);
	if (registry_load_file(&r, abs, label) != 0) {
		registry_free(&r);
		return fail(EXIT_NOMEM, "out of memory loading %s", file), 1;
	}
	const struct plugin *p = &r.v[0];
	if (p->error) {
		/* FILE named once: the reason alone.  One whose descriptor cannot
		 * be read is refused as a FILE that is no plugin is; a
		 * descriptor's fault is a problem check found */
		if (p->unread)
			fail(EXIT_PLUGIN, "check: %s: %s", file, p->why);
		else
			check_problem(file, "%s", p->why);
		shown->refused = p->unread, shown->problems = !p->unread;
		registry_free(&r);
		return 1;
	}
	snprintf(shown->plugin, sizeof shown->plugin, "%s", p->name);
	shown->abi = p->desc->abi, shown->abi_minor = p->desc->abi_minor, shown->exercises = p->desc->n_exercises;
	for (size_t k = 0; k < p->desc->n_exercises; k++)
		bad += check_plans(file, &(struct pick){ p, &p->desc->exercises[k], 1 }, o);
	shown->problems = bad;
	if (!bad && !quiet) {
		fput_escaped(stdout, file);
		printf(": plugin '%s', ABI %u.%u, %zu exercise%s: no problem\n", p->name, p->desc->abi, p->desc->abi_minor,
		       p->desc->n_exercises, p->desc->n_exercises == 1 ? "" : "s");
	}
	registry_free(&r);
	return bad;
}

/* --format json, csv or md: the FILEs and the problems sink holds, as one document;
 * 1 where the problems cannot be read back. */
static int check_document(const struct writer *w, const struct check_shown *shown, size_t n, FILE *sink)
{
	long len = fseek(sink, 0, SEEK_END) == 0 ? ftell(sink) : -1;
	char *text = len >= 0 ? malloc((size_t)len + 1) : NULL;
	int ok = text && fseek(sink, 0, SEEK_SET) == 0 && fread(text, 1, (size_t)len, sink) == (size_t)len;
	fclose(sink);
	if (ok)
		text[len] = 0; /* the last problem's end, however it was cut */
	if (ok)
		writer_end(w, &(struct check_doc){ shown, n, text, (size_t)len }, stdout);
	free(text);
	return ok ? 0 : (fail(EXIT_NOMEM, "check: cannot read its problems back"), 1);
}

int cmd_check(const struct options *o)
{
	int bad = 0;
	if (o->npatterns == 0)
		return fail(EXIT_USAGE, "check: name a plugin's shared object (gpulab %s FILE.so)", row_check.name);
	/* plan() is checked as a machine without a GPU sees it, on any
	 * machine: otherwise the GPUs in hand change the verdict (multigpu's
	 * p2p_copy rightly refuses its defaults where one GPU is visible,
	 * and author.sh failed on a one-GPU machine).  Before any CUDA call,
	 * so that the runtime never sees a device. */
	setenv("CUDA_VISIBLE_DEVICES", "-1", 1);
	const struct writer *w = check_writer(o->format);
	struct check_shown *shown = calloc((size_t)o->npatterns, sizeof *shown);
	FILE *sink = w ? tmpfile() : NULL;
	if (!shown || (w && !sink)) {
		free(shown);
		return fail(EXIT_NOMEM, "check: out of memory");
	}
	check_problems_into(sink);
	for (int i = 0; i < o->npatterns; i++)
		bad += check_file(o->patterns[i], o, &shown[i], o->quiet || w);
	if (w) /* the document, once every plan was called */
		bad += check_document(w, shown, (size_t)o->npatterns, sink);
	check_problems_into(NULL);
	free(shown);
	return bad ? EXIT_PLUGIN : 0;
}

const struct command_row row_check = {
	.name = CMD_CHECK,
	.args = "FILE.so...",
	.summary = "a plugin's declarations and plans, without a GPU",
	.about = "Load each plugin, check its descriptor and every parameter table, and call\n"
		 "each exercise's plan() at its defaults, at every key's limits, and where\n"
		 "they meet (all keys at their least, at their most; the most -n with the\n"
		 "least -b). One line for each problem; exit 0 when there is none. Needs no\n"
		 "GPU: plan() may not touch one.\n",
	.max_args = -1,
	.options = OPT_BIT(OPT_QUIET),
	.formats = ALL_FORMATS,
	.own = (const struct opt_help[]){ { OPT_QUIET, "no line for a plugin with no problem: a problem alone\n"
						       "prints (for make check's log)" }, { 0 } },
	.examples = "gpulab check hist.so\n"
		    "gpulab check --quiet $(gpulab config --variable=plugindir)/*.so\n",
	.run = cmd_check,
};
