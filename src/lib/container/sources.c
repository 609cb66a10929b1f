/* The embedded source section (-frecord-sources, FORMAT.md §9).
 *
 * At open time only the structure is read (cheap, no decompression): the
 * section located by the HSRC/HSRD header-extension tag, the u32 archive
 * count (u32, not u16: P13), the link command, the working directory (HSRD
 * only, P12) and the archive groups {u32 size excluding itself, SARC, u32
 * length, id C-string, payload, ENDT}. Every read is bounded by the section;
 * every problem becomes a diagnostic and parsing goes on with what is left.
 * Decompression happens on demand in mbx_archive_load() (archive.c).
 */
#include "config.h"
#include "container/cursor.h"
#include "container/file_handle.h"
#include "container/le_read.h"
#include "container/library.h"
#include "container/parse.h"
#include "container/report.h"
#include "container/span.h"
#include "container/tag_walk.h"
#include "container/lower_bound.h"
#include "container/nouns.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define TAG_HSRC FOURCC('H', 'S', 'R', 'C')
#define TAG_HSRD FOURCC('H', 'S', 'R', 'D')
#define TAG_SARC FOURCC('S', 'A', 'R', 'C')

/* Smallest possible archive group: size, SARC, length, a 1-byte id (its
 * NUL), ENDT. Used to bound the archive array by the section size. */
#define MIN_GROUP (4 + 4 + 4 + 1 + 4)

/* Total decompression work allowed per library. A load that fails is
 * charged the whole per-archive cap (a bomb costs that much CPU before it
 * is stopped), a load that succeeds is charged its tar size. This keeps
 * both memory and time bounded when a hostile file holds thousands of
 * bzip2 bombs, while real libraries (a few archives of ~100 KB) never come
 * near it. */
#define SOURCE_BUDGET ((uint64_t)MTLBX_SOURCE_CAP * 4)

/* Per-library private state lives in front of the archive array, in the
 * same allocation, so no field has to be added to the shared structures:
 * a lock serialising loads (the explorer may load from a worker while the
 * command line never does) and the budget used so far. */
struct sources_priv {
    pthread_mutex_t lock;
    uint64_t budget_used;
    struct mtlbx_archive archives[];
};

static struct sources_priv *priv_of(const mtlbx_library *lib)
{
    if (!lib->sources.archives)
        return NULL;
    return (struct sources_priv *)((char *)lib->sources.archives -
                                   offsetof(struct sources_priv, archives));
}

/* A C string starting at pos that must end before `end`. Returns false if
 * there is no NUL in range. */
static bool read_cstring(const uint8_t *data, uint64_t pos, uint64_t end,
                         struct mtlbx_bytes *out, uint64_t *next)
{
    if (pos >= end)
        return false;
    const uint8_t *p = data + pos;
    const uint8_t *nul = memchr(p, 0, (size_t)(end - pos));
    if (!nul)
        return false;
    out->ptr = p;
    out->len = (size_t)(nul - p);
    *next = pos + out->len + 1;
    return true;
}

/* Finds the HSRC/HSRD tag; warns about a second one. */
static const struct mtlbx_tag *find_tag(mtlbx_library *lib)
{
    const struct mtlbx_tag *found = NULL;
    for (size_t i = 0; i < lib->ext.n_tags; i++) {
        const struct mtlbx_tag *t = &lib->ext.tags[i];
        if (t->fourcc != TAG_HSRC && t->fourcc != TAG_HSRD)
            continue;
        if (found)
            lib_warning(lib, t->offset, "second %s tag ignored; the first one locates the sources",
                        t->name);
        else
            found = t;
    }
    return found;
}

/* Reads one archive group at pos. Returns false when the walk cannot go
 * on (no room for a group); otherwise *next is where the next group starts
 * and *have is set if an archive was recorded. */
static bool parse_group(mtlbx_library *lib, const uint8_t *data, uint64_t pos, uint64_t end,
                        struct mtlbx_archive *a, bool *have, uint64_t *next)
{
    *have = false;
    if (!span_within(pos, 4, pos, end)) {
        lib_error(lib, pos, "source archive group size runs past the end of the sources section");
        return false;
    }
    uint32_t gsize = rd32(data + pos);
    uint64_t body = pos + 4;
    uint64_t gend = body + gsize;
    if (gsize < MIN_GROUP - 4 || !span_within(body, gsize, body, end)) {
        lib_error(lib, pos, "source archive group size %u does not fit in the sources section",
                  gsize);
        return false;
    }
    *next = gend;
    uint32_t fourcc = rd32(data + body);
    if (fourcc != TAG_SARC) {
        char name[5];
        tag_fill_name(name, fourcc);
        lib_error(lib, body, "source archive group starts with %s instead of SARC", name);
        return true;
    }
    uint32_t vlen = rd32(data + body + 4);
    uint64_t value = body + 8;
    if (!span_within(value, vlen, value, gend)) {
        lib_error(lib, body + 4, "SARC length %u runs past its group (%u bytes)", vlen, gsize);
        return true;
    }
    uint64_t vend = value + vlen;
    struct mtlbx_bytes id;
    uint64_t payload;
    if (!read_cstring(data, value, vend, &id, &payload)) {
        lib_error(lib, value, "SARC archive id has no NUL inside its value");
        return true;
    }
    if (!span_within(vend, 4, vend, gend) || rd32(data + vend) != TAG_ENDT)
        lib_error(lib, vend, "source archive group has no ENDT after its SARC value");
    else if (vend + 4 != gend)
        lib_error(lib, pos, "source archive group size %u disagrees with its contents (%llu bytes)",
                  gsize, (unsigned long long)(vend + 4 - body));
    memset(a, 0, sizeof *a);
    a->group_offset = pos;
    a->group_size = gsize;
    a->sarc_offset = body;
    a->id = id;
    a->payload.ptr = data + payload;
    a->payload.len = (size_t)(vend - payload);
    a->payload_offset = payload;
    a->state = MTLBX_ARCHIVE_UNLOADED;
    *have = true;
    return true;
}

