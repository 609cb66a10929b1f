/* `mtlbx textconv FILE`: a stable text rendering of a library for git's
 * textconv, so that `git diff` and `git log -p` on committed metallibs show
 * which functions changed, by name:
 *
 *   .gitattributes:  *.metallib diff=metallib
 *   git config diff.metallib.textconv "mtlbx textconv"
 *
 * Stable means: no absolute offsets or sizes that shift when one module
 * grows, functions in name order (a rebuild that reorders the function list
 * changes nothing), one fact per line. Each function starts with a line
 * "function NAME" at column 0, so git's default hunk header names it.
 *
 * git stops the whole diff when a textconv fails, so a blob that is not a
 * metallib (or is damaged) still gives text, exit 0: its size and SHA-256,
 * or what could be read plus a count of problems. Exit 2 only when FILE
 * cannot be opened or output fails. */
#include "config.h"

#include "cli/commands.h"
#include "checks/hash.h"
#include "checks/sha256.h"
#include "model/msl.h"
#include "json/interface_json.h"
#include "json/values_json.h"
#include "container/header.h"
#include "container/sources.h"
#include "container/value_names.h"
#include "container/diagnostics.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void put_value(const char *indent, const char *key, json_t *v)
{
    char *s = vj_text(v);
    printf("%s%s %s\n", indent, key, s ? s : "?");
    free(s);
    json_decref(v);
}

static void put_hex(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        printf("%02x", p[i]);
}

static void print_sources(mtlbx_library *lib)
{
    const struct mtlbx_sources *src = mbx_library_sources(lib);
    if (!src || !src->present)
        return;
    for (size_t k = 0; k < src->n_archives; k++) {
        if (mbx_archive_load(lib, k) != MTLBX_ARCHIVE_LOADED) {
            uint8_t digest[32];
            mbx_sha256(src->archives[k].payload.ptr, src->archives[k].payload.len, digest);
            printf("source-archive %zu does not decode, sha256 ", k);
            put_hex(digest, 32);
            putchar('\n');
            continue;
        }
        const struct mtlbx_archive *a = &src->archives[k];
        for (size_t m = 0; m < a->n_members; m++) {
            const struct mtlbx_member *mem = &a->members[m];
            fputs("source ", stdout);
            cli_put_escaped(stdout, (struct mtlbx_bytes){ (const uint8_t *)mem->name, strlen(mem->name) });
            if (mem->link_target) {
                fputs(" -> ", stdout);
                cli_put_escaped(stdout,
                                (struct mtlbx_bytes){ (const uint8_t *)mem->link_target, strlen(mem->link_target) });
            } else if (mem->data) {
                uint8_t digest[32];
                mbx_sha256(mem->data, (size_t)mem->size, digest);
                printf(" %llu bytes sha256 ", (unsigned long long)mem->size);
                put_hex(digest, 32);
            }
            putchar('\n');
        }
    }
}

/* qsort has no context argument: the library being sorted. */
static const mtlbx_library *sort_lib;

static int by_name(const void *p, const void *q)
{
    size_t i = *(const size_t *)p, j = *(const size_t *)q;
    struct mtlbx_bytes x = mbx_function_at(sort_lib, i)->name, y = mbx_function_at(sort_lib, j)->name;
    size_t n = x.len < y.len ? x.len : y.len;
    int c = n ? memcmp(x.ptr, y.ptr, n) : 0;
    if (!c)
        c = (x.len > y.len) - (x.len < y.len);
    return c ? c : (i > j) - (i < j);  /* duplicates keep their file order */
}

static void print_arguments(const char *what, const struct mtlbx_air_argument *v, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        char *s = vj_argument_text(&v[k]);
        printf("  %s %s%s%s\n", what, s ? s : "?", v[k].access ? " " : "", v[k].access ? v[k].access : "");
        free(s);
    }
}

/* The declaration `mtlbx sig` prints, one argument a line and each line
 * as "  sig ...", so that git diff shows the one argument that was
 * rebound (device float* a [[buffer(0)]] -> [[buffer(1)]]) in MSL. */
static void print_declaration(const mtlbx_library *lib, size_t i, const struct mtlbx_interface *iface)
{
    const struct mtlbx_function *fn = mbx_function_at(lib, i);
    char tbuf[32];
    const char *type = (fn->present & MTLBX_F_TYPE) ? mbx_function_type_name(fn->type, tbuf, sizeof tbuf) : NULL;
    char *decl = mbx_msl_declaration(iface, fn->name, type, mbx_function_metadata(lib, i),
                                       MTLBX_MSL_ONE_PER_LINE);
    for (char *line = decl, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        printf("  sig %s\n", line);
        if (!next)
            break;
    }
    free(decl);
}

/* "  stage kernel", then "  input buffer(0) a: device float*" per argument
 * and the sig lines; "  interface -" when the module does not decode. */
