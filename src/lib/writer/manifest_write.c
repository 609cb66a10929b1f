/* manifest.json from a described library (manifest.h): the values in
 * file order, readable where a value has a plain reading and hex where it
 * has none. A value is shown decoded only when encoding it back gives the
 * same bytes (a NAME that is UTF-8 text and one NUL, a TYPE of one byte,
 * ...); anything else is {"tag": ..., "hex": ...}, so that pack gives the
 * file back byte for byte whatever it held. */
#include "config.h"

#include "writer_internal.h"
#include "manifest.h"
#include "json/json_stream.h"
#include "writer/writer.h"
#include "writer/writer_model.h"
#include "container/header.h"
#include "container/value_names.h"
#include "container/target_names.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_NAME FOURCC_('N', 'A', 'M', 'E')
#define FOURCC_(a, b, c, d) ((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))

static void put_hex(struct json_stream *js, const char *key, const uint8_t *p, size_t n)
{
    char *h = mbx_wr_hex(p, n);
    if (!h) {
        js->failed = true;
        return;
    }
    json_stream_put_string(js, key, h);
    free(h);
}

/* A string key, or KEY_hex when the bytes are not text. */
static void put_text(struct json_stream *js, const char *key, struct mtlbx_bytes b)
{
    if (mbx_wr_text_ok(b.ptr, b.len)) {
        char *s = strndup((const char *)b.ptr, b.len);
        if (!s) {
            js->failed = true;
            return;
        }
        json_stream_put_string(js, key, s);
        free(s);
        return;
    }
    char hk[64];
    snprintf(hk, sizeof hk, "%s_hex", key);
    put_hex(js, hk, b.ptr, b.len);
}

static void put_tag_name(struct json_stream *js, uint32_t fourcc)
{
    char cc[5];
    if (mbx_wr_fourcc_printable(fourcc, cc)) {
        json_stream_put_string(js, "tag", cc);
    } else {
        uint8_t b[4] = { (uint8_t)fourcc, (uint8_t)(fourcc >> 8), (uint8_t)(fourcc >> 16), (uint8_t)(fourcc >> 24) };
        put_hex(js, "tag_hex", b, 4);
    }
}

static uint32_t rd32_le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One tag of a group that is not the function list. */
static void put_item(struct json_stream *js, const struct mtlbx_wr_tag *t)
{
    char cc[5];
    bool named = mbx_wr_fourcc_printable(t->fourcc, cc);
    if (t->kind == MTLBX_WR_SECTION && named) {
        json_stream_put_string(js, NULL, cc);
        return;
    }
    json_stream_open(js, NULL, '{');
    put_tag_name(js, t->fourcc);
    const uint8_t *v = t->value.ptr;
    size_t n = t->value.len;
    if (t->kind == MTLBX_WR_ALIGNED) {
        put_hex(js, "aligned", v, n);
    } else if ((t->fourcc == TAG_NAME || t->fourcc == FOURCC_('D', 'E', 'P', 'F') ||
                t->fourcc == FOURCC_('D', 'Y', 'N', 'L')) &&
               mbx_wr_cstring_ok(v, n)) {
        json_stream_put_string(js, "string", (const char *)v);
    } else if (t->fourcc == FOURCC_('D', 'E', 'B', 'I') && n >= 5 && mbx_wr_cstring_ok(v + 4, n - 4)) {
        json_stream_put_int(js, "line", rd32_le(v));
        json_stream_put_string(js, "path", (const char *)v + 4);
    } else if (t->fourcc == FOURCC_('U', 'U', 'I', 'D') && n == 16) {
        put_hex(js, "uuid", v, n);
    } else {
        put_hex(js, "hex", v, n);
    }
    json_stream_close(js);
}

static void put_items(struct json_stream *js, const char *key, const struct mtlbx_wr_library *lib,
                      struct mtlbx_wr_tags run)
{
    json_stream_open(js, key, '[');
    for (size_t i = 0; i < run.n; i++)
        put_item(js, &lib->tags[run.first + i]);
    json_stream_close(js);
}

/* ------------------------------------------------------------ functions -- */

/* Which tags of a function list entry become keys of the function: the
 * first of each of these that decodes. */
enum keyed { K_NAME, K_TYPE, K_VERS, K_TESS, K_LAYR, K_COUNT };

