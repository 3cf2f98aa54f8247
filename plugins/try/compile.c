#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "compile.h"

#include "cache.h"
#include "filter.h"
#include "log.h"

#include <nvrtc.h>

#include <stdlib.h>
#include <string.h>

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

/* The key of everything the code depends on. */
static void cache_key(const struct compile_request *q, const struct options *o, char hex[33])
{
	struct cache_hash h;
	int major = 0, minor = 0;
	nvrtcVersion(&major, &minor);
	cache_hash_start(&h);
	char head[128];
	snprintf(head, sizeof head, "gpulab %s nvrtc %d.%d kernel %s", PACKAGE_VERSION, major, minor, q->kernel);
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

/* The last kernel compiled in this process: a run plans and sets up the
 * same kernel many times. */
static struct {
	char key[33];
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
	char key[33], dir[4096];
	void *data;
	size_t len;
	int have_dir = cache_dir(dir, sizeof dir) == 0, line;
	*out = (struct compiled){ 0 };
	err[0] = 0;
	char why[512];
	if (filter_source(q->source, q->source_len, filter_no_headers, &line, why, sizeof why)) {
		snprintf(err, errlen, "%s:%d: %s", q->path, line, why);
		return COMPILE_REFUSED;
	}
	compile_target(q->arch, out->target, sizeof out->target);
	make_options(q, out->target, &o);
	cache_key(q, &o, key);
	if (memo.key[0] && !strcmp(memo.key, key))
		return copy_out(&memo.c, out, err, errlen);
	if (have_dir && cache_load(dir, key, &data, &len) == 0) {
		int ok = unpack(data, len, ntypes(q), out) == 0;
		free(data);
		if (ok) {
			out->cached = 1;
			remember(key, out);
			return COMPILE_OK;
		}
		compile_free(out); /* not sound: compiled again, and replaced */
	}
	enum compile_status st = nvrtc_compile(q, &o, !strncmp(out->target, "sm_", 3), out, log, err, errlen);
	if (st != COMPILE_OK) {
		compile_free(out);
		return st;
	}
	char *packed = have_dir ? pack(out, ntypes(q), &len) : NULL;
	if (packed)
		cache_store(dir, key, packed, len);
	free(packed);
	remember(key, out);
	return COMPILE_OK;
}

void compile_free(struct compiled *c)
{
	free(c->image);
	c->image = NULL;
	c->image_len = 0;
}
