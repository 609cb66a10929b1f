/* The explorer's main loop: open the files, draw, read one key (with a
 * timeout while background hashing runs, so its results show), turn the
 * key into an action through the key table, and hand the action to the
 * focused panel or view. Everything is drawn on stdscr and sent with one
 * refresh per frame; curses only sends what changed. */
#include "config.h"

#include "ui/explorer.h"
#include "ui/text/keylog.h"
#include "ui/text/rowfmt.h"
#include "ui/term/term.h"
#include "archive_members.h"
#include "ui/text/textfmt.h"
#include "ui/core/ui.h"
#include "ui/core/view.h"
#include "ui/text/wrap.h"

#include <inttypes.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* While hashes are still being checked, wake up this often to show them. */
#define HASH_POLL_MS 120
/* The byte layout is walked once the keyboard has been quiet this long. */
#define LAYOUT_IDLE_MS 100
/* While a background job runs, redraw its progress this often. */
#define JOB_POLL_MS 100

#define CTRL(c) ((c) & 0x1f)


/* ----------------------------------------------------------- drawing -- */

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

static size_t error_count(struct explorer *ex)
{
    size_t n = 0;
    for (uint32_t i = 0; i < ex->n_files; i++) {
        mtlbx_file *f = ex->files[i].f;
        for (size_t d = 0; d < mtlbx_file_diag_count(f); d++)
            n += mtlbx_file_diag(f, d)->severity == MTLBX_ERROR;
        for (size_t l = 0; l < mtlbx_file_library_count(f); l++) {
            mtlbx_library *lib = mtlbx_library_at(f, l);
            for (size_t d = 0; d < mtlbx_library_diag_count(lib); d++)
                n += mtlbx_library_diag(lib, d)->severity == MTLBX_ERROR;
        }
    }
    return n;
}

/* The counts on the right are never cut; the file names on the left are,
 * in the middle, and a gap always separates the two. */
static void draw_title(struct explorer *ex)
{
    const struct rect *r = &ex->lay.title;
    char left[512], right[200] = "", cut[512];
    if (ex->screen == SCREEN_FOLDER || ex->screen == SCREEN_RELEASE) {
        /* The folder list (and the release compare) names the folders, not
         * the library last opened. */
        folder_title(ex, left, sizeof left);
        rowfmt_cut_middle(left, r->w, rowfmt_ellipsis(term_ascii()), cut, sizeof cut);
        term_fill(r->y, r->x, r->w, term_attr(AT_TITLE));
        term_put_raw(r->y, r->x, r->w, cut, term_attr(AT_TITLE));
        return;
    }
    size_t used = (size_t)snprintf(left, sizeof left, " mtlbx ");
    for (uint32_t i = 0; i < ex->n_files && used < sizeof left; i++) {
        const char *b = base_name(ex->files[i].path);
        char *safe = mtlbx_escape_dup((const uint8_t *)b, strlen(b), MTLBX_ESC_TERMINAL);
        used += (size_t)snprintf(left + used, sizeof left - used, "%s%s", i ? " | " : " ", safe ? safe : "?");
        free(safe);
    }
    /* Counting the errors decodes every function's metadata (a second on
     * 200,000 functions): not before the first frame, but with the byte
     * layout, once the keyboard is first quiet. */
    size_t done, total, bad = hasher_mismatch_count(ex->hasher), errors = ex->layout_done ? error_count(ex) : 0;
    hasher_progress(ex->hasher, &done, &total);
    size_t rn = 0;
    if (bad)
        rn += (size_t)snprintf(right + rn, sizeof right - rn, "%zu hash %s, ", bad, mtlbx_noun(bad, "mismatch", "mismatches"));
    if (errors && rn < sizeof right)
        rn += (size_t)snprintf(right + rn, sizeof right - rn, "%zu %s, ", errors, mtlbx_noun(errors, "error", "errors"));
    /* After the hashes, the interface sweep: until it is through, a search
     * by argument name or type sees only the functions it has read. */
    size_t i_done, i_total;
    ifacer_progress(ex->ifacer, &i_done, &i_total);
    char sweep[64] = "";
    if (i_total && i_done < i_total)
        snprintf(sweep, sizeof sweep, ", interfaces %zu/%zu", i_done, i_total);
    if (total && done < total && rn < sizeof right)
        snprintf(right + rn, sizeof right - rn, "checking hashes %zu/%zu ", done, total);
    else if (total && rn < sizeof right)
        snprintf(right + rn, sizeof right - rn, "%zu %s, hashes checked%s ", total,
                 mtlbx_noun(total, "function", "functions"), sweep);
    else if (rn >= 2)
        right[rn - 2] = ' ', right[rn - 1] = '\0';
    int rw = textfmt_width(right);
    if (rw > r->w - 12)
        rw = 0, right[0] = '\0';     /* too narrow: the names matter more */
    int lw = r->w - rw - (rw ? 2 : 0);
    rowfmt_cut_middle(left, lw, rowfmt_ellipsis(term_ascii()), cut, sizeof cut);
    term_fill(r->y, r->x, r->w, term_attr(AT_TITLE));
    term_put_raw(r->y, r->x, lw, cut, term_attr(AT_TITLE));
    if (rw)
        term_put_raw(r->y, r->x + r->w - rw, rw, right, term_attr(AT_TITLE));
}

