/* `mtlbx sources FILE [--list] [-o DIR] [--force]` (CONTRACT.md): lists, or
 * extracts under DIR, the members of the embedded source archives
 * (FORMAT.md §9). Without --list or -o it lists.
 *
 * Listing: one line per member, ARCHIVE-ID <TAB> SIZE <TAB> NAME, with the
 * id and name escaped (a TAB or newline inside a name becomes \x09 / \x0a,
 * so the columns always split cleanly). Fat files prefix the id with
 * "sliceK/".
 *
 * Extracting writes DIR/[sliceK/]ARCHIVE/MEMBER-PATH, where ARCHIVE is the
 * archive id made safe (safe_component, "~2", "~3" ... when two ids collide):
 * every archive carries its own metal-options.txt and often the same
 * headers, so members of different archives must not meet in one tree.
 * Member paths are absolute in real files (P15): the leading '/' is dropped
 * and the rest kept under DIR. Refused, with a message each and exit 2,
 * while every other member is still written: a path with ".." or a control
 * byte; symbolic links, hard links, devices, FIFOs and other special
 * members (Apple's tools never write them; following one could lead out of
 * DIR); a second member with the same path in one archive (it would
 * silently replace the first; --force never applies to files this run
 * wrote); an existing file without --force; a symlink met on the way
 * (never followed). Directory members write nothing: the directories that
 * regular members need are created on demand. One line per written file
 * on stdout.
 *
 * Exit: 0 ok; 1 the library has no embedded sources; 2 the file cannot be
 * opened, the section is damaged (its errors are printed, and whatever
 * archives could be read are still listed or written), an archive does not
 * decode, or any member was refused or failed.
 */
#include "config.h"

#include "cli/commands.h"
#include "program/member_plan.h"
#include "program/name_set.h"
#include "program/safe_write.h"
#include "container/diagnostics.h"
#include "container/file.h"
#include "container/header.h"
#include "container/sources.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdbool.h>

static const char *type_word(enum mtlbx_member_type t)
{
    switch (t) {
    case MTLBX_MEMBER_FILE: return "regular file";
    case MTLBX_MEMBER_DIR: return "directory";
    case MTLBX_MEMBER_SYMLINK: return "symbolic link";
    case MTLBX_MEMBER_HARDLINK: return "hard link";
    case MTLBX_MEMBER_DEVICE: return "device";
    case MTLBX_MEMBER_FIFO: return "FIFO";
    default: return "special file";
    }
}

static char *esc(const void *p, size_t n)
{
    char *s = cli_escape_dup(p, n);
    return s ? s : strdup("?");
}

/* Explains why an archive failed: the last diagnostic inside its group. */
static void report_failed(const char *path, const mtlbx_library *lib, const struct mtlbx_archive *a)
{
    uint64_t lo = a->group_offset, hi = a->group_offset + 4 + (uint64_t)a->group_size;
    const struct mtlbx_diag *why = NULL;
    for (size_t i = 0; i < mbx_library_diag_count(lib); i++) {
        const struct mtlbx_diag *d = mbx_library_diag(lib, i);
        if (d->severity == MTLBX_ERROR && d->offset >= lo && d->offset < hi)
            why = d;
    }
    char *id = esc(a->id.ptr, a->id.len);
    char *msg = why ? esc(why->message, strlen(why->message)) : strdup("does not decode");
    uint64_t at = why ? why->offset : a->payload_offset;
    cli_error(path, &at, "source archive %s: %s", id, msg ? msg : "does not decode");
    free(id);
    free(msg);
}

/* Structural problems of the section (found at open time, before any
 * archive is loaded): printed once each. Returns false if there were any. */
static bool report_structure(const char *path, const mtlbx_library *lib)
{
    const struct mtlbx_sources *s = mbx_library_sources(lib);
    if (!s->present)
        return true;
    bool ok = true;
    uint64_t lo = s->range.offset, hi = s->range.offset + s->range.size;
    /* The HSRC/HSRD tag itself: where a bad offset or size is reported. */
    uint64_t tag_lo = UINT64_MAX, tag_hi = 0;
    const struct mtlbx_header_ext *ext = mbx_library_header_ext(lib);
    for (size_t i = 0; i < ext->n_tags; i++)
        if (!strcmp(ext->tags[i].name, s->tag)) {
            tag_lo = ext->tags[i].offset;
            tag_hi = ext->tags[i].value_offset + ext->tags[i].value_len;
            break;
        }
    for (size_t i = 0; i < mbx_library_diag_count(lib); i++) {
        const struct mtlbx_diag *d = mbx_library_diag(lib, i);
        bool in_section = d->offset >= lo && d->offset <= hi;
        bool at_tag = d->offset >= tag_lo && d->offset < tag_hi;
        if (d->severity != MTLBX_ERROR || !(in_section || at_tag))
            continue;
        char *msg = esc(d->message, strlen(d->message));
        cli_error(path, &d->offset, "%s", msg);
        free(msg);
        ok = false;
    }
    if (s->range.size == 0 && ok) {
        cli_error(path, NULL, "the %s sources section could not be read", s->tag);
        ok = false;
    }
    return ok;
}

