#include "run/clocks.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* The few NVML entry points gpulab uses, as the NVML API reference gives
 * them: a C ABI that NVIDIA keeps stable, so no header is needed at
 * build time (nvml.h ships with the driver's development files). */
typedef int nvml_return;        /* nvmlReturn_t: 0 is NVML_SUCCESS */
typedef void *nvml_device;      /* nvmlDevice_t */
enum { NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 };

struct nvml {
	nvml_return (*init)(void);
	nvml_return (*shutdown)(void);
	const char *(*error_string)(nvml_return);
	nvml_return (*by_bus_id)(const char *bus_id, nvml_device *dev);
	nvml_return (*clock)(nvml_device dev, int type, unsigned *mhz);
	nvml_return (*max_clock)(nvml_device dev, int type, unsigned *mhz);
	nvml_return (*reasons)(nvml_device dev, unsigned long long *reasons);
	nvml_return (*uuid)(nvml_device dev, char *buf, unsigned len);
	nvml_return (*driver)(char *buf, unsigned len);
	/* optional: `gpulab info`'s links */
	nvml_return (*p2p)(nvml_device a, nvml_device b, int caps, int *status);
	nvml_return (*link_state)(nvml_device dev, unsigned link, int *active);
};
enum { NVML_P2P_CAPS_INDEX_NVLINK = 2, NVML_P2P_STATUS_OK = 0, NVLINK_MAX_LINKS = 18 };

/* The reasons NVML gives for a clock held down, by bit. */
static const struct {
	unsigned long long bit;
	const char *name;
	int slowdown;
} reason_names[] = {
	{ 0x1, "idle", 0 },
	{ 0x2, "applications_clocks", 0 },
	{ 0x4, "sw_power_cap", 1 },
	{ 0x8, "hw_slowdown", 1 },
	{ 0x10, "sync_boost", 0 },
	{ 0x20, "sw_thermal", 1 },
	{ 0x40, "hw_thermal", 1 },
	{ 0x80, "hw_power_brake", 1 },
	{ 0x100, "display_clocks", 0 },
};

static void *sym(void *lib, const char *name, const char *fallback)
{
	void *f = dlsym(lib, name);
	return f || !fallback ? f : dlsym(lib, fallback);
}

/* The entry points, or the name of the first missing one. */
static const char *bind(void *lib, struct nvml *n)
{
	*(void **)&n->init = sym(lib, "nvmlInit_v2", NULL);
	*(void **)&n->shutdown = sym(lib, "nvmlShutdown", NULL);
	*(void **)&n->error_string = sym(lib, "nvmlErrorString", NULL);
	*(void **)&n->by_bus_id = sym(lib, "nvmlDeviceGetHandleByPciBusId_v2", NULL);
	*(void **)&n->clock = sym(lib, "nvmlDeviceGetClockInfo", NULL);
	*(void **)&n->max_clock = sym(lib, "nvmlDeviceGetMaxClockInfo", NULL);
	/* renamed in driver 535; the old name stays exported for a while */
	*(void **)&n->reasons = sym(lib, "nvmlDeviceGetCurrentClocksEventReasons",
				    "nvmlDeviceGetCurrentClocksThrottleReasons");
	*(void **)&n->uuid = sym(lib, "nvmlDeviceGetUUID", NULL);
	*(void **)&n->driver = sym(lib, "nvmlSystemGetDriverVersion", NULL);
	*(void **)&n->p2p = sym(lib, "nvmlDeviceGetP2PStatus", NULL);
	*(void **)&n->link_state = sym(lib, "nvmlDeviceGetNvLinkState", NULL);
	return !n->init ? "nvmlInit_v2" : !n->shutdown ? "nvmlShutdown" : !n->error_string ? "nvmlErrorString"
	       : !n->by_bus_id ? "nvmlDeviceGetHandleByPciBusId_v2" : !n->clock ? "nvmlDeviceGetClockInfo"
	       : !n->max_clock ? "nvmlDeviceGetMaxClockInfo" : !n->reasons ? "nvmlDeviceGetCurrentClocksEventReasons"
	       : !n->uuid ? "nvmlDeviceGetUUID" : !n->driver ? "nvmlSystemGetDriverVersion" : NULL;
}

static struct nvml nvml; /* bound once per process, with the library */

/* NVML started and the device found; NULL, or why not in buf (and NVML
 * shut down again). */
static const char *open_device(struct clocks *c, const char *bus_id, char *buf, size_t len)
{
	const char *missing;
	nvml_device d;
	nvml_return e;
	if ((missing = bind(c->lib, &nvml))) {
		snprintf(buf, len, "this NVML lacks %s", missing);
		return buf;
	}
	if ((e = nvml.init()) != 0) {
		snprintf(buf, len, "nvmlInit: %s", nvml.error_string(e));
		return buf;
	}
	if (nvml.by_bus_id(bus_id, &d) != 0) {
		nvml.shutdown();
		snprintf(buf, len, "NVML does not know the GPU at %s", bus_id);
		return buf;
	}
	c->dev = d;
	if (nvml.max_clock(d, NVML_CLOCK_SM, &c->max_sm_mhz) != 0)
		c->max_sm_mhz = 0;
	if (nvml.uuid(d, c->uuid, sizeof c->uuid) != 0)
		c->uuid[0] = 0;
	if (nvml.driver(c->driver, sizeof c->driver) != 0)
		c->driver[0] = 0;
	return NULL;
}

void clocks_open(struct clocks *c, const char *bus_id)
{
	memset(c, 0, sizeof *c);
	if (!(c->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL))) {
		const char *dl = dlerror();
		snprintf(c->why, sizeof c->why, "NVML cannot be loaded (%s)", dl ? dl : "libnvidia-ml.so.1");
		return;
	}
	if (open_device(c, bus_id, c->why, sizeof c->why)) {
		dlclose(c->lib);
		c->lib = c->dev = NULL;
	}
}

