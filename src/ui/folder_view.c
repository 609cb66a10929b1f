/* The folder and archive list (`mtlbx DIR`, `mtlbx App.app`, `mtlbx
 * App.ipa`): one root per folder or archive named, the metallibs found
 * under it as children with their relative paths, filling in while the
 * background scan (folder_scan.c) runs. Enter parses the selected library
 * (an archive member is decompressed only then) and shows it in the three
 * panels exactly as `mtlbx FILE` would; F comes back here. Opened files
 * stay open, so going back and forth costs nothing. */
#include "config.h"

#include "archive_members.h"
#include "folder_scan.h"
#include "term.h"
#include "ui.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A row of the list: a root (entry == -1) or one entry. */
struct folder_row {
    uint32_t root;
    long entry;
};

/* The rows as they stand (the scan may have added entries since the last
 * call). Entries arrive root by root, so each root's run is contiguous. */
static struct folder_row *build_rows(struct folder_scan *s, size_t *n_rows)
{
    pthread_mutex_lock(&s->lock);
    size_t n = s->n + s->n_roots;
    struct folder_row *v = malloc((n ? n : 1) * sizeof *v);
    size_t k = 0, e = 0;
    for (uint32_t r = 0; v && r < s->n_roots; r++) {
        v[k++] = (struct folder_row){ r, -1 };
        for (; e < s->n && s->v[e].root == r; e++)
            v[k++] = (struct folder_row){ r, (long)e };
    }
    pthread_mutex_unlock(&s->lock);
    *n_rows = v ? k : 0;
    return v;
}

static int page_rows(const struct explorer *ex)
{
    int rows = ex->lay.body.h - 2;
    return rows > 0 ? rows : 1;
}

static void select_row(struct explorer *ex, long i, size_t n_rows)
{
    struct folder_view *f = &ex->folder;
    if (i >= (long)n_rows)
        i = (long)n_rows - 1;
    if (i < 0)
        i = 0;
    f->sel = (size_t)i;
    size_t page = (size_t)page_rows(ex);
    if (f->sel < f->top)
        f->top = f->sel;
    else if (f->sel >= f->top + page)
        f->top = f->sel - page + 1;
}

bool folder_scanning(const struct explorer *ex)
{
    return ex->folder.scan && !atomic_load(&ex->folder.scan->done);
}

void folder_after_frame(struct explorer *ex)
{
    if (ex->folder.scan)
        folder_scan_begin(ex->folder.scan);
}

/* ------------------------------------------------------------ opening -- */

/* Shows `file` in the three panels in place of whatever was there, as
 * `mtlbx FILE` starts: same tree, selection, hashing. */
static void show_file(struct explorer *ex, mtlbx_file *file, const char *path)
{
    hasher_stop(ex->hasher);
    ex->hasher = NULL;
    ex->hash_done_seen = 0;
    detail_free(&ex->detail);
    memset(&ex->detail, 0, sizeof ex->detail);
    rows_free(&ex->rows);
    ex->tree_sel = ex->tree_top = 0;
    ex->n_history = 0;
    ex->hex.file = 0;
    ex->hex.cursor = ex->hex.top = 0;
    ex->files[0] = (struct ex_file){ file, path, mtlbx_root(file) };
    ex->n_files = 1;
    size_t n_libs = mtlbx_library_count(file);
    mtlbx_library **libs = calloc(n_libs ? n_libs : 1, sizeof *libs);
    if (libs) {
        for (size_t l = 0; l < n_libs; l++)
            libs[l] = mtlbx_library_at(file, l);
        ex->hasher = hasher_start(libs, n_libs);
        free(libs);
    }
    ex->screen = SCREEN_MAIN;
    ex->focus = PANEL_TREE;
    tree_init(ex);
    functions_home(ex);
}

