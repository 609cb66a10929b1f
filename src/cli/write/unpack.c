/* `mtlbx unpack FILE -o DIR [--force]`: a library as its values and its
 * parts, for `mtlbx pack DIR` to give the file back byte for byte.
 *
 * DIR gets manifest.json (manifest.h: the values in file order, no
 * offset, size, MDSZ, OFFT or HASH), one NAME.air per module (the bytes
 * its HASH covers, named as `mtlbx extract` names them: made safe,
 * NAME~2.air for a name taken) and sources/N.tar.bz2 per embedded source
 * archive (its payload as stored, padding included). A fat file's slices
 * go under DIR/sliceK/.
 *
 * Before anything is written, the model is laid out again and compared
 * with the file (mbx_writer_compare): a file the rules and quirks cannot
 * give back is refused (exit 2, the first offset that differs), never
 * unpacked into something pack would change. Everything is written into
 * a temporary folder beside DIR (dir_swap.h), through safe_write (never
 * outside it), manifest.json last, and the folder is put in place whole:
 * a failure, a file-size limit or a signal at any moment leaves the old
 * DIR, or none, as it was. DIR may be missing or empty; a DIR with files
 * is replaced only with --force, and only when it is an earlier unpack
 * (it holds manifest.json).
 *
 * Exit: 0 written; 2 the file cannot be read, cannot be unpacked byte for
 * byte, or a write failed. */
#include "config.h"

#include "cli/commands.h"
#include "writer/manifest.h"
#include "program/dir_swap.h"
#include "program/name_set.h"
#include "program/safe_write.h"
#include "program/span_release.h"
#include "container/gpu_slice.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void files_free(struct mbx_manifest_files *files, mtlbx_writer *w)
{
    for (size_t l = 0; files && l < mbx_writer_library_count(w); l++) {
        for (size_t m = 0; files[l].modules && m < mbx_manifest_module_count(w, l); m++)
            free(files[l].modules[m]);
        for (size_t a = 0; files[l].archives && a < mbx_manifest_archive_count(w, l); a++)
            free(files[l].archives[a]);
        free(files[l].modules);
        free(files[l].archives);
    }
    free(files);
}

/* Names every library's files. Names from the file are made safe; one
 * that had to change is said on stderr. */
static struct mbx_manifest_files *name_files(const char *path, mtlbx_writer *w)
{
    size_t n = mbx_writer_library_count(w);
    bool fat = mbx_writer_is_fat(w);
    struct mbx_manifest_files *files = calloc(n + 1, sizeof *files);
    if (!files)
        return NULL;
    for (size_t l = 0; l < n; l++) {
        size_t n_modules = mbx_manifest_module_count(w, l), n_archives = mbx_manifest_archive_count(w, l);
        struct name_set used = { .nocase = true };
        char prefix[32] = "";
        if (fat)
            snprintf(prefix, sizeof prefix, "slice%zu/", l);
        files[l].modules = calloc(n_modules + 1, sizeof *files[l].modules);
        files[l].archives = calloc(n_archives + 1, sizeof *files[l].archives);
        if (!files[l].modules || !files[l].archives) {
            name_set_free(&used);
            files_free(files, w);
            return NULL;
        }
        /* Modules are named in the order the functions use them (as
         * extract names them), so the first of a name keeps it. */
        size_t *order = malloc((n_modules + 1) * sizeof *order);
        size_t k = order ? mbx_manifest_module_order(w, l, order) : SIZE_MAX;
        bool ok = k != SIZE_MAX;
        for (size_t j = 0; ok && j < k; j++) {
            size_t m = order[j];
            struct mtlbx_bytes t = mbx_manifest_module_name(w, l, m);
            char fallback[40];
            snprintf(fallback, sizeof fallback, "module-%zu", m);
            const uint8_t *nm = t.ptr ? t.ptr : (const uint8_t *)fallback;
            size_t len = t.ptr ? strnlen((const char *)t.ptr, t.len) : strlen(fallback);
            char *file = name_set_unique_file(&used, nm, len, ".air");
            char *full = file ? malloc(strlen(prefix) + strlen(file) + 1) : NULL;
            ok = full != NULL;
            if (ok) {
                strcpy(full, prefix);
                strcat(full, file);
                files[l].modules[m] = full;
                /* Said when the name could not be used as it is. */
                char *safe = safe_component(nm, len);
                if (safe && (strlen(safe) != len || memcmp(safe, nm, len) != 0)) {
                    char *shown = cli_escape_dup(nm, len);
                    char *sf = cli_escape_str_dup(full);
                    cli_error(path, NULL, "warning: function %s is not a safe file name; its module is %s",
                              shown ? shown : "?", sf ? sf : "?");
                    free(shown);
                    free(sf);
                }
                free(safe);
            }
            free(file);
        }
        free(order);
        name_set_free(&used);
        for (size_t a = 0; ok && a < n_archives; a++) {
            char name[96];
            snprintf(name, sizeof name, "%ssources/%zu.tar.bz2", prefix, a);
            ok = (files[l].archives[a] = strdup(name)) != NULL;
        }
        if (!ok) {
            files_free(files, w);
            return NULL;
        }
    }
    return files;
}

