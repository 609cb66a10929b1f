/* The writer's model (writer.h): libraries, their tags, functions,
 * modules, archives and list groups, grown as they are added, and the
 * writer's one-line error. */
#include "config.h"
#include "writer_internal.h"
#include "container/grow.h"
#include "bitcode/arena.h"
#include "writer/writer.h"
#include "writer/writer_model.h"
#include "container/header.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mbx_wr_fail(mtlbx_writer *w, int64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char raw[sizeof w->error];
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    /* One line, and no byte that acts on a terminal, whatever the values
     * it quotes held (a UUID, a source member's name, a set value given
     * through the API or by Python): every control character becomes
     * \xNN, as the program's stderr writes them (issue 40). Backslashes
     * stay as they are, so that a value escaped before (targets.c) is not
     * escaped twice. */
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)raw; *p && o + 5 < sizeof w->error; p++) {
        if (*p < 0x20 || *p == 0x7f)
            o += (size_t)snprintf(w->error + o, sizeof w->error - o, "\\x%02x", *p);
        else
            w->error[o++] = (char)*p;
    }
    w->error[o] = '\0';
    w->error_offset = offset;
    return MTLBX_WRITER_FAILED;
}

int mbx_wr_out_of_memory(mtlbx_writer *w)
{
    mbx_wr_fail(w, -1, "out of memory");
    w->fatal = true;
    return MTLBX_WRITER_FATAL;
}

int64_t mbx_writer_error_offset(const mtlbx_writer *w)
{
    return w->error_offset;
}

void *mbx_wr_copy(mtlbx_writer *w, const void *p, size_t len)
{
    if (len == SIZE_MAX)
        return NULL;
    uint8_t *q = arena_alloc(&w->arena, len + 1); /* zeroed: a NUL follows */
    if (q && len)
        memcpy(q, p, len);
    return q;
}

size_t mbx_writer_library_count(const mtlbx_writer *w)
{
    return w->n_libraries;
}

struct mtlbx_wr_library *mbx_wr_library_at(mtlbx_writer *w, size_t i)
{
    return i < w->n_libraries ? &w->libraries[i] : NULL;
}

bool mbx_writer_is_fat(const mtlbx_writer *w)
{
    return w->fat;
}

void mbx_wr_set_fat(mtlbx_writer *w, bool fat)
{
    w->fat = fat;
}

void mbx_wr_set_base_dir(mtlbx_writer *w, int dirfd)
{
    w->base_dirfd = dirfd;
}

struct mtlbx_wr_library *mbx_wr_add_library(mtlbx_writer *w)
{
    if (!grow_array((void **)&w->libraries, &w->libraries_cap, w->n_libraries + 1, sizeof *w->libraries)) {
        mbx_wr_out_of_memory(w);
        return NULL;
    }
    struct mtlbx_wr_library *lib = &w->libraries[w->n_libraries++];
    memset(lib, 0, sizeof *lib);
    return lib;
}

long mbx_wr_add_tag(mtlbx_writer *w, struct mtlbx_wr_library *lib, uint32_t fourcc, enum mtlbx_wr_kind kind,
                      const void *value, size_t len, bool borrow)
{
    if (!grow_array((void **)&lib->tags, &lib->tags_cap, lib->n_tags + 1, sizeof *lib->tags)) {
        mbx_wr_out_of_memory(w);
        return -1;
    }
    const uint8_t *v = value;
    if (len && !borrow && !(v = mbx_wr_copy(w, value, len))) {
        mbx_wr_out_of_memory(w);
        return -1;
    }
    lib->tags[lib->n_tags] = (struct mtlbx_wr_tag){ fourcc, (uint8_t)kind, { len ? v : NULL, len } };
    return (long)lib->n_tags++;
}

struct mtlbx_wr_function *mbx_wr_add_function(mtlbx_writer *w, struct mtlbx_wr_library *lib)
{
    if (!grow_array((void **)&lib->functions, &lib->functions_cap, lib->n_functions + 1, sizeof *lib->functions)) {
        mbx_wr_out_of_memory(w);
        return NULL;
    }
    struct mtlbx_wr_function *fn = &lib->functions[lib->n_functions++];
    memset(fn, 0, sizeof *fn);
    fn->archive = fn->reflection = -1;
    return fn;
}

