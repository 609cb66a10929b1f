/* Metallibs inside Mach-O files, listed the way archive members are
 * (archive_members.h), for `find`, `check`, `diff`, the explorer and
 * every HOST!SEGMENT,SECTION path: a section whose first bytes are a
 * metallib's magic is a member named SEGMENT,SECTION (in a universal
 * file ARCH!SEGMENT,SECTION, since every slice has its own), joined to
 * the host's name with '!' as members are: libtorch.dylib!__TEXT,metal_basic,
 * torch.whl!torch/lib/libtorch_cpu.dylib!__TEXT,metal_basic. The bytes
 * are read by src/lib's Mach-O reader (mtlbx_macho_*); a host inside an
 * archive is read in one pass as it is decompressed, never held whole.
 * Section names are file bytes: callers escape them. No printing. */
#ifndef MTLBX_MACHO_MEMBERS_H
#define MTLBX_MACHO_MEMBERS_H

#include "archive_members.h"
#include "container/macho.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct archive;

/* True when the first n bytes start a Mach-O file. */
bool mbx_macho_content(const uint8_t *head, size_t n);

/* The slice a member_fn's member lies in, with the slice's minimum OS,
 * when the member is a Mach-O section; NULL for an archive member. Valid
 * during the callback. */
const struct mtlbx_macho_slice *mbx_member_macho_slice(const struct member_reader *rd);

/* Where one listing's members and problems go (archive_members.c fills
 * it from its own listing). */
struct macho_listener {
    member_fn fn;
    void *ctx;
    const char *want;          /* only this joined name (mbx_open_any), else NULL */
    /* A problem: `where` the host's joined name (NULL for a file named on
     * its own), `what` one line with the offset. */
    void (*problem)(void *pctx, const char *where, const char *what);
    void *pctx;
    const volatile int *cancel;
    bool stop;                 /* set when fn asked to stop, or want was found */
    /* What a section read whole may hold, and what the archives around
     * the host hold already (member_reader.h) */
    uint64_t limit, held;
};

/* The bytes of a host: read n bytes at offset (false when they cannot be
 * read); `size` UINT64_MAX when not known. */
struct macho_source {
    bool (*read)(void *ctx, uint64_t offset, void *buf, size_t n);
    void *ctx;
    uint64_t size;
};

/* Lists the metallib sections of the host `src`, named PREFIX!SECTION
 * (just SECTION without a prefix). Only errors of the reader are problems;
 * its warnings are not. */
void mbx_macho_list(struct macho_listener *L, const char *prefix, const struct macho_source *src);

/* The same for a file on disk (`path`, the host named on its own).
 * Returns false, with a reason in err, when it cannot be opened. */
bool mbx_macho_list_path(struct macho_listener *L, const char *path, char *err, size_t err_size);

/* A host read from libarchive as it is decompressed, its first head_len
 * bytes already read into head (the member being listed). */
void mbx_macho_list_archive_member(struct macho_listener *L, const char *prefix, struct archive *a,
                               const uint8_t *head, size_t head_len, uint64_t size);

/* A host in memory (a member already read whole, for mbx_open_any). */
void mbx_macho_list_memory(struct macho_listener *L, const char *prefix, const uint8_t *data, size_t len);

#endif
