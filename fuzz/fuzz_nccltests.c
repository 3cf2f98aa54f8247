/* libFuzzer target for the reader of nccl-tests' output that `gpulab
 * report --nccl-tests` draws beside a record (core/records/nccltests.c).
 * Beyond not crashing, it checks what the reader promises: a refusal is
 * one escaped line naming the file; what it reads is at least one row,
 * each of a named collective, a size from 1 byte to 2^52, and a finite
 * time and busbw that are not negative. */
#include "escaped.h"
#include "exitcode.h"
#include "records/nccltests.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024];
	struct nccl_figures f;
	int rc = nccl_figures_parse(&f, "f.txt", (const char *)data, size, err, sizeof err);
	if (rc) {
		if ((rc != EXIT_USAGE && rc != EXIT_NOMEM) || strncmp(err, "f.txt: ", 7))
			abort();
		fuzz_check_escaped(err);
	} else {
		if (f.n == 0)
			abort();
		for (size_t i = 0; i < f.n; i++) {
			const struct nccl_figure *v = &f.v[i];
			if (!v->collective[0] || strlen(v->collective) >= sizeof v->collective || !(v->bytes >= 1)
			    || v->bytes > 0x1p52 || !isfinite(v->us) || v->us < 0 || !isfinite(v->busbw) || v->busbw < 0)
				abort();
		}
	}
	nccl_figures_free(&f);
	return 0;
}
