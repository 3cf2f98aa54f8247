/*
 * Holding the streams while a run is enqueued.
 *
 * Timed with an event before and after run() on an idle stream, a short
 * kernel measures the host too: the start event fires as soon as it is
 * recorded, then the GPU waits while the host launches the kernel, and
 * every wait between two launches of one run counts.  That adds a few
 * microseconds, and their jitter, to every sample (about 1.5 us of
 * standard deviation on an H200: 20% of a 7 us reduction, 6% at 22 us).
 *
 * So, as NVBench does, a spinning kernel holds each of the run's streams
 * until the host has enqueued the start event, the whole run and the stop
 * event, and then lets go: the events time the GPU's work alone, back to
 * back as an application's stream would run it.
 *
 * A run() that waits for the GPU itself would wait for ever on a held
 * stream.  The spin gives up after HOLD_TIMEOUT_MS and says so; the core
 * then times that exercise unheld, and its record says so.
 */
#ifndef GPULAB_HOLD_H
#define GPULAB_HOLD_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HOLD_TIMEOUT_MS 250

struct hold;

/* A hold, its flags in pinned host memory every device can read; NULL
 * where that memory cannot be had (timing then goes unheld). */
struct hold *hold_open(void);
void hold_close(struct hold *h);

/* Hold streams[0..n) (stream i on device devices[i]) until hold_release;
 * the current device is left as it was. */
cudaError_t hold_streams(struct hold *h, cudaStream_t *streams, const int *devices, unsigned n);
void hold_release(struct hold *h);

/* After the held work is done: did a spin give up before the release? */
int hold_gave_up(const struct hold *h);

#ifdef __cplusplus
}
#endif

#endif
