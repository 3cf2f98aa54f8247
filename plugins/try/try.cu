/*
 * The try plugin: a learner's own kernel as an exercise.  Each exercise
 * is a challenge, a folder of files (challenges.h, docs/challenge.md):
 * its challenge.ini says what the kernel is handed (its parameters, each
 * an input, an output, per-block partials, bins or scratch, or a size),
 * how the input is made (a built-in generator) and how the result is
 * checked (a built-in CPU reference, exactly or within a tolerance).  The
 * kernel comes from the file in its `kernel` key, compiled at run time
 * with NVRTC for the GPU in use (compile.h), launched as the file's
 * contract line says (contract.h).  Its rows are compared with the
 * challenge's `against` plugin's baseline and reference (`peers`), and
 * `gpulab try` runs its gate (the test sizes) first.
 *
 * Since the code is the learner's, nothing about it is trusted: every
 * buffer lies between guard zones of poison (a read past the input sums
 * NaN or -1, a write past the output is found), outputs are poisoned and
 * counters zeroed before every run, the input is checked to be
 * unchanged, and the core's watchdog stops a kernel that never ends
 * (GPULAB_USER_CODE).
 */
#include "builtins.cuh"
#include "challenges.h"
#include "compile.h"
#include "contract.h"

#include <gpulab/lab.cuh>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <string>
#include <vector>

namespace {

using opts = try_opts;

const try_challenge *spec(const gpulab_ctx *ctx) { return static_cast<const try_challenge *>(ctx->data); }
const challenge *of(const gpulab_ctx *ctx) { return &spec(ctx)->c; }
const opts &opts_of(const gpulab_ctx *ctx) { return lab::opts<opts>(ctx); }

/* s with every T replaced by `type`. */
std::string with_type(const char *s, const char *type)
{
	std::string out;
	for (; *s; s++)
		out += *s == 'T' ? std::string(type) : std::string(1, *s);
	return out;
}

/* The kernel's type with T, "void (*)(const T *, T *, unsigned)". */
std::string pointer_type(const challenge *c)
{
	static const char *const types[ROLE_COUNT] = { "const T *", "T *", "T *", "unsigned *", "unsigned *",
						      "unsigned", "unsigned", "unsigned" };
	std::string s = "void (*)(";
	for (int i = 0; i < c->nargs; i++)
		s += std::string(i ? ", " : "") + types[c->args[i].role];
	return s + ")";
}

/* Appended to the learner's file: the kernel must have the challenge's
 * signature for each type, or the compiler says so, before a launch
 * could hand it the wrong arguments. */
std::string contract_checks(const challenge *c, unsigned dtypes)
{
	char sig[400];
	challenge_signature(c, sig, sizeof sig);
	std::string s = "namespace gpulab_contract {\n"
			"template <class A, class B> struct same { static constexpr bool value = false; };\n"
			"template <class A> struct same<A, A> { static constexpr bool value = true; };\n";
	for (const char *t : { "int", "float" })
		if (dtypes & (std::string(t) == "int" ? GPULAB_INT32 : GPULAB_FLOAT32))
			s += "static_assert(same<decltype(&" + std::string(c->kernel) + "<" + t + ">), "
			     + with_type(pointer_type(c).c_str(), t) + ">::value, \"gpulab try " + c->name
			     + ": the kernel must be template <typename T> __global__ void " + c->kernel + "(" + sig + ")\");\n";
	return s + "}\n";
}

/* The GPU's compute capability, 90 for 9.0; 0 without one, when the
 * kernel is compiled only to check that it compiles. */
int device_arch()
{
	int dev, major, minor;
	if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev)
	    || cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev)) {
		cudaGetLastError(); /* no device is no error of the run's */
		return 0;
	}
	return major * 10 + minor;
}

/* The driver's version and the GPU's name, for the cache's key: 0 and
 * "none" without them. */
int driver_version()
{
	int v = 0;
	if (cudaDriverGetVersion(&v) != cudaSuccess)
		v = 0;
	cudaGetLastError();
	return v;
}

