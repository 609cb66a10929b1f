/* The folder and archive list (`mtlbx DIR`, `mtlbx App.app`, `mtlbx
 * App.ipa`): one root per folder or archive named, the metallibs found
 * under it as children with their relative paths, filling in while the
 * background scan (folder_scan.c) runs. Enter parses the selected library
 * (an archive member is decompressed only then) and shows it in the three
 * panels exactly as `mtlbx FILE` would; F comes back here. Opened files
 * stay open, so going back and forth costs nothing.
 *
 * The list is a survey table, as `mtlbx find` prints: a background pass
 * (folder_survey.c) fills each library's function count, container
 * version, target, MSL range and problems, then indexes function,
 * argument and type names, so that `/` finds which library takes
 * GEMMParams. S sorts by each column in turn. */
#include "config.h"

#include "ui/views/folder/folder_view.h"
#include "gate/archive_members.h"
#include "ui/core/core.h"
#include "ui/core/job.h"
#include "ui/term/term.h"
#include "ui/text/query.h"
#include "ui/text/rowfmt.h"
#include "ui/text/textfmt.h"
#include "ui/widgets/list.h"
#include "ui/widgets/prompt.h"
#include "ui/widgets/search.h"
#include "ui/work/folder_scan.h"
#include "container/file.h"
#include "container/functions.h"
#include "container/nouns.h"
#include "container/digits.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

/* A row of the list: a root (entry == -1) or one entry. */
struct folder_row {
    uint32_t root;
    long entry;
};

/* The columns S sorts by, in the order it cycles through them. */
enum folder_sort {
    FSORT_FOUND, FSORT_SIZE, FSORT_FUNCTIONS, FSORT_VERSION, FSORT_TARGET, FSORT_MSL, FSORT_PROBLEMS, FSORT_PATH,
    FSORT_COUNT
};
static const char *const sort_names[FSORT_COUNT] = {
    "the order found", "size", "functions", "container version", "target", "MSL version", "problems", "path",
};

/* The view's private block; the scan itself is the explorer's (the
 * release compare and the title read it too). */
struct folder_view {
    struct list list;
    bool was_scanning;           /* one more frame when the scan ends */
    int sort;                    /* S: the column rows are sorted by */
    size_t search_entry;         /* the entry the last / or n stopped on */
};

static struct folder_view *state(struct explorer *ex)
{
    return view_state(ex, VIEW_FOLDER);
}

/* What a sort compares: the entries (read under the scan's lock) and the
 * column. */
struct sort_ctx {
    const struct folder_entry *entries;
    int column;
};

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
    return (a < b) - (a > b);
}

static int by_column(const void *x, const void *y, void *ctx)
{
    const struct sort_ctx *sc = ctx;
    const struct folder_row *p = x, *q = y;
    const struct folder_entry *a = &sc->entries[p->entry], *b = &sc->entries[q->entry];
    int c = 0;
    switch (sc->column) {
    case FSORT_SIZE: c = cmp_u64_desc(a->size, b->size); break;
    case FSORT_FUNCTIONS: c = cmp_u64_desc(a->functions, b->functions); break;
    case FSORT_VERSION: c = strverscmp(b->version, a->version); break;
    case FSORT_TARGET: c = strcmp(a->target, b->target); break;
    case FSORT_MSL: c = strverscmp(b->msl, a->msl); break;
    case FSORT_PROBLEMS: c = cmp_u64_desc(a->problems + (a->problem != NULL), b->problems + (b->problem != NULL)); break;
    case FSORT_PATH: c = strcmp(a->label, b->label); break;
    default: break;
    }
    return c ? c : (p->entry > q->entry) - (p->entry < q->entry);
}

/* The rows as they stand (the scan may have added entries since the last
 * call). Entries arrive root by root, so each root's run is contiguous;
 * S sorts each run by a column. */
static struct folder_row *build_rows(struct explorer *ex, size_t *n_rows)
{
    struct folder_scan *s = ex->scan;
    pthread_mutex_lock(&s->lock);
    size_t n = s->n + s->n_roots;
    struct folder_row *v = malloc((n ? n : 1) * sizeof *v);
    size_t k = 0, e = 0;
    struct sort_ctx sc = { s->v, state(ex)->sort };
    for (uint32_t r = 0; v && r < s->n_roots; r++) {
        v[k++] = (struct folder_row){ r, -1 };
        size_t first = k;
        for (; e < s->n && s->v[e].root == r; e++)
            v[k++] = (struct folder_row){ r, (long)e };
        if (sc.column != FSORT_FOUND)
            qsort_r(v + first, k - first, sizeof *v, by_column, &sc);
    }
    pthread_mutex_unlock(&s->lock);
    *n_rows = v ? k : 0;
    return v;
}

