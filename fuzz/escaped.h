/* The check shared by the fuzz targets whose refusals quote their input:
 * every error line goes out through fput_escaped (fail() in
 * core/cli/main.c), so what must hold is that the escaped message is one
 * line of printable text.  The raw message may hold any byte the input
 * gave: a record's JSON can spell a newline or ESC in a string. */
#ifndef GPULAB_FUZZ_ESCAPED_H
#define GPULAB_FUZZ_ESCAPED_H

#include "escape.h"

#include <stdlib.h>
#include <string.h>

/* Every byte of [p, end) is printable ASCII or part of a valid UTF-8
 * sequence, and none is a control or a code point that steers a
 * terminal (a C1 control, a line separator, a bidirectional control). */
static inline void fuzz_check_inert(const char *p, const char *end)
{
	while (p < end) {
		int n = escape_utf8_len(p);
		if (n == 0 || p + n > end || (n == 1 && ((unsigned char)*p < 0x20 || *p == 0x7f)) || escape_steering(p, n))
			abort();
		p += n;
	}
}

/* The message, escaped, is one line of inert text. */
static inline void fuzz_check_escaped(const char *msg)
{
	static char buf[1 << 16];
	escape_into(buf, sizeof buf, msg);
	fuzz_check_inert(buf, buf + strlen(buf));
}

#endif
