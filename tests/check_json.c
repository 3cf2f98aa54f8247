/* The JSON reader: every type with exact values, escapes and UTF-8,
 * integers past 2^53, every refusal with its exact message (line and
 * column), the limits, every truncation of a record, files, and a round
 * trip of a record in the form report.c writes it. */
#include "emit/field.h"
#include "records/json.h"
#include "testutil.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char err[512];

static struct json *parse(const char *s)
{
	return json_parse(s, strlen(s), err, sizeof err);
}

static struct json *parse_ok(const char *s)
{
	struct json *j = parse(s);
	ck_assert_msg(j != NULL, "refused %s: %s", s, err);
	ck_assert_str_eq(err, "");
	return j;
}

/* text[0..len) is refused with exactly msg, on one line. */
static void refused_n(const char *text, size_t len, const char *msg)
{
	struct json *j = json_parse(text, len, err, sizeof err);
	ck_assert_msg(j == NULL, "accepted '%s'", text);
	ck_assert_msg(!strcmp(err, msg), "'%s':\n  said     %s\n  expected %s", text, err, msg);
	ck_assert(strchr(err, '\n') == NULL);
}

static void refused(const char *text, const char *msg)
{
	refused_n(text, strlen(text), msg);
}

/* --- values ------------------------------------------------------------------ */
START_TEST(every_type)
{
	struct json *j = parse_ok(" {\"n\": null, \"t\": true, \"f\": false, \"i\": -12, \"d\": 1.5e3,\r\n"
				  "\t\"s\": \"x\", \"a\": [1, [2, []]], \"o\": {\"k\": {}}} ");
	static const char *keys[] = { "n", "t", "f", "i", "d", "s", "a", "o" };
	ck_assert_int_eq(json_type(j), JSON_OBJECT);
	ck_assert_uint_eq(json_len(j), 8);
	for (size_t i = 0; i < 8; i++) /* members in the order written */
		ck_assert_str_eq(json_key(j, i), keys[i]);
	ck_assert_int_eq(json_type(json_get(j, "n")), JSON_NULL);
	ck_assert_int_eq(json_bool(json_get(j, "t")), 1);
	ck_assert_int_eq(json_bool(json_get(j, "f")), 0);
	ck_assert(json_number(json_get(j, "i")) == -12.0);
	ck_assert_str_eq(json_number_text(json_get(j, "i")), "-12");
	ck_assert(json_number(json_get(j, "d")) == 1500.0);
	ck_assert_str_eq(json_number_text(json_get(j, "d")), "1.5e3");
	ck_assert_str_eq(json_string(json_get(j, "s")), "x");
	ck_assert_uint_eq(json_string_len(json_get(j, "s")), 1);
	const struct json *a = json_get(j, "a");
	ck_assert_int_eq(json_type(a), JSON_ARRAY);
	ck_assert_uint_eq(json_len(a), 2);
	ck_assert(json_number(json_index(a, 0)) == 1.0);
	ck_assert_uint_eq(json_len(json_index(a, 1)), 2);
	ck_assert(json_number(json_index(json_index(a, 1), 0)) == 2.0);
	ck_assert_int_eq(json_type(json_index(json_index(a, 1), 1)), JSON_ARRAY);
	ck_assert_uint_eq(json_len(json_index(json_index(a, 1), 1)), 0);
	ck_assert_ptr_eq(json_index(j, 7), json_get(j, "o")); /* an object's members by position too */
	ck_assert_int_eq(json_type(json_get(json_get(j, "o"), "k")), JSON_OBJECT);
	json_free(j);

	/* a bare value is a document too */
	j = parse_ok("\"only\"");
	ck_assert_str_eq(json_string(j), "only");
	json_free(j);
	j = parse_ok("null");
	ck_assert_int_eq(json_type(j), JSON_NULL);
	json_free(j);
}
END_TEST

START_TEST(accessors_forgive)
{
	struct json *j = parse_ok("{\"s\": \"x\", \"a\": [1]}");
	uint64_t u = 7;
	ck_assert_int_eq(json_type(NULL), JSON_NONE);
	ck_assert_ptr_null(json_get(NULL, "s"));
	ck_assert_ptr_null(json_get(j, "missing"));
	ck_assert_ptr_null(json_get(j, NULL));
	ck_assert_ptr_null(json_get(json_get(j, "a"), "s")); /* not an object */
	ck_assert_ptr_null(json_index(j, 2));
	ck_assert_ptr_null(json_index(json_get(j, "s"), 0));
	ck_assert_ptr_null(json_key(json_get(j, "a"), 0));
	ck_assert_uint_eq(json_len(NULL), 0);
	ck_assert_uint_eq(json_len(json_get(j, "s")), 0);
	ck_assert_ptr_null(json_string(json_get(j, "a")));
	ck_assert_uint_eq(json_string_len(NULL), 0);
	ck_assert(isnan(json_number(json_get(j, "s"))));
	ck_assert_ptr_null(json_number_text(json_get(j, "s")));
	ck_assert_int_eq(json_u64(json_get(j, "s"), &u), -1);
	ck_assert_int_eq(json_u64(json_get(j, "nothing"), &u), -1);
	ck_assert_uint_eq(u, 7); /* untouched on failure */
	ck_assert_int_eq(json_bool(json_get(j, "s")), -1);
	ck_assert_int_eq(json_bool(NULL), -1);
	json_free(j);
	json_free(NULL);
}
END_TEST

