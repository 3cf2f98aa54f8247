/*
 * gpulab try without a GPU: the contract line, the compiler's messages,
 * the cache of compiled kernels and NVRTC itself (which needs no GPU),
 * the gate's declarations, and the command's answers to files that do not
 * compile or do not keep the contract.  Only where the try plugin is
 * built (NVRTC found).
 */
#include "exitcode.h"
#include "plugins/gate.h"
#include "testutil.h"

#include "../plugins/try/cache.h"
#include "../plugins/try/compile.h"
#include "../plugins/try/contract.h"
#include "../plugins/try/filter.h"
#include "../plugins/try/log.h"

#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char err[1024];

static int parse(const char *src, struct contract *c)
{
	return contract_parse(src, strlen(src), c, err, sizeof err);
}

START_TEST(contract_reads_the_launch)
{
	struct contract c;
	ck_assert_int_eq(parse("// a kernel\n// gpulab: block=512\n__global__ ...", &c), 0);
	ck_assert(c.block_x == 512 && c.block_y == 1 && c.tile_x == 512 && c.tile_y == 1 && c.line == 2);
	ck_assert(!c.persistent && !c.finish_device && !c.finish_given);
	ck_assert_int_eq(parse("  //gpulab:  block=256\tper_thread=8 grid=persistent finish=device\r\n", &c), 0);
	ck_assert(c.block_x == 256 && c.tile_x == 2048 && c.tile_y == 1 && c.persistent && c.finish_device && c.finish_given);
	ck_assert_int_eq(parse("// gpulab: block=32x8 tile=64x64 grid=tiles finish=host", &c), 0);
	ck_assert(c.block_x == 32 && c.block_y == 8 && c.tile_x == 64 && c.tile_y == 64 && !c.persistent);
	ck_assert(c.finish_given && !c.finish_device);
	ck_assert_int_eq(parse("// gpulab: block=32x32 tile=7", &c), 0);
	ck_assert(c.block_x == 32 && c.block_y == 32 && c.tile_x == 7 && c.tile_y == 1);
	/* "// gpulab try ..." is prose, not a contract */
	ck_assert_int_eq(parse("// gpulab try reduce: notes\n// gpulab: block=64\n", &c), 0);
	ck_assert_int_eq(c.line, 2);
	char defs[CONTRACT_NDEFS][48];
	parse("// gpulab: block=32x8 tile=32x32", &c);
	contract_defines(&c, defs);
	ck_assert_str_eq(defs[0], "-DGPULAB_BLOCK_X=32");
	ck_assert_str_eq(defs[1], "-DGPULAB_BLOCK_Y=8");
	ck_assert_str_eq(defs[2], "-DGPULAB_BLOCK=256");
	ck_assert_str_eq(defs[3], "-DGPULAB_TILE_X=32");
	ck_assert_str_eq(defs[4], "-DGPULAB_TILE_Y=32");
}
END_TEST

/* A sum off by exactly the poison names the likely cause; any other
 * wrong sum is left to speak for itself. */
START_TEST(poison_sum_is_explained)
{
	char hint[400];
	const char *host = " past in[n - 1] and in partials until written: a kernel that adds into partials[0] (atomicAdd) "
			   "declares finish=device, which zeroes partials[0] first; else each block writes partials[blockIdx.x], "
			   "and reads stop at in[n - 1]";
	const char *device = " past in[n - 1]: the kernel reads past the end of in (or adds partials[1] on, which are never zeroed)";
	char want[400];
	/* issue 31's learner: atomicAdd into partials[0] without finish=device */
	ck_assert_int_eq(contract_poison_hint(0, 1, 235, 236, hint, sizeof hint), 1);
	snprintf(want, sizeof want, "off by exactly -1, the poison%s", host);
	ck_assert_str_eq(hint, want);
	ck_assert_int_eq(contract_poison_hint(0, 0, NAN, 236, hint, sizeof hint), 1);
	snprintf(want, sizeof want, "NaN, the poison%s", host);
	ck_assert_str_eq(hint, want);
	ck_assert_int_eq(contract_poison_hint(1, 1, -1, 0, hint, sizeof hint), 1);
	snprintf(want, sizeof want, "off by exactly -1, the poison%s", device);
	ck_assert_str_eq(hint, want);
	ck_assert_int_eq(contract_poison_hint(1, 0, NAN, 2.5, hint, sizeof hint), 1);
	snprintf(want, sizeof want, "NaN, the poison%s", device);
	ck_assert_str_eq(hint, want);
	/* ints wrap at 32 bits: INT_MIN less one is INT_MAX */
	ck_assert_int_eq(contract_poison_hint(0, 1, 2147483647.0, -2147483648.0, hint, sizeof hint), 1);
	/* other errors: no hint, and buf untouched */
	strcpy(hint, "untouched");
	ck_assert_int_eq(contract_poison_hint(0, 1, 234, 236, hint, sizeof hint), 0);
	ck_assert_int_eq(contract_poison_hint(0, 1, 237, 236, hint, sizeof hint), 0);
	ck_assert_int_eq(contract_poison_hint(1, 1, 236, 236, hint, sizeof hint), 0);
	ck_assert_int_eq(contract_poison_hint(0, 0, 235, 236, hint, sizeof hint), 0);
	ck_assert_int_eq(contract_poison_hint(0, 0, NAN, NAN, hint, sizeof hint), 0);
	ck_assert_int_eq(contract_poison_hint(0, 0, INFINITY, 236, hint, sizeof hint), 0);
	ck_assert_str_eq(hint, "untouched");
}
END_TEST

static const struct bad_contract {
	const char *src;
	int line;
	const char *why;
} bad_contracts[] = {
	{ "__global__ void reduce();\n", 0, "no contract line, such as `// gpulab: block=256`" },
	{ "\n\n// gpulab: blok=256\n", 3, "unknown key 'blok' in the contract (block, per_thread, tile, grid, finish)" },
	{ "// gpulab: block=2000\n", 1, "'block=2000': block takes threads per block, N or WxH, at most 1024 in all" },
	{ "// gpulab: block=33x32\n", 1, "'block=33x32': block takes threads per block" },
	{ "// gpulab: block=0\n", 1, "'block=0': block takes" },
	{ "// gpulab: block=64 block=64\n", 1, "'block' is given twice" },
	{ "// gpulab: block\n", 1, "'block': block takes" },
	{ "// gpulab: per_thread=4\n", 1, "the contract gives no block=N (threads per block)" },
	{ "// gpulab: block=64 per_thread=4 tile=64\n", 1, "give tile= or per_thread=, not both" },
	{ "// gpulab: block=64 grid=huge\n", 1, "'grid=huge': grid takes tiles or persistent" },
	{ "// gpulab: block=64 finish=gpu\n", 1, "'finish=gpu': finish takes host or device" },
	{ "// gpulab: block=64 per_thread=5000\n", 1, "'per_thread=5000': per_thread takes elements per thread, from 1 to 4096" },
	{ "// gpulab: block=64 tile=16777217\n", 1, "'tile=16777217': tile takes elements per block" },
	{ "// gpulab: block=64\n// gpulab: block=64\n", 2, "a second contract line; the first is line 1" },
	{ "// gpulab: block=99999999999999999999\n", 1, "'block=99999999999999999999': block takes" },
};

