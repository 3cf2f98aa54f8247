/* What metrics, info, new and check print, as writers (emit/writer.h): the
 * terminal's text, one JSON document (docs/json.md), or a table in CSV or
 * Markdown.  Each document
 * is handed whole, and the writer's end step prints it. */
#ifndef GPULAB_EMIT_FACTS_H
#define GPULAB_EMIT_FACTS_H

#include "emit/writer.h"
#include "run/device.h"

/* info's GPUs, each as device_open_at reads it. */
struct info_doc {
	const struct device_info *v;
	size_t n;
};

/* new's directory NAME/ and the files written in it. */
struct new_doc {
	const char *name;
	const char *const *files; /* "NAME.cu", ... */
	size_t n;
};

/* check's FILEs, each as it was loaded and checked ... */
struct check_shown {
	const char *file;
	char plugin[64];          /* its name; "" where it was not loaded */
	unsigned abi, abi_minor;
	size_t exercises;
	int problems;             /* how many */
	int refused;              /* no plugin at all (stderr said why) */
};

/* ... and the problems found, "FILE\0PROBLEM\0" each, in order. */
struct check_doc {
	const struct check_shown *v;
	size_t n;
	const char *problems;
	size_t len;
};

extern const struct writer check_json, check_csv, check_markdown;

extern const struct writer metrics_table, metrics_json, metrics_csv, metrics_markdown, info_json, info_csv,
	info_markdown, new_table, new_json;

#endif
