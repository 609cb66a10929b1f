/* Release inventories: `mtlbx diff OLD NEW` on two folders or two archives
 * (two wheels, two .ipa, two SDK folders), CONTRACT.md "Archives, folders
 * and releases". Each side is walked the way `find` walks it (tree_walk,
 * archives by content, nested ones joined with '!'); the libraries are
 * paired by their path inside each side, and each pair is compared by the
 * library diff (compare.c) and shown the way `diff A B` shows it.
 *
 * Only the list of paths is kept: a pair's two libraries are opened,
 * compared, rendered and closed before the next pair, so memory does not
 * grow with the size of the release. */
#include "config.h"

#include "commands.h"
#include "diff_render.h"
#include "util/values_json.h"
#include "util/archive_members.h"
#include "util/tree_walk.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool diff_is_release(const char *path)
{
    return !member_path_split(path) && folder_or_archive(path);
}

/* ----------------------------------------------------------- one side -- */

struct item {
    char *key;                 /* the path inside the side: what pairs */
    char *open;                /* what open_any() takes */
    size_t seq;                /* walk order, to keep the first of a key */
};

struct inventory {
    struct item *v;
    size_t n, cap;
    bool failed;               /* something could not be read (reported) */
    const struct walk_entry *archive;   /* while listing one */
};

/* Takes ownership of key and open. */
static void add(struct inventory *inv, char *key, char *open)
{
    if (key && open && inv->n == inv->cap) {
        size_t cap = inv->cap ? 2 * inv->cap : 64;
        struct item *g = realloc(inv->v, cap * sizeof *g);
        if (g)
            inv->v = g, inv->cap = cap;
    }
    if (!key || !open || inv->n == inv->cap) {
        free(key);
        free(open);
        cli_error("diff", NULL, "out of memory");
        inv->failed = true;
        return;
    }
    inv->v[inv->n] = (struct item){ key, open, inv->n };
    inv->n++;
}

static int on_member(void *ctx, const char *name, uint64_t size, struct member_reader *rd)
{
    (void)size;
    (void)rd;
    struct inventory *inv = ctx;
    const struct walk_entry *e = inv->archive;
    add(inv, e->rel[0] ? archive_join(e->rel, name) : strdup(name), archive_join(e->path, name));
    return 0;
}

static int on_entry(void *ctx, const struct walk_entry *e)
{
    struct inventory *inv = ctx;
    switch (e->kind) {
    case WALK_PROBLEM:
        cli_error(e->path, NULL, "%s", e->problem);
        inv->failed = true;
        break;
    case WALK_METALLIB:
        add(inv, strdup(e->rel[0] ? e->rel : e->path), strdup(e->path));
        break;
    case WALK_ARCHIVE: {
        char err[300];
        inv->archive = e;
        int rc = archive_list_metallibs(e->path, on_member, inv, NULL, err, sizeof err);
        if (rc != 0 && (rc != ARCHIVE_NOT_ARCHIVE || !e->rel[0])) {
            cli_error(e->path, NULL, "%s", err);
            inv->failed = true;
        }
        inv->archive = NULL;
        break;
    }
    }
    return 0;
}

