/*
 * SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), for the cache of
 * compiled kernels: its names are a hash of everything the code depends
 * on, and each entry is signed with a secret of the user's own, so that
 * an entry nobody holding the secret wrote is never run.  A small file
 * of its own rather than a new dependency.  Plain C.
 */
#ifndef GPULAB_TRY_SHA256_H
#define GPULAB_TRY_SHA256_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SHA256_BYTES 32

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;          /* hashed so far */
	unsigned char block[64]; /* the part of a block not hashed yet */
};

void sha256_start(struct sha256 *s);
void sha256_add(struct sha256 *s, const void *data, size_t len);
void sha256_end(struct sha256 *s, unsigned char out[SHA256_BYTES]);

/* HMAC-SHA-256 of data under key. */
void sha256_hmac(const void *key, size_t key_len, const void *data, size_t len, unsigned char out[SHA256_BYTES]);

/* 2 * n lowercase hex digits of bytes, and a NUL, into hex. */
void sha256_hex(const unsigned char *bytes, size_t n, char *hex);

#ifdef __cplusplus
}
#endif

#endif
