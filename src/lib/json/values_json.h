/* One field of a library header or of a function as a JSON value, spelt as
 * CONTRACT.md spells it in `dump --json`: what `diff` shows for a changed
 * field and what `textconv` prints per function. */
#ifndef MTLBX_VALUES_JSON_H
#define MTLBX_VALUES_JSON_H

#include "bitcode/interface_reader.h"
#include "checks/requirements.h"
#include "compare/compare.h"
#include "json/json_stream.h"

#include <jansson.h>
#include <stdio.h>

/* File bytes as a JSON string (invalid UTF-8 becomes \xNN text). */
json_t *vj_bytes(struct mtlbx_bytes b);
json_t *vj_hex(const uint8_t *p, size_t n);

/* CONTRACT.md's FUNCTION.requires / LIBRARY.requires object. */
json_t *vj_requires(const struct mtlbx_requires *r);
/* The same object written into a JSON stream as the member `key` (or an
 * element, key NULL), byte for byte as json_stream_put(js, key,
 * vj_requires(r)) writes it, without building it: dump --json writes one
 * per function. */
struct json_stream;
void vj_requires_stream(struct json_stream *js, const char *key, const struct mtlbx_requires *r);

json_t *vj_header_field(mtlbx_library *lib, enum mtlbx_header_field f);
/* hash_ok reads the cached hash state: verify first. MTLBX_FF_INTERFACE
 * decodes the module (vj_interface). */
json_t *vj_function_field(mtlbx_library *lib, size_t i, enum mtlbx_function_field f);

/* The interface as diff shows it: {"stage", "inputs", "outputs"} of
 * CONTRACT's FUNCTION_INTERFACE, each argument an ARGUMENT; null when the
 * module does not decode. */
json_t *vj_interface(const struct mtlbx_interface *iface);
/* One line per argument change between function i of a and j of b, as
 * "buffer(3) params: constant GEMMParams& -> buffer(4)", "+texture(0) t:
 * texture2d<float>", "-..." (terminal-safe); an empty array when either
 * interface does not decode. Decoded through the readers ra and rb (of a
 * and b; NULL: alone), so that a diff of many functions reads a shared
 * module once. */
json_t *vj_interface_changes(mtlbx_interface_reader *ra, const mtlbx_library *a, size_t i,
                             mtlbx_interface_reader *rb, const mtlbx_library *b, size_t j);
/* vj_function_field's MTLBX_FF_INTERFACE, decoded through the reader rd
 * (of lib; NULL: alone). */
json_t *vj_function_interface(mtlbx_interface_reader *rd, const mtlbx_library *lib, size_t i);
/* "buffer(3) params: constant GEMMParams&", terminal-safe, malloc'd. */
char *vj_argument_text(const struct mtlbx_air_argument *arg);

/* A value on one line for people: strings as they are (escaped for the
 * terminal), null as "-", anything else as compact JSON. Malloc'd, or NULL
 * on out of memory. */
char *vj_text(const json_t *v);

#endif
