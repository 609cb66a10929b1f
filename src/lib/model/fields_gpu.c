/* The explorer's text for a binary archive's GPU code (FORMAT §24): the
 * labels and detail fields of GPU slice, piece and function nodes, and
 * the "GPU code" lines of an AIR function's page: which GPUs hold
 * compiled code for it, where and how much. */
#include "config.h"
#include "node.h"
#include "model/model.h"
#include "container/file.h"
#include "container/functions.h"
#include "container/gpu_slice.h"
#include "container/nouns.h"
#include "container/target_names.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *piece_kind(enum mtlbx_gpu_piece_kind k)
{
    static const char *const names[] = { "Mach-O header", "Load commands", "Note", "Section", "Symbol table",
                                         "String table", "Padding" };
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

static const char *arch(uint32_t cputype, char *buf, size_t size)
{
    const char *a = mbx_cputype_name(cputype);
    if (!a) {
        snprintf(buf, size, "cputype 0x%08x", cputype);
        a = buf;
    }
    return a;
}

void gpu_node_label(mtlbx_file *f, const mtlbx_node *n, char *buf, size_t size)
{
    char a[96], b[96], c[48];
    if (n->kind == MTLBX_NODE_GPU_SLICE) {
        const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(f, n->index);
        snprintf(buf, size, "Slice %zu  %s %u  GPU code, %s", g->slice, arch(g->cputype, c, sizeof c),
                 g->cpusubtype, mbx_count_noun(g->n_functions, "function", "functions", a, sizeof a));
        return;
    }
    const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(f, n->sub);
    if (n->kind == MTLBX_NODE_GPU_FUNCTION) {
        const struct mtlbx_gpu_function *fn = &g->functions[n->index];
        snprintf(buf, size, "GPU code  %s  %s", field_esc(a, sizeof a, (const uint8_t *)fn->name, fn->name_len),
                 mbx_count_noun(fn->size, "byte", "bytes", c, sizeof c));
        return;
    }
    const struct mtlbx_gpu_piece *p = &g->pieces[n->index];
    if (p->kind == MTLBX_GPU_PIECE_SECTION) {
        const struct mtlbx_gpu_section *s = &g->sections[p->index];
        snprintf(buf, size, "Section %s,%s  %s",
                 field_esc(a, sizeof a, (const uint8_t *)s->segment, strlen(s->segment)),
                 field_esc(b, sizeof b, (const uint8_t *)s->section, strlen(s->section)),
                 mbx_count_noun(s->size, "byte", "bytes", c, sizeof c));
    } else {
        snprintf(buf, size, "%s%s%s  %s", piece_kind(p->kind), p->name[0] ? "  " : "",
                 p->name[0] ? field_esc(a, sizeof a, (const uint8_t *)p->name, strlen(p->name)) : "",
                 mbx_count_noun(p->size, "byte", "bytes", c, sizeof c));
    }
}

static void function_line(struct field_out *o, const struct mtlbx_gpu_slice *g, const struct mtlbx_gpu_function *fn,
                          const char *name)
{
    char b[48], c[48];
    field_emit(o, name, fn->offset, fn->size, MTLBX_FIELD_FOLLOW, fn->offset, "slice %zu %s: %s at 0x%" PRIx64,
               g->slice, arch(g->cputype, c, sizeof c), mbx_count_noun(fn->size, "byte", "bytes", b, sizeof b),
               fn->offset);
    if (fn->has_entry)
        field_emit(o, "entry", fn->entry, 0, MTLBX_FIELD_FOLLOW, fn->entry, "0x%" PRIx64 " (_agc.main)", fn->entry);
}

void gpu_node_fields(struct field_out *o)
{
    const mtlbx_node *n = o->n;
    char a[512], b[48];
    if (n->kind == MTLBX_NODE_GPU_SLICE) {
        const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(o->f, n->index);
        field_emit(o, "GPU", g->offset, 0, 0, 0, "%s, subtype %u", arch(g->cputype, b, sizeof b), g->cpusubtype);
        field_emit(o, "Mach-O file type", g->offset + 12, 4, 0, 0, "%u", g->filetype);
        field_emit(o, "sections", g->offset, 0, 0, 0, "%zu", g->n_sections);
        for (size_t i = 0; i < g->n_functions; i++)
            function_line(o, g, &g->functions[i],
                          field_esc(a, sizeof a, (const uint8_t *)g->functions[i].name, g->functions[i].name_len));
        if (g->embedded_library >= 0) {
            const struct mtlbx_header *h = mbx_library_header(mbx_library_at(o->f, (size_t)g->embedded_library));
            field_emit(o, "AIR library", h->base, 0, MTLBX_FIELD_FOLLOW, h->base,
                       "library %ld in __TEXT,__metallib at 0x%" PRIx64, g->embedded_library, h->base);
        }
        return;
    }
    const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(o->f, n->sub);
    if (n->kind == MTLBX_NODE_GPU_FUNCTION) {
        const struct mtlbx_gpu_function *fn = &g->functions[n->index];
        field_emit(o, "name", fn->symbol_offset, 16, 0, 0, "%s",
                   field_esc(a, sizeof a, (const uint8_t *)fn->name, fn->name_len));
        field_emit(o, "symbol", fn->symbol_offset, 16, 0, 0, "%s",
                   field_esc(a, sizeof a, (const uint8_t *)fn->symbol, strlen(fn->symbol)));
        function_line(o, g, fn, "code");
        if (fn->library >= 0) {
            mtlbx_library *lib = mbx_library_at(o->f, (size_t)fn->library);
            const struct mtlbx_function *af = mbx_function_at(lib, (size_t)fn->function);
            if (af)
                field_emit(o, "AIR function", af->entry_offset, 0, MTLBX_FIELD_FOLLOW, af->entry_offset,
                           "library %ld, function %ld", fn->library, fn->function);
        } else {
            field_emit(o, "AIR function", fn->offset, 0, MTLBX_FIELD_WARNING, 0, "none of this name in the file");
        }
        return;
    }
    const struct mtlbx_gpu_piece *p = &g->pieces[n->index];
    field_emit(o, "what", p->offset, p->size, 0, 0, "%s", piece_kind(p->kind));
    if (p->kind == MTLBX_GPU_PIECE_SECTION) {
        const struct mtlbx_gpu_section *s = &g->sections[p->index];
        field_emit(o, "section header", s->header_offset, 80, 0, 0, "addr 0x%" PRIx64 ", file offset 0x%" PRIx64
                   ", %s", s->addr, s->offset, mbx_count_noun(s->size, "byte", "bytes", b, sizeof b));
    }
}

void gpu_function_code_fields(struct field_out *o, const mtlbx_library *lib, size_t i)
{
    const struct mtlbx_function *fn = mbx_function_at(lib, i);
    if (!fn || !mbx_gpu_slice_count(o->f))
        return;
    bool any = false;
    for (size_t k = 0; k < mbx_gpu_slice_count(o->f); k++) {
        const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(o->f, k);
        const struct mtlbx_gpu_function *code = mbx_gpu_code_for(g, fn->name.ptr, fn->name.len);
        if (code) {
            function_line(o, g, code, "GPU code");
            any = true;
        }
    }
    if (!any)
        field_emit(o, "GPU code", fn->entry_offset, 0, 0, 0, "none: no GPU slice of the file holds code for it");
}
