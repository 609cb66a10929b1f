/* The verbs: extract modules (e, E), disassemble (d), open sources (s)
 * and write raw bytes (w). Every write goes through safe_write, asks where
 * with a default, and asks again before replacing an existing file. */
#include "config.h"

#include "run_tool.h"
#include "safe_write.h"
#include "ui.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

long action_function_of(const mtlbx_node *n)
{
    for (; n; n = n->parent) {
        if (n->kind == MTLBX_NODE_FUNCTION || n->kind == MTLBX_NODE_MODULE)
            return n->index;
        /* A metadata group belongs to the function it is indexed by, both
         * under the function and under the metadata sections. */
        if (n->kind == MTLBX_NODE_TAG_GROUP && n->parent &&
            (n->parent->kind == MTLBX_NODE_FUNCTION || n->parent->kind == MTLBX_NODE_PUBLIC_MD ||
             n->parent->kind == MTLBX_NODE_PRIVATE_MD))
            return n->index;
    }
    return -1;
}

/* "~/x" means $HOME/x, as in a shell. */
void action_expand_home(const char *in, char *out, size_t size)
{
    const char *home = getenv("HOME");
    if (in[0] == '~' && (in[1] == '/' || in[1] == '\0') && home && *home)
        snprintf(out, size, "%s%s", home, in + 1);
    else
        snprintf(out, size, "%s", in);
}

static void split_path(const char *path, char *dir, size_t dsize, char *name, size_t nsize)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(dir, dsize, ".");
        snprintf(name, nsize, "%s", path);
    } else if (slash == path) {
        snprintf(dir, dsize, "/");
        snprintf(name, nsize, "%s", slash + 1);
    } else {
        snprintf(dir, dsize, "%.*s", (int)(slash - path), path);
        snprintf(name, nsize, "%s", slash + 1);
    }
}

bool action_write_bytes(struct explorer *ex, const char *typed, const void *data, size_t len)
{
    char path[2048], dir[2048], name[2048], err[256], final[4200];
    action_expand_home(typed, path, sizeof path);
    split_path(path, dir, sizeof dir, name, sizeof name);
    if (!name[0]) {
        ex_error(ex, "%s names a directory; give a file name", typed);
        return false;
    }
    struct stat st;
    bool force = false;
    if (lstat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            ex_error(ex, "%s is a directory; give a file name", typed);
            return false;
        }
        char q[600];
        snprintf(q, sizeof q, "%.500s exists. Overwrite it?", typed);
        if (!prompt_yes_no(ex, q)) {
            ex_message(ex, "not written: %s exists", typed);
            return false;
        }
        force = true;
    }
    if (safe_write_file(dir, name, data, len, force, err, sizeof err, final, sizeof final) != 0) {
        ex_error(ex, "cannot write %s: %s", typed, err);
        return false;
    }
    ex_message(ex, "wrote %zu %s to %s", len, mtlbx_noun(len, "byte", "bytes"), final);
    return true;
}

bool action_confirm_overwrite(struct explorer *ex, size_t existing, size_t total, const char *dir)
{
    if (existing == 0)
        return false;
    char q[400];
    snprintf(q, sizeof q, "%zu of %zu files already exist in %.200s. Overwrite them?",
             existing, total, dir);
    return prompt_yes_no(ex, q);
}

/* mkdir -p, for the directory the user named. */
bool action_make_dirs(const char *path, char *err, size_t err_size)
{
    char tmp[2048];
    if (!path || !path[0]) {
        snprintf(err, err_size, "no directory given: type a path (. for here)");
        return false;
    }
    if (strlen(path) >= sizeof tmp) {
        snprintf(err, err_size, "directory path too long");
        return false;
    }
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; ; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST) {
                snprintf(err, err_size, "cannot create %.200s: %s", tmp, strerror(errno));
                return false;
            }
            *p = c;
            if (!c)
                break;
        }
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, err_size, "%.200s is not a directory", path);
        return false;
    }
    return true;
}

static char *escaped(struct mtlbx_bytes b)
{
    char *s = mtlbx_escape_dup(b.ptr, b.len, MTLBX_ESC_TERMINAL);
    return s ? s : strdup("?");
}

static mtlbx_library *library_of(struct explorer *ex, const mtlbx_node *n)
{
    if (n && n->lib)
        return n->lib;
    mtlbx_file *f = ex_current_file(ex)->f;
    return mtlbx_library_count(f) ? mtlbx_library_at(f, 0) : NULL;
}