static void open_entry(struct explorer *ex, size_t index)
{
    struct folder_scan *s = ex->folder.scan;
    pthread_mutex_lock(&s->lock);
    struct folder_entry e = s->v[index];
    pthread_mutex_unlock(&s->lock);
    char *label = mtlbx_escape_dup((const uint8_t *)e.label, strlen(e.label), MTLBX_ESC_TERMINAL);
    if (e.problem) {
        char *why = mtlbx_escape_dup((const uint8_t *)e.problem, strlen(e.problem), MTLBX_ESC_TERMINAL);
        ex_error(ex, "%s: %s", label ? label : "?", why ? why : "?");
        free(why);
        free(label);
        return;
    }
    if (!e.file) {
        ex_message(ex, "opening %s...", label ? label : "?");
        ex_draw(ex);
        struct mtlbx_error err;
        if (open_any(e.open_path, &e.file, &err) != MTLBX_OK || !e.file) {
            ex_error(ex, "%s: %s", label ? label : "?", err.message);
            free(label);
            return;
        }
        e.functions = 0;
        for (size_t l = 0; l < mtlbx_library_count(e.file); l++)
            e.functions += mtlbx_function_count(mtlbx_library_at(e.file, l));
        pthread_mutex_lock(&s->lock);
        s->v[index].file = e.file;
        s->v[index].functions = e.functions;
        pthread_mutex_unlock(&s->lock);
    }
    show_file(ex, e.file, e.open_path);
    ex_message(ex, "%s: %zu functions; F goes back to the list", label ? label : "?", e.functions);
    free(label);
}

/* ------------------------------------------------------------ actions -- */

static void search(struct explorer *ex, bool forward, const struct folder_row *rows, size_t n)
{
    struct folder_view *f = &ex->folder;
    if (!f->have_query || !n)
        return;
    struct folder_scan *s = f->scan;
    for (size_t k = 1; k <= n; k++) {
        size_t i = forward ? (f->sel + k) % n : (f->sel + n - k % n) % n;
        if (rows[i].entry < 0)
            continue;
        pthread_mutex_lock(&s->lock);
        bool hit = query_label_matches(&f->query, s->v[rows[i].entry].label);
        pthread_mutex_unlock(&s->lock);
        if (hit) {
            select_row(ex, (long)i, n);
            return;
        }
    }
    ex_error(ex, "no path matches %s", f->query.text);
}

void folder_action(struct explorer *ex, enum action a)
{
    struct folder_view *f = &ex->folder;
    size_t n;
    struct folder_row *rows = build_rows(f->scan, &n);
    if (!rows)
        return;
    long page = page_rows(ex);
    switch (a) {
    case ACT_QUIT: ex->quit = true; break;
    case ACT_DOWN: select_row(ex, (long)f->sel + 1, n); break;
    case ACT_UP: select_row(ex, (long)f->sel - 1, n); break;
    case ACT_PAGE_DOWN: select_row(ex, (long)f->sel + page, n); break;
    case ACT_PAGE_UP: select_row(ex, (long)f->sel - page, n); break;
    case ACT_HALF_DOWN: select_row(ex, (long)f->sel + page / 2, n); break;
    case ACT_HALF_UP: select_row(ex, (long)f->sel - page / 2, n); break;
    case ACT_TOP: select_row(ex, 0, n); break;
    case ACT_BOTTOM: select_row(ex, (long)n - 1, n); break;
    case ACT_CANCEL:
        if (folder_scanning(ex)) {
            folder_scan_cancel(f->scan);
            ex_message(ex, "scan stopped; what was found stays listed");
        } else {
            ex_message(ex, "the scan is over");
        }
        break;
    case ACT_ENTER:
        if (f->sel < n && rows[f->sel].entry >= 0)
            open_entry(ex, (size_t)rows[f->sel].entry);
        else
            ex_message(ex, "select a library below the folder to open it");
        break;
    case ACT_SEARCH: {
        char q[QUERY_MAX], why[128];
        if (!prompt_line(ex, "Search paths", f->have_query ? f->query.text : "", q, sizeof q))
            break;
        if (!query_parse(q, false, &f->query, why, sizeof why)) {
            ex_error(ex, "%s", why);
            break;
        }
        f->have_query = true;
        search(ex, true, rows, n);
        break;
    }
    case ACT_SEARCH_NEXT: search(ex, true, rows, n); break;
    case ACT_SEARCH_PREV: search(ex, false, rows, n); break;
    default: break;
    }
    free(rows);
}

void folder_back(struct explorer *ex)
{
    if (!ex->folder.scan) {
        ex_message(ex, "F goes back to the folder list when a folder or archive was opened");
        return;
    }
    ex->screen = SCREEN_FOLDER;
}

/* ------------------------------------------------------------ drawing -- */

