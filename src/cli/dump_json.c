/* `mtlbx dump --json`: the parsed structure in the schema of CONTRACT.md,
 * plus a few extra keys (section ranges, per-function metadata details).
 * Everything comes from the library's accessors; nothing is re-parsed. */
#include "config.h"

#include "commands.h"
#include "json_more.h"
#include "layout_json.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* JSON strings must be UTF-8: invalid bytes become \xNN text. */
static json_t *jstr(struct mtlbx_bytes b)
{
    char small[256];
    if (mtlbx_escape(b.ptr, b.len, 0, small, sizeof small) < sizeof small)
        return json_string(small);
    char *s = mtlbx_escape_dup(b.ptr, b.len, 0);
    json_t *j = json_string(s ? s : "");
    free(s);
    return j;
}

static json_t *jint(uint64_t v) { return json_integer((json_int_t)v); }

static json_t *jhex(const uint8_t *p, size_t n)
{
    char buf[129];
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < n && i < 64; i++) {
        buf[2 * i] = hex[p[i] >> 4];
        buf[2 * i + 1] = hex[p[i] & 15];
    }
    buf[2 * (n < 64 ? n : 64)] = '\0';
    return json_string(buf);
}

static json_t *jrange(struct mtlbx_range r)
{
    return json_pack("{s:o,s:o}", "offset", jint(r.offset), "size", jint(r.size));
}

static json_t *diag_json(const struct mtlbx_diag *d)
{
    return json_pack("{s:s,s:o,s:o}", "severity", d->severity == MTLBX_ERROR ? "error" : "warning", "offset",
                     jint(d->offset), "message",
                     jstr((struct mtlbx_bytes){ (const uint8_t *)d->message, strlen(d->message) }));
}

static json_t *function_json(mtlbx_library *lib, size_t i)
{
    const struct mtlbx_function *fn = mtlbx_function_at(lib, i);
    const struct mtlbx_metadata *md = mtlbx_function_metadata(lib, i);
    char buf[32];
    json_t *o = json_object();
    json_object_set_new(o, "name", jstr(fn->name));
    json_object_set_new(o, "type", (fn->present & MTLBX_F_TYPE)
                                       ? json_string(mtlbx_function_type_name(fn->type, buf, sizeof buf))
                                       : json_null());
    if (fn->present & MTLBX_F_VERS) {
        snprintf(buf, sizeof buf, "%u.%u", fn->air_major, fn->air_minor);
        json_object_set_new(o, "air_version", json_string(buf));
        snprintf(buf, sizeof buf, "%u.%u", fn->msl_major, fn->msl_minor);
        json_object_set_new(o, "language_version", json_string(buf));
    } else {
        json_object_set_new(o, "air_version", json_null());
        json_object_set_new(o, "language_version", json_null());
    }
    json_t *tags = json_array();
    struct mtlbx_tag_walk w;
    struct mtlbx_tag t;
    mtlbx_tag_walk_init(&w, mtlbx_library_file(lib), fn->entry_offset + 4, fn->entry_size > 4 ? fn->entry_size - 4 : 0);
    while (mtlbx_tag_walk_next(&w, &t))
        json_array_append_new(tags, json_string(t.name));
    json_object_set_new(o, "tags", tags);
    json_object_set_new(o, "module", fn->module_valid ? jrange(fn->module) : json_null());
    if (fn->module_valid && fn->module_size_inferred)
        json_object_set_new(o, "module_size_inferred", json_true());
    json_object_set_new(o, "hash", fn->hash ? jhex(fn->hash, 32) : json_null());
    /* library_json() ran verify_all: the state is final. */
    enum mtlbx_hash_state hs = mtlbx_function_hash_state(lib, i);
    json_object_set_new(o, "hash_ok", json_boolean(hs == MTLBX_HASH_OK));

    json_t *consts = json_array();
    for (size_t c = 0; c < md->n_constants; c++) {
        const struct mtlbx_constant *k = &md->constants[c];
        json_array_append_new(consts, json_pack("{s:o,s:s,s:i,s:b}", "name", jstr(k->name), "type",
                                                mtlbx_data_type_name(k->type, buf, sizeof buf), "index",
                                                (int)k->index, "active", k->active));
    }
    json_object_set_new(o, "constants", consts);
    json_t *attrs = json_array();
    for (size_t c = 0; c < md->n_attributes; c++) {
        const struct mtlbx_vertex_attr *va = &md->attributes[c];
        json_array_append_new(attrs, json_pack("{s:o,s:i,s:i,s:b,s:o}", "name", jstr(va->name), "index",
                                               (int)va->index, "use", (int)va->use, "active", va->active, "type",
                                               va->has_type ? json_string(mtlbx_data_type_name(va->type, buf, sizeof buf))
                                                            : json_null()));
    }
    json_object_set_new(o, "vertex_attributes", attrs);
    /* Extra keys, beyond the contract. */
    json_object_set_new(o, "entry", json_pack("{s:o,s:o}", "offset", jint(fn->entry_offset), "size",
                                              jint(fn->entry_size)));
    if (md->has_debi)
        json_object_set_new(o, "debug_info", json_pack("{s:i,s:o}", "line", (int)md->debi_line, "path",
                                                       jstr(md->debi_path)));
    if (md->has_depf)
        json_object_set_new(o, "dependency_file", jstr(md->depf_path));
    if (fn->present & MTLBX_F_TESS)
        json_object_set_new(o, "tess", json_integer(fn->tess));
    if (fn->present & MTLBX_F_LAYR)
        json_object_set_new(o, "layer_type", json_string(mtlbx_data_type_name(fn->layr, buf, sizeof buf)));
    long archive = mtlbx_function_archive(lib, i);
    if (archive >= 0)
        json_object_set_new(o, "source_archive", json_integer(archive));
    function_json_more(lib, i, o);
    return o;
}

