/* The member list of a library's source archives: every archive, each
 * under a heading row, its members below. Enter shows a member's text in
 * the pager, w writes one member, W writes all members of the selected
 * row's archive under a directory (never outside it: safe_write_under). */
#include "config.h"

#include "ui/views/members/members_view.h"
#include "member_plan.h"
#include "safe_write.h"
#include "ui/core/core.h"
#include "ui/core/job.h"
#include "ui/term/term.h"
#include "ui/text/query.h"
#include "ui/text/rowfmt.h"
#include "ui/text/textfmt.h"
#include "ui/verbs/verbs.h"
#include "ui/widgets/list.h"
#include "ui/widgets/prompt.h"
#include "ui/widgets/search.h"
#include "container/nouns.h"
#include "container/sources.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdbool.h>

/* Rows: "  type  size  name", the heading in the same format. */
#define MEMBER_ROW_FORMAT "  %-8s %12" PRIu64 "  %s"
#define MEMBER_ROW_FORMAT_HEAD "  %-8s %12s  %s"

struct member_row {
    size_t archive;
    long member;                 /* -1: the archive's heading row */
};

/* The view's private block. */
struct members {
    uint32_t file;
    mtlbx_library *lib;
    size_t archive;              /* the archive `s` was asked about */
    struct member_row *rows;     /* every archive of lib, with its members */
    size_t n_rows;
    struct list list;
};

static struct members *state(struct explorer *ex)
{
    return view_state(ex, VIEW_MEMBERS);
}

static const struct mtlbx_archive *archive_at(const struct members *m, size_t ai)
{
    const struct mtlbx_sources *s = m->lib ? mbx_library_sources(m->lib) : NULL;
    return s && ai < s->n_archives ? &s->archives[ai] : NULL;
}

/* The archive of the selected row (a heading or one of its members). */
static const struct mtlbx_archive *current_archive(const struct members *m)
{
    return m->list.sel < m->n_rows ? archive_at(m, m->rows[m->list.sel].archive) : NULL;
}

/* The selected member, or NULL on a heading row. */
static const struct mtlbx_member *selected(const struct members *m)
{
    const struct mtlbx_archive *a = current_archive(m);
    if (!a || m->rows[m->list.sel].member < 0 || a->state != MTLBX_ARCHIVE_LOADED)
        return NULL;
    return &a->members[m->rows[m->list.sel].member];
}

static void free_rows(struct members *m)
{
    free(m->rows);
    m->rows = NULL;
    m->n_rows = 0;
}

/* Decompressing a library's archives (bzip2, then tar) takes seconds on a
 * big or hostile one: it runs on the job worker, and the list opens when
 * it is done. The library serialises its own loads; no model lock. */
struct load_job {
    struct place at;
};

static bool all_tried(const mtlbx_library *lib)
{
    const struct mtlbx_sources *s = mbx_library_sources(lib);
    for (size_t ai = 0; s && ai < s->n_archives; ai++)
        if (__atomic_load_n(&s->archives[ai].state, __ATOMIC_ACQUIRE) == MTLBX_ARCHIVE_UNLOADED)
            return false;
    return true;
}

static void load_work(struct job *j)
{
    struct load_job *d = j->ctx;
    const struct mtlbx_sources *s = mbx_library_sources(d->at.lib);
    for (size_t ai = 0; s && ai < s->n_archives && !job_cancelled(j); ai++) {
        job_set_progress(j, ai, s->n_archives);
        mbx_archive_load(d->at.lib, ai);
    }
}

static void load_finish(struct explorer *ex, struct job *j, bool cancelled)
{
    struct load_job *d = j->ctx;
    if (cancelled)
        ex_message(ex, "decompressing the sources cancelled");
    else
        open_view(ex, VIEW_MEMBERS, &d->at);
    free(d);
}

/* Every archive of the library (a source archive and its library), each
 * decompressed first; the one asked about selected. */
