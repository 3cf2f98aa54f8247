/*
 * A record on disk as a journal (docs/record.md, "On disk"): a header
 * line, then one line per point, appended once and synced, never
 * rewritten, and a closing line when the run ends.
 *
 * journal_open, before anything runs, checks and locks the target
 * (io/outfile.h: no device, FIFO, socket or directory; a link
 * followed; one writer at a time, the holder's PID named) and opens its
 * temporary.  Nothing good is replaced by nothing: the header and the
 * first entry go to the temporary, synced and renamed over the target
 * (with its permissions) only once complete; every later entry is one
 * write(2) appended to the file and synced (fdatasync) before the next
 * entry is written.  A run that ends before its first entry leaves an
 * earlier record at the path as it was.
 *
 * An entry's sync runs on a thread of the journal's own while the next
 * point runs: on a busy disk an fdatasync takes tens of milliseconds, and
 * a sweep of short points would wait on it for a third of its time.  The
 * next entry waits for it, where it is not done yet: so at most one
 * entry, the last written, is ever unsynced.  A kill -9 loses nothing
 * written (the page cache outlives the process); a power loss, at most
 * that last entry (and the point under way), which every reader then
 * finds cut or missing.  A sync that fails is reported by the next
 * append; the closing line is synced before journal_close returns.
 * The signals are held while an entry is
 * written; a second signal that ends the process meanwhile removes the
 * temporary, or leaves at worst a torn last line, which every reader
 * drops with a warning.
 */
#ifndef GPULAB_JOURNAL_H
#define GPULAB_JOURNAL_H

#include "io/outfile.h"

/* What an existing target must hold to be replaced: 1, or 0 with why in
 * err.  The journal's writer says (records/schema.h: a gpulab record). */
typedef int journal_accepts(int fd, char *err, size_t len);

#include <pthread.h>
#include <stddef.h>

struct journal {
	char path[PATH_MAX];                        /* the target, links followed */
	char tmp[PATH_MAX + sizeof OUTFILE_SUFFIX];
	int fd;             /* the temporary, which becomes the journal; -1 */
	int old;            /* the target as it was, locked; -1 (none) */
	unsigned long names; /* the target's names as it was (hard links); 0: none */
	int committed;      /* the temporary is the target now */
	char *header;       /* written with the first entry */
	size_t nheader;
	unsigned long long written; /* bytes written in all */
	pthread_t syncer;   /* syncs what was appended (above) */
	pthread_mutex_t mu;
	pthread_cond_t wake, synced;
	int has_syncer, dirty, syncing, stop, sync_errno;
};

/* Check and lock path, open its temporary: 0, or EXIT_USAGE with why in
 * err (the caller names the path).  An existing path must be one that
 * `accepts` takes (NULL: any, as --resume, which reads it as a record
 * and says itself what it cannot take). */
int journal_open(struct journal *j, const char *path, journal_accepts *accepts, char *err, size_t len);

/* The header line (and what goes with it), written with the first
 * entry: text is the journal's from then on, freed by journal_close. */
void journal_header(struct journal *j, char *text, size_t n);

/* One entry, a line: with the header into the temporary, synced, and
 * renamed over the target the first time; appended and synced after.
 * 0, or EXIT_USAGE with why in err (a failed write, or a failed sync of
 * an entry before). */
int journal_append(struct journal *j, const char *text, size_t n, char *err, size_t len);

/* The header alone committed, as the whole journal (a record upgraded
 * whose run did not finish has no closing line to commit it with). */
int journal_commit_header(struct journal *j, char *err, size_t len);

/* Has the first entry reached the target? */
int journal_committed(const struct journal *j);

/* Was there a record at the target when the journal was opened? */
int journal_replaces(const struct journal *j);

/* Where the record it replaced had other names (hard links), one
 * warning on stderr, `name` as the user gave it: those names keep the
 * record as it was, since the new one is renamed over this name alone
 * (docs/record.md).  Nothing before the first entry is committed. */
void journal_say_other_names(const struct journal *j, const char *name);

/* The last entries synced, unlocked and closed; where nothing was
 * committed, the temporary is removed and the target left as it was. */
void journal_close(struct journal *j);

#endif
