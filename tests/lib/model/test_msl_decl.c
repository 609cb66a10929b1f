/* Unit tests of the MSL declaration text (src/lib/msl_decl.c) and the
 * demangler wrapper (src/lib/demangle.c), on interfaces built by hand in
 * the shapes of FORMAT.md §21, so every rule of the formatter is pinned
 * independently of the bitcode reader: address spaces (from the metadata,
 * from the parameter type, unknown) and access, pointer or reference,
 * threadgroup memory, bindings, builtins, interpolation, function
 * constants by CNST name and their declarations, unused arguments,
 * outputs, struct members, wrapping, and the escaping of hostile bytes. */
#include "config.h"

#include "bitcode/demangle.h"
#include "bitcode/interface.h"
#include "model/msl.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define B(s) ((struct mtlbx_bytes){ (const uint8_t *)(s), sizeof(s) - 1 })
#define I(v) { .kind = MTLBX_MD_INT, .i = (v) }
#define S(v) { .kind = MTLBX_MD_STRING, .s = { (const uint8_t *)(v), sizeof(v) - 1 } }

static struct mtlbx_air_argument arg(const char *kind, const char *type, const char *name,
                                     const struct mtlbx_air_property *props, size_t n)
{
    struct mtlbx_air_argument a = { 0 };
    a.kind = (struct mtlbx_bytes){ (const uint8_t *)kind, strlen(kind) };
    a.has_type = a.has_name = true;
    a.type = (struct mtlbx_bytes){ (const uint8_t *)type, strlen(type) };
    a.name = (struct mtlbx_bytes){ (const uint8_t *)name, strlen(name) };
    a.properties = props;
    a.n_properties = n;
    /* As the decoder sets it: air.address_space's integer, when there is one. */
    for (size_t i = 0; i < n; i++)
        if (props[i].key.len == 13 && memcmp(props[i].key.ptr, "address_space", 13) == 0 && props[i].n_values &&
            props[i].values[0].kind == MTLBX_MD_INT) {
            a.address_space_from = MTLBX_AS_METADATA;
            a.address_space = props[i].values[0].i;
        }
    return a;
}

static char *text_of(const struct mtlbx_air_argument *a, const struct mtlbx_metadata *md)
{
    static char buf[1024];
    char *s = mbx_msl_argument(a, md);
    cr_assert_not_null(s);
    snprintf(buf, sizeof buf, "%s", s);
    free(s);
    return buf;
}

static const struct mtlbx_md_value v1[] = { I(1) }, v2[] = { I(2) }, v3[] = { I(3) },
                                   v52[] = { I(52) }, v00[] = { I(0), I(0) }, v01[] = { I(0), I(1) },
                                   locn1[] = { S("user(locn1)") }, gen[] = { S("generated(2uvDv2_f)") };

Test(msl_decl, device_const_pointer)
{
    struct mtlbx_air_property p[] = { { B("buffer"), 0, NULL }, { B("location_index"), 2, v01 },
                                      { B("read"), 0, NULL }, { B("address_space"), 1, v1 },
                                      { B("arg_type_name"), 0, NULL }, { B("arg_name"), 0, NULL } };
    struct mtlbx_air_argument a = arg("buffer", "half", "A", p, 6);
    a.has_location = true, a.location = 0, a.access = "read";
    cr_assert_str_eq(text_of(&a, NULL), "device const half* A [[buffer(0)]]");
}

Test(msl_decl, constant_reference_not_const_twice)
{
    struct mtlbx_air_property p[] = { { B("buffer"), 0, NULL }, { B("location_index"), 2, v01 },
                                      { B("read"), 0, NULL }, { B("address_space"), 1, v2 },
                                      { B("arg_type_size"), 1, v52 }, { B("buffer_size"), 1, v52 } };
    struct mtlbx_air_argument a = arg("buffer", "mlx::steel::GEMMParams", "params", p, 6);
    a.has_location = true, a.location = 3, a.access = "read";
    cr_assert_str_eq(text_of(&a, NULL), "constant mlx::steel::GEMMParams& params [[buffer(3)]]");
}

