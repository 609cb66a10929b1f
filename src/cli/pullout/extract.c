/* `mtlbx extract FILE [-o DIR] [-f NAME]... [--force]` (CONTRACT.md):
 * writes each selected function's module, exactly the bytes its HASH
 * covers, to DIR/NAME.air, one line per written file on stdout.
 *
 * Output names. NAME is the function name made safe by safe_component()
 * ('/', '\', controls and invalid UTF-8 become '_', at most 200 bytes).
 * Names are not unique (FORMAT.md §15 item 13) and two names may map to
 * the same safe name, so within one library the functions are numbered in
 * function-list order: the first keeps NAME.air, later ones get
 * NAME~2.air, NAME~3.air, ... (skipping any name already taken).
 * Collisions are judged by Unicode case folding in NFC (name_set.h, the
 * rule the explorer's E uses too), so the result is the same on a
 * case-insensitive, normalising filesystem. Names are assigned over ALL functions before
 * the -f selection is applied, so a function's file name never depends on
 * which others were asked for. A fat file writes each slice's functions
 * under DIR/sliceK/ (K = library index, from 0), since slices usually carry
 * the same function names.
 *
 * -f NAME is a name, a glob or a unique prefix (names.c, as dis and sig).
 *
 * Exit: 0 all written; 1 nothing matched (no -f name matched, or the file
 * has no functions); 2 the file cannot be opened, or any write failed
 * (existing file without --force, unreadable module, I/O error).
 */
#include "config.h"

#include "cli/commands.h"
#include "program/name_set.h"
#include "program/safe_write.h"
#include "program/span_release.h"
#include "checks/hash.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void put_cstr(FILE *out, const char *s)
{
    cli_put_escaped(out, (struct mtlbx_bytes){ (const uint8_t *)s, strlen(s) });
}

static int write_module(const char *dir, const char *name, bool under, struct mtlbx_bytes mod, bool force,
                        const struct safe_write_guard *g, char *err, size_t err_size, char *out, size_t out_size)
{
    if (under)
        return safe_write_under_guarded(dir, name, mod.ptr, mod.len, force, g, err, err_size, out, out_size);
    return safe_write_file_guarded(dir, name, mod.ptr, mod.len, force, g, err, err_size, out, out_size);
}

/* Writes one library's selected functions. Returns false if any failed. */
static bool extract_library(const char *path, mtlbx_library *lib, size_t li, bool fat,
                            const char *dir, const bool *selected, bool force, const struct safe_write_guard *input, const struct stat *at_open,
                            size_t *n_selected)
{
    bool ok = true;
    struct name_set used = { .nocase = true };
    size_t n = mbx_library_function_count(lib);
    struct span_release written;
    span_release_init(&written, mbx_library_file(lib));
    for (size_t i = 0; i < n; i++) {
        const struct mtlbx_function *fn = mbx_function_at(lib, i);
        /* Assign before selecting: names must not depend on the selection. */
        char *file = name_set_unique_file(&used, fn->name.ptr, fn->name.len, ".air");
        if (!file) {
            cli_error(path, NULL, "out of memory");
            ok = false;
            break;
        }
        if (selected && !selected[i]) {
            free(file);
            continue;
        }
        (*n_selected)++;
        char *shown = cli_escape_dup(fn->name.ptr, fn->name.len);
        struct mtlbx_bytes mod = mbx_function_module_bytes(lib, i);
        if (!fn->module_valid || !mod.ptr) {
            cli_error(path, &fn->entry_offset, "function %s: its module lies outside the module section; not written",
                      shown ? shown : "?");
            ok = false;
        } else {
            char err[256], out[8192], rel[600];
            snprintf(rel, sizeof rel, "slice%zu/%s", li, file);
            /* What is written must hash to HASH: a same-size rewrite of the
             * input while it is copied is caught before the rename. */
            struct safe_write_guard g = *input;
            g.sha256 = fn->hash;
            int rc = write_module(dir, fat ? rel : file, fat, mod, force, &g, err, sizeof err, out, sizeof out);
            uint8_t actual[32];
            if (rc == -2 && !cli_modified_since(path, at_open) &&
                mbx_function_verify(lib, i, actual) == MTLBX_HASH_MISMATCH) {
                /* The module as stored does not match its HASH (mtlbx check
                 * reports it): write what the file holds, still checked. */
                g.sha256 = actual;
                rc = write_module(dir, fat ? rel : file, fat, mod, force, &g, err, sizeof err, out, sizeof out);
            }
            if (rc != 0) {
                char *sf = cli_escape_str_dup(file);
                char slice[40] = "";
                if (fat)
                    snprintf(slice, sizeof slice, "slice%zu/", li);
                cli_error(path, NULL, "function %s: %s%s: %s", shown ? shown : "?", slice,
                          sf ? sf : "?", err);
                free(sf);
                ok = false;
            } else {
                put_cstr(stdout, out);
                putchar('\n');
            }
        }
        free(shown);
        free(file);
        /* Nothing written is read again: its pages go, or every module
         * stays resident (325 MB extracting a 329 MB library), and so do
         * the entries behind us (memory flat, as dump and sig). Module
         * by module kept the pages two modules share (67 MB). */
        if (fn->module_valid && mod.ptr)
            span_release_add(&written, fn->module);
        if (i % 4096 == 4095) {
            mbx_library_release_pages(lib);
            mbx_library_forget(lib, i); /* fn is i's */
        }
    }
    span_release_flush(&written);
    name_set_free(&used);
    return ok;
}

