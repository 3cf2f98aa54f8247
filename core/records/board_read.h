/*
 * gpulab board's records read into its document (emit/board_doc.h): each
 * grade record through the one check every reader goes through
 * (record_load), then what a board needs of it: its "grade" member, its
 * "date" (the time order) and its device's name (the board it is on).
 */
#ifndef GPULAB_RECORDS_BOARD_READ_H
#define GPULAB_RECORDS_BOARD_READ_H

#include "emit/board_doc.h"
#include "records/json.h"

#include <stddef.h>

/* The n records at paths, of one challenge, as b.  0; EXIT_USAGE with
 * one line naming the record and what is wrong with it in err (not a
 * record, not a grade record, no date, no device, another challenge
 * than the first record's); EXIT_NOMEM.  board_free() in every case. */
int board_read(struct board_doc *b, char *const *paths, size_t n, char *err, size_t len);
void board_free(struct board_doc *b);

/* The same for the n records already read as trees (record_read), paths
 * naming them in messages: b owns docs from then on, even on failure
 * (each is set NULL or freed).  board_read is this after reading. */
int board_take(struct board_doc *b, char *const *paths, struct json **docs, size_t n, char *err, size_t len);

/* A kernel file's student: its name without the directory and ".cu",
 * into buf. */
const char *board_student_of(char *buf, size_t len, const char *path);

#endif