static bool members_open(struct explorer *ex, const struct place *at)
{
    struct members *m = state(ex);
    if (!at->lib || at->archive < 0)
        return m->rows != NULL; /* back to the list it holds */
    if (m->rows && m->lib == at->lib && m->archive == (size_t)at->archive)
        return true;
    if (!all_tried(at->lib)) {
        struct load_job *d = calloc(1, sizeof *d);
        if (!d) {
            ex_error(ex, "out of memory");
            return false;
        }
        d->at = *at;
        d->at.text = NULL;
        if (!job_start(ex, "decompressing the sources", load_work, load_finish, d, false))
            free(d);
        return false; /* it opens when they are in */
    }
    free_rows(m);
    m->file = at->file;
    m->lib = at->lib;
    m->archive = (size_t)at->archive;
    mtlbx_library *lib = m->lib;
    size_t archive = m->archive;
    m->list = (struct list){ 0 };
    /* Every archive of the library (a failed one keeps its heading,
     * saying so). */
    const struct mtlbx_sources *s = mbx_library_sources(lib);
    size_t total = 0, failed = 0;
    for (size_t ai = 0; s && ai < s->n_archives; ai++) {
        if (mbx_archive_load(lib, ai) != MTLBX_ARCHIVE_LOADED)
            failed++;
        total += 1 + s->archives[ai].n_members;
    }
    if (!s || failed == s->n_archives) {
        ex_error(ex, "the source archive%s do%s not decode (bzip2 or tar damaged; see Diagnostics)",
                 failed == 1 ? "" : "s", failed == 1 ? "es" : "");
        return false;
    }
    m->rows = calloc(total + 1, sizeof *m->rows);
    if (!m->rows) {
        ex_error(ex, "out of memory");
        return false;
    }
    for (size_t ai = 0; s && ai < s->n_archives; ai++) {
        if (ai == archive)
            m->list.sel = m->n_rows + (s->archives[ai].n_members ? 1 : 0);
        m->rows[m->n_rows++] = (struct member_row){ ai, -1 };
        for (size_t k = 0; k < s->archives[ai].n_members; k++)
            m->rows[m->n_rows++] = (struct member_row){ ai, (long)k };
    }
    m->list.n = m->n_rows;
    if (failed)
        ex_error(ex, "%zu of %zu source archives do not decode (see Diagnostics)", failed, s->n_archives);
    return true;
}

static char *member_name(const struct mtlbx_member *mem)
{
    char *s = textfmt_escape_str_dup(mem->name);
    return s ? s : strdup("?");
}

static void write_one(struct explorer *ex, struct members *m)
{
    const struct mtlbx_member *mem = selected(m);
    if (!mem) {
        ex_error(ex, "select a member to write it (W writes the whole archive)");
        return;
    }
    if (mem->type != MTLBX_MEMBER_FILE || !mem->data) {
        ex_error(ex, "only regular files can be written");
        return;
    }
    const char *slash = strrchr(mem->name, '/');
    char *base = safe_component((const uint8_t *)(slash ? slash + 1 : mem->name),
                                strlen(slash ? slash + 1 : mem->name));
    char path[1024];
    bool ok = prompt_path(ex, "Write member to", base ? base : "member", path, sizeof path);
    free(base);
    if (ok)
        verb_write_bytes(ex, path, mem->data, (size_t)mem->size);
}

/* Where safe_write_under will put `rel` under `dir` (leading '/' and "."
 * parts dropped), to ask before replacing files that exist. */
static bool member_exists(const char *dir, const char *rel)
{
    char path[4096];
    size_t n = (size_t)snprintf(path, sizeof path, "%s", dir);
    for (const char *p = rel; *p && n < sizeof path;) {
        while (*p == '/')
            p++;
        const char *e = strchr(p, '/');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len && !(len == 1 && p[0] == '.'))
            n += (size_t)snprintf(path + n, sizeof path - n, "/%.*s", (int)len, p);
        p += len;
    }
    struct stat st;
    return n < sizeof path && lstat(path, &st) == 0;
}

