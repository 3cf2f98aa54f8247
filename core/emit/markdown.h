/* Markdown (--format md), as NVBench's --md: pipe tables to paste into
 * an issue or a notebook (markdown.c). */
#ifndef GPULAB_EMIT_MARKDOWN_H
#define GPULAB_EMIT_MARKDOWN_H

#include "emit/writer.h"

/* The run's report: one row per point, the failures' messages under it.
 * Its document: a struct report. */
extern const struct writer report_markdown;

#endif
