/*
 * The GPU's clocks while an exercise runs, read through NVML.  NVML comes
 * with the driver, not the toolkit, so it is found at run time
 * (libnvidia-ml.so.1); where it cannot be had, every call says why and
 * the reports say the clocks are unknown, rather than guess.
 */
#ifndef GPULAB_CLOCKS_H
#define GPULAB_CLOCKS_H

#include <stddef.h>

struct clocks {
	void *lib;              /* the NVML library; NULL if it cannot be had */
	void *dev;              /* its handle of the CUDA device */
	char why[256];          /* why not, where lib is NULL */
	unsigned max_sm_mhz;    /* the SM clock's ceiling: throttling is measured against it */
	char uuid[96];          /* GPU-..., or "" */
	char driver[80];        /* the driver's version, or "" */
};

/* A run whose SM clock was below this share of its ceiling is throttled
 * (NVBench's default threshold). */
#define THROTTLE_SHARE 0.75

/* One reading. */
struct clock_sample {
	unsigned sm_mhz, mem_mhz;
	unsigned long long reasons; /* NVML's clocks event reasons: why the clock is held down */
};

/* Open NVML for the CUDA device whose PCI bus id is bus_id.  Never fails:
 * without NVML, c->lib is NULL and c->why says why. */
void clocks_open(struct clocks *c, const char *bus_id);

/* Read the clocks now.  0, or -1 (no NVML, or the read failed). */
int clocks_sample(const struct clocks *c, struct clock_sample *s);

/* The reasons in words, "sw_power_cap,hw_slowdown", into buf; "" for none.
 * Idle and the applications-clock setting do not count: they are no
 * slowdown under load. */
const char *clocks_reasons(unsigned long long reasons, char *buf, size_t len);

/* Is reasons a slowdown (power, thermal, hardware)? */
int clocks_slowed(unsigned long long reasons);

/* How the GPUs of a and b are joined, in words: "NVLink (18 links)",
 * "PCIe", or why it is unknown. */
const char *clocks_link(const struct clocks *a, const struct clocks *b, char *buf, size_t len);

void clocks_close(struct clocks *c);

#endif
