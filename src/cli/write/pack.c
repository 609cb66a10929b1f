/* `mtlbx pack`: a library written, three ways (src/lib/writer).
 *
 *   pack DIR -o OUT                      the library DIR/manifest.json
 *                                        describes (what unpack wrote)
 *   pack A.air B.air ... --target OS:VER -o OUT
 *                                        a library of AIR modules, as
 *                                        Apple's `metallib` writes one
 *   pack --from FILE -f NAME... -o OUT   just those functions of FILE
 *
 * OUT is written through safe_write: a temporary beside it, renamed when
 * whole, removed on any failure or signal (--from: program/pack_select, which
 * the explorer's w on marked functions calls too); an existing OUT is refused
 * without --force, and FILE itself is never replaced. A module that is
 * not AIR, two functions of one name, a module built for a newer OS than
 * the target, a manifest whose NAME, TYPE, AIR or MSL version its module
 * contradicts (unless --keep-manifest-values: the writer's
 * mbx_manifest_load, with plain check's comparison): exit 2 and no OUT.
 *
 * Exit: 0 written; 1 (--from) no -f NAME matched; 2 error. */
#include "config.h"

#include "cli/commands.h"
#include "writer/manifest.h"
#include "program/fatal_cleanup.h"
#include "program/pack_select.h"
#include "program/safe_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void writer_error(const char *path, mtlbx_writer *w)
{
    int64_t at = mbx_writer_error_offset(w);
    uint64_t off = (uint64_t)at;
    cli_error(path, at >= 0 ? &off : NULL, "%s", mtlbx_writer_error_string(w));
}

/* Lays the model out into OUT. */
static int write_out(const char *out, mtlbx_writer *w, bool force, const struct safe_write_guard *guard)
{
    struct safe_write_temp t;
    char err[256];
    if (safe_write_begin(out, force, guard, &t, err, sizeof err) != 0) {
        cli_error(out, NULL, "%s", err);
        return 2;
    }
    if (mbx_writer_write_fd(w, t.fd) != MTLBX_WRITER_OK) {
        safe_write_abort(&t);
        cli_error(out, NULL, "%s", mtlbx_writer_error_string(w));
        return 2;
    }
    if (safe_write_commit(&t, err, sizeof err) != 0) {
        cli_error(out, NULL, "%s", err);
        return 2;
    }
    size_t more;
    const char *note = mbx_writer_note(w, &more);
    if (note)
        fprintf(stderr, "%s: note: %s%s\n", cli_program_name(), note, more ? " (and more like it)" : "");
    return 0;
}

static int pack_dir(const char *dir, const char *out, bool force, bool keep_values)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        cli_error(dir, NULL, "%s", errno == ENOTDIR ? "not a directory (pack takes the folder unpack wrote, or "
                                                      ".air modules with --target)"
                                                    : strerror(errno));
        return 2;
    }
    char mpath[4200], err[512];
    snprintf(mpath, sizeof mpath, "%s/%s", dir, MANIFEST_NAME);
    int status = 2;
    mtlbx_writer *w = mbx_manifest_load(dfd, keep_values ? MBX_MANIFEST_KEEP_VALUES : 0, err, sizeof err);
    if (!w)
        cli_error(mpath, NULL, "%s", err);
    else
        status = write_out(out, w, force, NULL);
    mtlbx_writer_free(w);
    close(dfd);
    return status;
}

static int pack_modules(const struct cli_args *args, const char *target, const char *out, bool force)
{
    mtlbx_writer *w = mtlbx_writer_new();
    if (!w) {
        cli_error(out, NULL, "out of memory");
        return 2;
    }
    int status = 2;
    if (mtlbx_writer_target(w, target) != MTLBX_WRITER_OK) {
        cli_error(target, NULL, "%s", mtlbx_writer_error_string(w));
        goto out;
    }
    for (int i = 0; i < args->n_operands; i++) {
        const char *path = args->operands[i];
        char *shown = cli_escape_str_dup(path);
        /* The writer's message without a name of its own: cli_error
         * names the module (and the offset in it). */
        int rc = mbx_writer_add_air_file(w, path);
        if (rc != MTLBX_WRITER_OK) {
            writer_error(shown ? shown : path, w);
            free(shown);
            goto out;
        }
        free(shown);
    }
    if (mbx_writer_prepare(w) != MTLBX_WRITER_OK) {
        writer_error(out, w);
        goto out;
    }
    status = write_out(out, w, force, NULL);
out:
    mtlbx_writer_free(w);
    return status;
}

