/*
 * The cache of compiled kernels, so that running a kernel again costs no
 * compilation: $XDG_CACHE_HOME/gpulab (else ~/.cache/gpulab), one file a
 * kernel, named by a hash of everything the compiled code depends on.
 *
 * A file is written whole to a temporary name and renamed into place, so
 * a reader never sees half of one; and it carries its own key, length and
 * checksum, so a file cut short, corrupted or planted under another name
 * reads as absent and is compiled again.  The hash is not cryptographic:
 * the directory is the user's own.  Plain C.
 */
#ifndef GPULAB_TRY_CACHE_H
#define GPULAB_TRY_CACHE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest entry read back: far above any kernel's code. */
#define CACHE_MAX_BYTES (64u << 20)

/* 128 bits of hash over several pieces: start, add each, then hex. */
struct cache_hash {
	uint64_t h[2];
};
void cache_hash_start(struct cache_hash *h);
void cache_hash_add(struct cache_hash *h, const void *data, size_t len);
/* 32 hex digits and a NUL. */
void cache_hash_hex(const struct cache_hash *h, char hex[33]);

/* The cache directory, from XDG_CACHE_HOME or HOME; -1 with neither. */
int cache_dir(char *buf, size_t len);

/* The entry `key` (from cache_hash_hex) in dir: 0 and a malloc'ed copy of
 * its payload, or -1 where it is absent or not sound. */
int cache_load(const char *dir, const char *key, void **payload, size_t *len);

/* Store the entry, making dir if need be; 0, or -1 (the caller carries
 * on uncached). */
int cache_store(const char *dir, const char *key, const void *payload, size_t len);

/* Write all of data to fd, through EINTR and short writes: 0 or -1. */
int cache_write_all(int fd, const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
