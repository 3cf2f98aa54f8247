/* The error funnel: every layer may call it (the ground floor, beside
 * exitcode.h). */
#include "config.h"

#include "fail.h"

#include "escape.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* One line on stderr.  It quotes arguments and files, so it is escaped:
 * no control byte or invalid UTF-8 reaches the terminal raw. */
int fail(int code, const char *fmt, ...)
{
	char *msg;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	fputs("gpulab: ", stderr);
	fput_escaped(stderr, n < 0 ? "out of memory for an error message" : msg);
	fputc('\n', stderr);
	if (n >= 0)
		free(msg);
	return code;
}
