/* Metallibs in Mach-O sections, handed out as members (macho_members.h).
 * The reading is src/lib's (mtlbx_macho_*); here are the sources it reads
 * from (a file by pread, an archive member as libarchive decompresses it,
 * a buffer) and the naming of what it finds. */
#include "config.h"

#include "macho_members.h"
#include "member_reader.h"

#include "container/archive_dl.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool mbx_macho_content(const uint8_t *head, size_t n)
{
    return mbx_macho_magic(head, n);
}

const struct mtlbx_macho_slice *mbx_member_macho_slice(const struct member_reader *rd)
{
    return rd->slice;
}

/* ------------------------------------------------------------ sources -- */

static bool file_read(void *ctx, uint64_t offset, void *buf, size_t n)
{
    int fd = *(const int *)ctx;
    uint8_t *p = buf;
    while (n) {
        if (offset > (uint64_t)INT64_MAX)
            return false;
        ssize_t got = pread(fd, p, n, (off_t)offset);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return false;
        p += got;
        n -= (size_t)got;
        offset += (uint64_t)got;
    }
    return true;
}

struct memory_source {
    const uint8_t *data;
    size_t len;
};

static bool memory_read(void *ctx, uint64_t offset, void *buf, size_t n)
{
    const struct memory_source *m = ctx;
    if (offset > m->len || n > m->len - offset)
        return false;
    memcpy(buf, m->data + offset, n);
    return true;
}

/* A member being decompressed: its first head_len bytes are at hand, the
 * rest comes once, in order; what was passed cannot be read again. */
struct stream_source {
    struct archive *a;
    const uint8_t *head;
    size_t head_len;
    uint64_t pos;              /* bytes taken from libarchive so far */
};

static bool stream_take(struct stream_source *s, uint8_t *out, size_t n)
{
    while (n) {
        la_ssize_t got = archive_read_data(s->a, out, n);
        if (got <= 0)
            return false;
        out += got;
        n -= (size_t)got;
        s->pos += (uint64_t)got;
    }
    return true;
}

static bool stream_read(void *ctx, uint64_t offset, void *buf, size_t n)
{
    struct stream_source *s = ctx;
    uint8_t *out = buf;
    if (offset < s->head_len) {
        size_t k = s->head_len - offset < n ? s->head_len - (size_t)offset : n;
        memcpy(out, s->head + offset, k);
        out += k;
        n -= k;
        offset += k;
    }
    if (!n)
        return true;
    if (offset < s->pos)
        return false;          /* passed already */
    static _Thread_local uint8_t skip[1 << 16];
    while (s->pos < offset) {
        uint64_t left = offset - s->pos;
        if (!stream_take(s, skip, left < sizeof skip ? (size_t)left : sizeof skip))
            return false;
    }
    return stream_take(s, out, n);
}

/* One section's bytes after its head, for mbx_member_read_all. */
struct section_read {
    const struct macho_source *src;
    uint64_t pos, end;
};

static ssize_t section_read(void *ctx, uint8_t *buf, size_t n)
{
    struct section_read *r = ctx;
    if (r->pos >= r->end)
        return 0;
    if (n > r->end - r->pos)
        n = (size_t)(r->end - r->pos);
    if (n > (size_t)SSIZE_MAX)
        n = (size_t)SSIZE_MAX;
    if (!r->src->read(r->src->ctx, r->pos, buf, n))
        return -1;
    r->pos += n;
    return (ssize_t)n;
}

/* ------------------------------------------------------------ listing -- */

/* ARCH!SEGMENT,SECTION for a slice of a universal file (the arch named
 * twice gets its index too), SEGMENT,SECTION for a thin one. */
static void section_name(const mtlbx_macho *m, const struct mtlbx_macho_section *sec, char *buf, size_t size)
{
    const struct mtlbx_macho_slice *sl = mbx_macho_slice_at(m, sec->slice);
    if (!sl->record_offset) {
        snprintf(buf, size, "%s,%s", sec->segment, sec->section);
        return;
    }
    char arch[32];
    const char *name = mbx_macho_cpu_name(sl->cputype, sl->cpusubtype);
    if (name)
        snprintf(arch, sizeof arch, "%s", name);
    else
        snprintf(arch, sizeof arch, "cpu-0x%x", sl->cputype);
    bool twice = false;
    for (size_t i = 0; i < sec->slice; i++) {
        const struct mtlbx_macho_slice *o = mbx_macho_slice_at(m, i);
        twice |= o->cputype == sl->cputype && o->cpusubtype == sl->cpusubtype;
    }
    if (twice)
        snprintf(buf, size, "%s#%zu!%s,%s", arch, sec->slice, sec->segment, sec->section);
    else
        snprintf(buf, size, "%s!%s,%s", arch, sec->segment, sec->section);
}

