/*
 * profile.h through CUPTI's range profiler (CUDA 13): the host API
 * (cupti_profiler_host.h) turns metric names into a configuration and
 * evaluates what was counted; the range profiler (cupti_range_profiler.h)
 * counts one user range, replayed by gpulab once per pass.  Host code
 * only: it is C++ because CUPTI's host header is.
 */
#include "command_names.h"
#include "exitcode.h"
#include "run/profile.h"
extern "C" {
#include "config/options.h" /* C's, without a guard of its own */
}

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

struct profiler {
	CUcontext ctx = nullptr;
	std::string chip;
	std::vector<uint8_t> avail;     /* which counters this device offers */
	bool initialized = false;
};

namespace {

const int max_passes = 256; /* far more than any metric set needs */

/* "--metrics: " and what went wrong, into err: every failure here is the
 * option's, spelled as its row has it. */
__attribute__((format(printf, 3, 4))) void counters_say(char *err, size_t len, const char *fmt, ...)
{
	int at = snprintf(err, len, "%s: ", options_long(OPT_METRICS));
	va_list ap;
	va_start(ap, fmt);
	if (at >= 0 && (size_t)at < len)
		vsnprintf(err + at, len - at, fmt, ap);
	va_end(ap);
}

int cupti_failed(CUptiResult r, const char *what, char *err, size_t len)
{
	const char *s = nullptr;
	cuptiGetResultString(r, &s);
	if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
		counters_say(err, len, "this user may not read the GPU's performance counters (%s); run as root, "
			 "or load the nvidia module with NVreg_RestrictProfilingToAdminUsers=0 "
			 "(https://developer.nvidia.com/ERR_NVGPUCTRPERM)", what);
	else if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
		counters_say(err, len, "another tool holds the GPU's counters (%s): drop %s under ncu, "
			 "nsys or compute-sanitizer", what, options_long(OPT_METRICS));
	else
		counters_say(err, len, "%s failed: %s", what, s ? s : "unknown CUPTI error");
	return EXIT_METRICS;
}

#define TRY(call, what) \
	do { \
		CUptiResult r_ = (call); \
		if (r_ != CUPTI_SUCCESS) \
			return cupti_failed(r_, what, err, len); \
	} while (0)

/* The runtime's current context, without linking libcuda: gpulab must
 * start (and say "no CUDA device") where no driver is installed. */
int current_context(CUcontext *ctx, char *err, size_t len)
{
	void *fn = nullptr;
	cudaDriverEntryPointQueryResult q;
	if (cudaFree(nullptr) != cudaSuccess
	    || cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &q) != cudaSuccess
	    || q != cudaDriverEntryPointSuccess || reinterpret_cast<PFN_cuCtxGetCurrent_v4000>(fn)(ctx) != CUDA_SUCCESS) {
		counters_say(err, len, "cannot find the CUDA context to profile");
		return EXIT_METRICS;
	}
	return 0;
}

/* A host object: metric names in, configuration and values out.  One per
 * metric set, since it accumulates the metrics added to it. */
struct host_object {
	CUpti_Profiler_Host_Object *obj = nullptr;
	~host_object()
	{
		if (!obj)
			return;
		CUpti_Profiler_Host_Deinitialize_Params d = { CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE };
		d.pHostObject = obj;
		cuptiProfilerHostDeinitialize(&d);
	}
	int initialize(profiler *p, char *err, size_t len)
	{
		CUpti_Profiler_Host_Initialize_Params h = { CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE };
		h.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
		h.pChipName = p->chip.c_str();
		h.pCounterAvailabilityImage = p->avail.data();
		TRY(cuptiProfilerHostInitialize(&h), "cuptiProfilerHostInitialize");
		obj = h.pHostObject;
		return 0;
	}
	CUptiResult add_metrics(const char *const *metrics, size_t n)
	{
		CUpti_Profiler_Host_ConfigAddMetrics_Params a = { CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE };
		a.pHostObject = obj;
		a.ppMetricNames = const_cast<const char **>(metrics);
		a.numMetrics = n;
		return cuptiProfilerHostConfigAddMetrics(&a);
	}
	int config_image(std::vector<uint8_t> *image, char *err, size_t len)
	{
		CUpti_Profiler_Host_GetConfigImageSize_Params s = { CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE };
		s.pHostObject = obj;
		TRY(cuptiProfilerHostGetConfigImageSize(&s), "cuptiProfilerHostGetConfigImageSize");
		image->resize(s.configImageSize);
		CUpti_Profiler_Host_GetConfigImage_Params g = { CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE };
		g.pHostObject = obj;
		g.configImageSize = image->size();
		g.pConfigImage = image->data();
		TRY(cuptiProfilerHostGetConfigImage(&g), "cuptiProfilerHostGetConfigImage");
		return 0;
	}
};

