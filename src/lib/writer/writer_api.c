/* The writer of ../shared/LIBRARY.md ("The writer"): a library from AIR
 * modules and a target, as Apple's standalone `metallib` tool writes it.
 *
 *   mtlbx_writer *w = mtlbx_writer_new();
 *   mtlbx_writer_target(w, "macOS:14.0");
 *   mtlbx_writer_add_function(w, air, len);       (once per module)
 *   mtlbx_writer_write_filename(w, "out.metallib");
 *
 * Every call returns MTLBX_WRITER_OK (LIBRARY.md's MTLBX_OK), FAILED with
 * a one-line reason in mtlbx_writer_error_string (the writer is still
 * usable, nothing was added or written) or FATAL (out of memory). */
#include "config.h"
#include "writer_internal.h"
#include "container/grow.h"
#include "container/le_read.h"
#include "bitcode/arena.h"
#include "writer/writer.h"
#include "writer/writer_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

mtlbx_writer *mbx_writer_new(void)
{
    mtlbx_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->base_dirfd = -1;
    w->error_offset = -1;
    return w;
}

mtlbx_writer *mtlbx_writer_new(void)
{
    mtlbx_writer *w = mbx_writer_new();
    if (w && !mbx_wr_add_library(w)) {
        mtlbx_writer_free(w);
        return NULL;
    }
    return w;
}

void mtlbx_writer_free(mtlbx_writer *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->n_libraries; i++)
        wr_library_free(&w->libraries[i]);
    free(w->libraries);
    for (size_t i = 0; i < w->n_members; i++) {
        free(w->members[i].name);
        free(w->members[i].data);
    }
    free(w->members);
    free(w->names);
    free(w->air);
    for (size_t i = 0; i < w->n_memories; i++)
        free(w->memories[i]);
    free(w->memories);
    arena_free(&w->arena);
    free(w);
}

const char *mtlbx_writer_error_string(mtlbx_writer *w)
{
    return w ? w->error : "no writer (out of memory)";
}

static struct mtlbx_wr_library *lib0(mtlbx_writer *w)
{
    return w->n_libraries ? &w->libraries[0] : NULL;
}

/* The API makes one plain library (describe and the manifest reader are
 * the ways to more). */
static int api_ready(mtlbx_writer *w)
{
    if (!w)
        return MTLBX_WRITER_FATAL;
    if (w->fatal)
        return MTLBX_WRITER_FATAL;
    if (w->copy)
        return mbx_wr_fail(w, -1, "this writer copies functions of a library (mtlbx_writer_from): it takes no "
                                    "target, value or addition");
    if (w->fat || w->n_libraries != 1)
        return mbx_wr_fail(w, -1, "this writer holds a fat file or several libraries; the API writes one");
    w->error[0] = 0;
    w->error_offset = -1;
    return MTLBX_WRITER_OK;
}

int mtlbx_writer_target(mtlbx_writer *w, const char *os)
{
    int rc = api_ready(w);
    if (rc != MTLBX_WRITER_OK)
        return rc;
    struct mtlbx_wr_target t;
    if ((rc = mbx_wr_parse_target(w, os, &t)) != MTLBX_WRITER_OK)
        return rc;
    struct mtlbx_wr_library *lib = lib0(w);
    if ((rc = mbx_wr_check_target(w, lib, &t)) != MTLBX_WRITER_OK)
        return rc;
    uint8_t type = lib->type_byte;
    mbx_wr_apply_target(lib, &t);
    lib->type_byte = type;
    w->target = t;
    w->has_target = true;
    return MTLBX_WRITER_OK;
}

int mtlbx_writer_add_function(mtlbx_writer *w, const void *air, size_t len)
{
    int rc = api_ready(w);
    if (rc != MTLBX_WRITER_OK)
        return rc;
    if (!air && len)
        return mbx_wr_fail(w, -1, "no module bytes");
    char shown[48];
    snprintf(shown, sizeof shown, "module %zu", lib0(w)->n_functions);
    struct mtlbx_wr_blob b = { air, len, NULL, false };
    return mbx_wr_add_air(w, lib0(w), &b, shown, w->has_target ? &w->target : NULL);
}

int mbx_writer_add_air_file(mtlbx_writer *w, const char *path)
{
    int rc = api_ready(w);
    if (rc != MTLBX_WRITER_OK)
        return rc;
    struct mtlbx_wr_blob b = { NULL, 0, path, false };
    return mbx_wr_add_air(w, lib0(w), &b, NULL, w->has_target ? &w->target : NULL);
}

