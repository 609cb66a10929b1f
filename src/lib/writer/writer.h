/* The writer layer's face (src/lib/writer): metallib files written, not
 * read. It lays out a library from its values and computes every number
 * a reader locates things by (the header's section offsets and sizes, the
 * file length, each function's HASH, MDSZ, OFFT, SOFF and RFLT, the
 * header extension's section pointers, the reflection buffers' padding,
 * a fat file's slice offsets). Three ways in:
 *
 *  - the values of a library that was read (describe.c: what `mtlbx
 *    unpack` writes to a manifest and `mtlbx pack --from` cuts down),
 *    laid out again byte for byte by the rules of doc/writer-layout.md;
 *  - values filled in one by one (the manifest reader, manifest_read.c);
 *  - AIR modules alone and a target OS (air_module.c, targets.c): the
 *    API of ../shared/LIBRARY.md, "The writer", declared at the end.
 *
 * It calls the layers below it (the container, the bitcode reader for a
 * module's AIR metadata, the checks for digests and requirements) and
 * nothing above. Like the rest of the library it never prints, never
 * exits and reads no environment variable: a problem is one line in the
 * writer's error (mtlbx_writer_error_string), with the byte offset where
 * one applies. */
#ifndef MTLBX_WRITER_H
#define MTLBX_WRITER_H

#include <stdbool.h>

#include "container/types.h"
#include "mtlbx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The status scale of LIBRARY.md (MTLBX_OK 0, MTLBX_FAILED -25,
 * MTLBX_FATAL -30), under names of their own so that the installed
 * <mtlbx.h> can define MTLBX_OK and friends beside this header: the
 * values are the same, so the public names are these. */
enum mtlbx_writer_status {
    MTLBX_WRITER_OK = 0,
    MTLBX_WRITER_FAILED = -25, /* this call failed; the writer is still usable */
    MTLBX_WRITER_FATAL = -30,  /* out of memory: the writer is unusable */
};

/* The keys of mtlbx_writer_set (LIBRARY.md: "the library keys above;
 * MTLBX_NAME is the dynamic header's library name"), with the values of
 * the installed <mtlbx.h>'s MTLBX_CONTAINER_VERSION ... MTLBX_UUID and
 * MTLBX_NAME, so that the public mtlbx_writer_set takes those (the api
 * layer checks they agree: src/lib/api/handle.c). Values as dump --json
 * spells them. */
enum mtlbx_writer_key {
    MTLBX_WRITER_CONTAINER_VERSION = 1, /* "1.2.8" */
    MTLBX_WRITER_PLATFORM,              /* "macOS" or "iOS" (bit 15 of u16@4) */
    MTLBX_WRITER_FILE_TYPE,             /* "executable", "dynamic", ..., "unknown-N" */
    MTLBX_WRITER_TARGET_OS,             /* "macOS", "iOS-simulator", ..., "unknown" */
    MTLBX_WRITER_OS_VERSION,            /* "14.0.0" */
    MTLBX_WRITER_UUID,                  /* 32 hex digits; "" removes it */
    MTLBX_WRITER_NAME = 10,             /* the dynamic header's NAME; "" removes it */
};

/* ------------------------------------------ the writer, for the program -- */

/* The handle and what the command line and the explorer do with it; the
 * model it holds (libraries, tags, modules, targets) is the writer's own
 * (writer_model.h, included only in src/lib/writer), and the manifest is
 * read into it and rendered from it by manifest.h's calls. */
typedef struct mtlbx_writer mtlbx_writer;

/* A writer with no library yet (describe, a manifest reader); free it
 * with mtlbx_writer_free. NULL out of memory. */
mtlbx_writer *mbx_writer_new(void);
/* How many libraries (fat slices) the model holds, and whether it is a
 * fat file. */
size_t mbx_writer_library_count(const mtlbx_writer *w);
bool mbx_writer_is_fat(const mtlbx_writer *w);
/* The offset of the last error, -1 when it has none. */
int64_t mbx_writer_error_offset(const mtlbx_writer *w);

