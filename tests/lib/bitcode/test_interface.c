/* The interfaces of the project's own sample and fixtures (their modules
 * are assembled by llvm-as from tools/fixtures/NAME.ll, whose AIR metadata is
 * written to look like Apple's): stages, arguments, properties, struct
 * members, attributes, module facts and the block listing. */
#include "config.h"

#include "bitcode/interface_reader.h"
#include "model/msl.h"
#include "container/functions.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static mtlbx_file *file;
static mtlbx_library *lib;

static void open_file(const char *rel)
{
    const char *src = getenv("MTLBX_SRCDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", src ? src : ".", rel);
    struct mtlbx_error err;
    cr_assert_eq(mbx_open_path(path, &file, &err), MTLBX_E_NONE, "%s: %s", path, err.message);
    lib = mbx_library_at(file, 0);
}

static void open_sample(void) { open_file("data/sample.metallib"); }
static void close_file(void) { mbx_close(file); }

static bool eq(struct mtlbx_bytes b, const char *s)
{
    return b.len == strlen(s) && memcmp(b.ptr, s, b.len) == 0;
}

static struct mtlbx_interface *get(const char *name)
{
    long i = mbx_library_function_find(lib, name);
    cr_assert_geq(i, 0, "no function %s", name);
    struct mtlbx_error err;
    struct mtlbx_interface *it = mbx_function_interface(lib, (size_t)i, &err);
    cr_assert_not_null(it, "%s: %s", name, err.message);
    cr_assert(!it->module.failed, "%s: %s at 0x%llx", name, it->module.error,
              (unsigned long long)it->module.error_offset);
    return it;
}

static const struct mtlbx_air_property *prop(const struct mtlbx_air_argument *a, const char *key)
{
    for (size_t i = 0; i < a->n_properties; i++)
        if (eq(a->properties[i].key, key))
            return &a->properties[i];
    return NULL;
}

TestSuite(interface, .init = open_sample, .fini = close_file);

Test(interface, kernel_buffers_struct_and_attributes)
{
    struct mtlbx_interface *it = get("compute_main");
    cr_assert_str_eq(it->stage, "kernel");
    cr_assert(eq(it->symbol, "compute_main"));
    cr_assert_eq(it->n_outputs, 0);
    cr_assert_eq(it->n_inputs, 4);
    const struct mtlbx_air_argument *data = &it->inputs[0], *params = &it->inputs[1], *lut = &it->inputs[2],
                                     *gid = &it->inputs[3];
    cr_assert(data->has_index && data->index == 0 && eq(data->kind, "buffer") && eq(data->name, "data") &&
              eq(data->type, "float") && data->has_location && data->location == 0);
    cr_assert_str_eq(data->access, "read_write");
    cr_assert(eq(params->kind, "buffer") && eq(params->type, "ComputeParams") && params->location == 1);
    cr_assert_str_eq(params->access, "read");
    const struct mtlbx_air_property *as = prop(params, "address_space");
    cr_assert(as && as->n_values == 1 && as->values[0].kind == MTLBX_MD_INT && as->values[0].i == 2);
    /* struct_type_info: one nested node of 5-tuples offset, size, count, type, name */
    const struct mtlbx_air_property *sti = prop(params, "struct_type_info");
    cr_assert(sti && sti->n_values == 1 && sti->values[0].kind == MTLBX_MD_NODE);
    const struct mtlbx_md_value *m = sti->values[0].items;
    cr_assert_eq(sti->values[0].n_items, 10);
    cr_assert(m[0].kind == MTLBX_MD_INT && m[0].i == 0 && m[1].i == 4 && eq(m[3].s, "float") && eq(m[4].s, "gain"));
    cr_assert(m[5].i == 4 && m[6].i == 4 && eq(m[8].s, "uint") && eq(m[9].s, "count"));
    /* A function-constant guard comes first but is not the kind */
    cr_assert(eq(lut->properties[0].key, "function_constant"));
    cr_assert(eq(lut->kind, "buffer") && lut->location == 2);
    cr_assert_not_null(prop(lut, "arg_unused"));
    cr_assert_eq(prop(lut, "arg_unused")->n_values, 0);
    const struct mtlbx_air_property *fc = prop(lut, "function_constant");
    cr_assert(fc->n_values == 1 && fc->values[0].kind == MTLBX_MD_NODE && fc->values[0].n_items == 3);
    cr_assert(fc->values[0].items[0].kind == MTLBX_MD_GLOBAL && eq(fc->values[0].items[0].s, "use_fast_path"));
    /* That entry has no name string (only the key): the guard stays unnamed
     * here, and sig names it from the container's CNST list. */
    cr_assert(!lut->has_function_constant && !lut->has_location_expression);
    cr_assert(eq(fc->values[0].items[1].s, "air.function_constant") && fc->values[0].items[2].i == 2);
    cr_assert(eq(gid->kind, "thread_position_in_grid") && !gid->has_location && !gid->access && eq(gid->name, "gid"));
    cr_assert_eq(it->n_attributes, 1);
    cr_assert(eq(it->attributes[0].key, "max_work_group_size") && it->attributes[0].n_values == 1 &&
              it->attributes[0].values[0].i == 256);
    mbx_interface_free(it);
}

