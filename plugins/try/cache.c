#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "gpulab-kernel-cache 1"

/* splitmix64's finaliser: every input bit reaches every output bit. */
static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void cache_hash_start(struct cache_hash *h)
{
	h->h[0] = 0x6a09e667f3bcc908ull;
	h->h[1] = 0xbb67ae8584caa73bull;
}

/* Two lanes with different constants; the length goes in too, so that
 * "ab" + "c" and "a" + "bc" differ. */
void cache_hash_add(struct cache_hash *h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i += 8) {
		uint64_t w = 0;
		memcpy(&w, p + i, len - i < 8 ? len - i : 8);
		h->h[0] = mix(h->h[0] ^ w) + 0x9e3779b97f4a7c15ull;
		h->h[1] = mix(h->h[1] + w) ^ 0xd1b54a32d192ed03ull;
	}
	h->h[0] = mix(h->h[0] ^ len);
	h->h[1] = mix(h->h[1] + len);
}

void cache_hash_hex(const struct cache_hash *h, char hex[33])
{
	snprintf(hex, 33, "%016" PRIx64 "%016" PRIx64, h->h[0], h->h[1]);
}

static uint64_t checksum(const void *data, size_t len)
{
	struct cache_hash h;
	cache_hash_start(&h);
	cache_hash_add(&h, data, len);
	return h.h[0] ^ h.h[1];
}

int cache_dir(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;
	if (xdg && xdg[0] == '/') /* the spec: a relative one is ignored */
		n = snprintf(buf, len, "%s/gpulab", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.cache/gpulab", home);
	else
		return -1;
	return n > 0 && (size_t)n < len ? 0 : -1;
}

static int valid_key(const char *key)
{
	return strlen(key) == 32 && strspn(key, "0123456789abcdef") == 32;
}

/* The header: magic, key, payload length, checksum, one line. */
static int header(char *buf, size_t len, const char *key, size_t n, uint64_t sum)
{
	return snprintf(buf, len, MAGIC " %s %zu %016" PRIx64 "\n", key, n, sum);
}

int cache_load(const char *dir, const char *key, void **payload, size_t *len)
{
	char path[4200], want[128], got[128];
	struct stat st;
	*payload = NULL;
	if (!valid_key(key) || snprintf(path, sizeof path, "%s/%s.bin", dir, key) >= (int)sizeof path)
		return -1;
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	char *data = NULL;
	size_t n = 0;
	int ok = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= CACHE_MAX_BYTES
		 && fgets(got, sizeof got, f) != NULL;
	if (ok && (ok = strlen(got) <= (size_t)st.st_size)) {
		n = (size_t)st.st_size - strlen(got);
		ok = (data = malloc(n ? n : 1)) && fread(data, 1, n, f) == n;
	}
	fclose(f);
	/* the header must be exactly the one this payload would get */
	if (ok && header(want, sizeof want, key, n, checksum(data, n)) > 0 && !strcmp(want, got)) {
		*payload = data;
		*len = n;
		return 0;
	}
	free(data);
	return -1;
}

int cache_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* mkdir -p for the cache directory and its parents, private. */
static void make_dirs(const char *dir)
{
	char path[4200];
	snprintf(path, sizeof path, "%s", dir);
	for (char *p = path + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(path, 0700);
			*p = '/';
		}
	mkdir(path, 0700);
}

int cache_store(const char *dir, const char *key, const void *payload, size_t len)
{
	char path[4200], tmp[4300], head[128];
	if (!valid_key(key) || len > CACHE_MAX_BYTES || snprintf(path, sizeof path, "%s/%s.bin", dir, key) >= (int)sizeof path)
		return -1;
	make_dirs(dir);
	snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0)
		return -1;
	int hl = header(head, sizeof head, key, len, checksum(payload, len));
	int ok = cache_write_all(fd, head, (size_t)hl) == 0 && cache_write_all(fd, payload, len) == 0;
	ok &= close(fd) == 0;
	if (ok && rename(tmp, path) == 0)
		return 0;
	unlink(tmp);
	return -1;
}
