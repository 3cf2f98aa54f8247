#include "contract.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A decimal from 1 to max, the whole of s[0..n). */
static int number(const char *s, size_t n, unsigned max, unsigned *out)
{
	uint64_t v = 0;
	if (n == 0 || n > 9)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v < 1 || v > max)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* "N" (y = 1) or "WxH", each side from 1 to max. */
static int sides(const char *s, size_t n, unsigned max, unsigned *x, unsigned *y)
{
	const char *by = memchr(s, 'x', n);
	*y = 1;
	if (!by)
		return number(s, n, max, x);
	return number(s, (size_t)(by - s), max, x) || number(by + 1, n - (size_t)(by - s) - 1, max, y) ? -1 : 0;
}

static int is(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && !memcmp(s, word, n);
}

/* The index in contract_keys of the key w[0..k), which words() knows. */
static int which_key(size_t k, const char *w)
{
	int i = 0;
	while (i < 4 && !is(w, k, contract_keys[i]))
		i++;
	return i;
}

const char *const contract_keys[5] = { "block", "per_thread", "tile", "grid", "finish" };

/* The words after "gpulab:" on one line. */
static int words(const char *p, const char *end, struct contract *c, char *err, size_t errlen)
{
	int seen_per_thread = 0, seen_tile = 0, seen_block = 0, seen_grid = 0;
	unsigned per_thread = 1;
	while (p < end) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		const char *w = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		size_t n = (size_t)(p - w);
		if (n == 0)
			break;
		const char *eq = memchr(w, '=', n);
		size_t k = eq ? (size_t)(eq - w) : n, vn = eq ? n - k - 1 : 0;
		const char *v = eq ? eq + 1 : w;
		int bad = 0, *seen = NULL;
		if (is(w, k, "block")) {
			seen = &seen_block;
			bad = sides(v, vn, CONTRACT_MAX_THREADS, &c->block_x, &c->block_y)
			      || (unsigned long)c->block_x * c->block_y > CONTRACT_MAX_THREADS;
		} else if (is(w, k, "per_thread")) {
			seen = &seen_per_thread;
			bad = number(v, vn, 4096, &per_thread);
		} else if (is(w, k, "tile")) {
			seen = &seen_tile;
			bad = sides(v, vn, CONTRACT_MAX_TILE, &c->tile_x, &c->tile_y);
		} else if (is(w, k, "grid")) {
			seen = &seen_grid;
			c->persistent = is(v, vn, "persistent");
			bad = !c->persistent && !is(v, vn, "tiles");
		} else if (is(w, k, "finish")) {
			seen = &c->finish_given;
			c->finish_device = is(v, vn, "device");
			bad = !c->finish_device && !is(v, vn, "host");
		} else {
			snprintf(err, errlen, "unknown key '%.*s' in the contract (block, per_thread, tile, grid, finish)",
				 (int)(k < 40 ? k : 40), w);
			return -1;
		}
		if (*seen || bad || !eq) {
			static const char *const takes[] = { "threads per block, N or WxH, at most 1024 in all",
							     "elements per thread, from 1 to 4096",
							     "elements per block, N or WxH, each side from 1 to 2^24",
							     "tiles or persistent", "host or device" };
			int which = seen == &seen_block ? 0 : seen == &seen_per_thread ? 1 : seen == &seen_tile ? 2
				  : seen == &seen_grid ? 3 : 4;
			if (*seen)
				snprintf(err, errlen, "'%.*s' is given twice", (int)k, w);
			else
				snprintf(err, errlen, "'%.*s': %.*s takes %s", (int)(n < 60 ? n : 60), w, (int)k, w, takes[which]);
			return -1;
		}
		*seen = 1;
		c->given |= 1u << which_key(k, w);
	}
	if (!seen_block) {
		snprintf(err, errlen, "the contract gives no block=N (threads per block)");
		return -1;
	}
	if (seen_tile && seen_per_thread) {
		snprintf(err, errlen, "give tile= or per_thread=, not both");
		return -1;
	}
	if (!seen_tile) {
		c->tile_x = c->block_x * per_thread;
		c->tile_y = c->block_y;
	}
	return 0;
}

/* Does the line [p, end) start, after blanks, with "//", blanks and
 * "gpulab:"?  Where its words begin, or NULL. */
static const char *contract_line(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p < 2 || p[0] != '/' || p[1] != '/')
		return NULL;
	for (p += 2; p < end && (*p == ' ' || *p == '\t');)
		p++;
	return end - p >= 7 && !memcmp(p, "gpulab:", 7) ? p + 7 : NULL;
}

int contract_parse(const char *src, size_t len, struct contract *c, char *err, size_t errlen)
{
	const char *p = src, *end = src + len;
	*c = (struct contract){ 0 };
	for (int line = 1; p < end; line++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *stop = eol ? eol : end;
		const char *w = contract_line(p, stop);
		if (stop > p && stop[-1] == '\r')
			stop--;
		if (w && c->line) {
			snprintf(err, errlen, "a second contract line; the first is line %d", c->line);
			c->line = line;
			return -1;
		}
		if (w) {
			c->line = line;
			if (words(w, stop < w ? w : stop, c, err, errlen))
				return -1;
		}
		p = eol ? eol + 1 : end;
	}
	if (!c->line) {
		snprintf(err, errlen, "no contract line, such as `// gpulab: block=256`, says how to launch the kernel");
		return -1;
	}
	return 0;
}

void contract_defines(const struct contract *c, char defs[CONTRACT_NDEFS][48])
{
	snprintf(defs[0], 48, "-DGPULAB_BLOCK_X=%u", c->block_x);
	snprintf(defs[1], 48, "-DGPULAB_BLOCK_Y=%u", c->block_y);
	snprintf(defs[2], 48, "-DGPULAB_BLOCK=%u", c->block_x * c->block_y);
	snprintf(defs[3], 48, "-DGPULAB_TILE_X=%u", c->tile_x);
	snprintf(defs[4], 48, "-DGPULAB_TILE_Y=%u", c->tile_y);
}

int contract_poison_hint(int finish_device, int is_int, double got, double want, char *buf, size_t len)
{
	if (is_int ? (uint32_t)(int64_t)got != (uint32_t)(int64_t)want - 1u : !isnan(got) || isnan(want))
		return 0;
	const char *what = is_int ? "off by exactly -1, the poison" : "NaN, the poison";
	if (finish_device)
		snprintf(buf, len, "%s past in[n - 1]: the kernel reads past the end of in (or adds partials[1] on, "
			 "which are never zeroed)", what);
	else
		snprintf(buf, len, "%s past in[n - 1] and in partials until written: a kernel that adds into "
			 "partials[0] (atomicAdd) declares finish=device, which zeroes partials[0] first; else each block "
			 "writes partials[blockIdx.x], and reads stop at in[n - 1]", what);
	return 1;
}