/* The modules and source archives into the temporary folder `tmp`;
 * messages name them under `dir`, where they will be. */
static int write_parts(mtlbx_file *f, const char *dir, const char *tmp, mtlbx_writer *w,
                       const struct mbx_manifest_files *files, const struct safe_write_guard *input)
{
    char err[256];
    const uint8_t *base = mbx_file_data(f);
    /* Nothing written is read again: the mapping's pages go as the
     * modules are written, or unpacking a 300 MB library keeps 300 MB. */
    struct span_release written;
    span_release_init(&written, f);
    int status = 0;
    for (size_t l = 0; status == 0 && l < mbx_writer_library_count(w); l++) {
        for (size_t m = 0; status == 0 && m < mbx_manifest_module_count(w, l); m++) {
            struct mtlbx_bytes b = mbx_manifest_module_bytes(w, l, m);
            const char *rel = files[l].modules[m];
            if (safe_write_under_guarded(tmp, rel, b.ptr, b.len, false, input, err, sizeof err, NULL, 0) !=
                0) {
                char *sf = cli_escape_str_dup(rel);
                cli_error(dir, NULL, "%s: %s", sf ? sf : "?", err);
                free(sf);
                status = 2;
            }
            span_release_add(&written, (struct mtlbx_range){ (uint64_t)(b.ptr - base), b.len });
        }
        for (size_t a = 0; status == 0 && a < mbx_manifest_archive_count(w, l); a++) {
            struct mtlbx_bytes ar = mbx_manifest_archive_bytes(w, l, a);
            if (safe_write_under_guarded(tmp, files[l].archives[a], ar.ptr, ar.len, false,
                                         input, err, sizeof err, NULL, 0) != 0) {
                cli_error(dir, NULL, "%s: %s", files[l].archives[a], err);
                status = 2;
            }
        }
    }
    span_release_flush(&written);
    return status;
}

/* "DIR/NAME", malloc'd. */
static char *joined(const char *dir, const char *name)
{
    size_t dl = strlen(dir), n = dl + strlen(name) + 2;
    char *path = malloc(n);
    if (path)
        snprintf(path, n, "%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", name);
    return path;
}

/* manifest.json, streamed into safe_write's temporary in the temporary
 * folder `tmp` (messages name it under `dir`). */
static int write_manifest(const char *dir, const char *tmp, mtlbx_writer *w, const struct mbx_manifest_files *files,
                          const struct safe_write_guard *input)
{
    char *path = joined(dir, MANIFEST_NAME), *tmp_path = joined(tmp, MANIFEST_NAME), err[256];
    if (!path || !tmp_path) {
        free(path);
        free(tmp_path);
        cli_error(dir, NULL, "out of memory");
        return 2;
    }
    struct safe_write_temp t;
    int status = 2;
    if (safe_write_begin(tmp_path, false, input, &t, err, sizeof err) != 0) {
        cli_error(path, NULL, "%s", err);
    } else {
        int fd = dup(t.fd);
        FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
        bool ok = out && mbx_manifest_render(w, files, out, err, sizeof err);
        if (!out) {
            if (fd >= 0)
                close(fd);
            snprintf(err, sizeof err, "out of memory");
        }
        if (out && fclose(out) != 0 && ok) {
            ok = false;
            snprintf(err, sizeof err, "write failed: %s", strerror(errno));
        }
        if (!ok) {
            safe_write_abort(&t);
            cli_error(path, NULL, "%s", err);
        } else if (safe_write_commit(&t, err, sizeof err) != 0) {
            cli_error(path, NULL, "%s", err);
        } else {
            status = 0;
        }
    }
    free(path);
    free(tmp_path);
    return status;
}

/* A binary archive (FORMAT §24) is refused before anything is laid out:
 * pack has no rules for compiled GPU code, so its slices could never come
 * back byte for byte, and half a file unpacked (its AIR alone) would
 * break pack's promise without a word. The refusal says what the file
 * holds and the way round: thin to the AIR64 slice, then unpack that.
 * True when refused (one line printed). */
