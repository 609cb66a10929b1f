/* See ftable.h. A sort first reads one key per shown row (the column's
 * value; for names their first 24 bytes) and sorts those with a stable
 * byte-wise radix sort (LSD, passes over bytes that never differ
 * skipped), so it touches each function once and never compares: the
 * rows' file order breaks ties, and names longer than the key that tie
 * are compared whole afterwards. 200,000 rows sort in a few
 * milliseconds per byte that differs. */
#include "config.h"

#include "ui/model/ftable.h"
#include "ui/model/fnfilter.h"
#include "ui/model/gpu_code.h"
#include "program/nocase.h"
#include "bitcode/demangle.h"
#include "checks/hash.h"
#include "checks/requirements.h"
#include "ui/text/textfmt.h"
#include "container/file.h"
#include "container/gpu_slice.h"
#include "container/lower_bound.h"
#include "container/sources.h"
#include "container/value_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <stdbool.h>

static void file_cell(const struct ft_lib *fl, char *out, size_t size);
static void gpu_cell(const mtlbx_library *lib, size_t index, char *out, size_t size);
static int gpu_width_max(const mtlbx_file *f);

/* One row's sort key: the column's value (k[0]), or a name's first 24
 * bytes, and the row's position in `all`. */
struct sort_key { uint64_t k[3]; uint32_t pos; };
static struct sort_key *keys_alloc(size_t n);
static void keys_free(struct sort_key *k, size_t n);

/* Copies every row's name into t->names (see ftable.h); leaves it NULL
 * when out of memory or past 4 GB of names. */
static void keep_names(struct ftable *t)
{
    size_t cap = (size_t)1 << 16, len = 0;
    char *names = malloc(cap);
    uint32_t *at = malloc((t->n_all + 1) * sizeof *at);
    for (size_t i = 0; names && at && i < t->n_all; i++) {
        struct mtlbx_bytes b = ftable_row_function(t, &t->all[i])->name;
        if (b.len + 1 > cap - len) {
            while (b.len + 1 > cap - len && cap < UINT32_MAX)
                cap *= 2;
            char *grown = b.len + 1 <= cap - len && cap <= UINT32_MAX ? realloc(names, cap) : NULL;
            if (!grown) {
                free(names);
                names = NULL;
                break;
            }
            names = grown;
        }
        at[i] = (uint32_t)len;
        memcpy(names + len, b.ptr, b.len);
        names[len + b.len] = '\0';
        len += b.len + 1;
    }
    if (!names || !at) {
        free(names);
        free(at);
        return;
    }
    at[t->n_all] = (uint32_t)len;
    t->names = names;
    t->name_at = at;
}

