/* Comparing two libraries (mtlbx diff, the explorer's compare view, and
 * the identical/different answer of CONTRACT.md "Comparing two
 * libraries"). Everything here compares values the parser already decoded;
 * it prints nothing and copies nothing from the files.
 *
 * Cost: functions are matched through a hash table of names and
 * occurrences (compare_names.c), and a pair
 * whose stored HASH is equal is not read any further than its function
 * entry and metadata, so comparing two 20,000-function libraries costs
 * about what listing both does. Where the stored hashes are equal the
 * modules' bytes are still compared (a patched module behind an unchanged
 * HASH is never "identical"): first the two whole files, as cmp does, and
 * only when they differ module by module. Modules are hashed and their
 * interfaces decoded only where the stored hashes or the bytes differ (on
 * a few threads), hashed where the module spans' sizes differ, or
 * everywhere with options.verify. Source archives are decompressed only
 * when their compressed bytes differ. */
#include "config.h"
#include "container/file_handle.h"
#include "container/file_read.h"
#include "container/span.h"
#include "bitcode/interface_reader.h"
#include "checks/hash.h"
#include "checks/requirements.h"
#include "compare/compare.h"
#include "compare/compare_names.h"
#include "compare/compare_scan.h"
#include "container/functions.h"
#include "container/header.h"
#include "container/lower_bound.h"
#include "container/metadata.h"
#include "container/sources.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdbool.h>

static const char *const header_field_names[MTLBX_HF_COUNT] = {
    "requires", "container_version", "platform", "file_type", "stub", "target_os",
    "os_version", "uuid", "header_extension", "dynamic_header", "function_order",
};
static const char *const function_field_names[MTLBX_FF_COUNT] = {
    "hash", "hash_ok", "type", "air_version", "language_version",
    "tags", "constants", "vertex_attributes", "interface", "module_hash",
};

const char *mbx_header_field_name(enum mtlbx_header_field f)
{
    return (unsigned)f < MTLBX_HF_COUNT ? header_field_names[f] : "?";
}

const char *mbx_function_field_name(enum mtlbx_function_field f)
{
    return (unsigned)f < MTLBX_FF_COUNT ? function_field_names[f] : "?";
}

/* ------------------------------------------------------------ header -- */

static bool ext_tags_eq(const struct mtlbx_header_ext *x, const struct mtlbx_header_ext *y)
{
    if (x->present != y->present || x->n_tags != y->n_tags)
        return false;
    for (size_t i = 0; i < x->n_tags; i++)
        if (x->tags[i].fourcc != y->tags[i].fourcc)
            return false;
    return true;
}

static bool dynamic_eq(const struct mtlbx_dynamic_header *x, const struct mtlbx_dynamic_header *y)
{
    if (x->present != y->present)
        return false;
    if (!x->present)
        return true;
    if (x->has_name != y->has_name || (x->has_name && !span_eq(x->name, y->name)) ||
        x->n_linked != y->n_linked)
        return false;
    for (size_t i = 0; i < x->n_linked; i++)
        if (!span_eq(x->linked[i], y->linked[i]))
            return false;
    return true;
}

static unsigned compare_header(const mtlbx_library *a, const mtlbx_library *b)
{
    const struct mtlbx_header *x = mbx_library_header(a), *y = mbx_library_header(b);
    const struct mtlbx_header_ext *ex = mbx_library_header_ext(a), *ey = mbx_library_header_ext(b);
    unsigned d = 0;
    struct mtlbx_requires ra, rb;
    mbx_library_requires(a, &ra);
    mbx_library_requires(b, &rb);
    if (!mbx_requires_equal(&ra, &rb))
        d |= 1u << MTLBX_HF_REQUIRES;
    if (x->major != y->major || x->minor != y->minor || x->patch != y->patch)
        d |= 1u << MTLBX_HF_CONTAINER_VERSION;
    if (x->macos != y->macos)
        d |= 1u << MTLBX_HF_PLATFORM;
    if (x->file_type != y->file_type)
        d |= 1u << MTLBX_HF_FILE_TYPE;
    if (x->stub != y->stub)
        d |= 1u << MTLBX_HF_STUB;
    if (x->platform_byte != y->platform_byte)
        d |= 1u << MTLBX_HF_TARGET_OS;
    if (x->os_major != y->os_major || x->os_minor != y->os_minor || x->os_patch != y->os_patch)
        d |= 1u << MTLBX_HF_OS_VERSION;
    if (ex->has_uuid != ey->has_uuid || (ex->has_uuid && memcmp(ex->uuid, ey->uuid, 16) != 0))
        d |= 1u << MTLBX_HF_UUID;
    if (!ext_tags_eq(ex, ey))
        d |= 1u << MTLBX_HF_HEADER_EXTENSION;
    if (!dynamic_eq(mbx_library_dynamic_header(a), mbx_library_dynamic_header(b)))
        d |= 1u << MTLBX_HF_DYNAMIC_HEADER;
    return d;
}

/* ---------------------------------------------------------- functions -- */

