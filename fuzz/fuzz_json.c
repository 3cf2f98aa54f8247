/* libFuzzer target for the JSON reader.  It needs core/records/json.c alone:
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Icore \
 *       fuzz/fuzz_json.c core/records/json.c -o fuzz_json
 *   mkdir -p corpus && ./fuzz_json -dict=fuzz/json.dict -timeout=2 corpus fuzz/corpus/json
 * (new inputs go to the first directory, so the seeds here stay as they are).
 * Beyond not crashing, it checks what the header promises: a refusal
 * says why on one line with its place, and a tree can be walked whole,
 * a packed array (json.h) as doubles and as nodes alike. */
#include "records/json.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int same(double a, double b)
{
	return a == b ? signbit(a) == signbit(b) : isnan(a) && isnan(b);
}

/* A packed array's doubles as they are, then what json_number_at says of
 * each element, which must be what its node says; the nodes a packed
 * array builds must hold the same double, their text reading back to
 * it.  Read before the walk, so that the doubles are seen both before
 * and after json_index builds the nodes. */
static void numbers(const struct json *n)
{
	size_t count = 1;
	const double *v = json_numbers(n, &count);
	if (v ? count != json_len(n) || !count : count != 0)
		abort();
	for (size_t i = 0; i < json_len(n); i++) {
		const struct json *kid = json_index(n, i);
		double x = json_number_at(n, i);
		if (!same(x, json_number(kid)) || (v && (!same(v[i], x) || json_type(kid) != JSON_NUMBER)))
			abort();
		if (json_type(kid) == JSON_NUMBER && !same(strtod(json_number_text(kid), NULL), x))
			abort();
	}
	if (!isnan(json_number_at(n, json_len(n))))
		abort();
}

static void walk(const struct json *n)
{
	uint64_t u;
	switch (json_type(n)) {
	case JSON_NUMBER:
		if (!json_number_text(n) || (json_u64(n, &u) == 0 && strchr(json_number_text(n), '-')))
			abort();
		break;
	case JSON_STRING:
		if (strlen(json_string(n)) > json_string_len(n))
			abort();
		break;
	case JSON_OBJECT:
		for (size_t i = 0; i < json_len(n); i++)
			if (!json_key(n, i))
				abort();
			else
				(void)json_get(n, json_key(n, i)); /* NULL where the key holds a NUL */
		/* fall through */
	case JSON_ARRAY:
		numbers(n);
		for (size_t i = 0; i < json_len(n); i++)
			walk(json_index(n, i));
		break;
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	struct json *j = json_parse((const char *)data, size, err, sizeof err);
	if (j)
		walk(j);
	else if (strncmp(err, "line ", 5) || !strstr(err, ", column ") || strchr(err, '\n'))
		abort();
	json_free(j);
	return 0;
}
