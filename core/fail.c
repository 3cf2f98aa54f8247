/* The error funnel: every layer may call it (the ground floor, beside
 * exitcode.h). */
#include "config.h"

#include "fail.h"

#include "escape.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* One line on stderr.  It quotes arguments and files, so it is escaped:
 * no control byte or invalid UTF-8 reaches the terminal raw.
 *
 * The line is built whole and goes out in one write: stderr is
 * unbuffered, and escaped byte by byte it would be a write(2) a byte.
 * Under a launcher that matters: mpirun forwards each rank's stderr as
 * it reads it, piece by piece and not by lines, so two ranks failing at
 * once had their lines spliced into each other ("gpulab: rank 0: the
 * ranks were not stargpulab: rank 1: started with ...") whenever mpirun
 * was slow to read (one run in five of tests/ranks.sh on two loaded
 * cores).  One write of a line up to PIPE_BUF (4096) bytes reaches the
 * pipe whole, so mpirun reads it whole and no other rank's bytes land
 * inside it. */
int fail(int code, const char *fmt, ...)
{
	char *msg, *line = NULL;
	size_t len = 0;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	const char *text = n < 0 ? "out of memory for an error message" : msg;
	FILE *f = open_memstream(&line, &len);
	if (f) {
		fputs("gpulab: ", f);
		fput_escaped(f, text);
		fputc('\n', f);
	}
	if (f && fclose(f) == 0) {
		fflush(stderr);
		fwrite(line, 1, len, stderr);
		fflush(stderr);
	} else { /* no memory for the line: in pieces, as it can */
		fputs("gpulab: ", stderr);
		fput_escaped(stderr, text);
		fputc('\n', stderr);
	}
	free(line);
	if (n >= 0)
		free(msg);
	return code;
}
