/* The pure pieces behind readable names and copying: wrapping a long
 * status line, the OSC 52 sequence, the tree's adjustable width and the
 * function filter. */
#include "config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "ui/model/fnfilter.h"
#include "ui/model/funcview.h"
#include "ui/text/layout.h"
#include "ui/text/osc52.h"
#include "ui/text/wrap.h"

Test(wrap, short_text_is_one_line)
{
    size_t st[4];
    cr_assert_eq(wrap_text("abc", 10, st, 3), 1);
    cr_assert_eq(st[0], 0);
    cr_assert_eq(st[1], 3);
}

Test(wrap, breaks_after_a_late_space_else_inside_a_word)
{
    size_t st[4];
    const char *s = "file.metallib: kernel  a_very_long_name_that_goes_on";
    int n = wrap_text(s, 20, st, 3);
    cr_assert_eq(n, 3);
    /* "file.metallib: " ends with a space past two thirds of 20. */
    cr_assert_eq(st[1], 15);
    cr_assert_eq(st[2] - st[1], 20, "a word longer than a line is cut at the width");
    cr_assert_eq(st[3], strlen(s));
}

Test(wrap, the_last_line_takes_what_is_left)
{
    size_t st[3];
    const char *s = "aaaaaaaaaabbbbbbbbbbccccccccccdddd";
    cr_assert_eq(wrap_text(s, 10, st, 2), 2);
    cr_assert_eq(st[1], 10);
    cr_assert_eq(st[2], strlen(s));
}

Test(osc52, encodes_base64_between_the_markers)
{
    char out[64];
    size_t n = osc52_encode((const uint8_t *)"add_arrays", 10, out, sizeof out);
    cr_assert_str_eq(out, "\x1b]52;c;YWRkX2FycmF5cw==\a");
    cr_assert_eq(n, strlen(out));
    osc52_encode((const uint8_t *)"ab", 2, out, sizeof out);
    cr_assert_str_eq(out, "\x1b]52;c;YWI=\a");
    osc52_encode((const uint8_t *)"abc", 3, out, sizeof out);
    cr_assert_str_eq(out, "\x1b]52;c;YWJj\a");
}

Test(osc52, refuses_what_does_not_fit)
{
    char out[8];
    cr_assert_eq(osc52_encode((const uint8_t *)"abcdef", 6, out, sizeof out), 0);
}

Test(layout, the_tree_widens_and_narrows_within_bounds)
{
    struct layout l;
    layout_adjust_tree_width(-layout_adjust_tree_width(0, 80), 80);   /* back to the default */
    layout_compute(24, 80, PANEL_NONE, &l);
    int base = l.panel[PANEL_TREE].w;
    cr_assert_eq(layout_adjust_tree_width(8, 80), 8);
    layout_compute(24, 80, PANEL_NONE, &l);
    cr_assert_eq(l.panel[PANEL_TREE].w, base + 8);
    cr_assert_eq(l.panel[PANEL_DETAIL].x, base + 9);
    cr_assert_eq(l.panel[PANEL_TREE].w + 1 + l.panel[PANEL_DETAIL].w, 80);
    layout_adjust_tree_width(1000, 80);
    layout_compute(24, 80, PANEL_NONE, &l);
    cr_assert_eq(l.panel[PANEL_DETAIL].w, LAYOUT_MIN_PANEL);
    layout_adjust_tree_width(-2000, 80);
    layout_compute(24, 80, PANEL_NONE, &l);
    cr_assert_eq(l.panel[PANEL_TREE].w, LAYOUT_MIN_PANEL);
    layout_adjust_tree_width(-layout_adjust_tree_width(0, 80), 80);
}

static struct mtlbx_function fn(const char *name, uint8_t type, uint16_t air_major, uint16_t air_minor)
{
    struct mtlbx_function f;
    memset(&f, 0, sizeof f);
    f.name.ptr = (const uint8_t *)name;
    f.name.len = strlen(name);
    f.type = type;
    f.air_major = air_major;
    f.air_minor = air_minor;
    f.present = MTLBX_F_TYPE | MTLBX_F_VERS;
    return f;
}

static bool passes(const struct mtlbx_function *f, const char *text)
{
    struct fnfilter filter;
    fnfilter_parse(&filter, text);
    return fnfilter_matches_function(&filter, f, NULL, 0);
}

Test(fnfilter, a_filter_matches_name_type_or_version)
{
    struct mtlbx_function k = fn("steel_gemm_tt_float32", 2, 2, 6);
    k.msl_major = 4;
    k.msl_minor = 0;
    cr_assert(passes(&k, ""));
    cr_assert(passes(&k, "TT_FLOAT"));
    cr_assert_not(passes(&k, "nn_float"));
    cr_assert(passes(&k, "kernel"));
    cr_assert_not(passes(&k, "vertex"));
    cr_assert(passes(&k, "air 2.6"));
    cr_assert(passes(&k, "AIR2.6"));
    cr_assert(passes(&k, "2.6"));
    cr_assert_not(passes(&k, "air 2.5"));
    /* The msl column the table shows. */
    cr_assert(passes(&k, "msl 4.0"));
    cr_assert(passes(&k, "MSL4.0"));
    cr_assert(passes(&k, "4.0"));
    cr_assert_not(passes(&k, "msl 3.2"));
    cr_assert_not(passes(&k, "air 4.0"));
    cr_assert_not(passes(&k, "msl 2.6"));
}

/* Words narrow: each must match something the row shows. */
Test(fnfilter, words_narrow)
{
    struct mtlbx_function k = fn("kernel_argmin_float", 2, 2, 8);
    cr_assert(passes(&k, "kernel argmin"));
    cr_assert(passes(&k, "  argmin   kernel "));
    cr_assert(passes(&k, "kernel air 2.8 float"));
    cr_assert_not(passes(&k, "kernel argmax"));
    cr_assert_not(passes(&k, "vertex argmin"));
    /* A column word before what cannot be its value is a word of the name. */
    struct mtlbx_function a = fn("air_argmin", 2, 2, 8);
    cr_assert(passes(&a, "air argmin"));
    cr_assert_not(passes(&k, "air argmin"));
    /* "name msl": the word, not the column. */
    struct mtlbx_function m = fn("msl_helper", 2, 2, 8);
    cr_assert(passes(&m, "name msl"));
    cr_assert_not(passes(&k, "name msl"));
    /* Without the library, requires and hash cannot match. */
    cr_assert_not(passes(&k, "requires macOS"));
}
