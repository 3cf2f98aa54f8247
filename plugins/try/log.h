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

/* The name the contract's checks are compiled under, after the learner's
 * source (compile.c): its messages are gpulab's own. */
#define LOG_CONTRACT "<gpulab contract>"

/* The log with only the messages about the file `own` and the contract's
 * checks (a message is a "NAME(LINE): " line and the indented lines
 * under it), so that no other file's text reaches a person; malloc'ed,
 * NULL out of memory. */
char *log_keep_own(const char *log, const char *own);

#ifdef __cplusplus
}
#endif

#endif
