/*
 * The watchdog: a run that never ends (a user's kernel in an endless
 * loop) is stopped, with one line, instead of hanging gpulab.  The host
 * thread waiting for such a kernel is blocked inside the CUDA driver, so
 * nothing in the program can ask it to stop: a timer's signal ends the
 * process from its handler, and the exiting process takes its CUDA
 * context, and the kernel running in it, down with it.
 */
#ifndef GPULAB_WATCHDOG_H
#define GPULAB_WATCHDOG_H

/* After `seconds` (0: never), write `line` (with its newline) to stderr
 * and _exit(EXIT_WATCHDOG), unless disarmed first.  The line is copied. */
void watchdog_arm(double seconds, const char *line);

void watchdog_disarm(void);

#endif
