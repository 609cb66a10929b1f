/* The explorer's main loop: open the files, draw, read one key (with a
 * timeout while background hashing runs, so its results show), turn the
 * key into an action through the key table, and hand the action to the
 * focused panel or view. Everything is drawn on stdscr and sent with one
 * refresh per frame; curses only sends what changed. */
#include "config.h"

#include "explorer.h"
#include "term.h"
#include "ui.h"

#include <inttypes.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* While hashes are still being checked, wake up this often to show them. */
#define HASH_POLL_MS 120

uint32_t ex_current_file_index(const struct explorer *ex)
{
    if (ex->rows.n && ex->tree_sel < ex->rows.n)
        return ex->rows.v[ex->tree_sel].file;
    return 0;
}

struct ex_file *ex_current_file(struct explorer *ex)
{
    return &ex->files[ex_current_file_index(ex)];
}

mtlbx_node *ex_selected_node(struct explorer *ex)
{
    if (ex->rows.n && ex->tree_sel < ex->rows.n)
        return ex->rows.v[ex->tree_sel].node;
    return NULL;
}

static void set_status(struct explorer *ex, bool error, const char *fmt, va_list ap)
{
    vsnprintf(ex->status, sizeof ex->status, fmt, ap);
    ex->status_error = error;
}

void ex_message(struct explorer *ex, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_status(ex, false, fmt, ap);
    va_end(ap);
}

void ex_error(struct explorer *ex, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_status(ex, true, fmt, ap);
    va_end(ap);
}

bool ex_select_node(struct explorer *ex, uint32_t file, mtlbx_node *node, bool keep_hex)
{
    if (!node || file >= ex->n_files)
        return false;
    /* The chain from the top row down to the node. */
    mtlbx_node *chain[64];
    int depth = 0;
    for (mtlbx_node *n = node; n && depth < 64; n = n->parent)
        chain[depth++] = n;
    /* With a single file its root is not a row: the libraries are. */
    if (ex->n_files == 1) {
        if (depth <= 1)
            return false;
        depth--;
    }
    long row = -1;
    for (size_t i = 0; i < ex->rows.n; i++)
        if (ex->rows.v[i].depth == 0 && ex->rows.v[i].file == file && ex->rows.v[i].node == chain[depth - 1]) {
            row = (long)i;
            break;
        }
    for (int d = depth - 2; d >= 0 && row >= 0; d--) {
        if (!ex->rows.v[row].expanded && rows_expand(&ex->rows, (size_t)row, &ex->rows_src) < 0)
            return false;
        row = rows_find_child(&ex->rows, (size_t)row, chain[d]);
    }
    if (row < 0)
        return false;
    uint64_t keep_cursor = ex->hex.cursor;
    uint32_t keep_file = ex->hex.file;
    /* A jump: where the row was out of sight, it lands mid-panel. */
    size_t keep_top = ex->tree_top;
    ex->tree_sel = (size_t)row;
    ex->tree_top = keep_top;
    tree_center_selection(ex);
    tree_set_selection(ex, (size_t)row);
    if (keep_hex && keep_file == file)
        hex_goto(ex, file, keep_cursor);
    return true;
}

void ex_push_history(struct explorer *ex)
{
    mtlbx_node *n = ex_selected_node(ex);
    if (!n)
        return;
    if (ex->n_history == HISTORY_MAX) {
        memmove(&ex->history[0], &ex->history[1], (HISTORY_MAX - 1) * sizeof ex->history[0]);
        ex->n_history--;
    }
    struct jump j = { ex_current_file_index(ex), n, ex->hex.cursor, ex->hex.top, ex->detail.sel, ex->detail.top };
    ex->history[ex->n_history++] = j;
}

static void go_back(struct explorer *ex)
{
    if (ex->n_history == 0) {
        ex_message(ex, "no earlier position (Enter on an offset field, / and : make jumps)");
        return;
    }
    struct jump j = ex->history[--ex->n_history];
    ex_select_node(ex, j.file, j.node, false);
    /* The detail and hex cursors come back too, not only the node. */
    detail_refresh(ex, true);
    if (ex->detail.n) {
        ex->detail.sel = j.detail_sel < ex->detail.n ? j.detail_sel : ex->detail.n - 1;
        ex->detail.top = j.detail_top <= ex->detail.sel ? j.detail_top : ex->detail.sel;
    }
    hex_goto(ex, j.file, j.hex_cursor);
    ex->hex.top = j.hex_top <= j.hex_cursor ? j.hex_top : ex->hex.top;
    hex_goto(ex, j.file, j.hex_cursor);
    ex_message(ex, "back (%zu more)", ex->n_history);
}

