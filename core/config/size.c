#include "config/size.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

static int parse_u64(const char *s, const char **end, uint64_t *out)
{
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	char *e;
	unsigned long long v = strtoull(s, &e, 10);
	if (errno == ERANGE)
		return -1;
	*out = v;
	*end = e;
	return 0;
}

static int suffix_shift(char c)
{
	switch (c) {
	case 'K': case 'k': return 10;
	case 'M': case 'm': return 20;
	case 'G': case 'g': return 30;
	case 'T': case 't': return 40;
	default: return -1;
	}
}

/* Is the exponent string s (digits only, up to its end) zero?  0^e and
 * 1^e have a value however long e is, so e is not parsed as a number. */
static int size_digits_zero(const char *s)
{
	if (!*s)
		return -1;
	int zero = 1;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return -1;
		zero &= *s == '0';
	}
	return zero;
}

/* v^e for v >= 2: 2^64 overflows, so an exponent of 64 or more always
 * does, and at most 63 multiplications are ever needed. */
static int size_power(uint64_t v, const char *exp, uint64_t *out)
{
	const char *end;
	uint64_t e, r = 1;
	if (parse_u64(exp, &end, &e) != 0 || *end || e >= 64)
		return -1;
	for (uint64_t i = 0; i < e; i++) {
		if (r > UINT64_MAX / v)
			return -1;
		r *= v;
	}
	*out = r;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	const char *p;
	uint64_t v;

	if (!s || parse_u64(s, &p, &v) != 0)
		return -1;
	if (*p == '^') {
		if (v >= 2)
			return size_power(v, p + 1, out);
		int zero = size_digits_zero(p + 1);
		if (zero < 0)
			return -1;
		*out = v == 1 || zero; /* 0^0 = 1 */
		return 0;
	}
	if (*p) {
		int shift = suffix_shift(*p);
		if (shift < 0 || p[1] || v > (UINT64_MAX >> shift))
			return -1;
		v <<= shift;
	}
	*out = v;
	return 0;
}
