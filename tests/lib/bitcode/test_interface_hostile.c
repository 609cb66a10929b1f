/* Hostile bitstreams, written bit by bit (bitwriter.c): each must fail
 * cleanly (module.failed, an error at an absolute offset inside the
 * module, no stage), never crash or hang. A valid synthetic module comes
 * first, so that each broken one differs from a working one by its
 * defect only. */
#include "config.h"

#include "bitwriter.h"
#include "bitcode/interface_reader.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#define BASE 0x1000 /* where the module "is" in its file */

enum defect {
    OK, ABBREV_OUT_OF_RANGE, ABBREV_NO_OPS, ABBREV_BAD_ENCODING, VBR_PAST_64, BLOB_PAST_BLOCK,
    ARRAY_PAST_BLOCK, MD_CYCLE, MD_FORWARD_PAST_END, STRING_OUTSIDE_BLOB, NESTING_10000,
    BLOCKINFO_ABBREV_BEFORE_SETBID, LENGTH_PAST_PARENT, SKIPPED_ARRAYS, SKIPPED_VBR_PAST_64,
    SKIPPED_FIXED_ARRAY_PAST_BLOCK,
};

/* DEFINE_ABBREV [literal code, array of elements of an encoding and width]. */
static void define_array_abbrev(struct bitwriter *w, uint64_t code, unsigned element_encoding,
                                unsigned element_width)
{
    bw_fixed(w, 2, w->width);
    bw_vbr(w, 3, 5);
    bw_fixed(w, 1, 1);
    bw_vbr(w, code, 8);
    bw_fixed(w, 0, 1);
    bw_fixed(w, 3, 3);
    bw_fixed(w, 0, 1);
    bw_fixed(w, element_encoding, 3);
    bw_vbr(w, element_width, 5);
}

/* Constants the interface never reads (a DATA array after the integer it
 * does): the reader steps over their operands without storing them, and
 * must land exactly where LLVM would. Values of every VBR6 length up to
 * 13 chunks, unabbreviated and as abbreviated arrays. */
static void skipped_arrays(struct bitwriter *w)
{
    enum { N = 3000 };
    static uint64_t data[N];
    for (size_t i = 0; i < N; i++)
        data[i] = i % 7 == 0 ? UINT64_MAX >> (i % 11) : i % 3 ? i : UINT64_C(1) << (i % 64);
    bw_record(w, 22, data, N); /* DATA */
    /* Arrays of VBR6 and of two other widths (the reader has a copy of
     * its skipping for VBR6, and a general one), abbreviations 4, 5, 6. */
    static const unsigned widths[] = { 6, 3, 12 };
    for (unsigned k = 0; k < 3; k++)
        define_array_abbrev(w, 22, 2, widths[k]);
    for (unsigned k = 0; k < 3; k++) {
        bw_fixed(w, 4 + k, 4); /* that abbreviation: 3000 elements */
        bw_vbr(w, N, 6);
        for (size_t i = 0; i < N; i++)
            bw_vbr(w, data[(i * (k + 1) + k) % N] >> (k == 1 ? 8 : 0), widths[k]);
    }
}

#define U(x) ((uint64_t)(x))

/* A module whose one kernel @k takes `i32 3, air.buffer, arg_name "x"`.
 * Types: 0 i32, 1 pointer, 2 metadata. Values: 0 @k, 1 i32 3. */
