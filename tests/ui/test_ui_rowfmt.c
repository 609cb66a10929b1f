/* Tree rows: markers, indent, glyphs, hash badges and label cutting. */
#include "config.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <string.h>

#include "ui/text/rowfmt.h"
#include "model/model.h"

static void utf8_locale(void)
{
    if (!setlocale(LC_ALL, "C.UTF-8"))
        setlocale(LC_ALL, "en_US.UTF-8");
}

TestSuite(rowfmt, .init = utf8_locale);

static struct row_input fn_row(const char *label, enum mtlbx_hash_state h)
{
    struct row_input in = { .width = 36, .depth = 2, .expandable = true, .is_function = true,
                            .hash = h, .label = label, .ascii = true };
    return in;
}

Test(rowfmt, a_function_row)
{
    struct row_input in = fn_row("kernel  add", MTLBX_HASH_MATCHES);
    struct row_layout out;
    rowfmt_tree(&in, &out);
    cr_assert_eq(out.mark, ROW_MARK_NONE);
    cr_assert_eq(out.glyph_col, 5);
    cr_assert_str_eq(out.glyph, "+");
    cr_assert_eq(out.badge_col, 7);
    cr_assert_str_eq(out.badge_text, "ok ");
    cr_assert_eq(out.label_col, 11);
    cr_assert_str_eq(out.label, "kernel  add");
    cr_assert_not(out.cut);
}

Test(rowfmt, hash_badges_read_at_a_glance)
{
    struct row_layout out;
    struct row_input in = fn_row("f", MTLBX_HASH_MISMATCH);
    rowfmt_tree(&in, &out);
    cr_assert_str_eq(out.badge_text, "BAD");
    cr_assert_eq(out.badge, ROW_BADGE_BAD);
    in.hash = MTLBX_HASH_PENDING;
    rowfmt_tree(&in, &out);
    cr_assert_str_eq(out.badge_text, "...");
    in.hash = MTLBX_HASH_UNCHECKED;
    rowfmt_tree(&in, &out);
    cr_assert_str_eq(out.badge_text, "...");
    in.hash = MTLBX_HASH_UNAVAILABLE;
    rowfmt_tree(&in, &out);
    cr_assert_str_eq(out.badge_text, "-- ");
    in.is_function = false;
    rowfmt_tree(&in, &out);
    cr_assert_eq(out.badge_col, -1);
    cr_assert_eq(out.label_col, 7);
}

Test(rowfmt, markers_rank_errors_over_unknown_over_warnings)
{
    struct row_layout out;
    struct row_input in = fn_row("f", MTLBX_HASH_MATCHES);
    in.flags = MTLBX_NODE_PROBLEM;
    rowfmt_tree(&in, &out);
    cr_assert_eq(out.mark, ROW_MARK_ERROR);
    cr_assert_str_eq(out.mark_text, "!");
    in.flags = MTLBX_NODE_PROBLEM | MTLBX_NODE_WARNING | MTLBX_NODE_UNKNOWN;
    rowfmt_tree(&in, &out);
    cr_assert_eq(out.mark, ROW_MARK_UNKNOWN);
    cr_assert_str_eq(out.mark_text, "?");
    in.flags = MTLBX_NODE_PROBLEM | MTLBX_NODE_WARNING;
    rowfmt_tree(&in, &out);
    cr_assert_eq(out.mark, ROW_MARK_WARNING);
    in.flags = MTLBX_NODE_PROBLEM | MTLBX_NODE_UNKNOWN;
    rowfmt_tree(&in, &out);
    cr_assert_eq(out.mark, ROW_MARK_ERROR);
}

Test(rowfmt, glyphs_in_utf8_and_ascii)
{
    struct row_layout out;
    struct row_input in = fn_row("f", MTLBX_HASH_MATCHES);
    in.expanded = true;
    rowfmt_tree(&in, &out);
    cr_assert_str_eq(out.glyph, "-");
    in.ascii = false;
    rowfmt_tree(&in, &out);
    cr_assert_str_eq(out.glyph, "\xe2\x96\xbe");
    in.expanded = false;
    rowfmt_tree(&in, &out);
    cr_assert_str_eq(out.glyph, "\xe2\x96\xb8");
    in.expandable = false;
    rowfmt_tree(&in, &out);
    cr_assert_str_eq(out.glyph, " ");
}

Test(rowfmt, long_labels_are_cut_in_the_middle_with_an_ellipsis)
{
    struct row_layout out;
    struct row_input in = fn_row("vertex       a_rather_long_function_name_MN_taligned", MTLBX_HASH_MATCHES);
    rowfmt_tree(&in, &out);
    cr_assert(out.cut);
    cr_assert_eq((int)strlen(out.label), 36 - 11);
    /* The padding goes first, then the middle: both ends stay. */
    cr_assert_str_eq(out.label, "vertex a~name_MN_taligned");
    in.ascii = false;
    rowfmt_tree(&in, &out);
    cr_assert(strstr(out.label, "\xe2\x80\xa6") != NULL);
    cr_assert_str_eq(out.label + strlen(out.label) - 16, "name_MN_taligned");
}

Test(rowfmt, a_function_label_drops_its_hash_word_before_its_name)
{
    struct row_layout out;
    struct row_input in = fn_row("kernel       steel_gemm_nn_float16_float16_bm32_bn32_bk16_MN_taligned_K_taligned  [hash ok]",
                                 MTLBX_HASH_MATCHES);
    in.width = 60;
    rowfmt_tree(&in, &out);
    cr_assert(out.cut);
    size_t len = strlen(out.label);
    cr_assert_str_eq(out.label + len - 20, "_MN_taligned_K_taligned" + 3);
    cr_assert_eq(strncmp(out.label, "kernel steel_gem", 16), 0, "%s", out.label);
}

