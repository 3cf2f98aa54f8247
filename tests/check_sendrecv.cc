/* The multigpu plugin's send/recv ring (plugins/multigpu/sendrecv.h),
 * replayed on the host for 1 to 8 ranks: a GPU machine here has two, so
 * this is where rings of 3 to 8 are proven.  Each round moves what its
 * sends read when the round starts, then its adds run, as on the GPUs;
 * the sends and receives between a pair are matched in issue order, as
 * NCCL matches them.  Every rank must end with the exact sum (ints
 * wrapping), and no two things that run at once on a rank's GPU may
 * touch the same element when either writes it:
 *   - the sends and receives of one round, in one NCCL group;
 *   - round t's adds (side stream) and round t+1's moves (main stream).
 * Round t+2 waits for round t's adds, so those pairs are not checked.
 * Inner loops test before they call Check, whose every ck_assert writes
 * a mark even when it passes.
 * The plugin skips a round with no step (sendrecv::plan::empty). */
#include "../plugins/multigpu/sendrecv.h"

#include <check.h>

#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

namespace {

enum buffer { IN, OUT, TMP };

/* What one stream's work reads and writes in one round, by buffer. */
struct touched {
	std::vector<uint8_t> reads[3], writes[3];
	explicit touched(uint64_t n) { clear(n); }
	void clear(uint64_t n)
	{
		for (int b = 0; b < 3; b++)
			reads[b].assign(n, 0), writes[b].assign(n, 0);
	}
	void mark(std::vector<uint8_t> *v, buffer b, uint64_t at, uint64_t len)
	{
		for (uint64_t i = at; i < at + len; i++)
			v[b].at(i) = 1;
	}
	void read(buffer b, uint64_t at, uint64_t len) { mark(reads, b, at, len); }
	void write(buffer b, uint64_t at, uint64_t len)
	{
		for (uint64_t i = at; i < at + len; i++)
			if (writes[b].at(i))
				ck_abort_msg("buffer %d element %llu written twice at once", b, (unsigned long long)i);
		mark(writes, b, at, len);
	}
};

/* Where a and b, running at once, clash: one writes what the other
 * touches; -1 if nowhere. */
long long clash(const touched &a, const touched &b)
{
	for (int k = 0; k < 3; k++)
		for (uint64_t i = 0; i < a.reads[k].size(); i++)
			if ((a.writes[k][i] && (b.reads[k][i] || b.writes[k][i])) || (b.writes[k][i] && a.reads[k][i]))
				return (long long)(k * 1000000000ll + (long long)i);
	return -1;
}

/* Where one NCCL group's sends read what its receives write; -1 if nowhere. */
long long self_clash(const touched &a)
{
	for (int k = 0; k < 3; k++)
		for (uint64_t i = 0; i < a.reads[k].size(); i++)
			if (a.writes[k][i] && a.reads[k][i])
				return (long long)(k * 1000000000ll + (long long)i);
	return -1;
}

uint32_t input(unsigned rank, uint64_t i) { return (uint32_t)(rank * 2654435761u + i * 40503u + 7u); }

struct rank_bufs {
	std::vector<uint32_t> in, out, tmp;
};

/* The ring of w ranks over n elements in slices of chunk bytes of ints,
 * replayed: the wrong element, or the clash, fails the test. */
void replay(unsigned w, uint64_t n, uint64_t chunk)
{
	const sendrecv::plan p(n, w, chunk, sizeof(uint32_t));
	std::string what = std::to_string(w) + " ranks, n " + std::to_string(n) + ", chunk " + std::to_string(chunk);
	std::vector<rank_bufs> r(w);
	for (unsigned me = 0; me < w; me++) {
		r[me].in.resize(n), r[me].out.assign(n, 0xdeadbeef), r[me].tmp.assign(p.share, 0xdeadbeef);
		for (uint64_t i = 0; i < n; i++)
			r[me].in[i] = input(me, i);
	}
	if (w == 1)
		r[0].out = r[0].in; /* the plugin copies: a ring of one */
	/* round t-1's adds, and round t's moves and adds, per rank */
	std::vector<touched> adds_before(w, touched(n)), moves(w, touched(n)), adds(w, touched(n));
	for (long t = 0; t < p.rounds(); t++) {
		if (p.empty(t)) { /* skipped by the plugin: it must hold nothing */
			for (unsigned me = 0; me < w; me++)
				sendrecv::each_move(p, me, t, [&](const sendrecv::move &) {
					ck_abort_msg("%s: round %ld is empty and has a step", what.c_str(), t);
				});
			ck_assert_msg(p.pieces == 1 && t % 2, "%s: round %ld of %llu slices is empty", what.c_str(), t,
				      (unsigned long long)p.pieces);
			for (touched &a : adds_before) /* round t+1 waits for round t-1's adds */
				a.clear(n);
			continue;
		}
		std::vector<std::deque<std::vector<uint32_t>>> wire(w); /* to rank q, in order */
		for (unsigned me = 0; me < w; me++)
			moves[me].clear(n), adds[me].clear(n);
		for (unsigned me = 0; me < w; me++)
			sendrecv::each_move(p, me, t, [&](const sendrecv::move &m) {
				const std::vector<uint32_t> &src = m.from_in ? r[me].in : r[me].out;
				ck_assert_msg(m.send_len <= p.slice && m.recv_len <= p.slice, "%s: a slice too long", what.c_str());
				if (m.send_len) {
					moves[me].read(m.from_in ? IN : OUT, m.from, m.send_len);
					wire[(me + 1) % w].emplace_back(src.begin() + (long)m.from,
									src.begin() + (long)(m.from + m.send_len));
				}
			});
		for (unsigned me = 0; me < w; me++) {
			sendrecv::each_move(p, me, t, [&](const sendrecv::move &m) {
				if (!m.recv_len)
					return;
				ck_assert_msg(!wire[me].empty() && wire[me].front().size() == m.recv_len,
					      "%s: rank %u round %ld: a receive of %llu that no send matches", what.c_str(), me, t,
					      (unsigned long long)m.recv_len);
				std::vector<uint32_t> &dst = m.into_tmp ? r[me].tmp : r[me].out;
				moves[me].write(m.into_tmp ? TMP : OUT, m.into, m.recv_len);
				std::copy(wire[me].front().begin(), wire[me].front().end(), dst.begin() + (long)m.into);
				wire[me].pop_front();
			});
			ck_assert_msg(wire[me].empty(), "%s: rank %u round %ld: a send that no receive matches", what.c_str(), me, t);
		}
		for (unsigned me = 0; me < w; me++) {
			sendrecv::each_move(p, me, t, [&](const sendrecv::move &m) {
				if (!m.into_tmp || !m.recv_len)
					return;
				adds[me].read(IN, m.sum, m.recv_len);
				adds[me].read(TMP, m.into, m.recv_len);
				adds[me].write(OUT, m.sum, m.recv_len);
				for (uint64_t i = 0; i < m.recv_len; i++)
					r[me].out[m.sum + i] = r[me].in[m.sum + i] + r[me].tmp[m.into + i];
			});
			long long at = self_clash(moves[me]);
			ck_assert_msg(at < 0, "%s: rank %u: round %ld sends what it receives, at %lld", what.c_str(), me, t, at);
			at = clash(adds_before[me], moves[me]);
			ck_assert_msg(at < 0, "%s: rank %u: round %ld's adds and round %ld's moves both touch %lld", what.c_str(),
				      me, t - 1, t, at);
		}
		std::swap(adds_before, adds);
	}
	for (unsigned me = 0; me < w; me++)
		for (uint64_t i = 0; i < n; i++) {
			uint32_t want = 0;
			for (unsigned q = 0; q < w; q++)
				want += input(q, i);
			if (r[me].out[i] != want)
				ck_abort_msg("%s: rank %u out[%llu] = %u, expected %u", what.c_str(), me, (unsigned long long)i,
					     r[me].out[i], want);
		}
}

/* every width, at sizes with tails, one slice a chunk and many */
START_TEST(sums_every_width)
{
	const uint64_t sizes[] = { 1, 3, 7, 256, 1000, 4099, 20000 };
	const uint64_t chunks[] = { 1024, 4096, 1ull << 22 };
	for (uint64_t n : sizes)
		for (uint64_t chunk : chunks)
			replay((unsigned)_i, n, chunk);
}
END_TEST

/* The plan's arithmetic, exactly: slices of whole 256-element runs, at
 * least one; and the rounds that the last slice's last step needs. */
START_TEST(plan_exact)
{
	sendrecv::plan p(1000003, 2, 4u << 20, 4);
	ck_assert_uint_eq(p.share, 500002);
	ck_assert_uint_eq(p.slice, 1u << 20);
	ck_assert_uint_eq(p.pieces, 1);
	ck_assert_int_eq(p.rounds(), 3); /* slice 0: round 0 reduce-scatter, round 2 all-gather */
	sendrecv::plan q(1000003, 3, 1000, 4);
	ck_assert_uint_eq(q.slice, 256); /* 250 elements, rounded to one whole run */
	ck_assert_uint_eq(q.share, 333335);
	ck_assert_uint_eq(q.pieces, 1303); /* ceil(333335 / 256) */
	ck_assert_int_eq(q.rounds(), 1303 + 6);
	ck_assert_uint_eq(q.len(2, 1302), 333333 - 1302 * 256); /* the last chunk is 2 shorter */
	ck_assert_uint_eq(q.len(2, 1303), 0);
	ck_assert_int_eq(sendrecv::plan(5, 1, 1024, 4).rounds(), 0);
}
END_TEST

} // namespace

int main(void)
{
	Suite *s = suite_create("sendrecv");
	TCase *t = tcase_create("schedule");
	tcase_set_timeout(t, 120);
	tcase_add_loop_test(t, sums_every_width, 1, 9);
	tcase_add_test(t, plan_exact);
	suite_add_tcase(s, t);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