static struct bitwriter *build(enum defect d)
{
    struct bitwriter *w = bw_new();
    bw_enter(w, 13, 5); /* IDENTIFICATION */
    bw_record_str(w, 1, "LLVM");
    bw_end(w);
    bw_enter(w, 8, 3); /* MODULE */
    bw_recordv(w, 1, 1, U(2));  /* VERSION 2: names from STRTAB */
    switch (d) {
    case ABBREV_OUT_OF_RANGE:
        bw_fixed(w, 7, 3);
        break;
    case ABBREV_NO_OPS:
        bw_fixed(w, 2, 3);
        bw_vbr(w, 0, 5);
        break;
    case ABBREV_BAD_ENCODING:
        bw_fixed(w, 2, 3);
        bw_vbr(w, 1, 5);
        bw_fixed(w, 0, 1);
        bw_fixed(w, 7, 3);
        break;
    case VBR_PAST_64:
        bw_fixed(w, 3, 3);
        for (int i = 0; i < 13; i++)
            bw_fixed(w, 0x3F, 6);
        bw_fixed(w, 1, 6);
        break;
    case ARRAY_PAST_BLOCK:
        define_array_abbrev(w, 1, 1, 8); /* array of fixed(8) */
        bw_fixed(w, 4, 3);
        bw_vbr(w, 5000, 6);
        break;
    case NESTING_10000:
        for (int i = 0; i < 10000; i++)
            bw_enter(w, 8, 3);
        for (int i = 0; i < 10000; i++)
            bw_end(w);
        break;
    case BLOCKINFO_ABBREV_BEFORE_SETBID:
        bw_enter(w, 0, 2);
        bw_fixed(w, 2, 2);
        bw_vbr(w, 1, 5);
        bw_fixed(w, 1, 1);
        bw_vbr(w, 1, 8);
        bw_end(w);
        break;
    case LENGTH_PAST_PARENT:
        bw_fixed(w, 1, 3); /* ENTER_SUBBLOCK 17 with a length of 2^31 words */
        bw_vbr(w, 17, 8);
        bw_vbr(w, 4, 4);
        bw_align32(w);
        bw_fixed(w, 0x80000000u, 32);
        break;
    default:
        break;
    }
    bw_enter(w, 17, 4); /* TYPE */
    bw_recordv(w, 7, 1, U(32));
    bw_recordv(w, 8, 2, U(0), U(0));
    bw_recordv(w, 16, 0);
    bw_end(w);
    bw_recordv(w, 8, 5, U(0), U(1), U(1), U(0), U(0)); /* FUNCTION "k" = strtab[0..1) */
    bw_enter(w, 11, 4); /* CONSTANTS */
    bw_recordv(w, 1, 1, U(0));
    bw_recordv(w, 4, 1, U(6)); /* i32 3 */
    if (d == SKIPPED_ARRAYS)
        skipped_arrays(w);
    if (d == SKIPPED_VBR_PAST_64) {
        bw_fixed(w, 3, 4); /* DATA [a 14-chunk VBR6, 1] */
        bw_vbr(w, 22, 6);
        bw_vbr(w, 2, 6);
        for (int i = 0; i < 13; i++)
            bw_fixed(w, 0x3F, 6);
        bw_fixed(w, 1, 6);
        bw_vbr(w, 1, 6);
    }
    if (d == SKIPPED_FIXED_ARRAY_PAST_BLOCK) {
        define_array_abbrev(w, 22, 1, 8); /* array of fixed(8) */
        bw_fixed(w, 4, 4); /* DATA of 40 bytes, of which 20 are in the block */
        bw_vbr(w, 40, 6);
        for (int i = 0; i < 20; i++)
            bw_fixed(w, 0x11, 8);
    }
    bw_end(w);
    bw_enter(w, 15, 4); /* METADATA */
    bw_record_str(w, 1, "air.buffer");   /* !0 */
    bw_record_str(w, 1, "air.arg_name"); /* !1 */
    bw_record_str(w, 1, "x");            /* !2 */
    bw_recordv(w, 2, 2, U(0), U(1));            /* !3 = i32 3 */
    bw_recordv(w, 2, 2, U(1), U(0));            /* !4 = @k */
    if (d == MD_FORWARD_PAST_END)
        bw_recordv(w, 3, 4, U(4), U(1), U(2), U(1000)); /* !5 */
    else
        bw_recordv(w, 3, 4, U(4), U(1), U(2), U(3));
    if (d == MD_CYCLE)
        bw_recordv(w, 3, 2, U(6), U(7)); /* !6 = !{!5, !6} */
    else
        bw_recordv(w, 3, 1, U(6));       /* !6 = !{!5} */
    bw_recordv(w, 3, 0);                 /* !7 = !{} */
    bw_recordv(w, 3, 3, U(5), U(8), U(7)); /* !8 = !{@k, !7, !6} */
    if (d == STRING_OUTSIDE_BLOB) {
        bw_fixed(w, 2, 4); /* DEFINE_ABBREV [literal 35, vbr6, vbr6, blob] */
        bw_vbr(w, 4, 5);
        bw_fixed(w, 1, 1);
        bw_vbr(w, 35, 8);
        bw_fixed(w, 0, 1);
        bw_fixed(w, 2, 3);
        bw_vbr(w, 6, 5);
        bw_fixed(w, 0, 1);
        bw_fixed(w, 2, 3);
        bw_vbr(w, 6, 5);
        bw_fixed(w, 0, 1);
        bw_fixed(w, 5, 3);
        bw_fixed(w, 4, 4); /* count 1, lengths in 1 byte: [20], then "abc" */
        bw_vbr(w, 1, 6);
        bw_vbr(w, 1, 6);
        bw_vbr(w, 4, 6);
        bw_align32(w);
        bw_fixed(w, 20, 8);
        bw_fixed(w, 'a', 8);
        bw_fixed(w, 'b', 8);
        bw_fixed(w, 'c', 8);
        bw_align32(w);
    }
    bw_record_str(w, 4, "air.kernel");
    bw_recordv(w, 10, 1, U(8));
    bw_end(w);
    bw_end(w); /* MODULE */
    bw_strtab(w, "k", d == BLOB_PAST_BLOCK ? 100000 : 1);
    return w;
}

