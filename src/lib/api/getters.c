/* The index-and-key getters of <mtlbx.h>: a library's header values and
 * a function's, one at a time or a range at a time. Each string is made
 * once per function and key and kept in the handle (columns, handle.h);
 * the text of each value is the one `dump --json` prints for it
 * (api/values.c). */
#include "config.h"

#include "checks/hash.h"
#include "api/handle.h"
#include "api/values.h"
#include "container/file.h"
#include "container/functions.h"
#include "container/header.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------- libraries -- */

static const char *library_value(mtlbx *h, struct api_library *al, enum api_lib_value v)
{
    if (al->values[v])
        return al->values[v];
    const char *s = api_library_value_text(&h->pool, al->lib, v);
    if (s)
        al->values[v] = s;
    return s;
}

static int library_key(int key)
{
    switch (key) {
    case MTLBX_CONTAINER_VERSION: return LV_CONTAINER_VERSION;
    case MTLBX_PLATFORM: return LV_PLATFORM;
    case MTLBX_FILE_TYPE: return LV_FILE_TYPE;
    case MTLBX_TARGET_OS: return LV_TARGET_OS;
    case MTLBX_OS_VERSION: return LV_OS_VERSION;
    case MTLBX_UUID: return LV_UUID;
    case MTLBX_REQUIRES: return LV_REQUIRES;
    default: return -1;
    }
}

/* What a missing value's error says, per key. */
static const char *key_name(int key)
{
    static const char *const names[] = {
        [MTLBX_CONTAINER_VERSION] = "container version", [MTLBX_PLATFORM] = "platform",
        [MTLBX_FILE_TYPE] = "file type", [MTLBX_TARGET_OS] = "target OS", [MTLBX_OS_VERSION] = "OS version",
        [MTLBX_UUID] = "UUID", [MTLBX_REQUIRES] = "known requirement", [MTLBX_OFFSET] = "offset",
        [MTLBX_SIZE] = "size", [MTLBX_NAME] = "NAME", [MTLBX_TYPE] = "TYPE", [MTLBX_AIR_VERSION] = "AIR version",
        [MTLBX_MSL_VERSION] = "MSL version", [MTLBX_HASH] = "HASH", [MTLBX_DECLARATION] = "declaration",
        [MTLBX_MODULE_OFFSET] = "module", [MTLBX_MODULE_SIZE] = "module", [MTLBX_HASH_OK] = "HASH and module",
    };
    return key > 0 && (size_t)key < sizeof names / sizeof *names && names[key] ? names[key] : "value";
}

const char *mtlbx_library_string(mtlbx *h, int lib, int key)
{
    struct api_library *al = api_library(h, lib);
    if (!al)
        return NULL;
    int v = library_key(key);
    if (v < 0) {
        api_set_error(h, EINVAL, -1, "mtlbx_library_string: key %d is not a library string key", key);
        return NULL;
    }
    const char *s = library_value(h, al, (enum api_lib_value)v);
    if (!s) {
        api_set_error(h, ENOMEM, -1, "out of memory");
        return NULL;
    }
    if (s == API_NONE) {
        api_set_error(h, 0, -1, "library %d has no %s", lib, key_name(key));
        return NULL;
    }
    return s;
}

int64_t mtlbx_library_int(mtlbx *h, int lib, int key)
{
    struct api_library *al = api_library(h, lib);
    if (!al)
        return -1;
    const struct mtlbx_header *hd = mbx_library_header(al->lib);
    switch (key) {
    case MTLBX_OFFSET: return (int64_t)hd->base;
    case MTLBX_SIZE: return (int64_t)hd->available;
    default:
        api_set_error(h, EINVAL, -1, "mtlbx_library_int: key %d is not a library int key", key);
        return -1;
    }
}

/* ---------------------------------------------------------- functions -- */

int64_t mtlbx_function_count(mtlbx *h, int lib)
{
    struct api_library *al = api_library(h, lib);
    return al ? (int64_t)al->n_functions : -1;
}