void mbx_macho_list(struct macho_listener *L, const char *prefix, const struct macho_source *src)
{
    mtlbx_macho *m = mbx_macho_open(src->size, src->read, src->ctx);
    if (!m) {
        L->problem(L->pctx, prefix, "out of memory reading a Mach-O file");
        return;
    }
    struct mtlbx_macho_section sec;
    while (!L->stop && !(L->cancel && *L->cancel) && mbx_macho_next_section(m, &sec)) {
        char name[96];
        section_name(m, &sec, name, sizeof name);
        char *joined = mbx_archive_join(prefix, name);
        if (!joined) {
            L->problem(L->pctx, prefix, "out of memory");
            break;
        }
        bool wanted = L->want && strcmp(joined, L->want) == 0;
        struct member_reader rd = { .read = section_read, .slice = mbx_macho_slice_at(m, sec.slice),
                                    .declared = sec.size, .size_known = true, .limit = L->limit, .held = L->held };
        /* Four bytes tell a metallib; its head is read only then. */
        rd.head_len = sec.size < 4 ? (size_t)sec.size : 4;
        bool readable = (!L->want || wanted) && src->read(src->ctx, sec.offset, rd.head, rd.head_len);
        bool lib = readable && rd.head_len == 4 && mbx_metallib_magic(rd.head);
        if (readable && (lib || wanted)) {
            size_t more = sec.size < ARCHIVE_HEAD ? (size_t)sec.size : ARCHIVE_HEAD;
            readable = src->read(src->ctx, sec.offset + rd.head_len, rd.head + rd.head_len, more - rd.head_len);
            if (readable)
                rd.head_len = more;
        }
        if ((!L->want || wanted) && !readable) {
            char what[160];
            snprintf(what, sizeof what, "Mach-O section %.16s,%.16s at offset %llu cannot be read", sec.segment,
                     sec.section, (unsigned long long)sec.offset);
            L->problem(L->pctx, prefix, what);
        } else if (lib || wanted) {
            struct section_read sr = { src, sec.offset + rd.head_len, sec.offset + sec.size };
            rd.read_ctx = &sr;
            if (L->fn(L->ctx, joined, sec.size, &rd) || wanted)
                L->stop = true;
        }
        free(joined);
    }
    /* The reader's errors, each with its offset (the first one is what a
     * caller that keeps one line shows). */
    for (size_t i = 0; i < mbx_macho_diag_count(m); i++) {
        const struct mtlbx_diag *d = mbx_macho_diag(m, i);
        if (d->severity != MTLBX_ERROR)
            continue;
        char what[400];
        snprintf(what, sizeof what, "Mach-O at offset %llu: %s", (unsigned long long)d->offset, d->message);
        L->problem(L->pctx, prefix, what);
    }
    mbx_macho_close(m);
}

bool mbx_macho_list_path(struct macho_listener *L, const char *path, char *err, size_t err_size)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, err_size, "%s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return false;
    }
    struct macho_source src = { file_read, &fd, (uint64_t)st.st_size };
    mbx_macho_list(L, NULL, &src);
    close(fd);
    return true;
}

void mbx_macho_list_archive_member(struct macho_listener *L, const char *prefix, struct archive *a, const uint8_t *head,
                               size_t head_len, uint64_t size)
{
    struct stream_source s = { a, head, head_len, head_len };
    struct macho_source src = { stream_read, &s, size ? size : UINT64_MAX };
    mbx_macho_list(L, prefix, &src);
}

void mbx_macho_list_memory(struct macho_listener *L, const char *prefix, const uint8_t *data, size_t len)
{
    struct memory_source m = { data, len };
    struct macho_source src = { memory_read, &m, len };
    mbx_macho_list(L, prefix, &src);
}
