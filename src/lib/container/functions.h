/* The container layer (src/lib/container) on a library's function list:
 * each function's entry (name, type, hash, versions, where its module
 * lies), the module's wrapper and bytes, and the library's memory as a
 * pass over its functions goes. */
#ifndef MTLBX_CONTAINER_FUNCTIONS_H
#define MTLBX_CONTAINER_FUNCTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "container/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- functions -- */

/* Bits of mtlbx_function.present: which tags were seen. */
enum {
    MTLBX_F_NAME = 1u << 0, MTLBX_F_TYPE = 1u << 1, MTLBX_F_HASH = 1u << 2,
    MTLBX_F_OFFT = 1u << 3, MTLBX_F_VERS = 1u << 4, MTLBX_F_MDSZ = 1u << 5,
    MTLBX_F_SOFF = 1u << 6, MTLBX_F_RFLT = 1u << 7, MTLBX_F_TESS = 1u << 8,
    MTLBX_F_LAYR = 1u << 9,
};

struct mtlbx_function {
    uint64_t entry_offset;     /* absolute offset of the u32 size prefix */
    uint32_t entry_size;       /* as declared (includes the prefix) */
    uint32_t present;          /* MTLBX_F_* bits */
    struct mtlbx_bytes name;   /* without the NUL */
    uint8_t type;
    const uint8_t *hash;       /* 32 bytes, or NULL */
    uint64_t offt[3];          /* public md, private md, module: section-relative */
    uint16_t air_major, air_minor, msl_major, msl_minor;
    uint64_t mdsz;
    uint64_t soff, rflt;
    uint8_t tess, layr;
    /* Derived */
    bool module_valid;         /* the module span lies inside the module section */
    bool module_size_inferred; /* MDSZ missing: size from the next module offset */
    struct mtlbx_range module; /* exactly the bytes HASH covers */
    uint64_t public_md_offset, private_md_offset; /* absolute, UINT64_MAX if none */
};

size_t mbx_library_function_count(const mtlbx_library *lib);
const struct mtlbx_function *mbx_function_at(const mtlbx_library *lib, size_t i);
/* Function i for a pass over every function that must leave memory as
 * it was (a name looked up among a million): an entry the library's
 * table does not hold is decoded, with its neighbours, into a buffer of
 * the calling thread and not added to the table. The pointer lasts until
 * this thread peeks at another chunk of this library, or at two other
 * libraries. NULL past the end. */
const struct mtlbx_function *mbx_function_peek(const mtlbx_library *lib, size_t i);
/* First function with this exact name, or -1. */
long mbx_library_function_find(const mtlbx_library *lib, const char *name);
/* Stored names in byte order, a prefix before the longer name: <0, 0, >0. */
int mbx_name_cmp(struct mtlbx_bytes a, struct mtlbx_bytes b);

/* The CPUs this process may run on (its affinity mask; the module hashes
 * of checks/hash.h run on this many threads when asked for 0). */
unsigned mbx_cpus(void);
/* Lets the pages of the library's function list, metadata and list
 * sections go from memory: they stay readable (read again from the page
 * cache when touched), so every span stays valid. For a caller that walks
 * a large library once and wants its memory to stay flat. */
void mbx_library_release_pages(const mtlbx_library *lib);
/* For streaming commands: the caller (in any thread) holds no pointer
 * from mbx_function_at or mbx_function_metadata for the functions
 * before `before` in this library, so their decoded entries may be let go
 * (about 320 bytes a function); asking for one again decodes it again,
 * identically. Without this call, what was decoded stays. */
void mbx_library_forget(const mtlbx_library *lib, size_t before);

/* Bitcode wrapper header at the start of a module. */
struct mtlbx_wrapper {
    bool present;              /* magic 0x0B17C0DE found */
    uint32_t magic, version, bitcode_offset, bitcode_size, cputype;
    bool bitcode_magic_ok;     /* "BC\xC0\xDE" at bitcode_offset */
};
bool mbx_function_wrapper(const mtlbx_library *lib, size_t i, struct mtlbx_wrapper *out);
struct mtlbx_bytes mbx_function_module_bytes(const mtlbx_library *lib, size_t i);

#ifdef __cplusplus
}
#endif

#endif
