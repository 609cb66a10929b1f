/* See values.h. */
#include "config.h"

#include "bitcode/interface_reader.h"
#include "checks/requirements.h"
#include "model/msl.h"
#include "api/values.h"
#include "container/file.h"
#include "container/functions.h"
#include "container/header.h"
#include "container/hex.h"
#include "container/value_names.h"
#include "container/target_names.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

/* n bytes (at most 32) as lower-case hex, NUL-terminated, into buf. */
static void hex_into(char *buf, const uint8_t *p, size_t n)
{
    mtlbx_hex_lower(buf, p, n > 32 ? 32 : n);
}

static const char *hex_text(struct api_pool *pool, const uint8_t *p, size_t n)
{
    char buf[65];
    hex_into(buf, p, n);
    return pool_dup(pool, buf, strlen(buf));
}

/* "macOS 26.0": a requirement whose platform and version are known. */
static const char *requires_text(struct api_pool *pool, const struct mtlbx_requires *r)
{
    const char *os = mbx_os_name(r->os);
    if (!os || !r->has_version)
        return API_NONE;
    return pool_internf(pool, "%s %u.%u", os, r->version.major, r->version.minor);
}

const char *api_library_value_text(struct api_pool *pool, mtlbx_library *lib, enum api_lib_value v)
{
    const struct mtlbx_header *h = mbx_library_header(lib);
    char buf[48];
    switch (v) {
    case LV_CONTAINER_VERSION: return pool_internf(pool, "%u.%u.%u", h->major, h->minor, h->patch);
    case LV_PLATFORM: return pool_intern(pool, h->macos ? "macOS" : "iOS");
    case LV_FILE_TYPE: return pool_intern(pool, mbx_file_type_name(h->file_type, buf, sizeof buf));
    case LV_TARGET_OS: return pool_intern(pool, mbx_target_os_name(h->platform_byte, buf, sizeof buf));
    case LV_OS_VERSION: return pool_internf(pool, "%u.%u.%u", h->os_major, h->os_minor, h->os_patch);
    case LV_UUID: {
        const struct mtlbx_header_ext *ext = mbx_library_header_ext(lib);
        return ext->has_uuid ? hex_text(pool, ext->uuid, 16) : API_NONE;
    }
    case LV_REQUIRES: {
        struct mtlbx_requires r;
        mbx_library_requires(lib, &r);
        return requires_text(pool, &r);
    }
    case LV_COUNT: break;
    }
    return API_NONE;
}

/* A column's text as it grows. */
struct column_text {
    char *text;
    size_t len, cap;
    bool failed;
};

static void put_value(struct column_text *t, const char *s, size_t n)
{
    if (t->failed)
        return;
    if (n + 1 > t->cap - t->len) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap - t->len < n + 1 && cap < SIZE_MAX / 2)
            cap *= 2;
        char *grown = cap - t->len >= n + 1 ? realloc(t->text, cap) : NULL;
        if (!grown) {
            t->failed = true;
            return;
        }
        t->text = grown;
        t->cap = cap;
    }
    memcpy(t->text + t->len, s, n);
    t->text[t->len + n] = '\0';
    t->len += n + 1;
}

/* Records function i's value (s, n bytes; s NULL: none) in column c. */
static void column_put(struct api_column *col, struct column_text *t, size_t i, const char *s, size_t n)
{
    col->at[i] = s ? (uint64_t)t->len : API_ABSENT;
    put_value(t, s ? s : "", s ? n : 0);
}

/* "major.minor" into buf (12 bytes are enough): snprintf was a third of
 * the pass. Returns the length. */
