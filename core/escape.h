/* Text from arguments and files, made safe for a terminal: an error line
 * quotes what the user or a file gave, and that must not steer the
 * terminal (ESC sequences), break the line, or hide its bytes. */
#ifndef GPULAB_ESCAPE_H
#define GPULAB_ESCAPE_H

#include <stdint.h>
#include <stdio.h>

/* Write s to out, passing valid UTF-8 text through and escaping the rest:
 * C0 controls and DEL as \n, \t, \r or \xNN (ESC is \x1b), a backslash
 * as \\, each byte that is not part of valid UTF-8 (overlong forms,
 * surrogates, code points above U+10FFFF, cut-short sequences) as \xNN,
 * and code points that steer a terminal or reorder text (C1 controls,
 * line and paragraph separators, bidirectional controls) as \uNNNN. */
void fput_escaped(FILE *out, const char *s);

/* s as fput_escaped writes it, into buf (len > 0), for text padded to a
 * column; returns buf.  Where it does not fit, it is cut before the
 * first escape or character that would not fit whole, so the cut never
 * leaves half a UTF-8 sequence or half of a "\x1b". */
const char *escape_into(char *buf, size_t len, const char *s);

/* For the valid UTF-8 sequence of n bytes at s: its code point where it
 * is one fput_escaped writes as \uNNNN (a C1 control, a line or
 * paragraph separator, a bidirectional control); else 0.  emit_json
 * writes those as \uNNNN too, so a JSON report on a terminal is safe. */
uint32_t escape_steering(const char *s, int n);

/* Write s to out as text for HTML or XML (SVG), inside an element or a
 * quoted attribute: & < > " ' as entities, so nothing in s can open a
 * tag, end an attribute or start a script.  What XML forbids even
 * escaped (C0 controls but tab and line feed, U+FFFE, U+FFFF), bytes
 * that are not valid UTF-8, and the code points fput_escaped shows as
 * \uNNNN (they could make a name read other than it is) become U+FFFD,
 * the replacement character, so a reader sees that something was there. */
void fput_html(FILE *out, const char *s);

/* The length (1 to 4) of the valid UTF-8 sequence s starts with, or 0. */
int escape_utf8_len(const char *s);

#endif
