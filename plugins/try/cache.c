#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "gpulab-kernel-cache 2"
#define SECRET "secret"

void cache_hash_start(struct cache_hash *h)
{
	sha256_start(&h->s);
}

void cache_hash_add(struct cache_hash *h, const void *data, size_t len)
{
	uint64_t n = len;
	sha256_add(&h->s, &n, sizeof n);
	sha256_add(&h->s, data, len);
}

void cache_hash_hex(struct cache_hash *h, char hex[CACHE_KEY_LEN + 1])
{
	unsigned char d[SHA256_BYTES];
	sha256_end(&h->s, d);
	sha256_hex(d, sizeof d, hex);
}

int cache_dir(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;
	if (xdg && xdg[0] == '/') /* the spec: a relative one is ignored */
		n = snprintf(buf, len, "%s/gpulab", xdg);
	else if (home && home[0] == '/') /* a relative HOME would put it under the current folder */
		n = snprintf(buf, len, "%s/.cache/gpulab", home);
	else
		return -1;
	return n > 0 && (size_t)n < len ? 0 : -1;
}

static int valid_key(const char *key)
{
	return strlen(key) == CACHE_KEY_LEN && strspn(key, "0123456789abcdef") == CACHE_KEY_LEN;
}

/* Is st the user's alone: owned by them, and no one else's bits set?
 * Else why, into err, naming path. */
static int yours_alone(const struct stat *st, const char *path, unsigned mode, char *err, size_t errlen)
{
	if (st->st_uid != geteuid())
		snprintf(err, errlen, "%s: owned by uid %u, not by you: a kernel cache must be yours alone, refused (remove it)",
			 path, (unsigned)st->st_uid);
	else if (st->st_mode & 077)
		snprintf(err, errlen, "%s: mode %04o, others may %s it: a kernel cache must be yours alone (chmod %o it)", path,
			 (unsigned)(st->st_mode & 07777), st->st_mode & 022 ? "write" : "read", mode);
	else
		return 0;
	return -2;
}

/* The signature of an entry: HMAC-SHA-256 under the secret of its key
 * and its payload, in hex. */
static void sign(const unsigned char secret[SHA256_BYTES], const char *key, const void *payload, size_t len,
		 char hex[2 * SHA256_BYTES + 1])
{
	unsigned char mac[SHA256_BYTES];
	char *both = malloc(CACHE_KEY_LEN + 1 + len);
	hex[0] = 0;
	if (!both)
		return;
	memcpy(both, key, CACHE_KEY_LEN);
	both[CACHE_KEY_LEN] = '\n';
	memcpy(both + CACHE_KEY_LEN + 1, payload, len);
	sha256_hmac(secret, SHA256_BYTES, both, CACHE_KEY_LEN + 1 + len, mac);
	free(both);
	sha256_hex(mac, sizeof mac, hex);
}

/* The header: magic, key, payload length, signature, one line. */
static int header(char *buf, size_t len, const char *key, size_t n, const char *mac)
{
	return snprintf(buf, len, MAGIC " %s %zu %s\n", key, n, mac);
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

/* A private file of dir's, opened for reading where it is one: its
 * descriptor; -1 where it is absent or unreadable; -2 refused. */
static int open_private(const char *path, struct stat *st, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ELOOP) {
			snprintf(err, errlen, "%s: a symbolic link: a kernel cache's files must be its own, refused (remove it)", path);
			return -2;
		}
		return -1;
	}
	if (fstat(fd, st) || !S_ISREG(st->st_mode)) {
		close(fd);
		snprintf(err, errlen, "%s: not a regular file: refused (remove it)", path);
		return -2;
	}
	if (yours_alone(st, path, 0600, err, errlen)) {
		close(fd);
		return -2;
	}
	return fd;
}

/* The secret, made whole beside its name and linked into place, so that
 * two processes making it at once agree on one. */
