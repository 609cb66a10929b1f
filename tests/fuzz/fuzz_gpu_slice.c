/* libFuzzer harness over the GPU slice reader (src/lib/container/
 * gpu_slice.c, on macho.c): each input is a whole file, opened from
 * memory; for each GPU slice of a fat file the harness checks what
 * gpu_slice.h promises: sections inside their slice (empty ones at most
 * at its end), each function's code inside the section it names and its
 * entry inside the slice, names NUL-terminated at their length, pieces
 * in offset order inside the slice, an embedded library that is one of
 * the file's and lies in a __metallib section; that the layout walk
 * explains each byte of the file once (claimed, padding or unclaimed);
 * that the GPU_BINARY JSON can be written; every diagnostic with a
 * message. Any broken promise aborts.
 * Seeds: none committed (the one public archive may not be copied into
 * the repository): tests/mkgpuarchive.py writes the sample's variants and
 * tests/hostile/hostile_gpu_slices.sh mutates them, at test time; `make
 * fuzz` starts from the same variants. */
#include "config.h"

#include "checks/byte_layout.h"
#include "json/gpu_json.h"
#include "container/diagnostics.h"
#include "container/file.h"
#include "container/functions.h"
#include "container/gpu_slice.h"
#include "container/header.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: broken promise: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                   \
        }                                                                              \
    } while (0)

static bool within(uint64_t off, uint64_t len, uint64_t lo, uint64_t hi)
{
    return off >= lo && off <= hi && len <= hi - off;
}

static void check_slice(const mtlbx_file *f, const struct mtlbx_gpu_slice *g, size_t size)
{
    CHECK(g->slice < mbx_fat_slice_count(f));
    CHECK(within(g->offset, g->size, 0, size));
    uint64_t lo = g->offset, hi = g->offset + g->size;
    for (size_t i = 0; i < g->n_sections; i++) {
        const struct mtlbx_gpu_section *s = &g->sections[i];
        CHECK(within(s->offset, s->size, lo, hi));
        CHECK(memchr(s->segment, '\0', sizeof s->segment) && memchr(s->section, '\0', sizeof s->section));
        if (i)
            CHECK(s->header_offset > g->sections[i - 1].header_offset); /* load-command order */
    }
    for (size_t i = 0; i < g->n_functions; i++) {
        const struct mtlbx_gpu_function *fn = &g->functions[i];
        CHECK(fn->section < g->n_sections);
        const struct mtlbx_gpu_section *s = &g->sections[fn->section];
        CHECK(within(fn->offset, fn->size, s->offset, s->offset + s->size));
        CHECK(!fn->has_entry || (fn->entry >= lo && fn->entry <= hi));
        CHECK(fn->name && strlen(fn->name) == fn->name_len && fn->symbol);
        CHECK(within(fn->symbol_offset, 16, lo, hi));
        CHECK((fn->library < 0) == (fn->function < 0));
        if (fn->library >= 0) {
            CHECK((size_t)fn->library < mbx_file_library_count(f));
            mtlbx_library *lib = mbx_library_at(f, (size_t)fn->library);
            CHECK((size_t)fn->function < mbx_library_function_count(lib));
        }
        CHECK(mbx_gpu_code_for(g, (const uint8_t *)fn->name, fn->name_len) != NULL);
        if (i)
            CHECK(fn->offset >= g->functions[i - 1].offset);
    }
    for (size_t i = 0; i < g->n_pieces; i++) {
        const struct mtlbx_gpu_piece *p = &g->pieces[i];
        CHECK(within(p->offset, p->size, lo, hi));
        CHECK(p->kind != MTLBX_GPU_PIECE_SECTION || p->index < g->n_sections);
        if (i)
            CHECK(p->offset >= g->pieces[i - 1].offset);
    }
    if (g->embedded_library >= 0) {
        CHECK((size_t)g->embedded_library < mbx_file_library_count(f));
        CHECK(mbx_gpu_slice_embedding(f, (size_t)g->embedded_library) == g);
        const struct mtlbx_header *h = mbx_library_header(mbx_library_at(f, (size_t)g->embedded_library));
        bool in_metallib = false;
        for (size_t i = 0; i < g->n_sections; i++)
            in_metallib |= strcmp(g->sections[i].section, "__metallib") == 0 && h->base == g->sections[i].offset &&
                           h->available <= g->sections[i].size;
        CHECK(in_metallib);
    }
    CHECK(mbx_fat_slice_library(f, g->slice) == g->embedded_library);
    CHECK(mbx_gpu_slice_of(f, g->slice) == g);
}

struct covered {
    uint64_t pos, size;
};

static bool count_region(void *ctx, const struct mtlbx_region *r)
{
    struct covered *c = ctx;
    CHECK(r->offset == c->pos); /* in order, each byte once */
    CHECK(r->size > 0 && r->size <= c->size - r->offset);
    c->pos += r->size;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    if (mbx_open_buffer(data, size, "fuzz", &f, &err) != MTLBX_E_NONE)
        return 0;
    for (size_t i = 0; i < mbx_gpu_slice_count(f); i++)
        check_slice(f, mbx_gpu_slice_at(f, i), size);
    CHECK(!mbx_gpu_slice_at(f, mbx_gpu_slice_count(f)));
    struct covered c = { 0, size };
    if (mbx_layout_walk(f, count_region, &c))
        CHECK(c.pos == size);
    for (size_t i = 0; i < mbx_fat_slice_count(f); i++) {
        json_t *o = json_object();
        if (!o)
            break;
        fat_slice_gpu_json(f, i, o);
        char *s = json_dumps(o, JSON_COMPACT);
        CHECK(s || !mbx_gpu_slice_of(f, i)); /* valid UTF-8 strings */
        free(s);
        json_decref(o);
    }
    for (size_t i = 0; i < mbx_file_diag_count(f); i++) {
        const struct mtlbx_diag *d = mbx_file_diag(f, i);
        CHECK(d && d->message && d->message[0]);
    }
    mbx_close(f);
    return 0;
}
