/* Decoding one embedded source archive: the SARC payload is a bzip2
 * stream (possibly followed by zero padding, FORMAT.md §9 / P6) holding a
 * POSIX ustar tar. This is the only file that includes bzlib.h and
 * archive.h, so the rest of the library never sees either API.
 *
 * Memory stays bounded whatever the payload says: the decompressed tar is
 * capped at MTLBX_SOURCE_CAP (a bzip2 bomb stops there with an error), the
 * member list is bounded by the tar size (each member needs a 512-byte
 * header), and member data is NOT copied: libarchive reading from memory
 * hands out pointers into the buffer we gave it, which we verify; only a
 * member whose data is not one contiguous run inside the tar (a GNU sparse
 * file, never written by Apple's tools) is copied, into one side buffer
 * that shares the same cap.
 */
#include "config.h"
#include "container/parse.h"
#include "container/report.h"

#include "container/archive_dl.h"
#include "container/nouns.h"

#include <bzlib.h>
#include <stdlib.h>
#include <string.h>

/* First allocation for the decompressed tar; doubled up to the cap. Real
 * archives are 30-150 KB, so this rarely grows more than twice. */
#define TAR_INITIAL ((size_t)64 << 10)

static void free_members(struct mtlbx_member *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(m[i].name);
        free(m[i].link_target);
    }
}

/* The side buffer for sparse-member copies is stored right after the member
 * array in the same allocation, so source_archive_free() needs nothing extra. */
void source_archive_free(struct mtlbx_archive *a)
{
    if (!a)
        return;
    free_members(a->members, a->n_members);
    free(a->members);
    free(a->tar);
    a->members = NULL;
    a->n_members = 0;
    a->tar = NULL;
    a->tar_len = 0;
    a->state = MTLBX_ARCHIVE_UNLOADED;
}

/* True if every byte of the span is zero. */
static bool all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* bzip2 -> malloc'd buffer. Returns false (with a diagnostic) on a corrupt,
 * truncated or over-cap stream. */
static bool bz_decompress(mtlbx_library *lib, const struct mtlbx_archive *a,
                          uint8_t **out, size_t *out_len)
{
    const uint8_t *in = a->payload.ptr;
    size_t in_len = a->payload.len;
    *out = NULL;
    *out_len = 0;
    if (in_len == 0) {
        lib_error(lib, a->payload_offset, "source archive has an empty payload");
        return false;
    }

    bz_stream bz;
    memset(&bz, 0, sizeof bz);
    /* small=0: the fast decoder; its memory is bounded by the block size
     * (at most ~3.6 MB for BZh9) whatever the stream says. */
    int init = BZ2_bzDecompressInit(&bz, 0, 0);
    if (init == BZ_MEM_ERROR) {
        lib_out_of_memory(lib, a->payload_offset, "out of memory decompressing a source archive");
        return false;
    }
    if (init != BZ_OK) {
        lib_error(lib, a->payload_offset, "cannot initialise the bzip2 decoder");
        return false;
    }
    size_t cap = TAR_INITIAL;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        BZ2_bzDecompressEnd(&bz);
        lib_out_of_memory(lib, a->payload_offset, "out of memory decompressing a source archive");
        return false;
    }
    size_t len = 0;
    /* libbz2 counts in unsigned int: feed and drain in pieces so payloads
     * and outputs beyond 4 GiB could never wrap its counters. */
    const size_t chunk = (size_t)1 << 30;
    size_t consumed = 0;
    bool ok = false;
    for (;;) {
        if (len == cap) {
            if (cap >= MTLBX_SOURCE_CAP) {
                lib_error(lib, a->payload_offset,
                          "source archive decompresses to more than the %zu MiB cap; not loaded",
                          MTLBX_SOURCE_CAP >> 20);
                break;
            }
            size_t ncap = cap * 2 > MTLBX_SOURCE_CAP ? MTLBX_SOURCE_CAP : cap * 2;
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) {
                lib_out_of_memory(lib, a->payload_offset, "out of memory decompressing a source archive");
                break;
            }
            buf = nb;
            cap = ncap;
        }
        size_t in_left = in_len - consumed;
        size_t out_left = cap - len;
        bz.next_in = (char *)(uintptr_t)(in + consumed);
        bz.avail_in = (unsigned)(in_left > chunk ? chunk : in_left);
        bz.next_out = (char *)(buf + len);
        bz.avail_out = (unsigned)(out_left > chunk ? chunk : out_left);
        unsigned before_in = bz.avail_in, before_out = bz.avail_out;
        int rc = BZ2_bzDecompress(&bz);
        consumed += before_in - bz.avail_in;
        len += before_out - bz.avail_out;
        if (rc == BZ_STREAM_END) {
            ok = true;
            break;
        }
        if (rc == BZ_MEM_ERROR) {
            /* The decoder allocates its block buffers when a block
             * header names their size: the environment, not the file. */
            lib_out_of_memory(lib, a->payload_offset + consumed, "out of memory decompressing a source archive");
            break;
        }
        if (rc != BZ_OK) {
            lib_error(lib, a->payload_offset + consumed,
                      "source archive is not a valid bzip2 stream (libbz2 error %d)", rc);
            break;
        }
        /* BZ_OK with all input used and output room left: the stream was
         * cut short (libbz2 would wait forever for more input). */
        if (consumed == in_len && len < cap) {
            lib_error(lib, a->payload_offset + consumed,
                      "source archive's bzip2 stream is truncated");
            break;
        }
        if (before_in == bz.avail_in && before_out == bz.avail_out) {
            /* No progress at all: never loop on a stuck decoder. */
            lib_error(lib, a->payload_offset + consumed, "bzip2 decoder made no progress");
            break;
        }
    }
    BZ2_bzDecompressEnd(&bz);
    if (!ok) {
        free(buf);
        return false;
    }
    /* Xcode 15/16 pad the compressed data with zeros to 16 KiB multiples;
     * anything else after the end-of-stream marker is worth a warning. */
    if (consumed < in_len && !all_zero(in + consumed, in_len - consumed))
        lib_warning(lib, a->payload_offset + consumed,
                    "%zu %s after the end of the bzip2 stream %s not zero padding", in_len - consumed,
                    mbx_noun(in_len - consumed, "byte", "bytes"), mbx_noun(in_len - consumed, "is", "are"));
    /* The buffer grew from TAR_INITIAL: give back what the tar does not
     * use, or a library of 50,000 small archives holds 64 KiB each (522 MB
     * for `sources --list`, issue 35). */
    uint8_t *fit = realloc(buf, len ? len : 1);
    *out = fit ? fit : buf;
    *out_len = len;
    return true;
}

