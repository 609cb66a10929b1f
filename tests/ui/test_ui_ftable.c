/* The function table's model (ftable.c) on the bundled sample: file
 * order, a sort by every column (total and repeatable), a filter, and a
 * search that counts functions. (Where a function is defined in its
 * sources is the library's: tests/lib/model/test_names.c.) */
#include "config.h"

#include "ui/model/ftable.h"
#include "container/file.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static mtlbx_file *open_sample(void)
{
    const char *src = getenv("MTLBX_SRCDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/data/sample.metallib", src ? src : ".");
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    cr_assert_eq(mbx_open_path(path, &f, &err), MTLBX_E_NONE, "%s: %s", path, err.message);
    return f;
}

static void name_of(const struct ftable *t, size_t pos, char *out, size_t size)
{
    const struct mtlbx_function *fn = ftable_row_function(t, ftable_row(t, pos));
    snprintf(out, size, "%.*s", (int)fn->name.len, (const char *)fn->name.ptr);
}

Test(ftable, rows_in_file_order_then_sorted_by_every_column)
{
    mtlbx_file *f = open_sample();
    struct ft_lib lib = { mbx_library_at(f, 0), 0, NULL, 0, 0 };
    struct ftable t;
    size_t sel = 0;
    cr_assert(ftable_init(&t, &lib, 1));
    cr_assert_eq(t.n_all, 8);
    cr_assert_eq(t.n_shown, 8);
    char a[64], b[64];
    name_of(&t, 0, a, sizeof a);
    cr_expect_str_eq(a, "vertex_main");
    /* Name order: ascending bytes. */
    t.sort = FT_COL_NAME;
    cr_assert(ftable_apply(&t, &sel));
    for (size_t i = 1; i < t.n_shown; i++) {
        name_of(&t, i - 1, a, sizeof a);
        name_of(&t, i, b, sizeof b);
        cr_expect_lt(strcmp(a, b), 0, "%s before %s", a, b);
    }
    /* Size: biggest module first. */
    t.sort = FT_COL_SIZE;
    cr_assert(ftable_apply(&t, &sel));
    for (size_t i = 1; i < t.n_shown; i++)
        cr_expect_geq(ftable_row_function(&t, ftable_row(&t, i - 1))->module.size,
                      ftable_row_function(&t, ftable_row(&t, i))->module.size);
    /* Every column sorts all rows, each once, and the selection stays on
     * its function. */
    sel = 3;
    const struct ft_row *kept = ftable_row(&t, sel);
    uint32_t kept_index = kept->index;
    for (int c = 0; c < FT_COL_COUNT; c++) {
        t.sort = (enum ft_col)c;
        cr_assert(ftable_apply(&t, &sel));
        cr_assert_eq(t.n_shown, 8);
        unsigned seen = 0;
        for (size_t i = 0; i < t.n_shown; i++)
            seen |= 1u << ftable_row(&t, i)->index;
        cr_expect_eq(seen, 0xffu, "column %d", c);
        cr_expect_eq(ftable_row(&t, sel)->index, kept_index, "column %d", c);
    }
    /* The cells say what the library says. */
    t.sort = FT_COL_ORDER;
    ftable_apply(&t, &sel);
    char cell[32];
    ftable_cell(&t, ftable_row(&t, 0), FT_COL_STAGE, cell, sizeof cell);
    cr_expect_str_eq(cell, "vertex");
    ftable_cell(&t, ftable_row(&t, 0), FT_COL_MSL, cell, sizeof cell);
    cr_expect_str_eq(cell, "3.2");
    ftable_cell(&t, ftable_row(&t, 0), FT_COL_SRC, cell, sizeof cell);
    cr_expect_str_eq(cell, "S");
    ftable_free(&t);
    mbx_close(f);
}

Test(ftable, filter_and_search_count_functions)
{
    mtlbx_file *f = open_sample();
    struct ft_lib lib = { mbx_library_at(f, 0), 0, NULL, 0, 0 };
    struct ftable t;
    size_t sel = 0;
    cr_assert(ftable_init(&t, &lib, 1));
    /* "_main" is in five names; the search counts them, not rows. */
    cr_expect_eq(ftable_search(&t, "_MAIN", NULL, NULL), 5);
    bool wrapped;
    cr_assert(ftable_search_step(&t, &sel, true, &wrapped));
    cr_expect_eq(t.hit_cur, 1);
    cr_expect_not(wrapped);
    sel = t.hits[t.n_hits - 1];
    cr_assert(ftable_search_step(&t, &sel, true, &wrapped));
    cr_expect(wrapped);
    cr_expect_eq(t.hit_cur, 0);
    cr_assert(ftable_search_step(&t, &sel, false, &wrapped));
    cr_expect(wrapped);
    cr_expect_eq(t.hit_cur, t.n_hits - 1);
    /* A filter keeps the kernels only. */
    snprintf(t.filter, sizeof t.filter, "kernel");
    cr_assert(ftable_apply(&t, &sel));
    cr_expect_eq(t.n_shown, 1);
    char a[64];
    name_of(&t, 0, a, sizeof a);
    cr_expect_str_eq(a, "compute_main");
    cr_expect_eq(ftable_find(&t, lib.lib, 2), 0);
    cr_expect_eq(ftable_find(&t, lib.lib, 0), -1);
    ftable_free(&t);
    mbx_close(f);
}

