/*
 * ring_sendrecv: the ring all-reduce by hand over ncclSend/ncclRecv
 * (sendrecv.h has its schedule) and an add kernel on a side stream.
 * Part of the multigpu plugin, one translation unit: multigpu.cu includes
 * it, and it includes the parts it uses.
 */
#ifndef GPULAB_MULTIGPU_SENDRECV_RING_CUH
#define GPULAB_MULTIGPU_SENDRECV_RING_CUH

#include "collectives.cuh"
#include "sendrecv.h"

#include <type_traits>

namespace {

/* out = a + b, n elements: ints wrapping, as the GPU adds */
template <typename T>
__global__ void add_pair(T *out, const T *a, const T *b, uint64_t n)
{
	for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
		if constexpr (std::is_same<T, int>::value)
			out[i] = (int)((uint32_t)a[i] + (uint32_t)b[i]);
		else
			out[i] = a[i] + b[i];
}

/* Round t of the send/recv ring (sendrecv.h has its schedule): its sends
 * and receives on every GPU of this process, in one group. */
template <typename T>
int ring_moves(gpulab_ctx *ctx, nccl_state *s, const sendrecv::plan &p, long t)
{
	ncclDataType_t type = std::is_same<T, int>::value ? ncclInt32 : ncclFloat32;
	NCCL_TRY(ctx, ncclGroupStart());
	for (unsigned r = 0; r < s->g; r++) {
		unsigned me = rank_of(ctx, r);
		const T *in = static_cast<const T *>(s->in[r]);
		T *out = static_cast<T *>(s->out[r]), *tmp = static_cast<T *>(s->tmp[r]);
		cudaStream_t q = gpus::stream(ctx, r);
		ncclResult_t e = ncclSuccess;
		sendrecv::each_move(p, me, t, [&](const sendrecv::move &m) {
			if (m.send_len && (e == ncclSuccess || e == ncclInProgress))
				e = ncclSend((m.from_in ? in : out) + m.from, m.send_len, type, (me + 1) % p.w, s->comms[r], q);
			if (m.recv_len && (e == ncclSuccess || e == ncclInProgress))
				e = ncclRecv((m.into_tmp ? tmp : out) + m.into, m.recv_len, type, (me + p.w - 1) % p.w,
					     s->comms[r], q);
		});
		if (e != ncclSuccess && e != ncclInProgress) {
			ncclGroupEnd();
			ctx->error(ctx, "the ring's round %ld on GPU %u: %s", t, r, ncclGetErrorString(e));
			return GPULAB_ECUDA;
		}
	}
	NCCL_TRY(ctx, ncclGroupEnd());
	return GPULAB_OK;
}

/* Round t's adds on GPU r's side stream, once that round's receives are
 * in: out = in + tmp for each slice that took a reduce-scatter step. */
template <typename T>
int ring_adds(gpulab_ctx *ctx, nccl_state *s, const sendrecv::plan &p, long t, unsigned r)
{
	cudaStream_t side = s->side.adds[r];
	int rc = GPULAB_OK;
	LAB_TRY(ctx, cudaSetDevice(ctx->devices[r]));
	LAB_TRY(ctx, cudaEventRecord(s->side.moved[r], gpus::stream(ctx, r)));
	LAB_TRY(ctx, cudaStreamWaitEvent(side, s->side.moved[r], 0));
	sendrecv::each_move(p, rank_of(ctx, r), t, [&](const sendrecv::move &m) {
		if (!m.into_tmp || !m.recv_len || rc != GPULAB_OK)
			return;
		add_pair<T><<<(unsigned)std::min<uint64_t>(lab::div_up(m.recv_len, 256), 2048), 256, 0, side>>>(
			static_cast<T *>(s->out[r]) + m.sum, static_cast<const T *>(s->in[r]) + m.sum,
			static_cast<const T *>(s->tmp[r]) + m.into, m.recv_len);
		cudaError_t e = cudaGetLastError();
		if (e != cudaSuccess) {
			ctx->error(ctx, "the ring's add: %s", cudaGetErrorString(e));
			rc = GPULAB_ECUDA;
		}
	});
	if (rc == GPULAB_OK)
		LAB_TRY(ctx, cudaEventRecord(s->side.added[r][t % 2], side));
	return rc;
}

/* The send/recv ring's run: its rounds, each waiting for the adds of the
 * round before the last (the sums its sends read). */
template <typename T>
int ring_sendrecv(gpulab_ctx *ctx, nccl_state *s)
{
	const sendrecv::plan p(ctx->elements, s->w, lab::opts<sendrecv_opts>(ctx).chunk, sizeof(T));
	gpus::device_kept keep;
	if (p.w == 1) { /* a ring of one: the sum is the input */
		LAB_TRY(ctx, cudaSetDevice(ctx->devices[0]));
		LAB_TRY(ctx, cudaMemcpyAsync(s->out[0], s->in[0], p.n * sizeof(T), cudaMemcpyDeviceToDevice, gpus::stream(ctx, 0)));
		return GPULAB_OK;
	}
	for (long t = 0; t < p.rounds(); t++) {
		if (p.empty(t))
			continue;
		for (unsigned r = 0; t >= 2 && r < s->g; r++)
			LAB_TRY(ctx, cudaStreamWaitEvent(gpus::stream(ctx, r), s->side.added[r][t % 2], 0));
		int rc = ring_moves<T>(ctx, s, p, t);
		for (unsigned r = 0; rc == GPULAB_OK && r < s->g; r++)
			rc = ring_adds<T>(ctx, s, p, t, r);
		if (rc != GPULAB_OK)
			return rc;
	}
	return GPULAB_OK;
}

} // namespace

#endif