START_TEST(escapes)
{
	/* every short escape, BMP escapes in each UTF-8 length, a pair */
	struct json *j = parse_ok("\"\\\"\\\\\\/\\b\\f\\n\\r\\t|\\u0041\\u00e9\\u20AC\\ud83d\\ude00|\\u007f\"");
	ck_assert_str_eq(json_string(j), "\"\\/\b\f\n\r\t|A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80|\x7f");
	json_free(j);
	/* raw UTF-8 of each length passes through as it is */
	j = parse_ok("[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\xef\xbf\xbd\"]");
	ck_assert_str_eq(json_string(json_index(j, 0)), "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\xef\xbf\xbd");
	json_free(j);
	/* \u0000 is a NUL inside; the length says so */
	j = parse_ok("{\"k\\u0000x\": \"a\\u0000b\"}");
	ck_assert_uint_eq(json_string_len(json_index(j, 0)), 3);
	ck_assert(!memcmp(json_string(json_index(j, 0)), "a\0b", 4));
	ck_assert(!memcmp(json_key(j, 0), "k\0x", 4));
	ck_assert_ptr_null(json_get(j, "k")); /* a key is matched whole */
	json_free(j);
	/* \ud800\udc00 and \udbff\udfff: the ends of the supplementary planes */
	j = parse_ok("\"\\uD800\\uDC00\\udbff\\udfff\"");
	ck_assert_str_eq(json_string(j), "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf");
	json_free(j);
}
END_TEST

START_TEST(bad_strings)
{
	refused("\"\\x\"", "line 1, column 3: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u after '\\', "
			   "found 'x'");
	refused("\"\\u12g4\"", "line 1, column 2: expected 4 hex digits after \\u");
	refused("\"\\u12\"", "line 1, column 2: expected 4 hex digits after \\u");
	refused("\"\\ud800\"", "line 1, column 2: unpaired surrogate \\uD800");
	refused("\"\\ud800x\"", "line 1, column 2: unpaired surrogate \\uD800");
	refused("\"\\ud800\\u0041\"", "line 1, column 2: unpaired surrogate \\uD800");
	refused("\"\\ud800\\ud800\"", "line 1, column 2: unpaired surrogate \\uD800");
	refused("\"ab\\udc00\\ud800\"", "line 1, column 4: unpaired surrogate \\uDC00");
	refused("\"a\tb\"", "line 1, column 3: control character 0x09 in a string (it must be escaped)");
	refused("[\"a\nb\"]", "line 1, column 4: control character 0x0a in a string (it must be escaped)");
	refused("\"\xff\"", "line 1, column 2: invalid UTF-8 in a string (byte 0xff)");
	refused("\"\xc0\xaf\"", "line 1, column 2: invalid UTF-8 in a string (byte 0xc0)");            /* overlong '/' */
	refused("\"\xe0\x80\xaf\"", "line 1, column 2: invalid UTF-8 in a string (byte 0xe0)");        /* overlong */
	refused("\"\xed\xa0\x80\"", "line 1, column 2: invalid UTF-8 in a string (byte 0xed)");        /* U+D800 */
	refused("\"\xf4\x90\x80\x80\"", "line 1, column 2: invalid UTF-8 in a string (byte 0xf4)");    /* > U+10FFFF */
	refused("\"x\xe2\x82\"", "line 1, column 3: invalid UTF-8 in a string (byte 0xe2)");           /* cut short */
	refused("\"\x80\"", "line 1, column 2: invalid UTF-8 in a string (byte 0x80)");                /* lone continuation */
	refused("\"\xf8\x88\x80\x80\x80\"", "line 1, column 2: invalid UTF-8 in a string (byte 0xf8)"); /* 5 bytes */
	refused("\"\xc3\x28\"", "line 1, column 2: invalid UTF-8 in a string (byte 0xc3)");            /* bad continuation */
	refused("\"abc", "line 1, column 1: string not closed before the end of the input");
	refused("\"abc\\\"", "line 1, column 1: string not closed before the end of the input");
	refused("\"abc\\", "line 1, column 1: string not closed before the end of the input");
	refused_n("\"a\0b\"", 5, "line 1, column 3: control character 0x00 in a string (it must be escaped)");
}
END_TEST

/* --- numbers ----------------------------------------------------------------- */
static void expect_number(const char *text, double v)
{
	struct json *j = parse_ok(text);
	ck_assert_msg(json_number(j) == v && signbit(json_number(j)) == signbit(v), "%s read as %.17g", text,
		      json_number(j));
	ck_assert_str_eq(json_number_text(j), text);
	json_free(j);
}

START_TEST(numbers)
{
	expect_number("0", 0.0);
	expect_number("-0", -0.0);
	expect_number("-0.0", -0.0);
	expect_number("1E+2", 100.0);
	expect_number("1e-2", 0.01);
	expect_number("123.456e-7", 123.456e-7);
	expect_number("-9.5", -9.5);
	expect_number("1.7976931348623157e308", 1.7976931348623157e308);
	expect_number("1e-400", 0.0); /* underflow reads as zero; only overflow is refused */
	expect_number("0.1", 0.1);
}
END_TEST

static uint64_t expect_u64(const char *text)
{
	uint64_t u = 0;
	struct json *j = parse_ok(text);
	ck_assert_msg(json_u64(j, &u) == 0, "json_u64 refused %s", text);
	json_free(j);
	return u;
}

static void expect_not_u64(const char *text)
{
	uint64_t u = 0;
	struct json *j = parse_ok(text);
	ck_assert_msg(json_u64(j, &u) == -1, "json_u64 took %s", text);
	json_free(j);
}