/* ----------------------------------------------------------- drawing -- */

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

static void draw_title(struct explorer *ex)
{
    const struct rect *r = &ex->lay.title;
    char left[512], right[128] = "";
    size_t used = (size_t)snprintf(left, sizeof left, " mtlbx ");
    for (uint32_t i = 0; i < ex->n_files && used < sizeof left; i++) {
        const char *b = base_name(ex->files[i].path);
        char *safe = mtlbx_escape_dup((const uint8_t *)b, strlen(b), MTLBX_ESC_TERMINAL);
        used += (size_t)snprintf(left + used, sizeof left - used, "%s%s", i ? " | " : " ", safe ? safe : "?");
        free(safe);
    }
    size_t done, total;
    hasher_progress(ex->hasher, &done, &total);
    if (total && done < total)
        snprintf(right, sizeof right, "checking hashes %zu/%zu ", done, total);
    else if (total)
        snprintf(right, sizeof right, "%zu %s, hashes checked ", total, mtlbx_noun(total, "function", "functions"));
    term_put(r->y, r->x, r->w, left, term_attr(AT_TITLE), 0);
    int rw = (int)strlen(right);
    if (rw && rw < r->w - 20)
        term_put_raw(r->y, r->x + r->w - rw, rw, right, term_attr(AT_TITLE));
}

static void draw_status(struct explorer *ex)
{
    const struct rect *r = &ex->lay.status;
    char info[700] = "";
    mtlbx_node *n = ex_selected_node(ex);
    if (n) {
        char label[300];
        uint32_t file = ex_current_file_index(ex);
        tree_node_label(ex, file, n, label, sizeof label);
        const char *b = base_name(ex->files[file].path);
        char *safe = mtlbx_escape_dup((const uint8_t *)b, strlen(b), MTLBX_ESC_TERMINAL);
        if (n->size)
            snprintf(info, sizeof info, "%s: %s @0x%" PRIx64 " +%" PRIu64, safe ? safe : "?", label,
                     n->offset, n->size);
        else
            snprintf(info, sizeof info, "%s: %s", safe ? safe : "?", label);
        free(safe);
    }
    if (ex->status[0]) {
        char line[1300];
        snprintf(line, sizeof line, "%s  | %s", ex->status, info);
        term_put(r->y, r->x, r->w, line, term_attr(ex->status_error ? AT_STATUS_ERROR : AT_STATUS), 0);
        if (ex->status_error) {
            /* Only the message itself is highlighted. */
            term_put(r->y, r->x, r->w, line, A_NORMAL, 0);
            term_put_raw(r->y, r->x, r->w, ex->status, term_attr(AT_STATUS_ERROR));
        }
    } else {
        term_put(r->y, r->x, r->w, info, term_attr(AT_STATUS), 0);
    }
}

static unsigned current_context(const struct explorer *ex)
{
    switch (ex->screen) {
    case SCREEN_TEXT: return KC_TEXT;
    case SCREEN_MEMBERS: return KC_MEMBERS;
    default:
        return ex->focus == PANEL_DETAIL ? KC_DETAIL : ex->focus == PANEL_HEX ? KC_HEX : KC_TREE;
    }
}

static void draw_footer(struct explorer *ex)
{
    char line[512];
    keys_footer(current_context(ex), ex->lay.footer.w - 1, line, sizeof line);
    char padded[520];
    snprintf(padded, sizeof padded, " %s", line);
    term_put(ex->lay.footer.y, 0, ex->lay.footer.w, padded, term_attr(AT_FOOTER), 0);
}