static size_t version_into(char *buf, unsigned major, unsigned minor)
{
    char digits[12];
    size_t n = 0, k = 0;
    unsigned parts[2] = { major, minor };
    for (int p = 0; p < 2; p++) {
        unsigned v = parts[p];
        k = 0;
        do {
            digits[k++] = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        while (k)
            buf[n++] = digits[--k];
        if (p == 0)
            buf[n++] = '.';
    }
    buf[n] = '\0';
    return n;
}

bool api_cheap_columns(mtlbx *h, struct api_library *al)
{
    if (al->columns[COL_NAME].text)
        return true;
    size_t n = al->n_functions;
    struct column_text t[CHEAP_COLUMNS] = { { 0 } };
    bool ok = true;
    for (int c = 0; c < CHEAP_COLUMNS; c++)
        ok &= (al->columns[c].at = malloc((n ? n : 1) * sizeof (uint64_t))) != NULL;
    al->module_offset = malloc((n ? n : 1) * sizeof *al->module_offset);
    al->module_size = malloc((n ? n : 1) * sizeof *al->module_size);
    ok &= al->module_offset && al->module_size;
    for (size_t i = 0; ok && i < n; i++) {
        /* One pass that leaves the table as it was (peek): a million
         * functions keep only these columns. */
        const struct mtlbx_function *fn = mbx_function_peek(al->lib, i);
        char buf[72];
        if (!fn) {
            ok = false;
            break;
        }
        /* As the JSON document: the name ends at a NUL. */
        const char *name = fn->name.ptr ? (const char *)fn->name.ptr : "";
        const char *nul = fn->name.len ? memchr(name, 0, fn->name.len) : NULL;
        column_put(&al->columns[COL_NAME], &t[COL_NAME], i, name, nul ? (size_t)(nul - name) : fn->name.len);
        const char *type = fn->present & MTLBX_F_TYPE ? mbx_function_type_name(fn->type, buf, sizeof buf) : NULL;
        column_put(&al->columns[COL_TYPE], &t[COL_TYPE], i, type, type ? strlen(type) : 0);
        bool vers = fn->present & MTLBX_F_VERS;
        size_t len = version_into(buf, fn->air_major, fn->air_minor);
        column_put(&al->columns[COL_AIR_VERSION], &t[COL_AIR_VERSION], i, vers ? buf : NULL, len);
        len = version_into(buf, fn->msl_major, fn->msl_minor);
        column_put(&al->columns[COL_MSL_VERSION], &t[COL_MSL_VERSION], i, vers ? buf : NULL, len);
        if (fn->hash)
            hex_into(buf, fn->hash, 32);
        column_put(&al->columns[COL_HASH], &t[COL_HASH], i, fn->hash ? buf : NULL, 64);
        al->module_offset[i] = fn->module_valid ? (int64_t)fn->module.offset : -1;
        al->module_size[i] = fn->module_valid ? (int64_t)fn->module.size : -1;
    }
    for (int c = 0; c < CHEAP_COLUMNS; c++) {
        ok &= !t[c].failed;
        if (!n) /* an empty column is an empty text, not none */
            put_value(&t[c], "", 0), t[c].len = 0;
        ok &= t[c].text != NULL;
    }
    if (!ok) {
        for (int c = 0; c < CHEAP_COLUMNS; c++) {
            free(t[c].text);
            free(al->columns[c].at);
            al->columns[c].at = NULL;
        }
        free(al->module_offset);
        free(al->module_size);
        al->module_offset = al->module_size = NULL;
        api_set_error(h, ENOMEM, -1, "out of memory");
        return false;
    }
    for (int c = 0; c < CHEAP_COLUMNS; c++) {
        al->columns[c].text = t[c].text;
        al->columns[c].len = t[c].len;
    }
    return true;
}

/* sig's declaration of function i (the text after its "// requires" line). */
static const char *declaration_text(mtlbx *h, struct api_library *al, size_t i, bool *keep)
{
    const struct mtlbx_function *fn = mbx_function_at(al->lib, i);
    struct mtlbx_error err = { 0 };
    struct mtlbx_interface *iface = mbx_interface_read(api_reader(al), al->lib, i, NULL, &err);
    if (!iface || iface->module.failed) {
        uint64_t at = !iface ? (err.has_offset ? err.offset : fn->module.offset) : iface->module.error_offset;
        *keep = false;
        if (err.status == MTLBX_E_NOMEM)
            api_set_error(h, ENOMEM, (int64_t)at, "out of memory");
        else
            api_set_error(h, 0, (int64_t)at, "%llu: function %zu: interface not decoded: %s",
                          (unsigned long long)at, i, iface ? iface->module.error : err.message);
        mbx_interface_free(iface);
        return NULL;
    }
    char tbuf[32];
    const char *type = (fn->present & MTLBX_F_TYPE) ? mbx_function_type_name(fn->type, tbuf, sizeof tbuf) : NULL;
    /* The flags `mtlbx sig` asks for (src/cli/sig.c): tests/api/consumer.sh
     * holds the two texts together on every file. */
    char *decl = mbx_msl_declaration(iface, fn->name, type, mbx_function_metadata(al->lib, i),
                                       MTLBX_MSL_SOURCE | MTLBX_MSL_CONSTANTS);
    mbx_interface_free(iface);
    const char *kept = decl ? pool_dup(&h->pool, decl, strlen(decl)) : NULL;
    free(decl);
    if (!kept) {
        *keep = false;
        api_set_error(h, ENOMEM, -1, "out of memory");
    }
    return kept;
}

const char *api_function_value_text(mtlbx *h, struct api_library *al, size_t i, enum api_fn_column c, bool *keep)
{
    *keep = true;
    if (c == COL_DECLARATION)
        return declaration_text(h, al, i, keep);
    if (c == COL_INTERFACE_JSON)
        return api_interface_json_text(h, al, i, keep);
    struct mtlbx_requires r;
    mbx_function_requires(al->lib, i, &r);
    const char *s = requires_text(&h->pool, &r);
    if (!s)
        api_set_error(h, ENOMEM, -1, "out of memory");
    return s;
}
