/* See fnfilter.h. Each term reads only what it needs of the function:
 * the name and the stage for a word, the versions for "4.0"; the
 * requirement (the one lookup that is not a field) only when the word
 * is a version no field had, or names a platform. */
#include "config.h"

#include "ui/model/fnfilter.h"
#include "ui/model/gpu_code.h"
#include "program/nocase.h"
#include "bitcode/demangle.h"
#include "checks/hash.h"
#include "checks/requirements.h"
#include "container/gpu_slice.h"
#include "container/value_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdbool.h>

static const struct { const char *word; enum fnfilter_col col; } columns[] = {
    { "name", FF_NAME }, { "stage", FF_STAGE }, { "type", FF_STAGE }, { "msl", FF_MSL },
    { "air", FF_AIR }, { "requires", FF_REQUIRES }, { "hash", FF_HASH }, { "gpu", FF_GPU },
};

/* "4.0", "2.8": a version; anything after the digits is not one. */
static bool read_version(struct fnfilter_term *t, const char *s)
{
    char rest;
    if (sscanf(s, "%u.%u%c", &t->major, &t->minor, &rest) != 2 || s[0] < '0' || s[0] > '9')
        return false;
    t->is_version = true;
    return true;
}

static void set_word(struct fnfilter_term *t, enum fnfilter_col col, const char *w, size_t len)
{
    memset(t, 0, sizeof *t);
    t->col = col;
    if (len >= sizeof t->text)
        len = sizeof t->text - 1;
    memcpy(t->text, w, len);
    t->text[len] = '\0';
    read_version(t, t->text);
    t->os = (int)mbx_os_parse(t->text, len);
}

/* A word that names a column: which, or -1. With `glued`, a column word
 * followed at once by a version ("msl4.0") also counts, and *value_at
 * is where the version starts. */
static int column_of(const char *w, size_t len, size_t *value_at)
{
    for (size_t c = 0; c < sizeof columns / sizeof columns[0]; c++) {
        size_t n = strlen(columns[c].word);
        if (len < n || strncasecmp(w, columns[c].word, n) != 0)
            continue;
        if (len == n) {
            *value_at = len;
            return (int)columns[c].col;
        }
        if ((columns[c].col == FF_MSL || columns[c].col == FF_AIR) && w[n] >= '0' && w[n] <= '9') {
            *value_at = n;
            return (int)columns[c].col;
        }
    }
    return -1;
}

/* Whether the word after a column word can be that column's value:
 * "air argmin" is two words of a name, "air 2.8" a version. */
static bool fits(int col, const char *w, size_t len)
{
    struct fnfilter_term t;
    set_word(&t, (enum fnfilter_col)col, w, len);
    switch (col) {
    case FF_MSL: case FF_AIR: return t.is_version;
    case FF_REQUIRES: return t.is_version || t.os;
    case FF_HASH: return !strcasecmp(t.text, "ok") || !strcasecmp(t.text, "bad") || !strcmp(t.text, "--") ||
                         !strcmp(t.text, "...");
    case FF_GPU: {           /* "gpu argmin": two words of a name */
        static const char *const gpus[] = { "applegpu", "amdgpu", "intelgpu", "-" };
        for (size_t i = 0; i < sizeof gpus / sizeof *gpus; i++)
            if (strcasecmp(t.text, gpus[i]) == 0)
                return true;
        return false;
    }
    default: return true;
    }
}

void fnfilter_parse(struct fnfilter *f, const char *text)
{
    f->n = 0;
    const char *words[2 * FNFILTER_MAX_TERMS];
    size_t lens[2 * FNFILTER_MAX_TERMS], n = 0;
    for (const char *p = text; *p && n < 2 * FNFILTER_MAX_TERMS;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        words[n] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        lens[n] = (size_t)(p - words[n]);
        n++;
    }
    for (size_t i = 0; i < n && f->n < FNFILTER_MAX_TERMS; i++) {
        size_t at;
        int col = column_of(words[i], lens[i], &at);
        struct fnfilter_term *t = &f->terms[f->n++];
        if (col >= 0 && at < lens[i]) {                  /* "msl4.0" */
            set_word(t, (enum fnfilter_col)col, words[i] + at, lens[i] - at);
        } else if (col >= 0 && i + 1 < n && fits(col, words[i + 1], lens[i + 1])) {   /* "msl 4.0" */
            set_word(t, (enum fnfilter_col)col, words[i + 1], lens[i + 1]);
            i++;
            /* "requires macOS 14.0": the platform and its version. */
            if (col == FF_REQUIRES && t->os && i + 1 < n && f->n < FNFILTER_MAX_TERMS) {
                struct fnfilter_term v;
                set_word(&v, FF_REQUIRES, words[i + 1], lens[i + 1]);
                if (v.is_version) {
                    f->terms[f->n++] = v;
                    i++;
                }
            }
        } else {                                          /* a word alone, or a column word last */
            set_word(t, FF_ANY, words[i], lens[i]);
        }
    }
}

