/* Unit tests of the Core Image reflection decoder (FORMAT.md §22): the
 * ARGR grammar on values built here byte by byte (every type with extra
 * bytes, a struct pointee, counts and lengths that do not agree), and RETR
 * and ARGR read through a whole library's public metadata. */
#include "config.h"

#include "imagebuf.h"
#include "libcheck.h"
#include "model/model.h"
#include "container/metadata.h"

#include <criterion/criterion.h>
#include <string.h>

#define BASE 0x1000 /* a made-up absolute offset for the value */

static void arg_plain(struct imagebuf *b, const char *name, uint8_t type)
{
    ib_bytes(b, name, strlen(name) + 1);
    ib_u8(b, type);
}

static void arg_texture(struct imagebuf *b, const char *name, uint8_t pixel, uint8_t texture_type)
{
    arg_plain(b, name, 0x3A);
    ib_u8(b, pixel);
    ib_u32(b, 1);
    ib_u8(b, texture_type);
}

static void arg_pointer(struct imagebuf *b, const char *name, uint8_t align, uint64_t size, uint8_t pointee)
{
    arg_plain(b, name, 0x3C);
    ib_u8(b, 0);
    ib_u8(b, align);
    ib_u64(b, size);
    ib_u8(b, pointee);
}

static void member(struct imagebuf *b, const char *name, uint8_t type)
{
    ib_bytes(b, name, strlen(name) + 1);
    ib_u8(b, type);
    ib_u32(b, 0);
    ib_u8(b, 3);
}

Test(argr, every_type_with_extra_bytes_decodes_to_the_last_byte)
{
    struct imagebuf b = { 0 };
    ib_u8(&b, 5);
    arg_texture(&b, "src.coerce0", 0x03, 2);      /* 12 + 1 + 6 = 19 bytes */
    arg_plain(&b, "src.coerce1", 0x3B);           /* sampler: no extra bytes */
    arg_pointer(&b, "src.coerce2", 16, 64, 0x0F); /* float4x4 pointee */
    arg_plain(&b, "src.coerce3", 0x04);           /* float2 */
    arg_texture(&b, "t", 0x10, 0x42);
    struct mtlbx_reflection r = { 0 };
    struct mtlbx_decode_error err;
    cr_assert(mbx_argr_decode(b.data, b.len, BASE, &r, &err), "%s", err.message);
    cr_assert(r.complete);
    cr_assert_eq(r.n_arguments, 5);
    const struct mtlbx_ci_argument *a = r.arguments;
    cr_expect_eq(a[0].type, 0x3A);
    cr_expect(a[0].has_element);
    cr_expect_eq(a[0].element_type, 0x03);
    cr_expect_eq(a[0].texture_word, 1);
    cr_expect_eq(a[0].texture_type, 2);
    cr_expect_eq(a[0].offset, BASE + 1);
    cr_expect_eq(a[0].size, 19);
    cr_expect_eq(a[0].extra_offset, BASE + 1 + 13);
    cr_expect_eq(a[1].type, 0x3B);
    cr_expect_not(a[1].has_element);
    cr_expect_eq(a[1].offset, BASE + 20);
    cr_expect_eq(a[1].size, 13);
    cr_expect_eq(a[2].type, 0x3C);
    cr_expect_eq(a[2].alignment, 16);
    cr_expect_eq(a[2].pointee_size, 64);
    cr_expect_eq(a[2].element_type, 0x0F);
    cr_expect_eq(a[2].size, 12 + 1 + 11);
    cr_expect_eq(a[2].n_members, 0);
    cr_expect_eq(a[3].name.len, 11);
    cr_expect(memcmp(a[3].name.ptr, "src.coerce3", 11) == 0);
    cr_expect_eq(a[4].texture_type, 0x42);
    cr_expect_eq(a[4].element_type, 0x10);
    cr_expect_eq(a[4].offset + a[4].size, BASE + b.len, "the last argument ends on the last byte");
    mbx_reflection_free(&r);
    ib_free(&b);
}