Test(msl_decl, threadgroup_read_write_unused)
{
    struct mtlbx_air_property p[] = { { B("threadgroup"), 0, NULL }, { B("location_index"), 2, v01 },
                                      { B("read_write"), 0, NULL }, { B("address_space"), 1, v3 },
                                      { B("arg_unused"), 0, NULL } };
    struct mtlbx_air_argument a = arg("threadgroup", "float", "scratch", p, 5);
    a.has_location = true, a.location = 1, a.access = "read_write";
    cr_assert_str_eq(text_of(&a, NULL), "[[maybe_unused]] threadgroup float* scratch [[threadgroup(1)]]");
}

/* AIR marks threadgroup memory air.buffer with address space 3: MSL binds
 * it with [[threadgroup(N)]], never [[buffer(N)]] (issue 36: ccv's sgemm). */
Test(msl_decl, threadgroup_memory_is_not_a_buffer)
{
    struct mtlbx_air_property p[] = { { B("buffer"), 0, NULL }, { B("location_index"), 2, v01 },
                                      { B("read_write"), 0, NULL }, { B("address_space"), 1, v3 } };
    struct mtlbx_air_argument a = arg("buffer", "float", "threadgroup_block", p, 4);
    a.has_location = true, a.location = 0, a.access = "read_write";
    cr_assert(mbx_argument_is_threadgroup_memory(&a));
    cr_assert_str_eq(text_of(&a, NULL), "threadgroup float* threadgroup_block [[threadgroup(0)]]");
    /* The same from the parameter's type (older AIR, ggml's soft_max). */
    struct mtlbx_air_argument old = arg("buffer", "float", "buf", p, 1);
    old.has_location = true, old.location = 0, old.address_space_from = MTLBX_AS_PARAMETER, old.address_space = 3;
    cr_assert_str_eq(text_of(&old, NULL), "threadgroup float* buf [[threadgroup(0)]]");
    old.address_space = 1;
    cr_assert_not(mbx_argument_is_threadgroup_memory(&old));
    cr_assert_str_eq(text_of(&old, NULL), "device float* buf [[buffer(0)]]");
}

/* Older AIR records no air.address_space: the decoder takes it from the
 * function's parameter type. Buffers and payloads are MSL pointers or
 * references; textures, samplers and mesh objects are LLVM pointers but
 * no MSL ones. What nothing tells is said, never guessed. */
