/* libFuzzer target: a challenge's challenge.ini (core/plugins/challenge.c),
 * which anyone may write and gpulab reads when it starts.  Whatever the
 * text, the reader ends; a refusal says why in one line naming the file;
 * a challenge accepted holds within its limits, and its gate (the test
 * sizes as try's cases) and signature fit the buffers the try plugin
 * gives them, each case within the 255 bytes a gate case may have. */
#include "plugins/challenge.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_accepted(const struct challenge *c)
{
	char gate[4096], sig[400];
	if (!c->name[0] || !c->kernel[0] || c->nargs < 1 || c->nargs > CHALLENGE_MAX_ARGS || c->ntests < 1
	    || c->nbench < 1 || c->ntests > CHALLENGE_MAX_SIZES || c->nbench > CHALLENGE_MAX_SIZES || !c->types
	    || (c->types & ~(unsigned)(CHALLENGE_INT | CHALLENGE_FLOAT)) || !(c->launch & LAUNCH_BLOCK)
	    || c->min > c->max || c->kmin > c->kmax || c->tolerance < 0 || c->tolerance >= 1)
		abort();
	for (int i = 0; i < c->ntests + c->nbench; i++) {
		const struct challenge_size *s = i < c->ntests ? &c->tests[i] : &c->bench[i - c->ntests];
		if (!s->x || !s->y || s->x * s->y > CHALLENGE_MAX_ELEMENTS || s->x > 0x7fffffff || (!c->two_d && s->y != 1))
			abort();
	}
	if (challenge_gate(c, gate, sizeof gate) != 0)
		abort();
	for (const char *p = gate; *p;) {
		size_t n = strcspn(p, ";");
		if (n > 255)
			abort();
		p += n + (p[n] == ';');
	}
	challenge_signature(c, sig, sizeof sig);
	if (strlen(sig) + 1 >= sizeof sig)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct challenge c;
	char err[1024];
	err[0] = 0;
	if (challenge_parse(&c, "f/challenge.ini", (const char *)data, size, err, sizeof err) != 0) {
		if (strncmp(err, "f/challenge.ini", 15) || strchr(err, '\n'))
			abort(); /* one line, naming the file */
		return 0;
	}
	check_accepted(&c);
	return 0;
}
