/* manifest.json into the writer's model (manifest.h). The manifest may
 * come from anyone: every key is checked (an unknown key is refused, so
 * that a misspelt quirk never goes unnoticed), every number is range
 * checked, every file it names is opened beneath its folder without
 * following a link, and the first problem is one line naming the key. */
#include "config.h"

#include "writer_internal.h"
#include "manifest.h"
#include "manifest_scan.h"
#include "writer/writer.h"
#include "writer/writer_model.h"
#include "container/escape.h"
#include "container/header.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FOURCC_(a, b, c, d) ((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))

/* path -> module index, open addressing. */
struct path_map {
    char **keys;
    size_t *values;
    size_t cap, n;
};

struct reader {
    mtlbx_writer *w;
    struct mtlbx_wr_library *lib;
    int dirfd;
    char *err;
    size_t err_size;
    char where[256];           /* the JSON path of what is read */
    char shown[2][128];        /* values quoted by a message, escaped (show) */
    unsigned n_shown;
    struct path_map modules;
    bool failed;
    /* Each library's "functions" array as text (FN_NONE: read from the
     * tree instead): its functions are parsed one at a time. */
    const char *text;
    size_t n_spans;
    struct fn_span *spans;
};

static bool fail(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(struct reader *r, const char *fmt, ...)
{
    if (r->failed)
        return false;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(r->err, r->err_size, "%s%s%s", r->where, r->where[0] ? ": " : "", msg);
    r->failed = true;
    return false;
}

/* A value from the manifest as a message may quote it: its first `max`
 * bytes escaped as stdout escapes (mbx_escape: no control byte, no
 * newline, so no message line can start with text from the file), in one
 * of two buffers so one message can quote two values. */
static const char *show(struct reader *r, const char *v, size_t max)
{
    static const size_t slots = sizeof r->shown / sizeof r->shown[0];
    char *out = r->shown[r->n_shown++ % slots];
    size_t n = strnlen(v, max);
    mbx_escape((const uint8_t *)v, n, MTLBX_ESC_TERMINAL, out, sizeof r->shown[0]);
    return out;
}

/* Appends ".key" or "[i]" to where; returns the old length to restore. */
static size_t push_key(struct reader *r, const char *key)
{
    size_t at = strlen(r->where);
    snprintf(r->where + at, sizeof r->where - at, "%s%s", at ? "." : "", key);
    return at;
}

static size_t push_index(struct reader *r, size_t i)
{
    size_t at = strlen(r->where);
    snprintf(r->where + at, sizeof r->where - at, "[%zu]", i);
    return at;
}

static void pop(struct reader *r, size_t at)
{
    r->where[at] = 0;
}

static bool oom(struct reader *r)
{
    return fail(r, "out of memory");
}

/* The object has only these keys. */
static bool only_keys(struct reader *r, json_t *obj, const char *const *allowed)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v)
    {
        bool ok = false;
        for (size_t i = 0; allowed[i] && !ok; i++)
            ok = strcmp(key, allowed[i]) == 0;
        if (!ok) {
            return fail(r, "unknown key \"%s\"", show(r, key, 60));
        }
    }
    return true;
}

static json_t *want(struct reader *r, json_t *obj, const char *key, json_type type, bool required)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (required) {
            size_t at = push_key(r, key);
            fail(r, "missing");
            pop(r, at);
        }
        return NULL;
    }
    if (json_typeof(v) != type) {
        static const char *const names[] = { "an object", "an array", "a string", "an integer", "a number",
                                             "true", "false", "null" };
        size_t at = push_key(r, key);
        fail(r, "not %s", type <= JSON_NULL ? names[type] : "the right type");
        pop(r, at);
        return NULL;
    }
    return v;
}

static const char *want_string(struct reader *r, json_t *obj, const char *key, bool required)
{
    json_t *v = want(r, obj, key, JSON_STRING, required);
    return v ? json_string_value(v) : NULL;
}

static bool want_int(struct reader *r, json_t *obj, const char *key, json_int_t max, json_int_t *out)
{
    json_t *v = want(r, obj, key, JSON_INTEGER, true);
    if (!v)
        return false;
    *out = json_integer_value(v);
    if (*out < 0 || *out > max) {
        size_t at = push_key(r, key);
        fail(r, "%lld is not between 0 and %lld", (long long)*out, (long long)max);
        pop(r, at);
        return false;
    }
    return true;
}

