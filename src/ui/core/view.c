/* The one module that changes the current view (view.h): the chain of
 * parents, the views' private blocks, places, and going to a remembered
 * place. tig's open_view(prev, view) with its parent, for singletons: a
 * view already in the chain is returned to. history.c walks the history
 * through here. */
#include "config.h"

#include "ui/core/core.h"

#include <stdlib.h>
#include <string.h>

struct place place_none(void)
{
    return (struct place){ .function = -1, .archive = -1 };
}

struct place place_file(uint32_t file)
{
    struct place p = place_none();
    p.file = file;
    return p;
}

struct place place_function(mtlbx_library *lib, size_t fn)
{
    struct place p = place_none();
    p.lib = lib;
    p.function = (long)fn;
    return p;
}

struct place place_node(uint32_t file, mtlbx_node *node)
{
    struct place p = place_file(file);
    p.node = node;
    return p;
}

struct place place_offset(uint32_t file, uint64_t offset)
{
    struct place p = place_file(file);
    p.offset = offset;
    p.at_offset = true;
    return p;
}

struct place place_archive(uint32_t file, mtlbx_library *lib, size_t archive)
{
    struct place p = place_file(file);
    p.lib = lib;
    p.archive = (long)archive;
    return p;
}

struct place place_text(const struct text_doc *doc)
{
    struct place p = place_none();
    p.text = doc;
    return p;
}

void views_install(struct explorer *ex, const struct view_ops *const *table)
{
    ex->view_table = table;
    ex->view = VIEW_NONE;
    for (int i = 0; i < VIEW_COUNT; i++)
        ex->view_parents[i] = VIEW_NONE;
}

const struct view_ops *view_ops_of(const struct explorer *ex, enum view_id id)
{
    return id >= 0 && id < VIEW_COUNT && ex->view_table ? ex->view_table[id] : NULL;
}

void *view_state(struct explorer *ex, enum view_id id)
{
    const struct view_ops *ops = view_ops_of(ex, id);
    if (!ops)
        return NULL;
    if (!ex->view_states[id])
        ex->view_states[id] = calloc(1, ops->state_size ? ops->state_size : 1);
    return ex->view_states[id];
}

enum view_id view_current(const struct explorer *ex)
{
    return ex->view;
}

enum view_id view_parent(const struct explorer *ex, enum view_id id)
{
    return id >= 0 && id < VIEW_COUNT ? ex->view_parents[id] : VIEW_NONE;
}

bool view_is_open(const struct explorer *ex, enum view_id id)
{
    for (enum view_id v = ex->view; v != VIEW_NONE; v = ex->view_parents[v])
        if (v == id)
            return true;
    return false;
}

/* Closes the current view (its close op), making its parent current. */
static void pop(struct explorer *ex)
{
    enum view_id v = ex->view;
    const struct view_ops *ops = view_ops_of(ex, v);
    if (ops && ops->close)
        ops->close(ex);
    ex->view = ex->view_parents[v];
    ex->view_parents[v] = VIEW_NONE;
}

static bool open_at(struct explorer *ex, enum view_id id, const struct place *at, bool record)
{
    const struct view_ops *ops = view_ops_of(ex, id);
    if (!ops || !view_state(ex, id)) {
        ex_error(ex, "out of memory");
        return false;
    }
    struct place none = place_none();
    /* The place left goes on the history once the new view is open. */
    bool leaving = record && id != ex->view && ex->view != VIEW_NONE;
    struct jump left = leaving ? view_here(ex) : (struct jump){ .view = VIEW_NONE };
    /* Opening may fail: the chain changes only once it has not. */
    enum view_id was = ex->view, was_parent = ex->view_parents[id];
    bool in_chain = view_is_open(ex, id);
    if (!in_chain) {
        ex->view_parents[id] = ex->view;
        ex->view = id;
    }
    if (!ops->open(ex, at ? at : &none)) {
        if (!in_chain) {
            ex->view = was;
            ex->view_parents[id] = was_parent;
        }
        return false;
    }
    /* Back to a view in the chain: the views above it close. */
    while (in_chain && ex->view != id)
        pop(ex);
    if (leaving)
        history_record(ex, &left);
    return true;
}