START_TEST(contract_refuses)
{
	const struct bad_contract *b = &bad_contracts[_i];
	struct contract c;
	ck_assert_int_eq(parse(b->src, &c), -1);
	ck_assert_int_eq(c.line, b->line);
	ck_assert_msg(strstr(err, b->why) != NULL, "'%s': %s", b->src, err);
}
END_TEST

static size_t source(const char *name, char *buf, size_t len);

/* --- issue 56: a kernel is one file -------------------------------------- */

static const struct filtered {
	const char *src;
	int line;
	const char *why;
} refused_sources[] = {
	/* a secret file, quoted in the compiler's error */
	{ "// gpulab: block=256\n__device__ int x = 1 +\n#include \"/etc/hostname\"\n", 3,
	  "#include \"/etc/hostname\" is refused: a kernel is one file, and may include only its challenge's headers "
	  "(it provides none)" },
	{ "#include </proc/self/environ>\n", 1, "#include </proc/self/environ> is refused: a kernel is one file" },
	{ "#include \"../secret/solution.cu\"\n", 1, "#include \"../secret/solution.cu\" is refused" },
	/* a sibling's kernel */
	{ "// gpulab: block=256\n\n  #  include \"bob.cu\"\n", 3, "#include \"bob.cu\" is refused" },
	{ "#include_next <x.h>\n", 1, "#include_next <x.h> is refused" },
	{ "#import \"bob.cu\"\n", 1, "#import \"bob.cu\" is refused" },
	{ "#embed \"/etc/passwd\"\n", 1, "#embed \"/etc/passwd\" is refused" },
	/* hidden from a reader that reads lines as they look */
	{ "#inc\\\nlude \"bob.cu\"\n", 1, "#include \"bob.cu\" is refused" },
	{ "int a;\n/* a\n comment */ #include \"bob.cu\"\n", 3, "#include \"bob.cu\" is refused" },
	{ "# /* c */ include \"bob.cu\"\n", 1, "#include \"bob.cu\" is refused" },
	{ "%:include \"bob.cu\"\n", 1, "#include \"bob.cu\" is refused" },
	{ "?\?=include \"bob.cu\"\n", 1, "#include \"bob.cu\" is refused" },
	{ "int a = 1'000;\n#include \"bob.cu\"\n", 2, "#include \"bob.cu\" is refused" },
	{ "const char *s = R\"x(\n#include \"bob.cu\"\n)x\";\n", 2,
	  "# is refused: a line of a raw string may not begin as a directive" },
	/* through a macro */
	{ "#define H \"/etc/hostname\"\n#include H\n", 2,
	  "#include through a macro is refused: a kernel is one file, and may include only its challenge's headers, by name" },
	/* whether a file exists */
	{ "#if __has_include(\"/etc/shadow\")\n#endif\n", 1,
	  "__has_include is refused: a kernel may not ask which files exist" },
	{ "#if defined(__has_include_next)\n", 1, "__has_include_next is refused" },
	{ "#define P(a, b) a##b\n#if P(__has_, include)(\"/etc/shadow\")\n#endif\n", 1,
	  "token pasting (##) is refused: it can build __has_include out of pieces" },
	{ "#define P(a, b) a %:%: b\n", 1, "token pasting (##) is refused" },
	{ "int __has_incl\\u0075de;\n", 1,
	  "a backslash outside a literal or a comment is refused: a universal character name could spell __has_include" },
	/* the compiler told another file name or line */
	{ "\n#line 1 \"<gpulab contract>\"\n", 2,
	  "#line is refused: the compiler's messages must name this file and its own lines" },
	{ "# 7 \"bob.cu\"\n", 1, "# LINE \"FILE\" is refused: the compiler's messages must name this file" },
	{ "#pragma include_alias(\"a.h\", \"/etc/passwd\")\n", 1, "include_alias is refused" },
	{ "_Pragma(\"include_alias(<a.h>, <b.h>)\")\n", 1, "_Pragma with include is refused" },
	{ "#ident \"x\"\n", 1, "#ident is refused: a kernel may use #define, #undef, #if and its kin, #error, #warning and #pragma" },
	{ "int a;\nint b;\0#include \"x\"\n", 2, "a NUL byte is refused: the compiler would stop reading there" },
};

START_TEST(filter_refuses)
{
	const struct filtered *b = &refused_sources[_i];
	size_t len = strlen(b->src);
	int line = -1;
	if (strstr(b->why, "NUL"))
		len += strlen(b->src + len + 1) + 1;
	ck_assert_int_eq(filter_source(b->src, len, filter_no_headers, &line, err, sizeof err), -1);
	ck_assert_msg(line == b->line, "'%s': line %d, wanted %d", b->src, line, b->line);
	ck_assert_msg(!strncmp(err, b->why, strlen(b->why)), "'%s': %s", b->src, err);
	ck_assert(!strchr(err, '\n'));
}
END_TEST

/* What a kernel may write: every template and fixture, the directives it
 * needs, and what only looks like an include. */
START_TEST(filter_passes)
{
	static const char *const files[] = { "challenges/reduce/template.cu", "challenges/transpose/template.cu",
					     "challenges/sum_matrix/template.cu", "tests/try/reduce_shfl.cu",
					     "tests/try/reduce_tail.cu", "tests/try/trap.cu", "tests/try/syntax.cu",
					     "tests/try/badsig.cu", "tests/try/forever.cu", "tests/try/oob.cu",
					     "tests/try/write_past.cu", "tests/try/reduce_atomic.cu", "tests/try/atomic_host.cu" };
	static char text[65536];
	int line = -1;
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		size_t n = source(files[i], text, sizeof text);
		ck_assert_msg(filter_source(text, n, filter_no_headers, &line, err, sizeof err) == 0, "%s:%d: %s", files[i],
			      line, err);
	}
	const char *fine = "// #include \"bob.cu\"\n/* #include <x>\n#line 3 */\nconst char *s = \"#include x ## y\";\n"
			   "#define STR(x) #x\n#pragma unroll 4\n#if defined(X) && GPULAB_BLOCK > 32\n#elif 1\n#else\n#endif\n"
			   "int a = 0x1'0, b = '#', c = '\\'';\n#\n#undef X\n#error no\n#warning w\n#ifdef A\n#endif\n";
	ck_assert_msg(filter_source(fine, strlen(fine), filter_no_headers, &line, err, sizeof err) == 0, "%d: %s", line, err);
	/* a challenge's own header, by name */
	const char *const headers[] = { "gpulab_reduce.h", NULL };
	const char *own = "#include <gpulab_reduce.h>\n#include \"gpulab_reduce.h\"\n";
	ck_assert_int_eq(filter_source(own, strlen(own), headers, &line, err, sizeof err), 0);
	own = "#include \"gpulab_reduce.hh\"\n";
	ck_assert_int_eq(filter_source(own, strlen(own), headers, &line, err, sizeof err), -1);
	ck_assert_str_eq(err, "#include \"gpulab_reduce.hh\" is refused: a kernel is one file, and may include only its "
			      "challenge's headers");
}
END_TEST