START_TEST(big_integers)
{
	ck_assert_uint_eq(expect_u64("18446744073709551615"), UINT64_MAX);
	ck_assert_uint_eq(expect_u64("9007199254740993"), 9007199254740993ull); /* 2^53 + 1: no double holds it */
	ck_assert_uint_eq(expect_u64("9007199254740992"), 9007199254740992ull);
	ck_assert_uint_eq(expect_u64("0"), 0);
	ck_assert_uint_eq(expect_u64("42"), 42);
	expect_not_u64("18446744073709551616"); /* 2^64 */
	expect_not_u64("99999999999999999999");
	expect_not_u64("-1");
	expect_not_u64("-0");
	expect_not_u64("1.5");
	expect_not_u64("1.0"); /* whole, but not written as an integer */
	expect_not_u64("1e3");
	/* the double beside it is the nearest one, and the text is kept */
	struct json *j = parse_ok("[9007199254740993, 18446744073709551615]");
	ck_assert(json_number(json_index(j, 0)) == 9007199254740992.0);
	ck_assert(json_number(json_index(j, 1)) == 18446744073709551616.0);
	ck_assert_str_eq(json_number_text(json_index(j, 0)), "9007199254740993");
	json_free(j);
}
END_TEST

/* --- refusals ---------------------------------------------------------------- */
START_TEST(bad_syntax)
{
	refused("[1,]", "line 1, column 4: expected a value after ',' (JSON has no trailing commas)");
	refused("{\"a\": 1,}", "line 1, column 9: expected a key after ',' (JSON has no trailing commas)");
	refused("[1,\n  ]", "line 2, column 3: expected a value after ',' (JSON has no trailing commas)");
	refused("[NaN]", "line 1, column 2: expected a value, found 'N'");
	refused("[Infinity]", "line 1, column 2: expected a value, found 'I'");
	refused("-Infinity", "line 1, column 2: expected a digit after '-', found 'I'");
	refused("{\"x\": nan}", "line 1, column 7: expected a value (true, false or null?)");
	refused("[01]", "line 1, column 2: a number may not have leading zeros");
	refused("-012", "line 1, column 1: a number may not have leading zeros");
	refused("00", "line 1, column 1: a number may not have leading zeros");
	refused(".5", "line 1, column 1: expected a value, found '.'");
	refused("1.", "line 1, column 3: expected a digit after '.', found the end of the input");
	refused("1.e5", "line 1, column 3: expected a digit after '.', found 'e'");
	refused("1e+", "line 1, column 4: expected a digit in the exponent, found the end of the input");
	refused("+1", "line 1, column 1: expected a value, found '+'");
	refused("0x10", "line 1, column 2: expected the end of the input after the value, found 'x'");
	refused("1e400", "line 1, column 1: number too large for a double");
	refused("[-1e999]", "line 1, column 2: number too large for a double");
	refused("['a']", "line 1, column 2: expected a value, found '''");
	refused("{\"a\": 1 // c\n}", "line 1, column 9: expected ',' or '}', found '/'");
	refused("[1 2]", "line 1, column 4: expected ',' or ']', found '2'");
	refused("{\"a\" 1}", "line 1, column 6: expected ':', found '1'");
	refused("{a: 1}", "line 1, column 2: expected a key in double quotes, found 'a'");
	refused("{1: 1}", "line 1, column 2: expected a key in double quotes, found '1'");
	refused("", "line 1, column 1: expected a value, found the end of the input");
	refused(" \n ", "line 2, column 2: expected a value, found the end of the input");
	refused("1 2", "line 1, column 3: expected the end of the input after the value, found '2'");
	refused("{} {}", "line 1, column 4: expected the end of the input after the value, found '{'");
	refused("\xef\xbb\xbf{}", "line 1, column 1: expected a value, found byte 0xef"); /* no BOM */
	refused("tru", "line 1, column 1: expected a value (true, false or null?)");
	refused("True", "line 1, column 1: expected a value, found 'T'");
	refused("nulls", "line 1, column 5: expected the end of the input after the value, found 's'");
	refused("[", "line 1, column 2: expected a value, found the end of the input");
	refused("{", "line 1, column 2: expected a key in double quotes, found the end of the input");
	refused("{\"a\":}", "line 1, column 6: expected a value, found '}'");
	refused("{\"a\": 1,\n \"b\": 2\n \"c\": 3}", "line 3, column 2: expected ',' or '}', found '\"'");
	refused("[1,\f2]", "line 1, column 4: expected a value, found byte 0x0c"); /* not JSON whitespace */
	refused_n("[1,\0 2]", 7, "line 1, column 4: expected a value, found byte 0x00");
	refused_n("[1]\0", 4, "line 1, column 4: expected the end of the input after the value, found byte 0x00");
	/* no text at all */
	ck_assert_ptr_null(json_parse(NULL, 0, err, sizeof err));
	ck_assert_str_eq(err, "line 1, column 1: expected a value, found the end of the input");
	ck_assert_ptr_null(json_parse("[", 1, NULL, 0)); /* and nowhere to say why */
}
END_TEST

START_TEST(duplicate_keys)
{
	struct json *j;
	refused("{\"a\":1,\"b\":2,\"a\":3}", "line 1, column 14: duplicate key \"a\"");
	refused("{\"x\": {\"a\": 1,\n  \"b\": 2, \"b\": 3, \"a\": 4}}", "line 2, column 11: duplicate key \"b\"");
	refused("{\"a\\u0000b\": 1, \"a\\u0000b\": 2}", "line 1, column 17: duplicate key \"a?b\"");
	/* the same key in different objects, and keys alike up to a NUL, are fine */
	j = parse_ok("[{\"a\": 1}, {\"a\": 2}, {\"a\\u0000b\": 1, \"a\\u0000c\": 2, \"a\": 3}]");
	ck_assert(json_number(json_get(json_index(j, 1), "a")) == 2.0);
	ck_assert(json_number(json_get(json_index(j, 2), "a")) == 3.0);
	json_free(j);
	/* an escaped key is the same key as its plain spelling */
	refused("{\"A\": 1, \"\\u0041\": 2}", "line 1, column 10: duplicate key \"A\"");
}
END_TEST

