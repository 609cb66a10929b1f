/* The release compare (D in the list of two folders or two archives:
 * `mtlbx OLD NEW`): the libraries of both paired by their path inside each
 * side, by the pairing `mtlbx diff OLD NEW` uses (util/release_pairs.c),
 * one row per library added, removed or changed, a changed one with its
 * requirement change first ("requires macOS 15.0 (MSL 3.2) -> macOS 26.0
 * (MSL 4.0)", util/diff_text.c) and its counts. Enter on a changed pair
 * shows its two libraries and their compare view; the pair's files stay
 * open, as the folder list's do, until the explorer ends. q comes back to
 * the folder list. */
#include "config.h"

#include "ui/views/release/release_view.h"
#include "gate/archive_members.h"
#include "diff_text.h"
#include "release_pairs.h"
#include "ui/core/core.h"
#include "ui/core/job.h"
#include "ui/term/term.h"
#include "ui/widgets/list.h"
#include "ui/work/folder_scan.h"
#include "compare/compare.h"
#include "ui/text/textfmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct release_row {
    char mark;                 /* + - ~ */
    char *open_a, *open_b;     /* for mbx_open_any; NULL on the side without it */
    char *text;                /* the row as shown (terminal-safe) */
    mtlbx_file *fa, *fb;       /* opened by Enter, kept */
};

/* The view's private block: the pairs, made once (D again comes back). */
struct release_view {
    bool built;
    struct release_row *rows;
    size_t n_rows, cap;
    size_t n_same, n_problems;
    struct list list;
    bool failed;               /* out of memory while building */
};

static struct release_view *state(struct explorer *ex)
{
    return view_state(ex, VIEW_RELEASE);
}

/* The pairing runs on the job worker (it walks both sides, opens and
 * compares every pair: seconds to minutes on thousands of libraries) into
 * a block of its own, which the view takes when it is done. It reads only
 * what it opens itself: no model lock, and a cancel it cannot see (inside
 * a walk or a comparison) is left behind (core/job.c). */
struct release_job {
    struct job *job;
    char *roots[2];
    struct release_view built;
    size_t pairs;
};

static void on_problem(void *ctx, const char *path, const char *message)
{
    (void)path;
    (void)message;
    ((struct release_job *)ctx)->built.n_problems++;
}

/* "requires A -> B; 2 functions changed, 1 added, 3 header fields". */
static void change_summary(const struct mtlbx_diff *d, FILE *out)
{
    size_t changed = 0, added = 0, removed = 0, header = 0, members = 0;
    const char *sep = "";
    for (size_t l = 0; l < d->n_libraries; l++) {
        const struct mtlbx_library_diff *ld = &d->libraries[l];
        changed += ld->n_changed + ld->n_renamed, added += ld->n_added, removed += ld->n_removed;
        members += ld->n_members_added + ld->n_members_removed + ld->n_members_changed + ld->n_members_renamed;
        for (unsigned f = 0; f < MTLBX_HF_COUNT; f++)
            header += (ld->header_fields >> f) & 1u;
        if (ld->header_fields & (1u << MTLBX_HF_REQUIRES)) {
            char *req = diff_header_change_text(ld->a, ld->b, MTLBX_HF_REQUIRES, &diff_plain);
            fprintf(out, "%s%s", sep, req ? req : "requires changed");
            free(req);
            sep = "; ";
        }
    }
    if (changed)
        fprintf(out, "%s%zu %s changed", sep, changed, changed == 1 ? "function" : "functions"), sep = ", ";
    if (added)
        fprintf(out, "%s%zu added", sep, added), sep = ", ";
    if (removed)
        fprintf(out, "%s%zu removed", sep, removed), sep = ", ";
    if (header)
        fprintf(out, "%s%zu header %s", sep, header, header == 1 ? "field" : "fields"), sep = ", ";
    if (members)
        fprintf(out, "%s%zu source %s", sep, members, members == 1 ? "member" : "members");
}

