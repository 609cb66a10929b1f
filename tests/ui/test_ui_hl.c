/* The text view's pure parts: the LLVM IR and MSL highlighters (line ->
 * spans) and the text search (matching lines, stepping with wrap-around,
 * where a line's matches lie). */
#include "config.h"

#include "ui/text/hl.h"
#include "ui/text/textsearch.h"

#include <criterion/criterion.h>
#include <string.h>

/* The kind of the span covering byte `at` of s, HL_NONE if plain. */
static enum hl_kind kind_at(const struct hl_span *sp, size_t n, size_t at)
{
    for (size_t i = 0; i < n; i++)
        if (at >= sp[i].start && at < sp[i].start + sp[i].len)
            return sp[i].kind;
    return HL_NONE;
}

static enum hl_kind llvm_kind(const char *line, const char *word)
{
    struct hl_span sp[64];
    size_t n = hl_llvm_line(line, strlen(line), sp, 64);
    const char *w = strstr(line, word);
    cr_assert(w, "%s not in %s", word, line);
    return kind_at(sp, n, (size_t)(w - line));
}

Test(hl_llvm, kinds)
{
    const char *l = "  %w = call fast float @shade_weight(float %nx, i32 3) #0 ; a comment";
    cr_expect_eq(llvm_kind(l, "%w"), HL_LOCAL);
    cr_expect_eq(llvm_kind(l, "call"), HL_KEYWORD);
    cr_expect_eq(llvm_kind(l, "float"), HL_TYPE);
    cr_expect_eq(llvm_kind(l, "i32"), HL_TYPE);
    cr_expect_eq(llvm_kind(l, "@shade"), HL_GLOBAL);
    cr_expect_eq(llvm_kind(l, "3)"), HL_NUMBER);
    cr_expect_eq(llvm_kind(l, "#0"), HL_ATTR);
    cr_expect_eq(llvm_kind(l, "; a"), HL_COMMENT);
    cr_expect_eq(llvm_kind(l, "comment"), HL_COMMENT);
    const char *m = "!2 = !{!\"air.position\", i32 -1, double 5.0e-01}";
    cr_expect_eq(llvm_kind(m, "!2"), HL_META);
    cr_expect_eq(llvm_kind(m, "\"air"), HL_STRING);
    cr_expect_eq(llvm_kind(m, "position"), HL_STRING);
    cr_expect_eq(llvm_kind(m, "-1"), HL_NUMBER);
    cr_expect_eq(llvm_kind(m, "5.0e-01"), HL_NUMBER);
    cr_expect_eq(llvm_kind("entry:", "entry"), HL_LOCAL);
    /* A ';' inside a string is not a comment; digits in a name are not a number. */
    const char *s = "@x = constant [3 x i8] c\"a;b\", align 1 ; end";
    cr_expect_eq(llvm_kind(s, ";b"), HL_STRING);
    cr_expect_eq(llvm_kind(s, "align"), HL_KEYWORD);
    cr_expect_eq(llvm_kind(s, "; end"), HL_COMMENT);
    cr_expect_eq(llvm_kind("%struct.V2 = type {}", "2"), HL_LOCAL);
}

Test(hl_llvm, spans_are_ordered_bounded_and_capped)
{
    const char *l = "define void @f(i32 %a, i32 %b) #1 {";
    struct hl_span sp[64];
    size_t n = hl_llvm_line(l, strlen(l), sp, 64);
    cr_assert_gt(n, 5);
    for (size_t i = 0; i < n; i++) {
        cr_expect_gt(sp[i].len, 0);
        cr_expect_leq(sp[i].start + sp[i].len, strlen(l));
        if (i)
            cr_expect_geq(sp[i].start, sp[i - 1].start + sp[i - 1].len);
    }
    cr_expect_eq(hl_llvm_line(l, strlen(l), sp, 2), 2);
    cr_expect_eq(hl_llvm_line("", 0, sp, 64), 0);
    /* Unterminated strings and a lone sigil stay inside the line. */
    n = hl_llvm_line("@\"abc", 5, sp, 64);
    cr_expect_eq(n, 1);
    cr_expect_eq(sp[0].start + sp[0].len, 5);
    n = hl_llvm_line("x = %", 5, sp, 64);
    for (size_t i = 0; i < n; i++)
        cr_expect_leq(sp[i].start + sp[i].len, 5);
}

static enum hl_kind msl_kind(const char *line, const char *word, bool *in)
{
    struct hl_span sp[64];
    size_t n = hl_msl_line(line, strlen(line), in, sp, 64);
    const char *w = strstr(line, word);
    cr_assert(w, "%s not in %s", word, line);
    return kind_at(sp, n, (size_t)(w - line));
}