/* A large object costs n log n to check, not n^2: 200000 keys, then the
 * same with the first one repeated at the end. */
START_TEST(duplicate_keys_at_scale)
{
	size_t n = 200000, cap = n * 24 + 64, k = 0;
	char *s = malloc(cap);
	s[k++] = '{';
	for (size_t i = 0; i < n; i++)
		k += (size_t)snprintf(s + k, cap - k, "%s\"k%zu\": %zu", i ? ", " : "", i, i);
	s[k] = '}';
	struct json *j = json_parse(s, k + 1, err, sizeof err);
	ck_assert_msg(j != NULL, "%s", err);
	ck_assert_uint_eq(json_len(j), n);
	ck_assert_str_eq(json_key(j, n - 1), "k199999");
	json_free(j);
	k += (size_t)snprintf(s + k, cap - k, ", \"k0\": 1}");
	ck_assert_ptr_null(json_parse(s, k, err, sizeof err));
	ck_assert_msg(strstr(err, ": duplicate key \"k0\""), "%s", err);
	free(s);
}
END_TEST

/* --- limits ------------------------------------------------------------------ */
static char *nested(size_t depth, const char *open, const char *inner, const char *close)
{
	size_t lo = strlen(open), lc = strlen(close), li = strlen(inner);
	char *s = malloc(depth * (lo + lc) + li + 1), *p = s;
	for (size_t i = 0; i < depth; i++, p += lo)
		memcpy(p, open, lo);
	memcpy(p, inner, li), p += li;
	for (size_t i = 0; i < depth; i++, p += lc)
		memcpy(p, close, lc);
	*p = 0;
	return s;
}

START_TEST(depth_limit)
{
	char *s = nested(JSON_MAX_DEPTH, "[", "1", "]");
	struct json *j = parse_ok(s);
	const struct json *n = j;
	for (int i = 0; i < JSON_MAX_DEPTH; i++)
		n = json_index(n, 0);
	ck_assert(json_number(n) == 1.0);
	json_free(j);
	free(s);
	s = nested(JSON_MAX_DEPTH + 1, "[", "", "]");
	refused(s, "line 1, column 65: nested deeper than 64 arrays and objects");
	free(s);
	s = nested(JSON_MAX_DEPTH + 1, "{\"a\":", "1", "}");
	refused(s, "line 1, column 321: nested deeper than 64 arrays and objects");
	free(s);
	/* a million levels: refused at the limit, the stack never deeper */
	s = nested(1000000, "[", "", "");
	refused(s, "line 1, column 65: nested deeper than 64 arrays and objects");
	free(s);
}
END_TEST

START_TEST(node_limit)
{
	/* the root and JSON_MAX_NODES - 1 elements fit; one more does not.
	 * The elements are empty arrays: an array of numbers alone would be
	 * packed, its numbers counted against JSON_MAX_NUMBERS instead (the
	 * tests below) */
	size_t n = JSON_MAX_NODES - 1, len = 3 * n + 1;
	char *s = malloc(len + 3);
	s[0] = '[';
	for (size_t i = 0; i < n; i++)
		s[1 + 3 * i] = '[', s[2 + 3 * i] = ']', s[3 + 3 * i] = ',';
	s[len - 1] = ']';
	struct json *j = json_parse(s, len, err, sizeof err);
	ck_assert_msg(j != NULL, "%s", err);
	ck_assert_uint_eq(json_len(j), n);
	json_free(j);
	s[len - 1] = ',', s[len] = '[', s[len + 1] = ']', s[len + 2] = ']';
	ck_assert_ptr_null(json_parse(s, len + 3, err, sizeof err));
	ck_assert_str_eq(err, "line 1, column 3145727: more than 1048576 values");
	free(s);
}
END_TEST

/* --- packed arrays (json.h) -------------------------------------------------- */
START_TEST(packed_arrays)
{
	static const char *const text[] = { "1", "2.5", "-0", "1000", "0.0034", "1.5", "-0.007" };
	size_t count = 99;
	uint64_t u;
	struct json *j = parse_ok("[1, 2.5, -0, 1e3, 0.0034, 1.50, -7e-3]");
	const double *v = json_numbers(j, &count);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(count, 7);
	ck_assert_uint_eq(json_len(j), 7);
	ck_assert(v[0] == 1.0 && v[1] == 2.5 && v[2] == 0.0 && signbit(v[2]) && v[3] == 1000.0);
	ck_assert(v[4] == 0.0034 && v[5] == 1.5 && v[6] == -0.007);
	for (size_t i = 0; i < 7; i++)
		ck_assert(json_number_at(j, i) == v[i]);
	ck_assert(isnan(json_number_at(j, 7)));
	/* json_index builds the nodes once; their text is rebuilt, shortest first */
	const struct json *k = json_index(j, 4);
	ck_assert_int_eq(json_type(k), JSON_NUMBER);
	ck_assert(json_number(k) == 0.0034);
	ck_assert_ptr_eq(json_index(j, 4), k);
	for (size_t i = 0; i < 7; i++)
		ck_assert_str_eq(json_number_text(json_index(j, i)), text[i]);
	ck_assert_ptr_null(json_index(j, 7));
	ck_assert_int_eq(json_u64(json_index(j, 0), &u), 0);
	ck_assert_uint_eq(u, 1);
	ck_assert_int_eq(json_u64(json_index(j, 2), &u), -1);
	ck_assert_ptr_eq(json_numbers(j, NULL), v); /* the doubles stay */
	ck_assert(json_number_at(j, 6) == -0.007);
	json_free(j);

	/* nothing else is packed; json_number_at reads as json_index does */
	j = parse_ok("{\"e\": [], \"o\": {\"a\": 1}, \"s\": \"x\"}");
	ck_assert_ptr_null(json_numbers(json_get(j, "e"), &count));
	ck_assert_uint_eq(count, 0);
	count = 99;
	ck_assert_ptr_null(json_numbers(json_get(j, "o"), &count));
	ck_assert_uint_eq(count, 0);
	ck_assert_ptr_null(json_numbers(json_get(j, "s"), NULL));
	ck_assert_ptr_null(json_numbers(NULL, &count));
	ck_assert(json_number_at(json_get(j, "o"), 0) == 1.0);
	ck_assert(isnan(json_number_at(j, 0)));
	ck_assert(isnan(json_number_at(json_get(j, "e"), 0)));
	ck_assert(isnan(json_number_at(json_get(j, "s"), 0)));
	ck_assert(isnan(json_number_at(NULL, 0)));
	json_free(j);
}
END_TEST

