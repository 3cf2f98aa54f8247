/*
 * Shapes and sizes drawn at random, verified on the GPU (issue 44): the
 * fixed cases of check_gpu are the bugs already met; these find the next.
 * Every transpose and sum_matrix exercise takes drawn shapes, every
 * sized exercise (reduce, nested, divergence) drawn sizes, in both
 * types where it takes both.  The edge families are always in: 1 x N
 * and N x 1, a side past 65535 (a grid's y limit), primes, 2^k +- 1,
 * and 1:64 rectangles; each family's members are drawn.
 *
 * Seeded: GPULAB_TEST_SEED=S repeats a run; the seed is printed first.
 * A bad point is reported with the exact command that reproduces it
 * (its record's rerun line, which holds its input's seed).  Verify-only:
 * it shares the GPU with check_gpu (gpu_shared in gpu_sweep.c).  Without
 * a GPU it exits 77, or fails under GPULAB_REQUIRE_GPU=1.
 */
#include "exitcode.h"
#include "gpu_sweep.h"
#include "testutil.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *wrapper;
static char env_xdg[4200];
static uint64_t seed, rng;
static struct sweep_check sc;
static int shapes_drawn, sizes_drawn; /* in this test's process (Check forks each) */
/* How many exercises each plugin of this build has, from one `gpulab
 * list` (count_exercises): read by the tests, which Check forks from main. */
static int ntranspose, nsum_matrix, nreduce, nnested, ndivergence;