std::string gpu_name()
{
	int dev;
	cudaDeviceProp p;
	if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&p, dev) != cudaSuccess) {
		cudaGetLastError();
		return "none";
	}
	return p.name;
}

/* The learner's kernel: its file read, its contract parsed, and its code
 * compiled for `arch` (or found in the cache).  The compiler's messages
 * go to stderr; GPULAB_EINPUT for anything wrong with the file. */
struct kernel {
	contract con = {};
	compiled code = {};
	~kernel() { compile_free(&code); }
};

int read_file(gpulab_ctx *ctx, const char *path, std::string &text)
{
	FILE *f = std::fopen(path, "rb");
	if (!f) {
		ctx->error(ctx, "%s: %s", path, std::strerror(errno));
		return GPULAB_EINPUT;
	}
	char buf[65536];
	size_t n;
	while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
		text.append(buf, n);
	bool bad = std::ferror(f);
	std::fclose(f);
	if (bad) {
		ctx->error(ctx, "%s: cannot be read", path);
		return GPULAB_EINPUT;
	}
	return GPULAB_OK;
}

int prepare(gpulab_ctx *ctx, kernel &k, int arch)
{
	const challenge *c = of(ctx);
	const char *path = opts_of(ctx).kernel;
	std::string text, checks;
	char err[1024];
	int rc;
	if (!*path) {
		ctx->error(ctx, "no kernel: name its file, `gpulab try %s FILE.cu` or -p kernel=FILE.cu "
				"(`gpulab try %s --template` writes a start)", c->name, c->name);
		return GPULAB_EINPUT;
	}
	if ((rc = read_file(ctx, path, text)) != GPULAB_OK)
		return rc;
	if (contract_parse(text.data(), text.size(), &k.con, err, sizeof err)) {
		if (k.con.line)
			ctx->error(ctx, "%s:%d: %s", path, k.con.line, err);
		else
			ctx->error(ctx, "%s: %s (`gpulab try %s --template` shows one)", path, err, c->name);
		return GPULAB_EINPUT;
	}
	if (unsigned extra = k.con.given & ~c->launch) {
		std::string allowed;
		for (int i = 0; i < 5; i++)
			if (c->launch & (1u << i))
				allowed += std::string(allowed.empty() ? "" : ", ") + contract_keys[i];
		ctx->error(ctx, "%s:%d: %s= is not a launch key of %s (%s)", path, k.con.line,
			   contract_keys[__builtin_ctz(extra)], c->name, allowed.c_str());
		return GPULAB_EINPUT;
	}
	checks = contract_checks(c, ctx->dtype);
	std::string gpu = arch ? gpu_name() : "none";
	compile_request q = { path, text.data(), text.size(), &k.con, checks.c_str(), c->kernel,
			      { lab::type_name(ctx), nullptr }, arch, driver_version(), gpu.c_str() };
	switch (compile_kernel(&q, &k.code, stderr, err, sizeof err)) {
	case COMPILE_OK:
		return GPULAB_OK;
	case COMPILE_FAILED:
		ctx->error(ctx, "%s does not compile for %s: %s (the compiler's messages are above)", path,
			   k.code.target, err);
		return GPULAB_EINPUT;
	case COMPILE_REFUSED:
		ctx->error(ctx, "%s", err);
		return GPULAB_EINPUT;
	case COMPILE_LIMIT:
		ctx->error(ctx, "%s: %s", path, err);
		return GPULAB_EINPUT;
	default:
		ctx->error(ctx, "%s: %s", path, err);
		return GPULAB_ENOMEM;
	}
}

/* The data's extent in elements, x (along a row) by y (rows). */
void extent(const gpulab_ctx *ctx, uint64_t *x, uint64_t *y)
{
	if (!of(ctx)->two_d)
		*x = ctx->n, *y = 1;
	else
		*x = opts_of(ctx).x, *y = opts_of(ctx).y;
}

/* One block per tile of the data. */
dim3 tiles(const gpulab_ctx *ctx, const contract &con)
{
	uint64_t x, y;
	extent(ctx, &x, &y);
	return dim3((unsigned)lab::div_up(x, con.tile_x), (unsigned)lab::div_up(y, con.tile_y));
}

