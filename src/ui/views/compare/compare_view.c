/* The compare view (D with two files open): what differs between the two
 * libraries, one row per change, from the parser's comparison (compare.c,
 * the same answer as `mtlbx diff`), each changed field with its old and new
 * value in the words `mtlbx diff` prints (util/diff_text.c); the selected
 * row is shown whole, wrapped, at the bottom. Enter jumps to the changed
 * node in file A (in B when only B has it), b to it in file B; Backspace
 * there comes back here. d on a changed function shows the unified diff
 * of the two llvm-dis outputs, computed by `diff -u` (diffutils) through
 * the tool runner, coloured in the text view. */
#include "config.h"

#include "ui/views/compare/compare_view.h"
#include "diff_text.h"
#include "run_tool.h"
#include "safe_write.h"
#include "ui/core/core.h"
#include "ui/core/job.h"
#include "ui/term/term.h"
#include "ui/text/query.h"
#include "ui/text/wrap.h"
#include "ui/widgets/list.h"
#include "ui/widgets/prompt.h"
#include "ui/widgets/search.h"
#include "ui/text/textfmt.h"
#include "container/functions.h"
#include "container/nouns.h"
#include "container/sources.h"
#include "container/value_names.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum row_kind { ROW_LIBRARY, ROW_HEADER, ROW_REMOVED, ROW_ADDED, ROW_CHANGED, ROW_MEMBER };

struct compare_row {
    enum row_kind kind;
    char mark;                 /* + - ~ */
    const struct mtlbx_library_diff *ld;
    size_t a, b;               /* function indexes, header field, or member refs by position */
    struct mtlbx_member_ref ma, mb;
    unsigned fields;
    char *text;                /* row_text's line, made when first shown */
};

/* The view's private block: the comparison of two shown files, kept
 * while they are shown (D again comes back to it at once). */
struct compare_view {
    uint32_t file_a, file_b;
    struct mtlbx_diff *diff;   /* NULL: none yet */
    struct compare_row *rows;
    size_t n_rows, cap;
    struct list list;
};

static struct compare_view *state(struct explorer *ex)
{
    return view_state(ex, VIEW_COMPARE);
}

static bool add_row(struct compare_view *cv, struct compare_row r)
{
    if (cv->n_rows == cv->cap) {
        size_t cap = cv->cap ? cv->cap * 2 : 64;
        struct compare_row *v = realloc(cv->rows, cap * sizeof *v);
        if (!v)
            return false;
        cv->rows = v;
        cv->cap = cap;
    }
    cv->rows[cv->n_rows++] = r;
    return true;
}

