/* The text of each value a getter returns (api layer): the value
 * `dump --json` prints for the same key, made by the same code. */
#ifndef MTLBX_API_VALUES_H
#define MTLBX_API_VALUES_H

#include "api/handle.h"

/* Library value v of lib, kept in the pool; API_NONE when the library has
 * none (JSON null); NULL when out of memory. */
const char *api_library_value_text(struct api_pool *pool, mtlbx_library *lib, enum api_lib_value v);
/* Makes the cheap columns (NAME, TYPE, AIR_VERSION, MSL_VERSION, HASH)
 * and the module offsets and sizes of every function of the library, in
 * one pass; false (the error set) when out of memory. */
bool api_cheap_columns(mtlbx *h, struct api_library *al);
/* Function i's value in one of the other columns (REQUIRES, DECLARATION,
 * INTERFACE_JSON), kept in the pool; API_NONE when it has none; NULL with
 * the handle's error set (out of memory, a module that does not decode).
 * *keep is set false for an answer that must not be kept (a failure to
 * decode, which asking again should report again). */
const char *api_function_value_text(mtlbx *h, struct api_library *al, size_t i, enum api_fn_column c, bool *keep);
/* Function i's "interface" object as JSON text (json.c), as above; its
 * getter, mtlbx_function_interface_json, keeps it as a column (getters.c). */
const char *api_interface_json_text(mtlbx *h, struct api_library *al, size_t i, bool *keep);
/* Function i's value in column c, made once and kept (getters.c):
 * API_NONE when it has none, NULL with the error set. */
const char *api_value(mtlbx *h, struct api_library *al, size_t i, int c);

#endif