/* The row showing entry `entry`, or n when it is not listed. */
static size_t row_of_entry(const struct folder_row *rows, size_t n, size_t entry)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i].entry == (long)entry)
            return i;
    return n;
}

/* The walk or the survey is still running. */
static bool scanning(const struct explorer *ex)
{
    return ex->scan && (!atomic_load(&ex->scan->done) || !atomic_load(&ex->scan->survey_done));
}

static void folder_title(struct explorer *ex, char *buf, size_t size)
{
    folder_scan_title(ex->scan, buf, size);
}

/* The scan starts once the first frame is out (so it never delays it);
 * while it runs, each turn draws what it has found. */
static bool folder_tick(struct explorer *ex, bool *busy)
{
    struct folder_view *f = state(ex);
    if (ex->frames)
        folder_scan_begin(ex->scan);
    bool now = scanning(ex), changed = now || f->was_scanning;
    f->was_scanning = now;
    if (now)
        *busy = true;
    return changed;
}

/* ------------------------------------------------------------ opening -- */

static void open_entry(struct explorer *ex, size_t index)
{
    struct folder_scan *s = ex->scan;
    pthread_mutex_lock(&s->lock);
    struct folder_entry e = s->v[index];
    pthread_mutex_unlock(&s->lock);
    char *label = textfmt_escape_str_dup(e.label);
    if (e.problem) {
        char *why = textfmt_escape_str_dup(e.problem);
        ex_error(ex, "%s: %s", label ? label : "?", why ? why : "?");
        free(why);
        free(label);
        return;
    }
    if (!e.file) {
        ex_message(ex, "opening %s...", label ? label : "?");
        ex_draw(ex);
        struct mtlbx_error err;
        if (mbx_open_any(e.open_path, &e.file, &err) != MTLBX_E_NONE || !e.file) {
            ex_error(ex, "%s: %s", label ? label : "?", err.message);
            free(label);
            return;
        }
        e.functions = 0;
        for (size_t l = 0; l < mbx_file_library_count(e.file); l++)
            e.functions += mbx_library_function_count(mbx_library_at(e.file, l));
        pthread_mutex_lock(&s->lock);
        s->v[index].file = e.file;
        s->v[index].functions = e.functions;
        pthread_mutex_unlock(&s->lock);
    }
    const char *path = e.open_path;
    ex_show_files(ex, &e.file, &path, 1);
    if (open_home(ex, NULL))
        ex_message(ex, "%s: %zu functions; q or F goes back to the list", label ? label : "?", e.functions);
    free(label);
}

/* ------------------------------------------------------------ actions -- */

/* The first line of `index` holding the query, copied into `what`. */
static bool index_hit(const struct query *q, const char *index, char *what, size_t size)
{
    if (!index)
        return false;
    for (const char *line = index; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (textfmt_find((const uint8_t *)line, len, q->text) >= 0) {
            snprintf(what, size, "%.*s", (int)(len < 400 ? len : 400), line);
            return true;
        }
        line += len + (end ? 1 : 0);
    }
    return false;
}

/* Whether entry i matches (its path, or a line of its index): `what`
 * gets the line. Under the scan's lock. */
static bool entry_hit(const struct query *q, const struct folder_entry *e, char *what, size_t size)
{
    return query_label_matches(q, e->label) || index_hit(q, e->index, what, size);
}

/* A search that finds nothing while the survey is still indexing waits
 * for it on the job worker, and looks again as soon as an entry indexed
 * meanwhile matches or the index is whole, so that `/` finds what the
 * folder holds, not what was indexed when the key was pressed. */
struct index_wait {
    struct folder_scan *s;
    struct query q;
    bool forward;
    bool found;
};

static void wait_work(struct job *j)
{
    struct index_wait *w = j->ctx;
    size_t checked = 0;
    for (;;) {
        bool whole = atomic_load(&w->s->survey_done);
        size_t indexed = atomic_load(&w->s->indexed);
        job_set_progress(j, indexed, atomic_load(&w->s->progress.metallibs) + atomic_load(&w->s->members));
        char what[8];
        pthread_mutex_lock(&w->s->lock);
        for (; checked < indexed && checked < w->s->n && !w->found; checked++)
            w->found = entry_hit(&w->q, &w->s->v[checked], what, sizeof what);
        pthread_mutex_unlock(&w->s->lock);
        if (w->found || whole || job_cancelled(j))
            return;
        nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
    }
}