static json_t *sources_json(mtlbx_library *lib)
{
    const struct mtlbx_sources *src = mtlbx_library_sources(lib);
    if (!src || !src->present)
        return json_null();
    json_t *archives = json_array();
    for (size_t k = 0; k < src->n_archives; k++) {
        mtlbx_archive_load(lib, k);
        const struct mtlbx_archive *a = &src->archives[k];
        json_t *members = json_array();
        for (size_t m = 0; m < a->n_members; m++)
            json_array_append_new(members, json_pack("{s:o,s:o}", "name",
                                                     jstr((struct mtlbx_bytes){ (const uint8_t *)a->members[m].name,
                                                                                strlen(a->members[m].name) }),
                                                     "size", jint(a->members[m].size)));
        json_array_append_new(archives, json_pack("{s:o,s:o,s:o,s:b}", "id", jstr(a->id), "members", members,
                                                  "offset", jint(a->sarc_offset), "decoded",
                                                  a->state == MTLBX_ARCHIVE_LOADED));
    }
    json_t *o = json_pack("{s:s,s:o}", "tag", src->tag, "archives", archives);
    json_object_set_new(o, "link_command", jstr(src->link_command));
    if (src->has_working_dir)
        json_object_set_new(o, "working_dir", jstr(src->working_dir));
    return o;
}

static json_t *library_json(mtlbx_library *lib)
{
    const struct mtlbx_header *h = mtlbx_library_header(lib);
    const struct mtlbx_header_ext *ext = mtlbx_library_header_ext(lib);
    char buf[48];
    json_t *o = json_object();
    json_object_set_new(o, "offset", jint(h->base));
    snprintf(buf, sizeof buf, "%u.%u.%u", h->major, h->minor, h->patch);
    json_object_set_new(o, "container_version", json_string(buf));
    json_object_set_new(o, "platform", json_string(h->macos ? "macOS" : "iOS"));
    json_object_set_new(o, "file_type", json_string(mtlbx_file_type_name(h->file_type, buf, sizeof buf)));
    json_object_set_new(o, "stub", json_boolean(h->stub));
    json_object_set_new(o, "target_os", json_string(mtlbx_target_os_name(h->platform_byte, buf, sizeof buf)));
    snprintf(buf, sizeof buf, "%u.%u.%u", h->os_major, h->os_minor, h->os_patch);
    json_object_set_new(o, "os_version", json_string(buf));
    json_object_set_new(o, "uuid", ext->has_uuid ? jhex(ext->uuid, 16) : json_null());
    if (ext->present) {
        json_t *tags = json_array();
        for (size_t i = 0; i < ext->n_tags; i++)
            json_array_append_new(tags, json_string(ext->tags[i].name));
        json_object_set_new(o, "header_extension", tags);
    } else {
        json_object_set_new(o, "header_extension", json_null());
    }
    json_t *fns = json_array();
    size_t n = mtlbx_function_count(lib);
    mtlbx_library_verify_all(lib, 0);
    for (size_t i = 0; i < n; i++)
        json_array_append_new(fns, function_json(lib, i));
    json_object_set_new(o, "functions", fns);
    json_object_set_new(o, "sources", sources_json(lib));
    const struct mtlbx_dynamic_header *dyn = mtlbx_library_dynamic_header(lib);
    if (dyn->present) {
        json_t *linked = json_array();
        for (size_t i = 0; i < dyn->n_linked; i++)
            json_array_append_new(linked, jstr(dyn->linked[i]));
        json_object_set_new(o, "dynamic_header", json_pack("{s:o,s:o}", "name",
                                                           dyn->has_name ? jstr(dyn->name) : json_null(),
                                                           "linked", linked));
    } else {
        json_object_set_new(o, "dynamic_header", json_null());
    }
    json_t *sections = json_object();
    json_object_set_new(sections, "function_list", jrange(h->function_list));
    if (ext->present)
        json_object_set_new(sections, "header_extension", jrange(ext->range));
    json_object_set_new(sections, "public_metadata", jrange(h->public_md));
    json_object_set_new(sections, "private_metadata", jrange(h->private_md));
    json_object_set_new(sections, "modules", jrange(h->modules));
    for (int k = 0; k < MTLBX_LIST_COUNT; k++) {
        const struct mtlbx_list *l = mtlbx_library_list(lib, (enum mtlbx_list_kind)k);
        if (l->present)
            json_object_set_new(sections, l->tag, json_pack("{s:o,s:o,s:i}", "offset", jint(l->range.offset),
                                                             "size", jint(l->range.size), "entries",
                                                             (int)l->n_groups));
    }
    json_object_set_new(o, "sections", sections);
    library_json_more(lib, o);
    /* Last, so that problems found while hashing and decompressing show. */
    json_t *diags = json_array();
    for (size_t i = 0; i < mtlbx_library_diag_count(lib); i++)
        json_array_append_new(diags, diag_json(mtlbx_library_diag(lib, i)));
    json_object_set_new(o, "diagnostics", diags);
    return o;
}