/* In the byte explorer, a selection too long for the status line is
 * also shown whole on up to this many lines just above it (over the
 * panels' last rows), so a long name is readable without the status line
 * ever wrapping into the key bar. */
#define SELECTION_LINES_MAX 3

static void draw_selection_whole(struct explorer *ex, const char *info)
{
    const struct rect *r = &ex->lay.status;
    size_t starts[SELECTION_LINES_MAX + 1];
    int n = wrap_text(info, r->w, starts, SELECTION_LINES_MAX);
    int y = r->y - n;
    for (int i = 0; i < n; i++, y++) {
        if (y < 1)
            continue;
        char piece[1300];
        term_put(y, r->x, r->w, wrap_line(info, starts, i, piece, sizeof piece), term_attr(AT_STATUS), 0);
    }
}

/* One line, never wrapped: the message first (an error highlighted on
 * its own), then what the view says of its selection, cut at its end.
 * The function views show a whole long name in their body. */
static void draw_status(struct explorer *ex)
{
    const struct rect *r = &ex->lay.status;
    char info[700] = "";
    const struct view_ops *v = view_of(ex->screen);
    if (v->status)
        v->status(ex, info, sizeof info);
    if (job_running(ex)) {
        /* The job's progress is the message while it runs. */
        job_progress_text(ex, ex->status, sizeof ex->status);
        ex->status_error = false;
    }
    char line[1300], cut[1300];
    if (ex->status[0])
        snprintf(line, sizeof line, "%s%s%s", ex->status, info[0] ? "  | " : "", info);
    else
        snprintf(line, sizeof line, "%s", info);
    rowfmt_cut(line, r->w, rowfmt_ellipsis(term_ascii()), cut, sizeof cut);
    if (ex->screen == SCREEN_MAIN && textfmt_width(info) > r->w)
        draw_selection_whole(ex, info);
    term_put(r->y, r->x, r->w, cut, term_attr(ex->status_error ? AT_STATUS_ERROR : AT_STATUS), 0);
    if (ex->status_error && ex->status[0]) {
        /* Only the message itself is highlighted. */
        term_put(r->y, r->x, r->w, cut, A_NORMAL, 0);
        rowfmt_cut(ex->status, r->w, rowfmt_ellipsis(term_ascii()), line, sizeof line);
        term_put_raw(r->y, r->x, r->w, line, term_attr(AT_STATUS_ERROR));
    }
}

/* The keys the current view offers; the byte explorer's depend on the
 * focused panel. */
