/* The explorer's case-insensitive search (util/nocase.c) against the
 * byte-by-byte tolower() loop it replaced, on every needle of up to three
 * bytes from a small alphabet over every haystack of up to six, plus the
 * edges: empty needle, needle longer than the text, bytes above 0x7f;
 * then on long random texts (the 16-byte scan and its tail), with needles
 * cut from them in flipped case and needles made up. */
#include "config.h"

#include "program/nocase.h"

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

/* A small fixed generator: the same texts on every run. */
static uint32_t rng_state = 12345;
static uint32_t rng(void)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 8;
}

Test(nocase, long_texts_agree_with_tolower)
{
    static const char bytes[] = "aAbBfFzZ_09 \x80\xc3\xa9@`[{";
    char hay[300], needle[40];
    for (int round = 0; round < 20000; round++) {
        size_t hl = rng() % sizeof hay;
        for (size_t i = 0; i < hl; i++)
            hay[i] = bytes[rng() % (sizeof bytes - 1)];
        size_t nl = 1 + rng() % 12;
        if (hl >= nl && rng() % 2) {
            size_t at = rng() % (hl - nl + 1);
            for (size_t i = 0; i < nl; i++) {
                char c = hay[at + i];
                needle[i] = isupper((unsigned char)c) ? (char)tolower((unsigned char)c)
                            : islower((unsigned char)c) ? (char)toupper((unsigned char)c) : c;
            }
        } else {
            for (size_t i = 0; i < nl; i++)
                needle[i] = bytes[rng() % (sizeof bytes - 1)];
        }
        needle[nl] = '\0';
        if (strlen(needle) != nl)
            continue;
        struct nocase_needle n;
        nocase_prepare(&n, needle);
        cr_assert_eq(nocase_contains(&n, (const uint8_t *)hay, hl), reference((const uint8_t *)hay, hl, needle),
                     "round %d: needle of %zu bytes in %zu bytes", round, nl, hl);
    }
}