static int by_key(const void *p, const void *q)
{
    const struct item *x = p, *y = q;
    int c = strcmp(x->key, y->key);
    return c ? c : x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void collect(const char *root, struct inventory *inv)
{
    struct walk_progress progress = { 0 };
    tree_walk(root, on_entry, inv, &progress, NULL);
    if (inv->n > 1)
        qsort(inv->v, inv->n, sizeof *inv->v, by_key);
}

static void inventory_free(struct inventory *inv)
{
    for (size_t i = 0; i < inv->n; i++) {
        free(inv->v[i].key);
        free(inv->v[i].open);
    }
    free(inv->v);
}

/* ------------------------------------------------------------- output -- */

struct report {
    bool json, verify, colour;
    json_t *added, *removed, *changed;
    size_t n_added, n_removed, n_changed, n_same;
    bool failed;               /* a pair could not be compared */
};

static json_t *string_json(const char *s) { return vj_bytes((struct mtlbx_bytes){ (const uint8_t *)s, strlen(s) }); }

static void put_line(const struct report *r, char mark, const char *colour, const char *path)
{
    printf("%s%c %s", r->colour ? colour : "", mark, "");
    cli_put_escaped(stdout, (struct mtlbx_bytes){ (const uint8_t *)path, strlen(path) });
    printf("%s\n", r->colour ? "\033[0m" : "");
}

static void only_one_side(struct report *r, const struct item *it, bool in_new)
{
    if (in_new)
        r->n_added++;
    else
        r->n_removed++;
    if (r->json)
        json_array_append_new(in_new ? r->added : r->removed, string_json(it->key));
    else
        put_line(r, in_new ? '+' : '-', in_new ? "\033[32m" : "\033[31m", it->key);
}

/* Both sides have the path: the library diff. */
static void compare_pair(struct report *r, const struct item *x, const struct item *y)
{
    mtlbx_file *fa = cli_open(x->open);
    mtlbx_file *fb = fa ? cli_open(y->open) : NULL;
    struct mtlbx_diff *d = NULL;
    struct mtlbx_diff_options opt = { .verify = r->verify };
    if (!fb) {
        r->failed = true;
    } else if (mtlbx_diff_files(fa, fb, &opt, &d) != MTLBX_OK) {
        cli_error(x->open, NULL, "out of memory while comparing with %s", y->open);
        r->failed = true;
    } else if (cli_unchanged(x->open, fa) || cli_unchanged(y->open, fb)) {
        r->failed = true;
    } else if (d->identical) {
        r->n_same++;
    } else {
        r->n_changed++;
        if (r->json) {
            json_array_append_new(r->changed, json_pack("{s:o,s:o}", "path", string_json(x->key), "diff",
                                                        diff_json(d, x->open, y->open)));
        } else {
            put_line(r, '~', "\033[33m", x->key);
            diff_print_text(d, x->open, y->open, r->verify, r->colour, "    ");
        }
    }
    mtlbx_diff_free(d);
    mtlbx_close(fa);
    mtlbx_close(fb);
}

static void count_up(size_t n, const char *one, const char *many, const char **sep)
{
    if (n) {
        printf("%s%zu %s", *sep, n, n == 1 ? one : many);
        *sep = ", ";
    }
}

static void print_summary(const struct report *r, const char *old_path, const char *new_path)
{
    char *sa = mtlbx_escape_dup((const uint8_t *)old_path, strlen(old_path), MTLBX_ESC_TERMINAL);
    char *sb = mtlbx_escape_dup((const uint8_t *)new_path, strlen(new_path), MTLBX_ESC_TERMINAL);
    printf("%s -> %s: ", sa ? sa : "?", sb ? sb : "?");
    free(sa);
    free(sb);
    const char *sep = "";
    count_up(r->n_changed, "library changed", "libraries changed", &sep);
    count_up(r->n_added, "added", "added", &sep);
    count_up(r->n_removed, "removed", "removed", &sep);
    printf("%s%s%zu the same\n", sep, *sep ? "" : "identical, ", r->n_same);
}

/* ------------------------------------------------------------ command -- */

int diff_releases(const char *old_path, const char *new_path, bool json, bool verify, bool colour)
{
    if (!diff_is_release(old_path) || !diff_is_release(new_path)) {
        cli_error(diff_is_release(old_path) ? new_path : old_path, NULL,
                  "a single library: diff compares two libraries, or two folders or archives");
        return 2;
    }
    struct inventory a = { 0 }, b = { 0 };
    collect(old_path, &a);
    collect(new_path, &b);
    struct report r = { .json = json, .verify = verify, .colour = colour };
    if (json) {
        r.added = json_array();
        r.removed = json_array();
        r.changed = json_array();
    }
    size_t i = 0, j = 0;
    while (i < a.n || j < b.n) {
        int c = i == a.n ? 1 : j == b.n ? -1 : strcmp(a.v[i].key, b.v[j].key);
        const char *key = c <= 0 ? a.v[i].key : b.v[j].key;
        if (c < 0)
            only_one_side(&r, &a.v[i], false);
        else if (c > 0)
            only_one_side(&r, &b.v[j], true);
        else
            compare_pair(&r, &a.v[i], &b.v[j]);
        /* A path twice on one side (an archive may hold it twice): the
         * first is compared, as diff pairs the first of a function name. */
        if (c <= 0)
            while (++i < a.n && strcmp(a.v[i].key, key) == 0)
                ;
        if (c >= 0)
            while (++j < b.n && strcmp(b.v[j].key, key) == 0)
                ;
    }
    bool identical = !r.n_added && !r.n_removed && !r.n_changed;
    int rc = 0;
    if (json) {
        json_t *root = json_pack("{s:o,s:o,s:b,s:o,s:o,s:o}", "a", string_json(old_path), "b", string_json(new_path),
                                 "identical", identical, "added", r.added, "removed", r.removed, "changed", r.changed);
        rc = root ? json_dumpf(root, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII) : -1;
        json_decref(root);
        putchar('\n');
    } else {
        print_summary(&r, old_path, new_path);
    }
    inventory_free(&a);
    inventory_free(&b);
    if (rc != 0 || fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("(standard output)", NULL, "write failed");
        return 2;
    }
    if (r.failed || a.failed || b.failed)
        return 2;
    return identical ? 0 : 1;
}