static void list_archive(const char *slice, const struct mtlbx_archive *a)
{
    char *id = esc(a->id.ptr, a->id.len);
    for (size_t m = 0; m < a->n_members; m++) {
        const struct mtlbx_member *mm = &a->members[m];
        char *name = esc(mm->name, strlen(mm->name));
        printf("%s%s\t%" PRIu64 "\t%s\n", slice, id, mm->size, name);
        free(name);
    }
    free(id);
}

/* Writes one archive's regular members under dir/sub. */
static bool write_archive(const char *path, const char *dir, const char *sub,
                          const struct mtlbx_archive *a, bool force)
{
    bool ok = true;
    struct name_set written = { 0 };
    char *id = esc(a->id.ptr, a->id.len);
    for (size_t m = 0; m < a->n_members; m++) {
        const struct mtlbx_member *mm = &a->members[m];
        if (mm->type == MTLBX_MEMBER_DIR)
            continue;
        char *name = esc(mm->name, strlen(mm->name));
        if (mm->type != MTLBX_MEMBER_FILE) {
            cli_error(path, NULL, "source archive %s: member %s is a %s; not extracted", id, name,
                      type_word(mm->type));
            ok = false;
            free(name);
            continue;
        }
        char *norm = member_plan_path(mm->name); /* ".." stays, for safe_write_under to refuse */
        char *rel = NULL;
        if (!norm || asprintf(&rel, "%s/%s", sub, norm) < 0)
            rel = NULL;
        if (!rel) {
            cli_error(path, NULL, "out of memory");
            ok = false;
        } else if (name_set_has(&written, rel)) {
            cli_error(path, NULL, "source archive %s: member %s appears twice; the second copy is not extracted",
                      id, name);
            ok = false;
        } else {
            char err[256], out[8192];
            if (safe_write_under(dir, rel, mm->data, (size_t)mm->size, force, err, sizeof err, out,
                                 sizeof out) != 0) {
                cli_error(path, NULL, "source archive %s: member %s: %s", id, name, err);
                ok = false;
            } else {
                name_set_add(&written, rel);
                cli_put_escaped(stdout, (struct mtlbx_bytes){ (const uint8_t *)out, strlen(out) });
                putchar('\n');
            }
        }
        free(rel);
        free(norm);
        free(name);
    }
    free(id);
    name_set_free(&written);
    return ok;
}

/* Directory name for an archive: its id made safe, "~K" on collision. */
static char *archive_dir(struct name_set *used, const struct mtlbx_archive *a)
{
    char *base = safe_component(a->id.ptr, a->id.len);
    if (!base)
        return NULL;
    char *out = name_set_unique(used, base, "");
    free(base);
    return out;
}

int cmd_sources(const struct cli_args *args)
{
    const char *file = args->operands[0], *dir = cli_value(args, 'o');
    bool list = cli_flag(args, OPT_LIST), force = cli_flag(args, OPT_FORCE);
    if (dir && !*dir) {
        cli_error(file, NULL, "-o needs a directory name");
        return 2;
    }
    if (!dir)
        list = true;
    mtlbx_file *f = cli_open(file);
    if (!f)
        return 2;

    bool any = false;
    for (size_t li = 0; li < mbx_file_library_count(f); li++)
        any |= mbx_library_sources(mbx_library_at(f, li))->present;
    if (!any) {
        cli_error(file, NULL, "the library has no embedded sources");
        mbx_close(f);
        return 1;
    }
    char derr[256];
    if (dir && make_output_dir(dir, derr, sizeof derr) != 0) {
        cli_error(dir, NULL, "%s", derr);
        mbx_close(f);
        return 2;
    }

    bool ok = true, fat = mbx_file_is_fat(f);
    for (size_t li = 0; li < mbx_file_library_count(f); li++) {
        mtlbx_library *lib = mbx_library_at(f, li);
        const struct mtlbx_sources *s = mbx_library_sources(lib);
        char slice[40] = "";
        if (fat)
            snprintf(slice, sizeof slice, "slice%zu/", li);
        struct name_set used = { .nocase = true };
        ok = report_structure(file, lib) && ok;
        for (size_t ai = 0; ai < s->n_archives; ai++) {
            const struct mtlbx_archive *a = &s->archives[ai];
            if (mbx_archive_load(lib, ai) != MTLBX_ARCHIVE_LOADED) {
                report_failed(file, lib, a);
                ok = false;
                continue;
            }
            if (list)
                list_archive(slice, a);
            if (dir) {
                char *ad = archive_dir(&used, a);
                char *sub = NULL;
                if (!ad || asprintf(&sub, "%s%s", slice, ad) < 0) {
                    cli_error(file, NULL, "out of memory");
                    ok = false;
                } else {
                    ok = write_archive(file, dir, sub, a, force) && ok;
                    free(sub);
                }
                free(ad);
            }
        }
        name_set_free(&used);
    }
    if (cli_complete(file, f))
        ok = false;
    mbx_close(f);
    return ok ? 0 : 2;
}