int cmd_dump(int argc, char **argv, const struct global_options *g)
{
    (void)g;
    bool json = false, layout = false;
    const char *path = NULL;
    for (int a = 0; a < argc; a++) {
        if (strcmp(argv[a], "--json") == 0)
            json = true;
        else if (strcmp(argv[a], "--layout") == 0)
            layout = true;
        else if (!path)
            path = argv[a];
        else
            path = NULL, json = false, a = argc;
    }
    if (!json || !path) {
        fprintf(stderr, "mtlbx: dump: usage: mtlbx dump --json [--layout] FILE\n");
        return 2;
    }
    mtlbx_file *f = cli_open(path);
    if (!f)
        return 2;
    json_t *root = json_object();
    json_object_set_new(root, "path", jstr((struct mtlbx_bytes){ (const uint8_t *)path, strlen(path) }));
    json_object_set_new(root, "size", jint(mtlbx_file_size(f)));
    if (mtlbx_file_is_fat(f)) {
        json_t *slices = json_array();
        for (size_t i = 0; i < mtlbx_fat_slice_count(f); i++) {
            const struct mtlbx_fat_slice *s = mtlbx_fat_slice(f, i);
            json_t *slice = json_pack("{s:o,s:o,s:o,s:o,s:o}", "cputype", jint(s->cputype), "cpusubtype",
                                      jint(s->cpusubtype), "offset", jint(s->offset), "size", jint(s->size),
                                      "align", jint(s->align));
            fat_slice_json_more(s, slice);
            json_array_append_new(slices, slice);
        }
        json_object_set_new(root, "fat", json_pack("{s:o}", "slices", slices));
    } else {
        json_object_set_new(root, "fat", json_null());
    }
    json_t *libs = json_array();
    for (size_t l = 0; l < mtlbx_library_count(f); l++)
        json_array_append_new(libs, library_json(mtlbx_library_at(f, l)));
    json_object_set_new(root, "libraries", libs);
    json_t *diags = json_array();
    for (size_t i = 0; i < mtlbx_file_diag_count(f); i++)
        json_array_append_new(diags, diag_json(mtlbx_file_diag(f, i)));
    json_object_set_new(root, "diagnostics", diags);
    /* ENSURE_ASCII: a name may hold C1 controls (U+009B is CSI) or bidi
     * overrides, valid UTF-8 that jansson would pass through raw and that
     * act on a terminal showing the JSON; as \u escapes they are inert. */
    /* A file that changed under us gives no document at all. */
    if (cli_unchanged(path, f)) {
        json_decref(root);
        mtlbx_close(f);
        return 2;
    }
    size_t flags = JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII;
    int rc = layout ? json_dump_with_layout(root, f, stdout, flags) : json_dumpf(root, stdout, flags);
    json_decref(root);
    mtlbx_close(f);
    putchar('\n');
    return rc == 0 && fflush(stdout) == 0 ? 0 : 2;
}
