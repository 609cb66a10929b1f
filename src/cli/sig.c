/* `mtlbx sig FILE [NAME...] [--json]`: each function's interface as an
 * MSL-style declaration (src/lib/msl_decl.c builds the text), or as
 * FUNCTION_INTERFACE objects with --json. Streams: one module is decoded,
 * printed and freed before the next, so memory stays flat on 20,000
 * functions. A module that does not decode is one error line naming the
 * file and offset, and the other functions still print. */
#include "config.h"

#include "commands.h"
#include "interface_json.h"

#include <stdlib.h>
#include <string.h>

/* Bytes of modules read before their pages are let go at once. */
#define RELEASE_BATCH ((uint64_t)8 << 20)

struct sig_options {
    const char *path;
    bool json;
    int n_names;
    char **names;
    bool *found;
};

static bool bytes_eq(struct mtlbx_bytes b, const char *s, size_t n)
{
    return b.len == n && memcmp(b.ptr, s, n) == 0;
}

/* A NAME matches the raw name, the demangled name, or the demangled name
 * without its parameter list ("utils::scale" for _ZN5utils5scaleEDv3_ff). */
static bool wanted(struct sig_options *o, struct mtlbx_bytes name)
{
    if (o->n_names == 0)
        return true;
    char *d = NULL;
    bool demangled = false, any = false;
    for (int k = 0; k < o->n_names; k++) {
        size_t n = strlen(o->names[k]);
        bool hit = bytes_eq(name, o->names[k], n);
        if (!hit && name.len > 2 && name.ptr[0] == '_' && name.ptr[1] == 'Z') {
            if (!demangled) {
                d = mtlbx_demangle(name);
                demangled = true;
            }
            if (d) {
                char *paren = strchr(d, '(');
                size_t stem = paren ? (size_t)(paren - d) : strlen(d);
                hit = strcmp(d, o->names[k]) == 0 || (stem == n && memcmp(d, o->names[k], n) == 0);
            }
        }
        if (hit)
            any = o->found[k] = true;
    }
    free(d);
    return any;
}

/* The one-line error for a module that does not decode. */
static void report(const struct sig_options *o, const struct mtlbx_function *fn, uint64_t offset, const char *why)
{
    char *name = mtlbx_escape_dup(fn->name.ptr, fn->name.len, MTLBX_ESC_TERMINAL);
    cli_error(o->path, &offset, "%s: interface not decoded: %s", name ? name : "?", why);
    free(name);
}

static bool print_text(const struct sig_options *o, const mtlbx_library *lib, size_t i)
{
    const struct mtlbx_function *fn = mtlbx_function_at(lib, i);
    struct mtlbx_error err = { 0 };
    struct mtlbx_interface *iface = mtlbx_function_interface(lib, i, &err);
    if (!iface) {
        report(o, fn, err.has_offset ? err.offset : fn->module.offset, err.message);
        return false;
    }
    bool ok = !iface->module.failed;
    if (!ok)
        report(o, fn, iface->module.error_offset, iface->module.error);
    char tbuf[32];
    const char *type = (fn->present & MTLBX_F_TYPE) ? mtlbx_function_type_name(fn->type, tbuf, sizeof tbuf) : NULL;
    char *decl = ok ? mtlbx_msl_declaration(iface, fn->name, type, mtlbx_function_metadata(lib, i), MTLBX_MSL_MEMBERS)
                    : NULL;
    if (decl) {
        fputs(decl, stdout);
        /* A blank line after a declaration that spans several lines. */
        fputs(strchr(decl, '\n') ? "\n\n" : "\n", stdout);
    } else if (ok) {
        report(o, fn, fn->module.offset, "out of memory");
        ok = false;
    }
    free(decl);
    mtlbx_interface_free(iface);
    return ok;
}

