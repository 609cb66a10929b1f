/* The byte explorer's verbs on its selection: e and E (a function's
 * module, or all of a library's), d (llvm-dis), s (the member list of the
 * source archives), w (any node's raw bytes) and y (copy what is
 * selected). The work is the shared verbs' (ui/verbs); this file only
 * says what the selection is. */
#include "config.h"

#include "safe_write.h"
#include "ui/verbs/verbs.h"
#include "ui/views/bytes/bytes.h"
#include "ui/widgets/prompt.h"
#include "ui/text/textfmt.h"
#include "container/file.h"
#include "container/functions.h"
#include "container/sources.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static mtlbx_library *library_of(struct explorer *ex, const mtlbx_node *n)
{
    if (n && n->lib)
        return n->lib;
    mtlbx_file *f = bytes_file(ex)->f;
    return mbx_file_library_count(f) ? mbx_library_at(f, 0) : NULL;
}

void bytes_extract(struct explorer *ex, bool all)
{
    mtlbx_node *n = bytes_selected_node(ex);
    long fn = bytes_function_of(n);
    mtlbx_library *lib = library_of(ex, n);
    if (!lib) {
        ex_error(ex, "no library here to extract from");
        return;
    }
    bool whole = n && (n->kind == MTLBX_NODE_LIBRARY || n->kind == MTLBX_NODE_FUNCTION_LIST ||
                       n->kind == MTLBX_NODE_MODULE_LIST || n->kind == MTLBX_NODE_FILE);
    if (all || (fn < 0 && whole)) {
        verb_extract_all(ex, lib);
        return;
    }
    if (fn < 0) {
        ex_error(ex, "select a function (or the function list, for all of them); w writes any node's bytes");
        return;
    }
    verb_extract_function(ex, lib, (size_t)fn);
}

void bytes_disassemble(struct explorer *ex)
{
    mtlbx_node *n = bytes_selected_node(ex);
    long fn = bytes_function_of(n);
    if (fn < 0 || !n->lib) {
        ex_error(ex, "select a function first: d disassembles its module");
        return;
    }
    verb_disassemble(ex, n->lib, (size_t)fn);
}

/* The archive the selection is about: the archive itself, a member, the
 * sources section, or the archive a function's SOFF points at. */
static long archive_of(struct explorer *ex, mtlbx_node *n, mtlbx_library *lib)
{
    const struct mtlbx_sources *s = mbx_library_sources(lib);
    if (!s || !s->present || s->n_archives == 0)
        return -1;
    if (n && n->kind == MTLBX_NODE_ARCHIVE)
        return n->index;
    if (n && n->kind == MTLBX_NODE_MEMBER)
        return n->sub;
    long fn = bytes_function_of(n);
    if (fn >= 0) {
        long a = mbx_function_archive(lib, (size_t)fn);
        if (a >= 0)
            return a;
        ex_message(ex, "this function's SOFF names no archive; showing the first one");
    }
    return 0;
}

void bytes_sources(struct explorer *ex)
{
    mtlbx_node *n = bytes_selected_node(ex);
    mtlbx_library *lib = library_of(ex, n);
    long a = lib ? archive_of(ex, n, lib) : -1;
    if (a < 0) {
        ex_error(ex, "no embedded sources in this library (they come from -frecord-sources)");
        return;
    }
    /* All of the library's archives, starting at the one asked about;
     * one that does not decode is listed as such. */
    struct place at = place_archive(bytes_current_file(ex), lib, (size_t)a);
    open_view(ex, VIEW_MEMBERS, &at);
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
    long fn = bytes_function_of(n);
    const struct mtlbx_function *f =
        fn >= 0 && n->lib && (size_t)fn < mbx_library_function_count(n->lib) ? mbx_function_at(n->lib, (size_t)fn) : NULL;
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

void bytes_write_node(struct explorer *ex)
{
    mtlbx_node *n = bytes_selected_node(ex);
    struct ex_file *ef = bytes_file(ex);
    uint64_t size = mbx_file_size(ef->f);
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
    verb_write_bytes(ex, path, mbx_file_data(ef->f) + n->offset, (size_t)len);
}

/* y: in the tree a function's name (else the node's label), in the
 * detail panel the field's value, in the hex panel the cursor's offset. */
void bytes_copy(struct explorer *ex)
{
    struct bytes *b = bytes_of(ex);
    mtlbx_node *n = bytes_selected_node(ex);
    if (b->focus == PANEL_HEX) {
        char off[32];
        snprintf(off, sizeof off, "0x%" PRIx64, b->hex.cursor);
        verb_copy(ex, "the offset", off);
        return;
    }
    if (b->focus == PANEL_DETAIL) {
        const struct field_row *f = detail_selected_field(ex);
        if (f) {
            char what[80];
            snprintf(what, sizeof what, "%.60s", f->name);
            verb_copy(ex, what, f->value);
            return;
        }
    }
    if (!n) {
        ex_error(ex, "nothing selected to copy");
        return;
    }
    long fn = bytes_function_of(n);
    if (n->kind == MTLBX_NODE_FUNCTION && fn >= 0 && n->lib) {
        const struct mtlbx_function *f = mbx_function_at(n->lib, (size_t)fn);
        char *name = textfmt_escape_dup(f->name.ptr, f->name.len);
        if (name)
            verb_copy(ex, "the name", name);
        free(name);
        return;
    }
    char label[512];
    tree_node_label(ex, bytes_current_file(ex), n, label, sizeof label);
    verb_copy(ex, "the label", label);
}