/* Marks belong to functions: a sort or a filter moves rows, never a mark
 * to another function; a, v and u act on the rows shown (u on all). */
Test(ftable, marks_follow_functions_through_sort_and_filter)
{
    mtlbx_file *f = open_sample();
    struct ft_lib lib = { mbx_library_at(f, 0), 0, NULL, 0, 0 };
    struct ftable t;
    size_t sel = 0;
    cr_assert(ftable_init(&t, &lib, 1));
    /* compute_main (2) and patch_vertex (7), in file order. */
    cr_assert(ftable_mark_toggle(&t, 2));
    cr_assert(ftable_mark_toggle(&t, 7));
    cr_expect_eq(t.n_marked, 2);
    t.sort = FT_COL_NAME;
    cr_assert(ftable_apply(&t, &sel));
    size_t marked = 0;
    for (size_t i = 0; i < t.n_shown; i++) {
        const struct ft_row *r = ftable_row(&t, i);
        bool want = r->index == 2 || r->index == 7;
        cr_expect_eq(ftable_is_marked(&t, r), want, "row %zu (function %u)", i, r->index);
        marked += ftable_is_marked(&t, r);
    }
    cr_expect_eq(marked, 2);
    /* The filter hides patch_vertex: still marked, counted as hidden. */
    snprintf(t.filter, sizeof t.filter, "kernel");
    cr_assert(ftable_apply(&t, &sel));
    cr_expect_eq(t.n_marked, 2);
    cr_expect_eq(ftable_marked_hidden(&t), 1);
    /* v inverts the shown row only (compute_main): one mark left, hidden. */
    cr_expect_eq(ftable_mark_shown(&t, FT_MARK_INVERT), 1);
    cr_expect_eq(t.n_marked, 1);
    cr_expect_eq(ftable_marked_hidden(&t), 1);
    /* a marks what is shown; toggling a marked row unmarks it. */
    cr_expect_eq(ftable_mark_shown(&t, FT_MARK_SET), 1);
    cr_expect_eq(ftable_mark_shown(&t, FT_MARK_SET), 0);
    cr_assert(ftable_mark_toggle(&t, 0));
    cr_expect_eq(t.n_marked, 1);
    t.filter[0] = '\0';
    cr_assert(ftable_apply(&t, &sel));
    uint32_t file = 99;
    cr_expect_eq(ftable_marked_files(&t, &file), 1);
    cr_expect_eq(file, 0);
    cr_expect(ftable_is_marked(&t, &t.all[7]));
    cr_expect_eq(ftable_unmark_all(&t), 1);
    cr_expect_eq(t.n_marked, 0);
    cr_expect_eq(ftable_marked_files(&t, &file), 0);
    ftable_free(&t);
    mbx_close(f);
}

/* Marks kept while other files are shown come back on the functions they
 * were on, only in a table of the same file, and stay kept otherwise. */
Test(ftable, marks_kept_across_a_change_of_files)
{
    mtlbx_file *f = open_sample();
    struct ft_lib lib = { mbx_library_at(f, 0), 0, "a.metallib", 0, 0 };
    struct ftable t;
    struct ft_kept_marks kept = { 0 };
    cr_assert(ftable_init(&t, &lib, 1));
    cr_assert(ftable_mark_toggle(&t, 2));
    cr_assert(ftable_mark_toggle(&t, 7));
    ftable_marks_keep(&t, &kept);
    ftable_free(&t);
    cr_assert_eq(kept.n, 2);
    /* Another file (its path differs): nothing restored, both kept. */
    struct ft_lib other = { mbx_library_at(f, 0), 0, "b.metallib", 0, 0 };
    cr_assert(ftable_init(&t, &other, 1));
    cr_expect_eq(ftable_marks_restore(&t, &kept), 0);
    cr_expect_eq(t.n_marked, 0);
    cr_expect_eq(kept.n, 2);
    ftable_free(&t);
    /* The same file again: both back, on compute_main and patch_vertex. */
    cr_assert(ftable_init(&t, &lib, 1));
    cr_expect_eq(ftable_marks_restore(&t, &kept), 2);
    cr_expect(ftable_is_marked(&t, &t.all[2]));
    cr_expect(ftable_is_marked(&t, &t.all[7]));
    cr_expect_eq(t.n_marked, 2);
    cr_expect_eq(kept.n, 0);
    ftable_free(&t);
    ftable_kept_marks_free(&kept);
    mbx_close(f);
}
