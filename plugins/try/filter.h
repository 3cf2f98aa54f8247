/*
 * What a learner's file may ask of the preprocessor, checked before it
 * is compiled.  NVRTC opens any file an #include names (an absolute path,
 * a `..` path, a sibling's kernel), and a compile error then quotes it;
 * `__has_include` tells whether a file exists.  On a shared machine the
 * grader's files and the other students' kernels are not the learner's
 * to read, so a kernel is one file: it may include only the headers its
 * challenge's contract provides, by name, and no directive may change
 * which file or line the compiler says it is reading.
 *
 * Refused, each with its line:
 *   - #include, #include_next, #import and #embed, unless the argument
 *     is written out as <NAME> or "NAME" with NAME one of the contract's
 *     headers (an argument made by a macro is refused: it cannot be read
 *     before it is expanded);
 *   - __has_include, __has_include_next, __has_embed, and token pasting
 *     (##), which can build them out of pieces;
 *   - #line and its GNU form `# 12 "file"`;
 *   - any directive but #define, #undef, #if, #ifdef, #ifndef, #elif,
 *     #elifdef, #elifndef, #else, #endif, #error, #warning and #pragma;
 *   - include_alias (a pragma that renames a header), in code or in a
 *     string;
 *   - a backslash outside a literal or a comment (a universal character
 *     name could spell __has_include).
 * A directive is found as a compiler finds it and where a compiler might:
 * after lines spliced by backslash-newline, behind comments, as `#`, `%:`
 * or `??=`, and also at the start of a line inside a raw string literal,
 * since being stricter than the compiler costs only a strange file.
 *
 * Plain C: the CPU tests and the fuzzer read it as the plugin does.
 */
#ifndef GPULAB_TRY_FILTER_H
#define GPULAB_TRY_FILTER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The headers every challenge's contract provides: none.  NVRTC has no
 * headers of its own to offer without a search path, and the contract's
 * macros (GPULAB_BLOCK and the rest) come as -D options. */
extern const char *const filter_no_headers[];

/* Check src[0..len) (NUL bytes included: they are refused, since NVRTC
 * would stop reading at the first).  0, or -1 with *line (from 1) and
 * why in err, one line without the file's name.  headers is
 * NULL-terminated. */
int filter_source(const char *src, size_t len, const char *const *headers, int *line, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