void action_extract(struct explorer *ex, bool all)
{
    mtlbx_node *n = ex_selected_node(ex);
    long fn = action_function_of(n);
    mtlbx_library *lib = library_of(ex, n);
    if (!lib) {
        ex_error(ex, "no library here to extract from");
        return;
    }
    bool whole = n && (n->kind == MTLBX_NODE_LIBRARY || n->kind == MTLBX_NODE_FUNCTION_LIST ||
                       n->kind == MTLBX_NODE_MODULE_LIST || n->kind == MTLBX_NODE_FILE);
    if (all || (fn < 0 && whole)) {
        action_extract_all(ex, lib);
        return;
    }
    if (fn < 0) {
        ex_error(ex, "select a function (or the function list, for all of them); w writes any node's bytes");
        return;
    }
    struct mtlbx_bytes m = mtlbx_function_module_bytes(lib, (size_t)fn);
    const struct mtlbx_function *f = mtlbx_function_at(lib, (size_t)fn);
    if (m.len == 0) {
        ex_error(ex, "this function's module is missing or outside the module section");
        return;
    }
    char *base = safe_component(f->name.ptr, f->name.len);
    char def[300], path[1024];
    snprintf(def, sizeof def, "%s.air", base ? base : "module");
    free(base);
    if (!prompt_path(ex, "Write module to", def, path, sizeof path))
        return;
    action_write_bytes(ex, path, m.ptr, m.len);
}

/* llvm-dis runs on the job worker: the UI keeps answering keys, shows
 * "llvm-dis... 2.1 s", and Esc kills and reaps the child. */
struct dis_job {
    char *llvm_dis;
    const uint8_t *module;       /* in the mapping, which outlives the job */
    size_t len;
    char title[400], save[300];
    struct tool_result res;
    int rc;
};

static void dis_work(struct job *j)
{
    struct dis_job *d = j->ctx;
    d->rc = run_llvm_dis_cancellable(d->llvm_dis, d->module, d->len, LLVM_DIS_TIMEOUT_MS,
                                     LLVM_DIS_MAX_OUTPUT, &j->cancel, &d->res);
}

static void dis_finish(struct explorer *ex, struct job *j, bool cancelled)
{
    struct dis_job *d = j->ctx;
    if (cancelled || d->res.cancelled) {
        ex_message(ex, "llvm-dis cancelled");
    } else if (d->rc != 0) {
        ex_error(ex, "llvm-dis failed: %s", d->res.message[0] ? d->res.message : "no reason given");
    } else {
        if (ex->screen == SCREEN_TEXT)
            textview_close(ex);
        /* The chosen llvm-dis rejected it and a newer one read it: say which. */
        char title[sizeof d->title + 600];
        char *by = d->res.read_by[0] ? escaped((struct mtlbx_bytes){ (const uint8_t *)d->res.read_by,
                                                                     strlen(d->res.read_by) })
                                     : NULL;
        char *chosen = by ? escaped((struct mtlbx_bytes){ (const uint8_t *)d->llvm_dis, strlen(d->llvm_dis) })
                          : NULL;
        if (by)
            snprintf(title, sizeof title, "%s (read by %.250s; %.250s rejected it)", d->title, by,
                     chosen ? chosen : "?");
        else
            snprintf(title, sizeof title, "%s", d->title);
        free(by);
        free(chosen);
        textview_open(ex, title, d->res.output ? d->res.output : "", d->res.output_len, d->save);
        ex_message(ex, "%s%s", d->res.truncated ? "output cut at the size limit; " : "",
                   "/ searches, w saves, q returns");
    }
    tool_result_free(&d->res);
    free(d->llvm_dis);
    free(d);
}

void action_disassemble(struct explorer *ex)
{
    mtlbx_node *n = ex_selected_node(ex);
    long fn = action_function_of(n);
    if (fn < 0 || !n->lib) {
        ex_error(ex, "select a function first: d disassembles its module");
        return;
    }
    struct mtlbx_bytes m = mtlbx_function_module_bytes(n->lib, (size_t)fn);
    if (m.len == 0) {
        ex_error(ex, "this function's module is missing or outside the module section");
        return;
    }
    if (!ex->llvm_dis)
        ex->llvm_dis = find_llvm_dis(ex->opts ? ex->opts->llvm_dis : NULL);
    if (!ex->llvm_dis) {
        ex_error(ex, "llvm-dis not found: install LLVM, or use --llvm-dis PATH or MTLBX_LLVM_DIS");
        return;
    }
    struct dis_job *d = calloc(1, sizeof *d);
    if (!d || !(d->llvm_dis = strdup(ex->llvm_dis))) {
        free(d);
        ex_error(ex, "out of memory");
        return;
    }
    const struct mtlbx_function *f = mtlbx_function_at(n->lib, (size_t)fn);
    char *name = escaped(f->name);
    char *safe = safe_component(f->name.ptr, f->name.len);
    snprintf(d->title, sizeof d->title, "llvm-dis: %.300s", name);
    snprintf(d->save, sizeof d->save, "%s.ll", safe ? safe : "module");
    free(safe);
    free(name);
    d->module = m.ptr;
    d->len = m.len;
    if (!job_start(ex, "llvm-dis", dis_work, dis_finish, d, false)) {
        free(d->llvm_dis);
        free(d);
    }
}

/* The archive the selection is about: the archive itself, a member, the
 * sources section, or the archive a function's SOFF points at. */
