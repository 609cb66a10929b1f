/* libFuzzer harness over the native bitcode reader: each input is one
 * module (a bitcode wrapper or a bare "BC\xC0\xDE" stream) decoded with
 * mbx_interface_decode() as if it sat at file offset BASE. The result is
 * then checked against what the API promises (every block and the error
 * offset inside the module, children inside their parents, strings inside
 * the input or owned by the result, a finite value tree, an empty
 * interface when decoding failed, an address space that LLVM can have and
 * that an output never takes from a parameter) and every byte it points
 * at is read, so ASan sees any span that is not real. Then what prints it runs on it:
 * the FUNCTION_INTERFACE JSON of sig and dump (interface_json.c), the
 * declaration sig prints, and the comparison diff makes (an interface
 * equals itself). A broken promise aborts. */
#include "config.h"

#include "bitcode/interface_reader.h"
#include "model/msl.h"
#include "compare/compare.h"
#include "json/interface_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BASE 0x40

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile unsigned sink;

static void broken(const char *what)
{
    fprintf(stderr, "fuzz_bitcode: broken promise: %s\n", what);
    abort();
}

static void touch(struct mtlbx_bytes b)
{
    if (b.len && !b.ptr)
        broken("a span with a length and no bytes");
    for (size_t i = 0; i < b.len; i++)
        sink += b.ptr[i];
}

static void value(const struct mtlbx_md_value *v, unsigned depth)
{
    if (depth > MTLBX_BC_MAX_MD_NESTING + 1)
        broken("metadata nested past the limit");
    switch (v->kind) {
    case MTLBX_MD_STRING:
    case MTLBX_MD_GLOBAL:
        touch(v->s);
        break;
    case MTLBX_MD_NODE:
        for (size_t i = 0; i < v->n_items; i++)
            value(&v->items[i], depth + 1);
        break;
    case MTLBX_MD_INT:
    case MTLBX_MD_NULL:
        break;
    default:
        broken("unknown metadata kind");
    }
}

static void properties(const struct mtlbx_air_property *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        touch(p[i].key);
        for (size_t k = 0; k < p[i].n_values; k++)
            value(&p[i].values[k], 0);
    }
}

static void no_control_bytes(const char *s, const char *what)
{
    for (const char *p = s; p && *p; p++)
        if ((unsigned char)*p < 0x20 && *p != '\n')
            broken(what);
}

/* `outputs`: they are no parameters, so their address space can only be
 * the metadata's. */
static void arguments(const struct mtlbx_air_argument *a, size_t n, bool outputs)
{
    for (size_t i = 0; i < n; i++) {
        touch(a[i].kind);
        if (a[i].has_name)
            touch(a[i].name);
        if (a[i].has_type)
            touch(a[i].type);
        if (a[i].access && strlen(a[i].access) > 10)
            broken("access is not one of the four words");
        switch (a[i].address_space_from) {
        case MTLBX_AS_NOT_POINTER:
        case MTLBX_AS_METADATA:
            break;
        case MTLBX_AS_PARAMETER:
            if (a[i].address_space < 0 || a[i].address_space > 0xFFFFFF)
                broken("a parameter's address space that LLVM cannot have");
            /* fall through */
        case MTLBX_AS_UNKNOWN:
            if (outputs)
                broken("an output's address space from a parameter");
            break;
        default:
            broken("address_space_from is none of the four");
        }
        char *type = mbx_msl_argument_type(&a[i]);
        no_control_bytes(type, "a control byte in an argument's MSL type");
        free(type);
        properties(a[i].properties, a[i].n_properties);
    }
}

/* What sig, dump and diff do with an interface. */
static void printers(const struct mtlbx_interface *it)
{
    json_t *j = interface_json(it);
    if (!j)
        broken("no JSON for an interface");
    char *text = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);
    if (text)
        sink += (unsigned)strlen(text);
    free(text);
    json_decref(j);
    static const uint8_t name[] = "compute_main";
    char *decl = mbx_msl_declaration(it, (struct mtlbx_bytes){ name, sizeof name - 1 }, "visible", NULL,
                                       MTLBX_MSL_MEMBERS);
    no_control_bytes(decl, "a control byte in the declaration");
    free(decl);
    /* sig's: structs, threadgroup memory, address spaces as MSL */
    decl = mbx_msl_declaration(it, (struct mtlbx_bytes){ name, sizeof name - 1 }, "visible", NULL,
                                 MTLBX_MSL_SOURCE | MTLBX_MSL_CONSTANTS);
    no_control_bytes(decl, "a control byte in sig's declaration");
    free(decl);
    struct mtlbx_interface_diff d;
    if (mbx_interface_compare(it, it, &d)) {
        if (d.stage_changed || d.n_changes)
            broken("an interface differs from itself");
        mbx_interface_diff_free(&d);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct mtlbx_error err;
    memset(&err, 0, sizeof err);
    /* The first function's name of the sample: some inputs will name it */
    static const uint8_t symbol[] = "compute_main";
    struct mtlbx_interface *it = mbx_interface_decode(data, size, BASE, symbol, sizeof symbol - 1, &err);
    if (!it) {
        if (!err.message[0] || !memchr(err.message, '\0', sizeof err.message) || err.offset < BASE ||
            err.offset > BASE + size)
            broken("NULL without a reason and an offset inside the module");
        return 0;
    }
    const struct mtlbx_module_info *mi = &it->module;
    if (mi->bitcode_offset < BASE || mi->bitcode_offset + mi->bitcode_size > BASE + size)
        broken("bitcode span outside the module");
    for (size_t i = 0; i < mi->n_blocks; i++) {
        const struct mtlbx_bc_block *b = &mi->blocks[i];
        if (b->offset < mi->bitcode_offset || b->size > mi->bitcode_offset + mi->bitcode_size - b->offset)
            broken("block outside the bitstream");
        if (b->parent != UINT32_MAX) {
            if (b->parent >= i)
                broken("parent listed after its child");
            const struct mtlbx_bc_block *p = &mi->blocks[b->parent];
            if (b->offset < p->offset || b->offset + b->size > p->offset + p->size || b->depth != p->depth + 1)
                broken("block outside its parent");
        } else if (b->depth != 0) {
            broken("top-level block with a depth");
        }
        if (b->name)
            sink += (unsigned)strlen(b->name);
    }
    if (!memchr(mi->error, '\0', sizeof mi->error))
        broken("error not NUL-terminated");
    if (mi->failed) {
        if (mi->error_offset < BASE || mi->error_offset > BASE + size || !mi->error[0])
            broken("failure without a message and an offset inside the module");
        if (it->stage || it->n_inputs || it->n_outputs || it->n_attributes || it->n_compile_options)
            broken("a failed interface that is not empty");
    }
    if (it->stage)
        sink += (unsigned)strlen(it->stage);
    touch(it->symbol);
    arguments(it->inputs, it->n_inputs, false);
    arguments(it->outputs, it->n_outputs, true);
    properties(it->attributes, it->n_attributes);
    for (size_t i = 0; i < it->n_compile_options; i++)
        touch(it->compile_options[i]);
    touch(it->language_name);
    touch(it->compiler);
    if (it->cut && (it->cut_offset < BASE || it->cut_offset >= BASE + size))
        broken("a cut outside the module");
    printers(it);
    mbx_interface_free(it);
    return 0;
}
