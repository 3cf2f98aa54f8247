/*
 * A record file read back, in either form (docs/record.md):
 *  - a journal (gpulab-record/2.x, what `run -o` writes): a header line,
 *    one line per point, and a closing line once the run ended;
 *  - a document (gpulab-record/1.x: what `--format json` prints, and
 *    what -o wrote before the journal).
 * Both become the tree of a document, so that every reader (compare,
 * report, --resume) sees one shape: a journal's header members, then
 * "interrupted" and "interruption" from its closing line, "finished",
 * and "results", its points in the order written.
 *
 * A journal's every line is checked alone.  A last line without its
 * newline is an entry cut off while it was written (a power loss, a
 * kill): it is dropped, with a warning.  Any other line that is not one
 * JSON object is corruption, refused with its line number.  A journal
 * without its closing line is a run that did not finish: the tree says
 * "finished": false and "interrupted": true, and the warning says so.
 */
#ifndef GPULAB_ONDISK_H
#define GPULAB_ONDISK_H

#include "records/json.h"

#include <stddef.h>
#include <stdio.h>

struct ondisk {
	int journal;       /* the file was a journal (else a 1.x document) */
	int finished;      /* a journal with its closing line, or any document */
	size_t points;     /* a journal's points */
	size_t torn_line;  /* the line number of a last entry cut off and dropped; 0 none */
	size_t torn_bytes; /* its bytes */
	size_t *line_at, *line_len; /* ondisk_read_lines: each point's line in the text */
};

/* text[0..len) of the file path names (in messages) as a document tree;
 * NULL with one line, naming path, in err. */
struct json *ondisk_parse(const char *path, const char *text, size_t len, struct ondisk *d, char *err, size_t errlen);

/* The same, reading path (a regular file of at most max bytes; one
 * still being appended to is read as far as it was when opened). */
struct json *ondisk_read(const char *path, size_t max, struct ondisk *d, char *err, size_t errlen);

/* The same, keeping the file's text (*text, to free) and, for a journal,
 * each point's line in it, point i at d->line_at[i] for d->line_len[i]
 * bytes (its newline aside), so that a reader may copy a point as it was
 * written rather than write its tree again (--resume's kept rows); NULL
 * for a document, whose points are no lines.  ondisk_lines_free after. */
struct json *ondisk_read_lines(const char *path, size_t max, struct ondisk *d, char **text, char *err, size_t errlen);
/* ondisk_parse, keeping the lines so (the text stays the caller's). */
struct json *ondisk_parse_lines(const char *path, const char *text, size_t len, struct ondisk *d, char *err,
				size_t errlen);
void ondisk_lines_free(struct ondisk *d);

/* The warning a reader gives for what ondisk_* found, one line naming
 * path ("" where there is nothing to say): an entry dropped, a run that
 * did not finish. */
const char *ondisk_warning(const char *path, const struct ondisk *d, char *buf, size_t len);

/* A JSON tree written back as JSON, on one line: numbers as written
 * (a packed array's from its doubles, exactly, without building its
 * nodes), strings escaped as the record's own are (a string is cut at a
 * \u0000 in it). */
void ondisk_write_tree(FILE *out, const struct json *v);

/* Does the open file fd hold a gpulab record (its first 4 KiB a JSON
 * object naming a "gpulab-record/" schema), or nothing at all?  1, or 0
 * with why in err: a journal replaces nothing else (a `-o code.cu` once
 * replaced a C file).  What journal_open is given to accept a target by
 * (io/journal.h). */
int ondisk_is_record(int fd, char *err, size_t len);

#endif
