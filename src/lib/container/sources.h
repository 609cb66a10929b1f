/* The container layer (src/lib/container) on a library's embedded
 * sources (HSRC/HSRD): the archives, decompressed on demand, and their
 * members, and which archive a function's SOFF points at. */
#ifndef MTLBX_CONTAINER_SOURCES_H
#define MTLBX_CONTAINER_SOURCES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "container/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------ embedded sources -- */

enum mtlbx_member_type {
    MTLBX_MEMBER_FILE, MTLBX_MEMBER_DIR, MTLBX_MEMBER_SYMLINK,
    MTLBX_MEMBER_HARDLINK, MTLBX_MEMBER_DEVICE, MTLBX_MEMBER_FIFO,
    MTLBX_MEMBER_OTHER,
};

struct mtlbx_member {
    char *name;                /* ustar prefix + "/" + name, raw bytes, NUL-terminated */
    uint64_t size;
    enum mtlbx_member_type type;
    const uint8_t *data;       /* into the decompressed buffer; NULL unless FILE */
    char *link_target;         /* symlinks and hard links, else NULL */
    uint32_t mode;
};

enum mtlbx_archive_state {
    MTLBX_ARCHIVE_UNLOADED = 0,
    MTLBX_ARCHIVE_LOADED,
    MTLBX_ARCHIVE_FAILED,      /* bzip2 or tar did not decode; see diagnostics */
};

/* Decompressed-size cap per archive. A bigger stream stops with an error. */
#define MTLBX_SOURCE_CAP ((size_t)64 << 20)

struct mtlbx_archive {
    uint64_t group_offset;     /* absolute offset of the u32 group size */
    uint32_t group_size;
    uint64_t sarc_offset;      /* absolute offset of the SARC tag (SOFF target) */
    struct mtlbx_bytes id;     /* archive id, without NUL */
    struct mtlbx_bytes payload;/* compressed bytes including any zero padding */
    uint64_t payload_offset;
    /* Filled by mbx_archive_load() */
    enum mtlbx_archive_state state;
    uint8_t *tar;              /* decompressed tar (owned by the handle) */
    size_t tar_len;
    size_t n_members;
    struct mtlbx_member *members;
};

struct mtlbx_sources {
    bool present;
    char tag[5];               /* "HSRC" or "HSRD" */
    struct mtlbx_range range;
    uint32_t declared_count;
    struct mtlbx_bytes link_command;
    bool has_working_dir;
    struct mtlbx_bytes working_dir;
    size_t n_archives;
    struct mtlbx_archive *archives;
};

const struct mtlbx_sources *mbx_library_sources(const mtlbx_library *lib);
/* Decompress and list one archive (cached). Returns its state. */
enum mtlbx_archive_state mbx_archive_load(mtlbx_library *lib, size_t archive_index);
/* Archive whose SARC tag a function's SOFF points at, or -1. */
long mbx_function_archive(const mtlbx_library *lib, size_t function_index);

#ifdef __cplusplus
}
#endif

#endif
