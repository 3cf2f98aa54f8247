/*
 * gpulab: load exercises from plugins named in INI files, run them on the
 * GPU, verify each against its CPU reference, and report honest timings.
 */
#include "config.h"

#include "cli/commands.h"
#include "config/help.h"
#include "emit/list.h"
#include "config/options.h"
#include "draw/html.h"
#include "exitcode.h"
#include "fail.h"
#include "compare/compare.h"
#include "records/upgrade.h"
#include "run/device.h"
#include "run/metrics.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int cmd_list(const struct options *o)
{
	struct config c = { 0 };
	struct registry r = { 0 };
	struct selection sel = { 0 };
	char err[1024];
	int broken, rc = load(o, &c, &r, 1, &broken);
	(void)broken; /* config's to tell, not list's (below) */
	if (rc == 0 && o->npatterns && (rc = select_exercises(&r, o->patterns, o->npatterns, &sel, err, sizeof err)))
		fail(rc, "list: %s", err);
	if (rc == 0)
		list_print(&r, o->npatterns ? &sel : NULL, o->format, stdout);
	selection_free(&sel);
	registry_free(&r);
	config_free(&c);
	/* one rule, run's: a plugin left out, for its .so or for its INI
	 * keys, is a warning line and the others are listed; it fails list
	 * only where a pattern asked for it (4, or 3 for its INI keys, from
	 * select_exercises).  A file that cannot be parsed fails it (3), in
	 * load; `gpulab config` is the command that checks the INI keys. */
	return rc;
}

static int cmd_info(const struct options *o)
{
	(void)o;
	char err[512];
	int rc = device_print_all(stdout, err, sizeof err);
	return rc ? fail(rc, "%s", err) : 0;
}

static int cmd_compare(const struct options *o)
{
	char err[1024];
	int rc;
	int pair = o->base_exercise || o->new_exercise;
	if (pair && !(o->base_exercise && o->new_exercise))
		return fail(EXIT_USAGE, "compare: --base and --new go together: --base EXERCISE --new EXERCISE");
	if (o->npatterns != 2 && !(pair && o->npatterns == 1))
		return fail(EXIT_USAGE, "compare: name two records, BASE and NEW (gpulab run --output writes them), "
				       "or one with --base EX --new EX");
	rc = compare_records(o->patterns[0], o->patterns[o->npatterns - 1], o, stdout, stderr, err, sizeof err);
	return rc && rc != EXIT_SLOWER ? fail(rc, "%s", err) : rc;
}

static int cmd_report(const struct options *o)
{
	char err[1024];
	int rc = report_write(o->patterns, (size_t)o->npatterns, o->output, o->nccl_tests, stderr, err, sizeof err);
	return rc ? fail(rc, "%s", err) : 0;
}

/* `gpulab record upgrade FILE [-o OUT] [--samples all]` (records/upgrade.h). */
static int cmd_record(const struct options *o)
{
	char err[PATH_MAX + 1024];
	if (o->npatterns != 2 || strcmp(o->patterns[0], "upgrade"))
		return fail(EXIT_USAGE, "record: expected `record upgrade FILE` (-o OUT to write another file)");
	int rc = record_upgrade(o->patterns[1], o->output, o->samples_keep, err, sizeof err);
	return rc ? fail(rc, "record upgrade: %s", err) : 0;
}

static int cmd_metrics(const struct options *o)
{
	(void)o;
	metrics_print_aliases(stdout);
	return 0;
}

static int cmd_version(const struct options *o)
{
	(void)o;
	printf("gpulab %s (plugin ABI %d.%d)\n", PACKAGE_VERSION, GPULAB_ABI_VERSION, GPULAB_ABI_MINOR);
	return 0;
}