/* The range profiler on the context, for one collection. */
struct range_profiler {
	CUpti_RangeProfiler_Object *obj = nullptr;
	~range_profiler()
	{
		if (!obj)
			return;
		CUpti_RangeProfiler_Disable_Params d = { CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE };
		d.pRangeProfilerObject = obj;
		cuptiRangeProfilerDisable(&d);
	}
	int enable(CUcontext ctx, char *err, size_t len)
	{
		CUpti_RangeProfiler_Enable_Params e = { CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE };
		e.ctx = ctx;
		TRY(cuptiRangeProfilerEnable(&e), "cuptiRangeProfilerEnable");
		obj = e.pRangeProfilerObject;
		return 0;
	}
	/* A counter-data image holding one range of these metrics. */
	int counter_data(const char *const *metrics, size_t n, std::vector<uint8_t> *image, char *err, size_t len)
	{
		CUpti_RangeProfiler_GetCounterDataSize_Params s = { CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE };
		s.pRangeProfilerObject = obj;
		s.pMetricNames = const_cast<const char **>(metrics);
		s.numMetrics = n;
		s.maxNumOfRanges = 1;
		s.maxNumRangeTreeNodes = 1;
		TRY(cuptiRangeProfilerGetCounterDataSize(&s), "cuptiRangeProfilerGetCounterDataSize");
		image->assign(s.counterDataSize, 0);
		CUpti_RangeProfiler_CounterDataImage_Initialize_Params i = {
			CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE };
		i.pRangeProfilerObject = obj;
		i.counterDataSize = image->size();
		i.pCounterData = image->data();
		TRY(cuptiRangeProfilerCounterDataImageInitialize(&i), "cuptiRangeProfilerCounterDataImageInitialize");
		return 0;
	}
	/* One user range, replayed by us, one range per pass. */
	int configure(std::vector<uint8_t> &config, std::vector<uint8_t> &data, char *err, size_t len)
	{
		CUpti_RangeProfiler_SetConfig_Params c = { CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE };
		c.pRangeProfilerObject = obj;
		c.configSize = config.size();
		c.pConfig = config.data();
		c.counterDataImageSize = data.size();
		c.pCounterDataImage = data.data();
		c.range = CUPTI_UserRange;
		c.replayMode = CUPTI_UserReplay;
		c.maxRangesPerPass = 1;
		c.numNestingLevels = 1;
		c.minNestingLevel = 1;
		c.targetNestingLevel = 1;
		TRY(cuptiRangeProfilerSetConfig(&c), "cuptiRangeProfilerSetConfig");
		return 0;
	}
	/* One pass: the launch between push and pop.  *done once CUPTI has
	 * every pass it needs. */
	int profile_pass(const profile_target *t, bool *done, char *err, size_t len)
	{
		int rc;
		if ((rc = t->prepare(t->arg)))
			return rc;
		CUpti_RangeProfiler_Start_Params s = { CUpti_RangeProfiler_Start_Params_STRUCT_SIZE };
		s.pRangeProfilerObject = obj;
		TRY(cuptiRangeProfilerStart(&s), "cuptiRangeProfilerStart");
		CUpti_RangeProfiler_PushRange_Params push = { CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE };
		push.pRangeProfilerObject = obj;
		push.pRangeName = "run";
		TRY(cuptiRangeProfilerPushRange(&push), "cuptiRangeProfilerPushRange");
		rc = t->launch(t->arg);
		CUpti_RangeProfiler_PopRange_Params pop = { CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE };
		pop.pRangeProfilerObject = obj;
		CUptiResult popped = cuptiRangeProfilerPopRange(&pop);
		CUpti_RangeProfiler_Stop_Params stop = { CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE };
		stop.pRangeProfilerObject = obj;
		CUptiResult stopped = cuptiRangeProfilerStop(&stop);
		if (rc)
			return rc;
		TRY(popped, "cuptiRangeProfilerPopRange");
		TRY(stopped, "cuptiRangeProfilerStop");
		*done = stop.isAllPassSubmitted;
		return 0;
	}
	int decode(char *err, size_t len)
	{
		CUpti_RangeProfiler_DecodeData_Params d = { CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE };
		d.pRangeProfilerObject = obj;
		TRY(cuptiRangeProfilerDecodeData(&d), "cuptiRangeProfilerDecodeData");
		if (d.numOfRangeDropped) {
			counters_say(err, len, "CUPTI dropped the range it was to count");
			return EXIT_METRICS;
		}
		return 0;
	}
};