Test(msl_decl, address_space_from_the_parameter_type)
{
    struct mtlbx_air_property p[] = { { B("buffer"), 0, NULL }, { B("location_index"), 2, v01 },
                                      { B("read"), 0, NULL } };
    struct mtlbx_air_argument a = arg("buffer", "float4", "src0", p, 3);
    a.has_location = true, a.location = 0, a.access = "read";
    cr_assert_str_eq(text_of(&a, NULL), "float4 src0 [[buffer(0)]]"); /* not a pointer: nothing to show */
    a.address_space_from = MTLBX_AS_PARAMETER, a.address_space = 1;
    cr_assert_str_eq(text_of(&a, NULL), "device const float4* src0 [[buffer(0)]]");
    char *t = mbx_msl_argument_type(&a);
    cr_assert_str_eq(t, "device const float4*");
    free(t);
    a.address_space_from = MTLBX_AS_UNKNOWN;
    cr_assert_str_eq(text_of(&a, NULL), "/* address space unknown */ const float4* src0 [[buffer(0)]]");
    a.address_space_from = MTLBX_AS_PARAMETER, a.address_space = 5;
    cr_assert_str_eq(text_of(&a, NULL), "/* address space 5 */ const float4* src0 [[buffer(0)]]");

    struct mtlbx_air_property c[] = { { B("buffer"), 0, NULL }, { B("buffer_size"), 1, v52 },
                                      { B("location_index"), 2, v01 }, { B("read"), 0, NULL } };
    struct mtlbx_air_argument nb = arg("buffer", "ulong", "nb", c, 4);
    nb.has_location = true, nb.location = 28, nb.access = "read";
    nb.address_space_from = MTLBX_AS_PARAMETER, nb.address_space = 2;
    cr_assert_str_eq(text_of(&nb, NULL), "constant ulong& nb [[buffer(28)]]");

    struct mtlbx_air_property t2[] = { { B("texture"), 0, NULL }, { B("location_index"), 2, v01 },
                                       { B("sample"), 0, NULL } };
    struct mtlbx_air_argument tex = arg("texture", "texture2d<float, sample>", "tex", t2, 3);
    tex.has_location = true, tex.location = 0, tex.access = "sample";
    tex.address_space_from = MTLBX_AS_PARAMETER, tex.address_space = 1;
    cr_assert_str_eq(text_of(&tex, NULL), "texture2d<float, access::sample> tex [[texture(0)]]");
    tex.address_space_from = MTLBX_AS_UNKNOWN;
    cr_assert_str_eq(text_of(&tex, NULL), "texture2d<float, access::sample> tex [[texture(0)]]");

    /* An argument buffer and a visible function table take a buffer slot. */
    struct mtlbx_air_property ib[] = { { B("indirect_buffer"), 0, NULL }, { B("buffer_size"), 1, v52 },
                                       { B("location_index"), 2, v01 }, { B("read"), 0, NULL },
                                       { B("address_space"), 1, v2 } };
    struct mtlbx_air_argument icb = arg("indirect_buffer", "ICBContainer", "icb", ib, 5);
    icb.has_location = true, icb.location = 0, icb.access = "read";
    cr_assert_str_eq(text_of(&icb, NULL), "constant ICBContainer& icb [[buffer(0)]]");
    struct mtlbx_air_property vt[] = { { B("visible_function_table"), 0, NULL }, { B("location_index"), 2, v01 },
                                       { B("read"), 0, NULL } };
    struct mtlbx_air_argument table = arg("visible_function_table", "visible_function_table", "table", vt, 3);
    table.has_location = true, table.location = 11, table.access = "read";
    table.address_space_from = MTLBX_AS_PARAMETER, table.address_space = 1;
    cr_assert_str_eq(text_of(&table, NULL), "visible_function_table table [[buffer(11)]]");

    struct mtlbx_air_property pl[] = { { B("payload"), 0, NULL } };
    struct mtlbx_air_argument payload = arg("payload", "Payload", "payload", pl, 1);
    payload.address_space_from = MTLBX_AS_PARAMETER, payload.address_space = 6;
    cr_assert_str_eq(text_of(&payload, NULL), "object_data Payload& payload [[payload]]");
}

static char *decl_md(const struct mtlbx_interface *iface, const char *name, const struct mtlbx_metadata *md,
                     unsigned flags)
{
    static char buf[4096];
    char *s = mbx_msl_declaration(iface, (struct mtlbx_bytes){ (const uint8_t *)name, strlen(name) }, "visible",
                                    md, flags);
    cr_assert_not_null(s);
    snprintf(buf, sizeof buf, "%s", s);
    free(s);
    return buf;
}

static char *decl(const struct mtlbx_interface *iface, const char *name, unsigned flags)
{
    return decl_md(iface, name, NULL, flags);
}

/* The function constants the function uses (CNST) are declared before it
 * (issue 36: sig declares sgemm's 25); a C++ name inside its namespace, a
 * name or type MSL cannot read as a comment, an inactive one marked. */
Test(msl_decl, function_constants_declared_before_the_function)
{
    struct mtlbx_air_property g[] = { { B("thread_position_in_grid"), 0, NULL } };
    struct mtlbx_air_argument in[1] = { arg("thread_position_in_grid", "uint", "gid", g, 1) };
    struct mtlbx_interface iface = { .stage = "kernel", .n_inputs = 1, .inputs = in };
    struct mtlbx_constant k[] = {
        { .name = B("M"), .type = 0x21, .index = 0, .active = true },
        { .name = B("fused_bias"), .type = 0x35, .index = 50001, .active = false },
        { .name = B("cx::inner::win"), .type = 0x1D, .index = 2, .active = true },
        { .name = B("not an identifier"), .type = 0x03, .index = 3, .active = true },
        { .name = B("tex"), .type = 0x3A, .index = 4, .active = true },
        { .name = B("a::"), .type = 0x03, .index = 5, .active = true },
        { .name = B("a::b::c::d::e::f::g::h::i"), .type = 0x03, .index = 6, .active = true },
    };
    struct mtlbx_metadata md = { .n_constants = 7, .constants = k };
    cr_assert_str_eq(decl_md(&iface, "k", &md, MTLBX_MSL_SOURCE | MTLBX_MSL_CONSTANTS),
                     "constant uint M [[function_constant(0)]];\n"
                     "constant bool fused_bias [[function_constant(50001)]];  // optional (CNST active bit clear)\n"
                     "namespace cx { namespace inner { constant int win [[function_constant(2)]]; } }\n"
                     "// constant float not an identifier [[function_constant(3)]];\n"
                     "// constant texture tex [[function_constant(4)]];\n"
                     "// constant float a:: [[function_constant(5)]];\n"
                     "// constant float a::b::c::d::e::f::g::h::i [[function_constant(6)]];\n"
                     "\n"
                     "kernel void k(uint gid [[thread_position_in_grid]]);");
    /* Only when asked: the detail panel and textconv show the function alone. */
    cr_assert_str_eq(decl_md(&iface, "k", &md, MTLBX_MSL_SOURCE), "kernel void k(uint gid [[thread_position_in_grid]]);");
    cr_assert_str_eq(decl_md(&iface, "k", NULL, MTLBX_MSL_SOURCE | MTLBX_MSL_CONSTANTS),
                     "kernel void k(uint gid [[thread_position_in_grid]]);");
}

