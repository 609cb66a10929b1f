/* The scan thread of folder_scan.h. */
#include "config.h"

#include "ui/work/folder_scan.h"
#include "gate/archive_members.h"
#include "ui/text/textfmt.h"
#include "container/file.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdbool.h>

bool folder_scan_wants(const char *path)
{
    return mbx_folder_or_archive(path);
}

/* Appends one entry (copies the strings). */
static void add(struct folder_scan *s, uint32_t root, const char *label, const char *open_path, uint64_t size,
                const char *problem)
{
    struct folder_entry e = { .root = root, .size = size };
    e.label = strdup(label);
    e.open_path = strdup(open_path);
    e.problem = problem ? strdup(problem) : NULL;
    if (!e.label || !e.open_path || (problem && !e.problem)) {
        free(e.label);
        free(e.open_path);
        free(e.problem);
        return;
    }
    pthread_mutex_lock(&s->lock);
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        struct folder_entry *g = realloc(s->v, cap * sizeof *g);
        if (g) {
            s->v = g;
            s->cap = cap;
        }
    }
    if (s->n < s->cap)
        s->v[s->n++] = e;
    else
        free(e.label), free(e.open_path), free(e.problem);
    pthread_mutex_unlock(&s->lock);
}

struct scan_ctx {
    struct folder_scan *s;
    uint32_t root;
    const struct walk_entry *archive;   /* while listing one */
};

static int on_member(void *ctx, const char *name, uint64_t size, struct member_reader *rd)
{
    (void)rd;
    struct scan_ctx *c = ctx;
    const struct walk_entry *a = c->archive;
    /* The archive named as a root is the heading above its members:
     * each is its path inside it (the part that tells two apart); one
     * found in a folder is named from the folder (dist/App.ipa!...). */
    char *label = a->rel[0] ? mbx_archive_join(a->rel, name) : strdup(name), *open_path = mbx_archive_join(a->path, name);
    if (label && open_path) {
        add(c->s, c->root, label, open_path, size, NULL);
        atomic_fetch_add(&c->s->members, 1);
    }
    free(label);
    free(open_path);
    return 0;
}

static int on_entry(void *ctx, const struct walk_entry *e)
{
    struct scan_ctx *c = ctx;
    const char *label = e->rel[0] ? e->rel : e->path;
    switch (e->kind) {
    case WALK_METALLIB:
        add(c->s, c->root, label, e->path, e->size, NULL);
        break;
    case WALK_PROBLEM:
        add(c->s, c->root, label, e->path, 0, e->problem);
        break;
    case WALK_ARCHIVE: {
        char err[300];
        c->archive = e;
        int rc = mbx_archive_list_metallibs(e->path, on_member, c, &c->s->cancel, err, sizeof err);
        /* Compressed bytes without an archive inside, met in a folder: not
         * a problem (a folder of .gz man pages). Named by the user: said. */
        if (rc != 0 && (rc != ARCHIVE_NOT_ARCHIVE || !e->rel[0])) {
            atomic_fetch_add(&c->s->progress.problems, 1);
            add(c->s, c->root, label, e->path, 0, err);
        }
        c->archive = NULL;
        break;
    }
    }
    return c->s->cancel;
}

static void *scan_thread(void *arg)
{
    struct folder_scan *s = arg;
    for (uint32_t r = 0; r < s->n_roots && !s->cancel; r++) {
        struct scan_ctx c = { s, r, NULL };
        mbx_tree_walk(s->roots[r], on_entry, &c, &s->progress, &s->cancel);
    }
    atomic_store(&s->done, true);
    return NULL;
}

struct folder_scan *folder_scan_new(char *const *roots, uint32_t n_roots)
{
    struct folder_scan *s = calloc(1, sizeof *s);
    if (!s || !(s->roots = calloc(n_roots ? n_roots : 1, sizeof *s->roots))) {
        free(s);
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    for (uint32_t i = 0; i < n_roots; i++)
        if ((s->roots[s->n_roots] = strdup(roots[i])))
            s->n_roots++;
    return s;
}

void folder_scan_begin(struct folder_scan *s)
{
    if (s->began)
        return;
    s->began = true;
    if (pthread_create(&s->thread, NULL, scan_thread, s) == 0)
        s->thread_started = true;
    else
        scan_thread(s); /* no thread: scan now */
    s->survey_started = pthread_create(&s->survey_thread, NULL, folder_survey_thread, s) == 0;
    if (!s->survey_started)
        atomic_store(&s->survey_done, true);
}

void folder_scan_cancel(struct folder_scan *s)
{
    if (s)
        s->cancel = 1;
}

void folder_scan_free(struct folder_scan *s)
{
    if (!s)
        return;
    s->cancel = 1;
    if (s->thread_started)
        pthread_join(s->thread, NULL);
    if (s->survey_started)
        pthread_join(s->survey_thread, NULL);
    for (size_t i = 0; i < s->n; i++) {
        mbx_close(s->v[i].file);
        free(s->v[i].label);
        free(s->v[i].open_path);
        free(s->v[i].problem);
        free(s->v[i].index);
    }
    free(s->v);
    for (uint32_t i = 0; i < s->n_roots; i++)
        free(s->roots[i]);
    free(s->roots);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

void folder_scan_title(const struct folder_scan *s, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, " mtlbx  ");
    for (uint32_t r = 0; s && r < s->n_roots && used < size; r++) {
        char *safe = textfmt_escape_str_dup(s->roots[r]);
        used += (size_t)snprintf(buf + used, size - used, "%s%s", r ? " | " : "", safe ? safe : "?");
        free(safe);
    }
}
