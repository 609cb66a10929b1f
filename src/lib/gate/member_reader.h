/* What a member_fn callback reads a member through (archive_members.h):
 * shared by the two listers that hand members out, archive_members.c
 * (archive members, read with libarchive) and macho_members.c (metallibs
 * in a Mach-O file's sections). Callers outside them use only
 * mbx_member_read_all() and mbx_member_macho_slice(). */
#ifndef MTLBX_MEMBER_READER_H
#define MTLBX_MEMBER_READER_H

#include "archive_members.h"
#include "container/macho.h"

#include <sys/types.h>
#include <stdbool.h>

struct archive;

struct member_reader {
    /* The archive whose current entry this is; NULL for a Mach-O
     * section, whose bytes come from `read` instead (the next n at most;
     * 0 at its end, -1 when they cannot be read). */
    struct archive *a;
    ssize_t (*read)(void *ctx, uint8_t *buf, size_t n);
    void *read_ctx;
    /* A Mach-O section: its slice (with the slice's minimum OS). */
    const struct mtlbx_macho_slice *slice;
    uint8_t head[ARCHIVE_HEAD];  /* the bytes already read to see what it is */
    size_t head_len;
    uint64_t declared;         /* size in the archive's directory, 0 unknown */
    bool size_known;
    /* What reading it whole may hold: mbx_member_limit() less what the nested
     * archives around it already hold in memory (`held`). */
    uint64_t limit, held;
};

#endif