static void progress_text(const struct explorer *ex, char *buf, size_t size)
{
    struct folder_scan *s = ex->folder.scan;
    char files[32], libs[32];
    size_t found = atomic_load(&s->progress.metallibs) + atomic_load(&s->members);
    size_t problems = atomic_load(&s->progress.problems);
    /* Stopped as soon as Esc asks: the walker may take a moment to see it. */
    const char *state = s->cancel ? "scan stopped:" : !atomic_load(&s->done) ? "scanning..." : "scanned";
    size_t files_seen = atomic_load(&s->progress.files);
    int n = snprintf(buf, size, "%s %s %s, %s %s", state, mtlbx_format_count(files, sizeof files, files_seen),
                     mtlbx_noun(files_seen, "file", "files"), mtlbx_format_count(libs, sizeof libs, found),
                     mtlbx_noun(found, "metallib", "metallibs"));
    if (problems && n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, ", %zu unreadable", problems);
}

static void draw_row(struct explorer *ex, int y, const struct folder_row *row, bool selected)
{
    struct folder_scan *s = ex->folder.scan;
    const struct rect *r = &ex->lay.body;
    char line[1400];
    attr_t attr = selected ? term_attr(AT_SELECT) : A_NORMAL;
    if (row->entry < 0) {
        const char *root = s->roots[row->root];
        char *safe = mtlbx_escape_dup((const uint8_t *)root, strlen(root), MTLBX_ESC_TERMINAL);
        snprintf(line, sizeof line, "%s %.1200s", term_ascii() ? "v" : "\u25be", safe ? safe : "?");
        free(safe);
        term_put(y, r->x, r->w, line, selected ? attr : term_attr(AT_HEADING), 0);
        return;
    }
    pthread_mutex_lock(&s->lock);
    const struct folder_entry *e = &s->v[row->entry];
    char *label = mtlbx_escape_dup((const uint8_t *)e->label, strlen(e->label), MTLBX_ESC_TERMINAL);
    char *problem = e->problem ? mtlbx_escape_dup((const uint8_t *)e->problem, strlen(e->problem),
                                                  MTLBX_ESC_TERMINAL) : NULL;
    uint64_t size = e->size;
    bool parsed = e->file != NULL;
    size_t functions = e->functions;
    pthread_mutex_unlock(&s->lock);
    if (problem) {
        snprintf(line, sizeof line, "  %12s  %9s  %.600s: %.500s", "", "", label ? label : "?", problem);
        if (!selected)
            attr = term_attr(AT_BAD);
    } else {
        char fn[32] = "-";
        if (parsed)
            snprintf(fn, sizeof fn, "%zu", functions);
        snprintf(line, sizeof line, "  %12" PRIu64 "  %9s  %.1200s", size, fn, label ? label : "?");
    }
    free(label);
    free(problem);
    term_put(y, r->x, r->w, line, attr, 0);
}

void folder_draw(struct explorer *ex)
{
    struct folder_view *f = &ex->folder;
    const struct rect *r = &ex->lay.body;
    char title[300], progress[160];
    progress_text(ex, progress, sizeof progress);
    snprintf(title, sizeof title, " Folders and archives: %s%s", progress,
             folder_scanning(ex) ? "   Esc stops the scan" : "");
    term_put(r->y, r->x, r->w, title, term_attr(AT_PANEL_TITLE_FOCUS), 0);
    term_put(r->y + 1, r->x, r->w, "          size  functions  path", A_BOLD, 0);
    size_t n;
    struct folder_row *rows = build_rows(f->scan, &n);
    if (!rows)
        return;
    select_row(ex, (long)f->sel, n);
    int page = page_rows(ex);
    for (int k = 0; k < page && f->top + (size_t)k < n; k++)
        draw_row(ex, r->y + 2 + k, &rows[f->top + (size_t)k], f->top + (size_t)k == f->sel);
    free(rows);
}

/* ------------------------------------------------------------- set-up -- */

bool folder_open(struct explorer *ex, char *const *paths, int n_paths)
{
    bool any = false;
    for (int i = 0; i < n_paths && !any; i++)
        any = folder_scan_wants(paths[i]);
    if (!any)
        return false;
    ex->folder.scan = folder_scan_new(paths, (uint32_t)n_paths);
    if (!ex->folder.scan)
        return false;
    ex->screen = SCREEN_FOLDER;
    /* Start on the first library rather than the root's heading. */
    ex->folder.sel = 1;
    return true;
}

void folder_free(struct explorer *ex)
{
    if (!ex->folder.scan)
        return;
    /* The files shown in the panels belong to the scan's entries. */
    ex->n_files = 0;
    folder_scan_free(ex->folder.scan);
    ex->folder.scan = NULL;
}
