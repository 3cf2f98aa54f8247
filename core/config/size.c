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

int parse_size(const char *s, uint64_t *out)
{
	const char *p;
	uint64_t v;

	if (!s || parse_u64(s, &p, &v) != 0)
		return -1;
	if (*p == '^') {
		uint64_t e;
		if (parse_u64(p + 1, &p, &e) != 0 || *p)
			return -1;
		uint64_t r = 1;
		for (uint64_t i = 0; i < e; i++) {
			if (v && r > UINT64_MAX / v)
				return -1;
			r *= v;
		}
		*out = r;
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