static bool name_has(const struct fnfilter_term *t, const struct mtlbx_function *fn)
{
    struct nocase_needle needle;
    nocase_prepare(&needle, t->text);
    if (nocase_contains(&needle, fn->name.ptr, fn->name.len))
        return true;
    /* A C++ name shows demangled: "kernel(float*)" has "float". */
    if (fn->name.len < 2 || fn->name.ptr[0] != '_' || fn->name.ptr[1] != 'Z')
        return false;
    char *shown = mbx_demangle(fn->name);
    bool hit = shown && nocase_contains(&needle, (const uint8_t *)shown, strlen(shown));
    free(shown);
    return hit;
}

static bool stage_is(const struct fnfilter_term *t, const struct mtlbx_function *fn)
{
    char type[32];
    return (fn->present & MTLBX_F_TYPE) && strcasecmp(mbx_function_type_name(fn->type, type, sizeof type), t->text) == 0;
}

static bool msl_is(const struct fnfilter_term *t, const struct mtlbx_function *fn)
{
    return t->is_version && (fn->present & MTLBX_F_VERS) && fn->msl_major == t->major && fn->msl_minor == t->minor;
}

static bool air_is(const struct fnfilter_term *t, const struct mtlbx_function *fn)
{
    return t->is_version && (fn->present & MTLBX_F_VERS) && fn->air_major == t->major && fn->air_minor == t->minor;
}

/* "macOS" or "14.0" against the requires column ("macOS 14.0"). */
static bool requires_is(const struct fnfilter_term *t, const mtlbx_library *lib, size_t index)
{
    if (!lib || (!t->os && !t->is_version))
        return false;
    struct mtlbx_requires req;
    mbx_function_requires(lib, index, &req);
    if (t->os)
        return (int)req.os == t->os;
    return req.has_version && req.version.major == t->major && req.version.minor == t->minor;
}

static bool hash_is(const struct fnfilter_term *t, const mtlbx_library *lib, size_t index)
{
    if (!lib)
        return false;
    switch (mbx_function_hash_state(lib, index)) {
    case MTLBX_HASH_MATCHES: return strcasecmp(t->text, "ok") == 0;
    case MTLBX_HASH_MISMATCH: return strcasecmp(t->text, "bad") == 0;
    case MTLBX_HASH_UNAVAILABLE: return strcmp(t->text, "--") == 0;
    default: return strcmp(t->text, "...") == 0;
    }
}

struct gpu_match { const char *text; bool hit; };

static void gpu_arch_is(void *ctx, const char *arch, uint32_t cputype, uint64_t size)
{
    (void)cputype, (void)size;
    struct gpu_match *m = ctx;
    m->hit |= arch && strcasecmp(arch, m->text) == 0;
}

/* "applegpu" against the gpu column: the function has code for that GPU;
 * "-": for none. */
static bool gpu_is(const struct fnfilter_term *t, const mtlbx_library *lib, size_t index)
{
    if (!lib)
        return false;
    struct gpu_match m = { t->text, false };
    size_t n = gpu_code_each(lib, index, gpu_arch_is, &m);
    return strcmp(t->text, "-") == 0 ? n == 0 : m.hit;
}

static bool term_matches(const struct fnfilter_term *t, const mtlbx_library *lib, size_t index,
                         const struct mtlbx_function *fn)
{
    switch (t->col) {
    case FF_NAME: return name_has(t, fn);
    case FF_STAGE: return stage_is(t, fn);
    case FF_MSL: return msl_is(t, fn);
    case FF_AIR: return air_is(t, fn);
    case FF_REQUIRES: return requires_is(t, lib, index);
    case FF_HASH: return hash_is(t, lib, index);
    case FF_GPU: return gpu_is(t, lib, index);
    case FF_ANY: break;
    }
    if (t->is_version)
        return msl_is(t, fn) || air_is(t, fn) || requires_is(t, lib, index) || name_has(t, fn);
    return name_has(t, fn) || stage_is(t, fn) || (t->os && requires_is(t, lib, index)) ||
           (mbx_fat_arch_cputype(t->text) && gpu_is(t, lib, index));
}

bool fnfilter_matches(const struct fnfilter *f, const mtlbx_library *lib, size_t index)
{
    const struct mtlbx_function *fn = mbx_function_at(lib, index);
    return fn ? fnfilter_matches_function(f, fn, lib, index) : f->n == 0;
}

bool fnfilter_matches_function(const struct fnfilter *f, const struct mtlbx_function *fn,
                               const mtlbx_library *lib, size_t index)
{
    for (size_t i = 0; i < f->n; i++)
        if (!term_matches(&f->terms[i], lib, index, fn))
            return false;
    return true;
}
