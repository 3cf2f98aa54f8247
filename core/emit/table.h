/* The run's report as a table for people (table.c). */
#ifndef GPULAB_EMIT_TABLE_H
#define GPULAB_EMIT_TABLE_H

#include "emit/writer.h"

/* Its document: a struct report. */
extern const struct writer report_table;

#endif
