/* The node model's interface nodes (node.c, fields_iface.c, iface_cache.c)
 * on the bundled sample, whose modules carry the AIR metadata written in
 * tools/fixtures/ (the .ll files):
 *   - a function's INTERFACE child has no children and says "decoding"
 *     until the interface is kept, and nothing in the tree decodes;
 *   - once kept: one ARGUMENT per argument and output, labelled with the
 *     MSL text, struct members below `params`, the declaration in the
 *     detail, module facts in the function's detail;
 *   - the MODULE node expands into bitstream blocks that nest inside each
 *     other and inside the module, and the offset search finds them;
 *   - a module cut short: the interface says why, with an error field, and
 *     the rest of the tree is unaffected. */
#include "config.h"

#include "checks/byte_layout.h"
#include "model/model.h"
#include "container/file.h"
#include "container/functions.h"

#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *label(mtlbx_model *m, const mtlbx_node *n)
{
    static char buf[512];
    mbx_node_label(m, n, buf, sizeof buf);
    return buf;
}

static mtlbx_node *child_kind(mtlbx_model *m, mtlbx_node *n, enum mtlbx_node_kind k)
{
    for (size_t i = 0; i < mbx_node_child_count(m, n); i++)
        if (mbx_node_child(m, n, i)->kind == k)
            return mbx_node_child(m, n, i);
    return NULL;
}

static mtlbx_node *function_node(mtlbx_model *m, size_t i)
{
    mtlbx_node *lib = child_kind(m, mbx_root(m), MTLBX_NODE_LIBRARY);
    cr_assert_not_null(lib);
    mtlbx_node *list = child_kind(m, lib, MTLBX_NODE_FUNCTION_LIST);
    cr_assert_not_null(list);
    return mbx_node_child(m, list, i);
}

struct fields {
    size_t n, errors;
    char text[8192];
};

static void collect(void *ctx, const struct mtlbx_field *fl)
{
    struct fields *s = ctx;
    size_t used = strlen(s->text);
    snprintf(s->text + used, sizeof s->text - used, "%s: %s\n", fl->name, fl->value);
    s->n++;
    s->errors += (fl->flags & MTLBX_FIELD_ERROR) != 0;
}

static void fields_of(mtlbx_model *m, const mtlbx_node *n, struct fields *s)
{
    memset(s, 0, sizeof *s);
    mbx_node_fields(m, n, collect, s);
}

static char *sample_bytes(size_t *len)
{
    const char *src = getenv("MTLBX_SRCDIR");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/data/sample.metallib", src && *src ? src : "..");
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp, "cannot open %s", path);
    char *buf = malloc(1 << 20);
    *len = fread(buf, 1, 1 << 20, fp);
    fclose(fp);
    return buf;
}

static mtlbx_file *open_bytes(const char *data, size_t len)
{
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    cr_assert_eq(mbx_open_buffer(data, len, "sample", &f, &err), MTLBX_E_NONE, "%s", err.message);
    return f;
}

#define COMPUTE_MAIN 2