static unsigned current_context(const struct explorer *ex)
{
    if (ex->screen == SCREEN_MAIN)
        return ex->focus == PANEL_DETAIL ? KC_DETAIL : ex->focus == PANEL_HEX ? KC_HEX : KC_TREE;
    return view_of(ex->screen)->keys;
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

static void draw_frame(struct explorer *ex)
{
    erase();
    if (ex->lay.too_small) {
        draw_too_small(ex);
        refresh();
        return;
    }
    draw_title(ex);
    view_of(ex->screen)->draw(ex);
    draw_status(ex);
    draw_footer(ex);
    refresh();
}

/* ------------------------------------------------------------- input -- */

static void open_help(struct explorer *ex)
{
    if (ex->screen == SCREEN_TEXT && ex->text.title && strcmp(ex->text.title, "Help") == 0)
        return;
    char *help = keys_help_text(current_context(ex));
    if (!help)
        return;
    enum ex_screen from = ex->screen == SCREEN_TEXT ? ex->text_return : ex->screen;
    if (ex->screen == SCREEN_TEXT)
        textview_close(ex);
    textview_open(ex, "Help", help, strlen(help), "mtlbx-keys.txt");
    ex->text_return = from;
    free(help);
}

/* Moves a count repeats (5j); a count before G or g goes to that row. */
static bool countable(enum action a)
{
    switch (a) {
    case ACT_DOWN: case ACT_UP: case ACT_LEFT: case ACT_RIGHT:
    case ACT_PAGE_DOWN: case ACT_PAGE_UP: case ACT_HALF_DOWN: case ACT_HALF_UP:
    case ACT_NEXT_SIBLING: case ACT_PREV_SIBLING: case ACT_NEXT_FUNCTION: case ACT_PREV_FUNCTION:
    case ACT_SEARCH_NEXT: case ACT_SEARCH_PREV: case ACT_NEXT_PROBLEM: case ACT_PREV_PROBLEM:
        return true;
    default:
        return false;
    }
}

#define COUNT_MAX 100000

/* Digits build a count. 1, 2 and 3 focus a panel, so they start a count
 * only in the panel they would focus (10G in the tree still works). */
static bool take_count_digit(struct explorer *ex, int key)
{
    if (key < '0' || key > '9')
        return false;
    if (!ex->count) {
        if (key == '0')
            return false;
        if (ex->screen == SCREEN_MAIN && key <= '3' && (enum panel_id)(key - '1') != ex->focus)
            return false;
    }
    ex->count = ex->count * 10 + (size_t)(key - '0');
    if (ex->count > COUNT_MAX)
        ex->count = COUNT_MAX;
    ex_message(ex, "count %zu", ex->count);
    return true;
}

static void dispatch(struct explorer *ex, enum action a)
{
    view_of(ex->screen)->action(ex, a);
}

/* 10G: row 10 of the tree (line 10 of the text view). */
static void go_to_row(struct explorer *ex, size_t n)
{
    if (ex->screen == SCREEN_MAIN && ex->focus == PANEL_TREE) {
        tree_set_selection(ex, n - 1);
    } else {
        dispatch(ex, ACT_TOP);
        for (size_t i = 1; i < n; i++)
            dispatch(ex, ACT_DOWN);
    }
}

static void handle_key(struct explorer *ex, int key)
{
    if (ex->lay.too_small) {
        if (key == 'q' || key == 'Q')
            ex->quit = true;
        return;
    }
    if (key == KEY_MOUSE) {
        mouse_event(ex);
        return;
    }
    ex->status[0] = '\0';
    if (take_count_digit(ex, key))
        return;
    size_t count = ex->count;
    ex->count = 0;
    unsigned ctx = current_context(ex);
    enum action a = key_lookup(ctx, key);
    if (count && (a == ACT_TOP || a == ACT_BOTTOM)) {
        go_to_row(ex, count);
        return;
    }
    if (count > 1 && countable(a)) {
        for (size_t i = 1; i < count; i++)
            dispatch(ex, a);
    }
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
    case ACT_COPY:
        /* In the function views, the function's node is what is copied. */
        if (ex->screen == SCREEN_FUNCTIONS || ex->screen == SCREEN_PAGE) {
            const struct ft_row *row = ftable_row(&ex->funcs, ex->funcs.sel);
            if (row)
                bytes_select_function(ex, ftable_row_lib(&ex->funcs, row), row->index);
        }
        clipboard_copy(ex);
        return;
    default: break;
    }
    dispatch(ex, a);
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
    return (fn >= 0 && mtlbx_function_interface_cached(ex_model_of(ex, n->lib), n->lib, (size_t)fn, NULL, NULL) ==
                           MTLBX_IFACE_NOT_DECODED) ||
           page_waiting(ex);
}