Test(msl_decl, builtin_and_texture_with_function_constant_name)
{
    struct mtlbx_air_property b[] = { { B("threadgroup_position_in_grid"), 0, NULL } };
    struct mtlbx_air_argument tid = arg("threadgroup_position_in_grid", "uint3", "tid", b, 1);
    cr_assert_str_eq(text_of(&tid, NULL), "uint3 tid [[threadgroup_position_in_grid]]");

    /* air.function_constant points at the air.function_constants entry
     * {ptr @x, "air.function_constant", i32 K}; K names it through CNST. */
    static const struct mtlbx_md_value fc_items[] = { { .kind = MTLBX_MD_NULL }, S("air.function_constant"), I(7) };
    static const struct mtlbx_md_value fc[] = { { .kind = MTLBX_MD_NODE, .n_items = 3, .items = fc_items } };
    struct mtlbx_air_property t[] = { { B("function_constant"), 1, fc }, { B("texture"), 0, NULL },
                                      { B("location_index"), 2, v01 }, { B("sample"), 0, NULL } };
    struct mtlbx_air_argument tex = arg("texture", "texture2d<float, sample>", "src", t, 4);
    tex.has_location = true, tex.location = 0, tex.access = "sample";
    struct mtlbx_constant k = { .name = B("has_src"), .index = 7 };
    struct mtlbx_metadata md = { .n_constants = 1, .constants = &k };
    cr_assert_str_eq(text_of(&tex, &md), "texture2d<float, access::sample> src [[texture(0), function_constant(has_src)]]");
    cr_assert_str_eq(text_of(&tex, NULL), "texture2d<float, access::sample> src [[texture(0), function_constant(#7)]]");
    /* The module's own name for the constant comes first. */
    tex.has_function_constant = true;
    tex.function_constant = (struct mtlbx_bytes){ (const uint8_t *)"kHasSrc", 7 };
    cr_assert_str_eq(text_of(&tex, &md), "texture2d<float, access::sample> src [[texture(0), function_constant(kHasSrc)]]");
    /* A binding computed from function constants: marked, no number made up. */
    tex.has_location = false;
    tex.has_location_expression = true;
    tex.location_expression = (struct mtlbx_bytes){ (const uint8_t *)"_ZL3g*/x", 8 };
    cr_assert_str_eq(text_of(&tex, NULL),
                     "texture2d<float, access::sample> src [[texture(expr /* _ZL3g*|x */), function_constant(kHasSrc)]]");
}

Test(msl_decl, fragment_input_interpolation_and_render_target)
{
    struct mtlbx_air_property p[] = { { B("fragment_input"), 1, locn1 }, { B("center"), 0, NULL },
                                      { B("no_perspective"), 0, NULL } };
    struct mtlbx_air_argument a = arg("fragment_input", "float2", "uv", p, 3);
    cr_assert_str_eq(text_of(&a, NULL), "float2 uv [[user(locn1), center_no_perspective]]");
    struct mtlbx_air_property f[] = { { B("fragment_input"), 1, locn1 }, { B("flat"), 0, NULL } };
    a = arg("fragment_input", "int", "id", f, 2);
    cr_assert_str_eq(text_of(&a, NULL), "int id [[user(locn1), flat]]");
    struct mtlbx_air_property r[] = { { B("render_target"), 2, v00 } };
    a = arg("render_target", "float4", "color0", r, 1);
    a.has_location = true, a.location = 0;
    cr_assert_str_eq(text_of(&a, NULL), "float4 color0 [[color(0)]]");
    struct mtlbx_air_property va[] = { { B("vertex_input"), 0, NULL }, { B("location_index"), 2, v01 } };
    a = arg("vertex_input", "float4", "position", va, 2);
    a.has_location = true, a.location = 1;
    cr_assert_str_eq(text_of(&a, NULL), "float4 position [[attribute(1)]]");
}