Test(interface_node, arguments_after_keep)
{
    size_t len;
    char *data = sample_bytes(&len);
    mtlbx_file *f = open_bytes(data, len);
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_library *lib = mbx_library_at(f, 0);
    mtlbx_node *fn = function_node(m, COMPUTE_MAIN);
    mtlbx_node *in = child_kind(m, fn, MTLBX_NODE_INTERFACE);
    cr_assert_not_null(in);
    cr_assert(mbx_node_expandable(m, in));
    cr_assert_eq(mbx_node_child_count(m, in), 0, "the tree decoded on its own");
    cr_assert(strstr(label(m, in), "decoding"), "%s", label(m, in));
    cr_assert_eq(mbx_function_interface_cached(m, lib, COMPUTE_MAIN, NULL, NULL), MTLBX_IFACE_NOT_DECODED);

    cr_assert_eq(mbx_function_interface_keep(m, lib, COMPUTE_MAIN), MTLBX_IFACE_OK);
    cr_assert_str_eq(label(m, in), "interface  kernel, 4 arguments");
    cr_assert_eq(mbx_node_child_count(m, in), 4);
    static const char *const want[] = {
        "device float* data [[buffer(0)]]",
        "constant ComputeParams& params [[buffer(1)]]",
        "[[maybe_unused]] device const float* lut [[buffer(2), function_constant(use_fast_path)]]",
        "uint gid [[thread_position_in_grid]]",
    };
    for (size_t i = 0; i < 4; i++) {
        mtlbx_node *a = mbx_node_child(m, in, i);
        cr_assert_eq(a->kind, MTLBX_NODE_ARGUMENT);
        cr_assert_str_eq(label(m, a), want[i]);
        cr_assert_eq(mbx_node_expandable(m, a), i == 1, "argument %zu", i);
    }
    mtlbx_node *params = mbx_node_child(m, in, 1);
    cr_assert_eq(mbx_node_child_count(m, params), 2);
    cr_assert_str_eq(label(m, mbx_node_child(m, params, 0)), "float gain  // offset 0, size 4");
    cr_assert_str_eq(label(m, mbx_node_child(m, params, 1)), "uint count  // offset 4, size 4");

    struct fields s;
    fields_of(m, in, &s);
    cr_assert(strstr(s.text, "declaration: [[max_total_threads_per_threadgroup(256)]]\n: kernel void compute_main(\n"),
              "%s", s.text);
    cr_assert(strstr(s.text, "air.max_work_group_size: 256\n"), "%s", s.text);
    fields_of(m, params, &s);
    cr_assert(strstr(s.text, "kind: buffer\n") && strstr(s.text, "location: 1\n") && strstr(s.text, "access: read\n"),
              "%s", s.text);
    fields_of(m, fn, &s);
    cr_assert(strstr(s.text, "AIR version: 2.7.0\n") && strstr(s.text, "language: Metal 3.2.0\n"), "%s", s.text);
    cr_assert(strstr(s.text, "compiler: mtlbx hand-written fixture"), "%s", s.text);

    /* Outputs follow the arguments, marked as such. */
    mtlbx_node *frag = child_kind(m, function_node(m, 1), MTLBX_NODE_INTERFACE);
    cr_assert_eq(mbx_function_interface_keep(m, lib, 1), MTLBX_IFACE_OK);
    size_t n = mbx_node_child_count(m, frag);
    cr_assert_eq(n, 5);
    cr_assert_str_eq(label(m, mbx_node_child(m, frag, 4)), "output  float4 color0 [[color(0)]]");
    mbx_model_close(m);
    mbx_close(f);
    free(data);
}

Test(interface_node, module_blocks_nest)
{
    size_t len;
    char *data = sample_bytes(&len);
    mtlbx_file *f = open_bytes(data, len);
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_library *lib = mbx_library_at(f, 0);
    mtlbx_node *fn = function_node(m, COMPUTE_MAIN);
    mtlbx_node *mod = child_kind(m, fn, MTLBX_NODE_MODULE);
    cr_assert_eq(mbx_node_child_count(m, mod), 0);
    cr_assert_eq(mbx_function_interface_keep(m, lib, COMPUTE_MAIN), MTLBX_IFACE_OK);
    size_t top = mbx_node_child_count(m, mod);
    cr_assert_geq(top, 2, "IDENTIFICATION and MODULE at least");
    bool saw_module = false, saw_metadata = false;
    /* Depth-first over the blocks, bounded. */
    mtlbx_node *stack[256];
    size_t sp = 0, seen = 0;
    for (size_t i = 0; i < top; i++)
        stack[sp++] = mbx_node_child(m, mod, i);
    while (sp && seen < 10000) {
        mtlbx_node *b = stack[--sp];
        seen++;
        cr_assert_eq(b->kind, MTLBX_NODE_BC_BLOCK);
        mtlbx_node *p = b->parent;
        cr_assert(b->offset >= p->offset && b->offset + b->size <= p->offset + p->size,
                  "block %s outside its parent", label(m, b));
        saw_module |= strncmp(label(m, b), "MODULE_BLOCK", 12) == 0;
        saw_metadata |= strncmp(label(m, b), "METADATA_BLOCK", 14) == 0;
        /* The same block (under the module list's MODULE node, which
         * owns the bytes, rather than the function's). */
        const mtlbx_node *at = mbx_node_at_offset(m, b->offset);
        cr_assert(at->kind == MTLBX_NODE_BC_BLOCK && at->index == b->index && at->sub == b->sub,
                  "offset search misses %s", label(m, b));
        for (size_t i = 0; i < mbx_node_child_count(m, b) && sp < 256; i++)
            stack[sp++] = mbx_node_child(m, b, i);
    }
    cr_assert(saw_module && saw_metadata);
    mbx_model_close(m);
    mbx_close(f);
    free(data);
}

