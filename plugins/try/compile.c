#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "compile.h"

#include "cache.h"
#include "filter.h"
#include "log.h"

#include <nvrtc.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "?"
#endif

void compile_target(int arch, char *buf, size_t len)
{
	int n = 0, archs[128], best = 0, exact = 0;
	if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n > 128 || nvrtcGetSupportedArchs(archs) != NVRTC_SUCCESS)
		n = 0;
	for (int i = 0; i < n; i++) {
		exact |= archs[i] == arch;
		if (archs[i] <= arch && archs[i] > best)
			best = archs[i];
		if (arch == 0 && (best == 0 || archs[i] < best))
			best = archs[i]; /* no GPU: the oldest, which any newer one runs */
	}
	if (exact)
		snprintf(buf, len, "sm_%d", arch);
	else
		snprintf(buf, len, "compute_%d", best ? best : 75);
}

/* The options NVRTC gets; the cache key holds them all. */
struct options {
	char arch[48], defs[CONTRACT_NDEFS][48];
	const char *v[CONTRACT_NDEFS + 5];
	int n;
};

static void make_options(const struct compile_request *q, const char *target, struct options *o)
{
	snprintf(o->arch, sizeof o->arch, "--gpu-architecture=%s", target);
	contract_defines(q->contract, o->defs);
	o->n = 0;
	o->v[o->n++] = o->arch;
	o->v[o->n++] = "-std=c++17";
	o->v[o->n++] = "-lineinfo"; /* so that Nsight Compute shows the learner's lines */
	o->v[o->n++] = "--no-source-include"; /* not even the learner's own folder is searched */
	for (int i = 0; i < CONTRACT_NDEFS; i++)
		o->v[o->n++] = o->defs[i];
}

static int ntypes(const struct compile_request *q)
{
	int n = 0;
	while (n < COMPILE_MAX_TYPES && q->types[n])
		n++;
	return n;
}

/* The key of everything the code depends on: the whole source (the
 * learner's file and the contract's checks; the filter lets no other
 * file in), every option, NVRTC's version (its built-in headers with
 * it), and the driver and the GPU the code is for. */
static void cache_key(const struct compile_request *q, const struct options *o, char hex[CACHE_KEY_LEN + 1])
{
	struct cache_hash h;
	int major = 0, minor = 0;
	nvrtcVersion(&major, &minor);
	cache_hash_start(&h);
	char head[512];
	snprintf(head, sizeof head, "gpulab %s nvrtc %d.%d driver %d gpu %.300s kernel %s", PACKAGE_VERSION, major, minor,
		 q->driver, q->gpu ? q->gpu : "none", q->kernel);
	cache_hash_add(&h, head, strlen(head));
	for (int i = 0; i < o->n; i++)
		cache_hash_add(&h, o->v[i], strlen(o->v[i]));
	for (int i = 0; i < ntypes(q); i++)
		cache_hash_add(&h, q->types[i], strlen(q->types[i]));
	cache_hash_add(&h, q->checks, strlen(q->checks));
	cache_hash_add(&h, q->path, strlen(q->path)); /* the messages and line info name it */
	cache_hash_add(&h, q->source, q->source_len);
	cache_hash_hex(&h, hex);
}

/* A cache entry: the lowered names, each NUL-terminated, then the image. */
static int unpack(const char *data, size_t len, int types, struct compiled *out)
{
	size_t at = 0;
	for (int i = 0; i < types; i++) {
		const char *end = memchr(data + at, 0, len - at);
		if (!end || (size_t)(end - (data + at)) >= sizeof out->lowered[i])
			return -1;
		memcpy(out->lowered[i], data + at, (size_t)(end - (data + at)) + 1);
		at += (size_t)(end - (data + at)) + 1;
	}
	if (at == len || !(out->image = malloc(len - at)))
		return -1;
	memcpy(out->image, data + at, len - at);
	out->image_len = len - at;
	return 0;
}