static void draw_too_small(struct explorer *ex)
{
    char a[96], b[96];
    snprintf(a, sizeof a, "Terminal too small: %dx%d", ex->lay.cols, ex->lay.lines);
    snprintf(b, sizeof b, "need %dx%d; resize, or q quits", LAYOUT_MIN_COLS, LAYOUT_MIN_LINES);
    int y = ex->lay.lines / 2 - 1;
    if (y < 0)
        y = 0;
    term_put_raw(y, 0, ex->lay.cols, a, A_BOLD);
    if (y + 1 < ex->lay.lines)
        term_put_raw(y + 1, 0, ex->lay.cols, b, A_NORMAL);
}

void ex_draw(struct explorer *ex)
{
    erase();
    if (ex->lay.too_small) {
        draw_too_small(ex);
        refresh();
        return;
    }
    draw_title(ex);
    switch (ex->screen) {
    case SCREEN_TEXT:
        textview_draw(ex);
        break;
    case SCREEN_MEMBERS:
        members_draw(ex);
        break;
    default:
        detail_refresh(ex, false);
        tree_draw(ex, &ex->lay.panel[PANEL_TREE], ex->focus == PANEL_TREE);
        if (ex->lay.separator.h)
            term_vline(ex->lay.separator.y, ex->lay.separator.x, ex->lay.separator.h);
        detail_draw(ex, &ex->lay.panel[PANEL_DETAIL], ex->focus == PANEL_DETAIL);
        hex_draw(ex, &ex->lay.panel[PANEL_HEX], ex->focus == PANEL_HEX);
        break;
    }
    draw_status(ex);
    draw_footer(ex);
    refresh();
}

/* ------------------------------------------------------------- input -- */

static void relayout(struct explorer *ex)
{
    layout_compute(LINES, COLS, ex->zoom, &ex->lay);
    if (!ex->lay.too_small && ex->screen == SCREEN_MAIN) {
        tree_scroll_to_selection(ex);
        hex_goto(ex, ex->hex.file, ex->hex.cursor);
    }
}

static void set_focus(struct explorer *ex, enum panel_id p)
{
    ex->focus = p;
    if (ex->zoom != PANEL_NONE) {
        ex->zoom = p;
        relayout(ex);
    }
}

static void open_help(struct explorer *ex)
{
    if (ex->screen == SCREEN_TEXT && ex->text.title && strcmp(ex->text.title, "Help") == 0)
        return;
    char *help = keys_help_text();
    if (!help)
        return;
    bool from_members = ex->screen == SCREEN_MEMBERS;
    if (ex->screen == SCREEN_TEXT)
        textview_close(ex);
    textview_open(ex, "Help", help, strlen(help), "mtlbx-keys.txt");
    ex->text_from_members = from_members;
    free(help);
}

static void main_action(struct explorer *ex, enum action a)
{
    switch (a) {
    case ACT_QUIT: ex->quit = true; break;
    case ACT_NEXT_PANEL: set_focus(ex, (enum panel_id)((ex->focus + 1) % PANEL_COUNT)); break;
    case ACT_PREV_PANEL: set_focus(ex, (enum panel_id)((ex->focus + PANEL_COUNT - 1) % PANEL_COUNT)); break;
    case ACT_FOCUS_TREE: set_focus(ex, PANEL_TREE); break;
    case ACT_FOCUS_DETAIL: set_focus(ex, PANEL_DETAIL); break;
    case ACT_FOCUS_HEX: set_focus(ex, PANEL_HEX); break;
    case ACT_ZOOM:
        ex->zoom = ex->zoom == PANEL_NONE ? ex->focus : PANEL_NONE;
        relayout(ex);
        break;
    case ACT_BACK: go_back(ex); break;
    case ACT_SEARCH: search_start(ex); break;
    case ACT_SEARCH_NEXT: search_repeat(ex, true); break;
    case ACT_SEARCH_PREV: search_repeat(ex, false); break;
    case ACT_GOTO: goto_offset_prompt(ex); break;
    case ACT_NEXT_UNCLAIMED: goto_next_unclaimed(ex); break;
    case ACT_EXTRACT: action_extract(ex, false); break;
    case ACT_EXTRACT_ALL: action_extract(ex, true); break;
    case ACT_DISASSEMBLE: action_disassemble(ex); break;
    case ACT_SOURCES: action_sources(ex); break;
    case ACT_DIAGNOSTICS: diag_view_open(ex); break;
    case ACT_WRITE: action_write_node(ex); break;
    case ACT_NEXT_FUNCTION:
    case ACT_PREV_FUNCTION:
        tree_action(ex, a);
        break;
    default:
        if (ex->focus == PANEL_TREE)
            tree_action(ex, a);
        else if (ex->focus == PANEL_DETAIL)
            detail_action(ex, a);
        else
            hex_action(ex, a);
        break;
    }
}