static bool search(struct explorer *ex, const struct query *q, bool forward, const struct folder_row *rows, size_t n);

static void wait_finish(struct explorer *ex, struct job *j, bool cancelled)
{
    struct index_wait *w = j->ctx;
    if (cancelled) {
        ex_message(ex, "search cancelled");
    } else {
        size_t n;
        struct folder_row *rows = build_rows(ex, &n);
        if (rows) {
            state(ex)->list.n = n;
            search(ex, &w->q, w->forward, rows, n);
        }
        free(rows);
    }
    free(w);
}

/* `/` in the folder list: the next library whose path, or one of whose
 * function names, argument names or argument types, holds the query
 * ("which library takes GEMMParams"). The status line says what matched;
 * while the index is not whole, a miss waits for it (wait_work). */
struct library_match {
    struct folder_scan *s;
    const struct folder_row *rows;
    const struct query *q;
    char what[420];              /* the index line that matched */
};

static bool library_matches(void *ctx, size_t i)
{
    struct library_match *lm = ctx;
    if (lm->rows[i].entry < 0)
        return false;
    lm->what[0] = '\0';
    pthread_mutex_lock(&lm->s->lock);
    bool hit = entry_hit(lm->q, &lm->s->v[lm->rows[i].entry], lm->what, sizeof lm->what);
    pthread_mutex_unlock(&lm->s->lock);
    return hit;
}

static bool search(struct explorer *ex, const struct query *q, bool forward, const struct folder_row *rows, size_t n)
{
    struct folder_view *f = state(ex);
    if (!n)
        return false;
    struct folder_scan *s = ex->scan;
    size_t libs = 0;
    for (size_t i = 0; i < n; i++)
        libs += rows[i].entry >= 0;
    size_t indexed = atomic_load(&s->indexed);
    bool partial = !atomic_load(&s->survey_done);
    struct library_match lm = { s, rows, q, "" };
    long i = search_rows(n, f->list.sel, forward, false, library_matches, &lm);
    if (i >= 0) {
        pthread_mutex_lock(&s->lock);
        const struct folder_entry *e = &s->v[rows[i].entry];
        char *label = textfmt_escape_str_dup(e->label);
        pthread_mutex_unlock(&s->lock);
        list_select(&f->list, i);
        f->search_entry = (size_t)rows[i].entry;
        if (lm.what[0])
            ex_message(ex, "%s: %s%s", label ? label : "?", lm.what,
                       partial ? "  (still indexing: n may find more)" : "");
        else
            ex_message(ex, "%s", label ? label : "?");
        free(label);
        return true;
    }
    if (partial) {
        struct index_wait *w = calloc(1, sizeof *w);
        if (w) {
            *w = (struct index_wait){ s, *q, forward, false };
            if (job_start(ex, "waiting for the name index", wait_work, wait_finish, w, false))
                return false;
            free(w);
        }
        ex_error(ex, "no library matches %s yet: %zu of %zu indexed so far", q->text, indexed, libs);
    } else {
        ex_error(ex, "no library matches %s (paths, function names, argument names and types)", q->text);
    }
    return false;
}

static bool folder_grep(struct explorer *ex, const struct query *q, bool fresh, bool forward)
{
    (void)fresh;
    struct folder_view *f = state(ex);
    size_t n;
    struct folder_row *rows = build_rows(ex, &n);
    if (!rows)
        return false;
    f->list.n = n;
    list_scroll(&f->list);
    bool found = search(ex, q, forward, rows, n);
    free(rows);
    return found;
}

static enum view_result folder_action(struct explorer *ex, enum action a)
{
    struct folder_view *f = state(ex);
    switch (a) {
    case ACT_COMPARE: open_view(ex, VIEW_RELEASE, NULL); return VIEW_HANDLED;
    case ACT_CANCEL:
        if (scanning(ex)) {
            folder_scan_cancel(ex->scan);
            ex_message(ex, "scan stopped; what was found stays listed");
        } else {
            ex_message(ex, "the scan is over");
        }
        return VIEW_HANDLED;
    case ACT_ENTER: case ACT_SORT:
        break;
    default: return VIEW_IGNORED;
    }
    size_t n;
    struct folder_row *rows = build_rows(ex, &n);
    if (!rows)
        return VIEW_HANDLED;
    f->list.n = n;
    list_scroll(&f->list);
    switch (a) {
    case ACT_ENTER:
        if (f->list.sel < n && rows[f->list.sel].entry >= 0)
            open_entry(ex, (size_t)rows[f->list.sel].entry);
        else
            ex_message(ex, "select a library below the folder to open it");
        break;
    case ACT_SORT: {
        /* Keep the selected library selected under the new order. */
        long entry = f->list.sel < n ? rows[f->list.sel].entry : -1;
        f->sort = (f->sort + 1) % FSORT_COUNT;
        free(rows);
        rows = build_rows(ex, &n);
        if (!rows)
            return VIEW_HANDLED;
        if (entry >= 0)
            list_select(&f->list, (long)row_of_entry(rows, n, (size_t)entry));
        ex_message(ex, "sorted by %s (S: next column)", sort_names[f->sort]);
        break;
    }
    default: break;
    }
    free(rows);
    return VIEW_HANDLED;
}

