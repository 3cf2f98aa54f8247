/* What gpulab learn prints as data: the map of lessons, and one lesson
 * with its verdict (learn/map.c). */
#ifndef GPULAB_LEARN_MAP_H
#define GPULAB_LEARN_MAP_H

#include "config/options.h"
#include "learn/lesson.h"
#include "learn/progress.h"
#include "learn/verdict.h"

#include <stdio.h>

/* The lessons in s with the progress p, the next one last: for people,
 * as JSON where f is json (gpulab-learn/1), or a table in CSV or Markdown. */
void learn_map(const struct lesson_set *s, const struct progress *p, enum format f, FILE *out);

/* What one lesson's run came to, for its document: the lesson's texts
 * with their placeholders filled, as gpulab learn LESSON prints them,
 * and the verdict where one was told. */
struct lesson_outcome {
	int ran;                  /* the experiment wrote a record */
	int verdict;              /* enum verdict, or -1: none told */
	double p;                 /* a speedup's U test p; NaN for none */
	struct figure_value f;    /* where verdict >= 0 (its samples not kept) */
	const char *error;        /* why no verdict was told, or NULL */
	const char *record;       /* the record kept, or NULL */
	const char *claim, *why, *here, *task, *because, *page; /* here, because: NULL for none */
};

/* Lesson l and its outcome r as one JSON document (gpulab-lesson/1). */
void learn_lesson_json(const struct lesson *l, const struct lesson_outcome *r, FILE *out);

#endif