/* A string key, or KEY_hex bytes; one of them required. *n and *p: the bytes. */
static bool text_or_hex(struct reader *r, json_t *obj, const char *key, struct mtlbx_bytes *out)
{
    char hk[64];
    snprintf(hk, sizeof hk, "%s_hex", key);
    const char *s = want_string(r, obj, key, false), *h = want_string(r, obj, hk, false);
    if (r->failed)
        return false;
    if (!s == !h)
        return fail(r, "needs one of \"%s\" and \"%s\"", key, hk);
    if (s) {
        const uint8_t *c = mbx_wr_copy(r->w, s, strlen(s));
        if (!c)
            return oom(r);
        *out = (struct mtlbx_bytes){ c, strlen(s) };
        return true;
    }
    uint8_t *b;
    size_t n;
    if (!mbx_wr_unhex(h, &b, &n)) {
        size_t at = push_key(r, hk);
        fail(r, "not hex digits");
        pop(r, at);
        return false;
    }
    const uint8_t *c = mbx_wr_copy(r->w, b, n);
    free(b);
    if (!c)
        return oom(r);
    *out = (struct mtlbx_bytes){ c, n };
    return true;
}

static bool fourcc_of(struct reader *r, json_t *item, uint32_t *out)
{
    const char *t = want_string(r, item, "tag", false), *h = want_string(r, item, "tag_hex", false);
    if (r->failed)
        return false;
    if (!t == !h)
        return fail(r, "needs one of \"tag\" and \"tag_hex\"");
    uint8_t b[4];
    if (t) {
        if (strlen(t) != 4)
            return fail(r, "tag \"%s\" is not four characters", show(r, t, 20));
        memcpy(b, t, 4);
    } else {
        uint8_t *x = NULL;
        size_t n = 0;
        if (!mbx_wr_unhex(h, &x, &n) || n != 4) {
            free(x);
            return fail(r, "tag_hex is not four bytes in hex");
        }
        memcpy(b, x, 4);
        free(x);
    }
    *out = FOURCC_(b[0], b[1], b[2], b[3]);
    if (*out == FOURCC_('E', 'N', 'D', 'T'))
        return fail(r, "ENDT ends every group by itself; it is no item");
    return true;
}

static bool add_tag(struct reader *r, uint32_t fourcc, enum mtlbx_wr_kind kind, const void *v, size_t n)
{
    return mbx_wr_add_tag(r->w, r->lib, fourcc, kind, v, n, false) >= 0 || oom(r);
}

static bool hex_value(struct reader *r, const char *key, const char *hex, uint8_t **b, size_t *n)
{
    if (mbx_wr_unhex(hex, b, n))
        return true;
    size_t at = push_key(r, key);
    fail(r, "not hex digits");
    pop(r, at);
    return false;
}

/* One value item: {"tag": X, and "hex", "string", "line"+"path", "uuid"
 * or (lists) "aligned"}. */
static bool value_item(struct reader *r, json_t *item, bool aligned_ok)
{
    static const char *const keys[] = { "tag", "tag_hex", "hex", "string", "line", "path", "uuid", "aligned", NULL };
    uint32_t fourcc;
    if (!json_is_object(item))
        return fail(r, "not an object");
    if (!only_keys(r, item, keys) || !fourcc_of(r, item, &fourcc))
        return false;
    const char *hex = want_string(r, item, "hex", false), *str = want_string(r, item, "string", false);
    const char *path = want_string(r, item, "path", false), *uuid = want_string(r, item, "uuid", false);
    const char *aligned = want_string(r, item, "aligned", false);
    json_t *line = json_object_get(item, "line");
    if (r->failed)
        return false;
    int forms = !!hex + !!str + !!uuid + !!aligned + (line || path);
    if (forms != 1)
        return fail(r, "needs exactly one of \"hex\", \"string\", \"line\" with \"path\", \"uuid\", \"aligned\"");
    uint8_t *b = NULL;
    size_t n = 0;
    bool ok;
    if (hex) {
        ok = hex_value(r, "hex", hex, &b, &n) && add_tag(r, fourcc, MTLBX_WR_VALUE, b, n);
    } else if (str) {
        ok = add_tag(r, fourcc, MTLBX_WR_VALUE, str, strlen(str) + 1);
    } else if (uuid) {
        ok = hex_value(r, "uuid", uuid, &b, &n);
        if (ok && n != 16)
            ok = fail(r, "uuid is not 32 hex digits");
        ok = ok && add_tag(r, fourcc, MTLBX_WR_VALUE, b, n);
    } else if (aligned) {
        ok = aligned_ok ? hex_value(r, "aligned", aligned, &b, &n) && add_tag(r, fourcc, MTLBX_WR_ALIGNED, b, n)
                        : fail(r, "\"aligned\" only in a list group");
    } else {
        json_int_t l;
        if (!path)
            return fail(r, "\"line\" needs \"path\"");
        if (!want_int(r, item, "line", UINT32_MAX, &l))
            return false;
        size_t pl = strlen(path);
        if (!(b = malloc(4 + pl + 1)))
            return oom(r);
        b[0] = (uint8_t)l;
        b[1] = (uint8_t)(l >> 8);
        b[2] = (uint8_t)(l >> 16);
        b[3] = (uint8_t)(l >> 24);
        memcpy(b + 4, path, pl + 1);
        ok = add_tag(r, fourcc, MTLBX_WR_VALUE, b, 4 + pl + 1);
    }
    free(b);
    return ok;
}