/* Rows in the order `mtlbx diff` prints its lines. */
static bool build_rows(struct compare_view *cv)
{
    bool ok = true;
    for (size_t l = 0; l < cv->diff->n_libraries; l++) {
        const struct mtlbx_library_diff *d = &cv->diff->libraries[l];
        if (!d->a || !d->b)
            ok = ok && add_row(cv, (struct compare_row){ ROW_LIBRARY, d->a ? '-' : '+', d, 0, 0, { 0, 0 }, { 0, 0 }, 0, NULL });
        for (unsigned f = 0; f < MTLBX_HF_COUNT; f++)
            if (d->header_fields & (1u << f))
                ok = ok && add_row(cv, (struct compare_row){ ROW_HEADER, '~', d, f, f, { 0, 0 }, { 0, 0 }, 0, NULL });
        for (size_t k = 0; k < d->n_removed; k++)
            ok = ok && add_row(cv, (struct compare_row){ ROW_REMOVED, '-', d, d->removed[k], 0, { 0, 0 }, { 0, 0 }, 0, NULL });
        for (size_t k = 0; k < d->n_added; k++)
            ok = ok && add_row(cv, (struct compare_row){ ROW_ADDED, '+', d, 0, d->added[k], { 0, 0 }, { 0, 0 }, 0, NULL });
        for (size_t k = 0; k < d->n_changed; k++)
            ok = ok && add_row(cv, (struct compare_row){ ROW_CHANGED, '~', d, d->changed[k].a, d->changed[k].b,
                                                         { 0, 0 }, { 0, 0 }, d->changed[k].fields, NULL });
        /* Renamed (same hash, or same member bytes): '>' rows, under A's name. */
        for (size_t k = 0; k < d->n_renamed; k++)
            ok = ok && add_row(cv, (struct compare_row){ ROW_CHANGED, '>', d, d->renamed[k].a, d->renamed[k].b,
                                                         { 0, 0 }, { 0, 0 }, 0, NULL });
        for (size_t k = 0; k < d->n_members_renamed; k++)
            ok = ok && add_row(cv, (struct compare_row){ ROW_MEMBER, '>', d, 0, 0, d->members_renamed[k].a,
                                                         d->members_renamed[k].b, 0, NULL });
        for (size_t k = 0; k < d->n_members_removed; k++)
            ok = ok && add_row(cv, (struct compare_row){ ROW_MEMBER, '-', d, 0, 0, d->members_removed[k], { 0, 0 }, 0, NULL });
        for (size_t k = 0; k < d->n_members_added; k++)
            ok = ok && add_row(cv, (struct compare_row){ ROW_MEMBER, '+', d, 0, 0, { 0, 0 }, d->members_added[k], 0, NULL });
        for (size_t k = 0; k < d->n_members_changed; k++)
            ok = ok && add_row(cv, (struct compare_row){ ROW_MEMBER, '~', d, 0, 0, d->members_changed[k].a,
                                                         d->members_changed[k].b, 0, NULL });
    }
    return ok;
}

static void free_diff(struct compare_view *cv)
{
    mbx_diff_free(cv->diff);
    for (size_t i = 0; i < cv->n_rows; i++)
        free(cv->rows[i].text);
    free(cv->rows);
    memset(cv, 0, sizeof *cv);
}

/* The comparison runs on the job worker (on two big libraries it reads
 * every module); the view opens when it is done. It reads the two files,
 * never the node model: no model lock, and a cancel it cannot see is left
 * behind (core/job.c). */
struct compare_job {
    uint32_t a, b;
    mtlbx_file *fa, *fb;
    unsigned long files_gen;     /* the shown files it is about */
    struct mtlbx_diff *diff;
    int rc;
};

static void compare_work(struct job *j)
{
    struct compare_job *c = j->ctx;
    struct mtlbx_diff_options opt = { .verify = false };
    c->rc = mbx_diff_files(c->fa, c->fb, &opt, &c->diff);
}

static void compare_finish(struct explorer *ex, struct job *j, bool cancelled)
{
    struct compare_job *c = j->ctx;
    struct compare_view *cv = state(ex);
    if (cancelled) {
        ex_message(ex, "comparing cancelled");
    } else if (c->files_gen != ex->files_gen) {
        ex_message(ex, "the comparison is of files no longer shown: D again compares these");
    } else if (c->rc != MTLBX_E_NONE) {
        ex_error(ex, "out of memory while comparing the two files");
    } else {
        free_diff(cv);
        cv->diff = c->diff;
        c->diff = NULL;
        cv->file_a = c->a;
        cv->file_b = c->b;
        if (!build_rows(cv)) {
            free_diff(cv);
            ex_error(ex, "out of memory while comparing the two files");
        } else {
            cv->list = (struct list){ .n = cv->n_rows };
            struct place at = place_file(c->a);
            if (open_view(ex, VIEW_COMPARE, &at) && cv->diff->identical)
                ex_message(ex, "the two libraries are identical (modules compared by their stored hash)");
        }
    }
    mbx_diff_free(c->diff);
    free(c);
}

/* The two files: with two shown, A is the first and B the second; with
 * more, the one `at` names against the next. Compared once (in the
 * background: the view opens then); D again comes back at once. */