bool ftable_init(struct ftable *t, const struct ft_lib *libs, size_t n_libs)
{
    memset(t, 0, sizeof *t);
    t->sort = FT_COL_ORDER;
    size_t total = 0;
    for (size_t l = 0; l < n_libs; l++)
        total += libs[l].lib ? mbx_library_function_count(libs[l].lib) : 0;
    t->libs = malloc((n_libs ? n_libs : 1) * sizeof *t->libs);
    t->all = malloc((total ? total : 1) * sizeof *t->all);
    t->shown = malloc((total ? total : 1) * sizeof *t->shown);
    if (!t->libs || !t->all || !t->shown) {
        ftable_free(t);
        return false;
    }
    memcpy(t->libs, libs, n_libs * sizeof *libs);
    t->n_libs = n_libs;
    t->show_file = n_libs > 1;
    t->requires_width = 8;   /* "requires" */
    for (size_t l = 0; l < n_libs; l++) {
        struct ft_lib *fl = &t->libs[l];
        fl->in_file = fl->file_libs = 0;
        for (size_t m = 0; m < n_libs; m++)
            if (libs[m].file == fl->file) {
                fl->in_file += m < l;
                fl->file_libs++;
            }
        const char *os = fl->lib ? mbx_os_name(mbx_library_os(fl->lib)) : NULL;
        int rw = os ? (int)strlen(os) + 5 : 1;   /* "macOS 26.0" */
        if (rw > t->requires_width)
            t->requires_width = rw;
    }
    t->file_width = 4;
    for (size_t l = 0; t->show_file && l < n_libs; l++) {
        char cell[256];
        file_cell(&t->libs[l], cell, sizeof cell);
        int w = (int)strlen(cell);
        if (w > t->file_width)
            t->file_width = w < FT_FILE_WIDTH_MAX ? w : FT_FILE_WIDTH_MAX;
    }
    for (size_t l = 0; l < n_libs; l++) {
        size_t n = libs[l].lib ? mbx_library_function_count(libs[l].lib) : 0;
        for (size_t i = 0; i < n; i++)
            t->all[t->n_all++] = (struct ft_row){ (uint32_t)l, (uint32_t)i };
    }
    /* Stages are few: the column is as wide as the longest one present. */
    t->stage_width = 5;
    bool seen[256] = { false };
    for (size_t i = 0; i < t->n_all; i++) {
        t->shown[i] = (uint32_t)i;
        const struct mtlbx_function *fn = ftable_row_function(t, &t->all[i]);
        if ((fn->present & MTLBX_F_TYPE) && !seen[fn->type]) {
            char name[32];
            seen[fn->type] = true;
            int w = (int)strlen(mbx_function_type_name(fn->type, name, sizeof name));
            if (w > t->stage_width)
                t->stage_width = w < 12 ? w : 12;
        }
    }
    t->n_shown = t->n_all;
    /* The gpu column: only when a file holds GPU slices, as wide as the
     * widest cell can be (measured on the slices, not per row: a cell
     * looks its function up in each slice, and a table of N functions
     * measured row by row would cost N times the slices' functions). */
    t->gpu_width = 3;
    for (size_t l = 0; l < n_libs; l++) {
        const mtlbx_file *f = libs[l].lib ? mbx_library_file(libs[l].lib) : NULL;
        bool seen_file = false;
        for (size_t m = 0; f && m < l; m++)
            seen_file |= libs[m].lib && mbx_library_file(libs[m].lib) == f;
        if (!f || seen_file || !mbx_gpu_slice_count(f))
            continue;
        t->show_gpu = true;
        int w = gpu_width_max(f);
        if (w > t->gpu_width)
            t->gpu_width = w < FT_GPU_WIDTH_MAX ? w : FT_GPU_WIDTH_MAX;
    }
    keep_names(t);
    return true;
}

void ftable_free(struct ftable *t)
{
    free(t->libs);
    free(t->all);
    free(t->shown);
    free(t->hits);
    free(t->names);
    free(t->name_at);
    free(t->marked);
    keys_free(t->keys, t->n_all ? t->n_all : 1);
    keys_free(t->keys_tmp, t->n_all ? t->n_all : 1);
    memset(t, 0, sizeof *t);
}

const struct ft_row *ftable_row(const struct ftable *t, size_t pos)
{
    return pos < t->n_shown ? &t->all[t->shown[pos]] : NULL;
}

mtlbx_library *ftable_row_lib(const struct ftable *t, const struct ft_row *r)
{
    return t->libs[r->lib].lib;
}

const struct mtlbx_function *ftable_row_function(const struct ftable *t, const struct ft_row *r)
{
    return mbx_function_at(t->libs[r->lib].lib, r->index);
}

const char *ftable_col_title(enum ft_col c)
{
    switch (c) {
    case FT_COL_STAGE: return "stage";
    case FT_COL_ARGS: return "args";
    case FT_COL_MSL: return "msl";
    case FT_COL_SIZE: return "size";
    case FT_COL_HASH: return "hash";
    case FT_COL_SRC: return "src";
    case FT_COL_NAME: return "name";
    case FT_COL_FILE: return "file";
    case FT_COL_REQUIRES: return "requires";
    case FT_COL_GPU: return "gpu";
    default: return "file order";
    }
}

static long arg_count(const struct ftable *t, const mtlbx_library *lib, size_t i)
{
    if (t->arg_count) {
        long n = t->arg_count(t->arg_ctx, lib, i);
        if (n != -1)
            return n;
    }
    const struct mtlbx_interface *iface = NULL;
    mtlbx_model *model = t->model_of ? t->model_of(t->arg_ctx, lib) : NULL;
    enum mtlbx_iface_state s = mbx_function_interface_cached(model, lib, i, &iface, NULL);
    if (s == MTLBX_IFACE_NOT_DECODED)
        return -1;
    if (s != MTLBX_IFACE_OK || !iface || !iface->stage)
        return -2;
    return (long)iface->n_inputs;
}

