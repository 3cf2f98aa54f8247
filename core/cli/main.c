/*
 * gpulab: load exercises from plugins named in INI files, run them on the
 * GPU, verify each against its CPU reference, and report honest timings.
 * Here: the command line parsed, checked against the command's row
 * (cli/commands.h), and dispatched.
 */
#include "cli/commands.h"
#include "exitcode.h"

#include <string.h>

/* "--a, --b": the options the row takes, for a refusal's line */
static void takes_list(uint64_t takes, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = 0;
	for (int id = 0; id < NOPTS && used < len; id++)
		if ((takes & OPT_BIT(id)) && id != OPT_HELP && id != OPT_VERSION)
			used += snprintf(buf + used, len - used, "%s--%s", used ? ", " : "", option_rows[id].name);
}

/* "table, csv": the formats the row prints */
static void formats_list(unsigned formats, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = 0;
	for (int f = 0; f < FORMATS && used < len; f++)
		if (formats & FORMAT_BIT(f))
			used += snprintf(buf + used, len - used, "%s%s", used ? ", " : "", options_format_name((enum format)f));
}

/* An option, a format or an argument the row does not declare: refused,
 * in one line that says what the command takes, before it runs. */
static int refuse_undeclared(const struct command_row *c, const struct options *o)
{
	uint64_t takes = c->options | OPT_GLOBAL | (c->formats ? OPT_BIT(OPT_FORMAT) : 0);
	uint64_t extra = o->given & ~takes;
	char list[1024], word[64];
	if (extra) {
		takes_list(takes, list, sizeof list);
		return fail(EXIT_USAGE, "%s: takes no %s; it takes %s", c->name,
			    options_spelling((enum opt_id)__builtin_ctzll(extra), word, sizeof word), list);
	}
	if ((o->given & OPT_BIT(OPT_FORMAT)) && !(c->formats & FORMAT_BIT(o->format))) {
		formats_list(c->formats, list, sizeof list);
		return fail(EXIT_USAGE, "%s: prints no %s %s; it prints %s", c->name, options_long(OPT_FORMAT),
			    options_format_name(o->format), list);
	}
	if (c->max_args >= 0 && o->npatterns > c->max_args)
		return fail(EXIT_USAGE, "%s: unexpected argument '%s' (gpulab %s%s%s)", c->name, o->patterns[c->max_args],
			    c->name, c->args ? " " : "", c->args ? c->args : "");
	return 0;
}

/* The command o names, run: help and the refusals first. */
static int dispatch(const struct options *o)
{
	const struct command_row *c = o->version ? &row_version : o->command ? command_named(o->command) : &row_help;
	if (o->help) /* `gpulab -h` and `gpulab help -h`: the general help */
		return help_show(c == &row_help ? NULL : c ? c->name : o->command, stdout);
	if (!c)
		return fail(EXIT_USAGE, "unknown command '%s'; `gpulab %s` lists them", o->command, row_help.name);
	int rc = refuse_undeclared(c, o);
	return rc ? rc : c->run(o);
}

int main(int argc, char **argv)
{
	struct options o;
	char err[512];
	int rc = options_parse(&o, argc, argv, err, sizeof err);
	rc = rc ? fail(rc, "%s", err) : dispatch(&o);
	options_free(&o);
	return rc;
}