static enum mtlbx_member_type member_type(mode_t ft)
{
    switch (ft) {
    case AE_IFREG: return MTLBX_MEMBER_FILE;
    case AE_IFDIR: return MTLBX_MEMBER_DIR;
    case AE_IFLNK: return MTLBX_MEMBER_SYMLINK;
    case AE_IFCHR:
    case AE_IFBLK: return MTLBX_MEMBER_DEVICE;
    case AE_IFIFO: return MTLBX_MEMBER_FIFO;
    default: return MTLBX_MEMBER_OTHER;
    }
}

/* Growing byte buffer for the rare member that must be copied. */
struct side {
    uint8_t *p;
    size_t len, cap;
};

static bool side_reserve(struct side *s, size_t more, size_t limit)
{
    if (more > limit || s->len > limit - more)
        return false;
    if (s->len + more <= s->cap)
        return true;
    size_t ncap = s->cap ? s->cap : 4096;
    while (ncap < s->len + more)
        ncap = ncap > limit / 2 ? limit : ncap * 2;
    uint8_t *np = realloc(s->p, ncap);
    if (!np)
        return false;
    s->p = np;
    s->cap = ncap;
    return true;
}

/* Reads the current entry's data. Sets *zero_copy_at (offset into the tar)
 * when the data is one contiguous run of the buffer, else appends a copy to
 * the side buffer and sets *side_at. Returns false on a tar error. */