struct mtlbx_wr_module *mbx_wr_add_module(mtlbx_writer *w, struct mtlbx_wr_library *lib)
{
    if (!grow_array((void **)&lib->modules, &lib->modules_cap, lib->n_modules + 1, sizeof *lib->modules)) {
        mbx_wr_out_of_memory(w);
        return NULL;
    }
    struct mtlbx_wr_module *m = &lib->modules[lib->n_modules++];
    memset(m, 0, sizeof *m);
    return m;
}

struct mtlbx_wr_archive *mbx_wr_add_archive(mtlbx_writer *w, struct mtlbx_wr_library *lib)
{
    if (!grow_array((void **)&lib->archives, &lib->archives_cap, lib->n_archives + 1, sizeof *lib->archives)) {
        mbx_wr_out_of_memory(w);
        return NULL;
    }
    struct mtlbx_wr_archive *a = &lib->archives[lib->n_archives++];
    memset(a, 0, sizeof *a);
    return a;
}

struct mtlbx_wr_tags *mbx_wr_add_list_group(mtlbx_writer *w, struct mtlbx_wr_library *lib,
                                              enum mtlbx_list_kind k)
{
    struct mtlbx_wr_list *l = &lib->lists[k];
    if (!grow_array((void **)&l->groups, &l->cap, l->n_groups + 1, sizeof *l->groups)) {
        mbx_wr_out_of_memory(w);
        return NULL;
    }
    struct mtlbx_wr_tags *g = &l->groups[l->n_groups++];
    *g = mtlbx_wr_tags_begin(lib);
    return g;
}

bool mbx_wr_set_module_order(mtlbx_writer *w, struct mtlbx_wr_library *lib, const size_t *order, size_t n)
{
    free(lib->module_order);
    lib->module_order = NULL;
    if (!order)
        return true;
    if (n > SIZE_MAX / sizeof *order || !(lib->module_order = malloc((n ? n : 1) * sizeof *order))) {
        mbx_wr_out_of_memory(w);
        return false;
    }
    if (n)
        memcpy(lib->module_order, order, n * sizeof *order);
    return true;
}

const struct mtlbx_wr_tag *wr_find_tag(const struct mtlbx_wr_library *lib, struct mtlbx_wr_tags run,
                                       uint32_t fourcc)
{
    for (size_t i = 0; i < run.n; i++)
        if (lib->tags[run.first + i].fourcc == fourcc)
            return &lib->tags[run.first + i];
    return NULL;
}

void wr_fourcc_text(uint32_t fourcc, char out[5])
{
    for (int i = 0; i < 4; i++) {
        unsigned char c = (unsigned char)(fourcc >> (8 * i));
        out[i] = c >= 0x20 && c < 0x7F ? (char)c : '?';
    }
    out[4] = 0;
}

static const char *const section_names[MTLBX_WR_SECTIONS] = {
    [MTLBX_WR_SOURCES] = "sources", [MTLBX_WR_DYNAMIC] = "dynamic_header", [MTLBX_WR_VLST] = "VLST",
    [MTLBX_WR_ILST] = "ILST",       [MTLBX_WR_RLST] = "RLST",              [MTLBX_WR_SLST] = "SLST",
};

const char *mbx_wr_section_name(enum mtlbx_wr_section s)
{
    return s < MTLBX_WR_SECTIONS ? section_names[s] : "?";
}

bool mbx_wr_section_parse(const char *name, enum mtlbx_wr_section *out)
{
    for (int s = 0; s < MTLBX_WR_SECTIONS; s++)
        if (strcmp(name, section_names[s]) == 0) {
            *out = (enum mtlbx_wr_section)s;
            return true;
        }
    return false;
}

void wr_library_free(struct mtlbx_wr_library *lib)
{
    free(lib->functions);
    free(lib->modules);
    free(lib->module_order);
    free(lib->archives);
    for (int k = 0; k < MTLBX_LIST_COUNT; k++)
        free(lib->lists[k].groups);
    free(lib->tags);
    memset(lib, 0, sizeof *lib);
}

void wr_uuid_from_digest(const uint8_t digest[32], uint8_t uuid[16])
{
    memcpy(uuid, digest, 16);
    uuid[6] = (uint8_t)((uuid[6] & 0x0F) | 0x80); /* version 8 */
    uuid[8] = (uint8_t)((uuid[8] & 0x3F) | 0x80); /* variant 10 */
}
