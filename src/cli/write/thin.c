/* `mtlbx thin FILE ARCH... -o OUT [--force]` (CONTRACT.md "The writer and
 * thinning"): keeps some slices of a fat file, byte for byte. `lipo` does
 * not know AIR64, so binary archives (FORMAT §24) were thinned by hand.
 *
 * ARCH is an architecture name (air64, applegpu, amdgpu, intelgpu: every
 * slice of that CPU type) or a slice index. One slice kept is written as
 * its bytes alone (a plain metallib, or a GPU Mach-O); several as a fat
 * file of them, in the order they have in FILE, each at the alignment its
 * record declares. An ARCH the file does not hold is refused, naming what
 * it holds, and nothing is written.
 *
 * OUT is written through safe_write (a temporary beside it, renamed when
 * whole, removed on failure or signal); an existing OUT is refused without
 * --force, and FILE itself is never replaced. A file that changes while it
 * is copied leaves no OUT.
 *
 * Exit: 0 written, 2 refused or failed (nothing written). */
#include "config.h"

#include "cli/commands.h"
#include "program/fatal_cleanup.h"
#include "program/safe_write.h"
#include "container/gpu_slice.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A record's alignment is a power of two; past this the padding would be
 * absurd (2^15, the largest lipo writes for arm64 is 2^14). */
#define MAX_ALIGN 15

/* What FILE holds, for a refusal: "applegpu (slice 0), air64 (slice 1)". */
static void holdings(const mtlbx_file *f, char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < mbx_fat_slice_count(f) && len < size; i++) {
        const struct mbx_fat_slice *s = mbx_fat_slice(f, i);
        const char *name = mbx_fat_arch_name(s->cputype);
        char unknown[32];
        if (!name) {
            snprintf(unknown, sizeof unknown, "cputype 0x%08x", s->cputype);
            name = unknown;
        }
        int n = snprintf(out + len, size - len, "%s%s (slice %zu)", i ? ", " : "", name, i);
        len = n < 0 ? len : len + (size_t)n;
    }
}

/* Marks the slices ARCH names in keep[]; false after a one-line error. */
static bool select_arch(const char *path, const mtlbx_file *f, const char *arch, bool *keep)
{
    size_t n = mbx_fat_slice_count(f);
    char held[1024];
    char *end;
    errno = 0;
    unsigned long index = strtoul(arch, &end, 10);
    if (*arch >= '0' && *arch <= '9' && *end == '\0' && errno == 0) {
        if (index >= n) {
            holdings(f, held, sizeof held);
            cli_error(path, NULL, "no slice %s: the file holds %s", arch, held);
            return false;
        }
        keep[index] = true;
        return true;
    }
    uint32_t cpu = mbx_fat_arch_cputype(arch);
    if (!cpu) {
        char *safe = cli_escape_str_dup(arch);
        cli_error(path, NULL, "'%s' is not an architecture (air64, applegpu, amdgpu, intelgpu) nor a slice index",
                  safe ? safe : "?");
        free(safe);
        return false;
    }
    bool found = false;
    for (size_t i = 0; i < n; i++)
        if (mbx_fat_slice(f, i)->cputype == cpu)
            keep[i] = found = true;
    if (!found) {
        holdings(f, held, sizeof held);
        cli_error(path, NULL, "no %s slice: the file holds %s", arch, held);
    }
    return found;
}