int mtlbx_writer_add_source(mtlbx_writer *w, const char *name, const void *data, size_t len)
{
    int rc = api_ready(w);
    if (rc != MTLBX_WRITER_OK)
        return rc;
    if (!wr_member_name_ok(name))
        return mbx_wr_fail(w, -1, "source member name \"%.60s\" cannot be a tar member name (empty, or longer "
                             "than a ustar header holds)", name ? name : "");
    for (size_t i = 0; i < w->n_members; i++)
        if (strcmp(w->members[i].name, name) == 0)
            return mbx_wr_fail(w, -1, "source member \"%.60s\" was added already", name);
    if (!data && len)
        return mbx_wr_fail(w, -1, "no source bytes");
    if (!grow_array((void **)&w->members, &w->members_cap, w->n_members + 1, sizeof *w->members))
        return mbx_wr_out_of_memory(w);
    struct wr_member m = { strdup(name), malloc(len ? len : 1), len };
    if (!m.name || !m.data) {
        free(m.name);
        free(m.data);
        return mbx_wr_out_of_memory(w);
    }
    if (len)
        memcpy(m.data, data, len);
    w->members[w->n_members++] = m;
    return MTLBX_WRITER_OK;
}

static int set_uuid(mtlbx_writer *w, struct mtlbx_wr_library *lib, const char *value)
{
    uint8_t uuid[16];
    bool remove = !*value;
    if (!remove) {
        if (strlen(value) != 32)
            return mbx_wr_fail(w, -1, "UUID \"%.60s\" is not 32 hex digits", value);
        uint8_t *b;
        size_t n;
        if (!mbx_wr_unhex(value, &b, &n))
            return mbx_wr_fail(w, -1, "UUID \"%.60s\" is not 32 hex digits", value);
        memcpy(uuid, b, sizeof uuid);
        free(b);
    }
    /* The extension again, without its UUID, then the new one last
     * (where real files have it, FORMAT §5). */
    struct mtlbx_wr_tags old = lib->has_ext ? lib->ext : (struct mtlbx_wr_tags){ 0, 0 }, fresh = mtlbx_wr_tags_begin(lib);
    for (size_t i = 0; i < old.n; i++) {
        struct mtlbx_wr_tag t = lib->tags[old.first + i];
        if (t.fourcc == FOURCC('U', 'U', 'I', 'D'))
            continue;
        if (mbx_wr_add_tag(w, lib, t.fourcc, (enum mtlbx_wr_kind)t.kind, t.value.ptr, t.value.len, true) < 0)
            return MTLBX_WRITER_FATAL;
    }
    if (!remove && mbx_wr_add_tag(w, lib, FOURCC('U', 'U', 'I', 'D'), MTLBX_WR_VALUE, uuid, 16, false) < 0)
        return MTLBX_WRITER_FATAL;
    mtlbx_wr_tags_end(lib, &fresh);
    lib->ext = fresh;
    lib->has_ext = true;
    return MTLBX_WRITER_OK;
}

static int set_dynamic_name(mtlbx_writer *w, struct mtlbx_wr_library *lib, const char *value)
{
    size_t len = strlen(value);
    if (len + 1 > UINT16_MAX)
        return mbx_wr_fail(w, -1, "the dynamic header's NAME is too long for its tag");
    struct mtlbx_wr_tags old = lib->has_ext ? lib->ext : (struct mtlbx_wr_tags){ 0, 0 }, fresh = mtlbx_wr_tags_begin(lib);
    /* HDYN after the sources' pointer, before the rest (FORMAT §5). */
    bool placed = !len;
    for (size_t i = 0; i <= old.n; i++) {
        struct mtlbx_wr_tag t = i < old.n ? lib->tags[old.first + i] : (struct mtlbx_wr_tag){ 0 };
        bool sources = i < old.n && (t.fourcc == FOURCC('H', 'S', 'R', 'C') || t.fourcc == FOURCC('H', 'S', 'R', 'D'));
        if (!placed && !sources) {
            if (mbx_wr_add_tag(w, lib, FOURCC('H', 'D', 'Y', 'N'), MTLBX_WR_SECTION, NULL, 0, true) < 0)
                return MTLBX_WRITER_FATAL;
            placed = true;
        }
        if (i == old.n || t.fourcc == FOURCC('H', 'D', 'Y', 'N'))
            continue;
        if (mbx_wr_add_tag(w, lib, t.fourcc, (enum mtlbx_wr_kind)t.kind, t.value.ptr, t.value.len, true) < 0)
            return MTLBX_WRITER_FATAL;
    }
    mtlbx_wr_tags_end(lib, &fresh);
    lib->ext = fresh;
    lib->has_ext = true;
    lib->has_dynamic = len > 0;
    if (!len)
        return MTLBX_WRITER_OK;
    lib->dynamic = mtlbx_wr_tags_begin(lib);
    if (mbx_wr_add_tag(w, lib, FOURCC('N', 'A', 'M', 'E'), MTLBX_WR_VALUE, value, len + 1, false) < 0)
        return MTLBX_WRITER_FATAL;
    mtlbx_wr_tags_end(lib, &lib->dynamic);
    return MTLBX_WRITER_OK;
}