/* "999", "12.3K", "4.0M": at most 5 columns. */
static void short_size(uint64_t v, char *out, size_t size)
{
    if (v < 10000)
        snprintf(out, size, "%llu", (unsigned long long)v);
    else if (v < 1000ull * 1024)
        snprintf(out, size, "%.1fK", (double)v / 1024);
    else if (v < 1000ull * 1024 * 1024)
        snprintf(out, size, "%.1fM", (double)v / (1024.0 * 1024));
    else
        snprintf(out, size, "%.1fG", (double)v / (1024.0 * 1024 * 1024));
}

/* The short name of a row's library: its file's base name without
 * ".metallib", after "#N " (first, where a cut cannot hide it)
 * when that file holds several (a fat file). */
static void file_cell(const struct ft_lib *fl, char *out, size_t size)
{
    const char *path = fl->path ? fl->path : "";
    const char *base = strrchr(path, '/');
    base = base && base[1] ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 9 && strcmp(base + len - 9, ".metallib") == 0)
        len -= 9;                /* the name, not the suffix every row has */
    char *safe = textfmt_escape_dup(base, len);
    if (fl->file_libs > 1)
        snprintf(out, size, "#%u%s%s", fl->in_file, safe && safe[0] ? " " : "", safe ? safe : "");
    else
        snprintf(out, size, "%s", safe ? safe : "?");
    free(safe);
}

struct gpu_text { char *out; size_t size, len; };

static void add_gpu(void *ctx, const char *arch, uint32_t cputype, uint64_t bytes)
{
    struct gpu_text *x = ctx;
    char size[16], other[16];
    short_size(bytes, size, sizeof size);
    if (!arch) {
        snprintf(other, sizeof other, "0x%08x", cputype);
        arch = other;
    }
    if (x->len < x->size) {
        int w = snprintf(x->out + x->len, x->size - x->len, "%s%s %s", x->len ? " " : "", arch, size);
        x->len += w > 0 ? (size_t)w : 0;
    }
}

/* "applegpu 1.4K", several joined, or "-": no GPU slice holds code for it. */
static void gpu_cell(const mtlbx_library *lib, size_t index, char *out, size_t size)
{
    struct gpu_text x = { out, size, 0 };
    out[0] = '\0';
    if (!gpu_code_each(lib, index, add_gpu, &x))
        snprintf(out, size, "-");
}

/* The widest gpu cell of file f: each slice with code, its arch and its
 * longest size, as a function with code in every one would show them. */
static int gpu_width_max(const mtlbx_file *f)
{
    int w = 0;
    for (size_t k = 0; k < mbx_gpu_slice_count(f); k++) {
        const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(f, k);
        int longest = 0;
        for (size_t i = 0; i < g->n_functions; i++) {
            char size[16];
            short_size(g->functions[i].size, size, sizeof size);
            if ((int)strlen(size) > longest)
                longest = (int)strlen(size);
        }
        if (!g->n_functions)
            continue;
        const char *arch = mbx_fat_arch_name(g->cputype);
        w += (w ? 1 : 0) + (arch ? (int)strlen(arch) : 10) + 1 + longest;   /* 10: "0x%08x" */
    }
    return w;
}

static void add_bytes(void *ctx, const char *arch, uint32_t cputype, uint64_t bytes)
{
    (void)arch, (void)cputype;
    *(uint64_t *)ctx += bytes;
}

/* "macOS 14.0": the first version of its platform that loads it. */
static void requires_cell(const mtlbx_library *lib, size_t index, char *out, size_t size)
{
    struct mtlbx_requires req;
    mbx_function_requires(lib, index, &req);
    const char *os = mbx_os_name(req.os);
    if (!os)
        snprintf(out, size, "-");
    else if (!req.has_version)
        snprintf(out, size, "%s ?", os);
    else
        snprintf(out, size, "%s %u.%u", os, req.version.major, req.version.minor);
}

