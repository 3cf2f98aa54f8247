#include "io/journal.h"

#include "exitcode.h"
#include "fail.h"
#include "interrupt.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int journal_open(struct journal *j, const char *path, journal_accepts *accepts, char *err, size_t len)
{
	int rc;
	*j = (struct journal){ .fd = -1, .old = -1 };
	if ((rc = outfile_target(path, j->path, sizeof j->path, err, len)))
		return rc;
	snprintf(j->tmp, sizeof j->tmp, "%s%s", j->path, OUTFILE_SUFFIX);
	interrupt_temporary(j->tmp); /* a second signal removes it, on any thread */
	/* the temporary first: a writer before its first entry holds it */
	if ((j->fd = outfile_temporary(j->tmp, j->path, err, len)) < 0) {
		interrupt_temporary(NULL);
		return EXIT_USAGE;
	}
	/* then the target: a writer past its first entry holds it; and it
	 * must be a record, since a journal replaces nothing else */
	if ((j->old = outfile_lock_existing(j->path, err, len)) == -1
	    || (j->old >= 0 && accepts && !accepts(j->old, err, len))) {
		if (j->old >= 0)
			close(j->old);
		j->old = -1;
		unlink(j->tmp); /* ours, and locked: no other writer has it */
		close(j->fd);
		j->fd = -1;
		interrupt_temporary(NULL);
		return EXIT_USAGE;
	}
	struct stat st;
	j->names = j->old >= 0 && fstat(j->old, &st) == 0 ? (unsigned long)st.st_nlink : 0;
	return 0;
}

void journal_header(struct journal *j, char *text, size_t n)
{
	free(j->header);
	j->header = text; /* taken, not copied: a resumed record's kept rows are in it, 35 MB for 5 million samples */
	j->nheader = n;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w, n -= (size_t)w;
	}
	return 0;
}

/* The syncer: fdatasync whenever an append marked the journal dirty,
 * until told to stop with nothing left to sync; each sync done is told
 * to an append waiting for it (wait_synced). */
static void *sync_loop(void *arg)
{
	struct journal *j = arg;
	pthread_mutex_lock(&j->mu);
	for (;;) {
		while (!j->dirty && !j->stop)
			pthread_cond_wait(&j->wake, &j->mu);
		if (!j->dirty)
			break;
		j->dirty = 0;
		j->syncing = 1;
		pthread_mutex_unlock(&j->mu);
		int rc = outfile_sync(j->fd, 1), e = errno;
		pthread_mutex_lock(&j->mu);
		j->syncing = 0;
		if (rc && !j->sync_errno)
			j->sync_errno = e;
		pthread_cond_broadcast(&j->synced);
	}
	pthread_mutex_unlock(&j->mu);
	return NULL;
}

/* Every line appended so far on the disk: the syncer's sync of the last
 * one waited for, if it is not done (a point takes longer than a sync,
 * mostly: then nothing is waited for).  So at most one line, the last
 * written, is ever unsynced (docs/record.md). */
static void wait_synced(struct journal *j)
{
	if (!j->has_syncer)
		return;
	pthread_mutex_lock(&j->mu);
	while (j->dirty || j->syncing)
		pthread_cond_wait(&j->synced, &j->mu);
	pthread_mutex_unlock(&j->mu);
}

/* The syncer started, with every signal blocked on it, so that no
 * handler runs there; where it cannot be, appends sync themselves. */
static void start_syncer(struct journal *j)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_mutex_init(&j->mu, NULL);
	pthread_cond_init(&j->wake, NULL);
	pthread_cond_init(&j->synced, NULL);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	j->has_syncer = pthread_create(&j->syncer, NULL, sync_loop, j) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!j->has_syncer) {
		pthread_cond_destroy(&j->synced);
		pthread_cond_destroy(&j->wake);
		pthread_mutex_destroy(&j->mu);
	}
}

/* What was appended synced: by the syncer, or here where there is none.
 * 0, or -1 with errno from this sync or one the syncer made before. */
static int sync_later(struct journal *j)
{
	int e;
	if (!j->has_syncer)
		return outfile_sync(j->fd, 1);
	pthread_mutex_lock(&j->mu);
	e = j->sync_errno;
	j->dirty = 1;
	pthread_cond_signal(&j->wake);
	pthread_mutex_unlock(&j->mu);
	errno = e;
	return e ? -1 : 0;
}

/* The syncer told to finish what is dirty, and joined; the last sync
 * made here. */
static void stop_syncer(struct journal *j)
{
	if (!j->has_syncer)
		return;
	pthread_mutex_lock(&j->mu);
	j->stop = 1;
	pthread_cond_signal(&j->wake);
	pthread_mutex_unlock(&j->mu);
	pthread_join(j->syncer, NULL);
	pthread_cond_destroy(&j->synced);
	pthread_cond_destroy(&j->wake);
	pthread_mutex_destroy(&j->mu);
	j->has_syncer = 0;
}

/* The header and the first entry, whole and synced, put in the target's
 * place: the lock on the temporary is the target's from then on. */
static int commit(struct journal *j, const char *text, size_t n)
{
	if (write_all(j->fd, j->header, j->nheader) || write_all(j->fd, text, n) || outfile_sync(j->fd, 0)
	    || rename(j->tmp, j->path))
		return -1;
	j->committed = 1;
	j->written += j->nheader + n;
	free(j->header); /* written: not needed again */
	j->header = NULL;
	interrupt_temporary(NULL);
	start_syncer(j);
	return outfile_sync_dir(j->path);
}

int journal_append(struct journal *j, const char *text, size_t n, char *err, size_t len)
{
	int rc = 0;
	if (j->fd < 0)
		return snprintf(err, len, "not open"), EXIT_USAGE;
	if (j->committed)
		wait_synced(j); /* before the signals are held: a second one still ends it at once */
	interrupt_hold();
	if (!j->committed)
		rc = commit(j, text, n);
	else if ((rc = write_all(j->fd, text, n)) == 0 && (rc = sync_later(j)) == 0)
		j->written += n;
	interrupt_let_go();
	if (rc) {
		snprintf(err, len, "cannot write: %s", strerror(errno));
		return EXIT_USAGE;
	}
	return 0;
}

int journal_commit_header(struct journal *j, char *err, size_t len)
{
	return journal_append(j, "", 0, err, len);
}

int journal_committed(const struct journal *j)
{
	return j->committed;
}

int journal_replaces(const struct journal *j)
{
	return j->old >= 0;
}

void journal_say_other_names(const struct journal *j, const char *name)
{
	unsigned long others = j->committed && j->names > 1 ? j->names - 1 : 0;
	if (others)
		fail(0, "warning: %s had %lu other name%s (hard link%s), which keep%s the record it replaced: "
		     "the new one is at this name alone", name, others, others == 1 ? "" : "s", others == 1 ? "" : "s",
		     others == 1 ? "s" : "");
}

void journal_close(struct journal *j)
{
	stop_syncer(j);
	if (j->fd >= 0 && j->committed)
		outfile_sync(j->fd, 1); /* the closing line, on the disk before gpulab says it is done */
	if (j->fd >= 0 && !j->committed) {
		unlink(j->tmp); /* still ours, and locked */
		interrupt_temporary(NULL);
	}
	if (j->fd >= 0)
		close(j->fd);
	if (j->old >= 0)
		close(j->old);
	free(j->header);
	j->header = NULL;
	j->fd = j->old = -1;
}