static void print_interface(mtlbx_interface_reader *rd, const mtlbx_library *lib, size_t i)
{
    struct mtlbx_interface *iface = mbx_interface_read(rd, lib, i, NULL, NULL);
    if (!iface || iface->module.failed) {
        puts("  interface -");
    } else {
        printf("  stage %s\n", iface->stage ? iface->stage : "-");
        print_arguments("input", iface->inputs, iface->n_inputs);
        print_arguments("output", iface->outputs, iface->n_outputs);
        if (iface->cut) {
            char why[160];
            interface_cut_message(why, sizeof why);
            printf("  %s (at %llu)\n", why, (unsigned long long)iface->cut_offset);
        }
        print_declaration(lib, i, iface);
    }
    mbx_interface_free(iface);
}

static void print_function(mtlbx_interface_reader *rd, mtlbx_library *lib, size_t i)
{
    fputs("function ", stdout);
    cli_put_escaped(stdout, mbx_function_at(lib, i)->name);
    putchar('\n');
    for (unsigned f = 0; f < MTLBX_FF_COUNT; f++) {
        /* The interface gets a line per argument (below), so that git
         * shows one changed line; its JSON is not even built. */
        if (f == MTLBX_FF_INTERFACE)
            continue;
        json_t *v = vj_function_field(lib, i, (enum mtlbx_function_field)f);
        /* Empty lists say nothing: leave them out. hash_ok says what
         * module_hash would: no second hash of every module. */
        if ((json_is_array(v) && json_array_size(v) == 0 && f != MTLBX_FF_TAGS) || f == MTLBX_FF_MODULE_HASH)
            json_decref(v);
        else
            put_value("  ", mbx_function_field_name(f), v);
    }
    print_interface(rd, lib, i);
}

static bool print_library(mtlbx_library *lib, size_t index)
{
    printf("library %zu\n", index);
    for (unsigned f = 0; f < MTLBX_HF_COUNT; f++)
        put_value("  ", mbx_header_field_name(f), vj_header_field(lib, (enum mtlbx_header_field)f));
    print_sources(lib);
    size_t n = mbx_library_function_count(lib);
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return false;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    sort_lib = lib;
    qsort(order, n, sizeof *order, by_name);
    mbx_library_verify_all(lib, 0);       /* for hash_ok */
    /* Every function is decoded: a module that several share, once. */
    mtlbx_interface_reader *rd = mbx_interface_reader_new(lib);
    const struct mtlbx_range modules = mbx_library_header(lib)->modules;
    for (size_t k = 0; k < n; k++) {
        print_function(rd, lib, order[k]);
        /* The modules are decoded through the mapping in name order, that
         * is in no order of the file, and a fault maps a whole folio of
         * the page cache (up to 2 MB on ext4), far more than the module:
         * letting each module's own pages go kept 180 MB of the 329 MB
         * of L20k resident. Every 64 functions the whole module section
         * goes instead (it stays readable, mapped again when touched). */
        if (k % 64 == 63)
            mbx_file_release(mbx_library_file(lib), modules.offset, modules.size);
    }
    mbx_interface_reader_free(rd);
    free(order);
    size_t problems = mbx_library_diag_count(lib);
    if (problems)
        printf("library %zu has %zu problems (mtlbx check)\n", index, problems);
    return true;
}

/* Not a metallib: still one stable line, so that git diff goes on. The
 * file is mapped, not read into memory (a large blob keeps memory flat). */
static int print_not_metallib(const char *path, const char *why)
{
    int fd = open(path, O_RDONLY | O_NOCTTY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        cli_error(path, NULL, "%s", why);
        return 2;
    }
    size_t len = (size_t)st.st_size;
    void *map = len ? mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
    close(fd);
    if (len && map == MAP_FAILED) {
        cli_error(path, NULL, "%s", why);
        return 2;
    }
    uint8_t digest[32];
    mbx_sha256(map, len, digest);
    if (len)
        munmap(map, len);
    char *safe = cli_escape_str_dup(why);
    printf("not a metallib (%s): %zu bytes sha256 ", safe ? safe : "?", len);
    free(safe);
    put_hex(digest, 32);
    putchar('\n');
    return 0;
}

int cmd_textconv(const struct cli_args *args)
{
    const char *path = args->operands[0];
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    if (cli_open_quiet(path, &f, &err) != MTLBX_E_NONE) {
        if (err.status == MTLBX_E_NOT_METALLIB)
            return print_not_metallib(path, err.message) == 0 && fflush(stdout) == 0 ? 0 : 2;
        cli_error(path, err.has_offset ? &err.offset : NULL, "%s", err.message);
        return 2;
    }
    size_t nlib = mbx_file_library_count(f);
    printf("metallib: %zu %s%s\n", nlib, nlib == 1 ? "library" : "libraries",
           mbx_file_is_fat(f) ? " (fat container)" : "");
    bool ok = true;
    for (size_t l = 0; ok && l < nlib; l++)
        ok = print_library(mbx_library_at(f, l), l);
    if (mbx_file_diag_count(f))
        printf("container has %zu problems (mtlbx check)\n", mbx_file_diag_count(f));
    int status = ok ? 0 : 2;
    if (!ok)
        cli_error(path, NULL, "out of memory");
    else if (cli_complete(path, f)) /* out of memory while reading, or the file changed */
        status = 2;
    mbx_close(f);
    if (fflush(stdout) != 0 || ferror(stdout))
        status = 2;
    return status;
}