/* The elements of argument i's buffer, for `blocks` blocks: its size in
 * bytes into *bytes (0 for a size argument). */
uint64_t buffer_bytes(const gpulab_ctx *ctx, int i, uint64_t blocks)
{
	uint64_t x, y, e = lab::elem_size(ctx);
	extent(ctx, &x, &y);
	switch (of(ctx)->args[i].role) {
	case ROLE_INPUT:
	case ROLE_OUTPUT: return x * y * e;
	case ROLE_PARTIALS: return blocks * e;
	case ROLE_BINS: return 256 * sizeof(unsigned);
	case ROLE_SCRATCH: return (4 * blocks + 4) * sizeof(unsigned);
	default: return 0;
	}
}

/* Compile (so a file that does not compile costs nothing else, and needs
 * no GPU), and check what the contract's grid can reach. */
int plan(gpulab_ctx *ctx)
{
	const challenge *c = of(ctx);
	kernel k;
	uint64_t x, y;
	int rc = prepare(ctx, k, device_arch());
	if (rc != GPULAB_OK)
		return rc;
	ctx->note(ctx, "cached", k.code.cached);
	extent(ctx, &x, &y);
	if (x * y > 0xffffffffull) {
		ctx->error(ctx, "%" PRIu64 "x%" PRIu64 ": fewer than 2^32 elements (the kernel's sizes are unsigned)", x, y);
		return GPULAB_EPARAM;
	}
	uint64_t gx = lab::div_up(x, k.con.tile_x), gy = lab::div_up(y, k.con.tile_y);
	if (gy > 65535 || gx > 0x7fffffff) {
		ctx->error(ctx, "%s: %" PRIu64 "x%" PRIu64 " tiles of %ux%u: at most 2^31-1 across and 65535 down; "
				"larger tiles, or grid=persistent", opts_of(ctx).kernel, gx, gy, k.con.tile_x, k.con.tile_y);
		return GPULAB_EPARAM;
	}
	ctx->elements = x * y;
	ctx->bytes_read = ctx->bytes_written = ctx->device_bytes = 0;
	for (int i = 0; i < c->nargs; i++) {
		uint64_t b = buffer_bytes(ctx, i, gx);
		enum challenge_role r = c->args[i].role;
		if (r == ROLE_INPUT)
			ctx->bytes_read += b;
		else if (r == ROLE_PARTIALS && k.con.finish_device)
			ctx->bytes_written += lab::elem_size(ctx);
		else if (r != ROLE_SCRATCH)
			ctx->bytes_written += b;
		ctx->device_bytes += b ? b + 2 * lab::state::guard_bytes : 0;
	}
	return GPULAB_OK;
}

struct state : lab::state {
	cudaLibrary_t lib = nullptr;
	cudaKernel_t fn = nullptr;
	dim3 grid, block;
	void *buf[CHALLENGE_MAX_ARGS] = {};  /* each pointer argument's buffer, guarded */
	unsigned size[CHALLENGE_MAX_ARGS] = {}; /* each size argument's value */
	void *args[CHALLENGE_MAX_ARGS] = {};  /* what the launch hands the kernel */
	void *h_partials = nullptr;   /* partials (sum, max): pinned, copied back in run() */
	bool finish_device = false;
	std::vector<unsigned char> host_in; /* the inputs as made, to check them unchanged */
	std::vector<unsigned char> want;    /* the CPU's result, of the type the reference writes */
	std::vector<double> want_abs;       /* prefix_sum: the magnitudes' sums, for a tolerance */
	double sum = 0, want_sum = 0, sum_abs = 0; /* sum, max */
	~state() override
	{
		if (lib)
			cudaLibraryUnload(lib);
	}
};

state *st(gpulab_ctx *ctx) { return lab::state_of<state>(ctx); }

