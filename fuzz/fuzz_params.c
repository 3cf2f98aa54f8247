/* libFuzzer target: typed values and sweep axes (config/params.c).  The
 * first byte picks a declaration, the rest is the text.  Whatever the
 * text, parsing ends; and where an axis is accepted, every value it
 * yields parses alone, and writes back as text that parses to the same
 * value. */
#include "config/params.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const struct gpulab_param decls[] = {
	{ .key = "c", .type = GPULAB_PARAM_COUNT, .def = "1", .help = "h", .min = 1, .max = 1 << 30 },
	{ .key = "u", .type = GPULAB_PARAM_COUNT, .def = "1", .help = "h" },
	{ .key = "i", .type = GPULAB_PARAM_INT, .def = "0", .help = "h", .min = -5, .max = 5 },
	{ .key = "j", .type = GPULAB_PARAM_INT, .def = "0", .help = "h" },
	{ .key = "e", .type = GPULAB_PARAM_ENUM, .def = "a", .help = "h", .choices = "a|bb|c_1" },
	{ .key = "s", .type = GPULAB_PARAM_SHAPE, .def = "1x1", .help = "h", .min = 1, .max = 1024 },
	{ .key = "t", .type = GPULAB_PARAM_SHAPE, .def = "1x1", .help = "h" },
	{ .key = "r", .type = GPULAB_PARAM_SEED, .def = "random", .help = "h" },
};

static void check_value(const struct gpulab_param *d, const char *text)
{
	struct param_value v, w;
	char why[256], back[128];
	if (param_parse(d, text, &v, why, sizeof why) != PARSE_OK)
		abort(); /* the axis said every value was good */
	param_format(d, &v, back, sizeof back);
	/* the union's 8 bytes: parse zeroes them before writing its member */
	if (param_parse(d, back, &w, why, sizeof why) != PARSE_OK || v.u != w.u || v.random != w.random)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[512], text[128];
	size_t count;
	if (size == 0)
		return 0;
	const struct gpulab_param *d = &decls[data[0] % (sizeof decls / sizeof decls[0])];
	char *s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = 0;
	if (param_axis(d, s, &count, why, sizeof why) == PARSE_OK)
		for (size_t i = 0; i < count && i < 4096; i++) {
			param_axis_value(s, i, text, sizeof text);
			check_value(d, text);
		}
	free(s);
	return 0;
}