/* obj[key] when it is an array, the path then naming key (pop back to
 * *at when done with it); NULL when it is missing or null (nothing
 * pushed), or when it is something else: then the reader has failed
 * with `not_array`. */
static json_t *optional_array(struct reader *r, json_t *obj, const char *key, const char *not_array, size_t *at)
{
    json_t *arr = json_object_get(obj, key);
    if (!arr || json_is_null(arr))
        return NULL;
    *at = push_key(r, key);
    if (!json_is_array(arr)) {
        fail(r, "%s", not_array);
        return NULL;
    }
    return arr;
}

/* Reads each item of `arr` with `one` (given ctx), the path naming the
 * item meanwhile; stops at the first that fails. */
static bool each_item(struct reader *r, json_t *arr, bool (*one)(struct reader *r, json_t *item, void *ctx), void *ctx)
{
    size_t i;
    json_t *item;
    json_array_foreach(arr, i, item)
    {
        size_t at = push_index(r, i);
        if (!one(r, item, ctx))
            return false;
        pop(r, at);
    }
    return true;
}

static bool section_item(struct reader *r, const char *s);

/* What a tag list's items may be: value items (aligned ones or not),
 * and with `sections` the names of sections (the header extension). */
struct tag_rule {
    bool aligned_ok, sections;
};

static bool tag_item(struct reader *r, json_t *item, void *ctx)
{
    const struct tag_rule *rule = ctx;
    return rule->sections && json_is_string(item) ? section_item(r, json_string_value(item))
                                                  : value_item(r, item, rule->aligned_ok);
}

/* The items of one tag list into `out`, each as `rule` allows. */
static bool tag_items(struct reader *r, json_t *arr, struct tag_rule rule, struct mtlbx_wr_tags *out)
{
    *out = mtlbx_wr_tags_begin(r->lib);
    if (!each_item(r, arr, tag_item, &rule))
        return false;
    mtlbx_wr_tags_end(r->lib, out);
    return true;
}

/* A group of value items: null or missing means empty. */
static bool items(struct reader *r, json_t *obj, const char *key, bool aligned_ok, struct mtlbx_wr_tags *out)
{
    *out = mtlbx_wr_tags_begin(r->lib);
    size_t at;
    json_t *arr = optional_array(r, obj, key, "not an array", &at);
    if (!arr)
        return !r->failed;
    if (!tag_items(r, arr, (struct tag_rule){ aligned_ok, false }, out))
        return false;
    pop(r, at);
    return true;
}

/* ------------------------------------------------------------- modules -- */

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return h;
}

static bool map_find(const struct path_map *m, const char *key, size_t *out)
{
    if (!m->cap)
        return false;
    for (size_t k = hash_str(key) & (m->cap - 1); m->keys[k]; k = (k + 1) & (m->cap - 1))
        if (strcmp(m->keys[k], key) == 0) {
            *out = m->values[k];
            return true;
        }
    return false;
}

static bool map_put(struct path_map *m, char *key, size_t value)
{
    if (m->n * 2 >= m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        char **keys = calloc(cap, sizeof *keys);
        size_t *values = calloc(cap, sizeof *values);
        if (!keys || !values) {
            free(keys);
            free(values);
            return false;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) {
                size_t k = hash_str(m->keys[i]) & (cap - 1);
                while (keys[k])
                    k = (k + 1) & (cap - 1);
                keys[k] = m->keys[i];
                values[k] = m->values[i];
            }
        free(m->keys);
        free(m->values);
        m->keys = keys;
        m->values = values;
        m->cap = cap;
    }
    size_t k = hash_str(key) & (m->cap - 1);
    while (m->keys[k])
        k = (k + 1) & (m->cap - 1);
    m->keys[k] = key;
    m->values[k] = value;
    m->n++;
    return true;
}

static void map_clear(struct path_map *m)
{
    free(m->keys);
    free(m->values);
    memset(m, 0, sizeof *m);
}

/* A file beside the manifest, as a blob read when the library is written. */
static bool file_blob(struct reader *r, const char *path, struct mtlbx_wr_blob *out)
{
    char err[200];
    uint64_t size;
    int fd = mbx_wr_open_beneath(r->dirfd, path, &size, err, sizeof err);
    if (fd < 0) {
        char shown[200];
        mbx_escape((const uint8_t *)path, strlen(path), MTLBX_ESC_TERMINAL, shown, sizeof shown);
        return fail(r, "%s: %s", shown, err);
    }
    close(fd);
    char *copy = mbx_wr_copy(r->w, path, strlen(path));
    if (!copy)
        return oom(r);
    *out = (struct mtlbx_wr_blob){ NULL, size, copy, true };
    return true;
}

static bool module_of(struct reader *r, const char *path, size_t *index)
{
    if (map_find(&r->modules, path, index))
        return true;
    struct mtlbx_wr_blob b;
    if (!file_blob(r, path, &b))
        return false;
    struct mtlbx_wr_module *m = mbx_wr_add_module(r->w, r->lib);
    if (!m)
        return oom(r);
    m->bytes = b;
    *index = r->lib->n_modules - 1;
    return map_put(&r->modules, (char *)b.path, *index) || oom(r);
}

