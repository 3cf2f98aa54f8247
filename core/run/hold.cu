/* The spinning kernel of hold.h, and its flags. */
#include "run/hold.h"

#include <atomic>
#include <new>

struct hold {
	volatile int *release; /* the host sets it once the run is enqueued */
	volatile int *gave_up; /* a spin that timed out sets it */
};

static __device__ unsigned long long global_ns(void)
{
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

/* One thread polls the host's flag; the stream behind it waits. */
static __global__ void hold_kernel(volatile int *release, volatile int *gave_up, unsigned long long timeout_ns)
{
	unsigned long long t0 = global_ns();
	while (!*release)
		if (global_ns() - t0 > timeout_ns) {
			*gave_up = 1;
			return;
		}
}

extern "C" struct hold *hold_open(void)
{
	struct hold *h = new (std::nothrow) struct hold;
	int *flags;
	if (!h)
		return nullptr;
	/* portable: every device reads it; mapped: at the same address */
	if (cudaHostAlloc((void **)&flags, 2 * sizeof *flags, cudaHostAllocMapped | cudaHostAllocPortable) != cudaSuccess) {
		cudaGetLastError();
		delete h;
		return nullptr;
	}
	h->release = flags;
	h->gave_up = flags + 1;
	*h->release = 1;
	*h->gave_up = 0;
	return h;
}

extern "C" void hold_close(struct hold *h)
{
	if (!h)
		return;
	cudaFreeHost((void *)h->release);
	delete h;
}

extern "C" cudaError_t hold_streams(struct hold *h, cudaStream_t *streams, const int *devices, unsigned n)
{
	int was;
	cudaError_t e = cudaGetDevice(&was);
	*h->release = 0;
	*h->gave_up = 0;
	std::atomic_thread_fence(std::memory_order_seq_cst);
	for (unsigned i = 0; e == cudaSuccess && i < n; i++) {
		if ((e = cudaSetDevice(devices[i])) != cudaSuccess)
			break;
		hold_kernel<<<1, 1, 0, streams[i]>>>(h->release, h->gave_up, HOLD_TIMEOUT_MS * 1000000ull);
		e = cudaGetLastError();
	}
	if (e != cudaSuccess)
		hold_release(h);
	cudaSetDevice(was);
	return e;
}

extern "C" void hold_release(struct hold *h)
{
	std::atomic_thread_fence(std::memory_order_seq_cst);
	*h->release = 1;
}

extern "C" int hold_gave_up(const struct hold *h)
{
	return *h->gave_up != 0;
}