/* The kernel loaded for this GPU, and its launch shape. */
int load(gpulab_ctx *ctx, state *s)
{
	kernel k;
	int rc = prepare(ctx, k, device_arch());
	if (rc != GPULAB_OK)
		return rc;
	LAB_TRY(ctx, cudaLibraryLoadData(&s->lib, k.code.image, nullptr, nullptr, 0, nullptr, nullptr, 0));
	LAB_TRY(ctx, cudaLibraryGetKernel(&s->fn, s->lib, k.code.lowered[0]));
	s->block = dim3(k.con.block_x, k.con.block_y);
	s->grid = tiles(ctx, k.con);
	s->finish_device = k.con.finish_device;
	if (!k.con.persistent)
		return GPULAB_OK;
	uint64_t tiles = (uint64_t)s->grid.x * s->grid.y;
	s->grid.y = 1;
	return lab::persistent_grid(ctx, (const void *)s->fn, k.con.block_x * k.con.block_y, tiles, &s->grid.x);
}

/* An input of n elements from the generator and seed, guarded on the
 * device and kept on the host. */
template <typename T>
int make_input(gpulab_ctx *ctx, state *s, void **dev, uint64_t n, uint64_t seed)
{
	size_t at = s->host_in.size();
	int rc = lab::host_vector(ctx, s->host_in, at + n * sizeof(T));
	if (rc != GPULAB_OK || (rc = s->alloc_guarded(ctx, (T **)dev, n)) != GPULAB_OK)
		return rc;
	T *h = reinterpret_cast<T *>(s->host_in.data() + at);
	builtin::generate(of(ctx), (enum challenge_generator)opts_of(ctx).input, h, n, seed);
	LAB_TRY(ctx, cudaMemcpy(*dev, h, n * sizeof(T), cudaMemcpyHostToDevice));
	return GPULAB_OK;
}

/* The CPU's answer, from the inputs as made. */
template <typename T>
int reference(gpulab_ctx *ctx, state *s)
{
	const challenge *c = of(ctx);
	uint64_t n = ctx->elements;
	const T *in = reinterpret_cast<const T *>(s->host_in.data());
	int rc = GPULAB_OK;
	switch (c->reference) {
	case REFERENCE_SUM:
		lab::sum_reference(in, n, &s->want_sum, &s->sum_abs);
		break;
	case REFERENCE_MAX:
		s->want_sum = (double)builtin::max_of(in, n);
		break;
	case REFERENCE_PREFIX_SUM:
		if ((rc = lab::host_vector(ctx, s->want, n * sizeof(T))) || (rc = lab::host_vector(ctx, s->want_abs, n)))
			return rc;
		builtin::prefix_sum(in, n, reinterpret_cast<T *>(s->want.data()), s->want_abs.data());
		break;
	case REFERENCE_HISTOGRAM:
		if ((rc = lab::host_vector(ctx, s->want, 256 * sizeof(unsigned))))
			return rc;
		builtin::histogram(reinterpret_cast<const int *>(in), n, reinterpret_cast<unsigned *>(s->want.data()));
		break;
	case REFERENCE_ADD: {
		if ((rc = lab::host_vector(ctx, s->want, n * sizeof(T))))
			return rc;
		T *w = reinterpret_cast<T *>(s->want.data());
		for (uint64_t i = 0; i < n; i++)
			w[i] = builtin::wrap_add(in[i], in[n + i]);
		break;
	}
	default: /* transpose, copy: the input is the answer */
		break;
	}
	return rc;
}

