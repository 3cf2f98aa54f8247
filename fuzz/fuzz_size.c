/* libFuzzer target: parse_size, against a slow reference written apart
 * (128-bit arithmetic, the exponent by repeated multiplication) that
 * must agree on every input: the same verdict, the same value. */
#include "config/size.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

/* Decimal digits into a 128-bit value saturating above 2^64; the end. */
static const char *ref_digits(const char *s, u128 *v)
{
	*v = 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		*v = *v * 10 + (u128)(*s - '0');
		if (*v > ((u128)1 << 64))
			*v = ((u128)1 << 64) + 1;
	}
	return s;
}

static int ref_size(const char *s, uint64_t *out)
{
	u128 v, e, r = 1;
	const char *p = ref_digits(s, &v);
	if (p == s || v > UINT64_MAX)
		return -1;
	if (*p == '^') {
		const char *q = ref_digits(p + 1, &e);
		if (q == p + 1 || *q)
			return -1;
		for (u128 i = 0; i < e && r <= UINT64_MAX; i++) {
			r *= v;
			if (v <= 1)
				break; /* 0^e (e > 0) and 1^e are settled after one step */
		}
		if (r > UINT64_MAX)
			return -1;
		*out = (uint64_t)r;
		return 0;
	}
	const char *units = "KkMmGgTt";
	const char *u = *p ? strchr(units, *p) : NULL;
	if (*p && (!u || p[1]))
		return -1;
	r = v << (u ? 10 * (1 + (u - units) / 2) : 0);
	if (r > UINT64_MAX)
		return -1;
	*out = (uint64_t)r;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	uint64_t a = 0, b = 0;
	int ra = parse_size(s, &a), rb = ref_size(s, &b);
	if (ra != rb || (ra == 0 && a != b))
		abort();
	free(s);
	return 0;
}
