/* `mtlbx sig FILE [NAME...] [--json]`: each function's interface as an
 * MSL-style declaration (src/lib/msl_decl.c builds the text), or as
 * FUNCTION_INTERFACE objects with --json. Streams: one module is decoded,
 * printed and freed before the next, so memory stays flat on 20,000
 * functions. A module that does not decode is one error line naming the
 * file and offset, and the other functions still print. */
#include "config.h"

#include "cli/commands.h"
#include "bitcode/demangle.h"
#include "cli/gate/os_option.h"
#include "model/msl.h"
#include "json/interface_json.h"
#include "json/values_json.h"
#include "json/json_stream.h"
#include "container/lower_bound.h"
#include "container/value_names.h"
#include "container/header.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Bytes of modules read before their pages are let go at once. */
#define RELEASE_BATCH ((uint64_t)8 << 20)

/* A NAME operand, kept sorted by its bytes so that each function's name
 * is looked up, not compared with every operand: 200 names against
 * 20,000 functions were four million comparisons. */
struct wanted_name {
    const char *s;
    size_t len;
    int k;                     /* its place among the operands (found[k]) */
};

struct sig_options {
    const char *path;
    bool json;
    int n_names;
    char **names;
    struct wanted_name *sorted;
    bool *found;
    bool **extra;              /* [library][function]: picked by a glob or prefix */
};

static int span_order(const char *a, size_t alen, const char *b, size_t blen)
{
    int c = memcmp(a, b, alen < blen ? alen : blen);
    return c ? c : (alen > blen) - (alen < blen);
}

static int by_name(const void *x, const void *y)
{
    const struct wanted_name *a = x, *b = y;
    return span_order(a->s, a->len, b->s, b->len);
}

struct name_key {
    const struct sig_options *o;
    const char *s;
    size_t len;
};

static bool name_before(const void *ctx, size_t i)
{
    const struct name_key *k = ctx;
    return span_order(k->o->sorted[i].s, k->o->sorted[i].len, k->s, k->len) < 0;
}

/* Marks (in mark[k]) every operand equal to the len bytes at s; true if
 * there is one. */
static bool mark_equal(const struct sig_options *o, bool *mark, const char *s, size_t len)
{
    struct name_key key = { o, s, len };
    size_t lo = mtlbx_lower_bound((size_t)o->n_names, name_before, &key); /* the first not before s */
    bool hit = false;
    for (; lo < (size_t)o->n_names && span_order(o->sorted[lo].s, o->sorted[lo].len, s, len) == 0; lo++)
        hit = mark[o->sorted[lo].k] = true;
    return hit;
}

static bool look_up(struct sig_options *o, const char *s, size_t len)
{
    return mark_equal(o, o->found, s, len);
}

/* A NAME matches the stored name, or is one the library's resolver
 * matched another way (a demangled name such as "utils::scale" for
 * _ZN5utils5scaleEDv3_ff, a glob, a prefix: marked in o->extra). Nothing
 * is demangled here: one name that demangles to gigabytes must not cost
 * `sig FILE foo` anything (issue 35). */
static bool wanted(struct sig_options *o, size_t l, size_t i, struct mtlbx_bytes name)
{
    if (o->n_names == 0 || (o->extra && o->extra[l] && o->extra[l][i]))
        return true;
    return look_up(o, (const char *)name.ptr, name.len);
}

/* The one-line error for a module that does not decode (or was cut). */
static void report(const struct sig_options *o, const struct mtlbx_function *fn, uint64_t offset, const char *why,
                   bool decoded)
{
    char *name = cli_escape_dup(fn->name.ptr, fn->name.len);
    cli_error(o->path, &offset, "%s: %s%s", name ? name : "?", decoded ? "" : "interface not decoded: ", why);
    free(name);
}

/* What decoding one function gave, made on a worker thread and printed
 * on the main one, in function order. */
struct sig_result {
    size_t index;
    char *decl;                /* NULL: nothing to print */
    bool failed;
    bool cut;                  /* printed, with a warning */
    uint64_t error_offset;
    char error[sizeof ((struct mtlbx_error *)0)->message];
};