void ftable_cell(const struct ftable *t, const struct ft_row *r, enum ft_col c, char *out, size_t size)
{
    const mtlbx_library *lib = t->libs[r->lib].lib;
    const struct mtlbx_function *fn = mbx_function_at(lib, r->index);
    out[0] = '\0';
    switch (c) {
    case FT_COL_STAGE:
        if (fn->present & MTLBX_F_TYPE) {
            char type[32];
            snprintf(out, size, "%s", mbx_function_type_name(fn->type, type, sizeof type));
        } else
            snprintf(out, size, "-");
        break;
    case FT_COL_ARGS: {
        long n = arg_count(t, lib, r->index);
        if (n == -1)
            snprintf(out, size, "...");
        else if (n < 0)
            snprintf(out, size, "-");
        else
            snprintf(out, size, "%ld", n);
        break;
    }
    case FT_COL_MSL:
        if (fn->present & MTLBX_F_VERS)
            snprintf(out, size, "%u.%u", fn->msl_major, fn->msl_minor);
        else
            snprintf(out, size, "-");
        break;
    case FT_COL_SIZE:
        if (fn->module_valid)
            short_size(fn->module.size, out, size);
        else
            snprintf(out, size, "-");
        break;
    case FT_COL_HASH:
        switch (mbx_function_hash_state(lib, r->index)) {
        case MTLBX_HASH_MATCHES: snprintf(out, size, "ok"); break;
        case MTLBX_HASH_MISMATCH: snprintf(out, size, "BAD"); break;
        case MTLBX_HASH_UNAVAILABLE: snprintf(out, size, "--"); break;
        default: snprintf(out, size, "..."); break;
        }
        break;
    case FT_COL_SRC:
        snprintf(out, size, "%s", mbx_function_archive(lib, r->index) >= 0 ? "S" : "");
        break;
    case FT_COL_FILE: file_cell(&t->libs[r->lib], out, size); break;
    case FT_COL_REQUIRES: requires_cell(lib, r->index, out, size); break;
    case FT_COL_GPU: gpu_cell(lib, r->index, out, size); break;
    default: break;
    }
}

char *ftable_display_name(const struct ftable *t, const struct ft_row *r)
{
    return ftable_function_name(t->libs[r->lib].lib, r->index, t->raw_names);
}

char *ftable_function_name(const mtlbx_library *lib, size_t index, bool raw)
{
    const struct mtlbx_function *fn = mbx_function_at(lib, index);
    char *demangled = raw ? NULL : mbx_demangle(fn->name);
    char *safe = demangled ? textfmt_escape_str_dup(demangled)
                           : textfmt_escape_dup(fn->name.ptr, fn->name.len);
    free(demangled);
    return safe;
}

/* ------------------------------------------------------------ sorting -- */

static uint64_t key_of(const struct ftable *t, uint32_t pos, enum ft_col c)
{
    const struct ft_row *r = &t->all[pos];
    const mtlbx_library *lib = t->libs[r->lib].lib;
    const struct mtlbx_function *fn = mbx_function_at(lib, r->index);
    switch (c) {
    case FT_COL_STAGE: return (fn->present & MTLBX_F_TYPE) ? fn->type : 0x100;
    case FT_COL_ARGS: {
        long n = arg_count(t, lib, r->index);
        return n >= 0 ? (uint64_t)n : UINT64_MAX - 1 + (n == -1);   /* unknown last */
    }
    case FT_COL_MSL:
        return (fn->present & MTLBX_F_VERS) ? ((uint64_t)fn->msl_major << 16 | fn->msl_minor) : UINT64_MAX;
    case FT_COL_SIZE: return fn->module_valid ? fn->module.size : 0;
    case FT_COL_HASH: {
        /* Problems first: a mismatch is what one sorts by hash to find. */
        enum mtlbx_hash_state s = mbx_function_hash_state(lib, r->index);
        return s == MTLBX_HASH_MISMATCH ? 0 : s == MTLBX_HASH_UNAVAILABLE ? 1 : s == MTLBX_HASH_MATCHES ? 3 : 2;
    }
    case FT_COL_SRC: return mbx_function_archive(lib, r->index) >= 0 ? 0 : 1;
    case FT_COL_FILE: return r->lib;
    case FT_COL_GPU: {
        /* All its GPU code, biggest first as size (none: 0, last). */
        uint64_t bytes = 0;
        gpu_code_each(lib, r->index, add_bytes, &bytes);
        return bytes;
    }
    case FT_COL_REQUIRES: {
        /* By platform, then version; no version known last. */
        struct mtlbx_requires req;
        mbx_function_requires(lib, r->index, &req);
        uint64_t v = req.has_version ? (uint64_t)req.version.major << 16 | req.version.minor : 0xffffffffu;
        return (uint64_t)req.os << 40 | v;
    }
    default: return pos;
    }
}

/* qsort has no context argument: the table being sorted by name. */
static __thread const struct ftable *name_sort_table;

static int cmp_name(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const struct ftable *t = name_sort_table;
    const struct mtlbx_function *fa = ftable_row_function(t, &t->all[x]), *fb = ftable_row_function(t, &t->all[y]);
    int c = mbx_name_cmp(fa->name, fb->name);
    if (c)
        return c;
    return x < y ? -1 : x > y;
}

