/* Changed fields in words, old value and new (diff_text.h). The values are
 * the JSON values of `dump --json` (values_json.c), shown as text. */
#include "config.h"

#include "diff_text.h"
#include "checks/requires_text.h"
#include "json/values_json.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct diff_palette diff_colours = { "\033[32m", "\033[31m", "\033[33m", "\033[1m", "\033[0m" };
const struct diff_palette diff_plain = { "", "", "", "", "" };

/* The text form of a header field: requires as "macOS 26.0 (MSL 4.0, AIR
 * 2.8)", so its change reads "requires macOS 15.0 (...) -> macOS 26.0 (...)". */
static json_t *header_text(mtlbx_library *lib, enum mtlbx_header_field f)
{
    if (f != MTLBX_HF_REQUIRES)
        return vj_header_field(lib, f);
    struct mtlbx_requires r;
    char target[64], cause[160], text[240];
    mbx_library_requires(lib, &r);
    req_target_text(&r, target, sizeof target);
    req_cause_text(&r, cause, sizeof cause);
    snprintf(text, sizeof text, cause[0] ? "%s (%s)" : "%s", target, cause);
    return json_string(text);
}

/* What identifies an item of a list value: the item itself when it is a
 * string, its "name" when it is an object with one, else its JSON. */
static char *item_key(const json_t *item)
{
    const json_t *name = json_is_object(item) ? json_object_get(item, "name") : NULL;
    return vj_text(name ? name : item);
}

static bool has_key(const json_t *list, const char *key, const json_t **match)
{
    size_t k;
    const json_t *item;
    json_array_foreach(list, k, item) {
        char *s = item_key(item);
        bool eq = s && strcmp(s, key) == 0;
        free(s);
        if (eq) {
            *match = item;
            return true;
        }
    }
    return false;
}

/* Lists longer than this are summarised by their lengths: comparing items
 * pairwise is quadratic, and a hostile entry may hold thousands of tags. */
#define LIST_DETAIL_MAX 64

/* "+x -y ~z": items added, removed and changed, for list values. */
static void put_list_change(FILE *out, const json_t *a, const json_t *b, const struct diff_palette *p)
{
    if (json_array_size(a) > LIST_DETAIL_MAX || json_array_size(b) > LIST_DETAIL_MAX) {
        fprintf(out, "%zu items -> %zu items", json_array_size(a), json_array_size(b));
        return;
    }
    bool any = false;
    size_t k;
    const json_t *item, *other;
    json_array_foreach(b, k, item) {
        char *s = item_key(item);
        if (s && !has_key(a, s, &other))
            fprintf(out, "%s%s+%s%s", any ? " " : "", p->add, s, p->off), any = true;
        else if (s && !json_equal(item, other))
            fprintf(out, "%s%s~%s%s", any ? " " : "", p->chg, s, p->off), any = true;
        free(s);
    }
    json_array_foreach(a, k, item) {
        char *s = item_key(item);
        if (s && !has_key(b, s, &other))
            fprintf(out, "%s%s-%s%s", any ? " " : "", p->del, s, p->off), any = true;
        free(s);
    }
    if (!any)
        fputs("reordered", out);
}

/* "field a -> b" for one changed field; takes a and b. */
static void put_field_change(FILE *out, const char *field, json_t *a, json_t *b, const struct diff_palette *p)
{
    fprintf(out, "%s ", field);
    if (json_is_array(a) && json_is_array(b)) {
        put_list_change(out, a, b, p);
    } else {
        char *x = vj_text(a), *y = vj_text(b);
        /* A whole SHA-256 per side makes the line unreadable; 16 digits
         * tell two hashes apart (--json has them whole). */
        if (strcmp(field, "hash") == 0 && x && y && strlen(x) > 16 && strlen(y) > 16)
            x[16] = y[16] = '\0';
        fprintf(out, "%s%s%s -> %s%s%s", p->del, x ? x : "?", p->off, p->add, y ? y : "?", p->off);
        free(x);
        free(y);
    }
    json_decref(a);
    json_decref(b);
}

/* "interface buffer(3) params: constant GEMMParams& -> buffer(4), +texture(0) t" */
static void put_interface_change(FILE *out, mtlbx_interface_reader *ra, const mtlbx_library *a, size_t i,
                                 mtlbx_interface_reader *rb, const mtlbx_library *b, size_t j,
                                 const struct diff_palette *p)
{
    json_t *changes = vj_interface_changes(ra, a, i, rb, b, j);
    size_t k;
    json_t *line;
    fputs("interface ", out);
    json_array_foreach(changes, k, line) {
        const char *s = json_string_value(line);
        const char *colour = s[0] == '+' ? p->add : s[0] == '-' ? p->del : p->chg;
        fprintf(out, "%s%s%s%s", k ? ", " : "", colour, s, p->off);
    }
    json_decref(changes);
}

/* Text written to memory: open_memstream's buffer, NULL when anything
 * failed (out of memory). */
struct text_out {
    FILE *f;
    char *buf;
    size_t len;
};

static bool text_open(struct text_out *t)
{
    t->buf = NULL;
    t->len = 0;
    t->f = open_memstream(&t->buf, &t->len);
    return t->f != NULL;
}

static char *text_close(struct text_out *t)
{
    bool ok = !ferror(t->f);
    if (fclose(t->f) != 0 || !ok) {
        free(t->buf);
        return NULL;
    }
    return t->buf;
}

char *diff_header_change_text(mtlbx_library *a, mtlbx_library *b, enum mtlbx_header_field f,
                              const struct diff_palette *p)
{
    struct text_out t;
    if (!text_open(&t))
        return NULL;
    put_field_change(t.f, mbx_header_field_name(f), header_text(a, f), header_text(b, f), p);
    return text_close(&t);
}

char *diff_function_change_text(mtlbx_interface_reader *ra, mtlbx_library *a, size_t i, mtlbx_interface_reader *rb,
                                mtlbx_library *b, size_t j, unsigned fields,
                                const struct diff_palette *p)
{
    struct text_out t;
    if (!text_open(&t))
        return NULL;
    const char *sep = "";
    for (unsigned f = 0; f < MTLBX_FF_COUNT; f++) {
        if (!(fields & (1u << f)))
            continue;
        fputs(sep, t.f);
        sep = "; ";
        if (f == MTLBX_FF_INTERFACE)
            put_interface_change(t.f, ra, a, i, rb, b, j, p);
        else
            put_field_change(t.f, mbx_function_field_name(f), vj_function_field(a, i, f), vj_function_field(b, j, f), p);
    }
    return text_close(&t);
}