static int keyed_of(const struct mtlbx_wr_tag *t)
{
    if (t->kind != MTLBX_WR_VALUE)
        return -1;
    switch (t->fourcc) {
    case TAG_NAME: return mbx_wr_cstring_ok(t->value.ptr, t->value.len) ? K_NAME : -1;
    case FOURCC_('T', 'Y', 'P', 'E'): return t->value.len == 1 ? K_TYPE : -1;
    case FOURCC_('V', 'E', 'R', 'S'): return t->value.len == 8 ? K_VERS : -1;
    case FOURCC_('T', 'E', 'S', 'S'): return t->value.len == 1 ? K_TESS : -1;
    case FOURCC_('L', 'A', 'Y', 'R'): return t->value.len == 1 ? K_LAYR : -1;
    default: return -1;
    }
}

static const char *computed_name(uint8_t kind)
{
    switch (kind) {
    case MTLBX_WR_HASH: return "HASH";
    case MTLBX_WR_OFFT: return "OFFT";
    case MTLBX_WR_MDSZ: return "MDSZ";
    case MTLBX_WR_SOFF: return "SOFF";
    case MTLBX_WR_RFLT: return "RFLT";
    default: return NULL;
    }
}

/* The function's tag list as names, "NAME TYPE HASH ..." into sig; false
 * when a tag is written as a value of its own (hex). `keyed[k]` gets the
 * tag each key comes from (-1 none). */
static bool signature(const struct mtlbx_wr_library *lib, const struct mtlbx_wr_function *fn, char *sig,
                      size_t size, long keyed[K_COUNT])
{
    bool plain = true;
    size_t used = 0;
    for (int k = 0; k < K_COUNT; k++)
        keyed[k] = -1;
    sig[0] = 0;
    for (size_t i = 0; i < fn->tags.n; i++) {
        const struct mtlbx_wr_tag *t = &lib->tags[fn->tags.first + i];
        const char *name = computed_name(t->kind);
        char cc[5];
        int k = keyed_of(t);
        if (k >= 0 && keyed[k] < 0) {
            keyed[k] = (long)(fn->tags.first + i);
            mbx_wr_fourcc_printable(t->fourcc, cc);
            name = cc;
        }
        if (!name) {
            plain = false;
            name = "????"; /* four bytes, as every name copied below */
        }
        if (used + 6 < size) {
            memcpy(sig + used, name, 4);
            sig[used + 4] = ' ';
            used += 5;
            sig[used] = 0;
        } else {
            plain = false;
        }
    }
    return plain;
}

static void put_function_tags(struct json_stream *js, const struct mtlbx_wr_library *lib,
                              const struct mtlbx_wr_function *fn, const long keyed[K_COUNT])
{
    json_stream_open(js, "tags", '[');
    for (size_t i = 0; i < fn->tags.n; i++) {
        size_t at = fn->tags.first + i;
        const struct mtlbx_wr_tag *t = &lib->tags[at];
        const char *name = computed_name(t->kind);
        char cc[5];
        for (int k = 0; k < K_COUNT && !name; k++)
            if (keyed[k] == (long)at && mbx_wr_fourcc_printable(t->fourcc, cc))
                name = cc;
        if (name) {
            json_stream_put_string(js, NULL, name);
            continue;
        }
        json_stream_open(js, NULL, '{');
        put_tag_name(js, t->fourcc);
        put_hex(js, "hex", t->value.ptr, t->value.len);
        json_stream_close(js);
    }
    json_stream_close(js);
}

