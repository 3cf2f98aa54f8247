/*
 * An exercise's gate (plugin ABI 2.1): the cases `gpulab try` runs and
 * verifies before it times anything.  The declaration is text,
 * "n=1;n=31;rows=33 cols=31": cases separated by ';', each a few
 * key=value pairs separated by spaces, with the keys and values of the
 * command line's -n and -p.
 */
#ifndef GPULAB_GATE_H
#define GPULAB_GATE_H

#include "config/options.h"

#include <gpulab/plugin.h>

#include <stddef.h>

#define GATE_MAX_KEYS 8

struct gate_case {
	struct keyval kv[GATE_MAX_KEYS]; /* point into text */
	int nkeys;
	char text[256];
};

/* How many cases the gate has (0 for NULL or ""). */
size_t gate_count(const char *gate);

/* Case i of the gate into c.  0, or -1 with why in err: a case too long,
 * with too many keys, or a word that is not key=value. */
int gate_case_at(const char *gate, size_t i, struct gate_case *c, char *err, size_t errlen);

/* Does every case parse, and name only keys e takes, with one value
 * each that e takes?  0, or -1 with why. */
int gate_check(const struct gpulab_exercise *e, char *err, size_t errlen);

#endif