int evaluate(host_object &h, std::vector<uint8_t> &data, const char *const *metrics, size_t n, double *values,
	     char *err, size_t len)
{
	CUpti_RangeProfiler_GetCounterDataInfo_Params info = { CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE };
	info.pCounterDataImage = data.data();
	info.counterDataImageSize = data.size();
	TRY(cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
	if (info.numTotalRanges != 1) {
		counters_say(err, len, "CUPTI counted %zu ranges, expected 1", info.numTotalRanges);
		return EXIT_METRICS;
	}
	CUpti_Profiler_Host_EvaluateToGpuValues_Params e = { CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE };
	e.pHostObject = h.obj;
	e.pCounterDataImage = data.data();
	e.counterDataImageSize = data.size();
	e.rangeIndex = 0;
	e.ppMetricNames = const_cast<const char **>(metrics);
	e.numMetrics = n;
	e.pMetricValues = values;
	TRY(cuptiProfilerHostEvaluateToGpuValues(&e), "cuptiProfilerHostEvaluateToGpuValues");
	return 0;
}

int availability(profiler *p, char *err, size_t len)
{
	CUpti_Profiler_GetCounterAvailability_Params a = { CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE };
	a.ctx = p->ctx;
	TRY(cuptiProfilerGetCounterAvailability(&a), "reading the counter availability");
	p->avail.resize(a.counterAvailabilityImageSize);
	a.pCounterAvailabilityImage = p->avail.data();
	TRY(cuptiProfilerGetCounterAvailability(&a), "reading the counter availability");
	return 0;
}

int open_profiler(profiler *p, char *err, size_t len)
{
	int dev, rc;
	if ((rc = current_context(&p->ctx, err, len)))
		return rc;
	CUpti_Profiler_Initialize_Params init = { CUpti_Profiler_Initialize_Params_STRUCT_SIZE };
	TRY(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
	p->initialized = true;
	if (cudaGetDevice(&dev) != cudaSuccess) {
		counters_say(err, len, "no current CUDA device");
		return EXIT_METRICS;
	}
	CUpti_Device_GetChipName_Params chip = { CUpti_Device_GetChipName_Params_STRUCT_SIZE };
	chip.deviceIndex = (size_t)dev;
	TRY(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
	p->chip = chip.pChipName;
	return availability(p, err, len);
}

} // namespace

int profiler_built(char *, size_t)
{
	return 0;
}

int profiler_open(profiler **out, char *err, size_t len)
{
	profiler *p = new (std::nothrow) profiler;
	if (!p) {
		counters_say(err, len, "out of memory");
		return EXIT_METRICS;
	}
	int rc = open_profiler(p, err, len);
	if (rc) {
		profiler_close(p);
		return rc;
	}
	*out = p;
	return 0;
}

int profiler_check(profiler *p, const char *const *metrics, size_t n, char *err, size_t len)
{
	host_object h;
	int rc = h.initialize(p, err, len);
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (h.add_metrics(&metrics[i], 1) != CUPTI_SUCCESS) {
			counters_say(err, len, "this GPU (%s) has no metric '%s' (`gpulab " CMD_METRICS "` lists the aliases; "
				 "`ncu --query-metrics` the names)", p->chip.c_str(), metrics[i]);
			rc = EXIT_METRICS;
		}
	return rc;
}

int profiler_collect(profiler *p, const char *const *metrics, size_t n, const profile_target *t, double *values,
		     unsigned *passes, char *err, size_t len)
{
	host_object h;
	range_profiler r;
	std::vector<uint8_t> config, data;
	bool done = false;
	CUptiResult added;
	int rc = h.initialize(p, err, len);
	if (rc)
		return rc;
	if ((added = h.add_metrics(metrics, n)) != CUPTI_SUCCESS) /* name the one at fault, if one is */
		return profiler_check(p, metrics, n, err, len) ? EXIT_METRICS : cupti_failed(added, "adding the metrics", err, len);
	if ((rc = h.config_image(&config, err, len)) || (rc = r.enable(p->ctx, err, len))
	    || (rc = r.counter_data(metrics, n, &data, err, len)) || (rc = r.configure(config, data, err, len)))
		return rc;
	for (*passes = 0; !done; ++*passes) {
		if (*passes == max_passes) {
			counters_say(err, len, "these metrics need more than %d passes", max_passes);
			return EXIT_METRICS;
		}
		if ((rc = r.profile_pass(t, &done, err, len)))
			return rc;
	}
	if ((rc = r.decode(err, len)))
		return rc;
	return evaluate(h, data, metrics, n, values, err, len);
}

void profiler_close(profiler *p)
{
	if (!p)
		return;
	if (p->initialized) {
		CUpti_Profiler_DeInitialize_Params d = { CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE };
		cuptiProfilerDeInitialize(&d);
	}
	delete p;
}