Test(interface, module_facts)
{
    struct mtlbx_interface *it = get("compute_main");
    cr_assert(it->has_air_version);
    cr_assert(it->air_version[0] == 2 && it->air_version[1] == 7 && it->air_version[2] == 0);
    cr_assert(it->has_language_version && eq(it->language_name, "Metal"));
    cr_assert(it->language_version[0] == 3 && it->language_version[1] == 2 && it->language_version[2] == 0);
    cr_assert_eq(it->n_compile_options, 3);
    cr_assert(eq(it->compile_options[1], "air.compile.fast_math_enable"));
    cr_assert(it->has_compiler && eq(it->compiler, "mtlbx hand-written fixture (metalfe-32023.404)"));
    mbx_interface_free(it);
}

Test(interface, vertex_outputs_and_inputs)
{
    struct mtlbx_interface *it = get("vertex_main");
    cr_assert_str_eq(it->stage, "vertex");
    cr_assert_eq(it->n_outputs, 2);
    cr_assert(!it->outputs[0].has_index && eq(it->outputs[0].kind, "position") && eq(it->outputs[0].name, "position"));
    cr_assert(eq(it->outputs[1].kind, "render_target_array_index"));
    cr_assert_eq(it->n_inputs, 4);
    cr_assert(eq(it->inputs[2].kind, "vertex_input") && it->inputs[2].location == 2 && prop(&it->inputs[2], "arg_unused"));
    cr_assert(eq(it->inputs[3].kind, "instance_id") && !it->inputs[3].has_location);
    mbx_interface_free(it);
}

Test(interface, fragment_render_target_texture_sampler)
{
    struct mtlbx_interface *it = get("fragment_main");
    cr_assert_str_eq(it->stage, "fragment");
    cr_assert_eq(it->n_outputs, 1);
    cr_assert(eq(it->outputs[0].kind, "render_target") && it->outputs[0].has_location && it->outputs[0].location == 0);
    cr_assert_eq(it->n_inputs, 4);
    const struct mtlbx_air_argument *in = it->inputs;
    cr_assert(eq(in[0].kind, "fragment_input") && !in[0].has_location);
    const struct mtlbx_air_property *fi = prop(&in[0], "fragment_input");
    cr_assert(fi->n_values == 1 && eq(fi->values[0].s, "user(locn0)"));
    cr_assert(prop(&in[0], "center") && prop(&in[0], "perspective"));
    cr_assert(eq(in[2].kind, "texture") && in[2].location == 0 && eq(in[2].type, "texture2d<float, sample>"));
    cr_assert_str_eq(in[2].access, "sample");
    cr_assert(eq(in[3].kind, "sampler") && in[3].location == 0 && !in[3].access);
    mbx_interface_free(it);
}

Test(interface, every_sample_stage)
{
    static const struct { const char *fn, *stage; size_t in, out; } want[] = {
        { "vertex_main", "vertex", 4, 2 },  { "fragment_main", "fragment", 4, 1 },
        { "compute_main", "kernel", 4, 0 }, { "visible_fn", "visible", 0, 0 },
        { "mesh_main", "mesh", 2, 0 },      { "object_main", "object", 2, 0 },
        { "intersect_tri", "intersection", 2, 2 }, { "patch_vertex", "vertex", 4, 1 },
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        struct mtlbx_interface *it = get(want[i].fn);
        cr_expect_str_eq(it->stage, want[i].stage, "%s", want[i].fn);
        cr_expect_eq(it->n_inputs, want[i].in, "%s inputs", want[i].fn);
        cr_expect_eq(it->n_outputs, want[i].out, "%s outputs", want[i].fn);
        mbx_interface_free(it);
    }
}

/* The block listing: inside the module, children inside their parents,
 * whole words, FUNCTION blocks listed but not read. */
Test(interface, blocks_nest_inside_the_module)
{
    for (size_t f = 0; f < mbx_library_function_count(lib); f++) {
        const struct mtlbx_function *fn = mbx_function_at(lib, f);
        struct mtlbx_interface *it = mbx_function_interface(lib, f, NULL);
        cr_assert_not_null(it);
        const struct mtlbx_module_info *mi = &it->module;
        cr_expect(mi->wrapper);
        cr_expect(mi->bitcode_offset >= fn->module.offset &&
                  mi->bitcode_offset + mi->bitcode_size <= fn->module.offset + fn->module.size);
        bool module = false, function = false, metadata = false, strtab = false;
        for (size_t i = 0; i < mi->n_blocks; i++) {
            const struct mtlbx_bc_block *b = &mi->blocks[i];
            cr_expect(b->offset >= mi->bitcode_offset && b->offset + b->size <= mi->bitcode_offset + mi->bitcode_size);
            cr_expect_eq((b->offset + b->size - mi->bitcode_offset) % 4, 0, "block ends on a word");
            if (b->parent != UINT32_MAX) {
                const struct mtlbx_bc_block *p = &mi->blocks[b->parent];
                cr_expect(b->parent < i && b->offset > p->offset && b->offset + b->size <= p->offset + p->size);
                cr_expect_eq(b->depth, p->depth + 1);
            } else {
                cr_expect_eq(b->depth, 0);
            }
            module |= b->block_id == 8 && b->name && !strcmp(b->name, "MODULE_BLOCK");
            metadata |= b->block_id == 15 && b->n_records > 0;
            strtab |= b->block_id == 23;
            if (b->block_id == 12) {
                function = true;
                cr_expect_eq(b->n_records, 0, "FUNCTION blocks are skipped");
            }
        }
        cr_expect(module && function && metadata && strtab, "function %zu: blocks", f);
        mbx_interface_free(it);
    }
}