/* ----------------------------------------------------------- describe -- */

enum {
    /* Hash every module (threads as mbx_library_verify_all): a stored
     * HASH that is not the module's digest becomes the stored_hash quirk
     * and every module's digest is known. Without it digests are computed
     * as the modules are written, and each HASH is the module's. */
    MTLBX_WR_DESCRIBE_VERIFY = 1u << 0,
    /* Let go of no decoded function entry as the pass goes (by default
     * every 4,096, mbx_library_forget, so memory stays flat): for a
     * caller that holds pointers from mbx_function_at across the call
     * or reads the library from another thread meanwhile (the explorer). */
    MTLBX_WR_DESCRIBE_KEEP_DECODED = 1u << 1,
};

/* The writer model of every library of an open file: the values read, in
 * file order, with every number a reader locates things by left to the
 * layout, and what no rule derives kept as a quirk. Byte values point
 * into the file's mapping: f must outlive w. MTLBX_WRITER_FAILED with a
 * message (and the offset) when the file holds something the model cannot
 * say (then pack could not give the file back). w must be new. */
int mbx_writer_describe(mtlbx_writer *w, mtlbx_file *f, unsigned flags);
/* The same, telling `tick` (may be NULL) every 4,096 functions how many
 * of all the libraries' are described; a nonzero return stops it there:
 * MTLBX_WRITER_FAILED, "stopped" (the explorer's Esc). */
int mbx_writer_describe_tick(mtlbx_writer *w, mtlbx_file *f, unsigned flags,
                           int (*tick)(void *ctx, uint64_t done, uint64_t total), void *ctx);

/* Keeps only the functions with keep[l][i] set in library l (every
 * library of the model), the modules and reflection groups they use, and
 * everything else; a library left with no function is removed, unless
 * every one is. Where the model had a UUID, it gets a new one derived
 * from what is kept (another library must not claim the old one). */
int mbx_writer_select(mtlbx_writer *w, bool *const *keep);

/* ------------------------------------------------------------- writing -- */

/* The model laid out into an open file descriptor (pwrite at each offset); the file
 * is made exactly as long as the library. */
int mbx_writer_write_fd(mtlbx_writer *w, int fd);
/* The same, telling `tick` (may be NULL) after each piece written how
 * many bytes are written of how many; a nonzero return stops the write
 * there: FAILED, "stopped" (the explorer's Esc, its progress line). */
int mbx_writer_write_fd_tick(mtlbx_writer *w, int fd, int (*tick)(void *ctx, uint64_t done, uint64_t total),
                           void *ctx);
/* Writes the model in memory and compares it with `bytes` (the file it
 * was described from): OK when they are the same, else FAILED naming the
 * first offset that differs and the structure that covers it. Modules
 * whose bytes are the file's own at the same place are not compared. */
int mbx_writer_compare(mtlbx_writer *w, const uint8_t *bytes, uint64_t len);
/* The first note of the writer (a module packed for a newer minor than
 * the target), or NULL; *more: how many others. */
const char *mbx_writer_note(const mtlbx_writer *w, size_t *more);

/* The API of LIBRARY.md (mtlbx_writer_new ... mtlbx_writer_free) is
 * declared once, in the installed <mtlbx.h>, included above. */

/* Internal, for the command line: a writer made from modules checks them
 * against its target and lays out the sources added; call before
 * mbx_writer_write_fd as the write_ calls do themselves. */
int mbx_writer_prepare(mtlbx_writer *w);
/* Internal, for `pack --target`: the AIR module at `path` (its size
 * learnt now, its bytes read when the library is written), checked
 * against the target of mtlbx_writer_target; the messages name no file
 * (the caller names it). */
int mbx_writer_add_air_file(mtlbx_writer *w, const char *path);
/* Marks a described writer as <mtlbx.h>'s mtlbx_writer_from makes it: its
 * write calls write the model as it is; target, set and add are refused. */
void mbx_writer_mark_copy(mtlbx_writer *w);

#ifdef __cplusplus
}
#endif
#endif
