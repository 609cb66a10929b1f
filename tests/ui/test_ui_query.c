/* Offsets and search queries typed at the prompts. */
#include "config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "ui/text/query.h"

Test(query, offsets)
{
    uint64_t o;
    cr_assert_eq(parse_offset("0x58", 0, 1000, &o), OFFSET_OK);
    cr_assert_eq(o, 0x58);
    cr_assert_eq(parse_offset("  88 ", 0, 1000, &o), OFFSET_OK);
    cr_assert_eq(o, 88);
    cr_assert_eq(parse_offset("58h", 0, 1000, &o), OFFSET_OK);
    cr_assert_eq(o, 0x58);
    /* Hex without 0x (or a trailing h) is refused, never guessed: "1e9"
     * is not 0x1e9 while "1234" is decimal. */
    cr_assert_eq(parse_offset("1a0", 0, 1000, &o), OFFSET_SYNTAX);
    cr_assert_eq(parse_offset("1e9", 0, 1000, &o), OFFSET_SYNTAX);
    cr_assert_eq(parse_offset("4d", 0, 1000, &o), OFFSET_SYNTAX);
    cr_assert_eq(parse_offset("+16", 100, 1000, &o), OFFSET_OK);
    cr_assert_eq(o, 116);
    cr_assert_eq(parse_offset("-0x10", 100, 1000, &o), OFFSET_OK);
    cr_assert_eq(o, 84);
    cr_assert_eq(parse_offset("$", 0, 1000, &o), OFFSET_OK);
    cr_assert_eq(o, 999);
}

Test(query, bad_offsets)
{
    uint64_t o;
    cr_assert_eq(parse_offset("", 0, 1000, &o), OFFSET_SYNTAX);
    cr_assert_eq(parse_offset("foo", 0, 1000, &o), OFFSET_SYNTAX);
    cr_assert_eq(parse_offset("0x", 0, 1000, &o), OFFSET_SYNTAX);
    cr_assert_eq(parse_offset("12 34", 0, 1000, &o), OFFSET_SYNTAX);
    cr_assert_eq(parse_offset("1000", 0, 1000, &o), OFFSET_RANGE);
    cr_assert_eq(parse_offset("-200", 100, 1000, &o), OFFSET_RANGE);
    cr_assert_eq(parse_offset("+0xffffffffffffffff", 100, 1000, &o), OFFSET_RANGE);
    cr_assert_eq(parse_offset("99999999999999999999999", 0, 1000, &o), OFFSET_SYNTAX);
    cr_assert_eq(parse_offset("$", 0, 0, &o), OFFSET_RANGE);
}

Test(query, hex_bytes)
{
    uint8_t b[16];
    cr_assert_eq(parse_hex_bytes("4d544c42", b, sizeof b), 4);
    cr_assert_eq(memcmp(b, "MTLB", 4), 0);
    cr_assert_eq(parse_hex_bytes("4d 54 0x4c 42", b, sizeof b), 4);
    cr_assert_eq(memcmp(b, "MTLB", 4), 0);
    cr_assert_eq(parse_hex_bytes("4d5", b, sizeof b), -1);
    cr_assert_eq(parse_hex_bytes("zz", b, sizeof b), -1);
    cr_assert_eq(parse_hex_bytes("", b, sizeof b), -1);
    cr_assert_eq(parse_hex_bytes("0011223344", b, 2), -1);
}

Test(query, kinds)
{
    struct query q;
    char why[128];
    cr_assert(query_parse("add_arrays", false, &q, why, sizeof why));
    cr_assert_eq(q.kind, QUERY_LABEL);
    cr_assert_not(q.tag_like);
    cr_assert(query_parse("CNST", false, &q, why, sizeof why));
    cr_assert(q.tag_like);
    cr_assert(query_parse("x 4d544c42", false, &q, why, sizeof why));
    cr_assert_eq(q.kind, QUERY_BYTES);
    cr_assert_eq(q.n_bytes, 4);
    cr_assert(query_parse("\"MTLB\"", false, &q, why, sizeof why));
    cr_assert_eq(q.kind, QUERY_BYTES);
    cr_assert_eq(memcmp(q.bytes, "MTLB", 4), 0);
    cr_assert_eq(q.n_bytes, 4);
    cr_assert(query_parse("4d54", true, &q, why, sizeof why));     /* in the hex panel */
    cr_assert_eq(q.kind, QUERY_BYTES);
    cr_assert_eq(q.n_bytes, 2);
    cr_assert(query_parse("NAME", true, &q, why, sizeof why));     /* text there */
    cr_assert_eq(q.n_bytes, 4);
    cr_assert_eq(memcmp(q.bytes, "NAME", 4), 0);
    cr_assert_not(query_parse("   ", false, &q, why, sizeof why));
    /* Where only text is searched, what looks like hex or a quoted string
     * is the text itself. */
    cr_assert(query_parse_text("x 4d544c42", &q, why, sizeof why));
    cr_assert_eq(q.kind, QUERY_LABEL);
    cr_assert_str_eq(q.text, "x 4d544c42");
    cr_assert(query_parse_text("  \"float4\"", &q, why, sizeof why));
    cr_assert_eq(q.kind, QUERY_LABEL);
    cr_assert_str_eq(q.text, "\"float4\"");
    cr_assert(query_parse_text("CNST", &q, why, sizeof why) && q.tag_like);
    cr_assert_not(query_parse_text(" ", &q, why, sizeof why));
    cr_assert_not(query_parse("x zz", false, &q, why, sizeof why));
}

Test(query, byte_search_wraps)
{
    const uint8_t d[] = "..AB....AB..";
    uint8_t p[2] = { 'A', 'B' };
    cr_assert_eq(query_find_bytes(d, 12, p, 2, 0, true), 2);
    cr_assert_eq(query_find_bytes(d, 12, p, 2, 2, true), 8);
    cr_assert_eq(query_find_bytes(d, 12, p, 2, 8, true), 2);   /* wrapped */
    cr_assert_eq(query_find_bytes(d, 12, p, 2, 8, false), 2);
    cr_assert_eq(query_find_bytes(d, 12, p, 2, 2, false), 8);  /* wrapped */
    cr_assert_eq(query_find_bytes(d, 12, p, 2, 11, true), 2);
    uint8_t none[2] = { 'Z', 'Z' };
    cr_assert_eq(query_find_bytes(d, 12, none, 2, 0, true), -1);
    const uint8_t one[] = "AB";
    cr_assert_eq(query_find_bytes(one, 2, p, 2, 0, true), 0);  /* the only match is here */
}

Test(query, label_match_ignores_case)
{
    struct query q;
    char why[64];
    query_parse("ADD", false, &q, why, sizeof why);
    cr_assert(query_label_matches(&q, "kernel  add_arrays"));
    cr_assert_not(query_label_matches(&q, "kernel  mul"));
}
