/* The byte layout and the library's own passes over libraries of several
 * LAZY_BLOCKs (4,096 functions) of entries: function cursors keep every
 * decoded block of a library of up to 8 blocks and one block of a bigger
 * one (src/lib/container/functions.c), and the layout walk and the metadata
 * decode read every entry through them, again and again. An entry taken
 * from the wrong block or slot would show here as an unclaimed run or a
 * piece claimed twice. */
#include "config.h"

#include "libcheck.h"
#include "checks/byte_layout.h"
#include "container/functions.h"

#include <stdio.h>
#include <stdlib.h>

static void check_clean_layout(size_t n)
{
    struct test_function *fns = calloc(n, sizeof *fns);
    char (*names)[24] = calloc(n, sizeof *names); /* "f" and any size_t */
    cr_assert(fns && names);
    for (size_t i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "f%zu", i);
        fns[i] = (struct test_function){ .name = names[i], .type = (uint8_t)(i % 3) };
    }
    struct imagebuf img = { 0 };
    ib_library(&img, &(struct test_library){ .n_functions = n, .functions = fns });
    mtlbx_file *f = open_buf(&img);
    mtlbx_library *lib = mbx_library_at(f, 0);
    cr_assert_eq(mbx_library_function_count(lib), n);
    struct mtlbx_layout *layout = mbx_layout_check(f);
    cr_assert_not_null(layout);
    const struct mtlbx_layout_summary *s = &layout->summary;
    cr_expect(s->complete, "%zu functions: the walk did not cover the file", n);
    cr_expect_eq(s->unclaimed, 0, "%zu functions: %llu bytes unclaimed", n, (unsigned long long)s->unclaimed);
    cr_expect_eq(s->claimed + s->padding, img.len);
    cr_expect_eq(s->dirty_padding_runs, 0);
    /* Nothing to find: every entry, metadata group and module is claimed
     * once, where its entry says. */
    cr_expect_eq(mbx_library_diag_count(lib), 0, "%zu functions: %zu findings, the first: %s", n,
                 mbx_library_diag_count(lib),
                 mbx_library_diag_count(lib) ? mbx_library_diag(lib, 0)->message : "");
    cr_expect_eq(mbx_file_diag_count(f), 0);
    mbx_layout_free(layout);
    mbx_close(f);
    ib_free(&img);
    free(fns);
    free(names);
}

/* Three blocks and a part: the cursors keep them all. */
Test(layout_blocks, few_blocks_kept) { check_clean_layout(3 * 4096 + 100); }

/* Nine blocks and one function: the cursors keep one block at a time. */
Test(layout_blocks, many_blocks_one_at_a_time) { check_clean_layout(8 * 4096 + 1); }
