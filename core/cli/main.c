/*
 * gpulab: load exercises from plugins named in INI files, run them on the
 * GPU, verify each against its CPU reference, and report honest timings.
 */
#include "config.h"

#include "cli/commands.h"
#include "cli/help.h"
#include "cli/list.h"
#include "config/options.h"
#include "draw/html.h"
#include "exitcode.h"
#include "fail.h"
#include "records/compare.h"
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
	if (rc == 0 && o->npatterns && (rc = select_exercises(&r, o->patterns, o->npatterns, &sel, err, sizeof err)))
		fail(rc, "list: %s", err);
	if (rc == 0)
		list_print(&r, o->npatterns ? &sel : NULL, o->format, stdout);
	selection_free(&sel);
	registry_free(&r);
	config_free(&c);
	/* the others are listed: a plugin that cannot be loaded fails list
	 * only where it was asked for; a fault of the INI files fails it */
	return rc ? rc : broken;
}

static int cmd_info(void)
{
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

int main(int argc, char **argv)
{
	struct options o;
	char err[512];
	int rc = options_parse(&o, argc, argv, err, sizeof err);
	if (rc)
		return fail(rc, "%s", err);
	if (o.help)
		return help_print(strcmp(o.command, "help") ? o.command : NULL, stdout);
	if (!strcmp(o.command, "help") && o.npatterns > 1)
		return fail(EXIT_USAGE, "help: name one command (%s)", help_commands());
	if (!strcmp(o.command, "help"))
		return help_print(o.npatterns ? o.patterns[0] : NULL, stdout);
	if (!strcmp(o.command, "version")) {
		printf("gpulab %s (plugin ABI %d.%d)\n", PACKAGE_VERSION, GPULAB_ABI_VERSION, GPULAB_ABI_MINOR);
		return 0;
	}
	if (o.submit && strcmp(o.command, "learn"))
		return fail(EXIT_USAGE, "--submit: only for learn (gpulab learn LESSON --submit FILE.cu)");
	if ((o.variable || o.cflags) && strcmp(o.command, "config"))
		return fail(EXIT_USAGE, "--%s: only for config (gpulab config --variable=plugindir)",
			    o.variable ? "variable" : "cflags");
	if (o.nccl_tests && strcmp(o.command, "report"))
		return fail(EXIT_USAGE, "--nccl-tests: only for report (gpulab report RECORD.json --nccl-tests FILE -o FILE.html)");
	if (!strcmp(o.command, "new"))
		return cmd_new(&o);
	if (!strcmp(o.command, "check"))
		return cmd_check(&o);
	if (!strcmp(o.command, "config"))
		return cmd_config(&o);
	if (!strcmp(o.command, "compare"))
		return cmd_compare(&o);
	if (!strcmp(o.command, "report"))
		return cmd_report(&o);
	if (!strcmp(o.command, "try"))
		return cmd_try(&o);
	if (!strcmp(o.command, "learn"))
		return cmd_learn(&o);
	if (!strcmp(o.command, "grade"))
		return cmd_grade(&o);
	if (!strcmp(o.command, "record"))
		return cmd_record(&o);
	if (o.template_only)
		return fail(EXIT_USAGE, "--template: only for try (gpulab try reduce --template)");
	if (strcmp(o.command, "run") && strcmp(o.command, "list") && o.npatterns > 0)
		return fail(EXIT_USAGE, "%s: unexpected argument '%s'", o.command, o.patterns[0]);
	if (!strcmp(o.command, "list"))
		return cmd_list(&o);
	if (!strcmp(o.command, "info"))
		return cmd_info();
	if (!strcmp(o.command, "metrics")) {
		metrics_print_aliases(stdout);
		return 0;
	}
	if (!strcmp(o.command, "run"))
		return cmd_run(&o);
	return fail(EXIT_USAGE, "unknown command '%s'; `gpulab help` lists them", o.command);
}