static int pack_from(const struct cli_args *args, const char *from, const char *out, bool force)
{
    mtlbx_file *f = cli_open(from);
    if (!f)
        return 2;
    size_t n_libs = mbx_file_library_count(f);
    bool **keep = calloc(n_libs + 1, sizeof *keep);
    bool ok = keep != NULL;
    for (size_t l = 0; ok && l < n_libs; l++)
        ok = (keep[l] = calloc(mbx_library_function_count(mbx_library_at(f, l)) + 1, 1)) != NULL;
    int status = ok ? 0 : 2;
    size_t matched = 0;
    if (!ok)
        cli_error(from, NULL, "out of memory");
    /* Each -f NAME as every command reads it (names.c); a miss is said and
     * the others are still kept. */
    for (size_t k = 0; ok && k < args->n_values; k++) {
        if (args->values[k].key != 'f')
            continue;
        struct mtlbx_name_matches m;
        int rc = cli_resolve_functions(from, f, args->values[k].value, false, &m);
        if (rc == 2)
            status = 2;
        for (size_t j = 0; rc == 0 && j < m.n; j++) {
            matched += !keep[m.v[j].library][m.v[j].function];
            keep[m.v[j].library][m.v[j].function] = true;
        }
        if (rc == 0)
            mbx_name_matches_free(&m);
    }
    if (status == 0 && matched == 0)
        status = 1;
    if (status == 0) {
        /* The explorer's w writes through the same call (program/pack_select). */
        struct pack_select p = { .file = f, .file_path = from, .keep = keep, .out = out, .force = force };
        switch (pack_select_write(&p)) {
        case PACK_SELECT_OK: break;
        case PACK_SELECT_INPUT: {
            uint64_t off = (uint64_t)p.err_offset;
            cli_error(from, p.err_offset >= 0 ? &off : NULL, "%s", p.err);
            status = 2;
            break;
        }
        case PACK_SELECT_CHANGED:
            if (!cli_complete(from, f))
                cli_error(from, NULL, "%s", p.err);
            status = 2;
            break;
        default:
            cli_error(out, NULL, "%s", p.err);
            status = 2;
            break;
        }
    }
    for (size_t l = 0; keep && l < n_libs; l++)
        free(keep[l]);
    free(keep);
    mbx_close(f);
    return status;
}

int cmd_pack(const struct cli_args *args)
{
    const char *out = cli_value(args, 'o'), *target = cli_value(args, OPT_TARGET), *from = cli_value(args, OPT_FROM);
    bool force = cli_flag(args, OPT_FORCE), names = cli_flag(args, 'f');
    const char *prog = cli_program_name();
    /* Ctrl-C, SIGTERM or SIGHUP while OUT is written remove its temporary
     * (cli_open installs these too, but pack DIR and --target open no
     * library). */
    fatal_cleanup_install_handlers();
    if (!out || !*out) {
        cli_error(prog, NULL, "pack: -o needs a file name");
        return 2;
    }
    bool keep = cli_flag(args, OPT_KEEP_MANIFEST_VALUES);
    if (keep && (from || target)) {
        cli_error(prog, NULL, "pack: --keep-manifest-values goes with pack DIR (a manifest's values)");
        return 2;
    }
    if (from) {
        if (args->n_operands || target || !names) {
            cli_error(prog, NULL, "pack --from FILE takes -f NAME (one or more), no operand and no --target");
            return 2;
        }
        return pack_from(args, from, out, force);
    }
    if (names) {
        cli_error(prog, NULL, "pack: -f NAME goes with --from FILE");
        return 2;
    }
    if (target) {
        if (!args->n_operands) {
            cli_error(prog, NULL, "pack --target: give the .air modules to pack");
            return 2;
        }
        return pack_modules(args, target, out, force);
    }
    if (args->n_operands != 1) {
        cli_error(prog, NULL, "pack: one folder (what unpack wrote), or .air modules with --target OS:VERSION");
        return 2;
    }
    return pack_dir(args->operands[0], out, force, keep);
}