static bool member_data(struct archive *ar, const uint8_t *tar, size_t tar_len, uint64_t size,
                        struct side *side, size_t side_limit,
                        size_t *zero_copy_at, size_t *side_at, const char **why)
{
    *zero_copy_at = SIZE_MAX;
    *side_at = SIZE_MAX;
    *why = NULL;
    const void *blk;
    size_t blen;
    la_int64_t boff;
    const uint8_t *first = NULL, *next = NULL;
    uint64_t seen = 0;
    bool contiguous = true;
    /* Blocks are checked as they come: while each one continues the last
     * inside the tar, nothing is copied. The reader is one-pass, so when a
     * block breaks the run (a sparse member's hole), what was seen so far
     * is copied to the side buffer and the rest follows it there. */
    size_t copy_base = side->len;
    bool copying = false;
    int rc;
    while ((rc = archive_read_data_block(ar, &blk, &blen, &boff)) == ARCHIVE_OK) {
        const uint8_t *b = blk;
        bool inside = b >= tar && blen <= tar_len && (size_t)(b - tar) <= tar_len - blen;
        if (contiguous && inside && boff >= 0 && (uint64_t)boff == seen &&
            (first == NULL || b == next)) {
            if (!first)
                first = b;
            next = b + blen;
            seen += blen;
            continue;
        }
        if (!copying) {
            /* Switch to copying: bring what was contiguous so far along. */
            contiguous = false;
            copying = true;
            if (!side_reserve(side, (size_t)seen, side_limit)) {
                *why = "member data exceeds the source cap";
                return false;
            }
            if (seen)
                memcpy(side->p + side->len, first, (size_t)seen);
            side->len += (size_t)seen;
        }
        if (boff < 0 || (uint64_t)boff > size || blen > size - (uint64_t)boff) {
            *why = "member data block lies outside the member";
            return false;
        }
        /* Sparse holes read as zeros. */
        size_t want_end = copy_base + (size_t)boff + blen;
        if (want_end > side->len) {
            if (!side_reserve(side, want_end - side->len, side_limit)) {
                *why = "member data exceeds the source cap";
                return false;
            }
            memset(side->p + side->len, 0, want_end - side->len);
            side->len = want_end;
        }
        if (blen)
            memcpy(side->p + copy_base + (size_t)boff, b, blen);
        seen = (uint64_t)boff + blen > seen ? (uint64_t)boff + blen : seen;
    }
    if (rc != ARCHIVE_EOF) {
        *why = archive_error_string(ar);
        if (!*why)
            *why = "member data does not decode";
        return false;
    }
    if (copying) {
        /* A trailing hole (sparse file ending in zeros). */
        if (seen < size) {
            if (!side_reserve(side, (size_t)(size - seen), side_limit)) {
                *why = "member data exceeds the source cap";
                return false;
            }
            memset(side->p + side->len, 0, (size_t)(size - seen));
            side->len += (size_t)(size - seen);
        }
        *side_at = copy_base;
        return true;
    }
    if (seen != size) {
        *why = "member is shorter than its header says";
        return false;
    }
    *zero_copy_at = first ? (size_t)(first - tar) : 0;
    return true;
}

static char *dup_or_empty(const char *s)
{
    return strdup(s ? s : "");
}

/* Lists the tar in a->tar. On failure leaves no members and returns false
 * after one error diagnostic. */
