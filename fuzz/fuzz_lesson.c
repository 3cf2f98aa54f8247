/* libFuzzer target: a lesson of `gpulab learn` (core/config/lesson.c)
 * and the progress file beside it (core/records/progress.c), both INI
 * through inih.  Whatever the bytes: a refusal is one line naming the
 * file; a lesson accepted has every required text, plain (no control
 * character: it is printed to a terminal) and within its limit, a rule
 * with a finite value and a target above 0, a speedup's rule above 0
 * and a noise band from 0 to 100; a progress file accepted
 * writes back to text that reads back as the same entries. */
#include "config/lesson.h"
#include "records/progress.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_text(const char *s, int required)
{
	if (!s) {
		if (required)
			abort();
		return;
	}
	if (strlen(s) > LESSON_MAX_TEXT)
		abort();
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			abort();
}

static void check_refusal(const char *err, const char *file)
{
	if (!err[0] || strchr(err, '\n') || strncmp(err, file, strlen(file)))
		abort(); /* one line, naming the file */
}

static void check_lesson(const char *data, size_t size)
{
	struct lesson l;
	char err[1024] = "";
	if (lesson_parse(&l, "fuzz.ini", data, size, err, sizeof err)) {
		check_refusal(err, "fuzz.ini");
		lesson_free(&l);
		return;
	}
	const char *required[] = { l.chapter, l.topic, l.claim, l.book, l.run, l.figure, l.rule, l.why, l.docs,
				   l.challenge, l.target, l.task };
	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
		check_text(required[i], 1);
	check_text(l.unit, 0), check_text(l.because, 0), check_text(l.args, 0), check_text(l.notes, 0);
	if (!isfinite(l.cmp.value) || !(l.target_times > 0) || l.order < 1 || l.order > 999 || !strchr(l.fig.a.exercise, '.'))
		abort();
	if ((l.fig.kind == FIGURE_SPEEDUP && !(l.cmp.value > 0)) || !(l.noise >= 0 && l.noise <= 100)
	    || (l.fig.kind == FIGURE_NOTE && !l.fig.metric[0]))
		abort();
	lesson_free(&l);
}

/* What progress_save writes, without a file. */
static void check_progress(const char *data, size_t size)
{
	struct progress p = { .lock = -1 }, q = { .lock = -1 };
	char err[1024] = "";
	if (progress_parse(&p, "fuzz.ini", data, size, err, sizeof err)) {
		check_refusal(err, "fuzz.ini");
		progress_free(&p);
		return;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		abort();
	fputs("[gpulab]\nprogress = 1\n", f);
	for (size_t i = 0; i < p.n; i++)
		fprintf(f, "[lesson %s]\nseen = %s\npassed = %s\n", p.v[i].name, p.v[i].seen ? "yes" : "no",
			p.v[i].passed ? "yes" : "no");
	fclose(f);
	if (progress_parse(&q, "again.ini", text, len, err, sizeof err) || q.n != p.n)
		abort();
	for (size_t i = 0; i < p.n; i++)
		if (strcmp(p.v[i].name, q.v[i].name) || p.v[i].seen != q.v[i].seen || p.v[i].passed != q.v[i].passed)
			abort();
	free(text);
	progress_free(&p);
	progress_free(&q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > LESSON_MAX_BYTES)
		return 0;
	check_lesson((const char *)data, size);
	check_progress((const char *)data, size);
	return 0;
}
