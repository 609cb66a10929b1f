/* Mach-O hosts (macho.c): the sections of a Mach-O file that hold bytes
 * in the file, and each slice's minimum OS. Metallibs travel inside them:
 * PyTorch links its kernels into libtorch with `-sectcreate __TEXT
 * metal_basic`, and Python extensions (.so) and .dylib files in wheels do
 * the same; the caller recognises a metallib by the first bytes of a
 * section, as it recognises one in an archive.
 *
 * A file is thin (one slice: 32- or 64-bit, either byte order) or
 * universal (CA FE BA BE or CA FE BA BF, big-endian, then one record per
 * slice). The reader never reads bytes itself: it asks the caller through
 * a function, for the universal header first and then for each slice's
 * header and load commands, in increasing offset order, so that a reader
 * that can only go forward (an archive member being decompressed) serves
 * it as well as a mapped file. It copies only the load commands (at most
 * MTLBX_MACHO_MAX_CMDS_SIZE bytes a slice).
 *
 * Everything a hostile file can stretch is bounded and checked: the slice
 * count, slices outside the file or overlapping, the load commands' size
 * and count, each command's size, the section count of a segment against
 * its command's size, sections outside their slice, overlapping one
 * another or the load commands. Each problem is a diagnostic with the
 * offset it is about (absolute in the host), and the walk goes on with
 * what can still be read. No printing. */
#ifndef MTLBX_MACHO_H
#define MTLBX_MACHO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "container/diagnostics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* More slices than any universal binary has (Apple's tools write up to a
 * handful of architectures), and fewer than 45: a Java class file shares
 * the universal magic, followed by its version (45 and up), and file(1)
 * tells them apart the same way. */
#define MTLBX_MACHO_MAX_SLICES 30
/* Load commands of one slice: real binaries have a few hundred KiB at most. */
#define MTLBX_MACHO_MAX_CMDS_SIZE ((uint32_t)16 << 20)
/* Sections handed out per file (a real object file has a few hundred). */
#define MTLBX_MACHO_MAX_SECTIONS 4096
/* LC_BUILD_VERSION and LC_VERSION_MIN_* kept per slice (a zippered macOS
 * and Mac Catalyst binary has two). */
#define MTLBX_MACHO_MAX_MIN_OS 4

/* Load commands that carry a minimum OS. */
#define MTLBX_LC_VERSION_MIN_MACOSX 0x24u
#define MTLBX_LC_VERSION_MIN_IPHONEOS 0x25u
#define MTLBX_LC_VERSION_MIN_TVOS 0x2Fu
#define MTLBX_LC_VERSION_MIN_WATCHOS 0x30u
#define MTLBX_LC_BUILD_VERSION 0x32u

/* One minimum OS a slice declares. `platform` is Apple's PLATFORM_* number
 * (1 macOS, 2 iOS, 3 tvOS, 4 watchOS, 6 Mac Catalyst, 7-9 the simulators,
 * 11 visionOS, 12 its simulator), the same numbers a metallib header
 * carries in byte 11 below its 0x80 flag; an LC_VERSION_MIN_* command
 * gives the platform its name says. */
struct mtlbx_macho_min_os {
    uint32_t cmd;              /* MTLBX_LC_BUILD_VERSION or MTLBX_LC_VERSION_MIN_* */
    uint32_t platform;
    uint16_t major;            /* minos X.Y.Z, packed xxxx.yy.zz in the command */
    uint8_t minor, patch;
    uint64_t offset;           /* of the load command, absolute */
};

struct mtlbx_macho_slice {
    uint32_t cputype, cpusubtype;
    uint64_t offset, size;     /* in the host; a thin file: 0 and its size */
    uint64_t record_offset;    /* of its universal record; a thin file: 0 */
    bool parsed;               /* its header and load commands were read */
    bool is64, big_endian;
    uint32_t filetype;         /* MH_EXECUTE 2, MH_DYLIB 6, MH_BUNDLE 8, ... */
    /* Where its load commands are (absolute) and how many of their bytes
     * the walk read (sizeofcmds, or less when a command was bad). */
    uint64_t commands_offset;
    uint32_t commands_size;
    size_t n_min_os;
    struct mtlbx_macho_min_os min_os[MTLBX_MACHO_MAX_MIN_OS];
};