static void decode_one(mtlbx_interface_reader *rd, const mtlbx_library *lib, struct sig_result *r,
                       mtlbx_read_window *win)
{
    const struct mtlbx_function *fn = mbx_function_at(lib, r->index);
    struct mtlbx_error err = { 0 };
    struct mtlbx_interface *iface = mbx_interface_read(rd, lib, r->index, win, &err);
    if (!iface) {
        r->failed = true;
        r->error_offset = err.has_offset ? err.offset : fn->module.offset;
        snprintf(r->error, sizeof r->error, "%s", err.message);
        return;
    }
    if (iface->module.failed) {
        r->failed = true;
        r->error_offset = iface->module.error_offset;
        snprintf(r->error, sizeof r->error, "%s", iface->module.error);
    } else {
        if (iface->cut) {
            r->cut = true;
            r->error_offset = iface->cut_offset;
            interface_cut_message(r->error, sizeof r->error);
        }
        char tbuf[32];
        const char *type = (fn->present & MTLBX_F_TYPE) ? mbx_function_type_name(fn->type, tbuf, sizeof tbuf)
                                                         : NULL;
        r->decl = mbx_msl_declaration(iface, fn->name, type, mbx_function_metadata(lib, r->index),
                                        MTLBX_MSL_SOURCE | MTLBX_MSL_CONSTANTS);
        if (!r->decl) {
            r->failed = true;
            r->error_offset = fn->module.offset;
            snprintf(r->error, sizeof r->error, "out of memory");
        }
    }
    mbx_interface_free(iface);
}

/* Decoding is what costs (printing is cheap), and every module is
 * independent: a batch of functions is split over the CPUs, then printed
 * in order and freed, so memory stays one batch whatever the library.
 * Each CPU takes a run of consecutive functions, whose modules usually lie
 * back to back, and reads them through its own window (one pread for many
 * small modules); the windows last from batch to batch. All threads read
 * through the library's one reader, so a module that several functions
 * share is read once. */
#define SIG_BATCH 256
#define SIG_MAX_THREADS 8

struct sig_batch {
    mtlbx_interface_reader *rd;
    const mtlbx_library *lib;
    struct sig_result *results;
    size_t first, end;
    mtlbx_read_window *win;    /* NULL (out of memory): through the mapping */
};

static void *decode_share(void *arg)
{
    struct sig_batch *b = arg;
    for (size_t k = b->first; k < b->end; k++)
        decode_one(b->rd, b->lib, &b->results[k], b->win);
    return NULL;
}

