/* Release inventories: `mtlbx diff OLD NEW` on two folders or two archives
 * (two wheels, two .ipa, two SDK folders), CONTRACT.md "Archives, folders
 * and releases". The libraries are found and paired by their path inside
 * each side by program/release_pairs.c (shared with the explorer), and each
 * pair is compared by the library diff (compare.c) and shown the way
 * `diff A B` shows it.
 *
 * Only the list of paths is kept: a pair's two libraries are opened,
 * compared, rendered and closed before the next pair, so memory does not
 * grow with the size of the release. */
#include "config.h"

#include "cli/commands.h"
#include "cli/diff/diff_render.h"
#include "json/values_json.h"
#include "program/release_pairs.h"

#include <stdlib.h>
#include <string.h>

bool diff_is_release(const char *path) { return release_is_release(path); }

static void on_problem(void *ctx, const char *path, const char *message)
{
    (void)ctx;
    cli_error(path, NULL, "%s", message);
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

static void only_one_side(struct report *r, const struct release_item *it, bool in_new)
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
static void compare_pair(struct report *r, const struct release_item *x, const struct release_item *y)
{
    mtlbx_file *fa = cli_open(x->open);
    mtlbx_file *fb = fa ? cli_open(y->open) : NULL;
    struct mtlbx_diff *d = NULL;
    struct mtlbx_diff_options opt = { .verify = r->verify };
    if (!fb) {
        r->failed = true;
    } else if (mbx_diff_files(fa, fb, &opt, &d) != MTLBX_E_NONE) {
        cli_error(x->open, NULL, "out of memory while comparing with %s", y->open);
        r->failed = true;
    } else if (cli_complete(x->open, fa) || cli_complete(y->open, fb)) { /* out of memory, or changed */
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
    mbx_diff_free(d);
    mbx_close(fa);
    mbx_close(fb);
}

static void on_pair(void *ctx, const struct release_item *x, const struct release_item *y)
{
    struct report *r = ctx;
    if (!y)
        only_one_side(r, x, false);
    else if (!x)
        only_one_side(r, y, true);
    else
        compare_pair(r, x, y);
}

static void count_up(size_t n, const char *one, const char *many, const char **sep)
{
    if (n) {
        printf("%s%zu %s", *sep, n, n == 1 ? one : many);
        *sep = ", ";
    }
}

static void print_summary(const struct report *r, bool unread, const char *old_path, const char *new_path)
{
    char *sa = cli_escape_str_dup(old_path);
    char *sb = cli_escape_str_dup(new_path);
    printf("%s -> %s: ", sa ? sa : "?", sb ? sb : "?");
    free(sa);
    free(sb);
    const char *sep = "";
    count_up(r->n_changed, "library changed", "libraries changed", &sep);
    count_up(r->n_added, "added", "added", &sep);
    count_up(r->n_removed, "removed", "removed", &sep);
    /* What could not be read was not compared: never "identical" then. */
    printf("%s%s%zu the same%s\n", sep, *sep || unread ? "" : "identical, ", r->n_same,
           unread ? ", and not everything could be read" : "");
}

/* ------------------------------------------------------------ command -- */

int diff_releases(const char *old_path, const char *new_path, bool json, bool verify, bool colour)
{
    if (!diff_is_release(old_path) || !diff_is_release(new_path)) {
        cli_error(diff_is_release(old_path) ? new_path : old_path, NULL,
                  "a single library: diff compares two libraries, or two folders or archives");
        return 2;
    }
    struct release_side a = { .problem = on_problem }, b = { .problem = on_problem };
    release_side_collect(old_path, &a);
    release_side_collect(new_path, &b);
    struct report r = { .json = json, .verify = verify, .colour = colour };
    if (json) {
        r.added = json_array();
        r.removed = json_array();
        r.changed = json_array();
    }
    release_pair(&a, &b, on_pair, &r);
    bool unread = r.failed || a.failed || b.failed;
    bool identical = !r.n_added && !r.n_removed && !r.n_changed && !unread;
    int rc = 0;
    if (json) {
        json_t *root = json_pack("{s:o,s:o,s:b,s:o,s:o,s:o}", "a", string_json(old_path), "b", string_json(new_path),
                                 "identical", identical, "added", r.added, "removed", r.removed, "changed", r.changed);
        rc = root ? json_dumpf(root, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII) : -1;
        json_decref(root);
        putchar('\n');
    } else {
        print_summary(&r, unread, old_path, new_path);
    }
    release_side_free(&a);
    release_side_free(&b);
    /* Lost output: cli_close_stdout says so, with the write's own errno. */
    bool lost = fflush(stdout) != 0 || ferror(stdout);
    if (rc != 0 && !lost)
        cli_error(old_path, NULL, "out of memory while writing the comparison with %s", new_path);
    if (rc != 0 || lost)
        return 2;
    if (unread)
        return 2;
    return identical ? 0 : 1;
}