static struct mtlbx_interface *decode(struct bitwriter *w, size_t len)
{
    struct mtlbx_error err;
    return mbx_interface_decode(w->buf, len, BASE, (const uint8_t *)"k", 1, &err);
}

static void expect_valid(enum defect d)
{
    struct bitwriter *w = build(d);
    struct mtlbx_interface *it = decode(w, bw_size(w));
    cr_assert_not_null(it);
    cr_assert(!it->module.failed, "%s at 0x%llx", it->module.error, (unsigned long long)it->module.error_offset);
    cr_assert_str_eq(it->stage, "kernel");
    cr_assert_eq(it->symbol.len, 1);
    cr_assert_eq(it->symbol.ptr[0], 'k');
    cr_assert_eq(it->n_inputs, 1);
    cr_assert_eq(it->n_outputs, 0);
    cr_assert(it->inputs[0].has_index);
    cr_assert_eq(it->inputs[0].index, 3);
    cr_assert(it->inputs[0].kind.len == 6 && memcmp(it->inputs[0].kind.ptr, "buffer", 6) == 0);
    cr_assert(it->inputs[0].has_name && it->inputs[0].name.len == 1 && it->inputs[0].name.ptr[0] == 'x');
    cr_assert(!it->inputs[0].has_location);
    cr_assert_eq(it->module.bitcode_offset, BASE);
    cr_assert_geq(it->module.n_blocks, 6);
    cr_assert_eq(it->module.blocks[0].block_id, 13);
    cr_assert_eq(it->module.blocks[0].offset, BASE + 4);
    cr_assert_str_eq(it->module.blocks[1].name, "MODULE_BLOCK");
    mbx_interface_free(it);
    bw_free(w);
}

Test(hostile_bitstream, the_valid_synthetic_module_decodes) { expect_valid(OK); }
Test(hostile_bitstream, unread_constant_arrays_are_stepped_over_exactly) { expect_valid(SKIPPED_ARRAYS); }

static void expect_failure(enum defect d, const char *needle)
{
    struct bitwriter *w = build(d);
    size_t len = bw_size(w);
    struct mtlbx_interface *it = decode(w, len);
    cr_assert_not_null(it, "a stream with the bitcode magic gives a (failed) interface");
    cr_expect(it->module.failed, "defect %d was not noticed", d);
    cr_expect(it->module.error_offset >= BASE && it->module.error_offset < BASE + len,
              "error offset 0x%llx outside the module [0x%x, 0x%zx)", (unsigned long long)it->module.error_offset,
              BASE, BASE + len);
    cr_expect(strstr(it->module.error, needle), "error '%s' does not say '%s'", it->module.error, needle);
    cr_expect_null(it->stage);
    cr_expect_eq(it->n_inputs + it->n_outputs + it->n_attributes + it->n_compile_options, 0);
    mbx_interface_free(it);
    bw_free(w);
}

