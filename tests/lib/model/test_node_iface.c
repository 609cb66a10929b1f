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

#include "mtlbx.h"

#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *label(mtlbx_file *f, const mtlbx_node *n)
{
    static char buf[512];
    mtlbx_node_label(f, n, buf, sizeof buf);
    return buf;
}

static mtlbx_node *child_kind(mtlbx_file *f, mtlbx_node *n, enum mtlbx_node_kind k)
{
    for (size_t i = 0; i < mtlbx_node_child_count(f, n); i++)
        if (mtlbx_node_child(f, n, i)->kind == k)
            return mtlbx_node_child(f, n, i);
    return NULL;
}

static mtlbx_node *function_node(mtlbx_file *f, size_t i)
{
    mtlbx_node *lib = child_kind(f, mtlbx_root(f), MTLBX_NODE_LIBRARY);
    cr_assert_not_null(lib);
    mtlbx_node *list = child_kind(f, lib, MTLBX_NODE_FUNCTION_LIST);
    cr_assert_not_null(list);
    return mtlbx_node_child(f, list, i);
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

static void fields_of(mtlbx_file *f, const mtlbx_node *n, struct fields *s)
{
    memset(s, 0, sizeof *s);
    mtlbx_node_fields(f, n, collect, s);
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
    cr_assert_eq(mtlbx_open_memory(data, len, "sample", &f, &err), MTLBX_OK, "%s", err.message);
    return f;
}

#define COMPUTE_MAIN 2

Test(interface_node, arguments_after_keep)
{
    size_t len;
    char *data = sample_bytes(&len);
    mtlbx_file *f = open_bytes(data, len);
    mtlbx_library *lib = mtlbx_library_at(f, 0);
    mtlbx_node *fn = function_node(f, COMPUTE_MAIN);
    mtlbx_node *in = child_kind(f, fn, MTLBX_NODE_INTERFACE);
    cr_assert_not_null(in);
    cr_assert(mtlbx_node_expandable(f, in));
    cr_assert_eq(mtlbx_node_child_count(f, in), 0, "the tree decoded on its own");
    cr_assert(strstr(label(f, in), "decoding"), "%s", label(f, in));
    cr_assert_eq(mtlbx_function_interface_cached(lib, COMPUTE_MAIN, NULL, NULL), MTLBX_IFACE_NOT_DECODED);

    cr_assert_eq(mtlbx_function_interface_keep(lib, COMPUTE_MAIN), MTLBX_IFACE_OK);
    cr_assert_str_eq(label(f, in), "interface  kernel, 4 arguments");
    cr_assert_eq(mtlbx_node_child_count(f, in), 4);
    static const char *const want[] = {
        "device float* data [[buffer(0)]]",
        "constant ComputeParams& params [[buffer(1)]]",
        "[[maybe_unused]] device const float* lut [[buffer(2), function_constant(use_fast_path)]]",
        "uint gid [[thread_position_in_grid]]",
    };
    for (size_t i = 0; i < 4; i++) {
        mtlbx_node *a = mtlbx_node_child(f, in, i);
        cr_assert_eq(a->kind, MTLBX_NODE_ARGUMENT);
        cr_assert_str_eq(label(f, a), want[i]);
        cr_assert_eq(mtlbx_node_expandable(f, a), i == 1, "argument %zu", i);
    }
    mtlbx_node *params = mtlbx_node_child(f, in, 1);
    cr_assert_eq(mtlbx_node_child_count(f, params), 2);
    cr_assert_str_eq(label(f, mtlbx_node_child(f, params, 0)), "float gain  // offset 0, size 4");
    cr_assert_str_eq(label(f, mtlbx_node_child(f, params, 1)), "uint count  // offset 4, size 4");

    struct fields s;
    fields_of(f, in, &s);
    cr_assert(strstr(s.text, "declaration: [[max_total_threads_per_threadgroup(256)]]\n: kernel void compute_main(\n"),
              "%s", s.text);
    cr_assert(strstr(s.text, "air.max_work_group_size: 256\n"), "%s", s.text);
    fields_of(f, params, &s);
    cr_assert(strstr(s.text, "kind: buffer\n") && strstr(s.text, "location: 1\n") && strstr(s.text, "access: read\n"),
              "%s", s.text);
    fields_of(f, fn, &s);
    cr_assert(strstr(s.text, "AIR version: 2.7.0\n") && strstr(s.text, "language: Metal 3.2.0\n"), "%s", s.text);
    cr_assert(strstr(s.text, "compiler: mtlbx hand-written fixture"), "%s", s.text);

    /* Outputs follow the arguments, marked as such. */
    mtlbx_node *frag = child_kind(f, function_node(f, 1), MTLBX_NODE_INTERFACE);
    cr_assert_eq(mtlbx_function_interface_keep(lib, 1), MTLBX_IFACE_OK);
    size_t n = mtlbx_node_child_count(f, frag);
    cr_assert_eq(n, 5);
    cr_assert_str_eq(label(f, mtlbx_node_child(f, frag, 4)), "output  float4 color0 [[color(0)]]");
    mtlbx_close(f);
    free(data);
}

Test(interface_node, module_blocks_nest)
{
    size_t len;
    char *data = sample_bytes(&len);
    mtlbx_file *f = open_bytes(data, len);
    mtlbx_library *lib = mtlbx_library_at(f, 0);
    mtlbx_node *fn = function_node(f, COMPUTE_MAIN);
    mtlbx_node *mod = child_kind(f, fn, MTLBX_NODE_MODULE);
    cr_assert_eq(mtlbx_node_child_count(f, mod), 0);
    cr_assert_eq(mtlbx_function_interface_keep(lib, COMPUTE_MAIN), MTLBX_IFACE_OK);
    size_t top = mtlbx_node_child_count(f, mod);
    cr_assert_geq(top, 2, "IDENTIFICATION and MODULE at least");
    bool saw_module = false, saw_metadata = false;
    /* Depth-first over the blocks, bounded. */
    mtlbx_node *stack[256];
    size_t sp = 0, seen = 0;
    for (size_t i = 0; i < top; i++)
        stack[sp++] = mtlbx_node_child(f, mod, i);
    while (sp && seen < 10000) {
        mtlbx_node *b = stack[--sp];
        seen++;
        cr_assert_eq(b->kind, MTLBX_NODE_BC_BLOCK);
        mtlbx_node *p = b->parent;
        cr_assert(b->offset >= p->offset && b->offset + b->size <= p->offset + p->size,
                  "block %s outside its parent", label(f, b));
        saw_module |= strncmp(label(f, b), "MODULE_BLOCK", 12) == 0;
        saw_metadata |= strncmp(label(f, b), "METADATA_BLOCK", 14) == 0;
        /* The same block (under the module list's MODULE node, which
         * owns the bytes, rather than the function's). */
        const mtlbx_node *at = mtlbx_node_at_offset(f, b->offset);
        cr_assert(at->kind == MTLBX_NODE_BC_BLOCK && at->index == b->index && at->sub == b->sub,
                  "offset search misses %s", label(f, b));
        for (size_t i = 0; i < mtlbx_node_child_count(f, b) && sp < 256; i++)
            stack[sp++] = mtlbx_node_child(f, b, i);
    }
    cr_assert(saw_module && saw_metadata);
    mtlbx_close(f);
    free(data);
}

Test(interface_node, cut_module_says_why)
{
    size_t len;
    char *data = sample_bytes(&len);
    mtlbx_file *f0 = open_bytes(data, len);
    struct mtlbx_range m = mtlbx_function_at(mtlbx_library_at(f0, 0), COMPUTE_MAIN)->module;
    mtlbx_close(f0);
    memset(data + m.offset + 20 + 64, 0xFF, m.size - 20 - 64);
    mtlbx_file *f = open_bytes(data, len);
    mtlbx_library *lib = mtlbx_library_at(f, 0);
    cr_assert_eq(mtlbx_function_interface_keep(lib, COMPUTE_MAIN), MTLBX_IFACE_FAILED);
    mtlbx_node *in = child_kind(f, function_node(f, COMPUTE_MAIN), MTLBX_NODE_INTERFACE);
    cr_assert(strstr(label(f, in), "not decoded"), "%s", label(f, in));
    cr_assert_eq(mtlbx_node_child_count(f, in), 0);
    struct fields s;
    fields_of(f, in, &s);
    cr_assert_eq(s.errors, 1, "%s", s.text);
    /* The neighbours still decode. */
    cr_assert_eq(mtlbx_function_interface_keep(lib, COMPUTE_MAIN + 1), MTLBX_IFACE_OK);
    mtlbx_close(f);
    free(data);
}