/* Each argument's buffer or value, in the kernel's order. */
template <typename T>
int setup_t(gpulab_ctx *ctx)
{
	const challenge *c = of(ctx);
	state *s;
	uint64_t x, y, seed = opts_of(ctx).seed, inputs = 0;
	int rc;
	if ((rc = lab::make_state(ctx, &s)) || (rc = load(ctx, s)))
		return rc;
	extent(ctx, &x, &y);
	for (int i = 0; i < c->nargs; i++) {
		uint64_t b = buffer_bytes(ctx, i, s->grid.x);
		s->args[i] = &s->buf[i];
		switch (c->args[i].role) {
		case ROLE_INPUT: rc = make_input<T>(ctx, s, &s->buf[i], x * y, seed + inputs++); break;
		case ROLE_N: s->size[i] = (unsigned)(x * y), s->args[i] = &s->size[i]; break;
		case ROLE_X: s->size[i] = (unsigned)x, s->args[i] = &s->size[i]; break;
		case ROLE_Y: s->size[i] = (unsigned)y, s->args[i] = &s->size[i]; break;
		case ROLE_PARTIALS:
			if (!(rc = s->alloc_guarded(ctx, (T **)&s->buf[i], s->grid.x)))
				rc = s->alloc_pinned(ctx, (T **)&s->h_partials, s->grid.x);
			break;
		default: rc = s->alloc_guarded(ctx, (unsigned char **)&s->buf[i], b); break;
		}
		if (rc)
			return rc;
	}
	return reference<T>(ctx, s);
}

/* Outputs poisoned, so an element never written cannot pass.  Counters
 * (bins, scratch, partials[0] under finish=device) are zeroed by run(),
 * inside the timed run, as a real caller pays for it. */
int reset(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	const challenge *c = of(ctx);
	for (int i = 0; i < c->nargs; i++) {
		enum challenge_role r = c->args[i].role;
		size_t bytes = buffer_bytes(ctx, i, s->grid.x);
		/* max's partials: 0x7f7f7f7f, above any int or float in range, so a
		 * partial never written is the largest and fails, as -1 would not */
		if (r == ROLE_PARTIALS && c->reference == REFERENCE_MAX)
			LAB_TRY(ctx, cudaMemsetAsync(s->buf[i], 0x7f, bytes, lab::stream(ctx)));
		else if (r == ROLE_OUTPUT || r == ROLE_PARTIALS) {
			int rc = lab::poison(ctx, s->buf[i], bytes);
			if (rc)
				return rc;
		}
	}
	return GPULAB_OK;
}

int run(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	const challenge *c = of(ctx);
	cudaStream_t q = lab::stream(ctx);
	int partials = -1;
	for (int i = 0; i < c->nargs; i++) {
		enum challenge_role r = c->args[i].role;
		if (r == ROLE_BINS || r == ROLE_SCRATCH)
			LAB_TRY(ctx, cudaMemsetAsync(s->buf[i], 0, buffer_bytes(ctx, i, s->grid.x), q));
		if (r == ROLE_PARTIALS)
			partials = i;
	}
	if (partials >= 0 && s->finish_device) /* the sum starts at 0, inside the timed run */
		LAB_TRY(ctx, cudaMemsetAsync(s->buf[partials], 0, lab::elem_size(ctx), q));
	LAB_TRY(ctx, cudaLaunchKernel((const void *)s->fn, s->grid, s->block, s->args, 0, q));
	if (partials >= 0)
		LAB_TRY(ctx, cudaMemcpyAsync(s->h_partials, s->buf[partials],
					     (s->finish_device ? 1 : s->grid.x) * lab::elem_size(ctx), cudaMemcpyDeviceToHost, q));
	return GPULAB_OK;
}

/* sum, max: the host finishes the per-block results, unless the kernel did. */
template <typename T>
int host_t(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	unsigned blocks = s->finish_device ? 1 : s->grid.x;
	if (of(ctx)->reference == REFERENCE_SUM)
		s->sum = lab::add_up(static_cast<const T *>(s->h_partials), blocks);
	else if (of(ctx)->reference == REFERENCE_MAX)
		s->sum = (double)builtin::max_of(static_cast<const T *>(s->h_partials), blocks);
	return GPULAB_OK;
}

/* Nothing written outside any buffer (the outputs' first, then the
 * inputs'), the inputs as they were made. */