Test(hl_msl, kinds)
{
    bool in = false;
    const char *l = "kernel void k(device float4 *p [[buffer(0)]], uint id [[thread_position_in_grid]]) { // go";
    cr_expect_eq(msl_kind(l, "kernel", &in), HL_KEYWORD);
    cr_expect_eq(msl_kind(l, "void", &in), HL_TYPE);
    cr_expect_eq(msl_kind(l, "device", &in), HL_KEYWORD);
    cr_expect_eq(msl_kind(l, "float4", &in), HL_TYPE);
    cr_expect_eq(msl_kind(l, "uint", &in), HL_TYPE);
    cr_expect_eq(msl_kind(l, "[[buffer", &in), HL_ATTR);
    cr_expect_eq(msl_kind(l, "thread_position", &in), HL_ATTR);
    cr_expect_eq(msl_kind(l, "// go", &in), HL_COMMENT);
    cr_expect_eq(msl_kind(l, " k(", &in), HL_NONE);
    cr_expect_not(in);
    cr_expect_eq(msl_kind("#include <metal_stdlib>", "#include", &in), HL_PREPROC);
    cr_expect_eq(msl_kind("constant half3x3 m = half3x3(1.5h);", "half3x3", &in), HL_TYPE);
    cr_expect_eq(msl_kind("packed_float3 v; char c = 'x';", "packed_float3", &in), HL_TYPE);
    cr_expect_eq(msl_kind("packed_float3 v; char c = 'x';", "'x'", &in), HL_STRING);
    cr_expect_eq(msl_kind("x = 0x1F + 2.5f;", "0x1F", &in), HL_NUMBER);
    cr_expect_eq(msl_kind("x = 0x1F + 2.5f;", "2.5f", &in), HL_NUMBER);
    cr_expect_eq(msl_kind("float2 v2;", "v2", &in), HL_NONE);
}

Test(hl_msl, block_comments_cross_lines)
{
    bool in = false;
    cr_expect_eq(msl_kind("int a; /* starts", "starts", &in), HL_COMMENT);
    cr_expect(in);
    cr_expect_eq(msl_kind("   still kernel", "kernel", &in), HL_COMMENT);
    cr_expect(in);
    cr_expect_eq(msl_kind("ends */ kernel", "ends", &in), HL_COMMENT);
    cr_expect_not(in);
    in = false;
    cr_expect_eq(msl_kind("ends */ kernel", "kernel", &in), HL_KEYWORD);
    cr_expect(hl_msl_comment_after("a /* b", 6, false));
    cr_expect_not(hl_msl_comment_after("a /* b */", 9, false));
    cr_expect_not(hl_msl_comment_after("x */ y", 6, true));
    cr_expect(hl_msl_comment_after("x y", 3, true));
    /* A string holding comment markers is a string. */
    cr_expect_not(hl_msl_comment_after("s = \"/*\";", 9, false));
}

Test(textsearch, lines_rank_and_step)
{
    const char *text = "alpha\nbeta\nALPHA beta\ngamma\nalphabet";
    size_t starts[6] = { 0, 6, 11, 22, 28, 36 };
    size_t n;
    size_t *v = textsearch_lines(text, starts, 5, "alpha", &n);
    cr_assert_eq(n, 3);
    cr_expect_eq(v[0], 0);
    cr_expect_eq(v[1], 2);
    cr_expect_eq(v[2], 4);
    cr_expect_eq(textsearch_rank(v, n, 0), 0);
    cr_expect_eq(textsearch_rank(v, n, 1), 1);
    cr_expect_eq(textsearch_rank(v, n, 5), 3);
    bool wrapped;
    cr_expect_eq(textsearch_step(v, n, 0, true, &wrapped), 1);
    cr_expect_not(wrapped);
    cr_expect_eq(textsearch_step(v, n, 3, true, &wrapped), 2);
    cr_expect_not(wrapped);
    cr_expect_eq(textsearch_step(v, n, 4, true, &wrapped), 0);
    cr_expect(wrapped);
    cr_expect_eq(textsearch_step(v, n, 0, false, &wrapped), 2);
    cr_expect(wrapped);
    cr_expect_eq(textsearch_step(v, n, 3, false, &wrapped), 1);
    cr_expect_not(wrapped);
    free(v);
    cr_expect_null(textsearch_lines(text, starts, 5, "zeta", &n));
    cr_expect_eq(n, 0);
}

Test(textsearch, spans_in_a_line)
{
    struct hl_span sp[8];
    const char *l = "Float float FLOATfloat";
    size_t n = textsearch_spans(l, strlen(l), "float", sp, 8);
    cr_assert_eq(n, 4);
    cr_expect_eq(sp[0].start, 0);
    cr_expect_eq(sp[1].start, 6);
    cr_expect_eq(sp[2].start, 12);
    cr_expect_eq(sp[3].start, 17);
    cr_expect_eq(sp[3].len, 5);
    cr_expect_eq(textsearch_spans(l, strlen(l), "float", sp, 2), 2);
    cr_expect_eq(textsearch_spans("aaaa", 4, "aa", sp, 8), 2);
    cr_expect_eq(textsearch_spans(l, strlen(l), "", sp, 8), 0);
}