static void write_all(struct explorer *ex, struct members *m)
{
    const struct mtlbx_archive *a = current_archive(m);
    if (!a || a->n_members == 0)
        return;
    char def[300], typed[1024], dir[2048];
    char *id = safe_component(a->id.ptr, a->id.len);
    snprintf(def, sizeof def, "./sources-%s", id ? id : "archive");
    free(id);
    if (!prompt_path(ex, "Write all members under directory", def, typed, sizeof typed))
        return;
    verb_expand_home(typed, dir, sizeof dir);
    char err0[256];
    if (!verb_make_dirs(dir, err0, sizeof err0)) {
        ex_error(ex, "%s", err0);
        return;
    }
    /* A path that two members share is written once, from the first: the
     * overwrite prompt is about files on disk, never about replacing one
     * member with another. */
    bool *dup = calloc(a->n_members, sizeof *dup);
    size_t dups = dup ? member_plan_duplicates(a, dup) : (size_t)-1;
    if (dups == (size_t)-1) {
        free(dup);
        ex_error(ex, "out of memory");
        return;
    }
    size_t existing = 0, files = 0;
    for (size_t i = 0; i < a->n_members; i++)
        if (a->members[i].type == MTLBX_MEMBER_FILE && !dup[i]) {
            files++;
            existing += member_exists(dir, a->members[i].name);
        }
    bool force = verb_confirm_overwrite(ex, existing, files, dir);
    size_t written = 0, refused = 0, skipped = 0;
    char err[256], first_err[512] = "";
    for (size_t i = 0; i < a->n_members; i++) {
        const struct mtlbx_member *mem = &a->members[i];
        if (mem->type != MTLBX_MEMBER_FILE || !mem->data) {
            skipped++;
            continue;
        }
        if (dup[i]) {
            if (!refused++) {
                char *n = member_name(mem);
                snprintf(first_err, sizeof first_err, "%.200s appears twice; the second copy is not written",
                         n ? n : "a member");
                free(n);
            }
            continue;
        }
        if (safe_write_under(dir, mem->name, mem->data, (size_t)mem->size, force, err, sizeof err,
                             NULL, 0) == 0) {
            written++;
        } else if (!refused++) {
            char *n = member_name(mem);
            snprintf(first_err, sizeof first_err, "%.200s: %s", n, err);
            free(n);
        }
    }
    free(dup);
    if (refused)
        ex_error(ex, "wrote %zu %s under %s; %zu refused (%s)", written, mbx_noun(written, "file", "files"), dir,
                 refused, first_err);
    else
        ex_message(ex, "wrote %zu %s under %s%s", written, mbx_noun(written, "file", "files"), dir,
                   skipped ? " (directories and links skipped)" : "");
}

struct member_match {
    struct members *m;
    const struct query *q;
};

static bool member_matches(void *ctx, size_t i)
{
    struct member_match *mm = ctx;
    const struct mtlbx_archive *a = archive_at(mm->m, mm->m->rows[i].archive);
    return a && mm->m->rows[i].member >= 0 && a->state == MTLBX_ARCHIVE_LOADED &&
           query_label_matches(mm->q, a->members[mm->m->rows[i].member].name);
}

static bool members_grep(struct explorer *ex, const struct query *q, bool fresh, bool forward)
{
    (void)fresh;
    struct members *m = state(ex);
    if (m->n_rows == 0)
        return false;
    struct member_match mm = { m, q };
    long i = search_rows(m->n_rows, m->list.sel, forward, false, member_matches, &mm);
    if (i >= 0) {
        list_select(&m->list, i);
        return true;
    }
    ex_error(ex, "no member matches %s", q->text);
    return false;
}

static enum view_result members_action(struct explorer *ex, enum action a)
{
    struct members *m = state(ex);
    switch (a) {
    case ACT_ENTER:
        if (m->list.sel < m->n_rows && m->rows[m->list.sel].member >= 0)
            verb_show_member(ex, m->lib, m->rows[m->list.sel].archive, (size_t)m->rows[m->list.sel].member);
        else
            ex_message(ex, "an archive: its members are listed below it");
        break;
    case ACT_WRITE: write_one(ex, m); break;
    case ACT_WRITE_ALL: write_all(ex, m); break;
    case ACT_COPY: {
        const struct mtlbx_member *mem = selected(m);
        char *safe = mem ? textfmt_escape_str_dup(mem->name) : NULL;
        if (safe)
            verb_copy(ex, "the path", safe);
        free(safe);
        break;
    }
    default: return VIEW_IGNORED;
    }
    return VIEW_HANDLED;
}