/* An array that holds more than numbers is an ordinary one, its numbers
 * with their text as written, wherever the first non-number stands. */
START_TEST(mixed_arrays)
{
	size_t count = 99;
	uint64_t u;
	struct json *j = parse_ok("[1, 2.5, \"x\", 3]");
	ck_assert_ptr_null(json_numbers(j, &count));
	ck_assert_uint_eq(count, 0);
	ck_assert_uint_eq(json_len(j), 4);
	ck_assert_int_eq(json_type(json_index(j, 0)), JSON_NUMBER);
	ck_assert_int_eq(json_type(json_index(j, 1)), JSON_NUMBER);
	ck_assert_int_eq(json_type(json_index(j, 2)), JSON_STRING);
	ck_assert_int_eq(json_type(json_index(j, 3)), JSON_NUMBER);
	ck_assert(json_number(json_index(j, 0)) == 1.0 && json_number(json_index(j, 1)) == 2.5);
	ck_assert_str_eq(json_string(json_index(j, 2)), "x");
	ck_assert(json_number(json_index(j, 3)) == 3.0);
	ck_assert_str_eq(json_number_text(json_index(j, 1)), "2.5");
	ck_assert(json_number_at(j, 1) == 2.5 && isnan(json_number_at(j, 2)) && json_number_at(j, 3) == 3.0);
	json_free(j);

	j = parse_ok("[1.50, 1e3, {}]");
	ck_assert_uint_eq(json_len(j), 3);
	ck_assert_str_eq(json_number_text(json_index(j, 0)), "1.50");
	ck_assert_str_eq(json_number_text(json_index(j, 1)), "1e3");
	ck_assert_int_eq(json_u64(json_index(j, 1), &u), -1);
	ck_assert_int_eq(json_type(json_index(j, 2)), JSON_OBJECT);
	json_free(j);

	j = parse_ok("[\"a\", 1, 2]");
	ck_assert_ptr_null(json_numbers(j, NULL));
	ck_assert_str_eq(json_number_text(json_index(j, 2)), "2");
	json_free(j);

	j = parse_ok("[1, null, true, false, [2]]");
	ck_assert_int_eq(json_type(json_index(j, 1)), JSON_NULL);
	ck_assert_int_eq(json_bool(json_index(j, 2)), 1);
	ck_assert_int_eq(json_bool(json_index(j, 3)), 0);
	ck_assert(json_number_at(json_index(j, 4), 0) == 2.0);
	json_free(j);

	/* an integer past 2^53 says more in its text than in its double */
	j = parse_ok("[1, 18446744073709551615, 2]");
	ck_assert_ptr_null(json_numbers(j, NULL));
	ck_assert_int_eq(json_u64(json_index(j, 1), &u), 0);
	ck_assert_uint_eq(u, UINT64_MAX);
	ck_assert_str_eq(json_number_text(json_index(j, 2)), "2");
	json_free(j);
	j = parse_ok("[9007199254740991, -9007199254740993]"); /* 2^53 - 1 and a negative: packed */
	ck_assert_ptr_nonnull(json_numbers(j, NULL));
	ck_assert_int_eq(json_u64(json_index(j, 0), &u), 0);
	ck_assert_uint_eq(u, 9007199254740991ull);
	json_free(j);
}
END_TEST

START_TEST(nested_packed)
{
	size_t count;
	struct json *j = parse_ok("{\"m\": [[1, 2], [3.5], [], [[4, 5], 6]], \"s\": [7,8,9]}");
	const struct json *m = json_get(j, "m");
	const double *v;
	ck_assert_ptr_null(json_numbers(m, NULL));
	ck_assert_uint_eq(json_len(m), 4);
	v = json_numbers(json_index(m, 0), &count);
	ck_assert(v && count == 2 && v[0] == 1.0 && v[1] == 2.0);
	v = json_numbers(json_index(m, 1), &count);
	ck_assert(v && count == 1 && v[0] == 3.5);
	ck_assert_ptr_null(json_numbers(json_index(m, 2), &count));
	ck_assert_uint_eq(json_len(json_index(m, 2)), 0);
	const struct json *last = json_index(m, 3);
	ck_assert_ptr_null(json_numbers(last, NULL));
	v = json_numbers(json_index(last, 0), &count);
	ck_assert(v && count == 2 && v[0] == 4.0 && v[1] == 5.0);
	ck_assert(json_number_at(last, 1) == 6.0);
	v = json_numbers(json_get(j, "s"), &count);
	ck_assert(v && count == 3 && v[0] == 7.0 && v[1] == 8.0 && v[2] == 9.0);
	json_free(j);
}
END_TEST

