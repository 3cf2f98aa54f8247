/*
 * Host-only exercises, so the core can be tested without a GPU, and, built
 * with the macros below, the broken plugins the loader must refuse:
 *   FAKE_NAME       the name the plugin gives itself
 *   FAKE_ABI        the ABI version it claims
 *   FAKE_NO_VERIFY  an exercise without its verify callback
 *   FAKE_NO_ENTRY   no gpulab_plugin_entry symbol at all
 */
#include <gpulab/plugin.h>

#include <stdlib.h>
#include <string.h>

#ifndef FAKE_NAME
#define FAKE_NAME "fake"
#endif
#ifndef FAKE_ABI
#define FAKE_ABI GPULAB_ABI_VERSION
#endif

static int plan(struct gpulab_ctx *ctx)
{
	if (ctx->block % 32) {
		ctx->error(ctx, "block size %u is not a multiple of 32", ctx->block);
		return GPULAB_EPARAM;
	}
	ctx->bytes_read = ctx->n * 4;
	ctx->bytes_written = 4;
	ctx->device_bytes = ctx->n * 4;
	return GPULAB_OK;
}

static int plan_keyed(struct gpulab_ctx *ctx)
{
	uint64_t depth;
	const char *mode = ctx->param(ctx, "mode");
	if (strcmp(mode, "fast") && strcmp(mode, "slow")) {
		ctx->error(ctx, "-p mode=%s: expected fast or slow", mode);
		return GPULAB_EPARAM;
	}
	if (ctx->param_u64(ctx, "depth", &depth) != GPULAB_OK)
		return GPULAB_EPARAM;
	ctx->note(ctx, "depth", (double)depth);
	return plan(ctx);
}

static int setup(struct gpulab_ctx *ctx)
{
	ctx->state = malloc(16);
	return ctx->state ? GPULAB_OK : GPULAB_ENOMEM;
}

static int run(struct gpulab_ctx *ctx)
{
	(void)ctx;
	return GPULAB_OK;
}

static int verify_ok(struct gpulab_ctx *ctx)
{
	(void)ctx;
	return GPULAB_OK;
}

static int verify_wrong(struct gpulab_ctx *ctx)
{
	ctx->error(ctx, "sum: expected 42, got 41");
	return GPULAB_WRONG;
}

static void teardown(struct gpulab_ctx *ctx)
{
	free(ctx->state);
}

static const struct gpulab_param keyed_params[] = {
	{ "mode", "fast", "fast or slow" },
	{ "depth", "3", "how deep" },
	{ NULL, NULL, NULL }
};

#ifdef FAKE_NO_VERIFY
#define VERIFY_OK NULL
#else
#define VERIFY_OK verify_ok
#endif

static const struct gpulab_exercise exercises[] = {
	{ "ok", "always right", GPULAB_INT32 | GPULAB_FLOAT32, 1024, 256, NULL, NULL,
	  plan, setup, NULL, run, NULL, VERIFY_OK, teardown, NULL },
	{ "wrong", "always wrong", GPULAB_INT32, 1024, 256, NULL, NULL,
	  plan, setup, NULL, run, NULL, verify_wrong, teardown, NULL },
	{ "keyed", "takes plugin keys", GPULAB_INT32, 1024, 128, keyed_params, NULL,
	  plan_keyed, setup, NULL, run, NULL, verify_ok, teardown, NULL },
	{ "floaty", "float only", GPULAB_FLOAT32, 4096, 64, NULL, NULL,
	  plan, setup, NULL, run, run, verify_ok, teardown, NULL },
};

static const struct gpulab_plugin plugin = {
	FAKE_ABI, FAKE_NAME, "host-only exercises for the core's tests",
	exercises, sizeof exercises / sizeof exercises[0], "ok", NULL
};

#ifdef FAKE_NO_ENTRY
GPULAB_EXPORT const struct gpulab_plugin *not_the_entry(void)
#else
GPULAB_PLUGIN_ENTRY
#endif
{
	return &plugin;
}
