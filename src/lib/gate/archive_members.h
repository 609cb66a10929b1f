/* The metallibs inside archives, read with libarchive without unpacking
 * anything to disk. An archive is recognised by its content, never its
 * name: zip (.zip, .ipa, .whl, .jar, .apk, ...), tar, tar compressed with
 * gzip, bzip2, xz, zstd, lz4, lzip or compress (.tar.gz, .tgz, .tar.xz,
 * .tar.zst, ...), 7-Zip, xar, cpio, ar and RAR; archives inside archives
 * are opened too, up to ARCHIVE_MAX_NESTING levels (an .ipa inside a .zip
 * is two), and their members are named OUTER!INNER!MEMBER. Listing an
 * archive reads each member's first bytes; a member is decompressed into
 * memory only when asked for (or when it is an archive to look inside),
 * and never past MEMBER_LIMIT bytes, so a zip bomb or an oversized member
 * is a clear error rather than an exhausted machine. The limit is one per
 * listing, not one per level: the archives held open inside one another
 * and the member read from the innermost share it. Member names are
 * archive bytes: callers show them escaped and never use them as a path
 * to write to. No printing here. */
#ifndef MTLBX_ARCHIVE_MEMBERS_H
#define MTLBX_ARCHIVE_MEMBERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "member_names.h"
#include "container/file.h"
#include "gate/gate.h"

/* Default size limit of one decompressed member (256 MiB); the program
 * sets its own from the variable MTLBX_MEMBER_LIMIT (bytes). */
#define MEMBER_LIMIT_DEFAULT ((uint64_t)256 << 20)
/* An archive listing stops after this many entries (a zip can declare
 * millions of empty ones). */
#define ARCHIVE_MAX_ENTRIES 1000000

uint64_t mbx_member_limit(void);
/* Sets the limit for every listing after (0: the default). The library
 * reads no environment: the program passes MTLBX_MEMBER_LIMIT here. */
void mbx_member_limit_set(uint64_t limit);

/* Levels of archives opened one inside another (the outer one is 1). */
#define ARCHIVE_MAX_NESTING 4
/* Bytes of a file or member read to tell what it is (a tar's magic is at
 * offset 257). */
#define ARCHIVE_HEAD 512

struct member_reader;
/* Called once per regular-file member that holds a metallib magic or whose
 * name ends in .metallib, at any nesting level; `name` is the member path,
 * nested ones joined with '!'. `size` is the size the archive declares (0
 * when unknown). The callback may call mbx_member_read_all(); returning
 * nonzero stops the listing. */
typedef int (*member_fn)(void *ctx, const char *name, uint64_t size, struct member_reader *rd);

/* What mbx_archive_list_metallibs returns for a file that holds no archive
 * libarchive reads (a compressed text file, say): err says so. */
#define ARCHIVE_NOT_ARCHIVE (-2)

/* Lists `path` (an archive, or a Mach-O file whose metallib sections are
 * its members: macho_members.h). Returns 0 when the whole archive (and those inside it)
 * was read, ARCHIVE_NOT_ARCHIVE, or -1 with a one-line reason in err: the
 * first problem met, naming the member (entries around it were still
 * reported). `cancel`, if not NULL, is polled between entries. */
int mbx_archive_list_metallibs(const char *path, member_fn fn, void *ctx, const volatile int *cancel,
                           char *err, size_t err_size);

/* The same (only the member `want`, its joined name, when not NULL), and
 * `side` for each other regular member (at any nesting level) whose
 * joined name `side_wants` accepts: what a release gate reads beside the
 * libraries (declared_os.h: a wheel's WHEEL, an app's Info.plist). `side`
 * may read it with mbx_member_read_upto. */
int mbx_archive_list_metallibs_and(const char *path, const char *want, member_fn fn,
                               bool (*side_wants)(const char *joined), member_fn side, void *ctx,
                               const volatile int *cancel, char *err, size_t err_size);

/* True on a thread whose listing now holds archives nested in archives
 * (in a member callback under them). Only one listing in the process holds
 * them at a time (archive_members.c says why): others wait for their turn,
 * so a callback here must not wait for another listing to progress (find's
 * output order), or the two would wait on each other. */
bool mbx_archive_nest_turn_held(void);

/* Decompresses the current member whole. Returns a malloc'd buffer (freed
 * by the caller, or handed to mbx_open_buffer_owned) or NULL with err
 * set: too large, damaged, or out of memory. */
void *mbx_member_read_all(struct member_reader *rd, size_t *len, char *err, size_t err_size);
/* Decompresses the current member without keeping it: the bytes it really
 * holds (an archive's directory may say anything), counted up to one past
 * the limit mbx_member_read_all would apply; -1 when it is damaged. Nothing
 * is kept (a 16 KiB buffer on the stack). */
int64_t mbx_member_measure(struct member_reader *rd);
/* mbx_member_read_all under a limit of the caller's, in bytes (the smaller one wins). */
void *mbx_member_read_upto(struct member_reader *rd, uint64_t limit, size_t *len, char *err, size_t err_size);

/* True for a folder, or a regular file whose content is an archive or a
 * Mach-O file (not a metallib): what the explorer scans and `diff`
 * compares as releases. */
bool mbx_folder_or_archive(const char *path);

/* Splits "ARCHIVE!MEMBER" at the first '!' whose left part is an existing
 * regular file. Returns the length of the archive part, or 0 when `arg`
 * names no archive member (then it is an ordinary path). */
size_t mbx_member_path_split(const char *arg);

/* Opens `arg` as a metallib: an ordinary path through mbx_open_path, or
 * "ARCHIVE!MEMBER[!MEMBER...]" decompressed into memory (named by `arg`);
 * a Mach-O file with one metallib section opens that one. This is the
 * one place every command and the explorer open what the user names.
 * A member offered for exactly `arg` on this thread (mbx_open_any_offer) is
 * taken instead of walking the archive. */
int mbx_open_any(const char *arg, mtlbx_file **out, struct mtlbx_error *err);

/* Members already read, for the next mbx_open_any() of them. Whoever reads a
 * whole archive in one pass (release_pair) offers the members its caller
 * is about to open, so that each open does not walk the archive from its
 * start again. An offer is for exactly the string `arg` (kept as a
 * pointer: it must live until withdrawn), on the calling thread only (the
 * explorer's background threads never see it), and is taken once: `data`
 * (malloc'd, owned from here on) or, when reading it failed, the one-line
 * `error` mbx_open_any would have given. At most OPEN_ANY_OFFERS at once;
 * returns false (data freed) when none is free. */
#define OPEN_ANY_OFFERS 2
bool mbx_open_any_offer(const char *arg, void *data, size_t len, const char *error);
/* Frees every offer of this thread that was not taken. */
void mbx_open_any_withdraw(void);

#endif
