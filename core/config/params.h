/*
 * Typed parameters: the text of a value checked against its declaration
 * (struct gpulab_param, from <gpulab/plugin.h>), stored where the
 * declaration says, and written back as text for the reports.  The keys
 * every exercise shares (n, block, type, reps, warmup) are declared here
 * the same way, so one code path and one set of limits serve them all,
 * whether a value comes from the command line or an INI file.
 */
#ifndef GPULAB_PARAMS_H
#define GPULAB_PARAMS_H

#include <gpulab/plugin.h>

#include <stddef.h>
#include <stdint.h>

/* A value of any declared type. */
struct param_value {
	union {
		uint64_t u;            /* COUNT, SEED */
		int64_t i;             /* INT */
		unsigned e;            /* ENUM: the index of the name */
		struct gpulab_shape s; /* SHAPE */
		const char *str;       /* PATH: the text parsed, not a copy */
	};
	int random;                    /* SEED given as "random": not drawn yet */
};

/* The generic keys, in the order the reports show them. */
enum generic { GEN_N, GEN_BLOCK, GEN_TYPE, GEN_REPS, GEN_WARMUP, NGENERIC };

/* Their declarations; the defaults of n and block are each exercise's.
 * The offsets are unused: the core keeps these values itself. */
extern const struct gpulab_param generic_params[NGENERIC];

/* The generic key called `key`, or -1. */
int generic_index(const char *key);

/* The largest n any exercise may take: 2^40 elements, so that a byte
 * count of n times any element size, times a few buffers, fits 64 bits. */
#define PARAM_MAX_N (1ull << 40)

enum parse_result {
	PARSE_OK = 0,
	PARSE_MALFORMED,  /* not of the declared type at all */
	PARSE_RANGE       /* of the type, outside the declared limits */
};

/* Parse `text` as declared.  On failure, `why` says what was expected
 * ("a count from 1 to 1024, e.g. 1024, 2^10 or 1K"). */
enum parse_result param_parse(const struct gpulab_param *d, const char *text, struct param_value *v,
			      char *why, size_t len);

/* --- sweeps -------------------------------------------------------------
 * Wherever a value is taken, a list of them is too: "1000,1000003",
 * "int,float", "32x32,16x16"; and for a count, a range "A:B" (A, 2A,
 * 4A, ... up to B) or "A:B:K" (A, A*2^K, ...): "2^10:2^30",
 * "2^20:2^30:2".  Lists may hold ranges.  Each is an axis of a sweep. */

/* The most points a run may expand into, all exercises together: past
 * this a sweep is a mistake, not a measurement. */
#define PARAM_MAX_POINTS 10000

/* Check every value of the axis `text` as declared and count them (a
 * PATH is one value, commas and all).  A
 * malformed one stops the count; after one out of range (PARSE_RANGE,
 * with why saying what is taken) *count is still complete. */
enum parse_result param_axis(const struct gpulab_param *d, const char *text, size_t *count, char *why, size_t len);

/* Value i of a checked axis, as text. */
void param_axis_value(const char *text, size_t i, char *buf, size_t len);

/* An axis typed once: each of its values as given, and as declared. */
struct typed_value {
	char text[128];
	struct param_value value;   /* a PATH's points into the axis's text */
};

struct typed_axis {
	const char *text;           /* the axis as given; NULL: none */
	size_t n;
	struct typed_value *v;
};

/* Every value of the axis `text` parsed as d declares it, into a (to
 * free with typed_axis_free): PARSE_OK; or, as param_axis says it, the
 * first failure with why (a value out of d's limits refuses the whole
 * axis here), a left empty; or PARSE_MALFORMED with why "out of
 * memory", a->n values and no a->v. */
enum parse_result typed_axis_parse(const struct gpulab_param *d, const char *text, struct typed_axis *a, char *why,
				   size_t len);

void typed_axis_free(struct typed_axis *a);

/* A value typed as one declaration of its key says, within another's
 * limits (a generic key's, within an exercise's)?  PARSE_OK, or
 * PARSE_RANGE with why as param_parse says it. */
enum parse_result param_narrow(const struct gpulab_param *d, const struct param_value *v, char *why, size_t len);

/* The value as text that param_parse() reads back to the same value. */
void param_format(const struct gpulab_param *d, const struct param_value *v, char *buf, size_t len);

/* Are a and b the same value of the declared type (field by field: a
 * shape's two sides, a path's text, a seed drawn or "random")? */
int param_equal(const struct gpulab_param *d, const struct param_value *a, const struct param_value *b);

/* What values the declaration takes, for `gpulab list` and messages. */
void param_describe(const struct gpulab_param *d, char *buf, size_t len);

/* "count", "int", "enum", "shape", "seed" or "path". */
const char *param_type_name(enum gpulab_param_type t);

/* The bytes a value of this type takes at its offset; 0 for no type. */
size_t param_width(enum gpulab_param_type t);

/* Write v at d->offset of the struct at base. */
void param_store(const struct gpulab_param *d, const struct param_value *v, void *base);

/* Is the declaration itself sound (a known type, limits in order, the
 * value inside a struct of params_size bytes, a default it accepts)?
 * 0, or -1 with why. */
int param_check_decl(const struct gpulab_param *d, size_t params_size, char *why, size_t len);

/* --- an exercise's view of them ---------------------------------------- */

/* Does exercise e take generic key g?  Every exercise takes type, reps
 * and warmup; n and block only where it declares a default. */
int exercise_takes(const struct gpulab_exercise *e, enum generic g);

/* Generic key g as e declares it: its own default, and for n its own
 * largest.  The default's text goes into buf, which must outlive *d. */
void exercise_generic(const struct gpulab_exercise *e, enum generic g, struct gpulab_param *d,
		      char *buf, size_t len);

/* The generic key `key` is for e, or -1: where e declares a key of its
 * own by a generic key's name (a WxH `block` where it takes no block
 * size), the name is its own. */
int exercise_generic_key(const struct gpulab_exercise *e, const char *key);

/* e's own parameter `key`, or NULL. */
const struct gpulab_param *exercise_param(const struct gpulab_exercise *e, const char *key);

/* Parse `text` for key `key` of exercise e, a generic key or its own:
 * PARSE_RANGE also for a type e does not take, or a key it lacks. */
enum parse_result exercise_parse(const struct gpulab_exercise *e, const char *key, const char *text,
				 struct param_value *v, char *why, size_t len);

/* Generic key g's value v, typed against its generic declaration,
 * narrowed by e's (its largest n, the types it takes), for a key e
 * takes and declares none of its own by that name: PARSE_OK, or
 * PARSE_RANGE with why as exercise_parse says it. */
enum parse_result exercise_narrow(const struct gpulab_exercise *e, enum generic g, const struct typed_value *v,
				  char *why, size_t len);

/* The same for every value of an axis (a list or range), counted. */
enum parse_result exercise_axis(const struct gpulab_exercise *e, const char *key, const char *text, size_t *count,
				char *why, size_t len);

/* A [a-z0-9_]+ name. */
int param_valid_name(const char *s);

/* "int" or "float". */
const char *dtype_name(enum gpulab_dtype t);

/* The types of a mask of them: "int", "float", or `both` ("int|float"). */
const char *dtypes_text(unsigned dtypes, const char *both);

#endif