static bool write_all(int fd, const uint8_t *p, uint64_t n, uint64_t at)
{
    while (n) {
        size_t chunk = n > ((size_t)1 << 30) ? (size_t)1 << 30 : (size_t)n;
        ssize_t w = pwrite(fd, p, chunk, (off_t)at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        at += (uint64_t)w;
        n -= (uint64_t)w;
    }
    return true;
}

static void put32be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* The kept slices into t->fd: alone, or behind a fat header. */
static bool write_slices(const mtlbx_file *f, const bool *keep, size_t kept, int fd, char *err, size_t size)
{
    const uint8_t *data = mbx_file_data(f);
    size_t n = mbx_fat_slice_count(f);
    if (kept == 1) {
        for (size_t i = 0; i < n; i++)
            if (keep[i]) {
                const struct mbx_fat_slice *s = mbx_fat_slice(f, i);
                if (!write_all(fd, data + s->offset, s->size, 0)) {
                    snprintf(err, size, "cannot write: %s", strerror(errno));
                    return false;
                }
            }
        return true;
    }
    uint8_t head[8 + 20 * 64];
    put32be(head, 0xCBFEBABEu);
    put32be(head + 4, (uint32_t)kept);
    uint64_t pos = 8 + 20 * (uint64_t)kept;
    size_t r = 0;
    for (size_t i = 0; i < n; i++) {
        if (!keep[i])
            continue;
        const struct mbx_fat_slice *s = mbx_fat_slice(f, i);
        uint32_t align = s->align > MAX_ALIGN ? MAX_ALIGN : s->align;
        uint64_t a = (uint64_t)1 << align;
        pos = (pos + a - 1) & ~(a - 1);
        if (pos + s->size > UINT32_MAX) {
            snprintf(err, size, "the slices kept are more than a fat file's 32-bit offsets can hold");
            return false;
        }
        uint8_t *rec = head + 8 + 20 * r++;
        put32be(rec, s->cputype);
        put32be(rec + 4, s->cpusubtype);
        put32be(rec + 8, (uint32_t)pos);
        put32be(rec + 12, s->size);
        put32be(rec + 16, align);
        /* Alignment runs are holes of the temporary: zeros. */
        if (!write_all(fd, data + s->offset, s->size, pos)) {
            snprintf(err, size, "cannot write: %s", strerror(errno));
            return false;
        }
        pos += s->size;
    }
    if (!write_all(fd, head, 8 + 20 * (uint64_t)kept, 0) || ftruncate(fd, (off_t)pos) != 0) {
        snprintf(err, size, "cannot write: %s", strerror(errno));
        return false;
    }
    return true;
}

int cmd_thin(const struct cli_args *args)
{
    const char *out = cli_value(args, 'o'), *prog = cli_program_name();
    bool force = cli_flag(args, OPT_FORCE);
    if (!out || !*out) {
        cli_error(prog, NULL, "thin: -o needs a file name");
        return 2;
    }
    const char *path = args->operands[0];
    mtlbx_file *f = cli_open(path);
    if (!f)
        return 2;
    int status = 2;
    size_t n = mbx_fat_slice_count(f);
    bool *keep = calloc(n ? n : 1, sizeof *keep);
    if (!keep) {
        cli_error(path, NULL, "out of memory");
        goto done;
    }
    if (!mbx_file_is_fat(f)) {
        cli_error(path, NULL, "not a fat file: a plain metallib has no slices to keep");
        goto done;
    }
    for (int a = 1; a < args->n_operands; a++)
        if (!select_arch(path, f, args->operands[a], keep))
            goto done;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        const struct mbx_fat_slice *s = mbx_fat_slice(f, i);
        if (!keep[i])
            continue;
        if ((uint64_t)s->offset + s->size > mbx_file_size(f)) {
            uint64_t at = s->entry_offset;
            cli_error(path, &at, "slice %zu lies outside the file: it cannot be kept", i);
            goto done;
        }
        kept++;
    }
    struct stat st;
    struct safe_write_guard guard = { 0 };
    if (stat(path, &st) == 0)
        guard = (struct safe_write_guard){ .has_input = true, .input_dev = (uint64_t)st.st_dev,
                                           .input_ino = (uint64_t)st.st_ino };
    fatal_cleanup_install_handlers();
    struct safe_write_temp t;
    char err[256];
    if (safe_write_begin(out, force, &guard, &t, err, sizeof err) != 0) {
        cli_error(out, NULL, "%s", err);
        goto done;
    }
    if (!write_slices(f, keep, kept, t.fd, err, sizeof err)) {
        safe_write_abort(&t);
        cli_error(out, NULL, "%s", err);
        goto done;
    }
    if (mbx_file_changed(f)) {
        safe_write_abort(&t);
        cli_unchanged(path, f);
        goto done;
    }
    if (safe_write_commit(&t, err, sizeof err) != 0) {
        cli_error(out, NULL, "%s", err);
        goto done;
    }
    status = 0;
done:
    free(keep);
    mbx_close(f);
    return status;
}