static char *pack(const struct compiled *c, int types, size_t *len)
{
	size_t n = c->image_len;
	for (int i = 0; i < types; i++)
		n += strlen(c->lowered[i]) + 1;
	char *p = malloc(n), *at = p;
	for (int i = 0; p && i < types; i++)
		at = stpcpy(at, c->lowered[i]) + 1;
	if (p)
		memcpy(at, c->image, c->image_len);
	*len = n;
	return p;
}

/* The source with the contract's checks after it, under their own name. */
static char *whole_source(const struct compile_request *q)
{
	static const char line[] = "\n#line 1 \"" LOG_CONTRACT "\"\n";
	size_t n = q->source_len + sizeof line + strlen(q->checks);
	char *s = malloc(n + 1);
	if (s) {
		memcpy(s, q->source, q->source_len);
		strcpy(s + q->source_len, line);
		strcat(s + q->source_len, q->checks);
	}
	return s;
}

static enum compile_status nvrtc_failed(nvrtcResult r, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", what, nvrtcGetErrorString(r));
	return COMPILE_ERROR;
}

/* The compiled code of a program that compiled, into out. */
static enum compile_status results(nvrtcProgram p, const struct compile_request *q, int cubin, struct compiled *out,
				   char *err, size_t errlen)
{
	char name[300];
	nvrtcResult r;
	for (int i = 0; i < ntypes(q); i++) {
		const char *lowered;
		snprintf(name, sizeof name, "%s<%s>", q->kernel, q->types[i]);
		if ((r = nvrtcGetLoweredName(p, name, &lowered)) != NVRTC_SUCCESS)
			return nvrtc_failed(r, "nvrtcGetLoweredName", err, errlen);
		snprintf(out->lowered[i], sizeof out->lowered[i], "%s", lowered);
	}
	r = cubin ? nvrtcGetCUBINSize(p, &out->image_len) : nvrtcGetPTXSize(p, &out->image_len);
	if (r != NVRTC_SUCCESS)
		return nvrtc_failed(r, "nvrtcGetCode", err, errlen);
	if (!(out->image = malloc(out->image_len))) {
		snprintf(err, errlen, "out of memory for the compiled code");
		return COMPILE_ERROR;
	}
	r = cubin ? nvrtcGetCUBIN(p, out->image) : nvrtcGetPTX(p, out->image);
	return r == NVRTC_SUCCESS ? COMPILE_OK : nvrtc_failed(r, "nvrtcGetCode", err, errlen);
}

/* The compiler's messages about the learner's file and the contract's
 * checks, no other file's: the whole to `log`, the first error in err. */
static void report_log(nvrtcProgram p, const char *path, FILE *log, char *err, size_t errlen)
{
	size_t n = 0;
	char *text = nvrtcGetProgramLogSize(p, &n) == NVRTC_SUCCESS ? malloc(n + 1) : NULL, *own = NULL;
	if (text && nvrtcGetProgramLog(p, text) == NVRTC_SUCCESS) {
		text[n] = 0;
		if ((own = log_keep_own(text, path))) {
			if (log)
				log_write(own, log);
			log_first_error(own, err, errlen);
		}
	}
	if (!err[0])
		snprintf(err, errlen, "it does not compile");
	free(own);
	free(text);
}

static enum compile_status nvrtc_compile(const struct compile_request *q, const struct options *o, int cubin,
					 struct compiled *out, FILE *log, char *err, size_t errlen)
{
	char name[300], *src = whole_source(q);
	nvrtcProgram p;
	nvrtcResult r;
	enum compile_status st;
	if (!src) {
		snprintf(err, errlen, "out of memory for the source");
		return COMPILE_ERROR;
	}
	r = nvrtcCreateProgram(&p, src, q->path, 0, NULL, NULL);
	free(src);
	if (r != NVRTC_SUCCESS)
		return nvrtc_failed(r, "nvrtcCreateProgram", err, errlen);
	for (int i = 0; i < ntypes(q); i++) {
		snprintf(name, sizeof name, "%s<%s>", q->kernel, q->types[i]);
		nvrtcAddNameExpression(p, name);
	}
	r = nvrtcCompileProgram(p, o->n, o->v);
	if (r == NVRTC_ERROR_COMPILATION) {
		report_log(p, q->path, log, err, errlen);
		st = COMPILE_FAILED;
	} else {
		st = r == NVRTC_SUCCESS ? results(p, q, cubin, out, err, errlen) : nvrtc_failed(r, "nvrtcCompileProgram", err, errlen);
	}
	nvrtcDestroyProgram(&p);
	return st;
}