/* ----------------------------------------------------------- functions -- */

static const char *const keyed_names[] = { "NAME", "TYPE", "VERS", "TESS", "LAYR" };

static bool function_tag(struct reader *r, json_t *fn, const char *name, const struct mtlbx_wr_function *f,
                         bool used[5])
{
    static const struct { const char *name; enum mtlbx_wr_kind kind; } computed[] = {
        { "HASH", MTLBX_WR_HASH }, { "OFFT", MTLBX_WR_OFFT }, { "MDSZ", MTLBX_WR_MDSZ },
        { "SOFF", MTLBX_WR_SOFF }, { "RFLT", MTLBX_WR_RFLT },
    };
    for (size_t i = 0; i < sizeof computed / sizeof *computed; i++)
        if (strcmp(name, computed[i].name) == 0) {
            if (computed[i].kind == MTLBX_WR_SOFF && f->archive < 0)
                return fail(r, "SOFF, but no \"source_archive\"");
            if (computed[i].kind == MTLBX_WR_RFLT && f->reflection < 0)
                return fail(r, "RFLT, but no \"reflection\"");
            return add_tag(r, FOURCC_(name[0], name[1], name[2], name[3]), computed[i].kind, NULL, 0);
        }
    uint32_t cc = strlen(name) == 4 ? FOURCC_(name[0], name[1], name[2], name[3]) : 0;
    if (strcmp(name, "NAME") == 0) {
        const char *v = want_string(r, fn, "name", true);
        used[0] = true;
        return v && add_tag(r, cc, MTLBX_WR_VALUE, v, strlen(v) + 1);
    }
    if (strcmp(name, "TYPE") == 0) {
        const char *v = want_string(r, fn, "type", true);
        uint8_t t;
        used[1] = true;
        if (!v)
            return false;
        if (!mbx_wr_function_type_parse(v, &t))
            return fail(r, "type \"%s\" is not a function type dump --json names", show(r, v, 40));
        return add_tag(r, cc, MTLBX_WR_VALUE, &t, 1);
    }
    if (strcmp(name, "VERS") == 0) {
        static const unsigned long max[2] = { 0xFFFF, 0xFFFF };
        unsigned long a[2], l[2];
        const char *av = want_string(r, fn, "air_version", true), *lv = want_string(r, fn, "language_version", true);
        used[2] = true;
        if (!av || !lv)
            return false;
        if (!mbx_wr_version_parse(av, 2, max, a) || !mbx_wr_version_parse(lv, 2, max, l))
            return fail(r, "air_version and language_version are MAJOR.MINOR");
        uint8_t v[8] = { (uint8_t)a[0], (uint8_t)(a[0] >> 8), (uint8_t)a[1], (uint8_t)(a[1] >> 8),
                         (uint8_t)l[0], (uint8_t)(l[0] >> 8), (uint8_t)l[1], (uint8_t)(l[1] >> 8) };
        return add_tag(r, cc, MTLBX_WR_VALUE, v, 8);
    }
    if (strcmp(name, "TESS") == 0 || strcmp(name, "LAYR") == 0) {
        json_int_t v;
        bool tess = name[0] == 'T';
        used[tess ? 3 : 4] = true;
        if (!want_int(r, fn, tess ? "tess" : "layr", 255, &v))
            return false;
        uint8_t b = (uint8_t)v;
        return add_tag(r, cc, MTLBX_WR_VALUE, &b, 1);
    }
    return fail(r, "\"%s\" is no tag a function's keys or the writer give (write it as {\"tag\", \"hex\"})",
                show(r, name, 20));
}