static bool compare_open(struct explorer *ex, const struct place *at)
{
    struct compare_view *cv = state(ex);
    if (ex->n_files < 2) {
        ex_error(ex, "open two files to compare them: mtlbx A.metallib B.metallib, then D");
        return false;
    }
    uint32_t a = ex->n_files == 2 ? 0 : at->file < ex->n_files ? at->file : 0, b = (a + 1) % ex->n_files;
    if (cv->diff && cv->file_a == a && cv->file_b == b)
        return true;
    struct compare_job *c = calloc(1, sizeof *c);
    if (!c) {
        ex_error(ex, "out of memory");
        return false;
    }
    *c = (struct compare_job){ a, b, ex->files[a].f, ex->files[b].f, ex->files_gen, NULL, 0 };
    if (!job_start(ex, "comparing", compare_work, compare_finish, c, false))
        free(c);
    return false; /* it opens when the comparison is in */
}

/* ------------------------------------------------------------- jumping -- */

static mtlbx_node *child_where(mtlbx_model *model, mtlbx_node *n, enum mtlbx_node_kind kind, bool by_index,
                               size_t index, const mtlbx_library *lib)
{
    size_t count = n ? mbx_node_child_count(model, n) : 0;
    for (size_t i = 0; i < count; i++) {
        mtlbx_node *c = mbx_node_child(model, n, i);
        if (c->kind == kind && (!by_index || c->index == index) && (!lib || c->lib == lib))
            return c;
    }
    return NULL;
}

/* The node a row is about in one file: the function, the header, the
 * source member (or its archive), or the library. */
static mtlbx_node *row_node(struct explorer *ex, const struct compare_row *r, bool side_b)
{
    uint32_t file = side_b ? state(ex)->file_b : state(ex)->file_a;
    mtlbx_model *model = ex->files[file].m;
    mtlbx_library *lib = side_b ? r->ld->b : r->ld->a;
    if (!lib)
        return NULL;
    mtlbx_node *root = ex->files[file].root, *libnode = child_where(model, root, MTLBX_NODE_LIBRARY, false, 0, lib);
    if (!libnode) {
        /* A fat file: libraries sit below their slices. */
        size_t count = mbx_node_child_count(model, root);
        for (size_t i = 0; i < count && !libnode; i++)
            libnode = child_where(model, mbx_node_child(model, root, i), MTLBX_NODE_LIBRARY, false, 0, lib);
    }
    if (!libnode)
        return NULL;
    switch (r->kind) {
    case ROW_LIBRARY: return libnode;
    case ROW_HEADER: return child_where(model, libnode, MTLBX_NODE_HEADER, false, 0, NULL);
    case ROW_REMOVED:
    case ROW_ADDED:
    case ROW_CHANGED: {
        mtlbx_node *list = child_where(model, libnode, MTLBX_NODE_FUNCTION_LIST, false, 0, NULL);
        return child_where(model, list, MTLBX_NODE_FUNCTION, true, side_b ? r->b : r->a, NULL);
    }
    case ROW_MEMBER: {
        struct mtlbx_member_ref m = side_b ? r->mb : r->ma;
        mtlbx_node *src = child_where(model, libnode, MTLBX_NODE_SOURCES, false, 0, NULL);
        mtlbx_node *arch = child_where(model, src, MTLBX_NODE_ARCHIVE, true, m.archive, NULL);
        mtlbx_node *mem = child_where(model, arch, MTLBX_NODE_MEMBER, true, m.member, NULL);
        return mem ? mem : arch ? arch : src;
    }
    }
    return NULL;
}