Test(argr, struct_pointee_members_are_read_with_their_spans)
{
    struct imagebuf b = { 0 };
    ib_u8(&b, 2);
    arg_pointer(&b, "params", 4, 12, 0x01);
    ib_u8(&b, 2);
    member(&b, "gain", 0x03);
    member(&b, "offset", 0x04);
    arg_plain(&b, "dest.coerce", 0x04);
    struct mtlbx_reflection r = { 0 };
    struct mtlbx_decode_error err;
    cr_assert(mbx_argr_decode(b.data, b.len, BASE, &r, &err), "%s", err.message);
    cr_assert_eq(r.n_arguments, 2);
    cr_assert_eq(r.n_members, 2);
    const struct mtlbx_ci_argument *p = &r.arguments[0];
    cr_expect_eq(p->element_type, 0x01);
    cr_expect_eq(p->first_member, 0);
    cr_expect_eq(p->n_members, 2);
    cr_expect_eq(p->size, 7 + 1 + 11 + 1 + (5 + 6) + (7 + 6));
    cr_expect(memcmp(r.members[1].name.ptr, "offset", 6) == 0);
    cr_expect_eq(r.members[1].type, 0x04);
    cr_expect_eq(r.members[1].unknown_byte, 3);
    cr_expect_eq(r.members[0].offset, BASE + 1 + 7 + 1 + 11 + 1);
    cr_expect_eq(r.members[0].size, 11);
    cr_expect_eq(r.arguments[1].offset, r.members[1].offset + r.members[1].size);
    mbx_reflection_free(&r);
    ib_free(&b);
}

Test(argr, a_count_past_the_end_is_an_error_where_the_missing_argument_starts)
{
    struct imagebuf b = { 0 };
    ib_u8(&b, 3); /* one more than there are */
    arg_plain(&b, "hdr", 0x06);
    arg_plain(&b, "sdr", 0x06);
    struct mtlbx_reflection r = { 0 };
    struct mtlbx_decode_error err;
    cr_assert_not(mbx_argr_decode(b.data, b.len, BASE, &r, &err));
    cr_expect_not(r.complete);
    cr_expect_eq(r.n_arguments, 2, "the arguments that did decode are kept");
    cr_expect_eq(err.offset, BASE + b.len);
    cr_expect(strstr(err.message, "declares 3"), "%s", err.message);
    mbx_reflection_free(&r);
    ib_free(&b);
}

Test(argr, extra_bytes_cut_short_are_an_error_at_the_argument)
{
    for (int type = 0; type < 3; type++) {
        struct imagebuf b = { 0 };
        ib_u8(&b, 1);
        if (type == 0)
            arg_texture(&b, "t", 0x03, 2);
        else if (type == 1)
            arg_pointer(&b, "p", 16, 64, 0x0F);
        else {
            arg_pointer(&b, "s", 4, 8, 0x01);
            ib_u8(&b, 1);
            member(&b, "m", 0x03);
        }
        struct mtlbx_reflection r = { 0 };
        struct mtlbx_decode_error err;
        cr_assert_not(mbx_argr_decode(b.data, b.len - 1, BASE, &r, &err), "type %d", type);
        cr_expect_eq(err.offset, type == 2 ? BASE + 1 + 2 + 1 + 11 + 1 : BASE + 1, "type %d: at %llu", type,
                     (unsigned long long)err.offset);
        cr_expect_eq(r.n_arguments, 0);
        mbx_reflection_free(&r);
        ib_free(&b);
    }
}

Test(argr, trailing_bytes_are_an_error_at_the_first_of_them)
{
    struct imagebuf b = { 0 };
    ib_u8(&b, 1);
    arg_plain(&b, "x", 0x03);
    ib_bytes(&b, "\x07\x07", 2);
    struct mtlbx_reflection r = { 0 };
    struct mtlbx_decode_error err;
    cr_assert_not(mbx_argr_decode(b.data, b.len, BASE, &r, &err));
    cr_expect_eq(r.n_arguments, 1);
    cr_expect_eq(err.offset, BASE + 4);
    cr_expect(strstr(err.message, "2 trailing bytes"), "%s", err.message);
    mbx_reflection_free(&r);
    ib_free(&b);
}

