/* <gpulab/lab.cuh>'s host arithmetic, compiled by the host's C++
 * compiler (its device code is nvcc's alone): lab::grid, which once
 * returned 2^32 blocks as an unsigned 0, so that `gpulab new`'s skeleton
 * launched nothing at n = 2^32 with -b 1 (issue 46, item 13); and the
 * test data made slice by slice on the host's cores, which must be the
 * one stream's values (issue 52: the multigpu plugin's references). */
#include <gpulab/lab.cuh>

#include <check.h>

#include <cstdint>
#include <vector>

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

/* The stream as it was made before slices: one rng, value after value. */
template <typename T>
std::vector<T> one_pass(uint64_t n, uint64_t seed)
{
	std::vector<T> v(n);
	lab::rng r{ seed };
	for (auto &x : v)
		x = lab::draw<T>(r);
	return v;
}

/* fill in slices (2^20 + 7 elements: one a thread, the last longer), and
 * each value alone, are the one pass's, bit for bit. */
START_TEST(fill_in_slices_is_one_stream)
{
	const uint64_t n = (1u << 20) + 7, seed = 4110;
	std::vector<int> want = one_pass<int>(n, seed), got(n, -1);
	lab::fill(got.data(), n, seed);
	ck_assert_msg(got == want, "ints made in slices differ from one pass");
	std::vector<float> fwant = one_pass<float>(n, seed + 1), fgot(n, -2.0f);
	lab::fill(fgot.data(), n, seed + 1);
	ck_assert_msg(fgot == fwant, "floats made in slices differ from one pass");
	for (uint64_t i : { (uint64_t)0, (uint64_t)1, (uint64_t)777, (uint64_t)(1u << 20) - 1, n - 1 }) {
		ck_assert_int_eq(lab::draw_at<int>(seed, i), want[i]);
		ck_assert_msg(lab::draw_at<float>(seed + 1, i) == fwant[i], "draw_at<float>(%llu)", (unsigned long long)i);
	}
}
END_TEST

/* in_slices answers the lowest index any slice found, whichever slice
 * finishes first; n where none did, for a small n in one call too. */
START_TEST(in_slices_finds_the_first)
{
	const uint64_t n = 3u << 20;
	for (uint64_t bad : { (uint64_t)5, (uint64_t)(1u << 20) + 3, n - 1 }) {
		uint64_t at = lab::in_slices(n, [&](uint64_t lo, uint64_t hi) {
			for (uint64_t i = lo; i < hi; i++)
				if (i >= bad && (i - bad) % 100000 == 0) /* bad, and every 100000th after it */
					return i;
			return hi;
		});
		ck_assert_uint_eq(at, bad);
	}
	ck_assert_uint_eq(lab::in_slices(n, [](uint64_t, uint64_t hi) { return hi; }), n);
	ck_assert_uint_eq(lab::in_slices(10, [](uint64_t lo, uint64_t hi) { return lo == 0 && hi == 10 ? 4 : 0; }), 4);
	ck_assert_uint_eq(lab::in_slices(0, [](uint64_t, uint64_t hi) { return hi; }), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lab");
	TCase *t = tcase_create("lab");
	tcase_add_test(t, grid_one_thread_an_element);
	tcase_add_test(t, grid_clamped_not_wrapped);
	tcase_add_test(t, fill_in_slices_is_one_stream);
	tcase_add_test(t, in_slices_finds_the_first);
	suite_add_tcase(s, t);
	return run_suite(s, 0);
}