template <typename T>
int check_buffers(gpulab_ctx *ctx, state *s)
{
	const challenge *c = of(ctx);
	int rc;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < c->nargs; i++) {
			uint64_t b = buffer_bytes(ctx, i, s->grid.x);
			enum challenge_role r = c->args[i].role;
			const char *name = c->args[i].name;
			if (!b || (r == ROLE_INPUT) != (pass == 1))
				continue;
			rc = r == ROLE_BINS || r == ROLE_SCRATCH ? lab::check_guards(ctx, name, (const unsigned *)s->buf[i], b / 4)
								 : lab::check_guards(ctx, name, (const T *)s->buf[i], b / sizeof(T));
			if (rc)
				return rc;
		}
	std::vector<unsigned char> now;
	if ((rc = lab::host_vector(ctx, now, s->host_in.size())))
		return rc;
	size_t at = 0, each = ctx->elements * sizeof(T);
	for (int i = 0; i < c->nargs; i++)
		if (c->args[i].role == ROLE_INPUT) {
			LAB_TRY(ctx, cudaMemcpy(now.data() + at, s->buf[i], each, cudaMemcpyDeviceToHost));
			at += each;
		}
	if (now != s->host_in) {
		ctx->error(ctx, "the kernel wrote to its input");
		return GPULAB_WRONG;
	}
	return GPULAB_OK;
}

/* The first argument of `role`: its buffer and name. */
int arg_of(const challenge *c, enum challenge_role role) { return challenge_find_arg(c, role, 0); }

/* An output within the tolerance of the CPU's: each element within tol
 * times the magnitudes that made it (want_abs), else one line. */
template <typename T>
int expect_close(gpulab_ctx *ctx, state *s, const char *name, const T *got, uint64_t n)
{
	const T *want = reinterpret_cast<const T *>(s->want.data());
	for (uint64_t i = 0; i < n; i++)
		if (!(std::fabs((double)got[i] - (double)want[i]) <= of(ctx)->tolerance * std::max(s->want_abs[i], 1.0))) {
			ctx->error(ctx, "%s[%" PRIu64 "]: expected %.9g, got %.9g (within %g of it; -p seed=%" PRIu64 " reproduces)",
				   name, i, (double)want[i], (double)got[i], of(ctx)->tolerance, opts_of(ctx).seed);
			return GPULAB_WRONG;
		}
	return GPULAB_OK;
}

/* The output against the CPU's answer for the inputs made from `seed`. */
template <typename T>
int check_output(gpulab_ctx *ctx, state *s, uint64_t seed)
{
	const challenge *c = of(ctx);
	uint64_t x, y, n = ctx->elements;
	int rc, out = arg_of(c, c->reference == REFERENCE_HISTOGRAM ? ROLE_BINS : ROLE_OUTPUT);
	const T *in = reinterpret_cast<const T *>(s->host_in.data());
	extent(ctx, &x, &y);
	switch (c->reference) {
	case REFERENCE_SUM: {
		char hint[400];
		bool explained = contract_poison_hint(s->finish_device, std::is_same<T, int>::value, s->sum, s->want_sum, hint,
						      sizeof hint);
		if (c->tolerance > 0 && std::fabs(s->sum - s->want_sum) <= c->tolerance * std::max(s->sum_abs, 1.0))
			return GPULAB_OK;
		return lab::expect_sum(ctx, (T)s->sum, s->want_sum, s->sum_abs, n, seed, explained ? hint : nullptr);
	}
	case REFERENCE_MAX:
		if ((T)s->sum == (T)s->want_sum)
			return GPULAB_OK;
		ctx->error(ctx, "max of %" PRIu64 " %s: expected %.9g, got %.9g (-p seed=%" PRIu64 " reproduces)", n,
			   lab::type_name(ctx), s->want_sum, s->sum, seed);
		return GPULAB_WRONG;
	case REFERENCE_TRANSPOSE:
	case REFERENCE_COPY:
		return lab::expect_moved(ctx, (const T *)s->buf[out], in, y, x, c->reference == REFERENCE_TRANSPOSE);
	case REFERENCE_HISTOGRAM:
		return lab::expect_device(ctx, c->args[out].name, (const unsigned *)s->buf[out],
					  reinterpret_cast<const unsigned *>(s->want.data()), 256);
	default: { /* prefix_sum, add: element by element */
		std::vector<T> got;
		if ((rc = lab::copy_back(ctx, got, (const T *)s->buf[out], n)))
			return rc;
		if (c->tolerance > 0)
			return expect_close(ctx, s, c->args[out].name, got.data(), n);
		return lab::expect_equal(ctx, c->args[out].name, got.data(), reinterpret_cast<const T *>(s->want.data()), n,
					 lab::where{ c->two_d ? x : 0 });
	}
	}
}