static int make_secret(const char *dir, const char *path)
{
	unsigned char bytes[SHA256_BYTES];
	char tmp[4300];
	snprintf(tmp, sizeof tmp, "%s/.secret.XXXXXX", dir);
	if (getrandom(bytes, sizeof bytes, 0) != (ssize_t)sizeof bytes)
		return -1;
	int fd = mkstemp(tmp), ok = fd >= 0 && cache_write_all(fd, bytes, sizeof bytes) == 0;
	if (fd >= 0)
		ok &= close(fd) == 0;
	ok = ok && link(tmp, path) == 0;
	if (fd >= 0)
		unlink(tmp);
	return ok || errno == EEXIST ? 0 : -1;
}

int cache_trust(const char *dir, unsigned char secret[SHA256_BYTES], char *err, size_t errlen)
{
	char path[4200];
	struct stat st;
	if (snprintf(path, sizeof path, "%s/" SECRET, dir) >= (int)sizeof path)
		return -1;
	make_dirs(dir);
	if (lstat(dir, &st))
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: %s, not a folder: a kernel cache must be yours alone, refused", dir,
			 S_ISLNK(st.st_mode) ? "a symbolic link" : "a file");
		return -2;
	}
	if (yours_alone(&st, dir, 0700, err, errlen))
		return -2;
	for (int tries = 0; tries < 2; tries++) {
		int fd = open_private(path, &st, err, errlen);
		if (fd == -2)
			return -2;
		if (fd >= 0) {
			ssize_t n = st.st_size == SHA256_BYTES ? read(fd, secret, SHA256_BYTES) : -1;
			close(fd);
			if (n == SHA256_BYTES)
				return 0;
			snprintf(err, errlen, "%s: not %d bytes: refused (remove it)", path, SHA256_BYTES);
			return -2;
		}
		if (make_secret(dir, path))
			return -1;
	}
	return -1;
}

int cache_load(const char *dir, const unsigned char secret[SHA256_BYTES], const char *key, void **payload, size_t *len,
	       char *err, size_t errlen)
{
	char path[4200], want[256], got[256], mac[2 * SHA256_BYTES + 1];
	struct stat st;
	*payload = NULL;
	if (!valid_key(key) || snprintf(path, sizeof path, "%s/%s.bin", dir, key) >= (int)sizeof path)
		return -1;
	int fd = open_private(path, &st, err, errlen);
	FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return fd == -2 ? -2 : -1;
	}
	char *data = NULL;
	size_t n = 0;
	int ok = st.st_size <= CACHE_MAX_BYTES && fgets(got, sizeof got, f) != NULL;
	if (ok && (ok = strlen(got) <= (size_t)st.st_size)) {
		n = (size_t)st.st_size - strlen(got);
		ok = (data = malloc(n ? n : 1)) && fread(data, 1, n, f) == n;
	}
	fclose(f);
	/* the header must be exactly the one this payload would get, signed with the secret */
	if (ok) {
		sign(secret, key, data, n, mac);
		ok = mac[0] && header(want, sizeof want, key, n, mac) > 0 && !strcmp(want, got);
	}
	if (ok) {
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

int cache_store(const char *dir, const unsigned char secret[SHA256_BYTES], const char *key, const void *payload,
		size_t len)
{
	char path[4200], tmp[4300], head[256], mac[2 * SHA256_BYTES + 1];
	if (!valid_key(key) || len > CACHE_MAX_BYTES || snprintf(path, sizeof path, "%s/%s.bin", dir, key) >= (int)sizeof path)
		return -1;
	sign(secret, key, payload, len, mac);
	if (!mac[0])
		return -1;
	snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
	int fd = mkstemp(tmp); /* 0600, O_EXCL */
	if (fd < 0)
		return -1;
	int hl = header(head, sizeof head, key, len, mac);
	int ok = cache_write_all(fd, head, (size_t)hl) == 0 && cache_write_all(fd, payload, len) == 0;
	ok &= close(fd) == 0;
	if (ok && rename(tmp, path) == 0)
		return 0;
	unlink(tmp);
	return -1;
}