static bool read_function(struct reader *r, json_t *fn, json_t *default_tags)
{
    static const char *const keys[] = { "name", "type", "air_version", "language_version", "tess", "layr", "module",
                                        "source_archive", "reflection", "tags", "public_metadata",
                                        "private_metadata", "quirk_stored_hash", NULL };
    if (!json_is_object(fn))
        return fail(r, "not an object");
    if (!only_keys(r, fn, keys))
        return false;
    const char *module = want_string(r, fn, "module", true);
    size_t mi;
    if (!module || !module_of(r, module, &mi))
        return false;
    struct mtlbx_wr_function *f = mbx_wr_add_function(r->w, r->lib);
    if (!f)
        return oom(r);
    f->module = mi;
    json_int_t v;
    if (json_object_get(fn, "source_archive")) {
        if (!r->lib->n_archives)
            return fail(r, "source_archive, but the library has no source archive");
        if (!want_int(r, fn, "source_archive", (json_int_t)r->lib->n_archives - 1, &v))
            return false;
        f->archive = (long)v;
    }
    size_t n_groups = r->lib->lists[MTLBX_LIST_RLST].n_groups;
    if (json_object_get(fn, "reflection")) {
        if (!n_groups)
            return fail(r, "reflection, but the library has no reflection group");
        if (!want_int(r, fn, "reflection", (json_int_t)n_groups - 1, &v))
            return false;
        f->reflection = (long)v;
    }
    const char *stored = want_string(r, fn, "quirk_stored_hash", false);
    if (r->failed)
        return false;
    if (stored) {
        uint8_t *b = NULL;
        size_t n = 0;
        if (!mbx_wr_unhex(stored, &b, &n) || n != 32) {
            free(b);
            return fail(r, "quirk_stored_hash is not 64 hex digits");
        }
        memcpy(f->stored_hash, b, 32);
        free(b);
        f->has_stored_hash = true;
    }
    /* The function list entry, in the order its list (or the library's) gives. */
    json_t *list = json_object_get(fn, "tags");
    if (!list)
        list = default_tags;
    else if (!json_is_array(list))
        return fail(r, "tags is not an array");
    bool used[5] = { false };
    f->tags = mtlbx_wr_tags_begin(r->lib);
    const char *tags_key = json_object_get(fn, "tags") ? "tags" : "function_tags";
    size_t i;
    json_t *item;
    json_array_foreach(list, i, item)
    {
        /* Each item read with the path at the function: a missing key is
         * the function's, a bad item its list's. */
        size_t at = push_key(r, tags_key);
        push_index(r, i);
        if (json_is_string(item)) {
            const char *name = json_string_value(item);
            pop(r, at);
            if (!function_tag(r, fn, name, f, used))
                return false;
        } else {
            if (!value_item(r, item, false))
                return false;
            pop(r, at);
        }
    }
    mtlbx_wr_tags_end(r->lib, &f->tags);
    static const char *const value_keys[][2] = { { "name", NULL }, { "type", NULL },
                                                 { "air_version", "language_version" }, { "tess", NULL },
                                                 { "layr", NULL } };
    for (int k = 0; k < 5; k++)
        for (int j = 0; j < 2; j++)
            if (!used[k] && value_keys[k][j] && json_object_get(fn, value_keys[k][j]))
                return fail(r, "\"%s\" is given, but the tag list has no %s", value_keys[k][j], keyed_names[k]);
    return items(r, fn, "public_metadata", false, &f->public_md) &&
           items(r, fn, "private_metadata", false, &f->private_md);
}

/* -------------------------------------------------------------- library -- */

static bool header_values(struct reader *r, json_t *lib)
{
    static const unsigned long cmax[3] = { 0x7FFF, 0xFFFF, 0xFFFF }, omax[3] = { 0xFFFF, 0xFF, 0xFF };
    unsigned long v[3];
    const char *cv = want_string(r, lib, "container_version", true), *pf = want_string(r, lib, "platform", true);
    const char *ft = want_string(r, lib, "file_type", true), *tos = want_string(r, lib, "target_os", true);
    const char *ov = want_string(r, lib, "os_version", true), *mp = want_string(r, lib, "metadata_prefix", true);
    json_t *stub = json_object_get(lib, "stub");
    if (r->failed)
        return false;
    if (!stub || !json_is_boolean(stub))
        return fail(r, "stub: missing, or not true or false");
    struct mtlbx_wr_library *l = r->lib;
    uint8_t b;
    if (!mbx_wr_version_parse(cv, 3, cmax, v))
        return fail(r, "container_version \"%s\" is not MAJOR.MINOR.PATCH", show(r, cv, 40));
    l->version_word = (uint16_t)v[0];
    l->minor = (uint16_t)v[1];
    l->patch = (uint16_t)v[2];
    if (strcmp(pf, "macOS") == 0)
        l->version_word |= 0x8000;
    else if (strcmp(pf, "iOS") != 0)
        return fail(r, "platform \"%s\" is neither macOS nor iOS", show(r, pf, 40));
    if (!mbx_wr_file_type_parse(ft, &b))
        return fail(r, "file_type \"%s\" is not one dump --json names", show(r, ft, 40));
    l->type_byte = (uint8_t)(b | (json_is_true(stub) ? 0x80 : 0));
    if (!mbx_wr_target_os_parse(tos, &b))
        return fail(r, "target_os \"%s\" is not one dump --json names", show(r, tos, 40));
    l->platform_byte = b;
    if (!mbx_wr_version_parse(ov, 3, omax, v))
        return fail(r, "os_version \"%s\" is not MAJOR.MINOR.PATCH (at most 65535.255.255)", show(r, ov, 40));
    l->os_major = (uint16_t)v[0];
    l->os_minor = (uint8_t)v[1];
    l->os_patch = (uint8_t)v[2];
    if (strcmp(mp, "excludes-itself") == 0)
        l->md_prefix_excludes = true;
    else if (strcmp(mp, "counts-itself") != 0)
        return fail(r, "metadata_prefix is \"counts-itself\" or \"excludes-itself\"");
    return true;
}