static struct mtlbx_bytes entry_bytes(const mtlbx_library *lib, const struct mtlbx_function *fn)
{
    const mtlbx_file *f = mbx_library_file(lib);
    uint64_t size = mbx_file_size(f);
    uint64_t len = fn->entry_size;
    if (fn->entry_offset > size || len > size - fn->entry_offset)
        len = fn->entry_offset > size ? 0 : size - fn->entry_offset;
    return (struct mtlbx_bytes){ mbx_file_data(f) + fn->entry_offset, (size_t)len };
}

/* The tags of an entry in order, by FourCC: OFFT's value (offsets that
 * shift when another module grows) does not count, only its presence. */
static bool tags_eq(const mtlbx_library *a, const struct mtlbx_function *x, const mtlbx_library *b,
                    const struct mtlbx_function *y)
{
    struct mtlbx_tag_walk wx, wy;
    struct mtlbx_tag tx, ty;
    mbx_tag_walk_init(&wx, mbx_library_file(a), x->entry_offset + 4, x->entry_size > 4 ? x->entry_size - 4 : 0);
    mbx_tag_walk_init(&wy, mbx_library_file(b), y->entry_offset + 4, y->entry_size > 4 ? y->entry_size - 4 : 0);
    for (;;) {
        bool hx = mbx_tag_walk_next(&wx, &tx), hy = mbx_tag_walk_next(&wy, &ty);
        if (hx != hy)
            return false;
        if (!hx)
            return true;
        if (tx.fourcc != ty.fourcc)
            return false;
    }
}

static bool constants_eq(const struct mtlbx_metadata *x, const struct mtlbx_metadata *y)
{
    if (x->n_constants != y->n_constants)
        return false;
    for (size_t i = 0; i < x->n_constants; i++) {
        const struct mtlbx_constant *p = &x->constants[i], *q = &y->constants[i];
        if (!span_eq(p->name, q->name) || p->type != q->type || p->index != q->index || p->active != q->active)
            return false;
    }
    return true;
}

static bool attributes_eq(const struct mtlbx_metadata *x, const struct mtlbx_metadata *y)
{
    if (x->n_attributes != y->n_attributes)
        return false;
    for (size_t i = 0; i < x->n_attributes; i++) {
        const struct mtlbx_vertex_attr *p = &x->attributes[i], *q = &y->attributes[i];
        if (!span_eq(p->name, q->name) || p->index != q->index || p->use != q->use || p->active != q->active ||
            p->has_type != q->has_type || (p->has_type && p->type != q->type))
            return false;
    }
    return true;
}

/* Interfaces are decoded only here, for pairs whose modules differ, and
 * compared only when both decode (a module that is not bitcode, or is
 * damaged, has no interface to compare). */
static bool interfaces_differ(mtlbx_interface_reader *ra, const mtlbx_library *a, size_t i,
                              mtlbx_interface_reader *rb, const mtlbx_library *b, size_t j)
{
    struct mtlbx_interface *x = mbx_interface_read(ra, a, i, NULL, NULL);
    struct mtlbx_interface *y = x && !x->module.failed ? mbx_interface_read(rb, b, j, NULL, NULL) : NULL;
    bool differ = false;
    struct mtlbx_interface_diff d;
    if (y && !y->module.failed && mbx_interface_compare(x, y, &d)) {
        differ = d.stage_changed || d.n_changes;
        mbx_interface_diff_free(&d);
    }
    mbx_interface_free(x);
    mbx_interface_free(y);
    return differ;
}

/* ------------------------------------------------------ module bytes -- */

/* Bytes compared per step: big enough for few system calls, small enough
 * to stay in the CPU's cache (cmp reads the same way). */
#define COMPARE_WINDOW ((size_t)1 << 20)

/* What the byte comparisons of one diff share. Mapped files are compared
 * through pread into two buffers, as cmp does: touching the mappings
 * instead costs a page fault every few pages and keeps every page it
 * touched (660 MB for two 330 MB libraries); this way memory stays flat.
 * Then whether the two files are the same bytes (so a module at the same
 * offset on both sides is too), and the last pair of spans compared (many
 * functions may point at one module: it is compared once). */
struct bytes_memo {
    const mtlbx_file *a, *b;
    bool tried;                /* the descriptors were asked for */
    int fa, fb;                /* -1: compare the memory instead */
    uint8_t *buf;              /* 2 * COMPARE_WINDOW: a's window, then b's */
    /* What the windows hold: modules lie one after another, so most are
     * compared from windows read for an earlier one (a pread or two per
     * megabyte, not per module). */
    uint64_t win_a, win_b;
    size_t have_a, have_b;
    bool files_identical;
    /* Both files read at once on a thread (large files): what it found
     * answers for modules at the same offset on both sides. */
    struct byte_scan *scan;
    bool have_last, last_equal;
    uint64_t last_a, last_b, last_size;
};

static void memo_close(struct bytes_memo *m)
{
    byte_scan_stop(m->scan);
    m->scan = NULL;
    if (m->fa >= 0)
        close(m->fa);
    if (m->fb >= 0)
        close(m->fb);
    free(m->buf);
    m->fa = m->fb = -1;
    m->buf = NULL;
}

/* Makes the window of fd hold the n bytes at off (n <= COMPARE_WINDOW);
 * false when the file ends before them. */