static bool refuse_gpu_slices(const char *file, const mtlbx_file *f)
{
    size_t n = mbx_gpu_slice_count(f);
    if (!n)
        return false;
    char held[512];
    size_t len = 0;
    held[0] = '\0';
    for (size_t i = 0; i < n && len < sizeof held; i++) {
        const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(f, i);
        const char *arch = mbx_fat_arch_name(g->cputype);
        int w = snprintf(held + len, sizeof held - len, "%s%s at %llu", i ? ", " : "", arch ? arch : "GPU",
                         (unsigned long long)g->offset);
        len = w < 0 ? len : len + (size_t)w;
    }
    bool air = false;
    for (size_t i = 0; i < mbx_fat_slice_count(f); i++)
        air |= mbx_fat_slice(f, i)->cputype == MTLBX_CPU_AIR64;
    /* The name as typed when a shell takes it as it is; else FILE. */
    bool plain = *file != '\0' && *file != '-';
    for (const char *p = file; plain && *p; p++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/+-,@%:=", *p) != NULL;
    uint64_t at = mbx_gpu_slice_at(f, 0)->offset;
    if (air)
        cli_error(file, &at, "cannot unpack: it holds GPU slices (%s); unpack writes AIR libraries only, "
                  "and pack cannot give compiled GPU code back: keep the AIR first with "
                  "`mtlbx thin %s air64 -o OUT`, then unpack OUT", held, plain ? file : "FILE");
    else
        cli_error(file, &at, "cannot unpack: it holds GPU slices (%s) and no air64 slice; unpack writes AIR "
                  "libraries only, and pack cannot give compiled GPU code back", held);
    return true;
}

int cmd_unpack(const struct cli_args *args)
{
    const char *file = args->operands[0], *dir = cli_value(args, 'o');
    bool force = cli_flag(args, OPT_FORCE);
    if (!dir || !*dir) {
        cli_error(file, NULL, "-o needs a directory name");
        return 2;
    }
    /* A rewrite of FILE while it is unpacked is caught by its times (what
     * was hashed must be what is written). */
    struct stat at_open;
    bool have_st = stat(file, &at_open) == 0;
    mtlbx_file *f = cli_open(file);
    if (!f)
        return 2;
    int status = 2;
    struct mbx_manifest_files *files = NULL;
    mtlbx_writer *w = mbx_writer_new();
    if (!w) {
        cli_error(file, NULL, "out of memory");
        goto out;
    }
    if (refuse_gpu_slices(file, f))
        goto out;
    /* The model, then the proof that it gives the file back. */
    int rc = mbx_writer_describe(w, f, MTLBX_WR_DESCRIBE_VERIFY);
    if (rc == MTLBX_WRITER_OK && cli_complete(file, f))
        goto out;
    if (rc == MTLBX_WRITER_OK)
        rc = mbx_writer_compare(w, mbx_file_data(f), mbx_file_size(f));
    if (rc != MTLBX_WRITER_OK) {
        int64_t at = mbx_writer_error_offset(w);
        uint64_t off = (uint64_t)at;
        cli_error(file, at >= 0 ? &off : NULL, "cannot unpack byte for byte: %s", mtlbx_writer_error_string(w));
        goto out;
    }
    if (!(files = name_files(file, w))) {
        cli_error(file, NULL, "out of memory");
        goto out;
    }
    char err[256];
    /* --force never replaces the input itself. */
    struct safe_write_guard input = { 0 };
    struct stat st;
    if (stat(file, &st) == 0)
        input = (struct safe_write_guard){ .has_input = true, .input_dev = (uint64_t)st.st_dev,
                                           .input_ino = (uint64_t)st.st_ino };
    /* Everything goes into a temporary folder beside DIR, put in place
     * whole when the manifest is written: a failure or a signal at any
     * moment leaves the old DIR (or none) as it was. */
    struct dir_swap swap;
    if (dir_swap_begin(&swap, dir, force, file, err, sizeof err) != 0) {
        cli_error(dir, NULL, "%s", err);
        goto out;
    }
    status = write_parts(f, dir, swap.tmp, w, files, &input);
    if (status == 0 && cli_complete(file, f))
        status = 2;
    if (status == 0 && cli_modified_since(file, have_st ? &at_open : NULL)) {
        cli_error(file, NULL, "the file changed while it was unpacked; nothing written");
        status = 2;
    }
    if (status == 0)
        status = write_manifest(dir, swap.tmp, w, files, &input);
    if (status != 0) {
        dir_swap_abort(&swap);
    } else {
        int put = dir_swap_commit(&swap, err, sizeof err);
        if (put < 0) {
            cli_error(dir, NULL, "%s; nothing written", err);
            status = 2;
        } else {
            if (put > 0)
                cli_error(dir, NULL, "warning: %s", err);
            char *path = joined(dir, MANIFEST_NAME);
            if (path) {
                cli_put_escaped(stdout, (struct mtlbx_bytes){ (const uint8_t *)path, strlen(path) });
                putchar('\n');
            }
            free(path);
        }
    }
out:
    if (w)
        files_free(files, w);
    mtlbx_writer_free(w);
    mbx_close(f);
    return status;
}