/* splitmix64: the whole test's draws from one printed seed */
static uint64_t draw(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A number from lo to hi, both in. */
static uint64_t between(uint64_t lo, uint64_t hi)
{
	return lo + draw() % (hi - lo + 1);
}

static int is_prime(uint64_t n)
{
	if (n < 2)
		return 0;
	for (uint64_t d = 2; d * d <= n; d++)
		if (n % d == 0)
			return 0;
	return 1;
}

/* The first prime at or past a drawn number from lo to hi. */
static uint64_t prime_between(uint64_t lo, uint64_t hi)
{
	uint64_t n = between(lo, hi);
	while (!is_prime(n))
		n++;
	return n;
}

/* 2^k + 1 or 2^k - 1 for a drawn k from lo to hi. */
static uint64_t near_power(int lo, int hi)
{
	uint64_t p = 1ull << between((uint64_t)lo, (uint64_t)hi);
	return draw() & 1 ? p + 1 : p - 1;
}

/* A comma list of values, for -n or -p key=. */
static void list_of(char *buf, size_t len, const uint64_t *v, int n)
{
	buf[0] = 0;
	for (int i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%llu", i ? "," : "", (unsigned long long)v[i]);
}

/* Every skip a drawn point may get: an element type the exercise does
 * not take, a GPU that lacks what it needs, and a book kernel's 2D grid
 * past its y limit (sum_matrix's fixed blocks refuse ny past 65535
 * block rows at plan, in one line naming it: on 1462466 rows, 32x16
 * and 16x16 did on an H200).  Any other shape or size refused is a
 * failure: the exercises claim every shape and size in their range. */
static int skip_allowed_here(const char *m, const char *row)
{
	(void)row;
	return strstr(m, "element type") || strstr(m, "sm_90 or later")
	       || strstr(m, "this GPU has no thread-block clusters (Hopper and later do)")
	       || strstr(m, "at most 65535 block rows");
}

static void verified(char *const *args, int points)
{
	char *env[] = { env_xdg, "GPULAB_CONFIG=", NULL };
	sweep_check_run(wrapper, env, args, skip_allowed_here, &sc);
	ck_assert_msg(sc.status != EXIT_NOMATCH || sc.points, "%s: not in this build", args[1]);
	ck_assert_msg(sc.bad == 0 && sc.points == points && sc.status == 0, "seed %llu, %d points expected: " SWEEP_FMT,
		      (unsigned long long)seed, points, SWEEP_ARGS(&sc));
}

/* The matrices' families as pairs of side lists, whose every pair is a
 * shape (a sweep is their product): thin and tall, a side past 65535;
 * odd primes against 2^k +- 1; 1:64 rectangles (a and 64a each way, a
 * drawn); odd sides of primes and 2^k +- 1; and a side near the
 * largest a side may be.  Elements stay under 2^24 a shape, so a CPU
 * reference takes milliseconds. */
struct family {
	uint64_t a[4], b[4];
	int na, nb;
};

static int families(struct family *f)
{
	uint64_t small = between(2, 64), big = 65536 + between(1, 60000), p = prime_between(65537, 200000);
	f[0] = (struct family){ { 1, small }, { big, p, near_power(10, 16) }, 2, 3 }; /* thin: rows few, cols many */
	f[1] = (struct family){ { big, p, near_power(10, 16) }, { 1, small }, 3, 2 }; /* tall */
	f[2] = (struct family){ { prime_between(3, 5000), near_power(5, 12) }, { prime_between(3, 5000), near_power(5, 12) }, 2, 2 };
	uint64_t a = between(1, 48);
	f[3] = (struct family){ { a, 64 * a }, { a, 64 * a }, 2, 2 }; /* 1:64 either way, and the squares a and 64a */
	/* a side near the most a side may be (65535 tiles of 32): a grid's y
	 * past its limit, where a kernel puts a thread row on each */
	uint64_t longest = between(1u << 20, 65535u * 32);
	f[4] = (struct family){ { 1, between(2, 3) }, { longest }, 2, 1 };
	f[5] = (struct family){ { longest }, { 1, between(2, 3) }, 1, 2 };
	return 6;
}

/* Every exercise matching glob at every drawn shape of every family,
 * its sides named by the keys r and c; each family in a type drawn from
 * `types` (a comma list), as one sweep. */
static void shapes_verify(const char *glob, const char *r, const char *c, int exercises, int ntypes)
{
	struct family f[6];
	int n = families(f);
	for (int i = 0; i < n; i++) {
		char *type = ntypes > 1 && (draw() & 1) ? "float" : "int";
		char rows[256], cols[256], rk[300], ck[300];
		list_of(rows, sizeof rows, f[i].a, f[i].na);
		list_of(cols, sizeof cols, f[i].b, f[i].nb);
		snprintf(rk, sizeof rk, "%s=%s", r, rows);
		snprintf(ck, sizeof ck, "%s=%s", c, cols);
		char *args[] = { "run", (char *)glob, "-p", rk, "-p", ck, "-t", type, NULL };
		printf("%s -t %s: %s x %s\n", glob, type, rows, cols);
		verified(args, exercises * f[i].na * f[i].nb);
		shapes_drawn += f[i].na * f[i].nb;
	}
	printf("%s: %d shapes drawn, %d points verified\n", glob, shapes_drawn, sc.verified);
}

START_TEST(transpose_shapes)
{
	shapes_verify("transpose.*", "rows", "cols", ntranspose, 2);
}
END_TEST

START_TEST(sum_matrix_shapes)
{
	shapes_verify("sum_matrix.*", "nx", "ny", nsum_matrix, 1);
}
END_TEST

/* Sizes for every sized exercise of a plugin: 1 to 3, a drawn small
 * one, a prime, 2^k +- 1, and a large odd one. */
static void sizes_verify(const char *glob, int exercises, uint64_t largest)
{
	uint64_t v[6] = { between(1, 3), between(4, 200), prime_between(1000, 200000), near_power(10, 62 - __builtin_clzll(largest)),
			  between(largest / 2, largest) | 1 };
	char list[256];
	list_of(list, sizeof list, v, 5);
	printf("%s: -n %s\n", glob, list);
	char *args[] = { "run", (char *)glob, "-n", list, "-t", "int,float", NULL };
	verified(args, exercises * 5 * 2);
	sizes_drawn += 5;
	printf("%s: %d sizes drawn so far, %d points verified\n", glob, sizes_drawn, sc.verified);
}

START_TEST(reduce_sizes)
{
	sizes_verify("reduce.*", nreduce, 1u << 25);
}
END_TEST

/* nested's recursions chain launches to a ceiling of their own, and
 * divergence is float only. */
START_TEST(other_sizes)
{
	sizes_verify("nested.recursive_reduce", 1, 1u << 22);
	sizes_verify("nested.recursive_reduce2", 1, 1u << 22);
	sizes_verify("divergence.*", ndivergence, 1u << 24);
}
END_TEST

static void count_exercises(void)
{
	static struct cmd_result o;
	char *argv[] = { (char *)wrapper, "list", "--format", "csv", NULL }, *env[] = { env_xdg, "GPULAB_CONFIG=", NULL };
	run_cmd(&o, argv, env);
	ntranspose = occurrences(o.out, "\n\"transpose\",");
	nsum_matrix = occurrences(o.out, "\n\"sum_matrix\",");
	nreduce = occurrences(o.out, "\n\"reduce\",");
	nnested = occurrences(o.out, "\n\"nested\",");
	ndivergence = occurrences(o.out, "\n\"divergence\",");
}

int main(void)
{
	check_set_max_msg_size(1 << 20);
	if (!(wrapper = getenv("GPULAB_WRAPPER"))) {
		fprintf(stderr, "GPULAB_WRAPPER must be set (make check sets it)\n");
		return 99;
	}
	char *xdg = temp_dir();
	snprintf(env_xdg, sizeof env_xdg, "XDG_CONFIG_HOME=%s", xdg);
	static struct cmd_result o;
	char *info[] = { (char *)wrapper, "info", NULL }, *env[] = { env_xdg, "GPULAB_CONFIG=", NULL };
	run_cmd(&o, info, env);
	if (o.status == EXIT_NODEVICE) {
		if (getenv("GPULAB_REQUIRE_GPU") && !strcmp(getenv("GPULAB_REQUIRE_GPU"), "1")) {
			fprintf(stderr, "GPULAB_REQUIRE_GPU=1, but: %s", o.err);
			return 1;
		}
		printf("SKIP: no GPU (%s)", o.err);
		return 77;
	}
	const char *s = getenv("GPULAB_TEST_SEED");
	seed = s && *s ? strtoull(s, NULL, 10) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	rng = seed;
	printf("seed %llu (GPULAB_TEST_SEED=%llu repeats these draws)\n", (unsigned long long)seed, (unsigned long long)seed);
	fflush(stdout);

	Suite *suite = suite_create("gpu random");
	TCase *t = tcase_create("random");
	tcase_set_timeout(t, 900);
	tcase_add_checked_fixture(t, gpu_shared, gpu_times);
	count_exercises();
	if (ntranspose)
		tcase_add_test(t, transpose_shapes);
	if (nsum_matrix)
		tcase_add_test(t, sum_matrix_shapes);
	if (nreduce)
		tcase_add_test(t, reduce_sizes);
	if (nnested && ndivergence)
		tcase_add_test(t, other_sizes);
	suite_add_tcase(suite, t);
	return run_gpu_suite(suite, "check_gpu_random");
}
