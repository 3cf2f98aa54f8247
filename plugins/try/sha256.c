#include "sha256.h"

#include <string.h>

static const uint32_t k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

static void compress(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a[8];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(a, h, sizeof a);
	for (int i = 0; i < 64; i++) {
		uint32_t s1 = rotr(a[4], 6) ^ rotr(a[4], 11) ^ rotr(a[4], 25), ch = (a[4] & a[5]) ^ (~a[4] & a[6]);
		uint32_t t1 = a[7] + s1 + ch + k[i] + w[i];
		uint32_t s0 = rotr(a[0], 2) ^ rotr(a[0], 13) ^ rotr(a[0], 22), maj = (a[0] & a[1]) ^ (a[0] & a[2]) ^ (a[1] & a[2]);
		memmove(a + 1, a, 7 * sizeof a[0]);
		a[4] += t1;
		a[0] = t1 + s0 + maj;
	}
	for (int i = 0; i < 8; i++)
		h[i] += a[i];
}

void sha256_start(struct sha256 *s)
{
	static const uint32_t init[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	memcpy(s->h, init, sizeof init);
	s->bytes = 0;
}

void sha256_add(struct sha256 *s, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t have = (size_t)(s->bytes % 64);
	s->bytes += len;
	if (have) {
		size_t take = len < 64 - have ? len : 64 - have;
		memcpy(s->block + have, p, take);
		p += take, len -= take;
		if (have + take < 64)
			return;
		compress(s->h, s->block);
	}
	for (; len >= 64; p += 64, len -= 64)
		compress(s->h, p);
	memcpy(s->block, p, len);
}

void sha256_end(struct sha256 *s, unsigned char out[SHA256_BYTES])
{
	uint64_t bits = s->bytes * 8;
	unsigned char pad[72] = { 0x80 };
	size_t have = (size_t)(s->bytes % 64), n = (have < 56 ? 56 : 120) - have;
	for (int i = 0; i < 8; i++)
		pad[n + (size_t)i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_add(s, pad, n + 8);
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 4; j++)
			out[4 * i + j] = (unsigned char)(s->h[i] >> (24 - 8 * j));
}

void sha256_hmac(const void *key, size_t key_len, const void *data, size_t len, unsigned char out[SHA256_BYTES])
{
	unsigned char k0[64] = { 0 }, pad[64], inner[SHA256_BYTES];
	struct sha256 s;
	if (key_len > 64) {
		sha256_start(&s);
		sha256_add(&s, key, key_len);
		sha256_end(&s, k0);
	} else {
		memcpy(k0, key, key_len);
	}
	for (int i = 0; i < 64; i++)
		pad[i] = k0[i] ^ 0x36;
	sha256_start(&s);
	sha256_add(&s, pad, 64);
	sha256_add(&s, data, len);
	sha256_end(&s, inner);
	for (int i = 0; i < 64; i++)
		pad[i] = k0[i] ^ 0x5c;
	sha256_start(&s);
	sha256_add(&s, pad, 64);
	sha256_add(&s, inner, sizeof inner);
	sha256_end(&s, out);
}

void sha256_hex(const unsigned char *bytes, size_t n, char *hex)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		hex[2 * i] = digits[bytes[i] >> 4];
		hex[2 * i + 1] = digits[bytes[i] & 15];
	}
	hex[2 * n] = 0;
}