static bool list_tar(mtlbx_library *lib, struct mtlbx_archive *a)
{
    if (!archive_dl_load()) {
        if (archive_dl_out_of_memory())
            lib_out_of_memory(lib, a->payload_offset, "out of memory loading libarchive to list a source archive");
        else
            lib_error(lib, a->payload_offset, "source archive not listed: %s", archive_dl_error());
        return false;
    }
    struct archive *ar = archive_read_new();
    if (!ar) {
        lib_out_of_memory(lib, a->payload_offset, "out of memory listing a source archive");
        return false;
    }
    /* Only tar: Apple writes ustar; pax and GNU extensions come with the
     * same reader. "empty" accepts an archive with no bytes at all. */
    archive_read_support_format_tar(ar);
    archive_read_support_format_empty(ar);
    archive_read_support_filter_none(ar);
    if (archive_read_open_memory(ar, a->tar, a->tar_len) != ARCHIVE_OK) {
        const char *e = archive_error_string(ar);
        lib_error(lib, a->payload_offset, "source archive does not hold a tar: %s",
                  e ? e : "unrecognised format");
        archive_read_free(ar);
        return false;
    }

    /* Every member needs at least one 512-byte header block. */
    size_t max_members = a->tar_len / 512 + 1;
    size_t n = 0, cap = 0;
    struct mtlbx_member *m = NULL;
    size_t *data_at = NULL;     /* zero-copy offset or side offset, per member */
    bool *in_side = NULL;
    struct side side = { 0 };
    bool ok = true;
    struct archive_entry *e;
    int rc;
    while ((rc = archive_dl_next_header(ar, &e)) == ARCHIVE_OK ||
           rc == ARCHIVE_WARN) {
        if (n == max_members) {
            lib_error(lib, a->payload_offset, "source archive lists more members than its size allows");
            ok = false;
            break;
        }
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 16;
            if (ncap > max_members)
                ncap = max_members;
            struct mtlbx_member *nm = realloc(m, ncap * sizeof *m);
            size_t *nd = nm ? realloc(data_at, ncap * sizeof *nd) : NULL;
            bool *ns = nd ? realloc(in_side, ncap * sizeof *ns) : NULL;
            if (nm)
                m = nm;
            if (nd)
                data_at = nd;
            if (ns)
                in_side = ns;
            if (!nm || !nd || !ns) {
                lib_out_of_memory(lib, a->payload_offset, "out of memory listing a source archive");
                ok = false;
                break;
            }
            cap = ncap;
        }
        struct mtlbx_member *mm = &m[n];
        memset(mm, 0, sizeof *mm);
        data_at[n] = SIZE_MAX;
        in_side[n] = false;
        /* libarchive joins the ustar prefix and name (and applies pax and
         * GNU long names); the raw multibyte form keeps bytes as stored. */
        const char *name = archive_dl_entry_name(e);
        mm->name = dup_or_empty(name);
        mm->size = archive_entry_size_is_set(e) && archive_entry_size(e) > 0
                       ? (uint64_t)archive_entry_size(e) : 0;
        mm->mode = (uint32_t)archive_entry_perm(e);
        const char *hl = archive_entry_hardlink(e);
        if (hl) {
            mm->type = MTLBX_MEMBER_HARDLINK;
            mm->link_target = dup_or_empty(hl);
        } else {
            mm->type = member_type(archive_entry_filetype(e));
            if (mm->type == MTLBX_MEMBER_SYMLINK)
                mm->link_target = dup_or_empty(archive_entry_symlink(e));
        }
        n++;
        if (!mm->name || ((mm->type == MTLBX_MEMBER_SYMLINK || mm->type == MTLBX_MEMBER_HARDLINK) &&
                          !mm->link_target)) {
            lib_out_of_memory(lib, a->payload_offset, "out of memory listing a source archive");
            ok = false;
            break;
        }
        if (mm->type != MTLBX_MEMBER_FILE)
            continue;
        size_t zc, sa;
        const char *why;
        if (!member_data(ar, a->tar, a->tar_len, mm->size, &side, MTLBX_SOURCE_CAP, &zc, &sa, &why)) {
            lib_error(lib, a->payload_offset, "source archive member %zu: %s", n - 1, why);
            ok = false;
            break;
        }
        if (sa != SIZE_MAX) {
            data_at[n - 1] = sa;
            in_side[n - 1] = true;
        } else {
            data_at[n - 1] = zc;
        }
    }
    if (ok && rc != ARCHIVE_EOF) {
        const char *es = archive_error_string(ar);
        lib_error(lib, a->payload_offset, "source archive's tar does not decode after %zu %s: %s",
                  n, mbx_noun(n, "member", "members"), es ? es : "damaged header");
        ok = false;
    }
    archive_read_free(ar);

    if (ok) {
        /* One allocation: members, then the side copies (if any). */
        size_t msz = n * sizeof *m;
        struct mtlbx_member *final = malloc(msz + side.len + 1);
        if (!final) {
            lib_out_of_memory(lib, a->payload_offset, "out of memory listing a source archive");
            ok = false;
        } else {
            if (n)
                memcpy(final, m, msz);
            uint8_t *copies = (uint8_t *)final + msz;
            if (side.len)
                memcpy(copies, side.p, side.len);
            for (size_t i = 0; i < n; i++) {
                if (final[i].type != MTLBX_MEMBER_FILE)
                    final[i].data = NULL;
                else if (in_side[i])
                    final[i].data = copies + data_at[i];
                else
                    final[i].data = a->tar + data_at[i];
            }
            free(m);
            m = final;
        }
    }
    free(side.p);
    free(data_at);
    free(in_side);
    if (!ok) {
        free_members(m, n);
        free(m);
        return false;
    }
    a->members = m;
    a->n_members = n;
    return true;
}

enum mtlbx_archive_state source_archive_decode(mtlbx_library *lib, struct mtlbx_archive *a)
{
    if (a->state != MTLBX_ARCHIVE_UNLOADED)
        return a->state;
    uint8_t *tar;
    size_t tar_len;
    if (!bz_decompress(lib, a, &tar, &tar_len)) {
        a->state = MTLBX_ARCHIVE_FAILED;
        return a->state;
    }
    a->tar = tar;
    a->tar_len = tar_len;
    if (!list_tar(lib, a)) {
        free(a->tar);
        a->tar = NULL;
        a->tar_len = 0;
        a->state = MTLBX_ARCHIVE_FAILED;
        return a->state;
    }
    a->state = MTLBX_ARCHIVE_LOADED;
    return a->state;
}