static void run(struct explorer *ex)
{
    bool dirty = true, keyboard_quiet = false;
    while (!ex->quit) {
        size_t done, total;
        uint64_t t0 = keylog_now_us(), w0 = term_waited_us();
        if (job_poll(ex)) {
            dirty = true;
            ex_draw(ex);
            keylog_record("job-done", t0, term_waited_us() - w0);
        }
        hasher_progress(ex->hasher, &done, &total);
        if (done != ex->hash_done_seen) {
            ex->hash_done_seen = done;
            dirty = true;
            /* Mismatches found in the background add a Diagnostics node to
             * their library: show it once the checks are done. */
            if (done == total)
                refresh_libraries(ex);
        }
        size_t i_done, i_total;
        ifacer_progress(ex->ifacer, &i_done, &i_total);
        if (i_done != ex->iface_done_seen) {
            ex->iface_done_seen = i_done;
            dirty = true;
        }
        size_t kept = ifacer_kept_count(ex->ifacer);
        if (kept != ex->iface_kept_seen) {
            ex->iface_kept_seen = kept;
            refresh_interface_rows(ex);
            dirty = true;
        }
        /* The folder scan adds rows and counts: show them as they come. */
        bool scanning = folder_scanning(ex);
        if (ex->folder.scan && (scanning || ex->folder.was_scanning)) {
            ex->folder.was_scanning = scanning;
            dirty = true;
        }
        if (dirty || job_running(ex)) {
            ex_draw(ex);
            folder_after_frame(ex);
        }
        dirty = false;
        if (!ex->layout_done && keyboard_quiet) {
            /* Which bytes no structure claims (hex style, `u`) and its
             * findings: after the first frame, so a big library opens at
             * once, and once no key is waiting, so the first keys are not
             * held up (50 ms on 20,000 functions, 0.4 s on 200,000; `u`
             * walks it at once if asked first). */
            for (uint32_t i = 0; i < ex->n_files; i++)
                ex_file_layout(&ex->files[i]);
            ex->layout_done = true;
            refresh_libraries(ex);
            ex_draw(ex);
        }
        wint_t wide;
        bool busy = (total && done < total) || i_done < i_total || waiting_for_interface(ex) || scanning;
        int wait = job_running(ex) ? JOB_POLL_MS : busy ? HASH_POLL_MS : -1;
        if (!ex->layout_done && (wait < 0 || wait > LAYOUT_IDLE_MS))
            wait = LAYOUT_IDLE_MS;
        /* A worker may walk the model only while we wait for a key. */
        job_model_ui_leave();
        int key = term_read_key(wait, &wide);
        job_model_ui_enter();
        keyboard_quiet = key == ERR;
        if (key == ERR)
            continue;
        if (key == TERM_KEY_GONE) {
            ex->quit = true; /* like Q: nobody is left to type one */
            break;
        }
        t0 = keylog_now_us();
        w0 = term_waited_us();
        dirty = true;
        if (key == KEY_RESIZE) {
            bytes_relayout(ex);
        } else if (job_running(ex) && (key == 27 || key == CTRL('C'))) {
            job_cancel(ex);
        } else {
            handle_key(ex, key);
        }
        ex_draw(ex);
        dirty = false;
        char name[32];
        keylog_record(key_display_name(key, name, sizeof name), t0, term_waited_us() - w0);
    }
}

/* ------------------------------------------------------------- setup -- */

