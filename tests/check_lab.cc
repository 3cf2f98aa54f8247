/* <gpulab/lab.cuh>'s host arithmetic, compiled by the host's C++
 * compiler (the header has no device code of its own): lab::grid, which
 * once returned 2^32 blocks as an unsigned 0, so that `gpulab new`'s
 * skeleton launched nothing at n = 2^32 with -b 1 (issue 46, item 13). */
#include <gpulab/lab.cuh>

#include <check.h>

#include <cstdint>

extern "C" {
#include "testutil.h"
}

namespace {

unsigned grid_of(uint64_t elements, unsigned block)
{
	gpulab_ctx ctx{};
	ctx.elements = elements;
	ctx.block = block;
	return lab::grid(&ctx);
}

} // namespace

START_TEST(grid_one_thread_an_element)
{
	ck_assert_uint_eq(grid_of(1, 1024), 1);
	ck_assert_uint_eq(grid_of(1000, 256), 4);
	ck_assert_uint_eq(grid_of(1024, 256), 4);
	ck_assert_uint_eq(grid_of((1ull << 31) - 1, 1), (1u << 31) - 1);
}
END_TEST

/* Past what a grid holds the count is clamped, never cut to its low 32
 * bits: the kernel strides by the grid over the rest. */
START_TEST(grid_clamped_not_wrapped)
{
	ck_assert_uint_eq(grid_of(1ull << 32, 1), (1u << 31) - 1);
	ck_assert_uint_eq(grid_of((1ull << 32) + 1, 1), (1u << 31) - 1);
	ck_assert_uint_eq(grid_of(1ull << 40, 1024), (1u << 30));
	ck_assert_uint_eq(grid_of(1ull << 42, 1024), (1u << 31) - 1);
	ck_assert_uint_eq(lab::max_grid, (1ull << 31) - 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lab");
	TCase *t = tcase_create("lab");
	tcase_add_test(t, grid_one_thread_an_element);
	tcase_add_test(t, grid_clamped_not_wrapped);
	suite_add_tcase(s, t);
	return run_suite(s, 0);
}
