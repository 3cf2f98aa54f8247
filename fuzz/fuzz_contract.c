/* libFuzzer target: a `gpulab try` kernel's contract line and the
 * compiler's messages (plugins/try/contract.c, log.c), both read from
 * the learner's file or NVRTC's log.  Whatever the text, they end; a
 * contract accepted holds within its limits; a rewritten log has the
 * log's lines, each of them inert text (escaped: the compiler quotes the
 * learner's source, and the log goes straight to a terminal). */
#include "../plugins/try/contract.h"
#include "../plugins/try/log.h"
#include "escaped.h"

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
	if (fclose(f) != 0)
		return;
	size_t lines = 0;
	for (const char *p = s; (p = strchr(p, '\n')); p++)
		lines++;
	for (const char *p = out, *end; p < out + len; p = end + 1) {
		end = memchr(p, '\n', (size_t)(out + len - p));
		if (!end)
			end = out + len;
		else if (lines-- == 0)
			abort(); /* a line break the log did not have */
		for (const char *q = p, *tab; q < end; q = tab + 1) { /* tabs stay: the source is indented */
			tab = memchr(q, '\t', (size_t)(end - q));
			if (!tab)
				tab = end;
			fuzz_check_inert(q, tab);
		}
	}
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