Test(msl_decl, hostile_bytes_are_escaped)
{
    struct mtlbx_air_property b[] = { { B("thread_position_in_grid"), 0, NULL } };
    struct mtlbx_air_argument a = arg("thread_position_in_grid", "uint\x1b[2J", "t\n\x9b", b, 1);
    cr_assert_str_eq(text_of(&a, NULL), "uint\\x1b[2J t\\x0a\\x9b [[thread_position_in_grid]]");
}


Test(msl_decl, kernel_one_line_with_threads)
{
    struct mtlbx_air_property p[] = { { B("buffer"), 0, NULL }, { B("address_space"), 1, v1 } };
    struct mtlbx_air_property g[] = { { B("thread_position_in_grid"), 0, NULL } };
    struct mtlbx_air_argument in[2] = { arg("buffer", "float", "data", p, 2),
                                        arg("thread_position_in_grid", "uint", "gid", g, 1) };
    in[0].has_location = true, in[0].location = 0, in[0].access = "read_write";
    static const struct mtlbx_md_value v128[] = { I(128) };
    struct mtlbx_air_property attr[] = { { B("max_work_group_size"), 1, v128 } };
    struct mtlbx_interface iface = { .stage = "kernel", .n_inputs = 2, .inputs = in, .n_attributes = 1,
                                     .attributes = attr };
    /* 96 columns fit on one line; the attribute makes it too long. */
    iface.n_attributes = 0;
    cr_assert_str_eq(decl(&iface, "compute_main", 0),
                     "kernel void compute_main(device float* data [[buffer(0)]], uint gid [[thread_position_in_grid]])");
    cr_assert_str_eq(decl(&iface, "k", 0),
                     "kernel void k(device float* data [[buffer(0)]], uint gid [[thread_position_in_grid]])");
    iface.n_attributes = 1;
    cr_assert_str_eq(decl(&iface, "k", 0),
                     "[[max_total_threads_per_threadgroup(128)]]\n"
                     "kernel void k(device float* data [[buffer(0)]], uint gid [[thread_position_in_grid]])");
    iface.n_inputs = 1;
    in[0].has_name = false, in[0].has_index = true, in[0].index = 0;
    cr_assert_str_eq(decl(&iface, "k", 0), "[[max_total_threads_per_threadgroup(128)]] kernel void k("
                                           "device float* arg0 [[buffer(0)]])");
    iface.n_inputs = 2;
    in[0].has_name = true;
    cr_assert_str_eq(decl(&iface, "compute_main", MTLBX_MSL_ONE_PER_LINE),
                     "[[max_total_threads_per_threadgroup(128)]]\n"
                     "kernel void compute_main(\n"
                     "    device float* data [[buffer(0)]],\n"
                     "    uint gid [[thread_position_in_grid]])");
}

