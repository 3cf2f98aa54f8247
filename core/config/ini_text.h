/*
 * The one INI reader: a text in memory read through inih
 * (ini_parse_stream) line by line, for every INI file gpulab reads: the
 * configuration (config/settings.c), the lessons and the learner's
 * progress (learn/).  It counts lines for messages (Debian's inih hands
 * the handler none) and refuses what inih would misread: a NUL byte (inih
 * would end the line there) and a line longer than inih's buffer (it
 * would reach the handler cut in two, the rest as a line of its own).
 *
 * Two ways to read an indented line.  A lesson's continues the key above
 * it (inih's multi-line values: how a paragraph fits 200-byte lines), and
 * the handler sees `indented`.  A configuration is flat: leading blanks
 * go, so no line continues another (an indented second path after
 * `file =` would replace the first), and the lines inih would pass over
 * are refused where they are read: a section never closed, one whose
 * name inih would cut short, a line with no '='.
 */
#ifndef GPULAB_INI_TEXT_H
#define GPULAB_INI_TEXT_H

#include <ini.h>
#include <stddef.h>

/* inih's line buffer (INI_MAX_LINE as distributions build it), less the
 * newline and the NUL. */
#define INI_TEXT_MAX_LINE 198

struct ini_text {
	const char *file, *text;   /* the file's name for messages, and its text[0..len) */
	size_t len, pos;
	int flat;                  /* a configuration's: leading blanks go, malformed lines refused here */
	int max_section;           /* flat: the longest section name taken (inih cuts longer ones) */
	int line;
	int section_line;          /* the line of the section open now */
	int indented;              /* the line read last began with a blank: inih continues the key above */
	int sections;              /* section lines read so far: inih does not say when one starts */
	int failed;
	char *err;
	size_t errlen;
};

/* inih's reader over t (ini_parse_stream's stream is the struct ini_text). */
char *ini_text_reader(char *str, int num, void *stream);

/* "FILE:LINE: message" into t->err, the first only; returns 0 (a handler's "stop"). */
int ini_text_fail(struct ini_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The same at the line of the section open now: inih hands a section to
 * the handler only with its first key, lines below it. */
int ini_text_section_fail(struct ini_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* t's text through inih into handler (whose user is given):  0, or -1
 * with one line in t->err, the handler's or the reader's, or "FILE:LINE:
 * malformed line (expected EXPECTED)" for a line inih could not read. */
int ini_text_parse(struct ini_text *t, ini_handler handler, void *user, const char *expected);

#endif
