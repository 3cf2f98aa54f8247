/*
 * The try plugin: a learner's own kernel as an exercise.  Each exercise
 * is a challenge (reduce, transpose, sum_matrix) whose kernel comes from
 * the file in its `kernel` key, compiled at run time with NVRTC for the
 * GPU in use (compile.h), launched as the file's contract line says
 * (contract.h), and checked as the challenge's own plugin checks its
 * ladder.  Its rows are compared with that plugin's baseline and
 * reference (`peers`), and `gpulab try` runs its gate first.
 *
 * Since the code is the learner's, nothing about it is trusted: every
 * buffer lies between guard zones of poison (a read past the input sums
 * NaN or -1, a write past the output is found), the input is checked to
 * be unchanged, and the core's watchdog stops a kernel that never ends
 * (GPULAB_USER_CODE).
 */
#include "compile.h"
#include "contract.h"

#include <gpulab/lab.cuh>

#include <cerrno>
#include <cinttypes>
#include <string>
#include <vector>

namespace {

/* One challenge: the kernel's name and signature, and its data. */
struct challenge {
	const char *kernel;
	const char *params;      /* the signature's parameters, with T */
	const char *pointer;     /* the kernel's type, with T: what the contract checks */
	bool takes_finish;
};

const challenge c_reduce = { "reduce", "const T *in, T *partials, unsigned n", "void (*)(const T *, T *, unsigned)", true };
const challenge c_transpose = { "transpose", "const T *in, T *out, unsigned rows, unsigned cols",
				"void (*)(const T *, T *, unsigned, unsigned)", false };
const challenge c_sum_matrix = { "sum_matrix", "const T *A, const T *B, T *C, unsigned nx, unsigned ny",
				 "void (*)(const T *, const T *, T *, unsigned, unsigned)", false };

struct opts {
	const char *kernel;
	uint64_t x, y;           /* transpose: cols, rows; sum_matrix: nx, ny */
	uint64_t seed;
};

const challenge *of(const gpulab_ctx *ctx) { return static_cast<const challenge *>(ctx->data); }
const opts &opts_of(const gpulab_ctx *ctx) { return lab::opts<opts>(ctx); }

/* s with every T replaced by `type`. */
std::string with_type(const char *s, const char *type)
{
	std::string out;
	for (; *s; s++)
		out += *s == 'T' ? std::string(type) : std::string(1, *s);
	return out;
}

/* Appended to the learner's file: the kernel must have the challenge's
 * signature for each type, or the compiler says so, before a launch
 * could hand it the wrong arguments. */
std::string contract_checks(const challenge *c, unsigned dtypes)
{
	std::string s = "namespace gpulab_contract {\n"
			"template <class A, class B> struct same { static constexpr bool value = false; };\n"
			"template <class A> struct same<A, A> { static constexpr bool value = true; };\n";
	for (const char *t : { "int", "float" })
		if (dtypes & (std::string(t) == "int" ? GPULAB_INT32 : GPULAB_FLOAT32))
			s += "static_assert(same<decltype(&" + std::string(c->kernel) + "<" + t + ">), " + with_type(c->pointer, t)
			     + ">::value, \"gpulab try " + c->kernel + ": the kernel must be template <typename T> __global__ void "
			     + c->kernel + "(" + c->params + ")\");\n";
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
				"(`gpulab try %s --template` writes a start)", c->kernel, c->kernel);
		return GPULAB_EINPUT;
	}
	if ((rc = read_file(ctx, path, text)) != GPULAB_OK)
		return rc;
	if (contract_parse(text.data(), text.size(), &k.con, err, sizeof err)) {
		if (k.con.line)
			ctx->error(ctx, "%s:%d: %s", path, k.con.line, err);
		else
			ctx->error(ctx, "%s: %s (`gpulab try %s --template` shows one)", path, err, c->kernel);
		return GPULAB_EINPUT;
	}
	if (k.con.finish_given && !c->takes_finish) {
		ctx->error(ctx, "%s:%d: finish= is for reduce alone", path, k.con.line);
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
	if (of(ctx) == &c_reduce)
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

/* Compile (so a file that does not compile costs nothing else, and needs
 * no GPU), and check what the contract's grid can reach. */
int plan(gpulab_ctx *ctx)
{
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
	size_t e = lab::elem_size(ctx), guards = 6 * lab::state::guard_bytes;
	ctx->elements = x * y;
	if (of(ctx) == &c_reduce) {
		ctx->bytes_read = ctx->elements * e;
		ctx->bytes_written = (k.con.finish_device ? 1 : gx) * e;
		ctx->device_bytes = (ctx->elements + gx) * e + guards;
	} else {
		unsigned inputs = of(ctx) == &c_sum_matrix ? 2 : 1;
		ctx->bytes_read = inputs * ctx->elements * e;
		ctx->bytes_written = ctx->elements * e;
		ctx->device_bytes = (inputs + 1) * ctx->elements * e + guards;
	}
	return GPULAB_OK;
}

struct state : lab::state {
	cudaLibrary_t lib = nullptr;
	cudaKernel_t fn = nullptr;
	dim3 grid, block;
	void *in = nullptr, *in2 = nullptr, *out = nullptr;
	void *h_partials = nullptr;   /* reduce, finish=host: pinned, copied back in run() */
	bool finish_device = false;
	std::vector<unsigned char> host_in; /* the inputs as made, to check them unchanged */
	std::vector<int> want;        /* sum_matrix: A + B */
	double sum = 0, want_sum = 0, sum_abs = 0; /* reduce */
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

/* An input of n elements from the seed, guarded on the device and kept
 * on the host. */
template <typename T>
int make_input(gpulab_ctx *ctx, state *s, void **dev, uint64_t n, uint64_t seed)
{
	size_t at = s->host_in.size();
	int rc = lab::host_vector(ctx, s->host_in, at + n * sizeof(T));
	if (rc != GPULAB_OK || (rc = s->alloc_guarded(ctx, (T **)dev, n)) != GPULAB_OK)
		return rc;
	T *h = reinterpret_cast<T *>(s->host_in.data() + at);
	lab::fill(h, n, seed);
	LAB_TRY(ctx, cudaMemcpy(*dev, h, n * sizeof(T), cudaMemcpyHostToDevice));
	return GPULAB_OK;
}

template <typename T>
int setup_t(gpulab_ctx *ctx)
{
	state *s;
	uint64_t n = ctx->elements, seed = opts_of(ctx).seed;
	int rc;
	if ((rc = lab::make_state(ctx, &s)) || (rc = load(ctx, s)))
		return rc;
	if (of(ctx) == &c_reduce) {
		unsigned blocks = s->grid.x;
		if ((rc = make_input<T>(ctx, s, &s->in, n, seed)) || (rc = s->alloc_guarded(ctx, (T **)&s->out, blocks))
		    || (rc = s->alloc_pinned(ctx, (T **)&s->h_partials, blocks)))
			return rc;
		lab::sum_reference(reinterpret_cast<const T *>(s->host_in.data()), n, &s->want_sum, &s->sum_abs);
		return GPULAB_OK;
	}
	if ((rc = make_input<T>(ctx, s, &s->in, n, seed)) || (rc = s->alloc_guarded(ctx, (T **)&s->out, n)))
		return rc;
	if (of(ctx) != &c_sum_matrix)
		return GPULAB_OK;
	if ((rc = make_input<T>(ctx, s, &s->in2, n, seed + 1)) || (rc = lab::host_vector(ctx, s->want, n)))
		return rc;
	const int *a = reinterpret_cast<const int *>(s->host_in.data()), *b = a + n;
	for (uint64_t i = 0; i < n; i++)
		s->want[i] = a[i] + b[i];
	return GPULAB_OK;
}

/* The output poisoned, so an element never written cannot pass.  Under
 * finish=device run() then zeroes partials[0], the one element the
 * kernel adds into. */
int reset(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	size_t count = of(ctx) == &c_reduce ? (size_t)s->grid.x : ctx->elements;
	return lab::poison(ctx, s->out, count * lab::elem_size(ctx));
}

int run(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	unsigned n = (unsigned)ctx->elements, x = (unsigned)opts_of(ctx).x, y = (unsigned)opts_of(ctx).y;
	cudaStream_t q = lab::stream(ctx);
	void *reduce_args[] = { &s->in, &s->out, &n }, *transpose_args[] = { &s->in, &s->out, &y, &x },
	     *sum_args[] = { &s->in, &s->in2, &s->out, &x, &y };
	void **args = of(ctx) == &c_reduce ? reduce_args : of(ctx) == &c_transpose ? transpose_args : sum_args;
	if (of(ctx) == &c_reduce && s->finish_device) /* the sum starts at 0, inside the timed run */
		LAB_TRY(ctx, cudaMemsetAsync(s->out, 0, lab::elem_size(ctx), q));
	LAB_TRY(ctx, cudaLaunchKernel((const void *)s->fn, s->grid, s->block, args, 0, q));
	if (of(ctx) == &c_reduce)
		LAB_TRY(ctx, cudaMemcpyAsync(s->h_partials, s->out, (s->finish_device ? 1 : s->grid.x) * lab::elem_size(ctx),
					     cudaMemcpyDeviceToHost, q));
	return GPULAB_OK;
}

/* reduce: the host adds the per-block sums, unless the kernel did. */
template <typename T>
int host_t(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	if (of(ctx) == &c_reduce)
		s->sum = lab::add_up(static_cast<const T *>(s->h_partials), s->finish_device ? 1 : s->grid.x);
	return GPULAB_OK;
}

/* Nothing written outside the outputs, the inputs as they were made. */
template <typename T>
int check_buffers(gpulab_ctx *ctx, state *s)
{
	size_t n = ctx->elements, outs = of(ctx) == &c_reduce ? s->grid.x : n;
	const char *out = of(ctx) == &c_reduce ? "partials" : of(ctx) == &c_transpose ? "out" : "C";
	const char *in = of(ctx) == &c_sum_matrix ? "A" : "in";
	int rc;
	if ((rc = lab::check_guards(ctx, out, (const T *)s->out, outs)) || (rc = lab::check_guards(ctx, in, (const T *)s->in, n))
	    || (s->in2 && (rc = lab::check_guards(ctx, "B", (const T *)s->in2, n))))
		return rc;
	std::vector<unsigned char> now;
	if ((rc = lab::host_vector(ctx, now, s->host_in.size())))
		return rc;
	LAB_TRY(ctx, cudaMemcpy(now.data(), s->in, n * sizeof(T), cudaMemcpyDeviceToHost));
	if (s->in2)
		LAB_TRY(ctx, cudaMemcpy(now.data() + n * sizeof(T), s->in2, n * sizeof(T), cudaMemcpyDeviceToHost));
	if (now != s->host_in) {
		ctx->error(ctx, "the kernel wrote to its input");
		return GPULAB_WRONG;
	}
	return GPULAB_OK;
}

template <typename T>
int verify_t(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	const opts &o = opts_of(ctx);
	int rc = check_buffers<T>(ctx, s);
	if (rc != GPULAB_OK)
		return rc;
	if (of(ctx) == &c_reduce) {
		char hint[400];
		bool explained = contract_poison_hint(s->finish_device, std::is_same<T, int>::value, s->sum, s->want_sum, hint,
						      sizeof hint);
		return lab::expect_sum(ctx, (T)s->sum, s->want_sum, s->sum_abs, ctx->elements, o.seed, explained ? hint : nullptr);
	}
	if (of(ctx) == &c_transpose)
		return lab::expect_moved(ctx, (const T *)s->out, reinterpret_cast<const T *>(s->host_in.data()), o.y, o.x, true);
	std::vector<int> got;
	if ((rc = lab::copy_back(ctx, got, (const int *)s->out, ctx->elements)))
		return rc;
	return lab::expect_equal(ctx, "C", got.data(), s->want.data(), ctx->elements, lab::where{ o.x });
}

#define KERNEL_KEY \
	{ .key = "kernel", .type = GPULAB_PARAM_PATH, .offset = offsetof(opts, kernel), .def = "", \
	  .help = "your kernel's .cu file (gpulab try CHALLENGE FILE.cu sets it)" }
#define SIDE(name, field, def_, help_) \
	{ .key = #name, .type = GPULAB_PARAM_COUNT, .offset = offsetof(opts, field), .def = def_, .help = help_, \
	  .min = 1, .max = 0x7fffffff }

/* The same defaults as the challenges' own plugins, so that a row is
 * compared with theirs at the same point. */
const gpulab_param p_reduce[] = { KERNEL_KEY, LAB_SEED(opts, seed), { nullptr } };
const gpulab_param p_transpose[] = { KERNEL_KEY, SIDE(rows, y, "8192", "rows of the input matrix"),
				     SIDE(cols, x, "8192", "columns of the input matrix"), LAB_SEED(opts, seed), { nullptr } };
const gpulab_param p_sum_matrix[] = { KERNEL_KEY, SIDE(nx, x, "16384", "matrix columns"), SIDE(ny, y, "16384", "matrix rows"),
				      LAB_SEED(opts, seed), { nullptr } };

#define TRY(c, p) \
	.params = p, .params_size = sizeof(opts), .plan = plan, .setup = LAB_TYPED(setup_t), .reset = reset, .run = run, \
	.host = LAB_TYPED(host_t), .verify = LAB_TYPED(verify_t), .teardown = lab::teardown<state>, .data = &c

/* Each challenge's gate: one element, a warp less and more than 32, odd
 * sizes past a power of two, and a large power of two; for matrices,
 * single rows and columns and sides no tile divides. */
const gpulab_exercise exercises[] = {
	{ .name = "reduce", .summary = "your sum of n ints or floats: template <typename T> reduce(const T *in, T *partials, unsigned n)",
	  .dtypes = GPULAB_INT32 | GPULAB_FLOAT32, .n = 1u << 24, .n_max = 0x7fffffff, TRY(c_reduce, p_reduce),
	  .metrics = "gld_transactions,gld_transactions_per_request,gld_efficiency,gld_throughput,inst_per_warp",
	  .flags = GPULAB_USER_CODE, .peers = "reduce", .gate = "n=1;n=31;n=33;n=1000003;n=16777223;n=67108864" },
	{ .name = "transpose", .summary = "your out = in^T: template <typename T> transpose(const T *in, T *out, unsigned rows, unsigned cols)",
	  .dtypes = GPULAB_INT32 | GPULAB_FLOAT32, TRY(c_transpose, p_transpose),
	  .metrics = "gld_transactions_per_request,gst_transactions_per_request,shared_ld_bank_conflict,shared_st_bank_conflict",
	  .flags = GPULAB_USER_CODE, .peers = "transpose",
	  .gate = "rows=1 cols=1;rows=31 cols=33;rows=33 cols=31;rows=1 cols=4099;rows=4099 cols=1;rows=1000 cols=3001" },
	{ .name = "sum_matrix", .summary = "your C = A + B on ints: template <typename T> sum_matrix(const T *A, const T *B, T *C, unsigned nx, unsigned ny)",
	  .dtypes = GPULAB_INT32, TRY(c_sum_matrix, p_sum_matrix),
	  .metrics = "achieved_occupancy,gld_throughput,gld_efficiency,dram__throughput.avg.pct_of_peak_sustained_elapsed",
	  .flags = GPULAB_USER_CODE, .peers = "sum_matrix",
	  .gate = "nx=1 ny=1;nx=31 ny=33;nx=33 ny=31;nx=1 ny=4099;nx=4099 ny=1;nx=1000 ny=777;nx=3 ny=2049" },
};

} // namespace

LAB_PLUGIN("try", "your own kernel, compiled at run time, on a challenge's bench", exercises)