static bool window(int fd, uint8_t *buf, uint64_t *at, size_t *have, uint64_t off, size_t n)
{
    if (off >= *at && off - *at <= *have && n <= *have - (off - *at))
        return true;
    ssize_t got = file_pread(fd, buf, COMPARE_WINDOW, off);
    *at = off;
    *have = got > 0 ? (size_t)got : 0;
    return *have >= n;
}

/* Through the descriptors: -1 when they are not there or a read came up
 * short (the file shrank: the memory decides), else 0 or 1. */
static int read_equal(struct bytes_memo *m, uint64_t oa, uint64_t ob, uint64_t len)
{
    if (!m->tried) {
        m->tried = true;
        m->fa = file_reopen(m->a);
        m->fb = file_reopen(m->b);
        m->buf = malloc(2 * COMPARE_WINDOW);
        if (m->fa < 0 || m->fb < 0 || !m->buf)
            memo_close(m);
    }
    if (m->fa < 0)
        return -1;
    uint8_t *x = m->buf, *y = m->buf + COMPARE_WINDOW;
    for (uint64_t done = 0; done < len;) {
        size_t n = len - done < COMPARE_WINDOW ? (size_t)(len - done) : COMPARE_WINDOW;
        if (!window(m->fa, x, &m->win_a, &m->have_a, oa + done, n) ||
            !window(m->fb, y, &m->win_b, &m->have_b, ob + done, n))
            return -1;
        if (memcmp(x + (oa + done - m->win_a), y + (ob + done - m->win_b), n) != 0)
            return 0;
        done += n;
    }
    return 1;
}

/* Whether len bytes at oa of file a equal those at ob of file b. */
static bool bytes_equal(struct bytes_memo *m, uint64_t oa, uint64_t ob, uint64_t len)
{
    int eq = read_equal(m, oa, ob, len);
    if (eq >= 0)
        return eq == 1;
    return memcmp(m->a->data + oa, m->b->data + ob, (size_t)len) == 0;
}

/* The modules of x (in a) and y (in b), both valid and of one size. */
static bool modules_equal(struct bytes_memo *m, const struct mtlbx_function *x, const struct mtlbx_function *y)
{
    uint64_t oa = x->module.offset, ob = y->module.offset, size = x->module.size;
    if (m->files_identical && oa == ob)
        return true;
    if (m->scan && oa == ob) {
        int eq = byte_scan_equal(m->scan, oa, size);
        if (eq >= 0)
            return eq == 1;
    }
    if (m->have_last && m->last_a == oa && m->last_b == ob && m->last_size == size)
        return m->last_equal;
    if (oa > m->a->size || size > m->a->size - oa || ob > m->b->size || size > m->b->size - ob)
        return true;               /* cannot be read: the diagnostics say so */
    m->have_last = true;
    m->last_a = oa, m->last_b = ob, m->last_size = size;
    m->last_equal = bytes_equal(m, oa, ob, size);
    return m->last_equal;
}

static bool hash_ok(mtlbx_library *lib, size_t i)
{
    return mbx_function_verify(lib, i, NULL) == MTLBX_HASH_MATCHES;
}

/* The MTLBX_FF_* bits in which function i of a and j of b differ. */
static unsigned compare_function(mtlbx_library *a, size_t i, mtlbx_library *b, size_t j, bool verify,
                                 struct bytes_memo *memo)
{
    const struct mtlbx_function *x = mbx_function_at(a, i), *y = mbx_function_at(b, j);
    unsigned d = 0;
    bool same_hash = (x->hash == NULL) == (y->hash == NULL) && (!x->hash || memcmp(x->hash, y->hash, 32) == 0);
    if (!same_hash)
        d |= 1u << MTLBX_FF_HASH;
    /* Byte-identical entries (an unchanged function when no module before
     * it changed size, so OFFT is the same too) have the same type,
     * versions and tags; anything else is compared field by field. */
    if (!span_eq(entry_bytes(a, x), entry_bytes(b, y))) {
        if ((x->present & MTLBX_F_TYPE) != (y->present & MTLBX_F_TYPE) ||
            ((x->present & MTLBX_F_TYPE) && x->type != y->type))
            d |= 1u << MTLBX_FF_TYPE;
        bool vx = x->present & MTLBX_F_VERS, vy = y->present & MTLBX_F_VERS;
        if (vx != vy || (vx && (x->air_major != y->air_major || x->air_minor != y->air_minor)))
            d |= 1u << MTLBX_FF_AIR_VERSION;
        if (vx != vy || (vx && (x->msl_major != y->msl_major || x->msl_minor != y->msl_minor)))
            d |= 1u << MTLBX_FF_LANGUAGE_VERSION;
        if (!tags_eq(a, x, b, y))
            d |= 1u << MTLBX_FF_TAGS;
    }
    const struct mtlbx_metadata *mx = mbx_function_metadata(a, i), *my = mbx_function_metadata(b, j);
    if (!constants_eq(mx, my))
        d |= 1u << MTLBX_FF_CONSTANTS;
    if (!attributes_eq(mx, my))
        d |= 1u << MTLBX_FF_VERTEX_ATTRIBUTES;
    /* With verify both libraries were hashed already, so this reads the
     * cached states; without it, pairs whose module spans differ in size
     * or presence are hashed here (a cut file: then the equal stored hash
     * cannot hold on both sides). Where the spans agree, the bytes are
     * compared: bytes that differ behind an equal stored HASH are a
     * module_hash change. Pairs whose stored hashes or bytes differ are
     * hashed, and their interfaces compared, by compare_modules(). */
    bool spans_differ = x->module_valid != y->module_valid || x->module.size != y->module.size;
    if (same_hash && !spans_differ && x->module_valid && !modules_equal(memo, x, y))
        d |= 1u << MTLBX_FF_MODULE_HASH;
    else if (same_hash && (verify || spans_differ) && hash_ok(a, i) != hash_ok(b, j))
        d |= 1u << MTLBX_FF_HASH_OK;
    return d;
}