/* --- the compile bounded, in a child process ----------------------------- */

/* A macro bomb or a template that never ends must not stall a grader:
 * NVRTC runs in a child with a limit of CPU time and one of address space
 * beyond what this process already holds (the CUDA driver reserves much
 * of it, and the child inherits that), and the parent reads what it
 * made through a pipe.  A wall clock of twice the CPU limit and 10 s
 * more stops a child that waits instead of computing. */
struct bounds {
	double cpu_s, memory_mb;
};

/* The limits, from the environment where the teacher set them. */
static int compile_bounds(struct bounds *b, char *err, size_t errlen)
{
	static const struct {
		const char *name, *what;
		double def, max;
	} vars[] = { { "GPULAB_COMPILE_CPU_S", "seconds of CPU time", COMPILE_CPU_S, 86400 },
		     { "GPULAB_COMPILE_MEMORY_MB", "MiB of memory", COMPILE_MEMORY_MB, 1 << 24 } };
	double *v[] = { &b->cpu_s, &b->memory_mb };
	for (int i = 0; i < 2; i++) {
		const char *s = getenv(vars[i].name);
		char *end;
		*v[i] = vars[i].def;
		if (!s || !*s)
			continue;
		errno = 0;
		*v[i] = strtod(s, &end);
		if (errno || *end || !(*v[i] >= 1 && *v[i] <= vars[i].max)) {
			snprintf(err, errlen, "%s='%.40s': %s, from 1 to %.0f", vars[i].name, s, vars[i].what, vars[i].max);
			return -1;
		}
	}
	return 0;
}