static uint16_t rd16_le(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static void put_function(struct json_stream *js, const struct mtlbx_wr_library *lib, size_t i,
                         const char *default_sig, const struct mbx_manifest_files *files)
{
    const struct mtlbx_wr_function *fn = &lib->functions[i];
    char sig[512], buf[40];
    long keyed[K_COUNT];
    bool plain = signature(lib, fn, sig, sizeof sig, keyed);
    json_stream_open(js, NULL, '{');
    if (keyed[K_NAME] >= 0)
        json_stream_put_string(js, "name", (const char *)lib->tags[keyed[K_NAME]].value.ptr);
    if (keyed[K_TYPE] >= 0)
        json_stream_put_string(js, "type", mbx_function_type_name(lib->tags[keyed[K_TYPE]].value.ptr[0], buf,
                                                                    sizeof buf));
    if (keyed[K_VERS] >= 0) {
        const uint8_t *v = lib->tags[keyed[K_VERS]].value.ptr;
        snprintf(buf, sizeof buf, "%u.%u", rd16_le(v), rd16_le(v + 2));
        json_stream_put_string(js, "air_version", buf);
        snprintf(buf, sizeof buf, "%u.%u", rd16_le(v + 4), rd16_le(v + 6));
        json_stream_put_string(js, "language_version", buf);
    }
    if (keyed[K_TESS] >= 0)
        json_stream_put_int(js, "tess", lib->tags[keyed[K_TESS]].value.ptr[0]);
    if (keyed[K_LAYR] >= 0)
        json_stream_put_int(js, "layr", lib->tags[keyed[K_LAYR]].value.ptr[0]);
    json_stream_put_string(js, "module", files->modules[fn->module]);
    if (fn->archive >= 0)
        json_stream_put_int(js, "source_archive", fn->archive);
    if (fn->reflection >= 0)
        json_stream_put_int(js, "reflection", fn->reflection);
    if (!plain || strcmp(sig, default_sig) != 0)
        put_function_tags(js, lib, fn, keyed);
    put_items(js, "public_metadata", lib, fn->public_md);
    put_items(js, "private_metadata", lib, fn->private_md);
    if (fn->has_stored_hash)
        put_hex(js, "quirk_stored_hash", fn->stored_hash, 32);
    json_stream_close(js);
}

/* ------------------------------------------------------------ libraries -- */

static void put_lists(struct json_stream *js, const char *key, const struct mtlbx_wr_library *lib,
                      enum mtlbx_list_kind k)
{
    const struct mtlbx_wr_list *l = &lib->lists[k];
    if (!l->present) {
        json_stream_put_null(js, key);
        return;
    }
    json_stream_open(js, key, '[');
    for (size_t g = 0; g < l->n_groups; g++)
        put_items(js, NULL, lib, l->groups[g]);
    json_stream_close(js);
}

static void put_library(struct json_stream *js, const struct mtlbx_wr_library *lib, const struct mbx_manifest_files *f)
{
    char buf[64];
    json_stream_open(js, NULL, '{');
    snprintf(buf, sizeof buf, "%u.%u.%u", lib->version_word & 0x7FFFu, lib->minor, lib->patch);
    json_stream_put_string(js, "container_version", buf);
    json_stream_put_string(js, "platform", (lib->version_word & 0x8000) ? "macOS" : "iOS");
    json_stream_put_string(js, "file_type", mbx_file_type_name(lib->type_byte & 0x7F, buf, sizeof buf));
    json_stream_put_bool(js, "stub", (lib->type_byte & 0x80) != 0);
    json_stream_put_string(js, "target_os", mbx_target_os_name(lib->platform_byte, buf, sizeof buf));
    snprintf(buf, sizeof buf, "%u.%u.%u", lib->os_major, lib->os_minor, lib->os_patch);
    json_stream_put_string(js, "os_version", buf);
    json_stream_put_string(js, "metadata_prefix", lib->md_prefix_excludes ? "excludes-itself" : "counts-itself");

    /* The tag order most functions share (the first plain one's). */
    char sig[512] = "";
    long keyed[K_COUNT];
    for (size_t i = 0; i < lib->n_functions; i++)
        if (signature(lib, &lib->functions[i], sig, sizeof sig, keyed))
            break;
        else
            sig[0] = 0;
    json_stream_open(js, "function_tags", '[');
    for (size_t p = 0; sig[p]; p += 5) {
        char name[5];
        memcpy(name, sig + p, 4);
        name[4] = 0;
        json_stream_put_string(js, NULL, name);
    }
    json_stream_close(js);

    if (lib->has_ext)
        put_items(js, "header_extension", lib, lib->ext);
    else
        json_stream_put_null(js, "header_extension");
    json_stream_open(js, "functions", '[');
    for (size_t i = 0; i < lib->n_functions && !js->failed; i++)
        put_function(js, lib, i, sig, f);
    json_stream_close(js);

    if (lib->has_sources) {
        json_stream_open(js, "sources", '{');
        char cc[5];
        mbx_wr_fourcc_printable(lib->sources_tag, cc);
        json_stream_put_string(js, "tag", cc);
        put_text(js, "link_command", lib->link_command);
        if (lib->sources_tag == FOURCC_('H', 'S', 'R', 'D'))
            put_text(js, "working_dir", lib->working_dir);
        json_stream_open(js, "archives", '[');
        for (size_t a = 0; a < lib->n_archives; a++) {
            json_stream_open(js, NULL, '{');
            put_text(js, "id", lib->archives[a].id);
            json_stream_put_string(js, "file", f->archives[a]);
            json_stream_close(js);
        }
        json_stream_close(js);
        json_stream_close(js);
    } else {
        json_stream_put_null(js, "sources");
    }
    if (lib->has_dynamic)
        put_items(js, "dynamic_header", lib, lib->dynamic);
    else
        json_stream_put_null(js, "dynamic_header");
    put_lists(js, "variable_list", lib, MTLBX_LIST_VLST);
    put_lists(js, "imported_symbols", lib, MTLBX_LIST_ILST);
    put_lists(js, "reflection_list", lib, MTLBX_LIST_RLST);
    put_lists(js, "script_list", lib, MTLBX_LIST_SLST);
    /* The quirks: keys of their own, only where a file needs them. */
    if (lib->module_order) {
        json_stream_open(js, "quirk_module_order", '[');
        for (size_t k = 0; k < lib->n_modules; k++)
            json_stream_put_string(js, NULL, f->modules[lib->module_order[k]]);
        json_stream_close(js);
    }
    if (lib->n_section_order) {
        json_stream_open(js, "quirk_section_order", '[');
        for (size_t k = 0; k < lib->n_section_order; k++)
            json_stream_put_string(js, NULL, mbx_wr_section_name(lib->section_order[k]));
        json_stream_close(js);
    }
    json_stream_close(js);
}

bool mbx_manifest_render(mtlbx_writer *w, const struct mbx_manifest_files *files, FILE *out, char *err, size_t err_size)
{
    struct json_stream *js = malloc(sizeof *js);
    if (!js) {
        snprintf(err, err_size, "out of memory");
        return false;
    }
    json_stream_init(js, out);
    json_stream_open(js, NULL, '{');
    json_stream_put_int(js, "mtlbx_manifest", MANIFEST_VERSION);
    size_t n = mbx_writer_library_count(w);
    if (mbx_writer_is_fat(w)) {
        json_stream_open(js, "fat", '{');
        json_stream_open(js, "slices", '[');
        for (size_t l = 0; l < n; l++) {
            const struct mtlbx_wr_library *lib = mbx_wr_library_at(w, l);
            json_stream_open(js, NULL, '{');
            json_stream_put_int(js, "cputype", lib->cputype);
            json_stream_put_int(js, "cpusubtype", lib->cpusubtype);
            json_stream_put_int(js, "align", lib->align);
            json_stream_close(js);
        }
        json_stream_close(js);
        json_stream_close(js);
    } else {
        json_stream_put_null(js, "fat");
    }
    json_stream_open(js, "libraries", '[');
    for (size_t l = 0; l < n && !js->failed; l++)
        put_library(js, mbx_wr_library_at(w, l), &files[l]);
    json_stream_close(js);
    json_stream_close(js);
    json_stream_flush(js);
    bool ok = !js->failed && fputc('\n', out) != EOF && fflush(out) == 0 && !ferror(out);
    free(js);
    if (!ok)
        snprintf(err, err_size, "write failed: %s", errno ? strerror(errno) : "out of memory");
    return ok;
}

/* ------------------------------------------- the files beside the manifest -- */

size_t mbx_manifest_module_count(mtlbx_writer *w, size_t l)
{
    return mbx_wr_library_at(w, l)->n_modules;
}

size_t mbx_manifest_archive_count(mtlbx_writer *w, size_t l)
{
    return mbx_wr_library_at(w, l)->n_archives;
}

struct mtlbx_bytes mbx_manifest_module_bytes(mtlbx_writer *w, size_t l, size_t m)
{
    const struct mtlbx_wr_blob *b = &mbx_wr_library_at(w, l)->modules[m].bytes;
    return (struct mtlbx_bytes){ b->data, (size_t)b->len };
}

struct mtlbx_bytes mbx_manifest_archive_bytes(mtlbx_writer *w, size_t l, size_t a)
{
    const struct mtlbx_wr_blob *b = &mbx_wr_library_at(w, l)->archives[a].payload;
    return (struct mtlbx_bytes){ b->data, (size_t)b->len };
}

size_t mbx_manifest_module_order(mtlbx_writer *w, size_t l, size_t *order)
{
    const struct mtlbx_wr_library *lib = mbx_wr_library_at(w, l);
    bool *seen = calloc(lib->n_modules + 1, 1);
    if (!seen)
        return SIZE_MAX;
    size_t k = 0;
    for (size_t i = 0; i < lib->n_functions; i++)
        if (!seen[lib->functions[i].module]) {
            seen[lib->functions[i].module] = true;
            order[k++] = lib->functions[i].module;
        }
    free(seen);
    return k;
}

struct mtlbx_bytes mbx_manifest_module_name(mtlbx_writer *w, size_t l, size_t m)
{
    const struct mtlbx_wr_library *lib = mbx_wr_library_at(w, l);
    for (size_t i = 0; i < lib->n_functions; i++) {
        const struct mtlbx_wr_function *fn = &lib->functions[i];
        if (fn->module != m)
            continue;
        for (size_t k = 0; k < fn->tags.n; k++) {
            const struct mtlbx_wr_tag *t = &lib->tags[fn->tags.first + k];
            if (t->fourcc == 0x454D414E /* NAME */ && t->kind == MTLBX_WR_VALUE)
                return (struct mtlbx_bytes){ t->value.ptr, t->value.len };
        }
        break;
    }
    return (struct mtlbx_bytes){ NULL, 0 };
}