Test(argr, an_empty_value_and_a_zero_count)
{
    struct mtlbx_reflection r = { 0 };
    struct mtlbx_decode_error err;
    cr_expect_not(mbx_argr_decode((const uint8_t *)"", 0, BASE, &r, &err));
    cr_expect_eq(err.offset, BASE);
    mbx_reflection_free(&r);
    r = (struct mtlbx_reflection){ 0 };
    cr_expect(mbx_argr_decode((const uint8_t *)"\0", 1, BASE, &r, &err), "%s", err.message);
    cr_expect(r.complete);
    cr_expect_eq(r.n_arguments, 0);
    mbx_reflection_free(&r);
}

Test(argr, a_name_without_its_nul_is_an_error)
{
    struct mtlbx_reflection r = { 0 };
    struct mtlbx_decode_error err;
    cr_expect_not(mbx_argr_decode((const uint8_t *)"\x01" "abc", 4, BASE, &r, &err));
    cr_expect_eq(err.offset, BASE + 1);
    mbx_reflection_free(&r);
}

/* A count of 255 with one real argument: nothing is sized from the count. */
Test(argr, a_huge_count_costs_only_what_the_value_holds)
{
    struct imagebuf b = { 0 };
    ib_u8(&b, 255);
    arg_plain(&b, "a", 0x03);
    struct mtlbx_reflection r = { 0 };
    struct mtlbx_decode_error err;
    cr_expect_not(mbx_argr_decode(b.data, b.len, BASE, &r, &err));
    cr_expect_eq(r.n_arguments, 1);
    mbx_reflection_free(&r);
    ib_free(&b);
}

/* Through a library: RETR and ARGR in a function's public metadata. */
static void reflect_library(struct imagebuf *img, const struct imagebuf *argr, const void *retr, size_t retr_len)
{
    struct imagebuf tags = { 0 };
    ib_tag(&tags, "RETR", retr, retr_len);
    ib_tag(&tags, "ARGR", argr->data, argr->len);
    /* The builder copies the tags into the image. */
    static struct test_function fn;
    fn = (struct test_function){ .name = "GainMapFilter", .type = 5 };
    fn.public_tags = tags.data;
    fn.public_tags_len = tags.len;
    ib_library(img, &(struct test_library){ .n_functions = 1, .functions = &fn, .ext = TEST_EXT_EMPTY });
    ib_free(&tags);
}

Test(argr, decoded_into_the_function_metadata)
{
    struct imagebuf argr = { 0 };
    ib_u8(&argr, 2);
    arg_plain(&argr, "hdr", 0x06);
    arg_plain(&argr, "dest.coerce", 0x04);
    struct imagebuf img = { 0 };
    reflect_library(&img, &argr, "\x06", 1);
    mtlbx_file *f = open_buf(&img);
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_library *lib = mbx_library_at(f, 0);
    const struct mtlbx_reflection *r = &mbx_function_metadata(lib, 0)->reflection;
    cr_expect(r->has_return);
    cr_expect_eq(r->return_type, 0x06);
    cr_expect(r->complete);
    cr_assert_eq(r->n_arguments, 2);
    cr_expect_eq(img.data[r->arguments[1].offset], 'd', "spans are absolute file offsets");
    cr_expect_eq(mbx_library_diag_count(lib), 0);
    mbx_model_close(m);
    mbx_close(f);
    ib_free(&img);
    ib_free(&argr);
}