static long archive_of(struct explorer *ex, mtlbx_node *n, mtlbx_library *lib)
{
    const struct mtlbx_sources *s = mtlbx_library_sources(lib);
    if (!s || !s->present || s->n_archives == 0)
        return -1;
    if (n && n->kind == MTLBX_NODE_ARCHIVE)
        return n->index;
    if (n && n->kind == MTLBX_NODE_MEMBER)
        return n->sub;
    long fn = action_function_of(n);
    if (fn >= 0) {
        long a = mtlbx_function_archive(lib, (size_t)fn);
        if (a >= 0)
            return a;
        ex_message(ex, "this function's SOFF names no archive; showing the first one");
    }
    return 0;
}

void action_sources(struct explorer *ex)
{
    mtlbx_node *n = ex_selected_node(ex);
    mtlbx_library *lib = library_of(ex, n);
    long a = lib ? archive_of(ex, n, lib) : -1;
    if (a < 0) {
        ex_error(ex, "no embedded sources in this library (they come from -frecord-sources)");
        return;
    }
    ex_message(ex, "decompressing the source archives...");
    ex_draw(ex);
    ex->status[0] = '\0';
    /* All of the library's archives, starting at the one asked about;
     * one that does not decode is listed as such. */
    members_open(ex, ex_current_file_index(ex), lib, (size_t)a);
}

static const char *kind_slug(const mtlbx_node *n)
{
    switch (n->kind) {
    case MTLBX_NODE_FILE: return "file";
    case MTLBX_NODE_FAT_HEADER: return "fat-header";
    case MTLBX_NODE_FAT_SLICE: return "fat-slice";
    case MTLBX_NODE_LIBRARY: return "library";
    case MTLBX_NODE_HEADER: return "header";
    case MTLBX_NODE_FUNCTION_LIST: return "function-list";
    case MTLBX_NODE_FUNCTION: return "function";
    case MTLBX_NODE_TAG: return "tag";
    case MTLBX_NODE_TAG_GROUP: return "tag-group";
    case MTLBX_NODE_HEADER_EXT: return "header-ext";
    case MTLBX_NODE_PUBLIC_MD: return "public-md";
    case MTLBX_NODE_PRIVATE_MD: return "private-md";
    case MTLBX_NODE_MODULE_LIST: return "modules";
    case MTLBX_NODE_MODULE: return "module";
    case MTLBX_NODE_SOURCES: return "sources";
    case MTLBX_NODE_ARCHIVE: return "archive";
    case MTLBX_NODE_MEMBER: return "archive-payload";
    case MTLBX_NODE_DYNAMIC_HEADER: return "dynamic-header";
    case MTLBX_NODE_LIST: return "list";
    default: return "bytes";
    }
}

/* The name `w` proposes: the function's name and what part of it this is
 * ("GainMapFilter.entry.bin", "GainMapFilter.HASH.bin",
 * "GainMapFilter.module.bin"); else the kind and offset
 * ("header-0x0.bin"). Always one safe path component. */
static void node_file_name(const mtlbx_node *n, char *def, size_t size)
{
    long fn = action_function_of(n);
    const struct mtlbx_function *f =
        fn >= 0 && n->lib && (size_t)fn < mtlbx_function_count(n->lib) ? mtlbx_function_at(n->lib, (size_t)fn) : NULL;
    char *name = f && f->name.len ? safe_component(f->name.ptr, f->name.len) : NULL;
    if (name) {
        const char *part = n->kind == MTLBX_NODE_FUNCTION ? "entry"
                           : n->kind == MTLBX_NODE_TAG    ? n->tag.name
                           : n->kind == MTLBX_NODE_TAG_GROUP && n->parent ? kind_slug(n->parent)
                                                                           : kind_slug(n);
        if (n->kind == MTLBX_NODE_TAG_GROUP && n->parent && n->parent->kind == MTLBX_NODE_FUNCTION)
            part = "group";
        snprintf(def, size, "%s.%s.bin", name, part);
    } else if (n->kind == MTLBX_NODE_TAG) {
        snprintf(def, size, "tag-%s-0x%" PRIx64 ".bin", n->tag.name, n->offset);
    } else {
        snprintf(def, size, "%s-0x%" PRIx64 ".bin", kind_slug(n), n->offset);
    }
    free(name);
    /* A FourCC may hold any printable byte, '/' included: keep the
     * default one path component. */
    for (char *p = def; *p; p++)
        if (*p == '/')
            *p = '_';
}

void action_write_node(struct explorer *ex)
{
    mtlbx_node *n = ex_selected_node(ex);
    struct ex_file *ef = ex_current_file(ex);
    uint64_t size = mtlbx_file_size(ef->f);
    if (!n || n->size == 0 || n->offset >= size) {
        ex_error(ex, "this node has no bytes in the file to write");
        return;
    }
    uint64_t len = n->size;
    if (len > size - n->offset)
        len = size - n->offset;
    char def[400], path[1024];
    node_file_name(n, def, sizeof def);
    if (!prompt_path(ex, "Write node bytes to", def, path, sizeof path))
        return;
    action_write_bytes(ex, path, mtlbx_file_data(ef->f) + n->offset, (size_t)len);
}
