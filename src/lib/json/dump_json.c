/* `mtlbx dump --json`: the parsed structure in the schema of CONTRACT.md,
 * plus a few extra keys (section ranges, per-function metadata details).
 * Everything comes from the library's accessors; nothing is re-parsed.
 *
 * The document is streamed (json_stream.h), so memory stays flat
 * however many functions a library holds: each function and its interface
 * are written as they are read, the library's small parts are built as
 * jansson objects, written and freed. */
#include "config.h"

#include "dump_json.h"
#include "interface_json.h"
#include "gpu_json.h"
#include "interface_stream.h"
#include "json_more.h"
#include "json_stream.h"
#include "values_json.h"
#include "layout_json.h"
#include "bitcode/interface_reader.h"
#include "checks/hash.h"
#include "checks/requirements.h"
#include "checks/validate.h"
#include "compare/compare.h"
#include "container/hex.h"
#include "container/metadata.h"
#include "container/sources.h"
#include "container/value_names.h"
#include "container/target_names.h"
#include "container/diagnostics.h"

#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

/* Set when any allocation behind the document fails (jansson's own, or an
 * escaped string's): a value would be missing, so the document is not
 * printed as if it were whole. */
static _Thread_local bool dump_out_of_memory;

void *mbx_doc_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        dump_out_of_memory = true;
    return p;
}

static void watch_jansson(void)
{
    json_malloc_t m;
    json_free_t f;
    json_get_alloc_funcs(&m, &f);
    if (m == malloc && f == free)
        json_set_alloc_funcs(mbx_doc_malloc, free);
}

void mbx_doc_watch_jansson(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, watch_jansson);
}

/* JSON strings must be UTF-8: invalid bytes become \xNN text. */
static json_t *jstr(struct mtlbx_bytes b)
{
    char small[256];
    if (json_bytes_text(b.ptr, b.len, small, sizeof small) < sizeof small)
        return json_string(small);
    char *s = json_bytes_text_dup(b.ptr, b.len);
    if (!s)
        dump_out_of_memory = true;
    json_t *j = json_string(s ? s : "");
    free(s);
    return j;
}

/* --interfaces: decode each module (interface_json.c); its problems join
 * the library's diagnostics. */
/* Thread-local: `find --json` writes documents from several threads. */
static _Thread_local bool with_interfaces;
/* --layout: the byte layout after the diagnostics (layout_json.c). */
static _Thread_local bool with_layout;
static _Thread_local json_t *interface_diags;

static json_t *jint(uint64_t v) { return json_integer((json_int_t)v); }

/* The first 64 bytes at p as lower-case hex, in buf (129 bytes). */
static const char *hex_text(char *buf, const uint8_t *p, size_t n)
{
    mtlbx_hex_lower(buf, p, n < 64 ? n : 64);
    return buf;
}

