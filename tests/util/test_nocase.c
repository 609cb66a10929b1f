/* The explorer's case-insensitive search (util/nocase.c) against the
 * byte-by-byte tolower() loop it replaced, on every needle of up to three
 * bytes from a small alphabet over every haystack of up to six, plus the
 * edges: empty needle, needle longer than the text, bytes above 0x7f. */
#include "config.h"

#include "util/nocase.h"

#include <criterion/criterion.h>
#include <ctype.h>
#include <string.h>

static bool reference(const uint8_t *hay, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= len; i++) {
        size_t j = 0;
        while (j < n && tolower(hay[i + j]) == tolower((unsigned char)needle[j]))
            j++;
        if (j == n)
            return true;
    }
    return false;
}

static const char alphabet[] = { 'a', 'A', 'z', '_', '\xc3', '\xa9' };
#define K (sizeof alphabet)

static void fill(char *out, size_t len, size_t code)
{
    for (size_t i = 0; i < len; i++, code /= K)
        out[i] = alphabet[code % K];
    out[len] = '\0';
}

Test(nocase, agrees_with_tolower_everywhere)
{
    char needle[4], hay[7];
    for (size_t nl = 1; nl <= 3; nl++)
        for (size_t nc = 0, nmax = (size_t)1 << (3 * nl); nc < nmax && nc < 216; nc++) {
            fill(needle, nl, nc);
            struct nocase_needle n;
            nocase_prepare(&n, needle);
            for (size_t hl = 0; hl <= 6; hl++) {
                size_t hmax = 1;
                for (size_t i = 0; i < hl; i++)
                    hmax *= K;
                for (size_t hc = 0; hc < hmax; hc++) {
                    fill(hay, hl, hc);
                    cr_assert_eq(nocase_contains(&n, (const uint8_t *)hay, hl),
                                 reference((const uint8_t *)hay, hl, needle), "needle '%s' in '%s'", needle, hay);
                }
            }
        }
}

Test(nocase, edges)
{
    struct nocase_needle n;
    nocase_prepare(&n, "");
    cr_assert(nocase_contains(&n, (const uint8_t *)"", 0));
    nocase_prepare(&n, "Kernel");
    cr_assert(nocase_contains(&n, (const uint8_t *)"my_KERNEL_main", 14));
    cr_assert_not(nocase_contains(&n, (const uint8_t *)"kerne", 5));
    /* The length given, not a terminator: a match past it does not count. */
    cr_assert_not(nocase_contains(&n, (const uint8_t *)"xxkernel", 7));
    nocase_prepare(&n, "no-such-function-anywhere");
    cr_assert_not(nocase_contains(&n, (const uint8_t *)"no-such-function-anywher", 24));
}