/* "[0,1,2,...]" of n numbers, and where the element at `mark` starts. */
static char *counting(size_t n, size_t mark, size_t *len, size_t *at)
{
	size_t cap = n * 9 + 16, k = 0;
	char *s = malloc(cap);
	s[k++] = '[';
	for (size_t i = 0; i < n; i++) {
		if (i)
			s[k++] = ',';
		if (i == mark)
			*at = k;
		k += (size_t)snprintf(s + k, cap - k, "%zu", i);
	}
	s[k++] = ']';
	*len = k;
	return s;
}

/* More numbers than JSON_MAX_NODES read packed, exactly; the same with
 * a string at the end is an ordinary array again, and refused at the
 * node limit where it was before. */
START_TEST(packed_past_node_limit)
{
	size_t n = JSON_MAX_NODES + 10, len, at = 0, count;
	char *s = counting(n, JSON_MAX_NODES - 1, &len, &at), want[128];
	struct json *j = json_parse(s, len, err, sizeof err);
	ck_assert_msg(j != NULL, "%s", err);
	ck_assert_uint_eq(json_len(j), n);
	const double *v = json_numbers(j, &count);
	ck_assert(v && count == n);
	ck_assert(v[0] == 0.0 && v[1] == 1.0 && v[JSON_MAX_NODES] == (double)JSON_MAX_NODES && v[n - 1] == (double)(n - 1));
	ck_assert(json_number_at(j, 123456) == 123456.0);
	json_free(j);
	s = realloc(s, len + 8);
	memcpy(s + len - 1, ",\"x\"]", 5);
	snprintf(want, sizeof want, "line 1, column %zu: more than 1048576 values", at + 1);
	ck_assert_ptr_null(json_parse(s, len + 4, err, sizeof err));
	ck_assert_str_eq(err, want);
	free(s);
}
END_TEST

/* JSON_MAX_NUMBERS numbers in arrays, all told, and one more: refused
 * with its own message where the one more stands. */
START_TEST(number_limit)
{
	size_t half = JSON_MAX_NUMBERS / 2, len = 4 * half + 8, k = 0;
	char *s = malloc(len), want[128];
	s[k++] = '[';
	for (int a = 0; a < 2; a++) {
		s[k++] = '[';
		for (size_t i = 0; i < half + (size_t)a; i++)
			s[k++] = '0', s[k++] = ',';
		s[k - 1] = ']', s[k++] = ',';
	}
	s[k - 1] = ']';
	ck_assert_uint_le(k, len);
	ck_assert_ptr_null(json_parse(s, k, err, sizeof err));
	snprintf(want, sizeof want, "line 1, column %zu: more than 16777216 numbers in arrays", k - 2);
	ck_assert_str_eq(err, want);
	free(s);
}
END_TEST

/* Inside a packed array, every refusal is word for word what it is in an
 * ordinary one: "[11, e]" against "[{}, e]", the same columns. */
START_TEST(packed_refusals)
{
	static const char *const bad[] = { "01", "-", "1e999", "-1e999", "2.", ".5", "+1", "1e", "x", "nan",
					   "-Infinity", "0x10", "1 2", "1,", "\"a", "\f1", "1.5e+", NULL };
	char packed[64], plain[64], said[512];
	for (int i = 0; bad[i]; i++) {
		snprintf(packed, sizeof packed, "[11, %s]", bad[i]);
		snprintf(plain, sizeof plain, "[{}, %s]", bad[i]);
		ck_assert_msg(!parse(plain), "accepted %s", plain);
		snprintf(said, sizeof said, "%s", err);
		refused(packed, said);
	}
	refused("[1, 01]", "line 1, column 5: a number may not have leading zeros");
	refused("[1, -]", "line 1, column 6: expected a digit after '-', found ']'");
	refused("[1, 1e999]", "line 1, column 5: number too large for a double");
	refused("[1 2]", "line 1, column 4: expected ',' or ']', found '2'");
	refused("[1,]", "line 1, column 4: expected a value after ',' (JSON has no trailing commas)");
	refused("[1, 2", "line 1, column 6: expected ',' or ']', found the end of the input");
	/* a number longer than the stack's copy of it */
	char big[600];
	snprintf(big, sizeof big, "[1, 1%0400d]", 0);
	refused(big, "line 1, column 5: number too large for a double");
	snprintf(big, sizeof big, "[1, 0.%0300d1, 2]", 0);
	struct json *j = parse_ok(big);
	ck_assert(json_number_at(j, 1) == 1e-301 && json_number_at(j, 2) == 2.0);
	json_free(j);
	/* every prefix, from a buffer of exactly its size (for ASan) */
	static const char doc[] = "{\"a\": [1, -2.5e3, 0.125], \"b\": [[3, 4], [5, \"x\", 6]]}";
	for (size_t k = 0; k < sizeof doc - 1; k++) {
		char *cut = malloc(k ? k : 1);
		memcpy(cut, doc, k);
		ck_assert_ptr_null(json_parse(cut, k, err, sizeof err));
		free(cut);
	}
	json_free(parse_ok(doc));
}
END_TEST

/* --- a record, as report.c writes one ---------------------------------------- */
/* The form of `gpulab run --format json`: tests/check_core.c's render()
 * output, with a 64-bit seed, a counter, a note and a message in UTF-8. */
