/*
 * A challenge of `gpulab try` and `gpulab grade`: a folder of files, no
 * C and no rebuild (docs/challenge.md).  challenges/NAME/challenge.ini
 * says what the learner's kernel is handed and how its result is
 * checked; challenges/NAME/template.cu is a correct, simple start.
 *
 * The file is read here, with inih, and checked whole: a wrong key or
 * value is one line naming the file, its line, the key and the value,
 * and nothing else happens (EXIT_CHALLENGE).  Plain C over inih and
 * libc: the core reads it to find, list and gate a challenge, and the
 * try plugin reads the same folders through the same code (it links
 * core/libshared.la, it does not compile this file), the CPU tests and
 * the fuzzer (fuzz/fuzz_challenge.c) too.
 */
#ifndef GPULAB_PLUGINS_CHALLENGE_H
#define GPULAB_PLUGINS_CHALLENGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CHALLENGE_MAX_NAME 32
#define CHALLENGE_MAX_ARGS 8
#define CHALLENGE_MAX_SIZES 16
#define CHALLENGE_MAX_BYTES (16u << 10) /* the most a challenge.ini may hold */
#define CHALLENGE_MAX_LINE 190          /* below inih's own line buffer */
#define CHALLENGE_MAX_ELEMENTS 0xffffffffull /* the kernel's sizes are unsigned */

/* What one of the kernel's parameters is (args = NAME:ROLE ...). */
enum challenge_role {
	ROLE_INPUT,    /* const T *: the data, x * y elements (a second: the second input) */
	ROLE_OUTPUT,   /* T *: x * y elements, poisoned before every run */
	ROLE_PARTIALS, /* T *: one element a block, poisoned; finish=device zeroes [0] */
	ROLE_BINS,     /* unsigned *: 256 counts, zeroed before every run */
	ROLE_SCRATCH,  /* unsigned *: 4 * gridDim.x + 4 words, zeroed before every run */
	ROLE_N,        /* unsigned: the elements (a 1-D challenge) */
	ROLE_X,        /* unsigned: the elements along a row (2-D) */
	ROLE_Y,        /* unsigned: the rows (2-D) */
	ROLE_COUNT
};

enum challenge_generator { GENERATOR_RANGE, GENERATOR_SORTED, GENERATOR_CONSTANT, GENERATOR_EDGES, GENERATOR_COUNT };

enum challenge_reference {
	REFERENCE_SUM, REFERENCE_PREFIX_SUM, REFERENCE_HISTOGRAM, REFERENCE_TRANSPOSE, REFERENCE_COPY, REFERENCE_MAX,
	REFERENCE_ADD, REFERENCE_COUNT
};

/* The contract line's keys a challenge may allow (launch = ...). */
#define LAUNCH_BLOCK 1u
#define LAUNCH_PER_THREAD 2u
#define LAUNCH_TILE 4u
#define LAUNCH_GRID 8u
#define LAUNCH_FINISH 16u

#define CHALLENGE_INT 1u   /* = GPULAB_INT32 */
#define CHALLENGE_FLOAT 2u /* = GPULAB_FLOAT32 */

struct challenge_arg {
	char name[CHALLENGE_MAX_NAME];
	enum challenge_role role;
};

/* One size: x by y elements (y = 1 in 1-D) and, for a test, its seed. */
struct challenge_size {
	uint64_t x, y, seed;
	int generator;          /* a test's own (SIZE@SEED/GENERATOR), or -1: the challenge's */
};

struct challenge {
	char dir[4096];                  /* the folder, as found */
	char name[CHALLENGE_MAX_NAME];   /* [challenge] name: the folder's own name */
	char description[160];
	unsigned types;                  /* CHALLENGE_INT | CHALLENGE_FLOAT */
	char against[2 * CHALLENGE_MAX_NAME + 1]; /* "plugin" or "plugin.exercise"; "" for none */
	char metrics[256];
	char kernel[CHALLENGE_MAX_NAME]; /* [kernel] name */
	struct challenge_arg args[CHALLENGE_MAX_ARGS];
	int nargs;
	unsigned launch;                 /* LAUNCH_* */
	int two_d;                       /* args take x and y, not n */
	enum challenge_generator generator;
	int64_t min, max;                /* ints from min to max */
	int64_t kmin, kmax;              /* floats k/256, k from kmin to kmax */
	enum challenge_reference reference;
	double tolerance;                /* 0: exact */
	struct challenge_size tests[CHALLENGE_MAX_SIZES], bench[CHALLENGE_MAX_SIZES];
	int ntests, nbench;
	double time_limit_s;
};

/* Read dir/challenge.ini whole into c (c->dir = dir).  0, or -1 with one
 * line in err naming the file (and its line, key and value). */
int challenge_load(struct challenge *c, const char *dir, char *err, size_t errlen);

/* The same from text in memory, `file` naming it in messages (the fuzzer's
 * and the tests' way in). */
int challenge_parse(struct challenge *c, const char *file, const char *text, size_t len, char *err, size_t errlen);

/* The names, as challenge.ini spells them. */
const char *challenge_role_name(enum challenge_role r);
const char *challenge_reference_name(enum challenge_reference r);
const char *challenge_generator_name(enum challenge_generator g);
/* The generators' names, '|'-separated: "range|sorted|constant|edges". */
#define CHALLENGE_GENERATORS "range|sorted|constant|edges"

/* The kernel's parameters as C, T for the element type:
 * "const T *in, T *partials, unsigned n".  buf of 400 is enough. */
void challenge_signature(const struct challenge *c, char *buf, size_t len);

/* How many args have `role`; the index of the k-th (from 0), or -1. */
int challenge_count(const struct challenge *c, enum challenge_role role);
int challenge_find_arg(const struct challenge *c, enum challenge_role role, int k);

/* The gate: the test sizes as try's gate text, "n=1 seed=1;n=31 seed=2"
 * or "rows=1 cols=1 seed=1;..." (each side by its arg's name), with
 * "input=GENERATOR" where a size names its own.  0, or -1
 * where it does not fit in len. */
int challenge_gate(const struct challenge *c, char *buf, size_t len);

/* One size's keys, "n=1024" or "rows=8 cols=9", into buf. */
void challenge_size_keys(const struct challenge *c, const struct challenge_size *s, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
