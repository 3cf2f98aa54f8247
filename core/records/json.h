/* Reading JSON back: a small strict reader (RFC 8259) for gpulab's own
 * records, built so that a hostile file cannot hurt it.
 *
 * json_parse() turns text into a tree.  Objects keep their members in
 * the order written, and a key written twice is refused.  Numbers keep
 * the text they were written in as well as a double, so an integer past
 * 2^53 (a seed) survives through json_u64() (but see packed arrays,
 * below).  Strings are decoded to UTF-8; invalid UTF-8 and unpaired
 * surrogates are refused.  Nothing outside the RFC is taken: no comments,
 * trailing commas, NaN, Infinity, leading zeros, single quotes or
 * byte-order mark.
 *
 * Packed arrays.  An array of numbers alone (a record's samples_ms, a
 * million and more of them) is kept as doubles, 8 bytes an element, with
 * no node and no text for each: json_numbers() and json_number_at() read
 * them so.  The first json_index() on such an array builds its elements'
 * nodes, once, so that a reader walking any tree sees the same tree as
 * for any other array; that is the one write to a tree after parsing, so
 * a tree is not to be read from two threads at once.  Those nodes' text
 * is rebuilt from the double, as the text written is not kept: the
 * shortest "%.15g" to "%.17g" that reads back as the same double ("1.50"
 * comes back "1.5", 0.0034 "0.0034"), and a whole number below 2^53 in
 * plain digits, so that json_u64() reads every integer as written (and
 * also 1e3 or 1.0, which it refuses elsewhere).  An array holding a
 * whole number of 2^53 or more in plain digits, where the text says
 * more than the double, is not packed; nor is one holding anything but
 * numbers: those are ordinary arrays throughout, each number with its
 * text as written.  An empty array is not packed either.
 *
 * Limits: JSON_MAX_DEPTH levels of nesting, JSON_MAX_NODES values outside
 * packed arrays (an array itself is one) and JSON_MAX_NUMBERS numbers in
 * them, each limit with its own message; the size of the text is the
 * caller's to bound (json_read_file takes one).
 * Every error names the line and column (both from 1, the column in
 * bytes) and what was expected: "line 3, column 14: expected ',' or '}'".
 *
 * The accessors take NULL and the wrong type quietly, so that a chain
 * like json_u64(json_get(json_get(doc, "params"), "seed"), &seed) fails
 * once, at the end. */
#ifndef GPULAB_JSON_H
#define GPULAB_JSON_H

#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH 64
#define JSON_MAX_NODES (1u << 20)
#define JSON_MAX_NUMBERS (1u << 24) /* 128 MiB of doubles */

enum json_kind {
	JSON_NONE, /* no node: what json_type(NULL) says */
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json;

/* The tree of text[0..len), which need not end in a NUL; NULL with the
 * reason in err (one line) where it is not one JSON value. */
struct json *json_parse(const char *text, size_t len, char *err, size_t errlen);

/* The tree of a regular file of at most max_bytes; NULL with the reason,
 * naming the file, in err.  Opened without blocking, so a FIFO or a
 * device named by mistake is refused rather than waited on. */
struct json *json_read_file(const char *path, size_t max_bytes, char *err, size_t errlen);

/* The text of such a file, *len bytes, to free: one appended to while
 * it is read (a journal) as far as it was when opened.  NULL with the
 * reason, naming the file, in err. */
char *json_read_text(const char *path, size_t max_bytes, size_t *len, char *err, size_t errlen);

/* Frees a tree json_parse or json_read_file returned (NULL is fine). */
void json_free(struct json *root);

enum json_kind json_type(const struct json *n);

/* Trees of trees (a journal's lines as one document, records/ondisk.c).
 * An empty array; v appended to it; v made obj's member named key (a key
 * obj has already is refused).  The container owns v from then on, and v
 * is freed where it cannot be added: 0, or -1. */
struct json *json_array_new(void);
int json_append(struct json *arr, struct json *v);
int json_adopt(struct json *obj, const char *key, struct json *v);

/* What a tree weighs against the limits: *values its values outside
 * packed arrays, *numbers the numbers in them (both added to). */
void json_weight(const struct json *n, size_t *values, size_t *numbers);

/* An object's member named key (the first NUL ends it), or NULL. */
const struct json *json_get(const struct json *obj, const char *key);

/* The i-th element of an array, or the i-th member of an object in the
 * order written; NULL past the end.  On a packed array the first call
 * builds every element's node (NULL if memory runs out for them). */
const struct json *json_index(const struct json *n, size_t i);

/* A packed array's numbers, json_len() of them, with *count set to that
 * (count may be NULL), valid until json_free; NULL with *count 0 for
 * anything else, an array not packed (above) included: json_number_at
 * reads either kind. */
const double *json_numbers(const struct json *arr, size_t *count);

/* json_number(json_index(n, i)), without building a packed array's
 * nodes: NaN past the end or where that member is not a number. */
double json_number_at(const struct json *n, size_t i);

/* The i-th key of an object, or NULL. */
const char *json_key(const struct json *obj, size_t i);

/* The members of an array or object; 0 for anything else. */
size_t json_len(const struct json *n);

/* A string's decoded UTF-8, NUL-terminated, or NULL.  A string holding
 * \u0000 has a NUL inside: json_string_len says how long it really is. */
const char *json_string(const struct json *n);
size_t json_string_len(const struct json *n);

/* A number's value (NaN for anything else), and its text as written. */
double json_number(const struct json *n);
const char *json_number_text(const struct json *n);

/* A string's text or a number's as written (a parameter's value, a
 * device's name or clock, either way); NULL for anything else. */
const char *json_scalar_text(const struct json *n);

/* A whole number written as plain digits (no sign, fraction or
 * exponent), exactly, up to 2^64 - 1: 0, or -1 where n is not one. */
int json_u64(const struct json *n, uint64_t *out);

/* 1 for true, 0 for false, -1 for anything else. */
int json_bool(const struct json *n);

#endif