Test(interface_node, cut_module_says_why)
{
    size_t len;
    char *data = sample_bytes(&len);
    mtlbx_file *f0 = open_bytes(data, len);
    struct mtlbx_range mod = mbx_function_at(mbx_library_at(f0, 0), COMPUTE_MAIN)->module;
    mbx_close(f0);
    memset(data + mod.offset + 20 + 64, 0xFF, mod.size - 20 - 64);
    mtlbx_file *f = open_bytes(data, len);
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_library *lib = mbx_library_at(f, 0);
    cr_assert_eq(mbx_function_interface_keep(m, lib, COMPUTE_MAIN), MTLBX_IFACE_FAILED);
    mtlbx_node *in = child_kind(m, function_node(m, COMPUTE_MAIN), MTLBX_NODE_INTERFACE);
    cr_assert(strstr(label(m, in), "not decoded"), "%s", label(m, in));
    cr_assert_eq(mbx_node_child_count(m, in), 0);
    struct fields s;
    fields_of(m, in, &s);
    cr_assert_eq(s.errors, 1, "%s", s.text);
    /* The neighbours still decode. */
    cr_assert_eq(mbx_function_interface_keep(m, lib, COMPUTE_MAIN + 1), MTLBX_IFACE_OK);
    mbx_model_close(m);
    mbx_close(f);
    free(data);
}

/* Two views of one file each own their model: what one keeps (its nodes,
 * its interfaces) is not the other's, and closing one leaves the other
 * whole. (Before mtlbx_model the caches hung off the file: one tree and
 * one interface table per file.) */
Test(model, two_models_of_one_file_keep_apart)
{
    size_t len;
    char *data = sample_bytes(&len);
    mtlbx_file *f = open_bytes(data, len);
    mtlbx_library *lib = mbx_library_at(f, 0);
    mtlbx_model *a = mbx_model_open(f), *b = mbx_model_open(f);
    cr_assert(a && b && a != b);
    cr_assert_eq(mbx_model_file(a), f);
    cr_assert_null(mbx_model_open(NULL));
    cr_assert_neq(mbx_root(a), mbx_root(b), "each model builds its own tree");
    cr_assert_eq(mbx_function_interface_keep(a, lib, COMPUTE_MAIN), MTLBX_IFACE_OK);
    cr_assert_eq(mbx_function_interface_cached(a, lib, COMPUTE_MAIN, NULL, NULL), MTLBX_IFACE_OK);
    cr_assert_eq(mbx_function_interface_cached(b, lib, COMPUTE_MAIN, NULL, NULL), MTLBX_IFACE_NOT_DECODED);
    mtlbx_node *in_a = child_kind(a, function_node(a, COMPUTE_MAIN), MTLBX_NODE_INTERFACE);
    mtlbx_node *in_b = child_kind(b, function_node(b, COMPUTE_MAIN), MTLBX_NODE_INTERFACE);
    cr_assert_str_eq(label(a, in_a), "interface  kernel, 4 arguments");
    cr_assert(strstr(label(b, in_b), "decoding"), "%s", label(b, in_b));
    /* A library of another file is not this model's to keep. */
    mtlbx_file *g = open_bytes(data, len);
    cr_assert_eq(mbx_function_interface_keep(a, mbx_library_at(g, 0), COMPUTE_MAIN), MTLBX_IFACE_NOT_DECODED);
    mbx_close(g);
    mbx_model_close(a);
    cr_assert_eq(mbx_function_interface_keep(b, lib, COMPUTE_MAIN), MTLBX_IFACE_OK);
    cr_assert_str_eq(label(b, in_b), "interface  kernel, 4 arguments");
    mbx_model_close(b);
    mbx_model_close(NULL);
    mbx_close(f);
    free(data);
}

/* The byte layout is its caller's: each walk gives an object of its own,
 * freed by whoever asked (it was one cached summary per file). */
Test(model, layout_belongs_to_its_caller)
{
    size_t len;
    char *data = sample_bytes(&len);
    mtlbx_file *f = open_bytes(data, len);
    struct mtlbx_layout *one = mbx_layout_check(f), *two = mbx_layout_check(f);
    cr_assert(one && two && one != two);
    cr_assert(one->summary.complete && two->summary.complete);
    cr_assert_eq(one->summary.claimed + one->summary.padding + one->summary.unclaimed, len);
    cr_assert_eq(one->summary.claimed, two->summary.claimed);
    struct mtlbx_range run;
    cr_assert_not(mbx_layout_unclaimed_at(NULL, 0, true, &run));
    mbx_layout_free(one);
    mbx_layout_free(two);
    mbx_layout_free(NULL);
    mbx_close(f);
    free(data);
}