static const char record[] =
	"{\n"
	"  \"gpulab\": \"0.1.0\",\n"
	"  \"cold\": false,\n"
	"  \"device\": {\"name\": \"Test GPU \\\"9\\\"\", \"compute_capability\": \"9.0\", \"sms\": 132, "
	"\"peak_gbps\": 3352.3},\n"
	"  \"results\": [\n"
	"    {\"exercise\": \"reduce.neighbored\", \"params\": {\"n\": 1048576, \"block\": 256, \"type\": \"int\", "
	"\"reps\": 10, \"warmup\": 2, \"seed\": 18446744073709551615}, \"elements\": 1048576, \"median_ms\": 4, "
	"\"min_ms\": 1, \"max_ms\": 5, \"host_ms\": null, \"total_ms\": 4, \"bytes\": 4194304, \"gbps\": 1, "
	"\"peak_pct\": 0.0333333, \"speedup\": 1, \"ref_share\": 0.333333, \"verified\": true, \"status\": \"ok\", "
	"\"message\": \"\", \"notes\": {}, \"metrics\": {\"achieved_occupancy\": {\"metric\": "
	"\"sm__warps_active.avg.pct_of_peak_sustained_active\", \"value\": 50.5}}, \"metric_passes\": 2, "
	"\"rerun\": \"gpulab run reduce.neighbored -n 1048576 -b 256 -t int -r 10 -w 2 -p seed=18446744073709551615\"},\n"
	"    {\"exercise\": \"reduce.unroll8\", \"params\": {\"n\": 1048576, \"block\": 256, \"type\": \"int\", "
	"\"reps\": 10, \"warmup\": 2, \"seed\": 42}, \"elements\": 1048576, \"median_ms\": null, \"min_ms\": null, "
	"\"max_ms\": null, \"host_ms\": null, \"total_ms\": null, \"bytes\": 4194304, \"gbps\": null, "
	"\"peak_pct\": null, \"speedup\": null, \"ref_share\": null, \"verified\": false, \"status\": \"FAILED\", "
	"\"message\": \"expected 5, got \\\"4\\\", \\\\ and a, comma \xc2\xb5s\\u0007\", \"notes\": {}, "
	"\"rerun\": \"gpulab run reduce.unroll8 -n 1048576 -b 256 -t int -r 10 -w 2 -p seed=42\"},\n"
	"    {\"exercise\": \"reduce.cub\", \"params\": {\"n\": 1048576, \"block\": 256, \"type\": \"int\", "
	"\"reps\": 10, \"warmup\": 2, \"seed\": 42}, \"elements\": 1048576, \"median_ms\": 1.33333, \"min_ms\": 1, "
	"\"max_ms\": 5, \"host_ms\": null, \"total_ms\": 1.33333, \"bytes\": 4194304, \"gbps\": 3, "
	"\"peak_pct\": 0.1, \"speedup\": 3, \"ref_share\": 1, \"verified\": true, \"status\": \"ok\", "
	"\"message\": \"\", \"notes\": {\"launches\": 2}, "
	"\"rerun\": \"gpulab run reduce.cub -n 1048576 -b 256 -t int -r 10 -w 2 -p seed=42\"}\n"
	"  ]\n"
	"}\n";

START_TEST(record_values)
{
	uint64_t seed;
	struct json *j = parse_ok(record);
	const struct json *res = json_get(j, "results"), *r0 = json_index(res, 0), *r1 = json_index(res, 1);
	ck_assert_str_eq(json_string(json_get(j, "gpulab")), "0.1.0");
	ck_assert_int_eq(json_bool(json_get(j, "cold")), 0);
	ck_assert_str_eq(json_string(json_get(json_get(j, "device"), "name")), "Test GPU \"9\"");
	ck_assert(json_number(json_get(json_get(j, "device"), "peak_gbps")) == 3352.3);
	ck_assert_uint_eq(json_len(res), 3);
	ck_assert_int_eq(json_u64(json_get(json_get(r0, "params"), "seed"), &seed), 0);
	ck_assert_uint_eq(seed, UINT64_MAX);
	ck_assert_int_eq(json_u64(json_get(json_get(r1, "params"), "seed"), &seed), 0);
	ck_assert_uint_eq(seed, 42);
	ck_assert_str_eq(json_key(r0, 0), "exercise");
	ck_assert_str_eq(json_key(r0, json_len(r0) - 1), "rerun");
	ck_assert(json_number(json_get(r0, "peak_pct")) == 0.0333333);
	ck_assert(json_number(json_get(json_get(json_get(r0, "metrics"), "achieved_occupancy"), "value")) == 50.5);
	ck_assert_int_eq(json_type(json_get(r1, "median_ms")), JSON_NULL);
	ck_assert_int_eq(json_bool(json_get(r1, "verified")), 0);
	ck_assert_str_eq(json_string(json_get(r1, "message")), "expected 5, got \"4\", \\ and a, comma \xc2\xb5s\a");
	ck_assert(json_number(json_get(json_get(json_index(res, 2), "notes"), "launches")) == 2.0);
	json_free(j);
}
END_TEST

/* Writes a tree back the way report.c writes a row: ", " and ": " between
 * members, strings through emit_json(), numbers as they were written. */
static void write_tree(FILE *out, const struct json *n)
{
	int object = json_type(n) == JSON_OBJECT;
	switch (json_type(n)) {
	case JSON_NULL: fputs("null", out); return;
	case JSON_BOOL: fputs(json_bool(n) ? "true" : "false", out); return;
	case JSON_NUMBER: fputs(json_number_text(n), out); return;
	case JSON_STRING: emit_json(out, json_string(n)); return;
	default: break;
	}
	fputc(object ? '{' : '[', out);
	for (size_t i = 0; i < json_len(n); i++) {
		fputs(i ? ", " : "", out);
		if (object) {
			emit_json(out, json_key(n, i));
			fputs(": ", out);
		}
		write_tree(out, json_index(n, i));
	}
	fputc(object ? '}' : ']', out);
}

static char *rewrite(const struct json *n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	write_tree(out, n);
	fclose(out);
	return buf;
}

/* Each row of the record, read and written again, is the same bytes: no
 * value, escape or member order is lost on the way. */
