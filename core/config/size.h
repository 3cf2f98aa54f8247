#ifndef GPULAB_SIZE_H
#define GPULAB_SIZE_H

#include <stdint.h>

/* Parse an unsigned count: "16777216", "2^24", "16M" (K, M, G, T are
 * powers of 1024: element counts, not bytes on a disk label).  Returns 0
 * on success, -1 on anything else, overflow included.  A power takes
 * constant time: 0^e and 1^e are valid for any exponent (0^0 = 1), and
 * any other result above UINT64_MAX is refused. */
int parse_size(const char *s, uint64_t *out);

#endif