Test(hostile_bitstream, abbreviation_id_out_of_range) { expect_failure(ABBREV_OUT_OF_RANGE, "out of range"); }
Test(hostile_bitstream, define_abbrev_without_operands) { expect_failure(ABBREV_NO_OPS, "no operands"); }
Test(hostile_bitstream, define_abbrev_bad_encoding) { expect_failure(ABBREV_BAD_ENCODING, "encoding"); }
Test(hostile_bitstream, vbr_chain_past_64_bits) { expect_failure(VBR_PAST_64, "past 64 bits"); }
Test(hostile_bitstream, vbr_chain_past_64_bits_in_an_unread_record)
{
    expect_failure(SKIPPED_VBR_PAST_64, "past 64 bits");
}
/* Stepped over, as the interface does not read DATA, but the error is the
 * one reading the elements gives: the first byte that does not fit. */
Test(hostile_bitstream, unread_fixed_array_longer_than_its_block)
{
    expect_failure(SKIPPED_FIXED_ARRAY_PAST_BLOCK, "bitstream truncated: 8 more bits needed");
}
Test(hostile_bitstream, blob_longer_than_its_block) { expect_failure(BLOB_PAST_BLOCK, "blob"); }
Test(hostile_bitstream, array_longer_than_its_block) { expect_failure(ARRAY_PAST_BLOCK, "array"); }
Test(hostile_bitstream, metadata_node_cycle) { expect_failure(MD_CYCLE, "contains itself"); }
Test(hostile_bitstream, metadata_reference_past_the_end) { expect_failure(MD_FORWARD_PAST_END, "past the end"); }
Test(hostile_bitstream, string_outside_the_bulk_blob) { expect_failure(STRING_OUTSIDE_BLOB, "past the end of the blob"); }
/* MODULE blocks nested 10,000 deep inside the MODULE block: the reader
 * enters only the blocks the interface needs (issue 22), so the nest is
 * stepped over by its length word, not recursed into. */
Test(hostile_bitstream, blocks_nested_10000_deep_are_stepped_over, .timeout = 20) { expect_valid(NESTING_10000); }
Test(hostile_bitstream, blockinfo_abbrev_before_setbid) { expect_failure(BLOCKINFO_ABBREV_BEFORE_SETBID, "SETBID"); }
Test(hostile_bitstream, block_length_past_its_parent) { expect_failure(LENGTH_PAST_PARENT, "more than its enclosing"); }

/* Every shorter length of one block of a valid module: the block's end
 * falls at each 32-bit word of its records, inside a VBR chain, a skipped
 * array or an abbreviation id, where the reader's fast paths (one 64-bit
 * load, several chunks at once) must stop and report what the careful
 * path does: a truncation, a missing END_BLOCK, or a sub-block that no
 * longer fits, inside the block. */
static void expect_every_shorter_block(enum defect d, uint32_t block_id)
{
    struct bitwriter *w = build(d);
    size_t len = bw_size(w);
    struct mtlbx_interface *full = decode(w, len);
    cr_assert_not_null(full);
    uint64_t start = 0, end = 0;
    for (size_t i = 0; i < full->module.n_blocks && !end; i++)
        if (full->module.blocks[i].block_id == block_id) {
            start = full->module.blocks[i].offset - BASE;
            end = start + full->module.blocks[i].size;
        }
    mbx_interface_free(full);
    cr_assert_gt(end, 0);
    /* The length word: the last word before the contents whose count of
     * words reaches exactly the end. */
    size_t at = 0;
    uint32_t words = 0;
    for (size_t p = (start + 3) & ~(size_t)3; p + 4 <= end && !at; p += 4) {
        uint32_t v = (uint32_t)w->buf[p] | (uint32_t)w->buf[p + 1] << 8 | (uint32_t)w->buf[p + 2] << 16 |
                     (uint32_t)w->buf[p + 3] << 24;
        if (p + 4 + (uint64_t)v * 4 == end) {
            at = p;
            words = v;
        }
    }
    cr_assert_gt(at, 0, "no length word for block %u", block_id);
    uint8_t *copy = malloc(len);
    for (uint32_t shorter = 0; shorter < words; shorter++) {
        memcpy(copy, w->buf, len);
        copy[at] = (uint8_t)shorter;
        copy[at + 1] = (uint8_t)(shorter >> 8);
        copy[at + 2] = (uint8_t)(shorter >> 16);
        copy[at + 3] = (uint8_t)(shorter >> 24);
        struct mtlbx_error err;
        struct mtlbx_interface *it = mbx_interface_decode(copy, len, BASE, (const uint8_t *)"k", 1, &err);
        cr_assert_not_null(it);
        uint64_t cut = at + 4 + (uint64_t)shorter * 4;
        cr_expect(it->module.failed, "block %u of %u words not noticed", block_id, shorter);
        cr_expect(it->module.error_offset >= BASE + start && it->module.error_offset <= BASE + cut,
                  "%u words: error offset 0x%llx outside [0x%llx, 0x%llx]", shorter,
                  (unsigned long long)it->module.error_offset, (unsigned long long)(BASE + start),
                  (unsigned long long)(BASE + cut));
        cr_expect(strstr(it->module.error, "truncated") || strstr(it->module.error, "without END_BLOCK") ||
                      strstr(it->module.error, "past the end of") || strstr(it->module.error, "more than its block") ||
                      strstr(it->module.error, "more than its enclosing"),
                  "%u words: '%s'", shorter, it->module.error);
        mbx_interface_free(it);
    }
    free(copy);
    bw_free(w);
}

