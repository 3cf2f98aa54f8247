/* gpulab board's document (emit/board_doc.h) as writers (emit/writer.h):
 * the table, CSV and Markdown (a row a student and GPU model), and JSON
 * (gpulab-board/1, docs/json.md). */
#ifndef GPULAB_EMIT_STANDINGS_H
#define GPULAB_EMIT_STANDINGS_H

#include "emit/board_doc.h"
#include "emit/writer.h"

extern const struct writer standings_table, standings_csv, standings_json, standings_markdown;

#endif