/* One function's interface as text: its declaration and every block with
 * what was read of it. */
static char *interface_text(const mtlbx_library *l, size_t f)
{
    struct mtlbx_interface *it = mbx_function_interface(l, f, NULL);
    cr_assert_not_null(it);
    char *decl = mbx_msl_declaration(it, mbx_function_at(l, f)->name, "visible", NULL, MTLBX_MSL_SOURCE);
    cr_assert_not_null(decl);
    size_t cap = strlen(decl) + 64 * (it->module.n_blocks + 1);
    char *out = malloc(cap);
    size_t len = (size_t)snprintf(out, cap, "%s\n", decl);
    for (size_t i = 0; i < it->module.n_blocks; i++) {
        const struct mtlbx_bc_block *b = &it->module.blocks[i];
        len += (size_t)snprintf(out + len, cap - len, "%u %u %u %llu %llu %u %d\n", b->block_id, b->depth, b->parent,
                                (unsigned long long)b->offset, (unsigned long long)b->size, b->n_records, b->skipped);
    }
    free(decl);
    mbx_interface_free(it);
    return out;
}

struct fresh_read {
    size_t f;
    char *text;
};

static void *read_on_fresh_thread(void *arg)
{
    struct fresh_read *fr = arg;
    fr->text = interface_text(lib, fr->f);
    return NULL;
}

/* A BLOCKINFO block equal to the one read before it on the same thread is
 * replayed, not read (blockinfo_cache.c), and so is a DEFINE_ABBREV whose
 * bits equal one read before (abbrev_cache.c): every function decoded one
 * after another on this thread must read as it does alone, on a new
 * thread with nothing kept. */
Test(interface, blockinfo_replayed_reads_as_read)
{
    for (int pass = 0; pass < 2; pass++)
        for (size_t f = 0; f < mbx_library_function_count(lib); f++) {
            char *after_others = interface_text(lib, f);
            struct fresh_read fr = { .f = f };
            pthread_t t;
            cr_assert_eq(pthread_create(&t, NULL, read_on_fresh_thread, &fr), 0);
            pthread_join(t, NULL);
            cr_expect_str_eq(after_others, fr.text, "function %zu", f);
            free(after_others);
            free(fr.text);
        }
}

Test(interface, a_function_without_a_module_is_null)
{
    struct mtlbx_error err;
    cr_assert_null(mbx_function_interface(lib, mbx_library_function_count(lib), &err));
    cr_assert(err.message[0]);
    mbx_interface_free(NULL);
}

/* The other fixtures: older containers with entries that list only the
 * function (no argument lists): a stage, empty lists, no failure. */
Test(interface_fixtures, every_fixture_function_decodes)
{
    static const char *const files[] = {
        "tests/fixtures/legacy-v122-ios.metallib", "tests/fixtures/nomdsz-v123.metallib",
        "tests/fixtures/hsrc-v125.metallib", "tests/fixtures/dylib-v129.metallib",
        "tests/fixtures/unknown-tags.metallib", "tests/fixtures/fat.metallib",
    };
    size_t decoded = 0;
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        open_file(files[k]);
        for (size_t l = 0; l < mbx_file_library_count(file); l++) {
            mtlbx_library *lb = mbx_library_at(file, l);
            for (size_t i = 0; i < mbx_library_function_count(lb); i++) {
                struct mtlbx_error err;
                struct mtlbx_interface *it = mbx_function_interface(lb, i, &err);
                if (!mbx_function_module_bytes(lb, i).ptr) {
                    cr_expect_null(it);
                    continue;
                }
                cr_assert_not_null(it, "%s %zu: %s", files[k], i, err.message);
                cr_expect(!it->module.failed, "%s %zu: %s", files[k], i, it->module.error);
                /* dylib functions are extern: no stage list names them */
                bool dylib = strstr(files[k], "dylib") != NULL;
                cr_expect(dylib ? !it->stage : it->stage != NULL, "%s %zu: stage %s", files[k], i,
                          it->stage ? it->stage : "null");
                cr_expect(it->has_air_version && it->has_compiler, "%s %zu: module facts", files[k], i);
                decoded++;
                mbx_interface_free(it);
            }
        }
        mbx_close(file);
    }
    cr_expect_gt(decoded, 8);
}
