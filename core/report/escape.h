/* Text from arguments and files, made safe for a terminal: an error line
 * quotes what the user or a file gave, and that must not steer the
 * terminal (ESC sequences), break the line, or hide its bytes. */
#ifndef GPULAB_ESCAPE_H
#define GPULAB_ESCAPE_H

#include <stdio.h>

/* Write s to out, passing valid UTF-8 text through and escaping the rest:
 * C0 controls and DEL as \n, \t, \r or \xNN (ESC is \x1b), a backslash
 * as \\, each byte that is not part of valid UTF-8 (overlong forms,
 * surrogates, code points above U+10FFFF, cut-short sequences) as \xNN,
 * and code points that steer a terminal or reorder text (C1 controls,
 * line and paragraph separators, bidirectional controls) as \uNNNN. */
void fput_escaped(FILE *out, const char *s);

/* The length (1 to 4) of the valid UTF-8 sequence s starts with, or 0. */
int escape_utf8_len(const char *s);

#endif