Test(argr, a_bad_value_in_a_library_is_a_diagnostic_at_its_offset)
{
    struct imagebuf argr = { 0 };
    ib_u8(&argr, 2);
    arg_plain(&argr, "hdr", 0x06);
    struct imagebuf img = { 0 };
    reflect_library(&img, &argr, "\x06\x06", 2);
    mtlbx_file *f = open_buf(&img);
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_library *lib = mbx_library_at(f, 0);
    const struct mtlbx_reflection *r = &mbx_function_metadata(lib, 0)->reflection;
    cr_expect_eq(count_diags(lib, MTLBX_ERROR, "RETR value is 2 bytes"), 1);
    cr_expect_eq(count_diags(lib, MTLBX_ERROR, "ARGR declares 2 arguments"), 1);
    uint64_t want = r->arguments_offset + argr.len;
    bool found = false;
    for (size_t i = 0; i < mbx_library_diag_count(lib); i++) {
        const struct mtlbx_diag *d = mbx_library_diag(lib, i);
        found |= strstr(d->message, "ARGR declares") && d->offset == want;
    }
    cr_expect(found, "the ARGR error is at offset %llu, just past the last argument", (unsigned long long)want);
    mbx_model_close(m);
    mbx_close(f);
    ib_free(&img);
    ib_free(&argr);
}

/* The explorer's rows: below the ARGR tag one node per argument whose span
 * is exactly its bytes, struct members below their pointer argument. */
static mtlbx_node *find_kind(mtlbx_model *m, mtlbx_node *n, enum mtlbx_node_kind kind, const char *tag, int depth)
{
    if ((n->kind == kind && (!tag || strcmp(n->tag.name, tag) == 0)) || depth > 8)
        return n->kind == kind ? n : NULL;
    for (size_t i = 0; i < mbx_node_child_count(m, n); i++) {
        mtlbx_node *c = mbx_node_child(m, n, i);
        if (c->kind == MTLBX_NODE_FUNCTION_LIST || c->kind == MTLBX_NODE_MODULE_LIST)
            continue;
        mtlbx_node *hit = find_kind(m, c, kind, tag, depth + 1);
        if (hit)
            return hit;
    }
    return NULL;
}

Test(argr, explorer_rows_per_argument_and_member_with_their_bytes)
{
    struct imagebuf argr = { 0 };
    ib_u8(&argr, 2);
    arg_pointer(&argr, "params", 4, 12, 0x01);
    ib_u8(&argr, 2);
    member(&argr, "gain", 0x03);
    member(&argr, "offset", 0x04);
    arg_texture(&argr, "src.coerce0", 0x10, 2);
    struct imagebuf img = { 0 };
    reflect_library(&img, &argr, "\x06", 1);
    mtlbx_file *f = open_buf(&img);
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_node *tag = find_kind(m, mbx_root(m), MTLBX_NODE_TAG, "ARGR", 0);
    cr_assert_not_null(tag);
    char label[256];
    mbx_node_label(m, tag, label, sizeof label);
    cr_expect(strstr(label, "2 arguments"), "%s", label);
    cr_assert(mbx_node_expandable(m, tag));
    cr_assert_eq(mbx_node_child_count(m, tag), 2);
    mtlbx_node *p = mbx_node_child(m, tag, 0), *t = mbx_node_child(m, tag, 1);
    cr_expect_eq(p->kind, MTLBX_NODE_CI_ARGUMENT);
    cr_expect_eq(p->offset, tag->tag.value_offset + 1);
    cr_expect_eq(p->size, 7 + 1 + 11 + 1 + 11 + 13);
    cr_expect_eq(t->offset + t->size, tag->tag.value_offset + tag->tag.value_len);
    mbx_node_label(m, t, label, sizeof label);
    cr_expect(strstr(label, "texture<half>") && strstr(label, "src.coerce0"), "%s", label);
    cr_assert_eq(mbx_node_child_count(m, p), 2);
    mtlbx_node *mem = mbx_node_child(m, p, 1);
    cr_expect_eq(mem->kind, MTLBX_NODE_CI_MEMBER);
    mbx_node_label(m, mem, label, sizeof label);
    cr_expect(strstr(label, "float2  offset"), "%s", label);
    /* A byte of the member selects the member in the hex panel. */
    cr_expect_eq(mbx_node_at_offset(m, mem->offset + 2), mem);
    mbx_model_close(m);
    mbx_close(f);
    ib_free(&img);
    ib_free(&argr);
}
