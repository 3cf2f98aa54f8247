#include "device.h"

#include "exitcode.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <string.h>

static int attr(enum cudaDeviceAttr a, int dev)
{
	int v = 0;
	return cudaDeviceGetAttribute(&v, a, dev) == cudaSuccess ? v : 0;
}

/* With no NVIDIA driver at all the runtime says "CUDA driver version is
 * insufficient for CUDA runtime version", which sends the user after a
 * newer driver.  Where the driver's library cannot be loaded, say that
 * there is none; 1 if so. */
static int device_no_driver(cudaError_t e, char *err, size_t errlen)
{
	if (e != cudaErrorInsufficientDriver)
		return 0;
	void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
	if (!h)
		h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
	if (h) {
		dlclose(h);
		return 0;
	}
	const char *why = dlerror();
	snprintf(err, errlen, "no CUDA device: no NVIDIA driver found (%s)", why ? why : "libcuda.so.1 cannot be loaded");
	return 1;
}

int device_open(struct device_info *d, char *err, size_t errlen)
{
	int count = 0;
	cudaError_t e = cudaGetDeviceCount(&count);
	memset(d, 0, sizeof *d);
	if (device_no_driver(e, err, errlen))
		return EXIT_NODEVICE;
	if (e != cudaSuccess || count == 0) {
		snprintf(err, errlen, "no CUDA device: %s", e != cudaSuccess ? cudaGetErrorString(e) : "none found");
		return EXIT_NODEVICE;
	}
	struct cudaDeviceProp p;
	if ((e = cudaGetDevice(&d->ordinal)) != cudaSuccess
	    || (e = cudaGetDeviceProperties(&p, d->ordinal)) != cudaSuccess) {
		snprintf(err, errlen, "CUDA device unusable: %s", cudaGetErrorString(e));
		return EXIT_NODEVICE;
	}
	snprintf(d->name, sizeof d->name, "%s", p.name);
	d->cc_major = p.major;
	d->cc_minor = p.minor;
	d->sms = p.multiProcessorCount;
	d->warp_size = p.warpSize;
	d->max_threads_per_block = p.maxThreadsPerBlock;
	d->smem_per_block = p.sharedMemPerBlock;
	d->smem_per_block_optin = p.sharedMemPerBlockOptin;
	d->smem_per_sm = p.sharedMemPerMultiprocessor;
	d->l2_bytes = (size_t)p.l2CacheSize;
	d->mem_bytes = p.totalGlobalMem;
	/* CUDA 13 dropped the clock fields from cudaDeviceProp; the
	 * attributes remain */
	d->mem_clock_khz = attr(cudaDevAttrMemoryClockRate, d->ordinal);
	d->bus_width_bits = attr(cudaDevAttrGlobalMemoryBusWidth, d->ordinal);
	d->peak_gbps = 2.0 * d->mem_clock_khz * 1e3 * (d->bus_width_bits / 8.0) / 1e9;
	cudaDriverGetVersion(&d->driver_version);
	cudaRuntimeGetVersion(&d->runtime_version);
	return 0;
}

size_t device_free_bytes(void)
{
	size_t free_b = 0, total = 0;
	return cudaMemGetInfo(&free_b, &total) == cudaSuccess ? free_b : 0;
}

static void version(FILE *out, const char *what, int v)
{
	fprintf(out, "%-28s %d.%d\n", what, v / 1000, (v % 1000) / 10);
}

void device_print(const struct device_info *d, FILE *out)
{
	const double KiB = 1024.0, MiB = KiB * KiB, GiB = MiB * KiB;
	fprintf(out, "%-28s %d: %s\n", "device", d->ordinal, d->name);
	fprintf(out, "%-28s %d.%d (sm_%d%d)\n", "compute capability", d->cc_major, d->cc_minor, d->cc_major, d->cc_minor);
	fprintf(out, "%-28s %d\n", "multiprocessors", d->sms);
	fprintf(out, "%-28s %d\n", "warp size", d->warp_size);
	fprintf(out, "%-28s %d\n", "max threads per block", d->max_threads_per_block);
	fprintf(out, "%-28s %.0f KiB (%.0f KiB opt-in)\n", "shared memory per block", d->smem_per_block / KiB, d->smem_per_block_optin / KiB);
	fprintf(out, "%-28s %.0f KiB\n", "shared memory per SM", d->smem_per_sm / KiB);
	fprintf(out, "%-28s %.1f MiB\n", "L2 cache", d->l2_bytes / MiB);
	fprintf(out, "%-28s %.1f GiB\n", "global memory", d->mem_bytes / GiB);
	fprintf(out, "%-28s %d MHz, %d-bit bus\n", "memory clock", d->mem_clock_khz / 1000, d->bus_width_bits);
	fprintf(out, "%-28s %.1f GB/s (2 x clock x bus width)\n", "peak memory bandwidth", d->peak_gbps);
	version(out, "driver (supports CUDA)", d->driver_version);
	version(out, "runtime", d->runtime_version);
}