bool open_view(struct explorer *ex, enum view_id id, const struct place *at)
{
    return open_at(ex, id, at, true);
}

/* ----------------------------------------------------------- places -- */

struct jump view_here(struct explorer *ex)
{
    struct jump j;
    memset(&j, 0, sizeof j);
    j.view = VIEW_NONE;
    j.at = place_none();
    const struct view_ops *ops = view_ops_of(ex, ex->view);
    if (!ops || !ops->jump.here)
        return j;
    j.view = ex->view;
    ops->jump.here(ex, &j);
    j.at.text = NULL; /* a text is copied when opened, never kept */
    return j;
}

static bool same_place(const struct place *a, const struct place *b)
{
    return a->file == b->file && a->lib == b->lib && a->function == b->function && a->archive == b->archive &&
           a->node == b->node && a->offset == b->offset && a->at_offset == b->at_offset;
}

bool jump_same(const struct jump *a, const struct jump *b)
{
    return a->view == b->view && same_place(&a->at, &b->at) && memcmp(a->w, b->w, sizeof a->w) == 0;
}

void jump_push(struct jump *stack, size_t *n, const struct jump *j)
{
    if (*n == HISTORY_MAX) {
        memmove(&stack[0], &stack[1], (HISTORY_MAX - 1) * sizeof stack[0]);
        (*n)--;
    }
    stack[(*n)++] = *j;
}

void history_record(struct explorer *ex, const struct jump *j)
{
    if (j->view == VIEW_NONE)
        return;
    ex->n_forward = 0;
    if (ex->n_history && jump_same(&ex->history[ex->n_history - 1], j))
        return;
    jump_push(ex->history, &ex->n_history, j);
}

/* Going back or forth is no new place: the view opens without the place
 * left being remembered (history.c keeps its own account). */
bool goto_jump(struct explorer *ex, const struct jump *j)
{
    const struct view_ops *ops = view_ops_of(ex, j->view);
    if (!ops)
        return false;
    bool was_open = view_is_open(ex, j->view);
    if (j->view != ex->view && !open_at(ex, j->view, &j->at, false))
        return false;
    if (ops->jump.restore && !ops->jump.restore(ex, j)) {
        if (!was_open)
            close_view(ex); /* not left in a view that is not that place */
        return false;
    }
    return true;
}




void close_view(struct explorer *ex)
{
    if (ex->view == VIEW_NONE || ex->view_parents[ex->view] == VIEW_NONE) {
        ex->quit = true;
        return;
    }
    pop(ex);
}

bool open_home(struct explorer *ex, const struct place *at)
{
    return open_view(ex, VIEW_FUNCTIONS, at) || open_view(ex, VIEW_BYTES, at);
}

void views_forget(struct explorer *ex)
{
    for (int i = 0; i < VIEW_COUNT; i++) {
        const struct view_ops *ops = view_ops_of(ex, (enum view_id)i);
        if (ops && ops->forget && ex->view_states[i])
            ops->forget(ex);
    }
}

void views_done(struct explorer *ex)
{
    while (ex->view != VIEW_NONE)
        pop(ex);
    for (int i = 0; i < VIEW_COUNT; i++) {
        const struct view_ops *ops = view_ops_of(ex, (enum view_id)i);
        if (ops && ops->done && ex->view_states[i])
            ops->done(ex);
        free(ex->view_states[i]);
        ex->view_states[i] = NULL;
        free(ex->queries[i]);
        ex->queries[i] = NULL;
    }
}

unsigned view_key_context(struct explorer *ex)
{
    const struct view_ops *ops = view_ops_of(ex, ex->view);
    if (!ops)
        return 0;
    return ops->key_context ? ops->key_context(ex) : ops->keys;
}