static void handle_key(struct explorer *ex, int key)
{
    if (ex->lay.too_small) {
        if (key == 'q' || key == 'Q')
            ex->quit = true;
        return;
    }
    unsigned ctx = current_context(ex);
    enum action a = key_lookup(ctx, key);
    ex->status[0] = '\0';
    switch (a) {
    case ACT_NONE: {
        char name[32];
        if (key)
            ex_message(ex, "%s does nothing here: press ? for the keys",
                       key_display_name(key, name, sizeof name));
        return;
    }
    case ACT_QUIT_NOW: ex->quit = true; return;
    case ACT_HELP: open_help(ex); return;
    case ACT_REDRAW: clearok(curscr, TRUE); return;
    default: break;
    }
    if (ex->screen == SCREEN_TEXT)
        textview_action(ex, a);
    else if (ex->screen == SCREEN_MEMBERS)
        members_action(ex, a);
    else
        main_action(ex, a);
}

static void refresh_libraries(struct explorer *ex)
{
    for (size_t i = ex->rows.n; i-- > 0;) {
        mtlbx_node *n = ex->rows.v[i].node;
        if (ex->rows.v[i].depth <= 1 && n->kind == MTLBX_NODE_LIBRARY) {
            long added = rows_refresh_children(&ex->rows, i, &ex->rows_src);
            if (added > 0 && ex->tree_sel > i && ex->tree_sel >= rows_subtree_end(&ex->rows, i) - (size_t)added)
                ex->tree_sel += (size_t)added;
        }
    }
}

/* An interface decoded in the background gives its MODULE, INTERFACE and
 * ARGUMENT rows children: add them to expanded rows, and let the others
 * ask again. */
static void refresh_interface_rows(struct explorer *ex)
{
    for (size_t i = ex->rows.n; i-- > 0;) {
        struct tree_row *r = &ex->rows.v[i];
        enum mtlbx_node_kind k = ((mtlbx_node *)r->node)->kind;
        if (k != MTLBX_NODE_MODULE && k != MTLBX_NODE_INTERFACE && k != MTLBX_NODE_ARGUMENT && k != MTLBX_NODE_BC_BLOCK)
            continue;
        if (!r->expanded) {
            if (r->n_children == 0)
                r->n_children = -1;
            continue;
        }
        long added = rows_refresh_children(&ex->rows, i, &ex->rows_src);
        if (added > 0 && ex->tree_sel > i && ex->tree_sel >= rows_subtree_end(&ex->rows, i) - (size_t)added)
            ex->tree_sel += (size_t)added;
    }
    detail_refresh(ex, true);
}

/* Whether the selected function's interface is still being decoded. */
static bool waiting_for_interface(struct explorer *ex)
{
    mtlbx_node *n = ex->ifacer ? ex_selected_node(ex) : NULL;
    long fn = n && n->lib ? action_function_of(n) : -1;
    return fn >= 0 && mtlbx_function_interface_cached(n->lib, (size_t)fn, NULL, NULL) == MTLBX_IFACE_NOT_DECODED;
}