static void jump(struct explorer *ex, bool side_b)
{
    struct compare_view *cv = state(ex);
    if (cv->list.sel >= cv->n_rows)
        return;
    const struct compare_row *r = &cv->rows[cv->list.sel];
    /* Added things exist only in B, removed ones only in A. */
    if (r->mark == '+')
        side_b = true;
    else if (r->mark == '-')
        side_b = false;
    mtlbx_node *n = row_node(ex, r, side_b);
    uint32_t file = side_b ? cv->file_b : cv->file_a;
    if (!n) {
        ex_error(ex, "that change has no node to show in %s", ex->files[file].path);
        return;
    }
    struct place at = place_node(file, n);
    if (!open_view(ex, VIEW_BYTES, &at))
        return;
    /* The file's last component: the status line also names the node. */
    const char *path = ex->files[file].path, *slash = strrchr(path, '/');
    ex_message(ex, "%s (%s); Backspace returns to the comparison", side_b ? "B" : "A", slash ? slash + 1 : path);
}

/* ------------------------------------------------- disassembly diff -- */

static bool disassemble(struct explorer *ex, mtlbx_library *lib, size_t i, struct tool_result *res)
{
    struct mtlbx_bytes m = mbx_function_module_bytes(lib, i);
    if (m.len == 0) {
        memset(res, 0, sizeof *res);
        snprintf(res->message, sizeof res->message, "the module is missing or outside the module section");
        return false;
    }
    return run_llvm_dis(ex->llvm_dis, m.ptr, m.len, LLVM_DIS_TIMEOUT_MS, LLVM_DIS_MAX_OUTPUT, res) == 0;
}

static void show_disassembly_diff(struct explorer *ex)
{
    struct compare_view *cv = state(ex);
    const struct compare_row *r = cv->list.sel < cv->n_rows ? &cv->rows[cv->list.sel] : NULL;
    if (!r || r->kind != ROW_CHANGED) {
        ex_error(ex, "select a changed function: d shows the diff of its two disassemblies");
        return;
    }
    if (!ex->llvm_dis)
        ex->llvm_dis = find_llvm_dis(ex->opts ? ex->opts->llvm_dis : NULL);
    char *diff_path = find_tool("diff");
    if (!ex->llvm_dis || !diff_path) {
        ex_error(ex, "%s not found: install %s", ex->llvm_dis ? "diff" : "llvm-dis",
                 ex->llvm_dis ? "diffutils" : "LLVM, or use --llvm-dis PATH");
        free(diff_path);
        return;
    }
    struct mtlbx_bytes name = mbx_function_at(r->ld->a, r->a)->name;
    char *shown = textfmt_escape_dup(name.ptr, name.len);
    ex_message(ex, "running llvm-dis twice and diff -u on %s...", shown ? shown : "?");
    ex_draw(ex);
    struct tool_result da, db, dd;
    memset(&dd, 0, sizeof dd);
    bool ok_a = disassemble(ex, r->ld->a, r->a, &da);
    bool ok_b = ok_a && disassemble(ex, r->ld->b, r->b, &db);
    if (!ok_a || !ok_b) {
        ex_error(ex, "llvm-dis failed on %s: %s", ok_a ? "B" : "A", ok_a ? db.message : da.message);
    } else {
        char la[600], lb[600];
        snprintf(la, sizeof la, "A/%.500s", shown ? shown : "?");
        snprintf(lb, sizeof lb, "B/%.500s", shown ? shown : "?");
        if (!run_unified_diff(diff_path, (const uint8_t *)da.output, da.output_len, (const uint8_t *)db.output,
                               db.output_len, la, lb, &dd)) {
            ex_error(ex, "diff failed: %s", dd.message[0] ? dd.message : "no reason given");
        } else if (dd.output_len == 0) {
            ex_message(ex, "the two disassemblies are the same text (the modules differ only in bytes llvm-dis does not show)");
        } else {
            char title[700], save[300];
            snprintf(title, sizeof title, "diff -u of llvm-dis: %.500s", shown ? shown : "?");
            char *safe = safe_component(name.ptr, name.len);
            snprintf(save, sizeof save, "%s.diff", safe ? safe : "function");
            free(safe);
            struct text_doc doc = { .title = title, .data = dd.output ? dd.output : "", .len = dd.output_len,
                                    .save_name = save, .diff_colours = true };
            struct place at = place_text(&doc);
            if (open_view(ex, VIEW_TEXT, &at))
                ex_message(ex, "%s/ searches, w saves, q returns to the comparison",
                           dd.truncated ? "output cut at the size limit; " : "");
        }
    }
    tool_result_free(&da);
    if (ok_a)
        tool_result_free(&db);
    tool_result_free(&dd);
    free(shown);
    free(diff_path);
}

