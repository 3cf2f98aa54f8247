/* The GPU gpulab runs on, and what the report needs to know of it. */
#ifndef GPULAB_DEVICE_H
#define GPULAB_DEVICE_H

#include <stddef.h>
#include <stdio.h>

struct device_info {
	int ordinal;
	int count;          /* CUDA devices visible */
	char name[256];
	int cc_major, cc_minor;
	int sms, warp_size, max_threads_per_block;
	size_t smem_per_block, smem_per_block_optin, smem_per_sm;
	size_t l2_bytes, mem_bytes;
	int mem_clock_khz, bus_width_bits;
	double peak_gbps;   /* 2 transfers a clock (DDR) x clock x bus width */
	char bus_id[32];    /* PCI: domain:bus:device.function, how NVML finds it */
	int driver_version, runtime_version;
};

/* Open the current device (CUDA_VISIBLE_DEVICES picks it).  Returns 0, or
 * EXIT_NODEVICE with one line in err. */
int device_open(struct device_info *d, char *err, size_t errlen);

/* The same for device `ordinal`. */
int device_open_at(struct device_info *d, int ordinal, char *err, size_t errlen);

/* Every visible GPU, then which can read which one's memory (CUDA's peer
 * access) and over what (NVML's view of the links).  0, or EXIT_NODEVICE. */
int device_print_all(FILE *out, char *err, size_t errlen);

/* The first max visible GPUs into v, *n of them (`gpulab info --format
 * json`).  0, or EXIT_NODEVICE with one line in err. */
int device_open_all(struct device_info *v, int max, int *n, char *err, size_t errlen);

/* Free device memory now, in bytes. */
size_t device_free_bytes(void);

struct clocks;

/* One device's facts; with c, NVML's too. */
void device_print(const struct device_info *d, const struct clocks *c, FILE *out);

#endif
