/* The keys of CONTRACT.md "Every byte decoded" and the documented extras
 * of dump --json, built apart from dump_json.c so that its callers can be
 * moved around freely: each function returns or adds to a jansson value. */
#ifndef MTLBX_JSON_MORE_H
#define MTLBX_JSON_MORE_H

#include "container/file.h"
#include "container/header.h"

#include <jansson.h>

/* FUNCTION.tessellation: null without a TESS tag. */
json_t *tessellation_json(const mtlbx_library *lib, size_t i);
/* FUNCTION.reflection: null without RETR and ARGR. */
json_t *reflection_json(const mtlbx_library *lib, size_t i);
/* LIBRARY.imported_symbols / exported_variables: null without the list. */
json_t *symbol_list_json(const mtlbx_library *lib, enum mtlbx_list_kind kind);

/* Writes, as members of the FUNCTION object open in `js`: tessellation,
 * reflection and the extras public_metadata / private_metadata ({offset,
 * size} of the group or null). The spans and the usual nulls are written
 * directly, not built as jansson values first (dump --json writes them for
 * every function). */
struct json_stream;
void function_stream_more(struct json_stream *js, const mtlbx_library *lib, size_t i);
/* Adds to a LIBRARY object: imported_symbols, exported_variables,
 * header_extension_entries, and the sources and dynamic_header ranges
 * inside its "sections" object (when it has one). Checks every module's
 * bitcode first, so call it before listing the diagnostics. */
void library_json_more(mtlbx_library *lib, json_t *lib_obj);
/* Adds "cpu" (the CPU type by name, or null) to a fat slice object. */
void fat_slice_json_more(const struct mbx_fat_slice *s, json_t *slice);

#endif