static int cmp_sort_key(const void *a, const void *b)
{
    const struct sort_key *x = a, *y = b;
    for (int i = 0; i < 3; i++)
        if (x->k[i] != y->k[i])
            return x->k[i] < y->k[i] ? -1 : 1;
    return cmp_name(&x->pos, &y->pos);
}

/* Stable LSD radix sort on k[0] (most significant) .. k[2], one byte a
 * pass. One read of the keys counts all 24 bytes at once; a byte where
 * every row has the same value changes nothing and has no pass, so a
 * column whose key is one small number costs two passes over the rows,
 * not 24. `tmp` holds n entries. Returns where the result is. */
static struct sort_key *radix(struct sort_key *v, struct sort_key *tmp, size_t n)
{
    if (n == 0)
        return v;
    static __thread size_t count[3][8][256];
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; i++)
        for (int w = 0; w < 3; w++) {
            uint64_t k = v[i].k[w];
            if (k == 0) {
                count[w][0][0]++; /* the common case: an unused word */
                continue;
            }
            for (int byte = 0; byte < 8; byte++)
                count[w][byte][(k >> (byte * 8)) & 0xff]++;
        }
    /* A word that was zero for a row counted only its byte 0 (right
     * already): its other bytes are zeros too. */
    for (int w = 0; w < 3; w++)
        for (int byte = 1; byte < 8; byte++) {
            size_t seen = 0;
            for (int d = 0; d < 256; d++)
                seen += count[w][byte][d];
            count[w][byte][0] += n - seen;
        }
    for (int w = 2; w >= 0; w--)
        for (int byte = 0; byte < 8; byte++) {
            size_t *c = count[w][byte];
            int shift = byte * 8;
            if (c[(v[0].k[w] >> shift) & 0xff] == n)
                continue;
            size_t at = 0;
            for (int d = 0; d < 256; d++) {
                size_t k = c[d];
                c[d] = at;
                at += k;
            }
            for (size_t i = 0; i < n; i++)
                tmp[c[(v[i].k[w] >> shift) & 0xff]++] = v[i];
            struct sort_key *swap = v;
            v = tmp;
            tmp = swap;
        }
    return v;
}

/* The key arrays: 200,000 rows are 6.4 MB each, and the first sort
 * wrote them page by page, one fault per page: 3,200 faults made the
 * first S take 90-170 ms on a VM where a fault is a trap to the host
 * (the sort itself is 25 ms). Mapped with MAP_POPULATE, the kernel
 * fills them in one call. */