/* ------------------------------------------------------------ drawing -- */

static void progress_text(const struct explorer *ex, char *buf, size_t size)
{
    struct folder_scan *s = ex->scan;
    char files[32], libs[32];
    size_t found = atomic_load(&s->progress.metallibs) + atomic_load(&s->members);
    size_t problems = atomic_load(&s->progress.problems);
    /* Stopped as soon as Esc asks: the walker may take a moment to see it. */
    const char *state = s->cancel ? "scan stopped:" : !atomic_load(&s->done) ? "scanning..." : "scanned";
    size_t files_seen = atomic_load(&s->progress.files);
    int n = snprintf(buf, size, "%s %s %s, %s %s", state, mbx_format_count(files, sizeof files, files_seen),
                     mbx_noun(files_seen, "file", "files"), mbx_format_count(libs, sizeof libs, found),
                     mbx_noun(found, "metallib", "metallibs"));
    if (problems && n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, ", %zu unreadable", problems);
}

/* Columns of the table; the path takes what is left. Below WIDE_COLS
 * columns only size and functions come before the path, so that paths
 * stay readable at 80 and 100 columns (the others show when wider). */
#define WIDE_COLS 120
#define HEADER_WIDE "            size  functions  version  target          MSL       problems  path"
#define HEADER_NARROW "            size  functions  path"

/* A cell exactly `width` columns wide: a longer value (a fat file's
 * "1.2.5,1.2.7") ends in an ellipsis, so the columns after it stay in
 * line with their headings. */
static const char *fit_cell(const char *value, int width, char *out, size_t size)
{
    rowfmt_cut(value, width, rowfmt_ellipsis(term_ascii()), out, size);
    size_t len = strlen(out);
    for (int w = textfmt_width(out); w < width && len + 1 < size; w++)
        out[len++] = ' ';
    out[len] = '\0';
    return out;
}

static void draw_row(struct explorer *ex, int y, const struct folder_row *row, bool selected)
{
    struct folder_scan *s = ex->scan;
    const struct rect *r = &ex->lay.body;
    char line[1600];
    attr_t attr = selected ? term_attr(AT_SELECT) : A_NORMAL;
    if (row->entry < 0) {
        const char *root = s->roots[row->root];
        char *safe = textfmt_escape_str_dup(root);
        snprintf(line, sizeof line, "%s %.1200s", term_ascii() ? "v" : "\u25be", safe ? safe : "?");
        free(safe);
        term_put(y, r->x, r->w, line, selected ? attr : term_attr(AT_HEADING), 0);
        return;
    }
    pthread_mutex_lock(&s->lock);
    const struct folder_entry *e = &s->v[row->entry];
    char *label = textfmt_escape_str_dup(e->label);
    char *problem = e->problem ? textfmt_escape_str_dup(e->problem) : NULL;
    uint64_t size = e->size;
    bool known = e->file != NULL || e->surveyed, unreadable = e->unreadable && !e->file;
    size_t functions = e->functions, problems = e->problems;
    char version[40], target[64], msl[24];
    memcpy(version, e->version, sizeof version);
    memcpy(target, e->target, sizeof target);
    memcpy(msl, e->msl, sizeof msl);
    pthread_mutex_unlock(&s->lock);
    char sz[32], fn[32] = "...", pr[32] = "";
    mbx_format_count(sz, sizeof sz, size);
    if (problem) {
        if (r->w >= WIDE_COLS)
            snprintf(line, sizeof line, "  %14s  %9s  %-7s  %-14s  %-8s  %8s  %.600s: %.500s", "", "", "", "", "",
                     "", label ? label : "?", problem);
        else
            snprintf(line, sizeof line, "  %14s  %9s  %.600s: %.500s", "", "", label ? label : "?", problem);
        if (!selected)
            attr = term_attr(AT_BAD);
    } else {
        if (unreadable)
            snprintf(fn, sizeof fn, "?");
        else if (known)
            mbx_format_count(fn, sizeof fn, functions);
        if (known && !unreadable)
            mbx_format_count(pr, sizeof pr, problems);
        /* The path takes what is left, cut from the left when it must
         * be: two members of one archive differ at their end. */
        char path[1300];
        int room = r->w - (r->w >= WIDE_COLS ? (int)strlen(HEADER_WIDE) - 4 : (int)strlen(HEADER_NARROW) - 4);
        rowfmt_cut_left(label ? label : "?", room > 8 ? room : 8, rowfmt_ellipsis(term_ascii()), path, sizeof path);
        if (r->w >= WIDE_COLS)
        {
            char vc[64], tc[64], mc[64];
            snprintf(line, sizeof line, "  %14s  %9s  %s  %s  %s  %8s  %s", sz, fn,
                     fit_cell(known ? version : "", 7, vc, sizeof vc), fit_cell(known ? target : "", 14, tc, sizeof tc),
                     fit_cell(known ? msl : "", 8, mc, sizeof mc), pr, path);
        }
        else
            snprintf(line, sizeof line, "  %14s  %9s  %s", sz, fn, path);
        if (!selected && known && !unreadable && problems)
            attr = term_attr(AT_WARN);
    }
    free(label);
    free(problem);
    term_put(y, r->x, r->w, line, attr, 0);
}

