/* One field of a library header or of a function as a JSON value, spelt as
 * CONTRACT.md spells it in `dump --json`: what `diff` shows for a changed
 * field and what `textconv` prints per function. */
#ifndef MTLBX_VALUES_JSON_H
#define MTLBX_VALUES_JSON_H

#include "mtlbx.h"

#include <jansson.h>
#include <stdio.h>

/* File bytes as a JSON string (invalid UTF-8 becomes \xNN text). */
json_t *vj_bytes(struct mtlbx_bytes b);
json_t *vj_hex(const uint8_t *p, size_t n);

json_t *vj_header_field(mtlbx_library *lib, enum mtlbx_header_field f);
/* hash_ok reads the cached hash state: verify first. MTLBX_FF_INTERFACE
 * gives null until interfaces are decoded. */
json_t *vj_function_field(mtlbx_library *lib, size_t i, enum mtlbx_function_field f);

/* A value on one line for people: strings as they are (escaped for the
 * terminal), null as "-", anything else as compact JSON. Malloc'd, or NULL
 * on out of memory. */
char *vj_text(const json_t *v);

#endif
