/*
 * SIGINT, SIGTERM and SIGHUP during a run: the first is noted, and the
 * run stops at the next sample boundary, or between a point's steps
 * (run/measure.c), prints and records what it has done, and exits 128 +
 * the signal, as shells expect.  The same signal again within a second
 * is the same one sent twice (as `timeout -s INT` sends it, to the
 * process and to its group), counted once, even where the two are
 * handled at the same moment on two threads.  Any other, or the same one
 * a second later, ends the process at once from the handler: the record
 * on disk then lacks its closing entry, and every reader says the run did
 * not finish.  While a record is being written the
 * signals wait (interrupt_hold), so that the write, which takes
 * milliseconds, ends first.  That holds them back on the calling thread
 * alone: the CUDA runtime's threads do not, and the kernel hands a signal
 * to any thread that takes it.  So the handler, on whatever thread it
 * runs, also removes the temporary being written (interrupt_temporary)
 * before it ends the process: no signal leaves one behind.
 */
#ifndef GPULAB_INTERRUPT_H
#define GPULAB_INTERRUPT_H

/* The same signal this soon after the first is that one again. */
#define INTERRUPT_SAME_NS 1000000000LL

/* Catch the three signals from now on (SA_RESTART: a write under way
 * goes on). */
void interrupt_catch(void);

/* Their defaults again. */
void interrupt_release(void);

/* The signal caught, or 0. */
int interrupt_pending(void);

/* "SIGINT", "SIGTERM", "SIGHUP", or "a signal". */
const char *interrupt_name(int sig);

/* The temporary file being written, which a second signal removes
 * before it ends the process; NULL once it is renamed or removed.  Named
 * before it is created, so that no moment lacks it. */
void interrupt_temporary(const char *path);

/* The three signals held back on the calling thread, and let go: what arrived meanwhile is
 * handled then. */
void interrupt_hold(void);
void interrupt_let_go(void);

#endif
