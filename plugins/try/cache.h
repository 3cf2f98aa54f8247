/*
 * The cache of compiled kernels, so that running a kernel again costs no
 * compilation: $XDG_CACHE_HOME/gpulab (else $HOME/.cache/gpulab; either
 * must be absolute, or nothing is cached), one file a kernel, named by
 * the SHA-256 of everything the compiled code depends on.
 *
 * What the cache holds is run, so it is trusted only as far as it can
 * be (docs/security.md):
 *   - the folder must be a folder, not a link, owned by the user at mode
 *     0700, and each entry a file owned by the user at 0600; any other is
 *     refused in one line, and nothing is compiled or run;
 *   - each entry is signed (HMAC-SHA-256) with a secret of 32 random
 *     bytes kept in the folder (`secret`, 0600), over its key and its
 *     payload: an entry planted under another's name, corrupted or cut
 *     short does not verify, reads as absent, and is compiled again.
 * A file is written whole to a temporary name and renamed into place, so
 * a reader never sees half of one.  Plain C.
 */
#ifndef GPULAB_TRY_CACHE_H
#define GPULAB_TRY_CACHE_H

#include "sha256.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest entry read back: far above any kernel's code. */
#define CACHE_MAX_BYTES (64u << 20)

/* The SHA-256 of several pieces, each with its length, so that "ab" + "c"
 * and "a" + "bc" differ: start, add each, then hex. */
struct cache_hash {
	struct sha256 s;
};
void cache_hash_start(struct cache_hash *h);
void cache_hash_add(struct cache_hash *h, const void *data, size_t len);
/* 64 hex digits and a NUL. */
#define CACHE_KEY_LEN 64
void cache_hash_hex(struct cache_hash *h, char hex[CACHE_KEY_LEN + 1]);

/* The cache directory, from XDG_CACHE_HOME or HOME, each used only where
 * absolute; -1 with neither. */
int cache_dir(char *buf, size_t len);

/* The folder made where it is not, checked, and its secret read (made
 * where there is none): 0; -1 where it cannot be used (then nothing is
 * cached); -2 where it is refused, with why in err, one line naming it. */
int cache_trust(const char *dir, unsigned char secret[SHA256_BYTES], char *err, size_t errlen);

/* The entry `key` (from cache_hash_hex) in dir: 0 and a malloc'ed copy
 * of its payload; -1 where it is absent or does not verify; -2 where it
 * is refused (another's, or others may write it), with why in err. */
int cache_load(const char *dir, const unsigned char secret[SHA256_BYTES], const char *key, void **payload, size_t *len,
	       char *err, size_t errlen);

/* Store the entry, signed; 0, or -1 (the caller carries on uncached). */
int cache_store(const char *dir, const unsigned char secret[SHA256_BYTES], const char *key, const void *payload,
		size_t len);

/* Write all of data to fd, through EINTR and short writes: 0 or -1. */
int cache_write_all(int fd, const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
