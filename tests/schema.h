/* A JSON Schema validator for the keywords docs/record.schema.json uses:
 * type, const, enum, required, properties, additionalProperties, items,
 * minimum and $ref to "#/$defs/NAME".  Enough to hold gpulab's records to
 * their documented format in the CPU suite, with no other dependency. */
#ifndef GPULAB_TEST_SCHEMA_H
#define GPULAB_TEST_SCHEMA_H

#include "records/json.h"

#include <stddef.h>

/* 0 if doc holds to schema; else -1, with the path of the first fault
 * and why in err ("results/0/status: not one of the enum"). */
int schema_check(const struct json *doc, const struct json *schema, char *err, size_t len);

#endif