Test(hostile_bitstream, every_shorter_constants_block, .timeout = 60)
{
    expect_every_shorter_block(SKIPPED_ARRAYS, 11);
}
Test(hostile_bitstream, every_shorter_metadata_block) { expect_every_shorter_block(OK, 15); }
Test(hostile_bitstream, every_shorter_module_block, .timeout = 60) { expect_every_shorter_block(OK, 8); }

/* Every prefix of the valid module: a clean failure while the MODULE
 * block is incomplete, never a crash. */
Test(hostile_bitstream, every_truncation, .timeout = 60)
{
    struct bitwriter *w = build(OK);
    size_t len = bw_size(w);
    struct mtlbx_interface *full = decode(w, len);
    cr_assert_not_null(full);
    uint64_t module_end = 0;
    for (size_t i = 0; i < full->module.n_blocks; i++)
        if (full->module.blocks[i].block_id == 8)
            module_end = full->module.blocks[i].offset + full->module.blocks[i].size - BASE;
    cr_assert_gt(module_end, 0);
    mbx_interface_free(full);
    for (size_t cut = 0; cut < len; cut++) {
        uint8_t *copy = malloc(cut ? cut : 1); /* exactly `cut` bytes, so ASan sees any overread */
        memcpy(copy, w->buf, cut);
        struct mtlbx_error err;
        struct mtlbx_interface *it = mbx_interface_decode(copy, cut, BASE, (const uint8_t *)"k", 1, &err);
        if (cut < 4) {
            cr_expect_null(it, "cut %zu: too short for bitcode", cut);
            cr_expect_eq(err.offset, BASE);
        } else {
            cr_assert_not_null(it, "cut %zu", cut);
            if (cut < module_end)
                cr_expect(it->module.failed, "cut %zu inside the MODULE block not noticed", cut);
            if (it->module.failed)
                cr_expect(it->module.error_offset >= BASE && it->module.error_offset <= BASE + cut,
                          "cut %zu: error offset 0x%llx", cut, (unsigned long long)it->module.error_offset);
        }
        mbx_interface_free(it);
        free(copy);
    }
    bw_free(w);
}

Test(hostile_bitstream, not_bitcode_is_null_with_an_offset)
{
    struct mtlbx_error err;
    static const uint8_t junk[] = "this is not bitcode at all";
    cr_assert_null(mbx_interface_decode(junk, sizeof junk, BASE, NULL, 0, &err));
    cr_expect_eq(err.offset, BASE);
    cr_expect(err.message[0]);
    /* A wrapper pointing outside the module */
    uint8_t wrapper[20] = { 0xDE, 0xC0, 0x17, 0x0B, 0, 0, 0, 0, 20, 0, 0, 0, 0xFF, 0xFF, 0, 0 };
    cr_assert_null(mbx_interface_decode(wrapper, sizeof wrapper, BASE, NULL, 0, &err));
    cr_expect_eq(err.offset, BASE + 8);
}
