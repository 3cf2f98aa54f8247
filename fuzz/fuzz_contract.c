/* libFuzzer target: a `gpulab try` kernel's contract line and the
 * compiler's messages (plugins/try/contract.c, log.c), both read from
 * the learner's file or NVRTC's log.  Whatever the text, they end; a
 * contract accepted holds within its limits; a rewritten log is no
 * longer than the log, less one ')' per line. */
#include "../plugins/try/contract.h"
#include "../plugins/try/log.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_contract(const char *s, size_t n)
{
	struct contract c;
	char err[512];
	if (contract_parse(s, n, &c, err, sizeof err) != 0) {
		if (!err[0])
			abort(); /* a refusal always says why */
		return;
	}
	unsigned long threads = (unsigned long)c.block_x * c.block_y;
	if (threads < 1 || threads > CONTRACT_MAX_THREADS || c.tile_x < 1 || c.tile_y < 1 || c.line < 1)
		abort();
}

static void check_log(const char *s)
{
	char *out = NULL, first[256];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	if (!f)
		return;
	log_write(s, f);
	fclose(f);
	if (len > strlen(s))
		abort();
	free(out);
	log_first_error(s, first, sizeof first);
	if (strlen(first) >= sizeof first)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	check_contract(s, size);
	check_log(s);
	free(s);
	return 0;
}
