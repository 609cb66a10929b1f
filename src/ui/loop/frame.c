/* The frame around the views: the title line (the files shown and what
 * the background has done, or what the view names), the view's body, the
 * status line (the message, then what the view says of its selection)
 * and the key bar. Everything is drawn on the screen and sent with one
 * refresh a frame; curses only sends what changed. */
#include "config.h"

#include "ui/loop/loop.h"
#include "ui/term/term.h"
#include "ui/text/rowfmt.h"
#include "ui/text/textfmt.h"
#include "ui/text/wrap.h"
#include "ui/work/hasher.h"
#include "ui/work/ifacer.h"
#include "ui/core/job.h"
#include "container/file.h"
#include "container/nouns.h"
#include "container/diagnostics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        for (size_t d = 0; d < mbx_file_diag_count(f); d++)
            n += mbx_file_diag(f, d)->severity == MTLBX_ERROR;
        for (size_t l = 0; l < mbx_file_library_count(f); l++) {
            mtlbx_library *lib = mbx_library_at(f, l);
            for (size_t d = 0; d < mbx_library_diag_count(lib); d++)
                n += mbx_library_diag(lib, d)->severity == MTLBX_ERROR;
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
    const struct view_ops *v = view_ops_of(ex, view_current(ex));
    if (v && v->title) {
        /* The view names what it shows (the folder list: the folders). */
        v->title(ex, left, sizeof left);
        rowfmt_cut_middle(left, r->w, rowfmt_ellipsis(term_ascii()), cut, sizeof cut);
        term_fill(r->y, r->x, r->w, term_attr(AT_TITLE));
        term_put_raw(r->y, r->x, r->w, cut, term_attr(AT_TITLE));
        return;
    }
    size_t used = (size_t)snprintf(left, sizeof left, " mtlbx ");
    for (uint32_t i = 0; i < ex->n_files && used < sizeof left; i++) {
        const char *b = base_name(ex->files[i].path);
        char *safe = textfmt_escape_str_dup(b);
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
        rn += (size_t)snprintf(right + rn, sizeof right - rn, "%zu hash %s, ", bad, mbx_noun(bad, "mismatch", "mismatches"));
    if (errors && rn < sizeof right)
        rn += (size_t)snprintf(right + rn, sizeof right - rn, "%zu %s, ", errors, mbx_noun(errors, "error", "errors"));
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
                 mbx_noun(total, "function", "functions"), sweep);
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

/* A text too long for the status line is also shown whole on up to this
 * many lines just above it (over the body's last rows), so a long name
 * or an error's reason is readable without the status line ever wrapping
 * into the key bar. */
#define WHOLE_LINES_MAX 3

static void draw_whole(struct explorer *ex, const char *text, attr_t attr, bool onto_status)
{
    const struct rect *r = &ex->lay.status;
    size_t starts[WHOLE_LINES_MAX + 2];
    int n = wrap_text(text, r->w, starts, WHOLE_LINES_MAX + onto_status);
    int y = r->y - n + onto_status;
    for (int i = 0; i < n; i++, y++) {
        if (y < 1)
            continue;
        char piece[1300];
        term_put(y, r->x, r->w, wrap_line(text, starts, i, piece, sizeof piece), attr, 0);
    }
}

/* One line, never wrapped: the message first (an error highlighted on
 * its own), then what the view says of its selection, cut at its end. An
 * error that does not fit is shown whole above it (a failed write's
 * reason comes after the path); else, in a view that asks for it, the
 * selection. */
static void draw_status(struct explorer *ex)
{
    const struct rect *r = &ex->lay.status;
    char info[700] = "";
    const struct view_ops *v = view_ops_of(ex, view_current(ex));
    if (v && v->status)
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
    if (ex->status_error && textfmt_width(ex->status) > r->w) {
        /* Shown once, whole: wrapped onto the lines above, its last piece
         * on the status line (not again there, cut). */
        term_fill(r->y, r->x, r->w, term_attr(AT_STATUS));
        draw_whole(ex, ex->status, term_attr(AT_STATUS_ERROR), true);
        return;
    }
    if (v && v->wrap_status && textfmt_width(info) > r->w)
        draw_whole(ex, info, term_attr(AT_STATUS), false);
    term_put(r->y, r->x, r->w, cut, term_attr(ex->status_error ? AT_STATUS_ERROR : AT_STATUS), 0);
    if (ex->status_error && ex->status[0]) {
        /* Only the message itself is highlighted. */
        term_put(r->y, r->x, r->w, cut, A_NORMAL, 0);
        rowfmt_cut(ex->status, r->w, rowfmt_ellipsis(term_ascii()), line, sizeof line);
        term_put_raw(r->y, r->x, r->w, line, term_attr(AT_STATUS_ERROR));
    }
}

static void draw_footer(struct explorer *ex)
{
    char line[512];
    bool home = view_parent(ex, view_current(ex)) == VIEW_NONE;
    keys_footer_at(view_key_context(ex), home, ex->lay.footer.w - 1, line, sizeof line);
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

void loop_draw_frame(struct explorer *ex)
{
    term_begin_frame();
    ex->frames++;
    if (ex->lay.too_small) {
        draw_too_small(ex);
        term_end_frame();
        return;
    }
    draw_title(ex);
    const struct view_ops *v = view_ops_of(ex, view_current(ex));
    if (v)
        v->draw(ex);
    draw_status(ex);
    draw_footer(ex);
    term_end_frame();
}
