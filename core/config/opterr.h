/* The one line for a command-line option getopt_long refused. */
#ifndef GPULAB_OPTERR_H
#define GPULAB_OPTERR_H

#include <getopt.h>
#include <stddef.h>

/* getopt_long, whose optstring starts with ':', returned c ('?' or ':')
 * with optopt `opt`; `arg` is argv[optind - 1].  Write into err which
 * option is at fault and how: a long option by its full name (optopt
 * holds its val, not a character), an ambiguous abbreviation with its
 * candidates, an unknown option as typed. */
void opterr_message(const struct option *longopts, int c, int opt, const char *arg,
		    char *err, size_t errlen);

#endif