int64_t mtlbx_function_find(mtlbx *h, int lib, const char *name)
{
    struct api_library *al = api_library(h, lib);
    if (!al)
        return -1;
    if (!name) {
        api_set_error(h, EINVAL, -1, "mtlbx_function_find: no name");
        return -1;
    }
    return mbx_library_function_find(al->lib, name);
}

static int function_column(int key)
{
    switch (key) {
    case MTLBX_NAME: return COL_NAME;
    case MTLBX_TYPE: return COL_TYPE;
    case MTLBX_AIR_VERSION: return COL_AIR_VERSION;
    case MTLBX_MSL_VERSION: return COL_MSL_VERSION;
    case MTLBX_HASH: return COL_HASH;
    case MTLBX_DECLARATION: return COL_DECLARATION;
    case MTLBX_REQUIRES: return COL_REQUIRES;
    default: return -1;
    }
}

/* Function i's value in column c: API_NONE when it has none; NULL when
 * out of memory or it could not be made (the error set). The cheap
 * columns are made whole on first use; the others a value at a time, and
 * a failure to decode (declarations, interfaces) is not kept, so that
 * asking again says why again. */
const char *api_value(mtlbx *h, struct api_library *al, size_t i, int c)
{
    struct api_column *col = &al->columns[c];
    if (c < CHEAP_COLUMNS) {
        if (!api_cheap_columns(h, al))
            return NULL;
        return col->at[i] == API_ABSENT ? API_NONE : col->text + col->at[i];
    }
    if (!col->one && !(col->one = calloc(al->n_functions ? al->n_functions : 1, sizeof *col->one))) {
        api_set_error(h, ENOMEM, -1, "out of memory");
        return NULL;
    }
    if (col->one[i])
        return col->one[i];
    bool keep = true;
    const char *s = api_function_value_text(h, al, i, (enum api_fn_column)c, &keep);
    if (s && keep)
        col->one[i] = s;
    return s;
}

const char *mtlbx_function_string(mtlbx *h, int lib, int64_t fn, int key)
{
    struct api_library *al = api_library(h, lib);
    if (!al || !api_function_ok(h, al, fn))
        return NULL;
    int c = function_column(key);
    if (c < 0) {
        api_set_error(h, EINVAL, -1, "mtlbx_function_string: key %d is not a function string key", key);
        return NULL;
    }
    const char *s = api_value(h, al, (size_t)fn, c);
    if (s == API_NONE) {
        api_set_error(h, 0, -1, "function %lld has no %s", (long long)fn, key_name(key));
        return NULL;
    }
    return s;
}

/* Joins the values of a column that is made a value at a time. */
static bool join_column(mtlbx *h, struct api_library *al, int c)
{
    struct api_column *col = &al->columns[c];
    size_t n = al->n_functions, len = 0;
    if (!(col->at = malloc((n ? n : 1) * sizeof *col->at)))
        goto out_of_memory;
    for (size_t i = 0; i < n; i++) {
        const char *s = api_value(h, al, i, c);
        if (!s && c != COL_DECLARATION)
            goto failed; /* out of memory: the error says so */
        col->at[i] = s && s != API_NONE ? (uint64_t)len : API_ABSENT;
        len += (s && s != API_NONE ? strlen(s) : 0) + 1;
    }
    if (!(col->text = malloc(len ? len : 1)))
        goto out_of_memory;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        const char *s = col->at[i] == API_ABSENT ? "" : col->one[i];
        size_t k = strlen(s) + 1;
        memcpy(col->text + at, s, k);
        at += k;
    }
    col->len = len;
    return true;
out_of_memory:
    api_set_error(h, ENOMEM, -1, "out of memory");
failed:
    free(col->at);
    col->at = NULL;
    return false;
}