/* The inputs made anew from `seed` into the same buffers, and the CPU's
 * answer for them.  They are drawn from the challenge's range whatever
 * the point's generator: a constant or an edge pattern is the same for
 * every seed, and these must differ from the inputs the runs had. */
template <typename T>
int remake_inputs(gpulab_ctx *ctx, state *s, uint64_t seed)
{
	const challenge *c = of(ctx);
	const uint64_t n = ctx->elements;
	T *h = reinterpret_cast<T *>(s->host_in.data());
	/* on the runs' stream: cudaMemcpy from pageable memory may return
	 * before its copy lands, and that stream does not wait for it */
	for (int i = 0, k = 0; i < c->nargs; i++)
		if (c->args[i].role == ROLE_INPUT) {
			builtin::generate(c, GENERATOR_RANGE, h + k * n, n, seed + k);
			LAB_TRY(ctx, cudaMemcpyAsync(s->buf[i], h + k++ * n, n * sizeof(T), cudaMemcpyHostToDevice, lab::stream(ctx)));
		}
	LAB_TRY(ctx, cudaStreamSynchronize(lab::stream(ctx)));
	return reference<T>(ctx, s);
}

/* A kernel may keep what it computed in its module's memory (__device__
 * variables) from one launch to the next.  The timed runs repeat one
 * input, so a kernel that replays its last answer would be timed doing
 * no work.  So once the runs' output is right, the same loaded module
 * runs once more, on other inputs of the same size, and must be right
 * on them too. */
template <typename T>
int fresh_inputs(gpulab_ctx *ctx, state *s)
{
	const uint64_t seed = opts_of(ctx).seed + 0x5851f42d4c957f2dull;
	int rc;
	if ((rc = remake_inputs<T>(ctx, s, seed)) || (rc = reset(ctx)) || (rc = run(ctx)))
		return rc;
	LAB_TRY(ctx, cudaStreamSynchronize(lab::stream(ctx)));
	if ((rc = host_t<T>(ctx)) || (rc = check_buffers<T>(ctx, s)) || (rc = check_output<T>(ctx, s, seed)) != GPULAB_WRONG)
		return rc;
	ctx->error(ctx, "right on its inputs, but wrong on a second launch in the same loaded module with other inputs "
			"of the same size: a kernel that keeps results between launches is not timed");
	return GPULAB_WRONG;
}

template <typename T>
int verify_t(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	int rc = check_buffers<T>(ctx, s);
	if (rc == GPULAB_OK)
		rc = check_output<T>(ctx, s, opts_of(ctx).seed);
	return rc == GPULAB_OK ? fresh_inputs<T>(ctx, s) : rc;
}

/* Every challenge's exercise runs these; the rest of its declaration is
 * its folder's (challenges.c). */
const gpulab_exercise prototype = {
	.name = "", .summary = "", .dtypes = GPULAB_INT32, .plan = plan, .setup = LAB_TYPED(setup_t), .reset = reset,
	.run = run, .host = LAB_TYPED(host_t), .verify = LAB_TYPED(verify_t), .teardown = lab::teardown<state>,
	.flags = GPULAB_USER_CODE,
};

} // namespace

/* The exercises are read once, when gpulab loads the plugin, from the
 * folders it names (challenges.h): none where it names none. */
GPULAB_PLUGIN_ENTRY
{
	static gpulab_plugin desc = { GPULAB_PLUGIN_HEAD, .name = "try",
				      .summary = "your own kernel, compiled at run time, on a challenge's bench" };
	static bool read = false;
	if (!read) {
		gpulab_exercise *v = nullptr;
		desc.n_exercises = try_challenges(std::getenv("GPULAB_CHALLENGE_FOLDERS"), &prototype, &v);
		desc.exercises = v;
		read = true;
	}
	return &desc;
}
