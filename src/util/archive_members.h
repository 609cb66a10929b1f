/* The metallibs inside a .ipa or .zip archive, read with libarchive without
 * unpacking anything to disk. Listing an archive reads each member's first
 * four bytes (its magic); a member is decompressed into memory only when
 * asked for, and never past MEMBER_LIMIT bytes, so a zip bomb or an
 * oversized member is a clear error rather than an exhausted machine.
 * Member names are archive bytes: callers show them escaped and never use
 * them as a path to write to. No printing here. */
#ifndef MTLBX_ARCHIVE_MEMBERS_H
#define MTLBX_ARCHIVE_MEMBERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mtlbx.h"

/* Default size limit of one decompressed member (256 MiB); the variable
 * MTLBX_MEMBER_LIMIT (bytes) overrides it. */
#define MEMBER_LIMIT_DEFAULT ((uint64_t)256 << 20)
/* An archive listing stops after this many entries (a zip can declare
 * millions of empty ones). */
#define ARCHIVE_MAX_ENTRIES 1000000

uint64_t member_limit(void);

/* True for a name ending in .ipa or .zip (any case) whose first bytes are a
 * zip signature: the archives the explorer and `find` look inside. */
bool archive_name_wanted(const char *name);
bool archive_magic(const uint8_t magic[4]);
/* The metallib magics: MTLB, or the fat CB FE BA BE. */
bool metallib_magic(const uint8_t magic[4]);

struct member_reader;
/* Called once per regular-file member that holds a metallib magic. `size`
 * is the size the archive declares (0 when unknown). The callback may call
 * member_read_all(); returning nonzero stops the listing. */
typedef int (*member_fn)(void *ctx, const char *name, uint64_t size, struct member_reader *rd);

/* Lists `path`. Returns 0 when the whole archive was read, else -1 with a
 * one-line reason in err (entries before the damage were still reported).
 * `cancel`, if not NULL, is polled between entries. */
int archive_list_metallibs(const char *path, member_fn fn, void *ctx, const volatile int *cancel,
                           char *err, size_t err_size);

/* Decompresses the current member whole. Returns a malloc'd buffer (freed
 * by the caller, or handed to mtlbx_open_memory_owned) or NULL with err
 * set: too large, damaged, or out of memory. */
void *member_read_all(struct member_reader *rd, size_t *len, char *err, size_t err_size);

/* Splits "ARCHIVE!MEMBER" at the first '!' whose left part is an existing
 * regular file. Returns the length of the archive part, or 0 when `arg`
 * names no archive member (then it is an ordinary path). */
size_t member_path_split(const char *arg);

/* Opens `arg` as a metallib: an ordinary path through mtlbx_open_path, or
 * "ARCHIVE!MEMBER" decompressed into memory (named by `arg`). This is the
 * one place every command and the explorer open what the user names. */
int open_any(const char *arg, mtlbx_file **out, struct mtlbx_error *err);

#endif