int cmd_extract(const struct cli_args *args)
{
    const char *file = args->operands[0], *dir = cli_value(args, 'o');
    bool force = cli_flag(args, OPT_FORCE);
    if (!dir)
        dir = ".";
    if (!*dir) {
        cli_error(file, NULL, "-o needs a directory name");
        return 2;
    }
    char **want = calloc(args->n_values + 1, sizeof *want);
    size_t n_want = 0;
    if (!want)
        return 2;
    for (size_t i = 0; i < args->n_values; i++)
        if (args->values[i].key == 'f')
            want[n_want++] = (char *)args->values[i].value;
    mtlbx_file *f = cli_open(file);
    if (!f) {
        free(want);
        return 2;
    }
    /* The output directory is created if missing, with its parents. */
    char derr[256];
    if (make_output_dir(dir, derr, sizeof derr) != 0) {
        cli_error(dir, NULL, "%s", derr);
        mbx_close(f);
        free(want);
        return 2;
    }
    /* --force never replaces the input itself (lib.air holding "lib"). */
    struct safe_write_guard input = { 0 };
    struct stat st;
    bool have_st = stat(file, &st) == 0;
    if (have_st)
        input = (struct safe_write_guard){ .has_input = true, .input_dev = (uint64_t)st.st_dev,
                                           .input_ino = (uint64_t)st.st_ino };
    long slice;
    if (!cli_slice(args, file, f, &slice)) {
        mbx_close(f);
        free(want);
        return 2;
    }
    /* Each -f NAME as every command reads it (names.c): a name, a glob or
     * a unique prefix; what it does not find is reported and the others
     * are still written. */
    size_t n_libs = mbx_file_library_count(f);
    bool **selected = calloc(n_libs + 1, sizeof *selected);
    bool ok = selected != NULL;
    int status = 0;
    for (size_t li = 0; ok && n_want && li < n_libs; li++)
        ok = (selected[li] = calloc(mbx_library_function_count(mbx_library_at(f, li)) + 1, sizeof **selected)) != NULL;
    for (size_t k = 0; ok && k < n_want; k++) {
        struct mtlbx_name_matches m;
        int rc = cli_resolve_functions(file, f, want[k], false, &m);
        if (rc == 2)
            status = 2;
        for (size_t j = 0; rc == 0 && j < m.n; j++)
            if (slice < 0 || m.v[j].library == (size_t)slice)
                selected[m.v[j].library][m.v[j].function] = true;
        mbx_name_matches_free(&m);
    }
    if (!ok)
        cli_error(file, NULL, "out of memory");
    size_t n_selected = 0;
    /* One slice chosen (--slice N): its modules go to DIR itself. */
    bool fat = mbx_file_is_fat(f) && slice < 0;
    for (size_t li = 0; ok && status == 0 && li < n_libs; li++)
        if (slice < 0 || li == (size_t)slice)
            ok = extract_library(file, mbx_library_at(f, li), li, fat, dir, n_want ? selected[li] : NULL,
                                 force, &input, have_st ? &st : NULL, &n_selected) && ok;
    if (!ok)
        status = 2;
    if (ok && status == 0 && n_selected == 0) {
        if (n_want == 0)
            cli_error(file, NULL, "the library has no functions");
        status = 1;
    }
    if (cli_complete(file, f))
        status = 2;
    for (size_t li = 0; selected && li < n_libs; li++)
        free(selected[li]);
    free(selected);
    free(want);
    mbx_close(f);
    return status;
}