int clocks_sample(const struct clocks *c, struct clock_sample *s)
{
	memset(s, 0, sizeof *s);
	if (!c->lib)
		return -1;
	if (nvml.clock(c->dev, NVML_CLOCK_SM, &s->sm_mhz) != 0 || nvml.clock(c->dev, NVML_CLOCK_MEM, &s->mem_mhz) != 0)
		return -1;
	if (nvml.reasons(c->dev, &s->reasons) != 0)
		s->reasons = 0;
	return 0;
}

const char *clocks_reasons(unsigned long long reasons, char *buf, size_t len)
{
	buf[0] = 0;
	for (size_t i = 0; i < sizeof reason_names / sizeof reason_names[0]; i++)
		if ((reasons & reason_names[i].bit) && reason_names[i].slowdown)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "," : "", reason_names[i].name);
	return buf;
}

int clocks_slowed(unsigned long long reasons)
{
	char buf[128];
	return clocks_reasons(reasons, buf, sizeof buf)[0] != 0;
}

/* Active NVLinks of a device: all of them lead to the peer, or to the
 * NVSwitch fabric that joins it, as nvidia-smi's NV# counts them. */
static unsigned active_links(nvml_device d)
{
	unsigned n = 0;
	for (unsigned link = 0; link < NVLINK_MAX_LINKS; link++) {
		int active = 0;
		if (nvml.link_state(d, link, &active) == 0 && active)
			n++;
	}
	return n;
}

const char *clocks_link(const struct clocks *a, const struct clocks *b, char *buf, size_t len)
{
	int status = -1;
	if (!a->lib || !b->lib)
		snprintf(buf, len, "link unknown: %s", a->lib ? b->why : a->why);
	else if (!nvml.p2p || nvml.p2p(a->dev, b->dev, NVML_P2P_CAPS_INDEX_NVLINK, &status) != 0)
		snprintf(buf, len, "link unknown: NVML gives no P2P status");
	else if (status == NVML_P2P_STATUS_OK && nvml.link_state)
		snprintf(buf, len, "NVLink (%u links)", active_links(a->dev));
	else
		snprintf(buf, len, status == NVML_P2P_STATUS_OK ? "NVLink" : "PCIe");
	return buf;
}

void clocks_close(struct clocks *c)
{
	if (c->lib) {
		nvml.shutdown();
		dlclose(c->lib);
	}
	c->lib = c->dev = NULL;
}