Test(msl_decl, fragment_output_and_struct_members)
{
    static const struct mtlbx_md_value members[] = { I(0), I(4), I(0), S("int"), S("M"),
                                                     I(16), I(32), I(2), S("float4"), S("v") };
    static const struct mtlbx_md_value sti[] = { { .kind = MTLBX_MD_NODE, .n_items = 10, .items = members } };
    struct mtlbx_air_property p[] = { { B("buffer"), 0, NULL }, { B("address_space"), 1, v2 },
                                      { B("buffer_size"), 1, v52 }, { B("struct_type_info"), 1, sti } };
    struct mtlbx_air_argument in[1] = { arg("buffer", "Params", "params", p, 4) };
    in[0].has_location = true, in[0].location = 0, in[0].access = "read";
    struct mtlbx_air_property r[] = { { B("render_target"), 2, v00 } };
    struct mtlbx_air_argument out[1] = { arg("render_target", "float4", "color0", r, 1) };
    out[0].has_location = true, out[0].location = 0;
    struct mtlbx_interface iface = { .stage = "fragment", .n_inputs = 1, .inputs = in, .n_outputs = 1,
                                     .outputs = out };
    struct mtlbx_struct_member m;
    cr_assert(mbx_argument_member(&in[0], 1, &m));
    cr_assert_eq(m.offset, 16);
    cr_assert_eq(m.count, 2);
    cr_assert_not(mbx_argument_member(&in[0], 2, &m));
    cr_assert_str_eq(decl(&iface, "frag", 0), "fragment float4 frag(constant Params& params [[buffer(0)]])\n"
                                              "    // output: float4 color0 [[color(0)]]");
    cr_assert_str_eq(decl(&iface, "frag", MTLBX_MSL_MEMBERS), "fragment float4 frag(\n"
                                                             "    constant Params& params [[buffer(0)]]\n"
                                                             "        int M  // offset 0, size 4\n"
                                                             "        float4 v[2]  // offset 16, size 32)\n"
                                                             "    // output: float4 color0 [[color(0)]]");
}

/* MTLBX_MSL_SOURCE (sig): MSL to paste. The struct argument is declared
 * first, two outputs become the return struct, the declaration ends in
 * ';', a stage that is no keyword is an attribute, and a type whose name
 * MSL cannot read is declared as comments. */
Test(msl_decl, source_structs_return_struct_and_semicolon)
{
    static const struct mtlbx_md_value members[] = { I(0), I(4), I(0), S("int"), S("M"),
                                                     I(16), I(32), I(2), S("float4"), S("v") };
    static const struct mtlbx_md_value sti[] = { { .kind = MTLBX_MD_NODE, .n_items = 10, .items = members } };
    struct mtlbx_air_property p[] = { { B("buffer"), 0, NULL }, { B("address_space"), 1, v2 },
                                      { B("buffer_size"), 1, v52 }, { B("struct_type_info"), 1, sti } };
    struct mtlbx_air_argument in[2] = { arg("buffer", "Params", "params", p, 4), arg("buffer", "Params", "again", p, 4) };
    in[0].has_location = true, in[0].location = 0, in[0].access = "read";
    in[1].has_location = true, in[1].location = 1, in[1].access = "read";
    struct mtlbx_air_property r[] = { { B("render_target"), 2, v00 } };
    struct mtlbx_air_property pos[] = { { B("position"), 0, NULL } };
    struct mtlbx_air_argument out[2] = { arg("render_target", "float4", "color0", r, 1), arg("position", "float4", "", pos, 1) };
    out[0].has_location = true, out[0].location = 0;
    out[1].has_name = false;
    struct mtlbx_interface iface = { .stage = "fragment", .n_inputs = 2, .inputs = in, .n_outputs = 2, .outputs = out };
    cr_assert_str_eq(decl(&iface, "ns::frag", MTLBX_MSL_SOURCE),
                     "struct Params {\n"
                     "    int M;  // offset 0, size 4\n"
                     "    float4 v[2];  // offset 16, size 32\n"
                     "};\n\n"
                     "struct ns__frag_out {  // the return type (AIR does not record its name)\n"
                     "    float4 color0 [[color(0)]];\n"
                     "    float4 out1 [[position]];\n"
                     "};\n\n"
                     "fragment ns__frag_out ns::frag(\n"
                     "    constant Params& params [[buffer(0)]],\n"
                     "    constant Params& again [[buffer(1)]]);");
    iface.stage = "mesh", iface.n_outputs = 0, iface.n_inputs = 1;
    in[0].type = B("imageblock<T>");
    cr_assert_str_eq(decl(&iface, "m", MTLBX_MSL_SOURCE),
                     "// struct imageblock<T> {  (names MSL cannot read)\n"
                     "//     int M;  // offset 0, size 4\n"
                     "//     float4 v[2];  // offset 16, size 32\n"
                     "// };\n\n"
                     "[[mesh]] void m(constant imageblock<T>& params [[buffer(0)]]);");
    cr_assert_str_eq(decl(NULL, "plain", MTLBX_MSL_SOURCE), "// visible plain  // no AIR stage entry");
}