struct mtlbx_macho_section {
    /* The names as stored (up to 16 bytes each, not always NUL-terminated
     * there), NUL-terminated here; they may hold any byte: escape them. */
    char segment[17], section[17];
    uint64_t offset, size;     /* its bytes in the host, absolute */
    uint64_t header_offset;    /* of its section header, absolute */
    size_t slice;              /* mbx_macho_slice_at(m, slice) */
    uint64_t addr;             /* its address in memory (a symbol's n_value) */
    uint32_t number;           /* 1, 2, ... in load-command order over the
                                  slice's sections (a symbol's n_sect) */
};

/* Fills buf with the n bytes at `offset` of the host. False when they
 * cannot be read: past the end, an I/O error, or behind what a one-pass
 * reader has already passed. */
typedef bool (*mtlbx_macho_read_fn)(void *ctx, uint64_t offset, void *buf, size_t n);

typedef struct mtlbx_macho mtlbx_macho;

/* True when the first n bytes start a Mach-O file: a thin header (any of
 * the four magics) or a universal one whose slice count is 1 to
 * MTLBX_MACHO_MAX_SLICES (not a Java class file). */
bool mbx_macho_magic(const uint8_t *head, size_t n);

/* Reads the universal header, if any, through `read` (the host is `size`
 * bytes; UINT64_MAX when not known). NULL only when memory ran out. */
mtlbx_macho *mbx_macho_open(uint64_t size, mtlbx_macho_read_fn read, void *ctx);
/* Options, set before the first mbx_macho_next_section.
 *
 * Sections of size 0 (not zero-fill) are handed out too, at their
 * declared offset when it lies inside the slice: a GPU slice's
 * `__reflection` may be empty and is still one of its sections. */
void mbx_macho_keep_empty_sections(mtlbx_macho *m);
/* Each load command of each slice, as the walk reads it: `cmd` without
 * LC_REQ_DYLD, its `size` bytes (at least 8, all inside the load
 * commands) in the slice's byte order, `offset` absolute. The bytes last
 * until the call returns. A caller that reads more of a command than the
 * segments and minimum OS this reader keeps (LC_SYMTAB, LC_NOTE) does it
 * here, bounded by `size`. */
typedef void (*mtlbx_macho_command_fn)(void *ctx, size_t slice, uint32_t cmd, const uint8_t *bytes, uint32_t size,
                                       uint64_t offset);
void mbx_macho_on_command(mtlbx_macho *m, mtlbx_macho_command_fn fn, void *ctx);

/* The next section that has bytes in the file (not zero-fill, not empty),
 * slice by slice in file order and by offset within a slice; reads the
 * next slice's header and load commands when the last one's sections are
 * used up. False at the end. *out stays valid after the call. */
bool mbx_macho_next_section(mtlbx_macho *m, struct mtlbx_macho_section *out);
/* The slices known so far (every one of a universal file once the walk
 * has reached it); NULL past the end. */
size_t mbx_macho_slice_count(const mtlbx_macho *m);
const struct mtlbx_macho_slice *mbx_macho_slice_at(const mtlbx_macho *m, size_t i);
/* "arm64", "arm64e", "x86_64", "i386", "armv7", ... or NULL for a CPU
 * type this reader does not name. */
const char *mbx_macho_cpu_name(uint32_t cputype, uint32_t cpusubtype);
/* Problems found so far, each with its absolute offset. */
size_t mbx_macho_diag_count(const mtlbx_macho *m);
const struct mtlbx_diag *mbx_macho_diag(const mtlbx_macho *m, size_t i);
/* An allocation failed: what was handed out is incomplete. */
bool mbx_macho_out_of_memory(const mtlbx_macho *m);
void mbx_macho_close(mtlbx_macho *m);

#ifdef __cplusplus
}
#endif
#endif
