/* Passes over a library's functions and metadata that leave its tables
 * as they were (src/lib only; container/functions.c and metadata.c). */
#ifndef MTLBX_CONTAINER_CURSOR_H
#define MTLBX_CONTAINER_CURSOR_H

#include <stdbool.h>
#include <stddef.h>

#include "container/functions.h"
#include "container/metadata.h"

/* functions.c / metadata.c: entry i, decoded on need. library_function
 * is for the library's own passes: an entry that is not in the table is
 * decoded (with its FN_CHUNK neighbours) into a buffer of the calling
 * thread, so a pass over every function leaves the table as it was; the
 * pointer lasts until the thread asks for a function of another chunk of
 * that library (a thread keeps a chunk of each of the last two libraries
 * it read), or of two other libraries. */
#define FN_CHUNK 256
struct mtlbx_function *library_function(const mtlbx_library *lib, size_t i);
struct mtlbx_metadata *library_metadata(const mtlbx_library *lib, size_t i);
/* A pass over the functions that leaves the table as it was (what other
 * threads hold stays, and nothing is added): an entry not in the table is
 * decoded with its block into the cursor's own buffer, so memory stays
 * flat at a million functions. Zero-initialise; the pointer lasts until
 * the next call. */
struct function_cursor {
    size_t block;
    bool valid;
    struct mtlbx_function *buf;
};
const struct mtlbx_function *function_cursor_at(mtlbx_library *lib, struct function_cursor *c, size_t i);
void function_cursor_free(struct function_cursor *c);
/* The same for the metadata, once library_decode_rest has run: a
 * block not in the table is decoded quietly into the cursor's buffer,
 * from the entries of `fns` (the caller's, moved to i's block: a pointer
 * the caller holds from it for that block stays good). NULL when the
 * library has no metadata or i is past the end. */
struct metadata_cursor {
    size_t block, n;
    bool valid;
    struct mtlbx_metadata *buf;
};
const struct mtlbx_metadata *metadata_cursor_at(mtlbx_library *lib, struct metadata_cursor *c,
                                                struct function_cursor *fns, size_t i);
/* Function i's public or private metadata group (size 0 when it has
 * none), as its metadata has it, without decoding the group's tags when
 * neither the table nor the cursor holds it. */
struct mtlbx_range metadata_group_at(mtlbx_library *lib, struct metadata_cursor *c, struct function_cursor *fns,
                                     size_t i, bool private_md);
void metadata_cursor_free(struct metadata_cursor *c);
/* Drops the decoded function entries (and metadata) before `before`. */
void library_forget_functions(mtlbx_library *lib, size_t before);
void library_forget_metadata(mtlbx_library *lib, size_t before);

#endif
