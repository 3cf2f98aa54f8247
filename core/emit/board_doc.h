/*
 * gpulab board's document: a class's grade records of one challenge as
 * one board per GPU model, each student's best and history on it.
 * records/board_read.c fills it from the records, emit/standings.c
 * prints it in each format and draw/boards.c draws it: plain names and
 * numbers, so that neither needs anything above emit/.
 *
 * A student is a kernel file's name without its directory and ".cu"
 * (submissions/ada_shfl.cu is ada_shfl). A share is grade's ref_share:
 * the kernel's speed as a fraction of the challenge's reference (1: as
 * fast), higher is better.
 */
#ifndef GPULAB_EMIT_BOARD_DOC_H
#define GPULAB_EMIT_BOARD_DOC_H

#include <stddef.h>
#include <stdint.h>

#define BOARD_SCHEMA "gpulab-board/1"
#define BOARD_NONE SIZE_MAX

/* One grade record, in time order (its "date"; ties in the order named). */
struct board_record {
	const char *path, *date;
	const char *device;  /* device.name; "no GPU" for a test-mode record without one */
	int test;            /* grade --test's ("mode": "test"): the gate alone, never ranked */
};

/* A student in one record of the board's GPU. */
struct board_try {
	int present;          /* graded in that record */
	int test;             /* that record is grade --test's: no share, pass or fail */
	int measured;         /* ranked there, with a share */
	int passed;           /* a test-mode record's: the gate passed */
	size_t grade_rank;    /* grade's rank in that record; 0: none */
	double share;         /* NaN where not measured */
	const char *failure;  /* grade's word for it where it failed, else NULL */
};

struct board_student {
	const char *name;
	size_t rank;              /* on the board, by best share; 0: never measured */
	struct board_try *tries;  /* one per record of the board (struct board_gpu's), in its order */
	double first, best, latest; /* shares: the first measured, the best, the last ranked record's; NaN: none */
	size_t first_at, best_at, latest_at; /* which of tries (the best: the first time it was reached);
					      * latest_at BOARD_NONE: in no ranked record */
};

/* One GPU model's board. */
struct board_gpu {
	const char *device;
	size_t *records, nrecords;          /* indices in struct board_doc's records, in time order */
	struct board_student *students;     /* ranked ones first, by rank; then the others by name */
	size_t nstudents;
};

struct board_doc {
	const char *challenge;
	struct board_record *records;       /* every record, in time order */
	size_t nrecords;
	struct board_gpu *gpus;             /* by device name */
	size_t ngpus;
	void *owned;                        /* what the reader keeps alive (records/board_read.c) */
};

/* The day of an ISO date ("2026-10-08T09:00:00Z": "2026-10-08"), its
 * first 10 bytes, into day[11]: raw text still, to escape as printed. */
static inline const char *board_day(char day[11], const char *date)
{
	size_t n = 0;
	while (n < 10 && date[n])
		n++;
	for (size_t i = 0; i < n; i++)
		day[i] = date[i];
	day[n] = 0;
	return day;
}

/* Did student s change from their first measured share to their latest
 * record's (two measured tries apart)?  *by: latest - first. */
static inline int board_changed(const struct board_student *s, double *by)
{
	if (!s->rank || s->latest_at == BOARD_NONE || s->first_at == s->latest_at || !s->tries[s->latest_at].measured)
		return 0;
	*by = s->latest - s->first;
	return 1;
}

#endif