/* One archive of the sources: its id and the file holding it. */
static bool source_archive(struct reader *r, json_t *a, void *ctx)
{
    (void)ctx;
    static const char *const akeys[] = { "id", "id_hex", "file", NULL };
    if (!json_is_object(a))
        return fail(r, "not an object");
    struct mtlbx_wr_archive *ar = mbx_wr_add_archive(r->w, r->lib);
    if (!ar)
        return oom(r);
    const char *file = NULL;
    return only_keys(r, a, akeys) && text_or_hex(r, a, "id", &ar->id) &&
           (file = want_string(r, a, "file", true)) && file_blob(r, file, &ar->payload);
}

static bool read_sources(struct reader *r, json_t *lib)
{
    static const char *const keys[] = { "tag", "link_command", "link_command_hex", "working_dir", "working_dir_hex",
                                        "archives", NULL };
    json_t *s = json_object_get(lib, "sources");
    if (!s || json_is_null(s))
        return true;
    size_t at = push_key(r, "sources");
    if (!json_is_object(s))
        return fail(r, "not an object");
    if (!only_keys(r, s, keys))
        return false;
    const char *tag = want_string(r, s, "tag", true);
    if (!tag)
        return false;
    bool hsrd = strcmp(tag, "HSRD") == 0;
    if (!hsrd && strcmp(tag, "HSRC") != 0)
        return fail(r, "tag is HSRC or HSRD");
    struct mtlbx_wr_library *l = r->lib;
    l->has_sources = true;
    l->sources_tag = FOURCC_(tag[0], tag[1], tag[2], tag[3]);
    if (!text_or_hex(r, s, "link_command", &l->link_command))
        return false;
    if (hsrd ? !text_or_hex(r, s, "working_dir", &l->working_dir)
             : (json_object_get(s, "working_dir") || json_object_get(s, "working_dir_hex")))
        return hsrd ? false : fail(r, "HSRC has no working directory");
    json_t *arr = want(r, s, "archives", JSON_ARRAY, true);
    if (!arr || !each_item(r, arr, source_archive, NULL))
        return false;
    pop(r, at);
    return true;
}

/* One group of a list (VLST, ILST, RLST, SLST): an array of tags. */
static bool list_group(struct reader *r, json_t *g, void *ctx)
{
    if (!json_is_array(g))
        return fail(r, "a group is an array of tags");
    struct mtlbx_wr_tags *group = mbx_wr_add_list_group(r->w, r->lib, *(const enum mtlbx_list_kind *)ctx);
    if (!group)
        return oom(r);
    return tag_items(r, g, (struct tag_rule){ true, false }, group);
}

static bool read_list(struct reader *r, json_t *lib, const char *key, enum mtlbx_list_kind k)
{
    size_t at;
    json_t *arr = optional_array(r, lib, key, "not an array", &at);
    if (!arr)
        return !r->failed;
    r->lib->lists[k].present = true;
    if (!each_item(r, arr, list_group, &k))
        return false;
    pop(r, at);
    return true;
}

/* A header extension item that is a string: a section's name, written
 * as that section's tag. */
static bool section_item(struct reader *r, const char *s)
{
    static const char *const sections[] = { "HSRC", "HSRD", "HDYN", "VLST", "ILST", "RLST", "SLST" };
    bool ok = false;
    for (size_t k = 0; k < sizeof sections / sizeof *sections && !ok; k++)
        ok = strcmp(s, sections[k]) == 0;
    if (!ok)
        return fail(r, "\"%s\" names no section (HSRC, HSRD, HDYN, VLST, ILST, RLST, SLST)", show(r, s, 20));
    return add_tag(r, FOURCC_(s[0], s[1], s[2], s[3]), MTLBX_WR_SECTION, NULL, 0);
}

static bool read_extension(struct reader *r, json_t *lib)
{
    size_t at;
    json_t *arr = optional_array(r, lib, "header_extension", "not an array, or null for none", &at);
    if (!arr)
        return !r->failed;
    r->lib->has_ext = true;
    if (!tag_items(r, arr, (struct tag_rule){ false, true }, &r->lib->ext))
        return false;
    pop(r, at);
    return true;
}

static bool read_quirks(struct reader *r, json_t *lib)
{
    json_t *mo = json_object_get(lib, "quirk_module_order"), *so = json_object_get(lib, "quirk_section_order");
    struct mtlbx_wr_library *l = r->lib;
    if (mo) {
        size_t at = push_key(r, "quirk_module_order");
        if (!json_is_array(mo) || json_array_size(mo) != l->n_modules)
            return fail(r, "not an array naming each of the %zu modules once", l->n_modules);
        size_t *order = malloc((l->n_modules + 1) * sizeof *order);
        if (!order)
            return oom(r);
        size_t i;
        json_t *p;
        json_array_foreach(mo, i, p)
        {
            if (!json_is_string(p) || !map_find(&r->modules, json_string_value(p), &order[i])) {
                free(order);
                return fail(r, "item %zu is no module a function names", i);
            }
        }
        bool ok = mbx_wr_set_module_order(r->w, l, order, l->n_modules);
        free(order);
        if (!ok)
            return oom(r);
        pop(r, at);
    }
    if (so) {
        size_t at = push_key(r, "quirk_section_order");
        if (!json_is_array(so) || json_array_size(so) > MTLBX_WR_SECTIONS)
            return fail(r, "not an array of section names");
        size_t i;
        json_t *p;
        json_array_foreach(so, i, p)
        {
            if (!json_is_string(p) || !mbx_wr_section_parse(json_string_value(p), &l->section_order[i]))
                return fail(r, "item %zu is not sources, dynamic_header, VLST, ILST, RLST or SLST", i);
        }
        l->n_section_order = json_array_size(so);
        pop(r, at);
    }
    return true;
}