/* The compiler's messages about another file never reach a person. */
START_TEST(log_keeps_own_file)
{
	char *own = log_keep_own("k.cu(2): error: a\n  quoted k\n  ^\n\n/etc/hostname(1): error: b\n  SECRET\n  ^\n\n"
				 "<gpulab contract>(4): error: c\n  static_assert\nk.cu(3): warning: d\nAt end of source: error: e\n"
				 "k.cu.bak(1): error: f\n  BAK\n3 errors detected in the compilation of \"k.cu\".\n",
				 "k.cu");
	ck_assert_str_eq(own, "k.cu(2): error: a\n  quoted k\n  ^\n\n<gpulab contract>(4): error: c\n  static_assert\n"
			      "k.cu(3): warning: d\nAt end of source: error: e\n3 errors detected in the compilation of \"k.cu\".\n");
	free(own);
}
END_TEST

/* The log through log_write, into buf. */
static void rewrite(const char *log, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");
	log_write(log, f);
	fclose(f);
}

START_TEST(messages_name_file_and_line)
{
	char out[512], first[128];
	rewrite("k.cu(9): error: expected a \";\"\n  \tT v = 0\n  \t^\n\n1 error detected in the compilation of \"k.cu\".\n",
		out, sizeof out);
	ck_assert_str_eq(out, "k.cu:9: error: expected a \";\"\n  \tT v = 0\n  \t^\n\n1 error detected in the compilation of \"k.cu\".\n");
	rewrite("<gpulab contract>(4): error: static assertion failed\n", out, sizeof out);
	ck_assert_str_eq(out, "<gpulab contract>:4: error: static assertion failed\n");
	/* only NAME(DIGITS): at the start of a line */
	rewrite("(3): x\nf(x): y\nf(12) z\n  a(1): b", out, sizeof out);
	ck_assert_str_eq(out, "(3): x\nf(x): y\nf(12) z\n  a:1: b");
	/* the log quotes the learner's source: shown, not obeyed, line by line */
	rewrite("k.cu(2): error: bad\n  \"\x1b[2J\xe2\x80\xae\" \\ \xff\n", out, sizeof out);
	ck_assert_str_eq(out, "k.cu:2: error: bad\n  \"\\x1b[2J\\u202e\" \\\\ \\xff\n");
	log_first_error("k.cu(3): warning: unused\nk.cu(7): error: bad\nk.cu(8): error: worse\n", first, sizeof first);
	ck_assert_str_eq(first, "k.cu:7: error: bad");
	log_first_error("k.cu(3): warning: unused\n", first, sizeof first);
	ck_assert_str_eq(first, "");
	log_first_error("a-long-name.cu(123456): error: and a long message", first, 20);
	ck_assert_str_eq(first, "a-long-name.cu:1234");
}
END_TEST