/* ------------------------------------------------- changed modules -- */

/* The pairs whose stored hashes differ, or whose bytes differ behind equal
 * ones (already in d->changed with the hash or module_hash bit): their
 * hash_ok and interfaces, which read the modules. The
 * library is read-only here and both calls are thread-safe, so the pairs
 * are shared out among a few threads; each writes only its own entries. */
struct module_job {
    struct mtlbx_library_diff *d;
    mtlbx_interface_reader *ra, *rb;  /* a module shared by several functions: read once */
    atomic_size_t next;
};

static void compare_module_pair(struct module_job *job, struct mtlbx_function_change *c)
{
    struct mtlbx_library_diff *d = job->d;
    if (!(c->fields & ((1u << MTLBX_FF_HASH) | (1u << MTLBX_FF_MODULE_HASH))))
        return;
    /* Bytes changed behind an equal HASH say so as hash_ok when that
     * changed (true -> false: the usual patched module), else as the
     * hash the bytes have now (both sides damaged, differently). */
    if (hash_ok(d->a, c->a) != hash_ok(d->b, c->b))
        c->fields = (c->fields & ~(1u << MTLBX_FF_MODULE_HASH)) | 1u << MTLBX_FF_HASH_OK;
    if (interfaces_differ(job->ra, d->a, c->a, job->rb, d->b, c->b))
        c->fields |= 1u << MTLBX_FF_INTERFACE;
}

/* Pairs handed to a thread at a time: consecutive ones, whose entries
 * mostly lie in the chunk of entries the thread decoded for the last pair
 * (library_function), not every other pair as one at a time would give. */
#define MODULE_RUN 8

static void *module_worker(void *arg)
{
    struct module_job *job = arg;
    for (;;) {
        size_t first = atomic_fetch_add(&job->next, MODULE_RUN);
        if (first >= job->d->n_changed)
            return NULL;
        for (size_t k = first; k < first + MODULE_RUN && k < job->d->n_changed; k++)
            compare_module_pair(job, &job->d->changed[k]);
    }
}

#define MODULE_THREADS_MAX 4