static bool read_span_functions(struct reader *r, struct fn_span span, json_t *tags);

static bool read_library(struct reader *r, json_t *lib)
{
    static const char *const keys[] = {
        "container_version", "platform", "file_type", "stub", "target_os", "os_version", "metadata_prefix",
        "function_tags", "header_extension", "functions", "sources", "dynamic_header", "variable_list",
        "imported_symbols", "reflection_list", "script_list", "quirk_module_order", "quirk_section_order", NULL,
    };
    if (!json_is_object(lib))
        return fail(r, "not an object");
    if (!only_keys(r, lib, keys) || !(r->lib = mbx_wr_add_library(r->w)))
        return r->failed ? false : oom(r);
    map_clear(&r->modules);
    if (!header_values(r, lib) || !read_sources(r, lib) || !read_list(r, lib, "variable_list", MTLBX_LIST_VLST) ||
        !read_list(r, lib, "imported_symbols", MTLBX_LIST_ILST) ||
        !read_list(r, lib, "reflection_list", MTLBX_LIST_RLST) || !read_list(r, lib, "script_list", MTLBX_LIST_SLST) ||
        !read_extension(r, lib))
        return false;
    json_t *dyn = json_object_get(lib, "dynamic_header");
    if (dyn && !json_is_null(dyn)) {
        r->lib->has_dynamic = true;
        if (!items(r, lib, "dynamic_header", false, &r->lib->dynamic))
            return false;
    }
    json_t *ft = json_object_get(lib, "function_tags");
    json_t *fns = want(r, lib, "functions", JSON_ARRAY, true);
    if (!fns)
        return false;
    if (ft && !json_is_array(ft))
        return fail(r, "function_tags is not an array");
    json_t *empty = json_array();
    if (!empty)
        return oom(r);
    size_t i;
    json_t *fn;
    size_t at = push_key(r, "functions");
    size_t li = mbx_writer_library_count(r->w) - 1;
    if (li < r->n_spans && r->spans[li].start != FN_NONE) {
        if (!read_span_functions(r, r->spans[li], ft ? ft : empty)) {
            json_decref(empty);
            return false;
        }
    }
    json_array_foreach(fns, i, fn)
    {
        size_t at2 = push_index(r, i);
        if (!read_function(r, fn, ft ? ft : empty)) {
            json_decref(empty);
            return false;
        }
        pop(r, at2);
    }
    json_decref(empty);
    pop(r, at);
    return read_quirks(r, lib);
}

/* jansson's message quotes the text near the error: escaped, so that no
 * byte of the manifest reaches the terminal as itself (a newline there
 * would also make the one-line error two). */
static void json_error_escaped(const json_error_t *je, char *out, size_t n)
{
    mbx_escape((const uint8_t *)je->text, strnlen(je->text, sizeof je->text), MTLBX_ESC_TERMINAL, out, n);
}

/* ----------------------------------------------- functions one by one -- */

/* The functions of the span, each parsed and read on its own. */
static bool read_span_functions(struct reader *r, struct fn_span span, json_t *tags)
{
    const char *t = r->text;
    size_t p = mbx_manifest_skip_ws(t, span.end, span.start + 1);
    for (size_t i = 0; p < span.end && t[p] != ']'; i++) {
        json_error_t je;
        json_t *fn = json_loadb(t + p, span.end - p, JSON_DISABLE_EOF_CHECK | JSON_REJECT_DUPLICATES, &je);
        size_t at2 = push_index(r, i);
        if (!fn) {
            int line = 1;
            for (size_t k = 0; k < p; k++)
                line += t[k] == '\n';
            char why[200];
            json_error_escaped(&je, why, sizeof why);
            return fail(r, "line %d: %s", line + je.line - 1, why);
        }
        bool ok = read_function(r, fn, tags);
        json_decref(fn);
        if (!ok)
            return false;
        pop(r, at2);
        p = mbx_manifest_skip_ws(t, span.end, p + (size_t)je.position);
        if (p < span.end && t[p] == ',')
            p = mbx_manifest_skip_ws(t, span.end, p + 1);
        else if (p >= span.end || t[p] != ']')
            return fail(r, "not an array of functions");
    }
    return true;
}

