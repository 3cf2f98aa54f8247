#include "emit/writer.h"

#include "emit/compared.h"
#include "emit/configured.h"
#include "emit/csv.h"
#include "emit/facts.h"
#include "emit/field.h"
#include "emit/json.h"
#include "emit/list_doc.h"
#include "emit/markdown.h"
#include "emit/ranking.h"
#include "emit/standings.h"
#include "emit/table.h"

/* What is printed: the run's report, a comparison, the list, the
 * metrics' names, the GPUs (info's table is run/device.c's: NULL here),
 * new's summary.  A format a command does not print is NULL: its row
 * (cli/) refuses it before anything runs. */
enum printed { PRINTED_REPORT, PRINTED_COMPARE, PRINTED_LIST, PRINTED_METRICS, PRINTED_INFO, PRINTED_NEW, PRINTED_CONFIG,
	       PRINTED_CHECK, PRINTED_GRADE, PRINTED_BOARD, PRINTED };

/* Every writer, by what it prints and the format: the one place a
 * format is decided. */
static const struct writer *writer_for(enum printed what, enum format f)
{
	static const struct writer *const by_format[PRINTED][FORMATS] = {
		[PRINTED_REPORT] = { [FORMAT_TABLE] = &report_table, [FORMAT_CSV] = &report_csv,
				     [FORMAT_JSON] = &report_json, [FORMAT_MD] = &report_markdown },
		[PRINTED_COMPARE] = { [FORMAT_TABLE] = &compare_table, [FORMAT_CSV] = &compare_csv,
				      [FORMAT_JSON] = &compare_json, [FORMAT_MD] = &compare_markdown },
		[PRINTED_LIST] = { [FORMAT_TABLE] = &list_table, [FORMAT_CSV] = &list_csv, [FORMAT_JSON] = &list_json,
				   [FORMAT_MD] = &list_markdown },
		[PRINTED_METRICS] = { [FORMAT_TABLE] = &metrics_table, [FORMAT_CSV] = &metrics_csv, [FORMAT_JSON] = &metrics_json,
				      [FORMAT_MD] = &metrics_markdown },
		[PRINTED_INFO] = { [FORMAT_CSV] = &info_csv, [FORMAT_JSON] = &info_json, [FORMAT_MD] = &info_markdown },
		[PRINTED_NEW] = { [FORMAT_TABLE] = &new_table, [FORMAT_JSON] = &new_json },
		[PRINTED_CHECK] = { [FORMAT_CSV] = &check_csv, [FORMAT_JSON] = &check_json, [FORMAT_MD] = &check_markdown },
		[PRINTED_GRADE] = { [FORMAT_TABLE] = &ranking_table, [FORMAT_CSV] = &ranking_csv, [FORMAT_JSON] = &ranking_json,
				    [FORMAT_MD] = &ranking_markdown },
		[PRINTED_BOARD] = { [FORMAT_TABLE] = &standings_table, [FORMAT_CSV] = &standings_csv,
				    [FORMAT_JSON] = &standings_json, [FORMAT_MD] = &standings_markdown },
		[PRINTED_CONFIG] = { [FORMAT_TABLE] = &configured_table, [FORMAT_CSV] = &configured_csv,
				     [FORMAT_JSON] = &configured_json, [FORMAT_MD] = &configured_markdown },
	};
	return by_format[what][f];
}

static const struct writer *report_writer(enum format f)
{
	return writer_for(PRINTED_REPORT, f);
}

int report_streams(const struct report *r)
{
	return report_writer(r->format)->streams;
}

int report_for_people(enum format f)
{
	return report_writer(f)->for_people;
}

void report_begin(struct report *r, FILE *out)
{
	writer_begin(report_writer(r->format), r, out);
}

void report_point(struct report *r, size_t i, FILE *out)
{
	writer_row(report_writer(r->format), r, i, out);
}

void report_end(const struct report *r, FILE *out)
{
	struct report c = *r;
	writer_end(report_writer(c.format), &c, out);
}

void report_print(const struct report *r, FILE *out)
{
	struct report c = *r;
	report_begin(&c, out);
	for (size_t i = 0; i < c.njobs; i++)
		report_point(&c, i, out);
	report_end(&c, out);
}

const struct writer *list_writer(enum format f)
{
	return writer_for(PRINTED_LIST, f);
}

const struct writer *compare_writer(enum format f)
{
	return writer_for(PRINTED_COMPARE, f);
}

const struct writer *metrics_writer(enum format f)
{
	return writer_for(PRINTED_METRICS, f);
}

const struct writer *info_writer(enum format f)
{
	return writer_for(PRINTED_INFO, f);
}

const struct writer *new_writer(enum format f)
{
	return writer_for(PRINTED_NEW, f);
}

const struct writer *config_writer(enum format f)
{
	return writer_for(PRINTED_CONFIG, f);
}

const struct writer *check_writer(enum format f)
{
	return writer_for(PRINTED_CHECK, f);
}

const struct writer *grade_writer(enum format f)
{
	return writer_for(PRINTED_GRADE, f);
}

const struct writer *board_writer(enum format f)
{
	return writer_for(PRINTED_BOARD, f);
}

const struct cell_style *cells_for(enum format f)
{
	return f == FORMAT_CSV ? &csv_cells : f == FORMAT_MD ? &md_cells : NULL;
}
