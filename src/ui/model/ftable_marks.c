/* The function table's marks (see ftable.h): the functions a library is
 * written of (w). A byte per function, indexed by its row in `all`, so
 * sorting and filtering, which reorder `shown` only, never move a mark to
 * another function; the count is kept so the title and the status line
 * say it without a pass over 200,000 rows. */
#include "config.h"

#include "ui/model/ftable.h"

#include <stdlib.h>
#include <string.h>

static size_t all_pos(const struct ftable *t, const struct ft_row *r)
{
    return (size_t)(r - t->all);
}

static bool ensure(struct ftable *t)
{
    if (!t->marked)
        t->marked = calloc(t->n_all ? t->n_all : 1, 1);
    return t->marked != NULL;
}

bool ftable_is_marked(const struct ftable *t, const struct ft_row *r)
{
    return t->marked && r && t->marked[all_pos(t, r)];
}

static bool set(struct ftable *t, size_t pos_in_all, bool on)
{
    bool was = t->marked[pos_in_all];
    if (was == on)
        return false;
    t->marked[pos_in_all] = on;
    if (on)
        t->n_marked++;
    else
        t->n_marked--;
    return true;
}

bool ftable_mark_toggle(struct ftable *t, size_t pos)
{
    const struct ft_row *r = ftable_row(t, pos);
    if (!r)
        return true;
    if (!ensure(t))
        return false;
    size_t p = all_pos(t, r);
    set(t, p, !t->marked[p]);
    return true;
}

long ftable_mark_shown(struct ftable *t, enum ft_mark_op op)
{
    if (op == FT_MARK_CLEAR && !t->marked)
        return 0;
    if (!ensure(t))
        return -1;
    long changed = 0;
    for (size_t i = 0; i < t->n_shown; i++) {
        size_t p = t->shown[i];
        bool on = op == FT_MARK_SET ? true : op == FT_MARK_CLEAR ? false : !t->marked[p];
        changed += set(t, p, on);
    }
    return changed;
}

size_t ftable_unmark_all(struct ftable *t)
{
    size_t n = t->n_marked;
    free(t->marked);
    t->marked = NULL;
    t->n_marked = 0;
    return n;
}

size_t ftable_marked_hidden(const struct ftable *t)
{
    if (!t->n_marked)
        return 0;
    size_t shown = 0;
    for (size_t i = 0; i < t->n_shown; i++)
        shown += t->marked[t->shown[i]] != 0;
    return t->n_marked - shown;
}

size_t ftable_marked_files(const struct ftable *t, uint32_t *file)
{
    /* `all` holds each file's rows as one run (the table is built file by
     * file), so every change of file among the marks is another file. */
    size_t n = 0;
    uint32_t last = 0;
    for (size_t i = 0; t->n_marked && i < t->n_all; i++) {
        if (!t->marked[i])
            continue;
        uint32_t f = t->libs[t->all[i].lib].file;
        if (n == 0)
            *file = f;
        if (n == 0 || f != last)
            n++;
        last = f;
    }
    return n;
}

/* ---- marks kept while other files are shown ---- */

void ftable_marks_keep(const struct ftable *t, struct ft_kept_marks *k)
{
    for (size_t i = 0; t->n_marked && i < t->n_all && !k->out_of_memory; i++) {
        if (!t->marked[i])
            continue;
        const struct ft_lib *fl = &t->libs[t->all[i].lib];
        const struct mtlbx_function *fn = ftable_row_function(t, &t->all[i]);
        if (!fl->path)
            continue;
        if (k->n == k->cap) {
            size_t cap = k->cap ? 2 * k->cap : 16;
            struct ft_kept_mark *g = realloc(k->v, cap * sizeof *g);
            if (!g) {
                k->out_of_memory = true;
                break;
            }
            k->v = g;
            k->cap = cap;
        }
        struct ft_kept_mark m = { strdup(fl->path), fl->in_file, t->all[i].index, malloc(fn->name.len + 1),
                                  fn->name.len };
        if (!m.path || !m.name) {
            free(m.path);
            free(m.name);
            k->out_of_memory = true;
            break;
        }
        memcpy(m.name, fn->name.ptr, fn->name.len);
        m.name[fn->name.len] = '\0';
        k->v[k->n++] = m;
    }
}

/* The row of `all` that is the kept function: the same file, library of
 * it and index, with the same name; or -1. */
static long kept_row(const struct ftable *t, const struct ft_kept_mark *m)
{
    for (size_t l = 0; l < t->n_libs; l++) {
        const struct ft_lib *fl = &t->libs[l];
        if (!fl->path || fl->in_file != m->in_file || strcmp(fl->path, m->path) != 0 || !fl->lib ||
            m->index >= mbx_library_function_count(fl->lib))
            continue;
        const struct mtlbx_function *fn = mbx_function_at(fl->lib, m->index);
        if (!fn || fn->name.len != m->name_len || memcmp(fn->name.ptr, m->name, m->name_len) != 0)
            continue;
        /* `all` holds each library's rows as one run, in index order. */
        for (size_t i = 0; i < t->n_all; i++)
            if (t->all[i].lib == l)
                return (long)(i + m->index);
    }
    return -1;
}

size_t ftable_marks_restore(struct ftable *t, struct ft_kept_marks *k)
{
    size_t restored = 0, kept = 0;
    for (size_t j = 0; j < k->n; j++) {
        struct ft_kept_mark *m = &k->v[j];
        long row = kept_row(t, m);
        if (row >= 0 && ensure(t)) {
            restored += set(t, (size_t)row, true);
            free(m->path);
            free(m->name);
        } else {
            k->v[kept++] = *m;     /* another file's: kept for when it shows again */
        }
    }
    k->n = kept;
    return restored;
}

void ftable_kept_marks_free(struct ft_kept_marks *k)
{
    for (size_t j = 0; j < k->n; j++) {
        free(k->v[j].path);
        free(k->v[j].name);
    }
    free(k->v);
    memset(k, 0, sizeof *k);
}