const char *mtlbx_function_column(mtlbx *h, int lib, int key, size_t *len)
{
    if (len)
        *len = 0;
    struct api_library *al = api_library(h, lib);
    if (!al)
        return NULL;
    int c = function_column(key);
    if (c < 0) {
        api_set_error(h, EINVAL, -1, "mtlbx_function_column: key %d is not a function string key", key);
        return NULL;
    }
    if (c < CHEAP_COLUMNS ? !api_cheap_columns(h, al) : !al->columns[c].text && !join_column(h, al, c))
        return NULL;
    if (len)
        *len = al->columns[c].len;
    return al->columns[c].text;
}

/* Function i's int for `key` (an int key), -1 when it has none. */
static int64_t function_int(struct api_library *al, size_t i, int key)
{
    switch (key) {
    case MTLBX_MODULE_OFFSET: return al->module_offset[i];
    case MTLBX_MODULE_SIZE: return al->module_size[i];
    default: {
        enum mtlbx_hash_state st = mbx_function_hash_state(al->lib, i);
        if (st == MTLBX_HASH_UNCHECKED || st == MTLBX_HASH_PENDING)
            st = mbx_function_verify(al->lib, i, NULL);
        return st == MTLBX_HASH_MATCHES ? 1 : 0;
    }
    }
}

static bool int_key(mtlbx *h, int key, const char *who)
{
    if (key == MTLBX_MODULE_OFFSET || key == MTLBX_MODULE_SIZE || key == MTLBX_HASH_OK)
        return true;
    api_set_error(h, EINVAL, -1, "%s: key %d is not a function int key", who, key);
    return false;
}

int64_t mtlbx_function_int(mtlbx *h, int lib, int64_t fn, int key)
{
    struct api_library *al = api_library(h, lib);
    if (!al || !api_function_ok(h, al, fn) || !int_key(h, key, "mtlbx_function_int") || !api_cheap_columns(h, al))
        return -1;
    int64_t v = function_int(al, (size_t)fn, key);
    if (v < 0)
        api_set_error(h, 0, -1, "function %lld has no %s inside the file", (long long)fn, key_name(key));
    return v;
}

const void *mtlbx_function_module(mtlbx *h, int lib, int64_t fn, size_t *len)
{
    if (len)
        *len = 0;
    struct api_library *al = api_library(h, lib);
    if (!al || !api_function_ok(h, al, fn) || !api_cheap_columns(h, al))
        return NULL;
    if (al->module_offset[fn] < 0) {
        api_set_error(h, 0, -1, "function %lld has no module inside the file", (long long)fn);
        return NULL;
    }
    if (len)
        *len = (size_t)al->module_size[fn];
    return mbx_file_data(h->file) + al->module_offset[fn];
}

int64_t mtlbx_function_ints(mtlbx *h, int lib, int64_t first, int64_t count, int key, int64_t *out)
{
    struct api_library *al = api_library(h, lib);
    if (!al || !int_key(h, key, "mtlbx_function_ints") || !api_cheap_columns(h, al))
        return -1;
    if (first < 0 || count < 0) {
        api_set_error(h, EINVAL, -1, "functions %lld + %lld: not a range", (long long)first, (long long)count);
        return -1;
    }
    int64_t n = (int64_t)al->n_functions, end = first >= n ? first : count > n - first ? n : first + count;
    if (end > first && !out) {
        api_set_error(h, EINVAL, -1, "mtlbx_function_ints: no array to write to");
        return -1;
    }
    /* Many hashes: every module on every CPU at once (threads joined
     * before this returns), not one after the other. */
    if (key == MTLBX_HASH_OK && end - first > 64)
        mbx_library_verify_all(al->lib, 0);
    for (int64_t i = first; i < end; i++)
        out[i - first] = function_int(al, (size_t)i, key);
    return end - first;
}

/* Its text is made by json.c (api_interface_json_text), kept as a column. */
const char *mtlbx_function_interface_json(mtlbx *h, int lib, int64_t fn)
{
    struct api_library *al = api_library(h, lib);
    if (!al || !api_function_ok(h, al, fn))
        return NULL;
    const char *s = api_value(h, al, (size_t)fn, COL_INTERFACE_JSON);
    return s == API_NONE ? NULL : s;
}