Test(msl_decl, no_stage_entry_demangled)
{
    struct mtlbx_interface iface = { 0 };
    cr_assert_str_eq(decl(&iface, "_ZN5utils5scaleEDv3_ff", 0),
                     "visible utils::scale(float __vector(3), float)  // no AIR stage entry");
    cr_assert_str_eq(decl(NULL, "plain", 0), "visible plain  // no AIR stage entry");
}

Test(msl_decl, demangle_rejects_what_is_not_mangled)
{
    cr_assert_null(mbx_demangle(B("main")));
    cr_assert_null(mbx_demangle(B("_Z")));
    cr_assert_null(mbx_demangle(B("_Zq\x01")));
    cr_assert_null(mbx_demangle(B("_Z3a\0bc")));
    char *d = mbx_demangle(B("_Z3addff"));
    cr_assert_str_eq(d, "add(float, float)");
    free(d);
    /* Deep nesting stays bounded (the demangler's recursion limit). */
    size_t n = 200000;
    char *deep = malloc(n + 8);
    memcpy(deep, "_Z1f", 4);
    for (size_t i = 4; i < n; i++)
        deep[i] = 'P';
    deep[n] = 'i';
    cr_assert_null(mbx_demangle((struct mtlbx_bytes){ (const uint8_t *)deep, n + 1 }));
    free(deep);
}

/* A varying the compiler named: no attribute MSL lacks a word for, AIR's
 * name as a comment (interpolation stays an attribute). */
Test(msl_decl, generated_varyings_are_not_attributes)
{
    struct mtlbx_air_property p[] = { { B("vertex_output"), 1, gen } };
    struct mtlbx_air_argument a = arg("vertex_output", "float2", "uv", p, 1);
    cr_assert_str_eq(text_of(&a, NULL), "float2 uv /* AIR: generated(2uvDv2_f) */");
    struct mtlbx_air_property f[] = { { B("fragment_input"), 1, gen }, { B("center"), 0, NULL },
                                      { B("perspective"), 0, NULL } };
    a = arg("fragment_input", "float2", "uv", f, 3);
    cr_assert_str_eq(text_of(&a, NULL), "float2 uv [[center_perspective]] /* AIR: generated(2uvDv2_f) */");
}

/* A function constant an argument names that CNST does not hold (the
 * source computes it from others: ANGLE's kColorOutputAvailable0) is
 * declared once, as a comment that says the module does not record how;
 * one CNST holds (as a C++ name's last part) is not. */
Test(msl_decl, implicit_function_constants_declared_as_comments)
{
    struct mtlbx_air_property p[] = { { B("texture"), 0, NULL }, { B("function_constant"), 0, NULL } };
    struct mtlbx_air_argument in[3] = { arg("texture", "texture2d<float>", "a", p, 2),
                                        arg("texture", "texture2d<float>", "b", p, 2),
                                        arg("texture", "texture2d<float>", "c", p, 2) };
    in[0].has_function_constant = in[1].has_function_constant = in[2].has_function_constant = true;
    in[0].function_constant = B("kAvailable0");
    in[1].function_constant = B("kAvailable0");
    in[2].function_constant = B("win");
    struct mtlbx_interface iface = { .stage = "fragment", .n_inputs = 3, .inputs = in };
    struct mtlbx_constant k[] = { { .name = B("cx::win"), .type = 0x35, .index = 2, .active = true } };
    struct mtlbx_metadata md = { .n_constants = 1, .constants = k };
    const char *s = decl_md(&iface, "f", &md, MTLBX_MSL_SOURCE | MTLBX_MSL_CONSTANTS);
    const char *want = "// constant bool kAvailable0 = ...;  // implicit: computed from other function constants "
                       "(the module does not say how)\n\n";
    cr_assert(strstr(s, want) != NULL, "%s", s);
    cr_assert(strstr(strstr(s, want) + 1, "// constant bool kAvailable0") == NULL, "declared twice: %s", s);
    cr_assert(strstr(s, "// constant bool win") == NULL, "%s", s);
    cr_assert(strncmp(s, "namespace cx { constant bool win [[function_constant(2)]]; }\n// constant bool kAvailable0",
                      82) == 0, "CNST's first, then the implicit ones: %s", s);
}