/* The row of one pair, or none when the two libraries are the same. */
static void on_pair(void *ctx, const struct release_item *x, const struct release_item *y)
{
    struct release_job *rj = ctx;
    struct release_view *rv = &rj->built;
    if (job_cancelled(rj->job))
        return;
    job_set_progress(rj->job, ++rj->pairs, 0);
    char *buf = NULL, *key = textfmt_escape_str_dup((x ? x : y)->key);
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    struct release_row row = { x && y ? '~' : x ? '-' : '+', NULL, NULL, NULL, NULL, NULL };
    bool keep = true;
    if (out)
        fprintf(out, "%c %s", row.mark, key ? key : "?");
    if (out && x && y) {
        mtlbx_file *fa = NULL, *fb = NULL;
        struct mtlbx_error err;
        struct mtlbx_diff *d = NULL;
        struct mtlbx_diff_options opt = { .verify = false };
        if (mbx_open_any(x->open, &fa, &err) != MTLBX_E_NONE || mbx_open_any(y->open, &fb, &err) != MTLBX_E_NONE) {
            char *why = textfmt_escape_str_dup(err.message);
            fprintf(out, ": %s", why ? why : "cannot be opened");
            free(why);
            row.mark = '?';
        } else if (mbx_diff_files(fa, fb, &opt, &d) != MTLBX_E_NONE) {
            rv->failed = true;
        } else if (d->identical) {
            keep = false;
            rv->n_same++;
        } else {
            fputs(": ", out);
            change_summary(d, out);
        }
        mbx_diff_free(d);
        mbx_close(fa);
        mbx_close(fb);
    }
    free(key);
    bool ok = out && !ferror(out);
    if (out && fclose(out) != 0)
        ok = false;
    if (!ok || !keep) {
        free(buf);
        rv->failed |= !ok;
        return;
    }
    row.text = buf;
    row.open_a = x ? strdup(x->open) : NULL;
    row.open_b = y ? strdup(y->open) : NULL;
    if (rv->n_rows == rv->cap) {
        size_t cap = rv->cap ? rv->cap * 2 : 32;
        struct release_row *v = realloc(rv->rows, cap * sizeof *v);
        if (v)
            rv->rows = v, rv->cap = cap;
    }
    if (rv->n_rows == rv->cap || (x && !row.open_a) || (y && !row.open_b)) {
        free(row.text), free(row.open_a), free(row.open_b);
        rv->failed = true;
        return;
    }
    rv->rows[rv->n_rows++] = row;
}

static void free_rows(struct release_view *rv)
{
    for (size_t i = 0; i < rv->n_rows; i++) {
        struct release_row *r = &rv->rows[i];
        free(r->text), free(r->open_a), free(r->open_b);
        mbx_close(r->fa);
        mbx_close(r->fb);
    }
    free(rv->rows);
}

static void release_done(struct explorer *ex)
{
    free_rows(state(ex));
}

static void pair_work(struct job *j)
{
    struct release_job *rj = j->ctx;
    rj->job = j;
    struct release_side a = { .problem = on_problem, .ctx = rj }, b = { .problem = on_problem, .ctx = rj };
    release_side_collect(rj->roots[0], &a);
    if (!job_cancelled(j))
        release_side_collect(rj->roots[1], &b);
    if (!job_cancelled(j))
        release_pair(&a, &b, on_pair, rj);
    release_side_free(&a);
    release_side_free(&b);
}

static void pair_finish(struct explorer *ex, struct job *j, bool cancelled)
{
    struct release_job *rj = j->ctx;
    struct release_view *rv = state(ex);
    if (cancelled || rv->built) {
        free_rows(&rj->built);
        if (cancelled)
            ex_message(ex, "comparing the releases cancelled");
    } else {
        *rv = rj->built;
        rv->built = true;
        rv->list = (struct list){ .n = rv->n_rows };
        if (open_view(ex, VIEW_RELEASE, NULL)) {
            if (rv->failed)
                ex_error(ex, "out of memory: some libraries are not listed");
            else if (rv->n_problems)
                ex_error(ex, "%zu %s could not be read (mtlbx diff names them)", rv->n_problems,
                         rv->n_problems == 1 ? "entry" : "entries");
            else
                ex_message(ex, "Enter on a changed library compares its two versions; q goes back to the list");
        }
    }
    free(rj->roots[0]);
    free(rj->roots[1]);
    free(rj);
}