static long archive_of(const mtlbx_library *lib, const struct mtlbx_function *fn);
static long archive_at(const mtlbx_library *lib, uint64_t soff);

/* Every SOFF must land on the SARC tag of an archive (P14: several
 * functions may share one; some archives have no function). When the
 * few distinct values the function list's pass saw all land, so does
 * every function's, and the functions need not be read again (a pass
 * over 200,000 entries is a third of `ls`); otherwise each function that
 * misses is reported. */
static void check_soff(mtlbx_library *lib)
{
    bool all_land = !lib->soff_many && (lib->sources.present || lib->n_soff_seen == 0);
    for (size_t k = 0; all_land && k < lib->n_soff_seen; k++)
        all_land = archive_at(lib, lib->soff_seen[k]) >= 0;
    if (all_land)
        return;
    struct function_cursor cur = { 0 };
    for (size_t i = 0; i < lib->n_functions; i++) {
        const struct mtlbx_function *fn = function_cursor_at(lib, &cur, i);
        if (!(fn->present & MTLBX_F_SOFF))
            continue;
        if (!lib->sources.present) {
            lib_error(lib, fn->entry_offset, "function %zu has SOFF but the library has no sources section", i);
            continue;
        }
        if (archive_of(lib, fn) < 0)
            lib_error(lib, fn->entry_offset,
                      "function %zu: SOFF %llu points at no source archive", i,
                      (unsigned long long)fn->soff);
    }
    function_cursor_free(&cur);
}

void parse_sources(mtlbx_library *lib)
{
    struct mtlbx_sources *s = &lib->sources;
    memset(s, 0, sizeof *s);
    const struct mtlbx_tag *t = find_tag(lib);
    if (!t) {
        check_soff(lib);
        return;
    }
    s->present = true;
    memcpy(s->tag, t->name, 5);
    bool hsrd = t->fourcc == TAG_HSRD;
    if (t->value_len != 16 || !t->value) {
        lib_error(lib, t->offset, "%s value is %llu bytes, expected 16", t->name,
                  (unsigned long long)t->value_len);
        check_soff(lib);
        return;
    }
    uint64_t rel = rd64(t->value), size = rd64(t->value + 8);
    uint64_t lo = lib->header.base, hi = lib->header.base + lib->header.available;
    if (rel > hi - lo) {
        lib_damaged(lib, t->value_offset, "%s offset %llu lies outside the library", t->name,
                  (unsigned long long)rel);
        check_soff(lib);
        return;
    }
    uint64_t start = lo + rel;
    if (size > hi - start) {
        lib_damaged(lib, t->value_offset + 8, "%s size %llu runs past the end of the library", t->name,
                  (unsigned long long)size);
        size = hi - start;
    }
    s->range.offset = start;
    s->range.size = size;
    uint64_t end = start + size;
    /* The field, not mbx_file_data(): file.c opens libraries, so it sits
     * above this file in the call graph. */
    const uint8_t *data = lib->file->data;

    if (size < 4) {
        lib_error(lib, start, "sources section is too short for its archive count");
        check_soff(lib);
        return;
    }
    s->declared_count = rd32(data + start);
    uint64_t pos = start + 4;
    if (!read_cstring(data, pos, end, &s->link_command, &pos)) {
        lib_error(lib, start + 4, "sources section's link command has no NUL inside the section");
        check_soff(lib);
        return;
    }
    if (hsrd) {
        s->has_working_dir = true;
        if (!read_cstring(data, pos, end, &s->working_dir, &pos)) {
            lib_error(lib, pos, "sources section's working directory has no NUL inside the section");
            s->has_working_dir = false;
            check_soff(lib);
            return;
        }
    }

    /* Never allocate for more groups than the section could hold. */
    uint64_t room = (end - pos) / MIN_GROUP;
    uint64_t want = s->declared_count;
    if (want > room) {
        lib_error(lib, start, "archive count %u cannot fit in the %llu-byte sources section",
                  s->declared_count, (unsigned long long)size);
        want = room;
    }
    struct sources_priv *priv = calloc(1, sizeof *priv + (size_t)want * sizeof priv->archives[0]);
    if (!priv) {
        lib_out_of_memory(lib, start, "out of memory reading the sources section");
        check_soff(lib);
        return;
    }
    pthread_mutex_init(&priv->lock, NULL);
    s->archives = priv->archives;

    uint32_t seen = 0;
    while (seen < s->declared_count && pos < end) {
        if (s->n_archives == want)
            break;
        bool have;
        uint64_t next;
        if (!parse_group(lib, data, pos, end, &s->archives[s->n_archives], &have, &next))
            break;
        seen++;
        if (have)
            s->n_archives++;
        pos = next;
    }
    if (seen < s->declared_count && pos >= end)
        lib_error(lib, end, "sources section ends after %u of %u %s", seen, s->declared_count,
                  mbx_noun(s->declared_count, "archive", "archives"));
    else if (seen == s->declared_count && pos < end)
        lib_warning(lib, pos, "%llu %s after the last source archive", (unsigned long long)(end - pos),
                    mbx_noun(end - pos, "byte", "bytes"));
    check_soff(lib);
}

