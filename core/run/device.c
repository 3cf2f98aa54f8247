#include "run/device.h"

#include "run/clocks.h"
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
	/* dlerror's last part alone ("No such file or directory"): its whole
	 * text repeats the file's name and ran the line to 120 columns */
	const char *why = dlerror(), *last = why ? strrchr(why, ':') : NULL;
	snprintf(err, errlen, "no CUDA device: no NVIDIA driver found (libcuda.so.1: %.40s)",
		 last ? last + 1 + (last[1] == ' ') : "cannot be loaded");
	return 1;
}

int device_open(struct device_info *d, char *err, size_t errlen)
{
	int current = 0;
	if (cudaGetDevice(&current) != cudaSuccess)
		current = 0;
	return device_open_at(d, current, err, errlen);
}

int device_open_at(struct device_info *d, int ordinal, char *err, size_t errlen)
{
	int count = 0;
	cudaError_t e = cudaGetDeviceCount(&count);
	memset(d, 0, sizeof *d);
	if (device_no_driver(e, err, errlen))
		return EXIT_NODEVICE;
	d->count = count;
	if (e != cudaSuccess || count == 0) {
		snprintf(err, errlen, "no CUDA device: %s", e != cudaSuccess ? cudaGetErrorString(e) : "none found");
		return EXIT_NODEVICE;
	}
	struct cudaDeviceProp p;
	d->ordinal = ordinal;
	if ((e = cudaGetDeviceProperties(&p, d->ordinal)) != cudaSuccess) {
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
	if (cudaDeviceGetPCIBusId(d->bus_id, sizeof d->bus_id, d->ordinal) != cudaSuccess)
		d->bus_id[0] = 0;
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

void device_print(const struct device_info *d, const struct clocks *c, FILE *out)
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
	fprintf(out, "%-28s %s\n", "PCI bus", d->bus_id);
	if (c && c->lib)
		fprintf(out, "%-28s %s\n%-28s %u MHz\n%-28s %s\n", "UUID", c->uuid, "SM clock ceiling", c->max_sm_mhz,
			"NVIDIA driver", c->driver);
	else if (c)
		fprintf(out, "%-28s unknown: %s\n", "clocks", c->why);
}

/* Row i, column j: can device i read device j's memory, and over what. */
static void peer_cell(int i, int j, const struct clocks *c, char *buf, size_t len)
{
	int can = 0;
	char link[96];
	if (i == j) {
		snprintf(buf, len, "-");
		return;
	}
	if (cudaDeviceCanAccessPeer(&can, i, j) != cudaSuccess)
		can = 0;
	snprintf(buf, len, "%s, %s", can ? "peer" : "no peer", clocks_link(&c[i], &c[j], link, sizeof link));
}

static void print_peers(FILE *out, int count, const struct clocks *c)
{
	char cell[160];
	fprintf(out, "\npeer access (can the row's GPU read the column's memory) and the link between them:\n%-6s", "");
	for (int j = 0; j < count; j++)
		fprintf(out, "  %-28s", (snprintf(cell, sizeof cell, "GPU %d", j), cell));
	fputc('\n', out);
	for (int i = 0; i < count; i++) {
		fprintf(out, "GPU %-2d", i);
		for (int j = 0; j < count; j++) {
			peer_cell(i, j, c, cell, sizeof cell);
			fprintf(out, "  %-28s", cell);
		}
		fputc('\n', out);
	}
	if (count && !c[0].lib)
		fprintf(out, "links unknown: %s\n", c[0].why);
}

int device_open_all(struct device_info *v, int max, int *n, char *err, size_t errlen)
{
	int count = 0, rc;
	*n = 0;
	if ((rc = device_open_at(&v[0], 0, err, errlen)))
		return rc;
	cudaGetDeviceCount(&count);
	for (int i = 0; i < count && i < max; i++, (*n)++)
		if ((rc = device_open_at(&v[i], i, err, errlen)))
			return rc;
	return 0;
}

int device_print_all(FILE *out, char *err, size_t errlen)
{
	struct device_info d;
	struct clocks c[64];
	int count = 0, rc;
	if ((rc = device_open_at(&d, 0, err, errlen)))
		return rc;
	cudaGetDeviceCount(&count);
	count = count > 64 ? 64 : count;
	for (int i = 0; i < count; i++) {
		if ((rc = device_open_at(&d, i, err, errlen))) {
			while (i--)
				clocks_close(&c[i]);
			return rc;
		}
		clocks_open(&c[i], d.bus_id);
		fputs(i ? "\n" : "", out);
		device_print(&d, &c[i], out);
	}
	print_peers(out, count, c);
	for (int i = 0; i < count; i++)
		clocks_close(&c[i]);
	return 0;
}
