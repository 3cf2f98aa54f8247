/*
 * The commands that read records (gpulab run -o's): compare (two, point
 * by point; compare/'s), report (a page; draw/'s) and record upgrade
 * (records/'s).
 */
#include "config.h"

#include "cli/commands.h"
#include "compare/compare.h"
#include "draw/html.h"
#include "emit/writer.h"
#include "exitcode.h"
#include "records/upgrade.h"

#include <limits.h>
#include <string.h>

static int cmd_compare(const struct options *o)
{
	char err[1024];
	int rc;
	int pair = o->base_exercise || o->new_exercise;
	if (pair && !(o->base_exercise && o->new_exercise))
		return fail(EXIT_USAGE, "compare: %s and %s go together: %s EXERCISE %s EXERCISE", options_long(OPT_BASE),
			    options_long(OPT_NEW), options_long(OPT_BASE), options_long(OPT_NEW));
	if (o->npatterns != 2 && !(pair && o->npatterns == 1))
		return fail(EXIT_USAGE, "compare: name two records, BASE and NEW (gpulab %s %s writes them), "
				       "or one with %s EX %s EX", row_run.name, options_long(OPT_OUTPUT),
			    options_long(OPT_BASE), options_long(OPT_NEW));
	struct compare_ask q = { o->format, o->fail_above, o->min_change, o->base_exercise, o->new_exercise };
	rc = compare_records(o->patterns[0], o->patterns[o->npatterns - 1], &q, stdout, stderr, err, sizeof err);
	return rc && rc != EXIT_SLOWER ? fail(rc, "%s", err) : rc;
}

const struct command_row row_compare = {
	.name = CMD_COMPARE,
	.args = "BASE NEW",
	.summary = "two records (run --output) point by point, with a\n"
		   "Mann-Whitney U test's verdict: faster, slower, same",
	.usage = "compare RECORD.json --base EXERCISE --new EXERCISE",
	.about = "Two records of gpulab run --output, point by point: the ratio of medians\n"
		 "and a Mann-Whitney U test's verdict (faster, slower, same).\n",
	.max_args = -1,
	.options = OPT_BIT(OPT_FAIL_ABOVE) | OPT_BIT(OPT_MIN_CHANGE) | OPT_BIT(OPT_BASE) | OPT_BIT(OPT_NEW),
	.formats = ALL_FORMATS,
	.examples = "gpulab compare base.json new.json --fail-above 5 --min-change 5\n"
		    "gpulab compare sweep.json --base reduce.cub --new reduce.best\n",
	.run = cmd_compare,
};

static int cmd_report(const struct options *o)
{
	char err[1024];
	FILE *summary = report_for_people(o->format) ? NULL : stdout; /* the page is for people; this, for scripts */
	int rc = report_write(o->patterns, (size_t)o->npatterns, o->output, o->nccl_tests, stderr, summary, err, sizeof err);
	return rc ? fail(rc, "%s", err) : 0;
}

const struct command_row row_report = {
	.name = CMD_REPORT,
	.args = "RECORD.json... -o FILE.html|FILE.svg",
	.summary = "records as one page of charts and tables",
	.usage = "report RECORD.json... --nccl-tests FILE -o FILE.html|FILE.svg",
	.about = "Records as one HTML page of charts and tables that fetches nothing; two\n"
		 "records also get NEW against BASE point by point; grade's records are a\n"
		 "leaderboard, and several of one challenge who improved (on several GPU\n"
		 "models, a board each, as gpulab board draws them). A record whose\n"
		 "rows note busbw (the multigpu collectives) also gets busbw against the\n"
		 "size. FILE.svg is the first chart alone. With --format json, once it is\n"
		 "written, what it shows and the records read, as one document.\n",
	.max_args = -1,
	.options = OPT_BIT(OPT_OUTPUT) | OPT_BIT(OPT_NCCL_TESTS),
	.formats = FORMAT_BIT(FORMAT_TABLE) | FORMAT_BIT(FORMAT_JSON), /* table: the page alone, nothing printed */
	.own = (const struct opt_help[]){ { OPT_OUTPUT, "the page (.html) or the chart (.svg) to write" }, { 0 } },
	.examples = "gpulab report run.json -o run.html\n"
		    "gpulab report base.json new.json -o cmp.html\n"
		    "gpulab report sweep.json -o sweep.svg\n"
		    "gpulab report grade-1.json grade-2.json -o class.html\n"
		    "gpulab report ranks.json --nccl-tests nccl-tests.txt -o busbw.html\n",
	.run = cmd_report,
};

/* `gpulab record upgrade FILE [-o OUT] [--samples all]` (records/upgrade.h). */
static int cmd_record(const struct options *o)
{
	char err[PATH_MAX + 1024];
	if (o->npatterns != 2 || strcmp(o->patterns[0], "upgrade"))
		return fail(EXIT_USAGE, "record: expected `record upgrade FILE` (%s OUT to write another file)",
			    options_short(OPT_OUTPUT));
	int rc = record_upgrade(o->patterns[1], o->output, o->samples_keep, err, sizeof err);
	return rc ? fail(rc, "record upgrade: %s", err) : 0;
}

const struct command_row row_record = {
	.name = CMD_RECORD,
	.args = "upgrade FILE",
	.summary = "a record of any schema rewritten as the journal run -o\nwrites (record.md, below)",
	.about = "A record of any schema gpulab reads (a gpulab-record/1 document, or a\n"
		 "journal) rewritten as the journal run -o writes (record.md, below), at most\n"
		 "4096 samples a point (a uniform subset): in place, atomically, with its\n"
		 "permissions, under the writers' lock; or to OUT. A journal that did not\n"
		 "finish stays one that did not finish.\n",
	.max_args = -1,
	.options = OPT_BIT(OPT_OUTPUT) | OPT_BIT(OPT_SAMPLES),
	.own = (const struct opt_help[]){ { OPT_OUTPUT, "write OUT, and leave FILE as it is" },
					  { OPT_SAMPLES, "keep at most N samples a point, or every one (all)" }, { 0 } },
	.examples = "gpulab record upgrade old.json\n"
		    "gpulab record upgrade old.json -o new.json --samples 1024\n",
	.page = "record.md",
	.run = cmd_record,
};