/* ------------------------------------------------------------ drawing -- */

static const char *row_text(struct compare_row *r);

/* Lines under the list for the selected row whole (a heading, then up to
 * three wrapped lines), when the body has room for them. */
#define DETAIL_LINES 3
static int detail_lines(const struct explorer *ex) { return ex->lay.body.h >= 10 ? DETAIL_LINES + 1 : 0; }

/* The selected row whole: a hash or an interface change is often wider
 * than the list's line. */
static void draw_detail(struct explorer *ex)
{
    struct compare_view *cv = state(ex);
    const struct rect *r = &ex->lay.body;
    int lines = detail_lines(ex);
    if (!lines || r->w < 8)
        return;
    int y = r->y + r->h - lines;
    term_put(y, r->x, r->w, " The selected change", term_attr(AT_HEADING), 0);
    if (cv->list.sel >= cv->n_rows)
        return;
    const char *text = row_text(&cv->rows[cv->list.sel]);
    size_t starts[DETAIL_LINES + 1];
    int n = wrap_text(text, r->w, starts, DETAIL_LINES);
    char line[1200];
    for (int k = 0; k < n; k++)
        term_put(y + 1 + k, r->x, r->w, wrap_line(text, starts, k, line, sizeof line), term_attr(AT_NORMAL), 0);
}

/* "NAME" of a source member, escaped (malloc'd). */
static char *member_name(mtlbx_library *lib, struct mtlbx_member_ref m)
{
    const char *s = mbx_library_sources(lib)->archives[m.archive].members[m.member].name;
    return textfmt_escape_str_dup(s);
}

/* A row as `mtlbx diff` prints its line: "~ header    requires macOS 15.0
 * (MSL 3.2) -> macOS 26.0 (MSL 4.0)", "~ kernel    f: hash 1f.. -> 9a..". */