static void decode_batch(mtlbx_interface_reader *rd, const mtlbx_library *lib, struct sig_result *results,
                         size_t n, unsigned threads, mtlbx_read_window **wins)
{
    pthread_t tid[SIG_MAX_THREADS];
    struct sig_batch share[SIG_MAX_THREADS];
    unsigned started = 0;
    if (n < 2 * threads)
        threads = 1;
    for (unsigned t = 1; t < threads; t++) {
        share[t] = (struct sig_batch){ rd, lib, results, n * t / threads, n * (t + 1) / threads, wins[t] };
        if (pthread_create(&tid[t], NULL, decode_share, &share[t]) != 0)
            break;
        started = t;
    }
    /* This thread takes share 0, and the shares no thread could take. */
    share[0] = (struct sig_batch){ rd, lib, results, 0, n / threads, wins[0] };
    decode_share(&share[0]);
    share[0].first = n * (started + 1) / threads;
    share[0].end = n;
    decode_share(&share[0]);
    for (unsigned t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
}

static unsigned sig_threads(void)
{
    unsigned n = mbx_cpus();
    return n > SIG_MAX_THREADS ? SIG_MAX_THREADS : n;
}

static bool print_result(const struct sig_options *o, const mtlbx_library *lib, struct sig_result *r)
{
    if (r->failed || r->cut)
        report(o, mbx_function_at(lib, r->index), r->error_offset, r->error, !r->failed);
    if (r->decl) {
        /* What the function needs to load, as a comment above it. */
        struct mtlbx_requires req;
        char target[64], reasons[512];
        mbx_function_requires(lib, r->index, &req);
        req_reasons_text(&req, reasons, sizeof reasons);
        printf("// requires %s%s%s\n", req_target_text(&req, target, sizeof target), reasons[0] ? ": " : "",
               reasons);
        fputs(r->decl, stdout);
        /* A blank line after a declaration that spans several lines. */
        fputs(strchr(r->decl, '\n') ? "\n\n" : "\n", stdout);
    }
    free(r->decl);
    r->decl = NULL;
    return !r->failed && !r->cut;
}

static bool print_json(const struct sig_options *o, mtlbx_interface_reader *rd, const mtlbx_library *lib, size_t l,
                       size_t i, bool *first, mtlbx_read_window *win)
{
    const struct mtlbx_function *fn = mbx_function_at(lib, i);
    json_t *diag = NULL;
    json_t *iface = function_interface_json(rd, lib, i, win, &diag);
    if (diag) {
        uint64_t offset = (uint64_t)json_integer_value(json_object_get(diag, "offset"));
        char *name = cli_escape_dup(fn->name.ptr, fn->name.len);
        cli_error(o->path, &offset, "%s: %s", name ? name : "?", json_string_value(json_object_get(diag, "message")));
        free(name);
    }
    char *esc = json_bytes_text_dup(fn->name.ptr, fn->name.len);
    char *dem = mbx_demangle(fn->name);
    char *dem_esc = dem ? json_bytes_text_dup(dem, strlen(dem)) : NULL;
    /* Each element is the FUNCTION_INTERFACE object of CONTRACT.md, with
     * where it came from and any error as further keys. A module that did
     * not decode reads as a function that no stage entry names. */
    json_t *obj = iface;
    if (!obj)
        obj = json_pack("{s:n,s:[],s:[],s:{},s:n}", "stage", "inputs", "outputs", "attributes", "module");
    json_t *from = json_pack("{s:s?,s:s?,s:I,s:I}", "name", esc, "demangled", dem_esc, "library", (json_int_t)l,
                             "function", (json_int_t)i);
    if (obj && (!from || json_object_update(obj, from) != 0)) {
        json_decref(obj);
        obj = NULL;
    }
    json_decref(from);
    if (obj) {
        struct mtlbx_requires req;
        mbx_function_requires(lib, i, &req);
        json_object_set_new(obj, "requires", vj_requires(&req));
    }
    if (obj && diag)
        json_object_set_new(obj, "error", diag);
    else
        json_decref(diag);
    free(esc);
    free(dem);
    free(dem_esc);
    fputs(*first ? "\n" : ",\n", stdout);
    *first = false;
    if (obj)
        json_dumpf(obj, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
    json_decref(obj);
    return diag == NULL;
}

/* NAME operands that are not a function's stored name: a demangled name,
 * a glob or a unique prefix (names.c), whose functions are marked in
 * o->extra. What resolves to nothing is reported
 * here, once, with the closest names. False if any did not resolve. */
static bool resolve_patterns(struct sig_options *o, const mtlbx_file *f)
{
    if (o->n_names == 0)
        return true; /* every function: no list walk, no entries kept */
    size_t n_libs = mbx_file_library_count(f);
    bool ok = true;
    /* The operands that are stored names, in one pass over the functions
     * (a mbx_library_function_find per operand decodes the whole list each
     * time: 200 names on 20,000 functions took 0.3 s instead of 20 ms).
     * The entries are let go as the pass leaves them, as dump does:
     * kept, they would be 144 MB at a million functions. */
    bool *stored = calloc((size_t)o->n_names + 1, sizeof *stored);
    if (!stored)
        return false;
    for (size_t l = 0; l < n_libs; l++) {
        const mtlbx_library *lib = mbx_library_at(f, l);
        size_t n = mbx_library_function_count(lib);
        for (size_t i = 0; i < n; i++) {
            struct mtlbx_bytes name = mbx_function_at(lib, i)->name;
            mark_equal(o, stored, (const char *)name.ptr, name.len);
            if (i % 4096 == 4095) {
                mbx_library_release_pages(lib); /* the names' pages */
                mbx_library_forget(lib, i + 1);
            }
        }
        mbx_library_forget(lib, n);
        mbx_library_release_pages(lib);
    }
    for (int k = 0; k < o->n_names; k++) {
        if (stored[k])
            continue;
        struct mtlbx_name_matches m;
        int rc = cli_resolve_functions(o->path, f, o->names[k], false, &m);
        if (rc != 0) {
            o->found[k] = true; /* reported already */
            ok = false;
            continue;
        }
        if (!o->extra)
            o->extra = calloc(n_libs + 1, sizeof *o->extra);
        for (size_t j = 0; o->extra && j < m.n; j++) {
            size_t l = m.v[j].library;
            if (!o->extra[l])
                o->extra[l] = calloc(mbx_library_function_count(mbx_library_at(f, l)) + 1, sizeof **o->extra);
            if (o->extra[l])
                o->extra[l][m.v[j].function] = true;
        }
        o->found[k] = true;
        mbx_name_matches_free(&m);
    }
    free(stored);
    return ok;
}

int cmd_sig(const struct cli_args *args)
{
    /* The table (cmdtable.c) checked the options and that FILE is there. */
    struct sig_options o = { 0 };
    int n_operands = args->n_operands;
    o.path = args->operands[0];
    o.json = cli_flag(args, OPT_JSON);
    o.names = calloc((size_t)n_operands + 1, sizeof *o.names);
    o.sorted = calloc((size_t)n_operands + 1, sizeof *o.sorted);
    o.found = calloc((size_t)n_operands + 1, sizeof *o.found);
    if (!o.names || !o.sorted || !o.found) {
        free(o.names);
        free(o.sorted);
        free(o.found);
        fprintf(stderr, "mtlbx: sig: out of memory\n");
        return 2;
    }
    for (int a = 1; a < n_operands; a++) {
        o.sorted[o.n_names] = (struct wanted_name){ args->operands[a], strlen(args->operands[a]), o.n_names };
        o.names[o.n_names++] = args->operands[a];
    }
    qsort(o.sorted, (size_t)o.n_names, sizeof *o.sorted, by_name);
    int status = 0;
    mtlbx_file *f = status ? NULL : cli_open(o.path);
    size_t f_libs = f ? mbx_file_library_count(f) : 0;
    if (!status && !f)
        status = 2;
    long slice = -1;
    if (f && !cli_slice(args, o.path, f, &slice)) {
        mbx_close(f);
        f = NULL;
        status = 2;
    }
    bool all_ok = true, first = true;
    unsigned threads = sig_threads();
    mtlbx_read_window *wins[SIG_MAX_THREADS] = { 0 };
    for (unsigned t = 0; t < threads; t++)
        wins[t] = mbx_read_window_new();
    struct sig_result *batch = o.json ? NULL : calloc(SIG_BATCH, sizeof *batch);
    if (f && !o.json && !batch) {
        fprintf(stderr, "mtlbx: sig: out of memory\n");
        mbx_close(f);
        f = NULL;
        status = 2;
    }
    if (f && !resolve_patterns(&o, f))
        all_ok = false;
    uint64_t released = 0;
    if (f) {
        if (o.json)
            fputs("[", stdout);
        size_t nlib = mbx_file_library_count(f);
        for (size_t l = 0; l < nlib; l++) {
            if (slice >= 0 && l != (size_t)slice)
                continue;
            const mtlbx_library *lib = mbx_library_at(f, l);
            if (!o.json && (nlib > 1 || mbx_file_is_fat(f)))
                printf("// library %zu at 0x%llx\n", l, (unsigned long long)mbx_library_header(lib)->base);
            size_t n_fn = mbx_library_function_count(lib), batched = 0;
            mtlbx_interface_reader *rd = mbx_interface_reader_new(lib); /* NULL: each decoded alone */
            /* Decoded once here, not raced for by the workers. */
            (void)mbx_function_metadata(lib, 0);
            for (size_t i = 0; i < n_fn; i++) {
                bool want = wanted(&o, l, i, mbx_function_at(lib, i)->name);
                if (want && o.json)
                    all_ok &= print_json(&o, rd, lib, l, i, &first, wins[0]);
                else if (want)
                    batch[batched++] = (struct sig_result){ .index = i };
                /* Also at the end of each block of 4,096: with NAMEs the
                 * batch may wait for a long time, and while it waits
                 * nothing behind it is let go (70 MB on 200,000). */
                if (batched && (batched == SIG_BATCH || i + 1 == n_fn || i % 4096 == 4095)) {
                    decode_batch(rd, lib, batch, batched, threads, wins);
                    for (size_t k = 0; k < batched; k++)
                        all_ok &= print_result(&o, lib, &batch[k]);
                    batched = 0;
                }
                /* Done with the modules up to this one (nothing is left
                 * to decode behind it): let their pages go, 8 MB at a
                 * time, to keep memory flat on 20,000. */
                const struct mtlbx_function *fn = mbx_function_at(lib, i);
                uint64_t end = fn->module.offset + fn->module.size;
                /* Names and metadata groups are read from their sections'
                 * pages too. */
                if (!batched && i % 4096 == 4095) {
                    mbx_library_release_pages(lib);
                    mbx_library_forget(lib, i); /* fn is i's */
                }
                if (!batched && fn->module_valid && end > released + RELEASE_BATCH) {
                    mbx_file_release(f, released, end - released);
                    released = end;
                }
            }
            mbx_interface_reader_free(rd);
        }
        if (o.json)
            fputs(first ? "]\n" : "\n]\n", stdout);
        for (int k = 0; k < o.n_names; k++)
            if (!o.found[k]) {
                char *n = cli_escape_str_dup(o.names[k]);
                cli_error(o.path, NULL, "no function named '%s'", n ? n : "?");
                free(n);
                all_ok = false;
            }
        status = cli_complete(o.path, f);
        mbx_close(f);
        if (fflush(stdout) != 0 || ferror(stdout))
            status = 2;
        if (!status && !all_ok)
            status = 1;
    }
    free(batch);
    for (unsigned t = 0; t < threads; t++)
        mbx_read_window_free(wins[t]);
    for (size_t l = 0; o.extra && f_libs && l < f_libs; l++)
        free(o.extra[l]);
    free(o.extra);
    free(o.names);
    free(o.sorted);
    free(o.found);
    return status;
}