static json_t *jhex(const uint8_t *p, size_t n)
{
    char buf[129];
    return json_string(hex_text(buf, p, n));
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

static void put_range(struct json_stream *js, const char *key, struct mtlbx_range r)
{
    json_stream_open(js, key, '{');
    json_stream_put_int(js, "offset", (json_int_t)r.offset);
    json_stream_put_int(js, "size", (json_int_t)r.size);
    json_stream_close(js);
}

/* Function i's object, written as it is built: a jansson object per
 * function, dumped and freed, was most of the time of `dump --json`. The
 * smaller parts (tags, requires ...) are still jansson values. */
static void put_function(struct json_stream *js, mtlbx_library *lib, size_t i)
{
    const struct mtlbx_function *fn = mbx_function_at(lib, i);
    const struct mtlbx_metadata *md = mbx_function_metadata(lib, i);
    char buf[32];
    json_stream_open(js, NULL, '{');
    json_stream_put_bytes(js, "name", fn->name);
    if (fn->present & MTLBX_F_TYPE)
        json_stream_put_string(js, "type", mbx_function_type_name(fn->type, buf, sizeof buf));
    else
        json_stream_put_null(js, "type");
    if (fn->present & MTLBX_F_VERS) {
        snprintf(buf, sizeof buf, "%u.%u", fn->air_major, fn->air_minor);
        json_stream_put_string(js, "air_version", buf);
        snprintf(buf, sizeof buf, "%u.%u", fn->msl_major, fn->msl_minor);
        json_stream_put_string(js, "language_version", buf);
    } else {
        json_stream_put_null(js, "air_version");
        json_stream_put_null(js, "language_version");
    }
    /* vj_function_field(MTLBX_FF_TAGS), without a json_t per tag. */
    struct mtlbx_tag_walk w;
    struct mtlbx_tag t;
    mbx_tag_walk_init(&w, mbx_library_file(lib), fn->entry_offset + 4, fn->entry_size > 4 ? fn->entry_size - 4 : 0);
    json_stream_open(js, "tags", '[');
    while (mbx_tag_walk_next(&w, &t))
        json_stream_put_string(js, NULL, t.name);
    json_stream_close(js);
    if (fn->module_valid)
        put_range(js, "module", fn->module);
    else
        json_stream_put_null(js, "module");
    if (fn->module_valid && fn->module_size_inferred)
        json_stream_put_bool(js, "module_size_inferred", true);
    if (fn->hash) {
        char hex[129];
        json_stream_put_string(js, "hash", hex_text(hex, fn->hash, 32));
    } else {
        json_stream_put_null(js, "hash");
    }
    /* Hashed before: by prepare_libraries(), or with --interfaces by
     * the batch this function is in. The state is final. */
    enum mtlbx_hash_state hs = mbx_function_hash_state(lib, i);
    json_stream_put_bool(js, "hash_ok", hs == MTLBX_HASH_MATCHES);

    json_stream_put(js, "constants", vj_function_field(lib, i, MTLBX_FF_CONSTANTS));
    json_stream_put(js, "vertex_attributes", vj_function_field(lib, i, MTLBX_FF_VERTEX_ATTRIBUTES));
    struct mtlbx_requires req;
    mbx_function_requires(lib, i, &req);
    vj_requires_stream(js, "requires", &req);
    /* Extra keys, beyond the contract. */
    json_stream_open(js, "entry", '{');
    json_stream_put_int(js, "offset", (json_int_t)fn->entry_offset);
    json_stream_put_int(js, "size", (json_int_t)fn->entry_size);
    json_stream_close(js);
    if (md->has_debi) {
        json_stream_open(js, "debug_info", '{');
        json_stream_put_int(js, "line", (int)md->debi_line);
        json_stream_put_bytes(js, "path", md->debi_path);
        json_stream_close(js);
    }
    if (md->has_depf)
        json_stream_put_bytes(js, "dependency_file", md->depf_path);
    if (fn->present & MTLBX_F_TESS)
        json_stream_put_int(js, "tess", fn->tess);
    if (fn->present & MTLBX_F_LAYR)
        json_stream_put_string(js, "layer_type", mbx_data_type_name(fn->layr, buf, sizeof buf));
    long archive = mbx_function_archive(lib, i);
    if (archive >= 0)
        json_stream_put_int(js, "source_archive", archive);
    function_stream_more(js, lib, i);
}

static json_t *sources_json(mtlbx_library *lib)
{
    const struct mtlbx_sources *src = mbx_library_sources(lib);
    if (!src || !src->present)
        return json_null();
    json_t *archives = json_array();
    for (size_t k = 0; k < src->n_archives; k++) {
        mbx_archive_load(lib, k);
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

/* The library's keys before "functions". */
static json_t *library_head_json(mtlbx_library *lib)
{
    const struct mtlbx_header *h = mbx_library_header(lib);
    const struct mtlbx_header_ext *ext = mbx_library_header_ext(lib);
    char buf[48];
    json_t *o = json_object();
    json_object_set_new(o, "offset", jint(h->base));
    snprintf(buf, sizeof buf, "%u.%u.%u", h->major, h->minor, h->patch);
    json_object_set_new(o, "container_version", json_string(buf));
    json_object_set_new(o, "platform", json_string(h->macos ? "macOS" : "iOS"));
    json_object_set_new(o, "file_type", json_string(mbx_file_type_name(h->file_type, buf, sizeof buf)));
    json_object_set_new(o, "stub", json_boolean(h->stub));
    json_object_set_new(o, "target_os", json_string(mbx_target_os_name(h->platform_byte, buf, sizeof buf)));
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
    json_object_set_new(o, "requires", vj_header_field(lib, MTLBX_HF_REQUIRES));
    return o;
}

/* The library's keys after "functions" and "sources". */
static json_t *library_tail_json(mtlbx_library *lib)
{
    const struct mtlbx_header *h = mbx_library_header(lib);
    const struct mtlbx_header_ext *ext = mbx_library_header_ext(lib);
    json_t *o = json_object();
    const struct mtlbx_dynamic_header *dyn = mbx_library_dynamic_header(lib);
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
        const struct mtlbx_list *l = mbx_library_list(lib, (enum mtlbx_list_kind)k);
        if (l->present)
            json_object_set_new(sections, l->tag, json_pack("{s:o,s:o,s:i}", "offset", jint(l->range.offset),
                                                             "size", jint(l->range.size), "entries",
                                                             (int)l->n_groups));
    }
    json_object_set_new(o, "sections", sections);
    library_json_more(lib, o);
    /* Last, so that problems found while hashing and decompressing show. */
    json_t *diags = json_array();
    for (size_t i = 0; i < mbx_library_diag_count(lib); i++)
        json_array_append_new(diags, diag_json(mbx_library_diag(lib, i)));
    if (interface_diags) {
        json_array_extend(diags, interface_diags);
        json_decref(interface_diags);
        interface_diags = NULL;
    }
    json_object_set_new(o, "diagnostics", diags);
    return o;
}

/* --interfaces: each function's "interface" member, rendered on the
 * thread that hashed and decoded its module (the library's hash pass
 * hands every module over right after its hash: one read of the file
 * for both), for the main thread to append in function order. A batch
 * of functions at a time, so that memory stays one batch of rendered
 * text (a few KB a function) whatever the library. */
#define INTERFACE_BATCH 1024
/* A batch ends sooner once its modules come to this many bytes: text
 * rendered from the metadata of huge modules must not pile up. */
#define INTERFACE_BATCH_BYTES ((uint64_t)16 << 20)

struct rendered_interface {
    char *text;                /* the member, separator and key included */
    size_t len, cap;           /* the buffer stays from batch to batch */
    json_t *diag;              /* its problem for the library's list, or NULL */
    bool failed;               /* out of memory rendering it */
};

struct interface_batch {
    struct rendered_interface *slots;
    size_t first;
    int depth;                 /* the function object's, in the document */
    bool compact;
};

static void render_interface(const mtlbx_library *lib, size_t i, const struct mtlbx_interface *iface,
                             const struct mtlbx_error *err, void *ctx)
{
    struct interface_batch *b = ctx;
    struct rendered_interface *r = &b->slots[i - b->first];
    /* dump_malloc marks running out of memory on this thread (a hash
     * thread's own flag, which nobody else reads): the slot carries it. */
    bool out_of_memory_before = dump_out_of_memory;
    dump_out_of_memory = false;
    r->diag = interface_problem_json(lib, i, iface, err);
    struct json_stream w;
    json_stream_init_item(&w, b->depth, b->compact);
    json_stream_give(&w, r->text, r->cap);
    interface_stream_put(&w, "interface", iface);
    r->text = json_stream_take(&w, &r->len, &r->cap);
    r->failed = w.failed || dump_out_of_memory;
    dump_out_of_memory = out_of_memory_before;
}

/* The slots' buffers stay for the next batch unless `all`. */
static void clear_batch(struct rendered_interface *slots, size_t from, size_t to, bool all)
{
    for (size_t k = from; k < to; k++) {
        json_decref(slots[k].diag);
        slots[k].diag = NULL;
        slots[k].len = 0;
        slots[k].failed = false;
        if (all) {
            free(slots[k].text);
            slots[k] = (struct rendered_interface){ 0 };
        }
    }
}

/* Where the batch that starts at function `first` ends. */
static size_t batch_end_from(const mtlbx_library *lib, size_t first, size_t n)
{
    uint64_t bytes = 0;
    size_t end = first;
    while (end < n && end - first < INTERFACE_BATCH && (end == first || bytes < INTERFACE_BATCH_BYTES)) {
        const struct mtlbx_function *fn = mbx_function_peek(lib, end++);
        if (fn && fn->module_valid)
            bytes += fn->module.size;
    }
    return end;
}

/* One library, its functions streamed one at a time. `head` is its
 * library_head_json(), built before its modules were hashed. Stops early
 * (the caller reports it) once memory ran out, output failed or the file
 * changed under the hash. */
static void stream_library(struct json_stream *js, mtlbx_library *lib, json_t *head)
{
    json_stream_open(js, NULL, '{');
    json_stream_put_members(js, head);
    json_stream_open(js, "functions", '[');
    struct rendered_interface *slots = NULL;
    if (with_interfaces && (!(interface_diags = json_array()) || !(slots = calloc(INTERFACE_BATCH, sizeof *slots))))
        dump_out_of_memory = true;
    size_t n = mbx_library_function_count(lib);
    /* The reader reads a module that several functions share once for
     * all of them. */
    mtlbx_interface_reader *rd = with_interfaces ? mbx_interface_reader_new(lib) : NULL;
    struct interface_batch batch = { .slots = slots, .depth = js->depth + 1, .compact = js->compact };
    size_t batch_end = 0;
    for (size_t i = 0; i < n && !dump_out_of_memory && !js->failed && !ferror(js->out); i++) {
        if (with_interfaces && i == batch_end) {
            batch.first = i;
            batch_end = batch_end_from(lib, i, n);
            mbx_library_verify_decoding(lib, rd, i, batch_end, 0, render_interface, &batch);
            /* The rest could not be hashed: the document stops here, and
             * the caller says why (mbx_file_changed). */
            if (mbx_file_changed(mbx_library_file(lib)))
                break;
        }
        put_function(js, lib, i);
        if (with_interfaces) {
            struct rendered_interface *r = &slots[i - batch.first];
            if (r->failed)
                dump_out_of_memory = true;
            else
                json_stream_put_item(js, r->text, r->len);
            /* Capped like the library's own list: hostile input cannot
             * grow it without bound. */
            if (r->diag && json_array_size(interface_diags) < MTLBX_MAX_DIAGS) {
                json_array_append_new(interface_diags, r->diag);
                r->diag = NULL;
            }
            clear_batch(slots, i - batch.first, i - batch.first + 1, false);
        }
        json_stream_close(js);
        /* The entries and metadata written so far are not read again. */
        if (i % 4096 == 4095) {
            mbx_library_release_pages(lib);
            mbx_library_forget(lib, i); /* fn is i's */
        }
    }
    if (slots)
        clear_batch(slots, 0, INTERFACE_BATCH, true);
    free(slots);
    mbx_interface_reader_free(rd);
    mbx_library_release_pages(lib);
    json_stream_close(js);
    json_stream_put(js, "sources", sources_json(lib));
    json_stream_put_members(js, library_tail_json(lib));
    json_stream_close(js);
}

static json_t *fat_json(mtlbx_file *f)
{
    if (!mbx_file_is_fat(f))
        return json_null();
    json_t *slices = json_array();
    for (size_t i = 0; i < mbx_fat_slice_count(f); i++) {
        const struct mbx_fat_slice *s = mbx_fat_slice(f, i);
        json_t *slice = json_pack("{s:o,s:o,s:o,s:o,s:o}", "cputype", jint(s->cputype), "cpusubtype",
                                  jint(s->cpusubtype), "offset", jint(s->offset), "size", jint(s->size), "align",
                                  jint(s->align));
        if (slice) {
            fat_slice_json_more(s, slice);
            fat_slice_gpu_json(f, i, slice);
        }
        json_array_append_new(slices, slice);
    }
    return json_pack("{s:o}", "slices", slices);
}

static json_t *file_diags_json(mtlbx_file *f)
{
    json_t *diags = json_array();
    for (size_t i = 0; i < mbx_file_diag_count(f); i++)
        json_array_append_new(diags, diag_json(mbx_file_diag(f, i)));
    return diags;
}

/* Hashes every module (what reads the most of the file) before a byte is
 * written, so that a file that changed under us gives no document at all.
 * With --interfaces the modules are hashed as they are written instead,
 * a batch at a time, each decoded from the bytes its hash read (one read
 * of the file, not two): a file that changes then cuts the document short,
 * and the caller fails with the one-line error (exit 2) as before.
 * Each library's head is built before its hashing, as the keys' order in
 * the document has it (the accessors may record problems as they go). */
static json_t **prepare_libraries(mtlbx_file *f)
{
    size_t n = mbx_file_library_count(f);
    json_t **heads = calloc(n ? n : 1, sizeof *heads);
    if (!heads)
        return NULL;
    for (size_t l = 0; l < n; l++) {
        mtlbx_library *lib = mbx_library_at(f, l);
        heads[l] = library_head_json(lib);
        if (!with_interfaces)
            mbx_library_verify_all(lib, 0);
        /* Decodes the metadata and lists now (as the first function would),
         * so that running out of memory there also stops us before output. */
        (void)mbx_library_diag_count(lib);
    }
    return heads;
}

enum mtlbx_doc_result mbx_doc_write(FILE *out, const char *path, mtlbx_file *f, unsigned flags)
{
    dump_out_of_memory = false;
    with_interfaces = flags & MTLBX_DOC_INTERFACES;
    with_layout = flags & MTLBX_DOC_LAYOUT;
    bool layout = with_layout, layout_incomplete = false;
    size_t n_libs = mbx_file_library_count(f);
    json_t **heads = prepare_libraries(f);
    if (!heads || dump_out_of_memory) {
        for (size_t l = 0; heads && l < n_libs; l++)
            json_decref(heads[l]);
        free(heads);
        return MTLBX_DOC_NO_MEMORY;
    }
    bool complete = !mbx_file_out_of_memory(f, NULL) && !mbx_file_changed(f);
    struct json_stream js;
    json_stream_init(&js, out);
    js.compact = flags & MTLBX_DOC_ONE_LINE;
    size_t l = 0;
    if (complete) {
        json_stream_open(&js, NULL, '{');
        json_stream_put(&js, "path", jstr((struct mtlbx_bytes){ (const uint8_t *)path, strlen(path) }));
        json_stream_put(&js, "size", jint(mbx_file_size(f)));
        json_stream_put(&js, "fat", fat_json(f));
        json_stream_open(&js, "libraries", '[');
        for (; l < n_libs && !dump_out_of_memory && !js.failed && !ferror(out); l++) {
            stream_library(&js, mbx_library_at(f, l), heads[l]);
            heads[l] = NULL;
        }
        json_stream_close(&js);
        json_stream_put(&js, "diagnostics", file_diags_json(f));
        /* Last: every byte's owner, streamed region by region. */
        if (layout && !layout_json_stream(&js, f))
            layout_incomplete = true;
        json_stream_close(&js);
        json_stream_flush(&js);
        putc('\n', out);
    }
    for (; l < n_libs; l++)
        json_decref(heads[l]);
    free(heads);
    /* Whatever went wrong after the first byte, the document is cut
     * short: the caller must not take it as whole. */
    if (!complete)
        return MTLBX_DOC_FILE_INCOMPLETE;
    if (dump_out_of_memory)
        return MTLBX_DOC_CUT_NO_MEMORY;
    if (js.failed && ferror(out))
        return MTLBX_DOC_CUT_OUTPUT;
    if (layout_incomplete && !js.failed)
        return MTLBX_DOC_CUT_LAYOUT;
    if (js.failed)
        return MTLBX_DOC_CUT_VALUE;
    return MTLBX_DOC_WRITTEN;
}