static int files_in(const char *dir)
{
	int n = 0;
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

START_TEST(cache_round_trip_and_corruption)
{
	char *dir = temp_dir(), sub[4200], path[4300], key[65], other[65];
	unsigned char secret[SHA256_BYTES];
	struct cache_hash h;
	void *got;
	size_t len;
	snprintf(sub, sizeof sub, "%s/a/gpulab", dir);
	cache_hash_start(&h);
	cache_hash_add(&h, "ab", 2);
	cache_hash_add(&h, "c", 1);
	cache_hash_hex(&h, key);
	cache_hash_start(&h);
	cache_hash_add(&h, "a", 1);
	cache_hash_add(&h, "bc", 2);
	cache_hash_hex(&h, other);
	ck_assert_int_eq(strlen(key), 64);
	ck_assert_str_ne(key, other); /* where the pieces split counts */

	ck_assert_int_eq(cache_trust(sub, secret, err, sizeof err), 0);
	ck_assert_int_eq(cache_load(sub, secret, key, &got, &len, err, sizeof err), -1); /* nothing yet */
	ck_assert_int_eq(cache_store(sub, secret, key, "payload\0bytes", 13), 0);
	ck_assert_int_eq(files_in(sub), 2); /* the secret and the entry; no temporary left behind */
	struct stat st;
	ck_assert(stat(sub, &st) == 0 && (st.st_mode & 0777) == 0700);
	snprintf(path, sizeof path, "%s/secret", sub);
	ck_assert(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600 && st.st_size == 32);
	ck_assert_int_eq(cache_load(sub, secret, key, &got, &len, err, sizeof err), 0);
	ck_assert(len == 13 && !memcmp(got, "payload\0bytes", 13));
	free(got);

	/* the same file under another key's name reads as absent */
	snprintf(path, sizeof path, "%s/%s.bin", sub, key);
	char moved[4300];
	snprintf(moved, sizeof moved, "%s/%s.bin", sub, other);
	ck_assert_int_eq(link(path, moved), 0);
	ck_assert_int_eq(cache_load(sub, secret, other, &got, &len, err, sizeof err), -1);

	/* one byte of the payload changed, then the file cut short */
	FILE *f = fopen(path, "r+b");
	fseek(f, -3, SEEK_END);
	fputc('X', f);
	fclose(f);
	ck_assert_int_eq(cache_load(sub, secret, key, &got, &len, err, sizeof err), -1);
	ck_assert_int_eq(cache_store(sub, secret, key, "payload\0bytes", 13), 0);
	ck_assert_int_eq(truncate(path, 40), 0);
	ck_assert_int_eq(cache_load(sub, secret, key, &got, &len, err, sizeof err), -1);
	ck_assert_int_eq(cache_load(sub, secret, "../../etc/passwd", &got, &len, err, sizeof err), -1);
	ck_assert_int_eq(cache_store(sub, secret, "not a key", "x", 1), -1);
}
END_TEST

/* SHA-256 and HMAC-SHA-256 against their standards' vectors. */
START_TEST(sha256_vectors)
{
	unsigned char d[SHA256_BYTES];
	char hex[65];
	struct sha256 s;
	sha256_start(&s);
	sha256_add(&s, "abc", 3);
	sha256_end(&s, d);
	sha256_hex(d, sizeof d, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"); /* FIPS 180-2 B.1 */
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	sha256_start(&s);
	for (const char *p = two; *p; p++) /* a byte at a time: the blocks put together */
		sha256_add(&s, p, 1);
	sha256_end(&s, d);
	sha256_hex(d, sizeof d, hex);
	ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"); /* B.2 */
	static char million[1000000];
	memset(million, 'a', sizeof million);
	sha256_start(&s);
	sha256_add(&s, million, sizeof million);
	sha256_end(&s, d);
	sha256_hex(d, sizeof d, hex);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"); /* B.3 */
	sha256_hmac("Jefe", 4, "what do ya want for nothing?", 28, d);
	sha256_hex(d, sizeof d, hex);
	ck_assert_str_eq(hex, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"); /* RFC 4231, 2 */
	unsigned char key[131];
	memset(key, 0xaa, sizeof key);
	const char *big = "Test Using Larger Than Block-Size Key - Hash Key First";
	sha256_hmac(key, sizeof key, big, strlen(big), d);
	sha256_hex(d, sizeof d, hex);
	ck_assert_str_eq(hex, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"); /* RFC 4231, 6 */
}
END_TEST

/* Issue 56, 4: a cache folder or entry that another user could write,
 * read, or own is refused in one line naming it. */
START_TEST(cache_must_be_private)
{
	char *dir = temp_dir(), sub[4200], path[4300], link_to[4300], want[4600], key[65];
	unsigned char secret[SHA256_BYTES];
	void *got;
	size_t len;
	snprintf(sub, sizeof sub, "%s/gpulab", dir);
	ck_assert_int_eq(cache_trust(sub, secret, err, sizeof err), 0);
	ck_assert_int_eq(chmod(sub, 0777), 0);
	ck_assert_int_eq(cache_trust(sub, secret, err, sizeof err), -2);
	snprintf(want, sizeof want, "%s: mode 0777, others may write it: a kernel cache must be yours alone (chmod 700 it)", sub);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(chmod(sub, 0750), 0);
	ck_assert_int_eq(cache_trust(sub, secret, err, sizeof err), -2);
	snprintf(want, sizeof want, "%s: mode 0750, others may read it: a kernel cache must be yours alone (chmod 700 it)", sub);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(chmod(sub, 0700), 0);
	ck_assert_int_eq(cache_trust(sub, secret, err, sizeof err), 0);

	memset(key, 'a', 64);
	key[64] = 0;
	ck_assert_int_eq(cache_store(sub, secret, key, "code", 4), 0);
	snprintf(path, sizeof path, "%s/%s.bin", sub, key);
	ck_assert_int_eq(chmod(path, 0644), 0);
	ck_assert_int_eq(cache_load(sub, secret, key, &got, &len, err, sizeof err), -2);
	snprintf(want, sizeof want, "%s: mode 0644, others may read it: a kernel cache must be yours alone (chmod 600 it)", path);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(chmod(path, 0600), 0);
	ck_assert_int_eq(cache_load(sub, secret, key, &got, &len, err, sizeof err), 0);
	free(got);
	/* a link, to anywhere, in place of an entry or of the folder */
	snprintf(link_to, sizeof link_to, "%s/elsewhere", dir);
	ck_assert_int_eq(rename(path, link_to), 0);
	ck_assert_int_eq(symlink(link_to, path), 0);
	ck_assert_int_eq(cache_load(sub, secret, key, &got, &len, err, sizeof err), -2);
	snprintf(want, sizeof want, "%s: a symbolic link: a kernel cache's files must be its own, refused (remove it)", path);
	ck_assert_str_eq(err, want);
	snprintf(link_to, sizeof link_to, "%s/linked", dir);
	ck_assert_int_eq(symlink(sub, link_to), 0);
	ck_assert_int_eq(cache_trust(link_to, secret, err, sizeof err), -2);
	snprintf(want, sizeof want, "%s: a symbolic link, not a folder: a kernel cache must be yours alone, refused", link_to);
	ck_assert_str_eq(err, want);
}
END_TEST

START_TEST(cache_dir_follows_xdg)
{
	char buf[4200];
	setenv("XDG_CACHE_HOME", "/x/cache", 1);
	setenv("HOME", "/home/u", 1);
	ck_assert(cache_dir(buf, sizeof buf) == 0 && !strcmp(buf, "/x/cache/gpulab"));
	setenv("XDG_CACHE_HOME", "relative", 1); /* the spec says to ignore it */
	ck_assert(cache_dir(buf, sizeof buf) == 0 && !strcmp(buf, "/home/u/.cache/gpulab"));
	setenv("HOME", "home/u", 1); /* issue 56: not under the current folder */
	ck_assert_int_eq(cache_dir(buf, sizeof buf), -1);
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	ck_assert_int_eq(cache_dir(buf, sizeof buf), -1);
}
END_TEST

static const char *srcdir(void)
{
	const char *s = getenv("srcdir");
	return s ? s : "..";
}

/* The text of srcdir/name into buf. */
static size_t source(const char *name, char *buf, size_t len)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", srcdir(), name);
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s", path);
	size_t n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	return n;
}

static const char checks[] = "static_assert(sizeof(int) == 4, \"ints\");\n";

/* The request for srcdir/name, as try makes it without a GPU. */
static struct compile_request request(const char *name)
{
	static char text[65536];
	static struct contract c;
	static char path[4200];
	size_t n = source(name, text, sizeof text);
	snprintf(path, sizeof path, "%s/%s", srcdir(), name);
	if (contract_parse(text, n, &c, err, sizeof err))
		ck_abort_msg("%s: %s", name, err);
	return (struct compile_request){ path, text, n, &c, checks, "reduce", { "int", "float" }, 0, 0, NULL };
}

static enum compile_status compile_file(const char *name, struct compiled *out, FILE *log)
{
	struct compile_request q = request(name);
	return compile_kernel(&q, out, log, err, sizeof err);
}

/* NVRTC needs no GPU: the template compiles to PTX for the oldest
 * architecture, and the second process to ask finds it in the cache. */
START_TEST(template_compiles_and_is_cached)
{
	char *dir = temp_dir(), sub[4200];
	struct compiled k;
	int st;
	setenv("XDG_CACHE_HOME", dir, 1);
	pid_t child = fork();
	if (child == 0)
		_exit(compile_file("challenges/reduce/template.cu", &k, stderr) == COMPILE_OK && !k.cached ? 0 : 1);
	ck_assert(waitpid(child, &st, 0) == child && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	snprintf(sub, sizeof sub, "%s/gpulab", dir);
	ck_assert_int_eq(files_in(sub), 2); /* the entry and the secret */
	ck_assert_int_eq(compile_file("challenges/reduce/template.cu", &k, stderr), COMPILE_OK);
	ck_assert_int_eq(k.cached, 1);
	ck_assert_str_eq(k.target, "compute_75");
	ck_assert_str_eq(k.lowered[0], "_Z6reduceIiEvPKT_PS0_j");
	ck_assert_str_eq(k.lowered[1], "_Z6reduceIfEvPKT_PS0_j");
	ck_assert_msg(k.image_len > 100 && strstr(k.image, ".target sm_75"), "%.200s", k.image);
	compile_free(&k);
}
END_TEST

/* Issue 56, 4: an entry planted under a kernel's name by one who can
 * compute the name (it is no secret) but not sign it is compiled again,
 * never run: here the template's code under the name of a file that
 * does not compile, well formed but signed with another secret. */
START_TEST(planted_entry_is_not_run)
{
	char *dir = temp_dir(), sub[4200], key[65], payload[70000];
	unsigned char other[SHA256_BYTES] = { 1 };
	struct compiled k;
	setenv("XDG_CACHE_HOME", dir, 1);
	ck_assert_int_eq(compile_file("challenges/reduce/template.cu", &k, stderr), COMPILE_OK);
	size_t n = (size_t)snprintf(payload, sizeof payload, "%s", k.lowered[0]) + 1;
	n += (size_t)snprintf(payload + n, sizeof payload - n, "%s", k.lowered[1]) + 1;
	ck_assert(n + k.image_len <= sizeof payload);
	memcpy(payload + n, k.image, k.image_len);
	n += k.image_len;
	compile_free(&k);
	struct compile_request q = request("tests/try/syntax.cu");
	compile_cache_key(&q, key);
	snprintf(sub, sizeof sub, "%s/gpulab", dir);
	ck_assert_int_eq(cache_store(sub, other, key, payload, n), 0);
	ck_assert_int_eq(files_in(sub), 3);
	ck_assert_int_eq(compile_kernel(&q, &k, NULL, err, sizeof err), COMPILE_FAILED);
	ck_assert(k.image == NULL && !k.cached);
	snprintf(payload, sizeof payload, "%s/tests/try/syntax.cu:10: error: expected a \";\"", srcdir());
	ck_assert_str_eq(err, payload);

	/* a header changed after its kernel was cached cannot run the old code: the include is refused first */
	const char *h = write_file(dir, "h.cuh", "#define BLOCK 256\n");
	char text[300];
	snprintf(text, sizeof text, "// gpulab: block=256\n#include \"%s\"\n", h);
	const char *kernel = write_file(dir, "k.cu", text);
	q.path = kernel;
	q.source = text;
	q.source_len = strlen(text);
	ck_assert_int_eq(compile_kernel(&q, &k, NULL, err, sizeof err), COMPILE_REFUSED);
	snprintf(payload, sizeof payload, "%s:2: #include \"%s\" is refused: a kernel is one file, and may include only its "
					  "challenge's headers (it provides none)", kernel, h);
	ck_assert_str_eq(err, payload);
}
END_TEST

/* check_gpu's trapping kernel compiles, and its PTX holds the trap at
 * 2^20 and the count of the module's launches it waits for (the gate's
 * one launch passes): on a GPU it must fail by trapping in the timed
 * sweep, not by not compiling, nor in the gate. */
START_TEST(trap_fixture_compiles)
{
	struct compiled k;
	setenv("XDG_CACHE_HOME", temp_dir(), 1);
	ck_assert_int_eq(compile_file("tests/try/trap.cu", &k, stderr), COMPILE_OK);
	ck_assert_msg(strstr(k.image, "trap;") && strstr(k.image, "1048576") && strstr(k.image, "atom.global.add.u32")
		      && strstr(k.image, ".global .align 4 .u32 launches"), "%.4000s", k.image);
	compile_free(&k);
}
END_TEST

/* check_gpu's atomicAdd kernels compile, and add into partials[0] with
 * an atomic, the idiom they stand for: on a GPU one passes under
 * finish=device and the other fails with the poison's hint. */
START_TEST(atomic_fixtures_compile)
{
	const char *files[] = { "tests/try/reduce_atomic.cu", "tests/try/atomic_host.cu" };
	setenv("XDG_CACHE_HOME", temp_dir(), 1);
	for (int i = 0; i < 2; i++) {
		struct compiled k;
		ck_assert_int_eq(compile_file(files[i], &k, stderr), COMPILE_OK);
		ck_assert_msg(strstr(k.image, "red.global.add") || strstr(k.image, "atom.global.add"), "%s: %.400s", files[i],
			      k.image);
		compile_free(&k);
	}
}
END_TEST

START_TEST(syntax_error_names_file_and_line)
{
	char *log = NULL, want[4300];
	size_t len = 0;
	struct compiled k;
	FILE *f = open_memstream(&log, &len);
	setenv("XDG_CACHE_HOME", temp_dir(), 1);
	ck_assert_int_eq(compile_file("tests/try/syntax.cu", &k, f), COMPILE_FAILED);
	fclose(f);
	snprintf(want, sizeof want, "%s/tests/try/syntax.cu:10: error: expected a \";\"", srcdir());
	ck_assert_msg(!strcmp(err, want), "%s", err);
	ck_assert_msg(!strncmp(log, want, strlen(want)), "%s", log);
	ck_assert(k.image == NULL);
	free(log);
}
END_TEST

/* The gate's declarations, as the registry checks them. */
START_TEST(gate_cases)
{
	struct gate_case c;
	const char *g = "n=1;rows=33 cols=31;n=2^24";
	ck_assert_int_eq(gate_count(g), 3);
	ck_assert_int_eq(gate_count(""), 0);
	ck_assert_int_eq(gate_count(NULL), 0);
	ck_assert_int_eq(gate_case_at(g, 1, &c, err, sizeof err), 0);
	ck_assert_int_eq(c.nkeys, 2);
	ck_assert(!strcmp(c.kv[0].key, "rows") && !strcmp(c.kv[0].value, "33"));
	ck_assert(!strcmp(c.kv[1].key, "cols") && !strcmp(c.kv[1].value, "31"));
	ck_assert_int_eq(gate_case_at(g, 2, &c, err, sizeof err), 0);
	ck_assert(c.nkeys == 1 && !strcmp(c.kv[0].value, "2^24"));
	ck_assert_int_eq(gate_case_at("n=1;rows", 1, &c, err, sizeof err), -1);
	ck_assert_str_eq(err, "gate case 'rows': 'rows' is not key=value, or one of more than 8");
	ck_assert_int_eq(gate_case_at("n=1;;n=2", 1, &c, err, sizeof err), -1);
	ck_assert_str_eq(err, "gate case 1 is empty");

	const struct gpulab_param own[] = { { .key = "rows", .type = GPULAB_PARAM_COUNT, .def = "1", .help = "h", .min = 1,
					      .max = 100 },
					    { NULL } };
	struct gpulab_exercise e = { .name = "x", .dtypes = GPULAB_INT32, .n = 10, .params = own, .params_size = 8,
				     .gate = "n=1;rows=7" };
	ck_assert_int_eq(gate_check(&e, err, sizeof err), 0);
	e.gate = "n=1;rows=700";
	ck_assert_int_eq(gate_check(&e, err, sizeof err), -1);
	ck_assert_str_eq(err, "gate case 1: rows=700: expected a count from 1 to 100 (e.g. 1024, 2^10 or 1K)");
	e.gate = "cols=3";
	ck_assert_int_eq(gate_check(&e, err, sizeof err), -1);
	ck_assert_str_eq(err, "gate case 0: cols=3: it has no key 'cols'");
	e.gate = "n=1,2";
	ck_assert_int_eq(gate_check(&e, err, sizeof err), -1);
	ck_assert_str_eq(err, "gate case 0: n=1,2: one value, not a list");
}
END_TEST

/* --- the command, on the build tree's plugins --------------------------- */

static struct cmd_result o;
static char env_xdg[4200], env_cache[4200];

static void gpulab(const char *a, const char *b, const char *c, const char *d)
{
	char *argv[] = { getenv("GPULAB_WRAPPER"), (char *)a, (char *)b, (char *)c, (char *)d, NULL };
	char *env[] = { env_xdg, env_cache, "GPULAB_CONFIG=", NULL };
	snprintf(env_xdg, sizeof env_xdg, "XDG_CONFIG_HOME=%s", temp_dir());
	snprintf(env_cache, sizeof env_cache, "XDG_CACHE_HOME=%s", temp_dir());
	run_cmd(&o, argv, env);
}

static const char *fixture(const char *name)
{
	static char path[4200];
	snprintf(path, sizeof path, "%s/tests/try/%s", srcdir(), name);
	return path;
}

/* Exit `code`, and the last line of stderr holding `words`. */
static void expect_last_line(int code, const char *words)
{
	const char *last = o.err, *p;
	for (p = o.err; *p; p++)
		if (*p == '\n' && p[1])
			last = p + 1;
	ck_assert_msg(o.status == code, "exit %d, wanted %d: %s", o.status, code, o.err);
	ck_assert_msg(!strncmp(last, "gpulab: ", 8) && strstr(last, words), "'%s' not in the last line: %s", words, o.err);
	ck_assert_msg(!o.out[0], "stdout: %s", o.out);
}

START_TEST(command_refuses_bad_kernels)
{
	char want[4400];
	gpulab("try", "reduce", fixture("syntax.cu"), NULL);
	snprintf(want, sizeof want, "try reduce: %s does not compile for ", fixture("syntax.cu"));
	expect_last_line(EXIT_USAGE, want);
	snprintf(want, sizeof want, "%s:10: error: expected a \";\"", fixture("syntax.cu"));
	ck_assert_msg(!strncmp(o.err, want, strlen(want)), "the compiler's log first: %s", o.err);

	gpulab("try", "reduce", fixture("badsig.cu"), NULL);
	expect_last_line(EXIT_USAGE, "<gpulab contract>:4: error: static assertion failed with \"gpulab try reduce: the "
				     "kernel must be template <typename T> __global__ void reduce(const T *in, T *partials, unsigned n)\"");

	snprintf(want, sizeof want, "%s/challenges/transpose/template.cu", srcdir());
	gpulab("try", "reduce", want, NULL); /* no reduce in it */
	expect_last_line(EXIT_USAGE, "error: identifier \"reduce\" is undefined");

	const char *dir = temp_dir();
	const char *nocontract = write_file(dir, "nocontract.cu", "template <typename T> __global__ void reduce() {}\n");
	gpulab("try", "reduce", nocontract, NULL);
	snprintf(want, sizeof want, "try reduce: %s: no contract line, such as `// gpulab: block=256`, says how to launch "
				    "the kernel (`gpulab try reduce --template` shows one)", nocontract);
	expect_last_line(EXIT_USAGE, want);
	ck_assert_int_eq(count_lines(o.err), 1);

	const char *finish = write_file(dir, "finish.cu", "\n// gpulab: block=32 finish=device\n");
	gpulab("try", "transpose", finish, NULL);
	snprintf(want, sizeof want, "try transpose: %s:2: finish= is not a launch key of transpose (block, per_thread, "
				    "tile, grid)", finish);
	expect_last_line(EXIT_USAGE, want);

	gpulab("try", "reduce", "/nonexistent/k.cu", NULL);
	expect_last_line(EXIT_USAGE, "try reduce: /nonexistent/k.cu: No such file or directory");
	gpulab("run", "try.reduce", NULL, NULL);
	expect_last_line(EXIT_USAGE, "try.reduce: no kernel: name its file, `gpulab try reduce FILE.cu` or -p kernel=FILE.cu");
	gpulab("try", "reduce", NULL, NULL);
	expect_last_line(EXIT_USAGE, "try: name a challenge and your kernel");
	gpulab("try", "nosuch", fixture("syntax.cu"), NULL);
	expect_last_line(EXIT_NOMATCH, "try: no challenge 'nosuch' (no exercise matches 'try.nosuch'");
	gpulab("try", "reduce", fixture("syntax.cu"), "-pkernel=x.cu");
	expect_last_line(EXIT_USAGE, "try: the kernel is FILE, `gpulab try reduce FILE.cu`, not -p kernel");
}
END_TEST

/* Issue 56: a file that names another is refused before it is
 * compiled, in one line naming its own file and line, and nothing of the
 * other file (a secret, the environment, a sibling's kernel) is shown. */
START_TEST(command_refuses_other_files)
{
	const char *dir = temp_dir();
	char text[600], want[4400];
	const char *secret = write_file(dir, "secret.txt", "SECRET_TOKEN=hunter2\n");
	write_file(dir, "bob.cu", "// gpulab: block=256\ntemplate <typename T> __global__ void reduce(const T *in, T *partials, "
				  "unsigned n) {}\n");
	static const char *const tails[] = { "\"%s\"\n", "\"/proc/self/environ\"\n", "\"bob.cu\"\n" };
	for (int i = 0; i < 3; i++) {
		char name[32], tail[600];
		snprintf(tail, sizeof tail, tails[i], secret);
		snprintf(text, sizeof text, "// gpulab: block=256\n__device__ int x = 1 +\n#include %s", tail);
		snprintf(name, sizeof name, "alice%d.cu", i);
		const char *alice = write_file(dir, name, text);
		gpulab("try", "reduce", alice, NULL);
		tail[strlen(tail) - 1] = 0;
		snprintf(want, sizeof want, "gpulab: try reduce: %s:3: #include %s is refused: a kernel is one file, and may "
					    "include only its challenge's headers (it provides none)\n", alice, tail);
		ck_assert_int_eq(o.status, EXIT_USAGE);
		ck_assert_str_eq(o.err, want);
		ck_assert_str_eq(o.out, "");
	}
	const char *probe = write_file(dir, "probe.cu", "// gpulab: block=256\n#if __has_include(\"/etc/shadow\")\n#endif\n");
	gpulab("try", "reduce", probe, NULL);
	snprintf(want, sizeof want, "gpulab: try reduce: %s:2: __has_include is refused: a kernel may not ask which files "
				    "exist\n", probe);
	ck_assert_int_eq(o.status, EXIT_USAGE);
	ck_assert_str_eq(o.err, want);
}
END_TEST

/* Issue 56: grade's reasons name the submission's own file and line, with
 * nothing of the file it named, and a path is escaped once (e\x1b.cu, not
 * e\\x1b.cu).  Both fail before a GPU is needed, so this runs anywhere. */
START_TEST(grade_reasons_are_the_files_own)
{
	const char *dir = temp_dir(), *elsewhere = temp_dir();
	char text[600];
	const char *secret = write_file(elsewhere, "secret.txt", "SECRET_TOKEN=hunter2\n");
	snprintf(text, sizeof text, "// gpulab: block=256\n__device__ int x = 1 +\n#include \"%s\"\n", secret);
	write_file(dir, "alice.cu", text);
	write_file(dir, "e\033.cu", "// gpulab: block=256\nint x = \n");
	gpulab("grade", "reduce", dir, NULL);
	ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.err);
	ck_assert_msg(strstr(o.out, "gpulab grade reduce: 2 kernels, 0 measured, 2 failed\n"), "%s", o.out);
	ck_assert_msg(strstr(o.out, "\n  alice.cu (exit 2): try reduce: ") && strstr(o.out, "/alice.cu:3:")
		      && strstr(o.out, "refused:"), "%s", o.out); /* the words apart: the lines wrap where the paths say */
	ck_assert_msg(strstr(o.out, "\n  e\\x1b.cu (exit 2): try reduce: ") && strstr(o.out, "/e\\x1b.cu")
		      && strstr(o.out, "/e\\x1b.cu:2:"), "%s", o.out);
	ck_assert_msg(!strstr(o.out, "\\\\") && !strstr(o.out, "SECRET") && !strstr(o.out, "hunter2"), "%s", o.out);
}
END_TEST

/* Issue 56, 4: try refuses a kernel cache that others may write, in one
 * line, and runs nothing; a relative HOME caches nothing, rather than
 * under the folder it runs in. */
START_TEST(command_refuses_a_shared_cache)
{
	char *dir = temp_dir(), sub[4200], want[4600], tmpl[4300], env_home[64] = "HOME=relative";
	char *argv[] = { getenv("GPULAB_WRAPPER"), "try", "reduce", tmpl, NULL };
	char *env[] = { env_xdg, env_cache, "GPULAB_CONFIG=", env_home, NULL };
	snprintf(tmpl, sizeof tmpl, "%s/challenges/reduce/template.cu", srcdir());
	if (tmpl[0] != '/') { /* the test leaves its folder below */
		char cwd[4096];
		snprintf(tmpl, sizeof tmpl, "%s/%s/challenges/reduce/template.cu", getcwd(cwd, sizeof cwd), srcdir());
	}
	snprintf(env_xdg, sizeof env_xdg, "XDG_CONFIG_HOME=%s", temp_dir());
	snprintf(env_cache, sizeof env_cache, "XDG_CACHE_HOME=%s", dir);
	snprintf(sub, sizeof sub, "%s/gpulab", dir);
	ck_assert_int_eq(mkdir(sub, 0777), 0);
	ck_assert_int_eq(chmod(sub, 0777), 0);
	run_cmd(&o, argv, env);
	snprintf(want, sizeof want, "gpulab: try reduce: %s: mode 0777, others may write it: a kernel cache must be yours "
				    "alone (chmod 700 it)\n", sub);
	ck_assert_int_eq(o.status, EXIT_USAGE);
	ck_assert_str_eq(o.err, want);
	ck_assert_int_eq(files_in(sub), 0);

	char *here = temp_dir();
	ck_assert_int_eq(chdir(here), 0);
	snprintf(env_cache, sizeof env_cache, "XDG_CACHE_HOME=");
	run_cmd(&o, argv, env);
	ck_assert_msg(o.status == EXIT_NODEVICE || o.status == 0, "exit %d: %s", o.status, o.err);
	ck_assert_int_eq(files_in(here), 0); /* no relative/.cache/gpulab here */
}
END_TEST

/* A ten-level macro bomb, each level ten of the one below: `unit` ten
 * times at the bottom, 10^10 of it in all. */
static const char *bomb(const char *dir, const char *name, const char *unit, const char *use)
{
	char text[2048];
	int n = snprintf(text, sizeof text, "// gpulab: block=256\n#define A0 %s%s%s%s%s%s%s%s%s%s\n", unit, unit, unit, unit,
			 unit, unit, unit, unit, unit, unit);
	for (int i = 1; i < 10; i++)
		n += snprintf(text + n, sizeof text - (size_t)n, "#define A%d A%d A%d A%d A%d A%d A%d A%d A%d A%d A%d\n", i, i - 1,
			      i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
	snprintf(text + n, sizeof text - (size_t)n, "%s\n", use);
	return write_file(dir, name, text);
}

/* gpulab try under the teacher's compile limits. */
static void bounded_try(const char *file, const char *cpu_s, const char *memory_mb)
{
	static char cpu[64], mem[64];
	char *argv[] = { getenv("GPULAB_WRAPPER"), "try", "reduce", (char *)file, NULL };
	char *env[] = { env_xdg, env_cache, "GPULAB_CONFIG=", cpu, mem, NULL };
	snprintf(env_xdg, sizeof env_xdg, "XDG_CONFIG_HOME=%s", temp_dir());
	snprintf(env_cache, sizeof env_cache, "XDG_CACHE_HOME=%s", temp_dir());
	snprintf(cpu, sizeof cpu, "GPULAB_COMPILE_CPU_S=%s", cpu_s);
	snprintf(mem, sizeof mem, "GPULAB_COMPILE_MEMORY_MB=%s", memory_mb);
	run_cmd(&o, argv, env);
}

#if defined(__SANITIZE_ADDRESS__)
#define ASAN_BUILD 1 /* the memory limit is left out: ASan's shadow takes terabytes of address space */
#else
#define ASAN_BUILD 0
#endif

/* Issue 56: a macro bomb ends, in one line, within its limit: no longer
 * does it compile for minutes, growing. */
START_TEST(command_bounds_the_compile)
{
	const char *dir = temp_dir();
	char want[4400];
	const char *slow = bomb(dir, "slow.cu", ";", "A9");
	bounded_try(slow, "2", "4096");
	snprintf(want, sizeof want, "gpulab: try reduce: %s: compile took too long: over 2 s of CPU time "
				    "(GPULAB_COMPILE_CPU_S sets it)\n", slow);
	ck_assert_int_eq(o.status, EXIT_USAGE);
	ck_assert_str_eq(o.err, want);
	ck_assert_msg(o.seconds < 10, "%g s", o.seconds);

	const char *big = bomb(dir, "big.cu", "1,", "__device__ int a[] = { A9 };");
	bounded_try(big, ASAN_BUILD ? "2" : "30", "300");
	if (ASAN_BUILD)
		snprintf(want, sizeof want, "gpulab: try reduce: %s: compile took too long: over 2 s of CPU time "
					    "(GPULAB_COMPILE_CPU_S sets it)\n", big);
	else
		snprintf(want, sizeof want, "gpulab: try reduce: %s: compile used too much memory: over 300 MiB "
					    "(GPULAB_COMPILE_MEMORY_MB sets it)\n", big);
	ck_assert_int_eq(o.status, EXIT_USAGE);
	ck_assert_str_eq(o.err, want);
	ck_assert_msg(o.seconds < 20, "%g s", o.seconds);

	/* a limit set wrong is refused; the template compiles under the defaults' own scale */
	bounded_try(slow, "0", "4096");
	ck_assert_int_eq(o.status, EXIT_USAGE);
	snprintf(want, sizeof want, "gpulab: try reduce: %s: GPULAB_COMPILE_CPU_S='0': seconds of CPU time, from 1 to 86400\n",
		 slow);
	ck_assert_str_eq(o.err, want);
	bounded_try(slow, "5", "lots");
	snprintf(want, sizeof want, "gpulab: try reduce: %s: GPULAB_COMPILE_MEMORY_MB='lots': MiB of memory, from 1 to "
				    "16777216\n", slow);
	ck_assert_str_eq(o.err, want);
	snprintf(want, sizeof want, "%s/challenges/reduce/template.cu", srcdir());
	bounded_try(want, "5", "1024");
	ck_assert_msg(o.status == EXIT_NODEVICE || o.status == 0, "exit %d: %s", o.status, o.err);
}
END_TEST

/* Each template is printed whole, and keeps its own contract. */
START_TEST(templates_print)
{
	static const char *const names[] = { "reduce", "transpose", "sum_matrix", "prefix_sum", "histogram" };
	static char want[65536];
	struct contract c;
	for (int i = 0; i < 5; i++) {
		char path[256];
		snprintf(path, sizeof path, "challenges/%s/template.cu", names[i]);
		source(path, want, sizeof want);
		gpulab("try", names[i], "--template", NULL);
		ck_assert_msg(o.status == 0 && !strcmp(o.out, want), "%s: exit %d %s", names[i], o.status, o.err);
		ck_assert_int_eq(contract_parse(o.out, strlen(o.out), &c, err, sizeof err), 0);
	}
	gpulab("try", "nosuch", "--template", NULL);
	ck_assert_int_eq(o.status, EXIT_NOMATCH);
	ck_assert_msg(strstr(o.err, "try: no template for 'nosuch'") && count_lines(o.err) == 1, "%s", o.err);
	gpulab("try", "../etc", "--template", NULL);
	ck_assert_msg(o.status == EXIT_NOMATCH && strstr(o.err, "no challenge in ../etc: it holds no challenge.ini"), "%s",
		      o.err);
	gpulab("try", "Bad!", "--template", NULL);
	ck_assert_int_eq(o.status, EXIT_USAGE);
	/* a folder of one's own, by its path; its template compiled before it is printed */
	char dir[4300], ini[4400], text[8192], folder[4400];
	snprintf(dir, sizeof dir, "%s/histogram", temp_dir()); /* a folder is named as its challenge */
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	snprintf(ini, sizeof ini, "%s/challenges/histogram/challenge.ini", srcdir());
	write_file(dir, "challenge.ini", read_text(ini, text, sizeof text));
	write_file(dir, "template.cu", "// gpulab: block=256\ntemplate <typename T> __global__ void histogram(const T *in, "
				       "unsigned *bins, unsigned n) { bins[0] = n; }\n");
	snprintf(folder, sizeof folder, "%s/", dir);
	gpulab("try", folder, "--template", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "bins[0] = n;"), "%d %s", o.status, o.err);
	write_file(dir, "template.cu", "// gpulab: block=256\nbroken(\n");
	gpulab("try", folder, "--template", NULL);
	ck_assert_msg(o.status == EXIT_CHALLENGE && !o.out[0] && strstr(o.err, "template.cu: the challenge's template does not "
									      "pass its own plan"), "%d %s", o.status, o.err);
	gpulab("run", "reduce", "--template", NULL);
	ck_assert_int_eq(o.status, EXIT_USAGE);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("try");
	TCase *t = tcase_create("try");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, contract_reads_the_launch);
	tcase_add_test(t, poison_sum_is_explained);
	tcase_add_loop_test(t, contract_refuses, 0, sizeof bad_contracts / sizeof bad_contracts[0]);
	tcase_add_test(t, messages_name_file_and_line);
	tcase_add_loop_test(t, filter_refuses, 0, sizeof refused_sources / sizeof refused_sources[0]);
	tcase_add_test(t, filter_passes);
	tcase_add_test(t, log_keeps_own_file);
	tcase_add_test(t, command_refuses_other_files);
	tcase_add_test(t, command_bounds_the_compile);
	tcase_add_test(t, grade_reasons_are_the_files_own);
	tcase_add_test(t, command_refuses_a_shared_cache);
	tcase_add_test(t, cache_round_trip_and_corruption);
	tcase_add_test(t, cache_dir_follows_xdg);
	tcase_add_test(t, sha256_vectors);
	tcase_add_test(t, cache_must_be_private);
	tcase_add_test(t, planted_entry_is_not_run);
	tcase_add_test(t, template_compiles_and_is_cached);
	tcase_add_test(t, syntax_error_names_file_and_line);
	tcase_add_test(t, trap_fixture_compiles);
	tcase_add_test(t, atomic_fixtures_compile);
	tcase_add_test(t, gate_cases);
	tcase_add_test(t, command_refuses_bad_kernels);
	tcase_add_test(t, templates_print);
	suite_add_tcase(s, t);
	return run_suite(s, 1);
}
