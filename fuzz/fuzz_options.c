/* libFuzzer target: options_parse on argv split from the input at NUL
 * bytes, and the escaping every error line goes through.  Checks: the
 * result is 0 or EXIT_USAGE with a message, and the escaped message is
 * one line of printable text that never carries a control byte. */
#include "escaped.h"
#include "exitcode.h"
#include "config/options.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *argv[FUZZ_MAX_ARGS + 2] = { "gpulab" };
	int argc = 1;
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = 0;
	for (char *a = copy; a <= copy + size && argc <= FUZZ_MAX_ARGS; a += strlen(a) + 1)
		argv[argc++] = a;
	argv[argc] = NULL;
	struct options o;
	char err[512] = "";
	int rc = options_parse(&o, argc, argv, err, sizeof err);
	if (rc != 0 && (rc != EXIT_USAGE || !err[0]))
		abort();
	if (rc == 0 && (!o.command || o.npatterns < 0 || o.npatterns > argc || o.nparams > MAX_KEYVALS))
		abort();
	for (int i = 0; rc == 0 && i < o.nparams; i++)
		if (!options_param(&o, o.params[i].key))
			abort();
	if (rc)
		fuzz_check_escaped(err);
	free(copy);
	return 0;
}