static void free_all(struct explorer *ex)
{
    job_cancel(ex);
    search_results_free(&ex->search);
    funcview_reset(&ex->fview);
    hasher_stop(ex->hasher);
    ex->hasher = NULL;
    ifacer_stop(ex->ifacer);
    ex->ifacer = NULL;
    detail_free(&ex->detail);
    members_free(&ex->members);
    page_free(&ex->page);
    ftable_free(&ex->funcs);
    action_ir_cache_free(ex);
    if (ex->screen == SCREEN_TEXT)
        textview_close(ex);
    compare_free(ex);
    rows_free(&ex->rows);
    /* The models before the files: the folder scan and a release pair
     * close theirs below. */
    for (uint32_t i = 0; i < ex->n_files; i++)
        ex_file_release(&ex->files[i]);
    folder_free(ex);
    release_free(ex);
    for (uint32_t i = 0; i < ex->n_files; i++)
        mtlbx_close(ex->files[i].f);
    free(ex->files);
    free(ex->llvm_dis);
}

int explorer_main(int n_paths, char *const *paths, const struct explorer_options *opts)
{
    static const struct explorer_options defaults = { false, false, NULL, false };
    struct explorer ex;
    memset(&ex, 0, sizeof ex);
    ex.opts = opts ? opts : &defaults;
    ex.focus = PANEL_TREE;
    ex.zoom = PANEL_NONE;
    ex.repaint = draw_frame;
    ex.build_tree = tree_init;
    setlocale(LC_ALL, "");

    ex.files = calloc(n_paths > 0 ? (size_t)n_paths : 1, sizeof *ex.files);
    if (!ex.files)
        return 2;
    char first_error[400] = "";
    bool folders = folder_open(&ex, paths, n_paths);
    for (int i = 0; i < n_paths && !folders; i++) {
        struct mtlbx_error err;
        mtlbx_file *f = NULL;
        if (open_any(paths[i], &f, &err) != MTLBX_E_NONE || !f) {
            fprintf(stderr, "mtlbx: %s: %s\n", paths[i], err.message);
            if (!first_error[0])
                snprintf(first_error, sizeof first_error, "%s: %s", paths[i], err.message);
            continue;
        }
        if (!ex_file_open(&ex.files[ex.n_files], f, paths[i])) {
            fprintf(stderr, "mtlbx: %s: out of memory\n", paths[i]);
            mtlbx_close(f);
            continue;
        }
        ex.n_files++;
    }
    if (ex.n_files == 0 && !folders) {
        free(ex.files);
        return 2;
    }
    char names[512] = "";
    for (uint32_t i = 0; i < ex.n_files; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? " or " : "", ex.files[i].path);
    for (int i = 0; folders && i < n_paths; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%sa file under %s", i ? " or " : "", paths[i]);
    term_set_file_names(names);

    char why[256];
    if (!term_init(ex.opts->no_color, ex.opts->ascii, why, sizeof why)) {
        fprintf(stderr, "mtlbx: %s\n", why);
        free_all(&ex);
        return 2;
    }
    layout_compute(LINES, COLS, ex.zoom, &ex.lay);
    mouse_init(&ex);

    size_t n_libs = 0;
    for (uint32_t i = 0; i < ex.n_files; i++)
        n_libs += mtlbx_file_library_count(ex.files[i].f);
    mtlbx_library **libs = calloc(n_libs ? n_libs : 1, sizeof *libs);
    if (libs) {
        size_t k = 0;
        for (uint32_t i = 0; i < ex.n_files; i++)
            for (size_t l = 0; l < mtlbx_file_library_count(ex.files[i].f); l++)
                if (mtlbx_library_at(ex.files[i].f, l))
                    libs[k++] = mtlbx_library_at(ex.files[i].f, l);
        ex.hasher = hasher_start(libs, k);
        ex.ifacer = ifacer_start(libs, k);
        free(libs);
    }

    if (!folders) {
        functions_home(&ex);
    }
    if (first_error[0])
        ex_error(&ex, "could not open %s", first_error);
    else if (folders)
        ex_message(&ex, "? shows every key; Enter opens a library, Esc stops the scan, q quits");
    else
        ex_message(&ex, ex.screen == SCREEN_FUNCTIONS
                            ? "? shows every key; Enter opens a function, / searches, b shows bytes, q quits"
                            : "? shows every key; Enter opens, e extracts, d disassembles, q quits");
    keylog_open();
    job_model_ui_enter();
    run(&ex);
    term_teardown();
    free_all(&ex);
    job_model_ui_leave();
    keylog_close();
    return 0;
}