int mtlbx_writer_set(mtlbx_writer *w, int key, const char *value)
{
    int rc = api_ready(w);
    if (rc != MTLBX_WRITER_OK)
        return rc;
    if (!value)
        return mbx_wr_fail(w, -1, "no value");
    struct mtlbx_wr_library *lib = lib0(w);
    unsigned long v[3];
    uint8_t b;
    switch (key) {
    case MTLBX_WRITER_CONTAINER_VERSION: {
        static const unsigned long max[3] = { 0x7FFF, 0xFFFF, 0xFFFF };
        if (!mbx_wr_version_parse(value, 3, max, v))
            return mbx_wr_fail(w, -1, "container version \"%.60s\" is not MAJOR.MINOR.PATCH", value);
        lib->version_word = (uint16_t)((lib->version_word & 0x8000) | v[0]);
        lib->minor = (uint16_t)v[1];
        lib->patch = (uint16_t)v[2];
        return MTLBX_WRITER_OK;
    }
    case MTLBX_WRITER_PLATFORM:
        if (strcmp(value, "macOS") == 0)
            lib->version_word |= 0x8000;
        else if (strcmp(value, "iOS") == 0)
            lib->version_word &= 0x7FFF;
        else
            return mbx_wr_fail(w, -1, "platform \"%.60s\" is neither macOS nor iOS", value);
        return MTLBX_WRITER_OK;
    case MTLBX_WRITER_FILE_TYPE:
        if (!mbx_wr_file_type_parse(value, &b))
            return mbx_wr_fail(w, -1, "file type \"%.60s\" is not one dump --json names", value);
        lib->type_byte = (uint8_t)((lib->type_byte & 0x80) | b);
        return MTLBX_WRITER_OK;
    case MTLBX_WRITER_TARGET_OS:
        if (!mbx_wr_target_os_parse(value, &b))
            return mbx_wr_fail(w, -1, "target OS \"%.60s\" is not one dump --json names", value);
        lib->platform_byte = b;
        return MTLBX_WRITER_OK;
    case MTLBX_WRITER_OS_VERSION: {
        static const unsigned long max[3] = { 0xFFFF, 0xFF, 0xFF };
        if (!mbx_wr_version_parse(value, 3, max, v))
            return mbx_wr_fail(w, -1, "OS version \"%.60s\" is not MAJOR.MINOR.PATCH", value);
        lib->os_major = (uint16_t)v[0];
        lib->os_minor = (uint8_t)v[1];
        lib->os_patch = (uint8_t)v[2];
        return MTLBX_WRITER_OK;
    }
    case MTLBX_WRITER_UUID: return set_uuid(w, lib, value);
    case MTLBX_WRITER_NAME: return set_dynamic_name(w, lib, value);
    default: return mbx_wr_fail(w, -1, "key %d is not one the writer sets", key);
    }
}

void mbx_writer_mark_copy(mtlbx_writer *w) { w->copy = true; }

int mbx_writer_prepare(mtlbx_writer *w)
{
    if (w && w->copy && !w->fatal) {
        w->error[0] = 0;
        w->error_offset = -1;
        return MTLBX_WRITER_OK;
    }
    int rc = api_ready(w);
    if (rc != MTLBX_WRITER_OK)
        return rc;
    if (!w->has_target)
        return mbx_wr_fail(w, -1, "no target: call mtlbx_writer_target first (\"macOS:14.0\", ...)");
    return wr_lay_out_members(w, lib0(w));
}

int mtlbx_writer_write_filename(mtlbx_writer *w, const char *path)
{
    int rc = mbx_writer_prepare(w);
    if (rc != MTLBX_WRITER_OK)
        return rc;
    if (!path)
        return mbx_wr_fail(w, -1, "no path");
    return wr_write_file_atomic(w, path);
}

int mtlbx_writer_write_memory(mtlbx_writer *w, const void **out, size_t *len)
{
    int rc = mbx_writer_prepare(w);
    if (rc != MTLBX_WRITER_OK)
        return rc;
    if (!out || !len)
        return mbx_wr_fail(w, -1, "nowhere to put the bytes");
    uint8_t *buf;
    size_t n;
    if ((rc = wr_write_memory(w, &buf, &n)) != MTLBX_WRITER_OK)
        return rc;
    /* Owned by the writer, as LIBRARY.md's strings are by their handle,
     * and valid until mtlbx_writer_free: no later call frees it. */
    if (!grow_array((void **)&w->memories, &w->memories_cap, w->n_memories + 1, sizeof *w->memories)) {
        free(buf);
        return mbx_wr_out_of_memory(w);
    }
    w->memories[w->n_memories++] = buf;
    *out = buf;
    *len = n;
    return MTLBX_WRITER_OK;
}