/* Whether this build runs under AddressSanitizer, whose shadow memory
 * takes terabytes of address space: there, the memory limit is left out. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

/* The address space this process holds now, in bytes. */
static uint64_t address_space(void)
{
	unsigned long long pages = 0;
	FILE *f = fopen("/proc/self/statm", "re");
	if (f) {
		if (fscanf(f, "%llu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	return (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

static void limit(int resource, uint64_t v)
{
	struct rlimit r = { (rlim_t)v, (rlim_t)v };
	if (resource == RLIMIT_CPU)
		r.rlim_max = r.rlim_cur + 1; /* SIGXCPU first, SIGKILL a second on */
	setrlimit(resource, &r);
}

/* What the child sends: this, then err, the log and the packed code. */
struct reply {
	uint32_t status, err_len;
	uint64_t log_len, code_len;
};

static void child(const struct compile_request *q, const struct options *o, int cubin, const struct bounds *b, int fd)
{
	struct compiled c = { 0 };
	char err[1024] = "", *log = NULL, *code = NULL;
	size_t log_len = 0, code_len = 0;
	FILE *f = open_memstream(&log, &log_len);
	/* gpulab's handlers are the parent's: here a ^C or a grade's SIGTERM just ends the compile */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	limit(RLIMIT_CPU, (uint64_t)(b->cpu_s + 0.999));
	if (!UNDER_ASAN)
		limit(RLIMIT_AS, address_space() + (uint64_t)(b->memory_mb * 1048576.0));
	enum compile_status st = nvrtc_compile(q, o, cubin, &c, f, err, sizeof err);
	if (f)
		fclose(f);
	if (st == COMPILE_OK && !(code = pack(&c, ntypes(q), &code_len))) {
		st = COMPILE_ERROR; /* out of memory for what it made: the parent says which limit */
		snprintf(err, sizeof err, "NVRTC_ERROR_OUT_OF_MEMORY");
	}
	struct reply r = { (uint32_t)st, (uint32_t)strlen(err), log ? log_len : 0, code_len };
	int ok = cache_write_all(fd, &r, sizeof r) == 0 && cache_write_all(fd, err, r.err_len) == 0
		 && cache_write_all(fd, log ? log : "", (size_t)r.log_len) == 0 && cache_write_all(fd, code ? code : "", code_len) == 0;
	_exit(ok ? 0 : 1); /* nothing of the parent's is flushed or run at exit */
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* All the child sends, until it closes the pipe: 0; -1 past the wall
 * clock or the most a reply may hold. */
static int read_reply(int fd, double wall_s, char **buf, size_t *len)
{
	struct timespec t0;
	size_t cap = 0, most = (size_t)CACHE_MAX_BYTES + (16u << 20) + sizeof(struct reply) + 1024;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	*buf = NULL;
	*len = 0;
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		double left = wall_s - seconds_since(&t0);
		if (left <= 0)
			return -1;
		int r = poll(&p, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue; /* the clock is checked above */
		if (*len == cap) {
			char *more = cap < most ? realloc(*buf, cap = cap ? 2 * cap : 65536) : NULL;
			if (!more)
				return -1;
			*buf = more;
		}
		ssize_t n = read(fd, *buf + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		*len += (size_t)n;
	}
}

/* nvrtc_compile, bounded: the same answers, or COMPILE_LIMIT with which
 * limit it reached in err. */
static enum compile_status bounded_compile(const struct compile_request *q, const struct options *o, int cubin,
					   const struct bounds b, struct compiled *out, FILE *log, char *err, size_t errlen)
{
	int fds[2], st = 0;
	char *buf = NULL;
	size_t len = 0;
	fflush(NULL);
	if (pipe(fds)) {
		snprintf(err, errlen, "cannot start the compiler's process: %s", strerror(errno));
		return COMPILE_ERROR;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		child(q, o, cubin, &b, fds[1]);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		snprintf(err, errlen, "cannot start the compiler's process: %s", strerror(errno));
		return COMPILE_ERROR;
	}
	int late = read_reply(fds[0], 2 * b.cpu_s + 10, &buf, &len);
	close(fds[0]);
	if (late)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
	}
	struct reply r;
	int whole = !late && WIFEXITED(st) && WEXITSTATUS(st) == 0 && len >= sizeof r
		    && (memcpy(&r, buf, sizeof r), len == sizeof r + r.err_len + r.log_len + r.code_len);
	enum compile_status status = COMPILE_LIMIT;
	if (!whole && !late && !WIFSIGNALED(st)) {
		snprintf(err, errlen, "the compiler's process ended without its answer (exit %d)",
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		status = COMPILE_ERROR;
	} else if (!whole) {
		/* a signal: past the CPU limit, or (SIGSEGV, SIGABRT, SIGBUS) NVRTC's C++ out of memory */
		int sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
		if (late || sig == SIGXCPU || sig == SIGKILL)
			snprintf(err, errlen, "compile took too long: over %g s of CPU time (GPULAB_COMPILE_CPU_S sets it)",
				 b.cpu_s);
		else if (sig == SIGSEGV || sig == SIGABRT || sig == SIGBUS)
			snprintf(err, errlen, "compile used too much memory: over %g MiB (GPULAB_COMPILE_MEMORY_MB sets it)",
				 b.memory_mb);
		else
			snprintf(err, errlen, "the compiler's process was stopped by %s", strsignal(sig)), status = COMPILE_ERROR;
	} else {
		const char *at = buf + sizeof r, *oom = ": catastrophic error: out of memory"; /* EDG's words */
		snprintf(err, errlen, "%.*s", (int)r.err_len, at);
		status = (enum compile_status)r.status;
		if (status == COMPILE_FAILED && strlen(err) >= strlen(oom) && !strcmp(err + strlen(err) - strlen(oom), oom))
			status = COMPILE_ERROR, snprintf(err, errlen, "NVRTC_ERROR_OUT_OF_MEMORY"); /* said below, in one line */
		else if (log)
			fwrite(at + r.err_len, 1, (size_t)r.log_len, log);
		if (status == COMPILE_OK && unpack(at + r.err_len + r.log_len, (size_t)r.code_len, ntypes(q), out)) {
			snprintf(err, errlen, "the compiler's process sent code that cannot be read");
			status = COMPILE_ERROR;
		} else if (status == COMPILE_ERROR && strstr(err, "NVRTC_ERROR_OUT_OF_MEMORY")) {
			snprintf(err, errlen, "compile used too much memory: over %g MiB (GPULAB_COMPILE_MEMORY_MB sets it)",
				 b.memory_mb);
			status = COMPILE_LIMIT;
		}
	}
	free(buf);
	return status;
}

/* The last kernel compiled in this process: a run plans and sets up the
 * same kernel many times. */
static struct {
	char key[CACHE_KEY_LEN + 1];
	struct compiled c;
} memo;

static enum compile_status copy_out(const struct compiled *from, struct compiled *out, char *err, size_t errlen)
{
	*out = *from;
	if (!(out->image = malloc(from->image_len))) {
		snprintf(err, errlen, "out of memory for the compiled code");
		return COMPILE_ERROR;
	}
	memcpy(out->image, from->image, from->image_len);
	return COMPILE_OK;
}

/* Remember c as the last kernel compiled. */
static void remember(const char *key, const struct compiled *c)
{
	char err[64];
	compile_free(&memo.c);
	memo.key[0] = 0;
	if (copy_out(c, &memo.c, err, sizeof err) == COMPILE_OK)
		snprintf(memo.key, sizeof memo.key, "%s", key);
}

enum compile_status compile_kernel(const struct compile_request *q, struct compiled *out, FILE *log, char *err,
				   size_t errlen)
{
	struct options o;
	char key[CACHE_KEY_LEN + 1], dir[4096], why[512];
	unsigned char secret[SHA256_BYTES];
	void *data;
	size_t len;
	int cache = cache_dir(dir, sizeof dir), line;
	struct bounds b;
	*out = (struct compiled){ 0 };
	err[0] = 0;
	if (compile_bounds(&b, err, errlen))
		return COMPILE_LIMIT; /* a limit set wrong is refused even where the cache would answer */
	if (filter_source(q->source, q->source_len, filter_no_headers, &line, why, sizeof why)) {
		snprintf(err, errlen, "%s:%d: %s", q->path, line, why);
		return COMPILE_REFUSED;
	}
	compile_target(q->arch, out->target, sizeof out->target);
	make_options(q, out->target, &o);
	cache_key(q, &o, key);
	if (memo.key[0] && !strcmp(memo.key, key))
		return copy_out(&memo.c, out, err, errlen);
	if (cache == 0 && (cache = cache_trust(dir, secret, err, errlen)) == -2)
		return COMPILE_REFUSED;
	int found = cache == 0 ? cache_load(dir, secret, key, &data, &len, err, errlen) : -1;
	if (found == -2)
		return COMPILE_REFUSED;
	if (found == 0) {
		int ok = unpack(data, len, ntypes(q), out) == 0;
		free(data);
		if (ok) {
			out->cached = 1;
			remember(key, out);
			return COMPILE_OK;
		}
		compile_free(out); /* not sound: compiled again, and replaced */
	}
	enum compile_status st = bounded_compile(q, &o, !strncmp(out->target, "sm_", 3), b, out, log, err, errlen);
	if (st != COMPILE_OK) {
		compile_free(out);
		return st;
	}
	char *packed = cache == 0 ? pack(out, ntypes(q), &len) : NULL;
	if (packed)
		cache_store(dir, secret, key, packed, len);
	free(packed);
	remember(key, out);
	return COMPILE_OK;
}

void compile_cache_key(const struct compile_request *q, char key[CACHE_KEY_LEN + 1])
{
	struct options o;
	char target[32];
	compile_target(q->arch, target, sizeof target);
	make_options(q, target, &o);
	cache_key(q, &o, key);
}

void compile_free(struct compiled *c)
{
	free(c->image);
	c->image = NULL;
	c->image_len = 0;
}