static bool print_json(const struct sig_options *o, const mtlbx_library *lib, size_t l, size_t i, bool *first)
{
    const struct mtlbx_function *fn = mtlbx_function_at(lib, i);
    json_t *diag = NULL;
    json_t *iface = function_interface_json(lib, i, &diag);
    if (diag) {
        uint64_t offset = (uint64_t)json_integer_value(json_object_get(diag, "offset"));
        char *name = mtlbx_escape_dup(fn->name.ptr, fn->name.len, MTLBX_ESC_TERMINAL);
        cli_error(o->path, &offset, "%s: %s", name ? name : "?", json_string_value(json_object_get(diag, "message")));
        free(name);
    }
    char *esc = mtlbx_escape_dup(fn->name.ptr, fn->name.len, 0);
    char *dem = mtlbx_demangle(fn->name);
    char *dem_esc = dem ? mtlbx_escape_dup((const uint8_t *)dem, strlen(dem), 0) : NULL;
    json_t *obj = json_pack("{s:I,s:I,s:s?,s:s?,s:o,s:o?}", "library", (json_int_t)l, "function", (json_int_t)i,
                            "name", esc, "demangled", dem_esc, "interface", iface, "error", diag);
    free(esc);
    free(dem);
    free(dem_esc);
    fputs(*first ? "\n" : ",\n", stdout);
    *first = false;
    if (obj)
        json_dumpf(obj, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
    json_decref(obj);
    return diag == NULL;
}

int cmd_sig(const struct cli_args *args)
{
    /* The table (cmdtable.c) checked the options and that FILE is there. */
    struct sig_options o = { 0 };
    int n_operands = args->n_operands;
    o.path = args->operands[0];
    o.json = cli_flag(args, OPT_JSON);
    o.names = calloc((size_t)n_operands + 1, sizeof *o.names);
    o.found = calloc((size_t)n_operands + 1, sizeof *o.found);
    if (!o.names || !o.found) {
        free(o.names);
        free(o.found);
        fprintf(stderr, "mtlbx: sig: out of memory\n");
        return 2;
    }
    for (int a = 1; a < n_operands; a++)
        o.names[o.n_names++] = args->operands[a];
    int status = 0;
    mtlbx_file *f = status ? NULL : cli_open(o.path);
    if (!status && !f)
        status = 2;
    bool all_ok = true, first = true;
    uint64_t released = 0;
    if (f) {
        if (o.json)
            fputs("[", stdout);
        size_t nlib = mtlbx_library_count(f);
        for (size_t l = 0; l < nlib; l++) {
            const mtlbx_library *lib = mtlbx_library_at(f, l);
            if (!o.json && (nlib > 1 || mtlbx_file_is_fat(f)))
                printf("# library %zu at 0x%llx\n", l, (unsigned long long)mtlbx_library_header(lib)->base);
            for (size_t i = 0; i < mtlbx_function_count(lib); i++) {
                if (!wanted(&o, mtlbx_function_at(lib, i)->name))
                    continue;
                all_ok &= o.json ? print_json(&o, lib, l, i, &first) : print_text(&o, lib, i);
                /* Done with the modules behind this one: let their pages
                 * go, 8 MB at a time, to keep memory flat on 20,000. */
                const struct mtlbx_function *fn = mtlbx_function_at(lib, i);
                uint64_t end = fn->module.offset + fn->module.size;
                if (fn->module_valid && end > released + RELEASE_BATCH) {
                    mtlbx_file_release(f, released, end - released);
                    released = end;
                }
            }
        }
        if (o.json)
            fputs(first ? "]\n" : "\n]\n", stdout);
        for (int k = 0; k < o.n_names; k++)
            if (!o.found[k]) {
                char *n = mtlbx_escape_dup((const uint8_t *)o.names[k], strlen(o.names[k]), MTLBX_ESC_TERMINAL);
                cli_error(o.path, NULL, "no function named '%s'", n ? n : "?");
                free(n);
                all_ok = false;
            }
        status = cli_unchanged(o.path, f);
        mtlbx_close(f);
        if (fflush(stdout) != 0 || ferror(stdout))
            status = 2;
        if (!status && !all_ok)
            status = 1;
    }
    free(o.names);
    free(o.found);
    return status;
}
