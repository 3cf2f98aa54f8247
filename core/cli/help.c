/*
 * `gpulab help [COMMAND]` and `COMMAND -h`, made from the rows: the
 * commands' (cli/commands.h) and the options' (config/options.c), so
 * that no help line says what a row does not.  Every line fits 80
 * columns (tests/check_cli.c).  `gpulab version` is here too.
 */
#include "config.h"

#include "cli/commands.h"
#include "docs.h"
#include "exitcode.h"

#include <string.h>

#define HELP_COLUMN 23 /* where a help line starts, after its name */

/* text, its every '\n' continued at HELP_COLUMN */
static void help_continued(FILE *out, const char *text)
{
	for (const char *s = text; *s; s++) {
		fputc(*s, out);
		if (*s == '\n' && s[1])
			fprintf(out, "%*s", HELP_COLUMN, "");
	}
	fputc('\n', out);
}

/* "  left" padded to the help column (a line of its own where too long), then text */
static void help_line(FILE *out, const char *left, const char *text)
{
	int n = fprintf(out, "  %s", left);
	if (n >= HELP_COLUMN) /* as the old help did: one space, or a line of its own */
		fprintf(out, n == HELP_COLUMN - 1 ? " " : "\n%*s", HELP_COLUMN, "");
	else
		fprintf(out, "%*s", HELP_COLUMN - n, "");
	help_continued(out, text);
}

/* --format's line: the formats this command prints, from its row */
static const char *help_formats(const struct command_row *c, char *buf, size_t len)
{
	size_t used = snprintf(buf, len, "what to print: ");
	for (int f = 0, k = 0; f < FORMATS && used < len; f++)
		if (c->formats & FORMAT_BIT(f))
			used += snprintf(buf + used, len - used, "%s%s", k++ ? ", " : "", options_format_name((enum format)f));
	snprintf(buf + used, used < len ? len - used : 0, " (default table)");
	return buf;
}

static void help_option(FILE *out, enum opt_id id, const struct command_row *c)
{
	const struct option_row *r = &option_rows[id];
	char left[64], formats[128];
	const char *text = id == OPT_FORMAT && c ? help_formats(c, formats, sizeof formats) : r->help;
	for (const struct opt_help *h = c ? c->own : NULL; h && h->help; h++)
		if (h->id == id)
			text = h->help;
	snprintf(left, sizeof left, r->letter ? "-%c, --%s%s%s" : "%c    --%s%s%s", r->letter ? r->letter : ' ', r->name,
		 r->value ? " " : "", r->value ? r->value : "");
	help_line(out, r->letter ? left : left + 1, text);
}

static void help_general(FILE *out)
{
	fputs("usage: gpulab [OPTION]... COMMAND [ARGUMENT]...\n\ncommands:\n", out);
	for (size_t i = 0; command_at(i); i++) {
		const struct command_row *c = command_at(i);
		char left[80];
		snprintf(left, sizeof left, "%s%s%s", c->name, c->args ? " " : "", c->args ? c->args : "");
		help_line(out, left, c->summary);
	}
	fputc('\n', out);
	for (int id = 0; id < NOPTS; id++)
		if (OPT_GLOBAL & OPT_BIT(id))
			help_option(out, (enum opt_id)id, NULL);
	/* one path a line: a configured prefix may be long */
	fprintf(out,
		"\nconfiguration files, in the order read (`gpulab %s` shows which were):\n"
		"  %s/gpulab.ini\n  %s/conf.d/*.ini\n"
		"  ~/.config/gpulab/gpulab.ini, then ~/.config/gpulab/conf.d/*.ini\n"
		"plugin directories, in the order searched:\n  %s\n  ~/.local/share/gpulab/plugins\n"
		"pages (record.md, learn.md, each plugin's), installed in:\n  %s\n"
		"\nSee gpulab(1) for the configuration files and the exit codes.\n",
		row_config.name, GPULAB_SYSCONFDIR, GPULAB_SYSCONFDIR, GPULAB_PLUGINDIR, docs_dir());
}

static void help_command(FILE *out, const struct command_row *c)
{
	fprintf(out, "usage: gpulab %s%s%s%s\n", c->name, c->args ? " " : "", c->args ? c->args : "",
		c->options || c->formats ? " [OPTION]..." : "");
	if (c->usage)
		fprintf(out, "       gpulab %s\n", c->usage);
	fprintf(out, "\n%s", c->about);
	if (c->options || c->formats)
		fputc('\n', out);
	for (int id = 0; id < NOPTS; id++)
		if ((c->options | (c->formats ? OPT_BIT(OPT_FORMAT) : 0)) & OPT_BIT(id))
			help_option(out, (enum opt_id)id, c);
	fputs("\nexamples:\n", out);
	for (const char *e = c->examples; *e; e += strcspn(e, "\n") + 1)
		fprintf(out, "  %.*s\n", (int)strcspn(e, "\n"), e);
	if (c->page) /* a path a line, since a configured prefix may be long */
		fprintf(out, "\npage:\n  %s/%s\n", docs_dir(), c->page);
}

/* "list, info, ...": every command, for an error's line */
static void help_names(char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t i = 0; command_at(i) && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? ", " : "", command_at(i)->name);
}

int help_show(const char *name, FILE *out)
{
	char names[256];
	const struct command_row *c = name ? command_named(name) : NULL;
	if (name && !c) {
		help_names(names, sizeof names);
		return fail(EXIT_USAGE, "help: no command '%s' (%s)", name, names);
	}
	if (c)
		help_command(out, c);
	else
		help_general(out);
	return 0;
}

static int cmd_help(const struct options *o)
{
	char names[256];
	/* `help record upgrade`: record's one subcommand, whose help record's is */
	if (o->npatterns == 2 && !strcmp(o->patterns[0], row_record.name) && !strcmp(o->patterns[1], "upgrade"))
		return help_show(row_record.name, stdout);
	help_names(names, sizeof names);
	if (o->npatterns > 1)
		return fail(EXIT_USAGE, "help: name one command (%s)", names);
	return help_show(o->npatterns ? o->patterns[0] : NULL, stdout);
}

const struct command_row row_help = {
	.name = CMD_HELP,
	.args = "[COMMAND]",
	.summary = "this, or a command's options and examples",
	.about = "The general help, or a command's options and examples; the same as\n"
		 "gpulab COMMAND --help or -h.\n",
	.max_args = 2,
	.examples = "gpulab help\n"
		    "gpulab help run\n",
	.run = cmd_help,
};

static int cmd_version(const struct options *o)
{
	(void)o;
	printf("gpulab %s (plugin ABI %d.%d)\n", PACKAGE_VERSION, GPULAB_ABI_VERSION, GPULAB_ABI_MINOR);
	return 0;
}

const struct command_row row_version = {
	.name = CMD_VERSION,
	.summary = "gpulab's version and plugin ABI (or --version)",
	.about = "gpulab's version and the plugin ABI version it speaks (major.minor).\n",
	.max_args = 0,
	.examples = "gpulab --version\n",
	.run = cmd_version,
};
