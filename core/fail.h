/* The error funnel, on the ground floor beside exitcode.h: any layer may
 * call it, and it calls nothing above escape.h. */
#ifndef GPULAB_FAIL_H
#define GPULAB_FAIL_H

/* One line on stderr, "gpulab: ..." escaped; returns code. */
int fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
