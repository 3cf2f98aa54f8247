/*
 * SIGINT, SIGTERM and SIGHUP during a run: the first is noted, and the
 * run stops at the next sample boundary, prints and records what it has
 * done, and exits 128 + the signal, as shells expect.  A second ends the
 * process at once from the handler.  While a record is being written the
 * signals wait (interrupt_hold), so neither can leave its temporary file
 * half-written beside it: the write takes milliseconds.
 */
#ifndef GPULAB_INTERRUPT_H
#define GPULAB_INTERRUPT_H

/* Catch the three signals from now on (SA_RESTART: a write under way
 * goes on). */
void interrupt_catch(void);

/* Their defaults again. */
void interrupt_release(void);

/* The signal caught, or 0. */
int interrupt_pending(void);

/* "SIGINT", "SIGTERM", "SIGHUP", or "a signal". */
const char *interrupt_name(int sig);

/* The three signals held back, and let go: what arrived meanwhile is
 * handled then. */
void interrupt_hold(void);
void interrupt_let_go(void);

#endif