static const char *type_word(enum mtlbx_member_type t)
{
    switch (t) {
    case MTLBX_MEMBER_FILE: return "file";
    case MTLBX_MEMBER_DIR: return "dir";
    case MTLBX_MEMBER_SYMLINK: return "symlink";
    case MTLBX_MEMBER_HARDLINK: return "hardlink";
    case MTLBX_MEMBER_DEVICE: return "device";
    case MTLBX_MEMBER_FIFO: return "fifo";
    default: return "other";
    }
}

static void members_draw(struct explorer *ex)
{
    struct members *m = state(ex);
    const struct rect *r = &ex->lay.body;
    const struct mtlbx_sources *s = m->lib ? mbx_library_sources(m->lib) : NULL;
    size_t n_archives = s ? s->n_archives : 0;
    char title[400];
    size_t n_members = m->n_rows - n_archives;
    snprintf(title, sizeof title, " Source %s: %zu, %zu %s   Enter view  w write  W write all  q back",
             mbx_noun(n_archives, "archive", "archives"), n_archives, n_members,
             mbx_noun(n_members, "member", "members"));
    term_put(r->y, r->x, r->w, title, term_attr(AT_PANEL_TITLE_FOCUS), 0);
    /* The heading in the same format as the rows, so it stays aligned. */
    char head[64];
    snprintf(head, sizeof head, MEMBER_ROW_FORMAT_HEAD, "type", "size", "name");
    term_put(r->y + 1, r->x, r->w, head, A_BOLD, 0);
    list_set(&m->list, m->n_rows, r->y + 2, r->h - 2);
    int rows = (int)list_page(&m->list);
    for (int k = 0; k < rows; k++) {
        size_t i = m->list.top + (size_t)k;
        if (i >= m->n_rows)
            break;
        const struct mtlbx_archive *a = archive_at(m, m->rows[i].archive);
        char line[1200];
        attr_t at = i == m->list.sel ? term_attr(AT_SELECT) : A_NORMAL;
        if (!a)
            continue;
        if (m->rows[i].member < 0) {
            char *id = textfmt_escape_dup(a->id.ptr, a->id.len);
            if (a->state == MTLBX_ARCHIVE_LOADED)
                snprintf(line, sizeof line, "archive %zu  %s  (%zu member%s)", m->rows[i].archive,
                         id ? id : "?", a->n_members, a->n_members == 1 ? "" : "s");
            else
                snprintf(line, sizeof line, "! archive %zu  %s  (does not decode; see Diagnostics)",
                         m->rows[i].archive, id ? id : "?");
            free(id);
            term_put(r->y + 2 + k, r->x, r->w, line, i == m->list.sel ? at : term_attr(AT_HEADING), 0);
            continue;
        }
        const struct mtlbx_member *mem = &a->members[m->rows[i].member];
        char *name = member_name(mem);
        char cut[1024];
        /* A long path is cut in the middle: its file name stays. */
        int room = r->w - 25;
        rowfmt_cut_middle(name, room > 4 ? room : 4, rowfmt_ellipsis(term_ascii()), cut, sizeof cut);
        snprintf(line, sizeof line, MEMBER_ROW_FORMAT, type_word(mem->type), mem->size, cut);
        free(name);
        term_put(r->y + 2 + k, r->x, r->w, line, at, 0);
    }
}

static void members_forget(struct explorer *ex)
{
    struct members *m = state(ex);
    free_rows(m);
    memset(m, 0, sizeof *m);
}

static void members_done(struct explorer *ex)
{
    free_rows(state(ex));
}

static struct list *members_list(struct explorer *ex)
{
    return &state(ex)->list;
}

static void members_here(struct explorer *ex, struct jump *j)
{
    struct members *m = state(ex);
    if (m->lib)
        j->at = place_archive(m->file, m->lib, m->archive);
    j->w[0] = m->list.sel;
}

const struct view_ops members_view = {
    .name = "source members",
    .keys = KC_MEMBERS,
    .state_size = sizeof(struct members),
    .open = members_open,
    .forget = members_forget,
    .done = members_done,
    .draw = members_draw,
    .action = members_action,
    .search = { "Search member names", members_grep },
    .list = members_list,
    .jump = { members_here, list_view_restore },
};
