/* The run's report as CSV (csv.c). */
#ifndef GPULAB_EMIT_CSV_H
#define GPULAB_EMIT_CSV_H

#include "emit/writer.h"

/* Its document: a struct report. */
extern const struct writer report_csv;

#endif