static void folder_draw(struct explorer *ex)
{
    struct folder_view *f = state(ex);
    struct folder_scan *s = ex->scan;
    const struct rect *r = &ex->lay.body;
    char title[400], progress[160], survey[96] = "";
    progress_text(ex, progress, sizeof progress);
    size_t found = atomic_load(&s->progress.metallibs) + atomic_load(&s->members);
    size_t surveyed = atomic_load(&s->surveyed), indexed = atomic_load(&s->indexed);
    if (!atomic_load(&s->survey_done) && surveyed < found)
        snprintf(survey, sizeof survey, "; counting %zu/%zu", surveyed, found);
    else if (!atomic_load(&s->survey_done))
        snprintf(survey, sizeof survey, "; indexing names %zu/%zu", indexed, found);
    else if (!s->cancel)
        snprintf(survey, sizeof survey, "; names indexed");
    snprintf(title, sizeof title, " Folders and archives: %s%s%s   sorted by %s", progress, survey,
             scanning(ex) ? "   Esc stops the scan" : "", sort_names[f->sort]);
    term_put(r->y, r->x, r->w, title, term_attr(AT_PANEL_TITLE_FOCUS), 0);
    term_put(r->y + 1, r->x, r->w, r->w >= WIDE_COLS ? HEADER_WIDE : HEADER_NARROW, A_BOLD, 0);
    size_t n;
    struct folder_row *rows = build_rows(ex, &n);
    if (!rows)
        return;
    list_set(&f->list, n, r->y + 2, r->h - 2);
    int page = (int)list_page(&f->list);
    for (int k = 0; k < page && f->list.top + (size_t)k < n; k++)
        draw_row(ex, r->y + 2 + k, &rows[f->list.top + (size_t)k], f->list.top + (size_t)k == f->list.sel);
    free(rows);
}

/* ------------------------------------------------------------- set-up -- */

static bool folder_open(struct explorer *ex, const struct place *at)
{
    (void)at;
    struct folder_view *f = state(ex);
    if (!ex->scan) {
        ex_message(ex, "F goes back to the folder list when a folder or archive was opened");
        return false;
    }
    if (!ex->frames) {
        /* Start on the first library rather than the root's heading. */
        f->list.sel = 1;
        ex_message(ex, "? shows every key; Enter opens a library, Esc stops the scan, q quits");
    }
    return true;
}

static struct list *folder_list(struct explorer *ex)
{
    return &state(ex)->list;
}

/* The list's rows change as the scan goes: the row count is read again
 * before the generic moves use it. */
static struct list *folder_list_now(struct explorer *ex)
{
    struct folder_view *f = state(ex);
    size_t n;
    struct folder_row *rows = build_rows(ex, &n);
    free(rows);
    if (rows)
        f->list.n = n;
    return folder_list(ex);
}

const struct view_ops folder_view = {
    .name = "folder survey",
    .keys = KC_FOLDER,
    .state_size = sizeof(struct folder_view),
    .open = folder_open,
    .draw = folder_draw,
    .action = folder_action,
    .search = { "Search paths, function, argument and type names", folder_grep },
    .title = folder_title,
    .tick = folder_tick,
    .list = folder_list_now,
    .jump = { list_view_here, list_view_restore },
};
