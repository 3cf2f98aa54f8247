/*
 * `gpulab board RECORD.json...`: a class's grade records of one challenge
 * as one board per GPU model, each student's best and history on it
 * (records/board_read.c), printed by emit/'s writers or, with -o, drawn
 * as a page (draw/).
 */
#include "cli/commands.h"
#include "draw/html.h"
#include "emit/writer.h"
#include "exitcode.h"
#include "records/board_read.h"

#include <limits.h>

static int cmd_board(const struct options *o)
{
	struct board_doc b;
	char err[PATH_MAX + 1024];
	int rc;
	if (o->npatterns < 1)
		return fail(EXIT_USAGE, "board: name grade records of one challenge (gpulab %s %s writes them)",
			    row_grade.name, options_short(OPT_OUTPUT));
	if (o->output && (o->given & OPT_BIT(OPT_FORMAT)))
		return fail(EXIT_USAGE, "board: %s draws the page, %s prints the board: one or the other",
			    options_short(OPT_OUTPUT), options_long(OPT_FORMAT));
	rc = board_read(&b, o->patterns, (size_t)o->npatterns, err, sizeof err);
	if (!rc && o->output)
		rc = board_page_write(&b, o->output, err, sizeof err);
	else if (!rc)
		writer_end(board_writer(o->format), &b, stdout);
	board_free(&b);
	return rc ? fail(rc, "%s", err) : 0;
}

const struct command_row row_board = {
	.name = CMD_BOARD,
	.args = "RECORD.json...",
	.summary = "grade's records of a class over time: each student's\n"
		   "best and history, one board per GPU model",
	.usage = "board RECORD.json... -o FILE.html",
	.about = "Records of gpulab grade -o of one challenge, in time order (their date):\n"
		 "one board per GPU model (records of different GPUs are never ranked\n"
		 "together), each student ranked by their best share of the reference,\n"
		 "with their first, their latest, the change between, and every record's.\n"
		 "A student is a kernel file's name without its directory and .cu. A\n"
		 "record of grade --test is never ranked: its gate's pass or fail shows.\n"
		 "A record that is not a grade record, lacks its date or device, or is\n"
		 "of another challenge than the first is refused (exit 2).\n",
	.max_args = -1,
	.options = OPT_BIT(OPT_OUTPUT),
	.formats = ALL_FORMATS,
	.own = (const struct opt_help[]){ { OPT_OUTPUT, "the boards as a page (.html), each student's history\n"
							"drawn" }, { 0 } },
	.examples = "gpulab board grade-*.json\n"
		    "gpulab board week1.json week2.json --format json\n"
		    "gpulab board grade-*.json -o class.html\n",
	.page = "json.md",
	.run = cmd_board,
};
