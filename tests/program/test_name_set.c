/* Output names made unique (src/program/name_set.c): "NAME", then
 * "NAME~2", "NAME~3"... skipping what is taken, judged by Unicode case
 * folding when the set folds. Issue 35: the k-th repeat of a name tried
 * every "NAME~j" before it, so 100,000 functions named alike (`extract`)
 * or 50,000 archives with one id (`sources -o`) took minutes; each name
 * must now cost one look-up. */
#include "config.h"

#include "name_set.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

static void expect(struct name_set *s, const char *base, const char *suffix, const char *want)
{
    char *got = name_set_unique(s, base, suffix);
    cr_assert(got, "out of memory");
    cr_assert_str_eq(got, want);
    free(got);
}

Test(name_set, repeats_are_numbered_and_taken_names_skipped)
{
    struct name_set s = { .nocase = true };
    cr_assert(name_set_add(&s, "x~3.air"));
    expect(&s, "x", ".air", "x.air");
    expect(&s, "X", ".air", "X~2.air");   /* folds to x: the same family */
    expect(&s, "x", ".air", "x~4.air");   /* x~3.air was taken first */
    expect(&s, "x~4", ".air", "x~4~2.air");
    expect(&s, "x", "", "x");
    expect(&s, "x", "", "x~2");
    expect(&s, "Stra\xc3\x9f" "e", ".air", "Stra\xc3\x9f" "e.air");
    expect(&s, "STRASSE", ".air", "STRASSE~2.air");
    cr_assert(name_set_has(&s, "strasse~2.AIR"));
    name_set_free(&s);
}

Test(name_set, a_hundred_thousand_repeats_stay_linear, .timeout = 10)
{
    struct name_set s = { .nocase = true };
    char want[32];
    for (int k = 1; k <= 100000; k++) {
        char *got = name_set_unique(&s, "x", ".air");
        cr_assert(got);
        if (k == 1)
            cr_assert_str_eq(got, "x.air");
        if (k == 100000) {
            snprintf(want, sizeof want, "x~%d.air", k);
            cr_assert_str_eq(got, want);
        }
        free(got);
    }
    name_set_free(&s);
}