static int cmd_help(const struct options *o)
{
	/* `help record upgrade`: record's one subcommand, whose help record's is */
	if (o->npatterns == 2 && !strcmp(o->patterns[0], "record") && !strcmp(o->patterns[1], "upgrade"))
		return help_print("record", stdout);
	if (o->npatterns > 1)
		return fail(EXIT_USAGE, "help: name one command (%s)", help_commands());
	return help_print(o->npatterns ? o->patterns[0] : NULL, stdout);
}

/* What a command lets through; any other --submit, --variable or
 * --cflags, --nccl-tests, --template or argument is a usage error, said
 * before the command runs, in that order. */
enum {
	TAKES_ARGS = 1,      /* names: exercises, files, a lesson */
	TAKES_SUBMIT = 2,    /* --submit FILE.cu */
	TAKES_TEMPLATE = 4,  /* --template (only try reads it; the others that
			      * take it ignore it, as they always have) */
	TAKES_PKGCONFIG = 8, /* --variable NAME, --cflags */
	TAKES_NCCL = 16,     /* --nccl-tests FILE */
	TAKES_ANY = TAKES_ARGS | TAKES_SUBMIT | TAKES_TEMPLATE | TAKES_PKGCONFIG | TAKES_NCCL,
};

/* The commands, as git's builtins are: a name, what it takes, the
 * function (cli/commands.h).  help and version take anything and look
 * at none of it but help's one name. */
static const struct command {
	const char *name;
	int (*run)(const struct options *o);
	unsigned takes;
} commands[] = {
	{ "help", cmd_help, TAKES_ANY },
	{ "version", cmd_version, TAKES_ANY },
	{ "new", cmd_new, TAKES_ARGS | TAKES_TEMPLATE },
	{ "check", cmd_check, TAKES_ARGS | TAKES_TEMPLATE },
	{ "config", cmd_config, TAKES_ARGS | TAKES_TEMPLATE | TAKES_PKGCONFIG },
	{ "compare", cmd_compare, TAKES_ARGS | TAKES_TEMPLATE },
	{ "report", cmd_report, TAKES_ARGS | TAKES_TEMPLATE | TAKES_NCCL },
	{ "try", cmd_try, TAKES_ARGS | TAKES_TEMPLATE },
	{ "learn", cmd_learn, TAKES_ANY },
	{ "grade", cmd_grade, TAKES_ARGS | TAKES_TEMPLATE },
	{ "record", cmd_record, TAKES_ARGS | TAKES_TEMPLATE },
	{ "list", cmd_list, TAKES_ARGS },
	{ "info", cmd_info, 0 },
	{ "metrics", cmd_metrics, 0 },
	{ "run", cmd_run, TAKES_ARGS },
};

static const struct command *command_named(const char *name)
{
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* The command o names, run: help and the refusals first. */
static int dispatch(const struct options *o)
{
	if (o->help)
		return help_print(strcmp(o->command, "help") ? o->command : NULL, stdout);
	const struct command *c = command_named(o->command);
	unsigned takes = c ? c->takes : 0;
	if (o->submit && !(takes & TAKES_SUBMIT))
		return fail(EXIT_USAGE, "--submit: only for learn (gpulab learn LESSON --submit FILE.cu)");
	if ((o->variable || o->cflags) && !(takes & TAKES_PKGCONFIG))
		return fail(EXIT_USAGE, "--%s: only for config (gpulab config --variable=plugindir)",
			    o->variable ? "variable" : "cflags");
	if (o->nccl_tests && !(takes & TAKES_NCCL))
		return fail(EXIT_USAGE, "--nccl-tests: only for report (gpulab report RECORD.json --nccl-tests FILE -o FILE.html)");
	if (o->template_only && !(takes & TAKES_TEMPLATE))
		return fail(EXIT_USAGE, "--template: only for try (gpulab try reduce --template)");
	if (o->npatterns > 0 && !(takes & TAKES_ARGS))
		return fail(EXIT_USAGE, "%s: unexpected argument '%s'", o->command, o->patterns[0]);
	if (!c)
		return fail(EXIT_USAGE, "unknown command '%s'; `gpulab help` lists them", o->command);
	return c->run(o);
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