static char *row_text_make(const struct compare_row *r)
{
    char *buf = NULL, *name = NULL, *more = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        return NULL;
    switch (r->kind) {
    case ROW_LIBRARY:
        fprintf(out, "%c library   %zu only in %s (%zu functions)", r->mark, r->ld->index, r->ld->a ? "A" : "B",
                mbx_library_function_count(r->ld->a ? r->ld->a : r->ld->b));
        break;
    case ROW_HEADER:
        more = diff_header_change_text(r->ld->a, r->ld->b, (enum mtlbx_header_field)r->a, &diff_plain);
        fprintf(out, "~ header    %s", more ? more : "?");
        break;
    case ROW_MEMBER:
        name = member_name(r->mark == '+' ? r->ld->b : r->ld->a, r->mark == '+' ? r->mb : r->ma);
        fprintf(out, "%c source    %s", r->mark, name ? name : "?");
        if (r->mark == '>') {
            more = member_name(r->ld->b, r->mb);
            fprintf(out, " -> %s (renamed: same bytes)", more ? more : "?");
        }
        break;
    default: {
        mtlbx_library *lib = r->kind == ROW_ADDED ? r->ld->b : r->ld->a;
        const struct mtlbx_function *fn = mbx_function_at(lib, r->kind == ROW_ADDED ? r->b : r->a);
        char tbuf[24];
        name = textfmt_escape_dup(fn->name.ptr, fn->name.len);
        fprintf(out, "%c %-9s %s", r->mark,
                (fn->present & MTLBX_F_TYPE) ? mbx_function_type_name(fn->type, tbuf, sizeof tbuf) : "-",
                name ? name : "?");
        if (r->mark == '>') {
            const struct mtlbx_function *to = mbx_function_at(r->ld->b, r->b);
            more = textfmt_escape_dup(to->name.ptr, to->name.len);
            fprintf(out, " -> %s (renamed: same hash)", more ? more : "?");
        } else if (r->fields) {
            more = diff_function_change_text(NULL, r->ld->a, r->a, NULL, r->ld->b, r->b, r->fields,
                                                 &diff_plain); /* one row: decoded alone */
            fprintf(out, ": %s", more ? more : "?");
        }
        break;
    }
    }
    free(name);
    free(more);
    bool ok = !ferror(out);
    if (fclose(out) != 0 || !ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The row's line, made once: a changed interface decodes both modules. */
static const char *row_text(struct compare_row *r)
{
    if (!r->text)
        r->text = row_text_make(r);
    return r->text ? r->text : "(out of memory)";
}

static void compare_draw(struct explorer *ex)
{
    struct compare_view *cv = state(ex);
    const struct rect *r = &ex->lay.body;
    char title[600];
    /* The count first: the paths are what may be cut. */
    snprintf(title, sizeof title, " Compare: %zu %s%s  A %.200s  B %.200s", cv->n_rows,
             mbx_noun(cv->n_rows, "change", "changes"), cv->diff->identical ? " (identical)" : "",
             ex->files[cv->file_a].path, ex->files[cv->file_b].path);
    term_put(r->y, r->x, r->w, title, term_attr(AT_PANEL_TITLE_FOCUS), 0);
    list_set(&cv->list, cv->n_rows, r->y + 1, r->h - 1 - detail_lines(ex));
    int rows = (int)list_page(&cv->list);
    for (int k = 0; k < rows; k++) {
        size_t i = cv->list.top + (size_t)k;
        if (i >= cv->n_rows)
            break;
        const char *line = row_text(&cv->rows[i]);
        enum ui_attr at = cv->rows[i].mark == '+' ? AT_OK : cv->rows[i].mark == '-' ? AT_BAD : AT_WARN;
        term_put(r->y + 1 + k, r->x, r->w, line, i == cv->list.sel ? term_attr(AT_SELECT) : term_attr(at), 0);
    }
    draw_detail(ex);
}

struct change_match {
    struct compare_view *cv;
    const struct query *q;
};

static bool change_matches(void *ctx, size_t i)
{
    struct change_match *cm = ctx;
    return query_label_matches(cm->q, row_text(&cm->cv->rows[i]));
}

static bool compare_grep(struct explorer *ex, const struct query *q, bool fresh, bool forward)
{
    (void)fresh;
    struct compare_view *cv = state(ex);
    struct change_match cm = { cv, q };
    long i = search_rows(cv->n_rows, cv->list.sel, forward, false, change_matches, &cm);
    if (i >= 0) {
        list_select(&cv->list, i);
        return true;
    }
    ex_error(ex, "no change matches %s", q->text);
    return false;
}

static enum view_result compare_action(struct explorer *ex, enum action a)
{
    switch (a) {
    case ACT_ENTER: jump(ex, false); break;
    case ACT_JUMP_B: jump(ex, true); break;
    case ACT_DISASSEMBLE: show_disassembly_diff(ex); break;
    default: return VIEW_IGNORED;
    }
    return VIEW_HANDLED;
}

static void compare_forget(struct explorer *ex)
{
    free_diff(state(ex));
}

static struct list *compare_list(struct explorer *ex)
{
    return &state(ex)->list;
}

static void compare_here(struct explorer *ex, struct jump *j)
{
    struct compare_view *cv = state(ex);
    j->at = place_file(cv->file_a);
    j->w[0] = cv->list.sel;
}

const struct view_ops compare_view = {
    .name = "compare",
    .keys = KC_COMPARE,
    .state_size = sizeof(struct compare_view),
    .open = compare_open,
    .forget = compare_forget,
    .done = compare_forget,
    .draw = compare_draw,
    .action = compare_action,
    .search = { "Search the changes", compare_grep },
    .list = compare_list,
    .jump = { compare_here, list_view_restore },
};
