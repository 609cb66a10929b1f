/* The verbs: extract modules (e, E), disassemble (d), open sources (s)
 * and write raw bytes (w). Every write goes through safe_write, asks where
 * with a default, and asks again before replacing an existing file. */
#include "config.h"

#include "run_tool.h"
#include "safe_write.h"
#include "ui/core/ui.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    return mtlbx_file_library_count(f) ? mtlbx_library_at(f, 0) : NULL;
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

/* llvm-dis outputs kept by the SHA-256 of the module they came from
 * (computed, not the HASH tag, which a damaged file may get wrong): the
 * same module is disassembled once however often d is pressed on it or on
 * a function that shares it. A few entries, the oldest replaced. */
#define IR_CACHE_ENTRIES 8
#define IR_CACHE_MAX_BYTES ((size_t)256 << 20)

struct ir_entry {
    uint8_t key[32];
    char *text;
    size_t len;
    bool truncated;
};

struct ir_cache {
    struct ir_entry v[IR_CACHE_ENTRIES];
    size_t next;
};

void action_ir_cache_free(struct explorer *ex)
{
    if (!ex->ir)
        return;
    for (size_t i = 0; i < IR_CACHE_ENTRIES; i++)
        free(ex->ir->v[i].text);
    free(ex->ir);
    ex->ir = NULL;
}

static const struct ir_entry *ir_lookup(struct explorer *ex, const uint8_t key[32])
{
    for (size_t i = 0; ex->ir && i < IR_CACHE_ENTRIES; i++)
        if (ex->ir->v[i].text && memcmp(ex->ir->v[i].key, key, 32) == 0)
            return &ex->ir->v[i];
    return NULL;
}

static void ir_store(struct explorer *ex, const uint8_t key[32], const char *text, size_t len, bool truncated)
{
    if (len > IR_CACHE_MAX_BYTES / IR_CACHE_ENTRIES)
        return;
    if (!ex->ir && !(ex->ir = calloc(1, sizeof *ex->ir)))
        return;
    struct ir_entry *e = &ex->ir->v[ex->ir->next];
    char *copy = malloc(len + 1);
    if (!copy)
        return;
    memcpy(copy, text, len);
    copy[len] = '\0';
    free(e->text);
    *e = (struct ir_entry){ .text = copy, .len = len, .truncated = truncated };
    memcpy(e->key, key, 32);
    ex->ir->next = (ex->ir->next + 1) % IR_CACHE_ENTRIES;
}

/* llvm-dis runs on the job worker: the UI keeps answering keys, shows
 * "llvm-dis... 2.1 s", and Esc kills and reaps the child. */
struct dis_job {
    uint8_t key[32];             /* the module's SHA-256, for the cache */
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
        ir_store(ex, d->key, d->res.output ? d->res.output : "", d->res.output_len, d->res.truncated);
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
    action_disassemble_function(ex, n->lib, (size_t)fn);
}

void action_disassemble_function(struct explorer *ex, mtlbx_library *lib, size_t fn)
{
    struct mtlbx_bytes m = mtlbx_function_module_bytes(lib, fn);
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
    const struct mtlbx_function *f = mtlbx_function_at(lib, fn);
    char *name = escaped(f->name);
    char *safe = safe_component(f->name.ptr, f->name.len);
    snprintf(d->title, sizeof d->title, "llvm-dis: %.300s", name);
    snprintf(d->save, sizeof d->save, "%s.ll", safe ? safe : "module");
    free(safe);
    free(name);
    mtlbx_sha256(m.ptr, m.len, d->key);
    const struct ir_entry *hit = ir_lookup(ex, d->key);
    if (hit) {
        if (ex->screen == SCREEN_TEXT)
            textview_close(ex);
        textview_open(ex, d->title, hit->text, hit->len, d->save);
        ex_message(ex, "%s%s", hit->truncated ? "output cut at the size limit; " : "",
                   "/ searches, w saves, q returns (cached)");
        free(d->llvm_dis);
        free(d);
        return;
    }
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
        fn >= 0 && n->lib && (size_t)fn < mtlbx_library_function_count(n->lib) ? mtlbx_function_at(n->lib, (size_t)fn) : NULL;
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