bool mbx_manifest_load_text(mtlbx_writer *w, int dirfd, const char *text, size_t len, char *err, size_t err_size)
{
    struct reader r = { .w = w, .dirfd = dirfd, .err = err, .err_size = err_size };
    json_error_t je;
    size_t skel_len = 0;
    char *skel = mbx_manifest_skeleton(text, len, &r.spans, &r.n_spans, &skel_len);
    r.text = text;
    /* Duplicate keys refused: which one counts would be a guess. */
    json_t *root = skel ? json_loadb(skel, skel_len, JSON_REJECT_DUPLICATES, &je)
                        : json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    free(skel);
    if (!root) {
        free(r.spans);
        char why[200];
        json_error_escaped(&je, why, sizeof why);
        snprintf(err, err_size, "line %d, column %d: %s", je.line, je.column, why);
        return false;
    }
    static const char *const keys[] = { "mtlbx_manifest", "fat", "libraries", NULL };
    bool ok = json_is_object(root) || fail(&r, "not a JSON object");
    json_int_t version;
    ok = ok && only_keys(&r, root, keys) && want_int(&r, root, "mtlbx_manifest", 1000, &version);
    if (ok && version != MANIFEST_VERSION)
        ok = fail(&r, "mtlbx_manifest %lld: this mtlbx reads version %d", (long long)version, MANIFEST_VERSION);
    json_t *libs = ok ? want(&r, root, "libraries", JSON_ARRAY, true) : NULL;
    json_t *fat = ok ? json_object_get(root, "fat") : NULL;
    ok = ok && libs;
    if (ok && json_array_size(libs) == 0)
        ok = fail(&r, "libraries: none");
    bool is_fat = fat && !json_is_null(fat);
    if (ok && !is_fat && json_array_size(libs) != 1)
        ok = fail(&r, "libraries: %zu, but fat is null (a plain file holds one)", json_array_size(libs));
    size_t i;
    json_t *lib;
    size_t at = ok ? push_key(&r, "libraries") : 0;
    json_array_foreach(ok ? libs : NULL, i, lib)
    {
        size_t at2 = push_index(&r, i);
        if (!(ok = read_library(&r, lib)))
            break;
        pop(&r, at2);
    }
    if (ok)
        pop(&r, at);
    if (ok && is_fat) {
        static const char *const skeys[] = { "cputype", "cpusubtype", "align", NULL };
        at = push_key(&r, "fat");
        json_t *slices = json_is_object(fat) ? json_object_get(fat, "slices") : NULL;
        static const char *const fkeys[] = { "slices", NULL };
        if (!json_is_object(fat) || !only_keys(&r, fat, fkeys) || !json_is_array(slices) ||
            json_array_size(slices) != json_array_size(libs))
            ok = fail(&r, "not {\"slices\": [...]} with one slice a library");
        json_t *s;
        json_array_foreach(ok ? slices : NULL, i, s)
        {
            size_t at2 = push_index(&r, i);
            json_int_t ct, cs, al;
            struct mtlbx_wr_library *l = mbx_wr_library_at(w, i);
            if (!json_is_object(s) || !only_keys(&r, s, skeys) || !want_int(&r, s, "cputype", UINT32_MAX, &ct) ||
                !want_int(&r, s, "cpusubtype", UINT32_MAX, &cs) || !want_int(&r, s, "align", MTLBX_WR_MAX_FAT_ALIGN, &al)) {
                ok = r.failed ? false : fail(&r, "not an object");
                break;
            }
            l->cputype = (uint32_t)ct;
            l->cpusubtype = (uint32_t)cs;
            l->align = (uint32_t)al;
            pop(&r, at2);
        }
        mbx_wr_set_fat(w, true);
    }
    map_clear(&r.modules);
    free(r.spans);
    json_decref(root);
    return ok && !r.failed;
}

/* A manifest is text of a few MB; more than this is not one. */
#define MANIFEST_MAX ((uint64_t)1 << 30)

mtlbx_writer *mbx_manifest_load(int dirfd, unsigned flags, char *err, size_t err_size)
{
    uint8_t *text = NULL;
    size_t size = 0;
    if (mbx_wr_read_file(dirfd, MANIFEST_NAME, true, MANIFEST_MAX, &text, &size, err, err_size) != 0)
        return NULL;
    mtlbx_writer *w = mbx_writer_new();
    if (!w)
        snprintf(err, err_size, "out of memory");
    else if (!mbx_manifest_load_text(w, dirfd, (const char *)text, size, err, err_size)) {
        mtlbx_writer_free(w);
        w = NULL;
    } else {
        mbx_wr_set_base_dir(w, dirfd);
        if (!(flags & MBX_MANIFEST_KEEP_VALUES) && mbx_wr_check_claims(w, err, err_size) != MTLBX_WRITER_OK) {
            mtlbx_writer_free(w);
            w = NULL;
        }
    }
    free(text);
    return w;
}