static void compare_modules(struct mtlbx_library_diff *d)
{
    struct module_job job = { .d = d };
    atomic_init(&job.next, 0);
    if (d->n_changed) {
        job.ra = mbx_interface_reader_new(d->a);
        job.rb = mbx_interface_reader_new(d->b);
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t want = cpus > 1 ? (size_t)cpus : 1;
    if (want > MODULE_THREADS_MAX)
        want = MODULE_THREADS_MAX;
    if (want > d->n_changed / 16 + 1)     /* a few pairs: not worth a thread */
        want = d->n_changed / 16 + 1;
    pthread_t tid[MODULE_THREADS_MAX];
    size_t started = 0;
    for (size_t t = 1; t < want; t++)
        if (pthread_create(&tid[started], NULL, module_worker, &job) == 0)
            started++;
    module_worker(&job);                  /* this thread works too */
    for (size_t t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    mbx_interface_reader_free(job.ra);
    mbx_interface_reader_free(job.rb);
}

/* ------------------------------------------------------------ sorting -- */

/* qsort has no context argument: the library whose names are sorted. */
static _Thread_local const mtlbx_library *sort_lib;

/* An index and the occurrence of its name, sorted by name, then index
 * (which, within one name, is the occurrence's order). */
struct indexed {
    size_t i;
    uint32_t occurrence;
};

static int by_name_then_index(const void *p, const void *q)
{
    const struct indexed *x = p, *y = q;
    int c = span_cmp(mbx_function_at(sort_lib, x->i)->name, mbx_function_at(sort_lib, y->i)->name);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

static int change_by_name(const void *p, const void *q)
{
    const struct mtlbx_function_change *x = p, *y = q;
    int c = span_cmp(mbx_function_at(sort_lib, x->a)->name, mbx_function_at(sort_lib, y->a)->name);
    return c ? c : (x->a > y->a) - (x->a < y->a);
}

/* Sorts v and its parallel occurrences; false when out of memory. */
static bool sort_indexes(size_t *v, uint32_t *occurrence, size_t n, const mtlbx_library *lib)
{
    if (n < 2)
        return true;
    struct indexed *t = malloc(n * sizeof *t);
    if (!t)
        return false;
    for (size_t k = 0; k < n; k++)
        t[k] = (struct indexed){ v[k], occurrence[k] };
    sort_lib = lib;
    qsort(t, n, sizeof *t, by_name_then_index);
    for (size_t k = 0; k < n; k++)
        v[k] = t[k].i, occurrence[k] = t[k].occurrence;
    free(t);
    return true;
}

/* Pairs each removed function with an added one of the same stored HASH
 * (the first such, each used once): a renamed or moved function, not a
 * removal and an addition. Quadratic in the two lists only through a sort. */
static const uint8_t *const *hash_sort_base;

static int by_hash(const void *p, const void *q)
{
    const uint8_t *x = hash_sort_base[*(const size_t *)p], *y = hash_sort_base[*(const size_t *)q];
    int c = memcmp(x, y, 32);
    return c ? c : (*(const size_t *)p > *(const size_t *)q) - (*(const size_t *)p < *(const size_t *)q);
}

struct hash_key {
    const uint8_t *const *hb;
    const size_t *order;
    const uint8_t *h;
};

static bool hash_before(const void *ctx, size_t i)
{
    const struct hash_key *k = ctx;
    return memcmp(k->hb[k->order[i]], k->h, 32) < 0;
}

static bool pair_renamed_functions(struct mtlbx_library_diff *d)
{
    if (!d->n_added || !d->n_removed)
        return true;
    size_t nb = mbx_library_function_count(d->b);
    const uint8_t **hb = calloc(nb, sizeof *hb);
    uint32_t *occurrence_b = malloc(nb * sizeof *occurrence_b);
    size_t *order = malloc(d->n_added * sizeof *order);
    /* taken[r]: how many of the run of one hash starting at order[r] are
     * paired; they are always its first ones, so the next is found at
     * once, not by stepping over those taken (quadratic when thousands of
     * functions share one module). */
    size_t *taken = calloc(d->n_added, sizeof *taken);
    d->renamed = malloc(d->n_removed * sizeof *d->renamed);
    if (!hb || !occurrence_b || !order || !taken || !d->renamed) {
        free(hb), free(occurrence_b), free(order), free(taken);
        return false;
    }
    size_t n_order = 0;
    for (size_t k = 0; k < d->n_added; k++) {
        const uint8_t *h = mbx_function_at(d->b, d->added[k])->hash;
        occurrence_b[d->added[k]] = d->added_occurrence[k];
        if (h) {
            hb[d->added[k]] = h;
            order[n_order++] = d->added[k];
        }
    }
    /* order: the added functions with a hash, sorted by it (then index). */
    hash_sort_base = hb;
    qsort(order, n_order, sizeof *order, by_hash);
    size_t kept = 0;
    for (size_t k = 0; k < d->n_removed; k++) {
        size_t i = d->removed[k];
        const uint8_t *h = mbx_function_at(d->a, i)->hash;
        long run = -1; /* the first of that hash */
        if (h) {
            struct hash_key key = { hb, order, h };
            size_t lo = mtlbx_lower_bound(n_order, hash_before, &key);
            run = lo < n_order && memcmp(hb[order[lo]], h, 32) == 0 ? (long)lo : -1;
        }
        size_t found = run >= 0 ? (size_t)run + taken[run] : n_order;
        if (found < n_order && memcmp(hb[order[found]], h, 32) == 0) {
            taken[run]++;
            d->renamed[d->n_renamed++] = (struct mtlbx_function_change){ i, order[found], 0, d->removed_occurrence[k],
                                                                         occurrence_b[order[found]] };
        } else {
            d->removed_occurrence[kept] = d->removed_occurrence[k];
            d->removed[kept++] = i;
        }
    }
    d->n_removed = kept;
    for (size_t r = 0; r < d->n_renamed; r++)
        hb[d->renamed[r].b] = NULL;          /* taken: no longer added */
    kept = 0;
    for (size_t k = 0; k < d->n_added; k++)
        if (hb[d->added[k]] || !mbx_function_at(d->b, d->added[k])->hash) {
            d->added_occurrence[kept] = d->added_occurrence[k];
            d->added[kept++] = d->added[k];
        }
    d->n_added = kept;
    free(hb);
    free(occurrence_b);
    free(order);
    free(taken);
    return true;
}

static bool compare_functions(struct mtlbx_library_diff *d, bool verify, struct bytes_memo *memo)
{
    struct name_index ib = { 0 };
    struct name_counter count = { 0 };
    size_t na = d->a ? mbx_library_function_count(d->a) : 0, nb = d->b ? mbx_library_function_count(d->b) : 0;
    bool *paired = calloc(nb ? nb : 1, sizeof *paired);
    bool ok = paired && name_index_build(&ib, d->b) && name_counter_init(&count, d->a) &&
              (d->removed = malloc((na ? na : 1) * sizeof *d->removed)) &&
              (d->removed_occurrence = malloc((na ? na : 1) * sizeof *d->removed_occurrence)) &&
              (d->added = malloc((nb ? nb : 1) * sizeof *d->added)) &&
              (d->added_occurrence = malloc((nb ? nb : 1) * sizeof *d->added_occurrence)) &&
              (d->changed = malloc((na ? na : 1) * sizeof *d->changed));
    /* The k-th function of a name in A with the k-th of that name in B. */
    for (size_t i = 0; ok && i < na; i++) {
        uint32_t k = name_counter_next(&count, i);
        long j = name_index_find(&ib, mbx_function_at(d->a, i)->name, k);
        if (j < 0) {
            d->removed_occurrence[d->n_removed] = k;
            d->removed[d->n_removed++] = i;
            continue;
        }
        paired[j] = true;
        unsigned fields = compare_function(d->a, i, d->b, (size_t)j, verify, memo);
        if (fields)
            d->changed[d->n_changed++] = (struct mtlbx_function_change){ i, (size_t)j, fields, k, k };
        /* a is read in order, b in the order of a's names (the same, in
         * two builds of one library): what is asked for again after b's
         * entries are let go is decoded again. */
        if (i % 4096 == 4095) {
            compare_forget_behind(d->a, i + 1);
            compare_forget_behind(d->b, nb);
        }
    }
    name_counter_free(&count);
    name_index_free(&ib);
    /* What B has beyond: every function no pair took, with the occurrence
     * of its name in B. */
    ok = ok && name_counter_init(&count, d->b);
    for (size_t j = 0; ok && j < nb; j++) {
        uint32_t k = name_counter_next(&count, j);
        if (!paired[j]) {
            d->added_occurrence[d->n_added] = k;
            d->added[d->n_added++] = j;
        }
        if (j % 4096 == 4095)
            compare_forget_behind(d->b, j + 1);
    }
    name_counter_free(&count);
    free(paired);
    if (!ok || !pair_renamed_functions(d))
        return false;
    compare_modules(d);
    if (!sort_indexes(d->removed, d->removed_occurrence, d->n_removed, d->a) ||
        !sort_indexes(d->added, d->added_occurrence, d->n_added, d->b))
        return false;
    sort_lib = d->a;
    if (d->n_changed > 1)
        qsort(d->changed, d->n_changed, sizeof *d->changed, change_by_name);
    if (d->n_renamed > 1)
        qsort(d->renamed, d->n_renamed, sizeof *d->renamed, change_by_name);
    return true;
}

/* ------------------------------------------------------------ sources -- */

static const struct mtlbx_member *member_at(const mtlbx_library *lib, struct mtlbx_member_ref r)
{
    return &mbx_library_sources(lib)->archives[r.archive].members[r.member];
}

static struct mtlbx_bytes member_name(const mtlbx_library *lib, struct mtlbx_member_ref r)
{
    const char *s = member_at(lib, r)->name;
    return (struct mtlbx_bytes){ (const uint8_t *)s, strlen(s) };
}

static bool members_eq(const struct mtlbx_member *x, const struct mtlbx_member *y)
{
    if (x->type != y->type || x->size != y->size)
        return false;
    if ((x->link_target == NULL) != (y->link_target == NULL) ||
        (x->link_target && strcmp(x->link_target, y->link_target) != 0))
        return false;
    return !x->data || !y->data || x->size == 0 || memcmp(x->data, y->data, (size_t)x->size) == 0;
}

/* Every member of every archive of lib, in order; archives that do not
 * decode are skipped and reported through *incomplete. */
static struct mtlbx_member_ref *all_members(mtlbx_library *lib, size_t *n, bool *incomplete)
{
    *n = 0;
    const struct mtlbx_sources *src = lib ? mbx_library_sources(lib) : NULL;
    if (!src || !src->present)
        return calloc(1, sizeof(struct mtlbx_member_ref));
    size_t total = 0;
    for (size_t k = 0; k < src->n_archives; k++) {
        if (mbx_archive_load(lib, k) != MTLBX_ARCHIVE_LOADED)
            *incomplete = true;
        else
            total += src->archives[k].n_members;
    }
    struct mtlbx_member_ref *v = malloc((total ? total : 1) * sizeof *v);
    if (!v)
        return NULL;
    for (size_t k = 0; k < src->n_archives; k++)
        if (src->archives[k].state == MTLBX_ARCHIVE_LOADED)
            for (size_t m = 0; m < src->archives[k].n_members; m++)
                v[(*n)++] = (struct mtlbx_member_ref){ k, m };
    return v;
}

/* By name, then archive and member: within one name, the order of its
 * occurrences. */
static int member_by_name(const void *p, const void *q)
{
    const struct mtlbx_member_ref *x = p, *y = q;
    int c = span_cmp(member_name(sort_lib, *x), member_name(sort_lib, *y));
    if (c)
        return c;
    if (x->archive != y->archive)
        return x->archive < y->archive ? -1 : 1;
    return (x->member > y->member) - (x->member < y->member);
}

/* Same archives, byte for byte: then the members are the same too. */
/* GPU slices paired by their place among the fat slices that differ (CPU
 * type or bytes), or stand there on one side only: a binary archive's
 * code changed, or moved, behind unchanged AIR is still a change. */
static size_t gpu_slices_changed(const mtlbx_file *a, const mtlbx_file *b)
{
    size_t na = mbx_fat_slice_count(a), nb = mbx_fat_slice_count(b), changed = 0;
    for (size_t i = 0; i < na || i < nb; i++) {
        const struct mtlbx_gpu_slice *x = mbx_gpu_slice_of(a, i), *y = mbx_gpu_slice_of(b, i);
        if (!x && !y)
            continue;
        changed += !x || !y || x->cputype != y->cputype || x->cpusubtype != y->cpusubtype || x->size != y->size ||
                   memcmp(mbx_file_data(a) + x->offset, mbx_file_data(b) + y->offset, x->size) != 0;
    }
    return changed;
}

static bool archives_identical(const mtlbx_library *a, const mtlbx_library *b)
{
    const struct mtlbx_sources *x = a ? mbx_library_sources(a) : NULL, *y = b ? mbx_library_sources(b) : NULL;
    bool px = x && x->present, py = y && y->present;
    if (!px || !py)
        return !px && !py;
    if (x->n_archives != y->n_archives)
        return false;
    for (size_t k = 0; k < x->n_archives; k++)
        if (!span_eq(x->archives[k].payload, y->archives[k].payload))
            return false;
    return true;
}

/* A removed member whose bytes are those of an added one (same type and
 * size, equal content): renamed or moved, not a removal and an addition.
 * Members are few; the pairs are found by comparing sizes first. */
static bool pair_renamed_members(struct mtlbx_library_diff *d)
{
    /* Pairwise: a hostile archive of many members is left as it is. */
    if (!d->n_members_added || !d->n_members_removed || d->n_members_added > 100000 / d->n_members_removed)
        return true;
    if (!(d->members_renamed = malloc(d->n_members_removed * sizeof *d->members_renamed)))
        return false;
    bool *used = calloc(d->n_members_added, sizeof *used);
    if (!used)
        return false;
    size_t kept = 0;
    for (size_t k = 0; k < d->n_members_removed; k++) {
        const struct mtlbx_member *x = member_at(d->a, d->members_removed[k]);
        size_t found = d->n_members_added;
        for (size_t j = 0; j < d->n_members_added && found == d->n_members_added; j++) {
            const struct mtlbx_member *y = member_at(d->b, d->members_added[j]);
            if (!used[j] && x->data && y->data && x->size && members_eq(x, y))
                found = j;
        }
        if (found < d->n_members_added) {
            used[found] = true;
            d->members_renamed[d->n_members_renamed++] = (struct mtlbx_member_change){
                d->members_removed[k], d->members_added[found], d->members_removed_occurrence[k],
                d->members_added_occurrence[found] };
        } else {
            d->members_removed_occurrence[kept] = d->members_removed_occurrence[k];
            d->members_removed[kept++] = d->members_removed[k];
        }
    }
    d->n_members_removed = kept;
    kept = 0;
    for (size_t j = 0; j < d->n_members_added; j++)
        if (!used[j]) {
            d->members_added_occurrence[kept] = d->members_added_occurrence[j];
            d->members_added[kept++] = d->members_added[j];
        }
    d->n_members_added = kept;
    free(used);
    return true;
}

/* Sorted by name, then a merge walk: the members of one name on each
 * side are paired in order (the k-th with the k-th), and those one side
 * has beyond the other's are added or removed. */
static bool compare_sources(struct mtlbx_library_diff *d)
{
    if (archives_identical(d->a, d->b))
        return true;
    size_t na, nb;
    struct mtlbx_member_ref *ma = all_members(d->a, &na, &d->sources_incomplete);
    struct mtlbx_member_ref *mb = all_members(d->b, &nb, &d->sources_incomplete);
    bool ok = ma && mb && (d->members_removed = malloc((na ? na : 1) * sizeof *ma)) &&
              (d->members_removed_occurrence = malloc((na ? na : 1) * sizeof *d->members_removed_occurrence)) &&
              (d->members_added = malloc((nb ? nb : 1) * sizeof *mb)) &&
              (d->members_added_occurrence = malloc((nb ? nb : 1) * sizeof *d->members_added_occurrence)) &&
              (d->members_changed = malloc((na ? na : 1) * sizeof *d->members_changed));
    if (ok) {
        sort_lib = d->a;
        if (na > 1)
            qsort(ma, na, sizeof *ma, member_by_name);
        sort_lib = d->b;
        if (nb > 1)
            qsort(mb, nb, sizeof *mb, member_by_name);
        size_t i = 0, j = 0;
        while (i < na || j < nb) {
            int c = i == na ? 1 : j == nb ? -1 : span_cmp(member_name(d->a, ma[i]), member_name(d->b, mb[j]));
            /* The runs of this name on each side (empty on the side without it). */
            struct mtlbx_bytes name = c <= 0 ? member_name(d->a, ma[i]) : member_name(d->b, mb[j]);
            size_t ei = i, ej = j;
            if (c <= 0)
                while (++ei < na && span_eq(member_name(d->a, ma[ei]), name))
                    ;
            if (c >= 0)
                while (++ej < nb && span_eq(member_name(d->b, mb[ej]), name))
                    ;
            for (uint32_t k = 1; i < ei || j < ej; k++) {
                if (i < ei && j < ej) {
                    if (!members_eq(member_at(d->a, ma[i]), member_at(d->b, mb[j])))
                        d->members_changed[d->n_members_changed++] = (struct mtlbx_member_change){ ma[i], mb[j], k, k };
                    i++, j++;
                } else if (i < ei) {
                    d->members_removed_occurrence[d->n_members_removed] = k;
                    d->members_removed[d->n_members_removed++] = ma[i++];
                } else {
                    d->members_added_occurrence[d->n_members_added] = k;
                    d->members_added[d->n_members_added++] = mb[j++];
                }
            }
        }
    }
    free(ma);
    free(mb);
    return ok && pair_renamed_members(d);
}

/* How many members the loaded archives of lib hold. */
static size_t member_count(mtlbx_library *lib)
{
    const struct mtlbx_sources *src = lib ? mbx_library_sources(lib) : NULL;
    size_t n = 0;
    for (size_t k = 0; src && src->present && k < src->n_archives; k++)
        if (src->archives[k].state == MTLBX_ARCHIVE_LOADED)
            n += src->archives[k].n_members;
    return n;
}

/* ------------------------------------------------------ function order -- */

/* The same functions (nothing added or removed) in another order: the
 * file's bytes differ, and Metal's newFunctionWithName does not care, but
 * an index into the list (the explorer's, a tool's) does; CONTRACT.md
 * makes it a header-level change of its own. */
static bool order_differs(const mtlbx_library *a, const mtlbx_library *b)
{
    size_t n = mbx_library_function_count(a);
    if (n != mbx_library_function_count(b))
        return false;
    for (size_t i = 0; i < n; i++) {
        struct mtlbx_bytes x = mbx_function_peek(a, i)->name;
        /* peek's pointer lasts until the next peek of another chunk */
        const struct mtlbx_function *y = mbx_function_peek(b, i);
        if (!span_eq(x, y->name))
            return true;
    }
    return false;
}

/* ------------------------------------------------------------ results -- */

/* Nothing differs: no list holds anything, every archive whose bytes
 * differ was decoded and compared, and (which the lists imply, checked
 * again so that "identical" never rests on a pairing alone) both sides
 * have as many functions and as many source members. */
static bool library_is_empty(const struct mtlbx_library_diff *d)
{
    return d->a && d->b && !d->header_fields && !d->n_added && !d->n_removed && !d->n_changed && !d->n_renamed &&
           !d->n_members_added && !d->n_members_removed && !d->n_members_changed && !d->n_members_renamed &&
           !d->sources_incomplete &&
           mbx_library_function_count(d->a) == mbx_library_function_count(d->b) &&
           (archives_identical(d->a, d->b) || member_count(d->a) == member_count(d->b));
}

int mbx_diff_files(mtlbx_file *a, mtlbx_file *b, const struct mtlbx_diff_options *opt,
                     struct mtlbx_diff **out)
{
    bool verify = opt && opt->verify;
    size_t la = mbx_file_library_count(a), lb = mbx_file_library_count(b);
    struct mtlbx_diff *d = calloc(1, sizeof *d);
    *out = NULL;
    if (!d)
        return MTLBX_E_NOMEM;
    d->n_libraries = la > lb ? la : lb;
    d->libraries = calloc(d->n_libraries ? d->n_libraries : 1, sizeof *d->libraries);
    if (!d->libraries) {
        free(d);
        return MTLBX_E_NOMEM;
    }
    d->identical = true;
    /* One pass over both files, as cmp makes: a byte-identical copy needs
     * no module compared on its own. */
    struct bytes_memo memo = { .a = a, .b = b, .fa = -1, .fb = -1 };
    memo.scan = byte_scan_start(a, b);
    memo.files_identical = !memo.scan && a->size == b->size && bytes_equal(&memo, 0, 0, a->size);
    for (size_t l = 0; l < d->n_libraries; l++) {
        struct mtlbx_library_diff *ld = &d->libraries[l];
        ld->index = l;
        ld->a = l < la ? mbx_library_at(a, l) : NULL;
        ld->b = l < lb ? mbx_library_at(b, l) : NULL;
        if (verify) {
            if (ld->a)
                mbx_library_verify_all(ld->a, 0);
            if (ld->b)
                mbx_library_verify_all(ld->b, 0);
        }
        if (ld->a && ld->b)
            ld->header_fields = compare_header(ld->a, ld->b);
        if (!compare_functions(ld, verify, &memo) || !compare_sources(ld)) {
            memo_close(&memo);
            mbx_diff_free(d);
            return MTLBX_E_NOMEM;
        }
        if (ld->a && ld->b && !ld->n_added && !ld->n_removed && !ld->n_renamed && order_differs(ld->a, ld->b))
            ld->header_fields |= 1u << MTLBX_HF_FUNCTION_ORDER;
        if (!library_is_empty(ld))
            d->identical = false;
    }
    d->gpu_slices_changed = gpu_slices_changed(a, b);
    if (d->gpu_slices_changed)
        d->identical = false;
    memo_close(&memo);
    *out = d;
    return MTLBX_E_NONE;
}

void mbx_diff_free(struct mtlbx_diff *d)
{
    if (!d)
        return;
    for (size_t l = 0; l < d->n_libraries; l++) {
        struct mtlbx_library_diff *ld = &d->libraries[l];
        free(ld->added);
        free(ld->removed);
        free(ld->added_occurrence);
        free(ld->removed_occurrence);
        free(ld->members_added_occurrence);
        free(ld->members_removed_occurrence);
        free(ld->changed);
        free(ld->members_added);
        free(ld->members_removed);
        free(ld->members_changed);
        free(ld->renamed);
        free(ld->members_renamed);
    }
    free(d->libraries);
    free(d);
}