Test(rowfmt, scrolled_labels_start_with_an_ellipsis)
{
    struct row_layout out;
    struct row_input in = fn_row("kernel  abcdefghijklmnopqrstuvwxyz0123456789", MTLBX_HASH_MATCHES);
    in.hscroll = 8;
    rowfmt_tree(&in, &out);
    cr_assert_eq(out.label[0], '~');
    cr_assert_eq(strncmp(out.label + 1, "bcdefgh", 7), 0, "%s", out.label);
    cr_assert_leq((int)strlen(out.label), 36 - 11);
}

Test(rowfmt, cut_middle_keeps_both_ends_and_whole_characters)
{
    char out[64];
    cr_assert_not(rowfmt_cut_middle("abcdef", 6, "~", out, sizeof out));
    cr_assert_str_eq(out, "abcdef");
    cr_assert(rowfmt_cut_middle("abcdefghij", 7, "~", out, sizeof out));
    cr_assert_str_eq(out, "ab~ghij");
    /* 2-column characters are never split. */
    cr_assert(rowfmt_cut_middle("\xe6\xbc\xa2\xe6\xbc\xa2\xe6\xbc\xa2\xe6\xbc\xa2", 6, "~", out, sizeof out));
    cr_assert_str_eq(out, "~\xe6\xbc\xa2\xe6\xbc\xa2");   /* 1 column of head: no room for one */
    /* Too narrow for a middle: an end cut. */
    cr_assert(rowfmt_cut_middle("abcdef", 3, "~", out, sizeof out));
    cr_assert_str_eq(out, "ab~");
    /* A buffer too small for the result never overflows. */
    char tiny[4];
    rowfmt_cut_middle("abcdefghijklmnop", 10, "~", tiny, sizeof tiny);
    cr_assert_leq(strlen(tiny), 3);
}

/* A path cut at its start keeps its file name (archive members). */
Test(rowfmt, cut_left_keeps_the_end)
{
    char out[64];
    cr_assert_not(rowfmt_cut_left("a/b.metallib", 12, "~", out, sizeof out));
    cr_assert_str_eq(out, "a/b.metallib");
    cr_assert(rowfmt_cut_left("lib/kernels_alpha.metallib", 12, "~", out, sizeof out));
    cr_assert_str_eq(out, "~ha.metallib");
    cr_assert(rowfmt_cut_left("\xe6\xbc\xa2\xe6\xbc\xa2x", 4, "~", out, sizeof out));
    cr_assert_str_eq(out, "~\xe6\xbc\xa2x");
    char tiny[4];
    rowfmt_cut_left("abcdefghijklmnop", 10, "~", tiny, sizeof tiny);
    cr_assert_leq(strlen(tiny), 3);
}

Test(rowfmt, other_labels_are_cut_at_the_end)
{
    struct row_layout out;
    struct row_input in = fn_row("Archive \"0\"  16,384 bytes bzip2 and more", MTLBX_HASH_MATCHES);
    in.is_function = false;
    rowfmt_tree(&in, &out);
    cr_assert(out.cut);
    cr_assert_eq(strncmp(out.label, "Archive \"0\"  16,384", 19), 0, "%s", out.label);
    cr_assert_eq(out.label[strlen(out.label) - 1], '~');
    in.is_name = true;
    rowfmt_tree(&in, &out);
    cr_assert_str_eq(out.label + strlen(out.label) - 8, "and more");
}

Test(rowfmt, squeeze_and_skip)
{
    char out[64];
    rowfmt_squeeze_spaces("kernel       add  x", out, sizeof out);
    cr_assert_str_eq(out, "kernel add x");
    cr_assert_str_eq(rowfmt_skip_cols("abcdef", 2), "cdef");
    cr_assert_str_eq(rowfmt_skip_cols("ab", 5), "");
    cr_assert_str_eq(rowfmt_ellipsis(true), "~");
}

Test(rowfmt, deep_rows_keep_room_for_the_label)
{
    struct row_layout out;
    struct row_input in = fn_row("NAME", MTLBX_HASH_MATCHES);
    in.depth = 40;
    rowfmt_tree(&in, &out);
    cr_assert_leq(out.glyph_col, 18);
    cr_assert_geq(out.label_col, 0);
    cr_assert_str_eq(out.label, "NAME");
}

Test(rowfmt, tiny_widths_never_overflow)
{
    struct row_layout out;
    for (int w = 0; w < 12; w++) {
        struct row_input in = fn_row("kernel  add_arrays", MTLBX_HASH_MATCHES);
        in.width = w;
        rowfmt_tree(&in, &out);
        if (out.label_col >= 0)
            cr_assert_leq(out.label_col + (int)strlen(out.label), w, "width %d", w);
    }
}

Test(rowfmt, cut_keeps_whole_characters)
{
    char out[64];
    cr_assert_not(rowfmt_cut("abc", 3, ">", out, sizeof out));
    cr_assert_str_eq(out, "abc");
    cr_assert(rowfmt_cut("abcd", 3, ">", out, sizeof out));
    cr_assert_str_eq(out, "ab>");
    cr_assert(rowfmt_cut("\xe6\xbc\xa2\xe6\xbc\xa2", 3, ">", out, sizeof out));
    cr_assert_str_eq(out, "\xe6\xbc\xa2>");   /* a 2-column char and the ellipsis */
    cr_assert(rowfmt_cut("abc", 0, ">", out, sizeof out));
    cr_assert_str_eq(out, "");
}
