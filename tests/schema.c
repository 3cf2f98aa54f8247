#include "schema.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct ctx {
	const struct json *root;
	char *err;
	size_t len;
};

static int fault(struct ctx *c, const char *path, const char *why)
{
	snprintf(c->err, c->len, "%s: %s", path[0] ? path : "(the document)", why);
	return -1;
}

static int is_type(const struct json *v, const char *type)
{
	enum json_kind t = json_type(v);
	double x = json_number(v);
	if (!strcmp(type, "object")) return t == JSON_OBJECT;
	if (!strcmp(type, "array")) return t == JSON_ARRAY;
	if (!strcmp(type, "string")) return t == JSON_STRING;
	if (!strcmp(type, "boolean")) return t == JSON_BOOL;
	if (!strcmp(type, "null")) return t == JSON_NULL;
	if (!strcmp(type, "number")) return t == JSON_NUMBER;
	if (!strcmp(type, "integer")) return t == JSON_NUMBER && x == floor(x);
	return 0;
}

/* Two JSON values the same (for const and enum: strings and numbers). */
static int same(const struct json *a, const struct json *b)
{
	if (json_type(a) != json_type(b))
		return 0;
	if (json_type(a) == JSON_STRING)
		return !strcmp(json_string(a), json_string(b));
	return json_type(a) != JSON_NUMBER || json_number(a) == json_number(b);
}

static int check(struct ctx *c, const struct json *v, const struct json *s, const char *path);

static int check_type(struct ctx *c, const struct json *v, const struct json *s, const char *path)
{
	const struct json *t = json_get(s, "type");
	int ok = json_type(t) == JSON_STRING ? is_type(v, json_string(t)) : json_len(t) == 0;
	for (size_t i = 0; json_type(t) == JSON_ARRAY && i < json_len(t) && !ok; i++)
		ok = is_type(v, json_string(json_index(t, i)));
	return ok || !t ? 0 : fault(c, path, "of the wrong type");
}

static int check_values(struct ctx *c, const struct json *v, const struct json *s, const char *path)
{
	const struct json *k = json_get(s, "const"), *e = json_get(s, "enum"), *m = json_get(s, "minimum");
	int in = !e;
	if (k && !same(v, k))
		return fault(c, path, "not the constant");
	for (size_t i = 0; e && i < json_len(e) && !in; i++)
		in = same(v, json_index(e, i));
	if (!in)
		return fault(c, path, "not one of the enum");
	if (m && json_type(v) == JSON_NUMBER && json_number(v) < json_number(m))
		return fault(c, path, "below the minimum");
	return 0;
}

static int check_object(struct ctx *c, const struct json *v, const struct json *s, const char *path)
{
	const struct json *req = json_get(s, "required"), *props = json_get(s, "properties");
	const struct json *extra = json_get(s, "additionalProperties");
	char sub[512];
	for (size_t i = 0; i < json_len(req); i++)
		if (!json_get(v, json_string(json_index(req, i)))) {
			snprintf(sub, sizeof sub, "lacks '%s'", json_string(json_index(req, i)));
			return fault(c, path, sub);
		}
	for (size_t i = 0; i < json_len(v); i++) {
		const char *key = json_key(v, i);
		const struct json *p = json_get(props, key);
		snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "/" : "", key);
		if (!p && json_type(extra) == JSON_BOOL && !json_bool(extra))
			return fault(c, sub, "not allowed here");
		if (!p)
			p = json_type(extra) == JSON_OBJECT ? extra : NULL;
		if (p && check(c, json_index(v, i), p, sub))
			return -1;
	}
	return 0;
}

/* "#/$defs/NAME" in the root schema. */
static const struct json *target(struct ctx *c, const char *ref)
{
	return !strncmp(ref, "#/$defs/", 8) ? json_get(json_get(c->root, "$defs"), ref + 8) : NULL;
}

static int check(struct ctx *c, const struct json *v, const struct json *s, const char *path)
{
	const struct json *ref = json_get(s, "$ref"), *items = json_get(s, "items");
	char sub[512];
	if (ref) {
		const struct json *t = target(c, json_string(ref));
		return t ? check(c, v, t, path) : fault(c, path, "a $ref this validator cannot follow");
	}
	if (check_type(c, v, s, path) || check_values(c, v, s, path))
		return -1;
	if (json_type(v) == JSON_OBJECT && check_object(c, v, s, path))
		return -1;
	for (size_t i = 0; items && json_type(v) == JSON_ARRAY && i < json_len(v); i++) {
		snprintf(sub, sizeof sub, "%s%s%zu", path, path[0] ? "/" : "", i);
		if (check(c, json_index(v, i), items, sub))
			return -1;
	}
	return 0;
}

int schema_check(const struct json *doc, const struct json *schema, char *err, size_t len)
{
	struct ctx c = { schema, err, len };
	return check(&c, doc, schema, "");
}