START_TEST(record_round_trip)
{
	struct json *j = parse_ok(record);
	char *again = rewrite(j), line[4096];
	const char *row = record;
	for (int i = 0; i < 3; i++) {
		row = strstr(row, "\n    {") + 5;
		int len = (int)(strchr(row, '\n') - row);
		snprintf(line, sizeof line, "%.*s", row[len - 1] == ',' ? len - 1 : len, row);
		ck_assert_msg(strstr(again, line), "row %d not written again:\n%s\nin\n%s", i, line, again);
	}
	struct json *k = parse_ok(again);
	char *third = rewrite(k);
	ck_assert_str_eq(third, again);
	free(third);
	free(again);
	json_free(k);
	json_free(j);
}
END_TEST

/* What emit_json writes, json_parse reads back to the same bytes. */
START_TEST(emit_round_trip)
{
	char every[128], *text = NULL;
	size_t len;
	for (int c = 1; c < 128; c++)
		every[c - 1] = (char)c;
	every[127] = 0;
	const char *strings[] = { "", every, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "a\\\"b\"\\", "\x7f\x1f", NULL };
	for (int i = 0; strings[i]; i++) {
		FILE *out = open_memstream(&text, &len);
		emit_json(out, strings[i]);
		fclose(out);
		struct json *j = json_parse(text, len, err, sizeof err);
		ck_assert_msg(j != NULL, "%s: %s", text, err);
		ck_assert_str_eq(json_string(j), strings[i]);
		ck_assert_uint_eq(json_string_len(j), strlen(strings[i]));
		json_free(j);
		free(text);
	}
}
END_TEST

/* Every prefix of a record that stops short of its closing brace is
 * refused, with a line and column, each read from a buffer of exactly
 * its size, so that a read past the end shows under AddressSanitizer. */
START_TEST(every_truncation)
{
	size_t len = strlen(record);
	for (size_t k = 0; k + 1 < len; k++) {
		char *cut = malloc(k ? k : 1);
		memcpy(cut, record, k);
		struct json *j = json_parse(cut, k, err, sizeof err);
		ck_assert_msg(j == NULL, "accepted a prefix of %zu bytes", k);
		ck_assert_msg(!strncmp(err, "line ", 5) && strstr(err, ", column "), "%zu: %s", k, err);
		free(cut);
	}
	/* the whole record less its final newline still reads */
	struct json *j = json_parse(record, len - 1, err, sizeof err);
	ck_assert_msg(j != NULL, "%s", err);
	json_free(j);
}
END_TEST

/* --- files ------------------------------------------------------------------- */
START_TEST(files)
{
	char *dir = temp_dir(), fifo[4096];
	const char *good = write_file(dir, "good.json", record);
	const char *bad = write_file(dir, "bad.json", "{\n  \"a\": 1,\n}\n");
	struct json *j = json_read_file(good, 1 << 20, err, sizeof err);
	ck_assert_msg(j != NULL, "%s", err);
	ck_assert_uint_eq(json_len(json_get(j, "results")), 3);
	json_free(j);

	char want[8192];
	ck_assert_ptr_null(json_read_file(bad, 1 << 20, err, sizeof err));
	snprintf(want, sizeof want, "%s: line 3, column 1: expected a key after ',' (JSON has no trailing commas)", bad);
	ck_assert_str_eq(err, want);

	ck_assert_ptr_null(json_read_file(good, strlen(record) - 1, err, sizeof err));
	snprintf(want, sizeof want, "%s: %zu bytes, more than the %zu allowed", good, strlen(record), strlen(record) - 1);
	ck_assert_str_eq(err, want);
	ck_assert_ptr_nonnull(j = json_read_file(good, strlen(record), err, sizeof err));
	json_free(j);

	snprintf(want, sizeof want, "%s/missing.json: No such file or directory", dir);
	snprintf(fifo, sizeof fifo, "%s/missing.json", dir);
	ck_assert_ptr_null(json_read_file(fifo, 1 << 20, err, sizeof err));
	ck_assert_str_eq(err, want);

	snprintf(want, sizeof want, "%s: not a regular file", dir);
	ck_assert_ptr_null(json_read_file(dir, 1 << 20, err, sizeof err));
	ck_assert_str_eq(err, want);
	ck_assert_ptr_null(json_read_file("/dev/null", 1 << 20, err, sizeof err));
	ck_assert_str_eq(err, "/dev/null: not a regular file");

	/* a FIFO with no writer: refused at once, not waited on */
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	snprintf(want, sizeof want, "%s: not a regular file", fifo);
	ck_assert_ptr_null(json_read_file(fifo, 1 << 20, err, sizeof err));
	ck_assert_str_eq(err, want);
	free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("json");
	TCase *t = tcase_create("json");
	tcase_set_timeout(t, 60); /* the scale tests, under a sanitizer */
	tcase_add_test(t, every_type);
	tcase_add_test(t, accessors_forgive);
	tcase_add_test(t, escapes);
	tcase_add_test(t, bad_strings);
	tcase_add_test(t, numbers);
	tcase_add_test(t, big_integers);
	tcase_add_test(t, bad_syntax);
	tcase_add_test(t, duplicate_keys);
	tcase_add_test(t, duplicate_keys_at_scale);
	tcase_add_test(t, depth_limit);
	tcase_add_test(t, node_limit);
	tcase_add_test(t, packed_arrays);
	tcase_add_test(t, mixed_arrays);
	tcase_add_test(t, nested_packed);
	tcase_add_test(t, packed_past_node_limit);
	tcase_add_test(t, number_limit);
	tcase_add_test(t, packed_refusals);
	tcase_add_test(t, record_values);
	tcase_add_test(t, record_round_trip);
	tcase_add_test(t, emit_round_trip);
	tcase_add_test(t, every_truncation);
	tcase_add_test(t, files);
	suite_add_tcase(s, t);
	return run_suite(s, 0);
}