static struct sort_key *keys_alloc(size_t n)
{
    void *p = mmap(NULL, n * sizeof(struct sort_key), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void keys_free(struct sort_key *k, size_t n)
{
    if (k)
        munmap(k, n * sizeof *k);
}

static bool sort_shown_by_key(struct ftable *t)
{
    size_t n = t->n_shown;
    /* Sized for every row once: a filter only shortens what is sorted. */
    if (!t->keys)
        t->keys = keys_alloc(t->n_all ? t->n_all : 1);
    if (!t->keys_tmp)
        t->keys_tmp = keys_alloc(t->n_all ? t->n_all : 1);
    if (!t->keys || !t->keys_tmp)
        return false;
    struct sort_key *k = t->keys, *tmp = t->keys_tmp;
    bool names = t->sort == FT_COL_NAME;
    /* Biggest modules (and GPU code) first (ncdu); every other column ascending. */
    bool big_first = t->sort == FT_COL_SIZE || t->sort == FT_COL_GPU;
    for (size_t i = 0; i < n; i++) {
        k[i] = (struct sort_key){ { 0, 0, 0 }, t->shown[i] };
        if (!names) {
            uint64_t v = key_of(t, t->shown[i], t->sort);
            k[i].k[0] = big_first ? ~v : v;
            continue;
        }
        const struct mtlbx_function *fn = ftable_row_function(t, &t->all[t->shown[i]]);
        for (int w = 0; w < 3; w++) {
            uint64_t v = 0;
            for (size_t b = 0; b < 8; b++) {
                size_t at = (size_t)w * 8 + b;
                v = v << 8 | (at < fn->name.len ? fn->name.ptr[at] : 0);
            }
            k[i].k[w] = v;
        }
    }
    /* shown is in file order, and the sort is stable: ties stay so. */
    struct sort_key *out = radix(k, tmp, n);
    /* Names that tie on their first 24 bytes: compared whole. */
    name_sort_table = t;
    for (size_t i = 0; names && i < n;) {
        size_t e = i + 1;
        while (e < n && memcmp(out[e].k, out[i].k, sizeof out[i].k) == 0)
            e++;
        if (e - i > 1)
            qsort(out + i, e - i, sizeof *out, cmp_sort_key);
        i = e;
    }
    for (size_t i = 0; i < n; i++)
        t->shown[i] = out[i].pos;
    return true;
}

static bool sort_shown(struct ftable *t)
{
    size_t n = t->n_shown;
    if (t->sort != FT_COL_ORDER && !sort_shown_by_key(t))
        return false;
    if (t->descending)
        for (size_t i = 0; i < n / 2; i++) {
            uint32_t s = t->shown[i];
            t->shown[i] = t->shown[n - 1 - i];
            t->shown[n - 1 - i] = s;
        }
    return true;
}

bool ftable_apply(struct ftable *t, size_t *sel)
{
    const struct ft_row *keep = ftable_row(t, *sel);
    uint32_t keep_pos = keep ? (uint32_t)(keep - t->all) : UINT32_MAX;
    size_t n = 0;
    struct fnfilter filter;
    fnfilter_parse(&filter, t->filter);
    for (size_t i = 0; i < t->n_all; i++) {
        const struct ft_row *r = &t->all[i];
        if (filter.n && !fnfilter_matches_function(&filter, ftable_row_function(t, r), t->libs[r->lib].lib, r->index))
            continue;
        t->shown[n++] = (uint32_t)i;
    }
    t->n_shown = n;
    bool ok = sort_shown(t);
    *sel = 0;
    for (size_t i = 0; keep_pos != UINT32_MAX && i < n; i++)
        if (t->shown[i] == keep_pos) {
            *sel = i;
            break;
        }
    t->n_hits = 0;
    return ok;
}

/* ------------------------------------------------------------ search -- */

size_t ftable_search(struct ftable *t, const char *text, ftable_extra_fn extra, void *ctx)
{
    snprintf(t->query, sizeof t->query, "%s", text);
    free(t->hits);
    t->hits = malloc((t->n_shown ? t->n_shown : 1) * sizeof *t->hits);
    t->n_hits = t->hit_cur = 0;
    if (!t->hits)
        return 0;
    struct nocase_needle needle;
    nocase_prepare(&needle, text);
    for (size_t i = 0; i < t->n_shown; i++) {
        uint32_t pos = t->shown[i];
        const struct ft_row *r = &t->all[pos];
        bool hit;
        if (t->names) {
            hit = nocase_contains(&needle, (const uint8_t *)t->names + t->name_at[pos],
                                  t->name_at[pos + 1] - t->name_at[pos] - 1);
        } else {
            const struct mtlbx_function *fn = ftable_row_function(t, r);
            hit = nocase_contains(&needle, fn->name.ptr, fn->name.len);
        }
        if (!hit && extra) {
            size_t more_len;
            const char *more = extra(ctx, t->libs[r->lib].lib, r->index, &more_len);
            hit = more && nocase_contains(&needle, (const uint8_t *)more, more_len);
        }
        if (hit)
            t->hits[t->n_hits++] = (uint32_t)i;
    }
    return t->n_hits;
}

bool ftable_search_step(struct ftable *t, size_t *sel, bool forward, bool *wrapped)
{
    *wrapped = false;
    if (!t->n_hits)
        return false;
    /* The first hit after (or before) the selection. */
    size_t lo = mtlbx_upper_bound_u32(t->hits, t->n_hits, (uint32_t)*sel);
    size_t k;
    if (forward) {
        k = lo;
        if (k == t->n_hits) {
            k = 0;
            *wrapped = true;
        }
    } else {
        /* lo - 1 is the last hit at or before sel; skip sel itself. */
        size_t at_or_before = lo;
        if (at_or_before && t->hits[at_or_before - 1] == *sel)
            at_or_before--;
        if (at_or_before == 0) {
            k = t->n_hits - 1;
            *wrapped = true;
        } else {
            k = at_or_before - 1;
        }
    }
    t->hit_cur = k;
    *sel = t->hits[k];
    return true;
}

long ftable_find(const struct ftable *t, const mtlbx_library *lib, size_t index)
{
    for (size_t i = 0; i < t->n_shown; i++) {
        const struct ft_row *r = &t->all[t->shown[i]];
        if (r->index == index && t->libs[r->lib].lib == lib)
            return (long)i;
    }
    return -1;
}