static bool release_open(struct explorer *ex, const struct place *at)
{
    (void)at;
    struct release_view *rv = state(ex);
    struct folder_scan *s = ex->scan;
    if (!s || s->n_roots != 2 || !release_is_release(s->roots[0]) || !release_is_release(s->roots[1])) {
        ex_error(ex, "D compares two folders or archives: mtlbx OLD NEW (two folders, wheels, .ipa...)");
        return false;
    }
    if (rv->built)
        return true;
    struct release_job *rj = calloc(1, sizeof *rj);
    if (rj) {
        rj->roots[0] = strdup(s->roots[0]);
        rj->roots[1] = strdup(s->roots[1]);
    }
    if (!rj || !rj->roots[0] || !rj->roots[1]) {
        if (rj)
            free(rj->roots[0]), free(rj->roots[1]);
        free(rj);
        ex_error(ex, "out of memory");
        return false;
    }
    if (!job_start(ex, "pairing and comparing the libraries", pair_work, pair_finish, rj, false)) {
        free(rj->roots[0]), free(rj->roots[1]);
        free(rj);
    }
    return false; /* it opens when the pairs are in */
}

/* Enter: the pair's two libraries in the views, and their compare view. */
static void open_pair(struct explorer *ex)
{
    struct release_view *rv = state(ex);
    struct release_row *r = rv->list.sel < rv->n_rows ? &rv->rows[rv->list.sel] : NULL;
    if (!r || r->mark != '~') {
        ex_error(ex, "select a changed library (~): added and removed ones are in one release only");
        return;
    }
    struct mtlbx_error err;
    if ((!r->fa && mbx_open_any(r->open_a, &r->fa, &err) != MTLBX_E_NONE) ||
        (!r->fb && mbx_open_any(r->open_b, &r->fb, &err) != MTLBX_E_NONE)) {
        ex_error(ex, "%s", err.message);
        return;
    }
    mtlbx_file *files[2] = { r->fa, r->fb };
    const char *paths[2] = { r->open_a, r->open_b };
    ex_show_files(ex, files, paths, 2);
    open_view(ex, VIEW_COMPARE, NULL);
}

/* ------------------------------------------------------------ drawing -- */

static void release_draw(struct explorer *ex)
{
    struct release_view *rv = state(ex);
    const struct rect *r = &ex->lay.body;
    size_t added = 0, removed = 0, changed = 0;
    for (size_t i = 0; i < rv->n_rows; i++)
        added += rv->rows[i].mark == '+', removed += rv->rows[i].mark == '-', changed += rv->rows[i].mark == '~';
    char title[256];
    snprintf(title, sizeof title, " Releases: %zu changed, %zu added, %zu removed, %zu the same", changed, added,
             removed, rv->n_same);
    term_put(r->y, r->x, r->w, title, term_attr(AT_PANEL_TITLE_FOCUS), 0);
    list_set(&rv->list, rv->n_rows, r->y + 1, r->h - 1);
    int rows = (int)list_page(&rv->list);
    for (int k = 0; k < rows; k++) {
        size_t i = rv->list.top + (size_t)k;
        if (i >= rv->n_rows)
            break;
        char mark = rv->rows[i].mark;
        enum ui_attr at = mark == '+' ? AT_OK : mark == '-' || mark == '?' ? AT_BAD : AT_WARN;
        term_put(r->y + 1 + k, r->x, r->w, rv->rows[i].text, i == rv->list.sel ? term_attr(AT_SELECT) : term_attr(at),
                 0);
    }
}

static enum view_result release_action(struct explorer *ex, enum action a)
{
    if (a != ACT_ENTER)
        return VIEW_IGNORED;
    open_pair(ex);
    return VIEW_HANDLED;
}

static void release_title(struct explorer *ex, char *buf, size_t size)
{
    folder_scan_title(ex->scan, buf, size);
}

static struct list *release_list(struct explorer *ex)
{
    return &state(ex)->list;
}

const struct view_ops release_view = {
    .name = "release compare",
    .keys = KC_RELEASE,
    .state_size = sizeof(struct release_view),
    .open = release_open,
    .done = release_done,
    .draw = release_draw,
    .action = release_action,
    .title = release_title,
    .list = release_list,
    .jump = { list_view_here, list_view_restore },
};
