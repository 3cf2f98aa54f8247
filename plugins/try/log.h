/*
 * The compiler's messages, as a learner's editor reads them: NVRTC writes
 * "file.cu(12): error: ..."; gpulab shows "file.cu:12: error: ...", the
 * form of gcc and nvcc's host side, which editors and terminals link to
 * the line.  Plain C: the CPU tests and the fuzzer read it too.
 */
#ifndef GPULAB_TRY_LOG_H
#define GPULAB_TRY_LOG_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The log with each "NAME(LINE): " at the start of a line rewritten as
 * "NAME:LINE: ", written to out, each line escaped as fput_escaped does
 * (core/escape.h): the lines break where the log's do. */
void log_write(const char *log, FILE *out);

/* The first line of the log that holds "error", rewritten the same way
 * but not escaped (whoever prints it escapes it), into buf (cut to fit);
 * "" if none. */
void log_first_error(const char *log, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