void free_sources(mtlbx_library *lib)
{
    struct sources_priv *priv = priv_of(lib);
    for (size_t i = 0; i < lib->sources.n_archives; i++)
        source_archive_free(&lib->sources.archives[i]);
    if (priv) {
        pthread_mutex_destroy(&priv->lock);
        free(priv);
    }
    memset(&lib->sources, 0, sizeof lib->sources);
}

const struct mtlbx_sources *mbx_library_sources(const mtlbx_library *lib)
{
    return &lib->sources;
}

enum mtlbx_archive_state mbx_archive_load(mtlbx_library *lib, size_t archive_index)
{
    struct mtlbx_sources *s = &lib->sources;
    if (archive_index >= s->n_archives)
        return MTLBX_ARCHIVE_FAILED;
    struct mtlbx_archive *a = &s->archives[archive_index];
    enum mtlbx_archive_state st = __atomic_load_n(&a->state, __ATOMIC_ACQUIRE);
    if (st != MTLBX_ARCHIVE_UNLOADED)
        return st;
    struct sources_priv *priv = priv_of(lib);
    pthread_mutex_lock(&priv->lock);
    if (a->state == MTLBX_ARCHIVE_UNLOADED) {
        if (priv->budget_used > SOURCE_BUDGET - MTLBX_SOURCE_CAP) {
            lib_error(lib, a->payload_offset,
                      "source archive not loaded: this library's decompression budget (%llu MiB) is used up",
                      (unsigned long long)(SOURCE_BUDGET >> 20));
            __atomic_store_n(&a->state, MTLBX_ARCHIVE_FAILED, __ATOMIC_RELEASE);
        } else {
            /* Decode into a copy so a reader never sees a half-filled
             * archive; publish the state last. */
            struct mtlbx_archive work = *a;
            enum mtlbx_archive_state r = source_archive_decode(lib, &work);
            priv->budget_used += r == MTLBX_ARCHIVE_LOADED ? work.tar_len : MTLBX_SOURCE_CAP;
            work.state = MTLBX_ARCHIVE_UNLOADED;
            *a = work;
            __atomic_store_n(&a->state, r, __ATOMIC_RELEASE);
        }
    }
    st = a->state;
    pthread_mutex_unlock(&priv->lock);
    return st;
}

/* The archive fn's SOFF lands on, or -1. */
static long archive_of(const mtlbx_library *lib, const struct mtlbx_function *fn)
{
    return fn->present & MTLBX_F_SOFF ? archive_at(lib, fn->soff) : -1;
}

struct sarc_key {
    const struct mtlbx_sources *s;
    uint64_t target;
};

static bool sarc_before(const void *ctx, size_t i)
{
    const struct sarc_key *k = ctx;
    return k->s->archives[i].sarc_offset < k->target;
}

/* The archive whose SARC tag a SOFF value points at, or -1. */
static long archive_at(const mtlbx_library *lib, uint64_t soff)
{
    const struct mtlbx_sources *s = &lib->sources;
    if (!s->present || soff > s->range.size)
        return -1;
    /* Groups are walked forward, so SARC offsets are strictly increasing:
     * binary search keeps the check linear-logarithmic for big libraries. */
    struct sarc_key k = { s, s->range.offset + soff };
    size_t i = mtlbx_lower_bound(s->n_archives, sarc_before, &k);
    return i < s->n_archives && s->archives[i].sarc_offset == k.target ? (long)i : -1;
}

long mbx_function_archive(const mtlbx_library *lib, size_t function_index)
{
    if (function_index >= lib->n_functions || !lib->sources.present)
        return -1;
    return archive_of(lib, library_function(lib, function_index));
}