static void run(struct explorer *ex)
{
    bool dirty = true;
    while (!ex->quit) {
        size_t done, total;
        hasher_progress(ex->hasher, &done, &total);
        if (done != ex->hash_done_seen) {
            ex->hash_done_seen = done;
            dirty = true;
            /* Mismatches found in the background add a Diagnostics node to
             * their library: show it once the checks are done. */
            if (done == total)
                refresh_libraries(ex);
        }
        size_t kept = ifacer_kept_count(ex->ifacer);
        if (kept != ex->iface_kept_seen) {
            ex->iface_kept_seen = kept;
            refresh_interface_rows(ex);
            dirty = true;
        }
        if (dirty)
            ex_draw(ex);
        dirty = false;
        if (!ex->layout_done) {
            /* After the first frame, so a big library opens at once: which
             * bytes no structure claims (hex style, `u`) and its findings. */
            for (uint32_t i = 0; i < ex->n_files; i++)
                mtlbx_layout_check(ex->files[i].f);
            ex->layout_done = true;
            refresh_libraries(ex);
            ex_draw(ex);
        }
        wint_t wide;
        bool busy = (total && done < total) || waiting_for_interface(ex);
        int key = term_read_key(busy ? HASH_POLL_MS : -1, &wide);
        if (key == ERR)
            continue;
        if (key == TERM_KEY_GONE) {
            ex->quit = true; /* like Q: nobody is left to type one */
            break;
        }
        dirty = true;
        if (key == KEY_RESIZE) {
            relayout(ex);
            continue;
        }
        handle_key(ex, key);
    }
}

/* ------------------------------------------------------------- setup -- */

static void free_all(struct explorer *ex)
{
    hasher_stop(ex->hasher);
    ex->hasher = NULL;
    ifacer_stop(ex->ifacer);
    ex->ifacer = NULL;
    detail_free(&ex->detail);
    members_free(&ex->members);
    if (ex->screen == SCREEN_TEXT)
        textview_close(ex);
    rows_free(&ex->rows);
    for (uint32_t i = 0; i < ex->n_files; i++)
        mtlbx_close(ex->files[i].f);
    free(ex->files);
    free(ex->llvm_dis);
}

int explorer_main(int n_paths, char *const *paths, const struct explorer_options *opts)
{
    static const struct explorer_options defaults = { false, false, NULL };
    struct explorer ex;
    memset(&ex, 0, sizeof ex);
    ex.opts = opts ? opts : &defaults;
    ex.focus = PANEL_TREE;
    ex.zoom = PANEL_NONE;
    setlocale(LC_ALL, "");

    ex.files = calloc(n_paths > 0 ? (size_t)n_paths : 1, sizeof *ex.files);
    if (!ex.files)
        return 2;
    char first_error[400] = "";
    for (int i = 0; i < n_paths; i++) {
        struct mtlbx_error err;
        mtlbx_file *f = NULL;
        if (mtlbx_open_path(paths[i], &f, &err) != MTLBX_OK || !f) {
            fprintf(stderr, "mtlbx: %s: %s\n", paths[i], err.message);
            if (!first_error[0])
                snprintf(first_error, sizeof first_error, "%s: %s", paths[i], err.message);
            continue;
        }
        struct ex_file *ef = &ex.files[ex.n_files++];
        ef->f = f;
        ef->path = paths[i];
        ef->root = mtlbx_root(f);
    }
    if (ex.n_files == 0) {
        free(ex.files);
        return 2;
    }
    char names[512] = "";
    for (uint32_t i = 0; i < ex.n_files; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? " or " : "", ex.files[i].path);
    term_set_file_names(names);

    char why[256];
    if (!term_init(ex.opts->no_color, ex.opts->ascii, why, sizeof why)) {
        fprintf(stderr, "mtlbx: %s\n", why);
        free_all(&ex);
        return 2;
    }
    layout_compute(LINES, COLS, ex.zoom, &ex.lay);

    size_t n_libs = 0;
    for (uint32_t i = 0; i < ex.n_files; i++)
        n_libs += mtlbx_library_count(ex.files[i].f);
    mtlbx_library **libs = calloc(n_libs ? n_libs : 1, sizeof *libs);
    if (libs) {
        size_t k = 0;
        for (uint32_t i = 0; i < ex.n_files; i++)
            for (size_t l = 0; l < mtlbx_library_count(ex.files[i].f); l++)
                if (mtlbx_library_at(ex.files[i].f, l))
                    libs[k++] = mtlbx_library_at(ex.files[i].f, l);
        ex.hasher = hasher_start(libs, k);
        ex.ifacer = ifacer_start(libs, k);
        free(libs);
    }

    tree_init(&ex);
    if (first_error[0])
        ex_error(&ex, "could not open %s", first_error);
    else
        ex_message(&ex, "? shows every key; Enter opens, e extracts, d disassembles, q quits");
    run(&ex);
    term_teardown();
    free_all(&ex);
    return 0;
}
