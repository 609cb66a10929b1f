/* How `mtlbx diff` shows one comparison of two libraries: the JSON object
 * of CONTRACT.md "Comparing two libraries", and the text review (a summary
 * line, then one line per change, coloured on a terminal). Used by diff.c
 * for two libraries and by diff_tree.c for each changed library of two
 * releases, so neither calls into the other. */
#include "config.h"

#include "cli/commands.h"
#include "cli/diff/diff_render.h"
#include "json/values_json.h"
#include "program/diff_text.h"
#include "program/run_tool.h"
#include "container/sources.h"
#include "container/value_names.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A name may repeat in a library (a kernel and a vertex function both
 * named foo; functions without a NAME): the comparison pairs the k-th of a
 * name with the k-th, and says which one it is. In the text a later one is
 * "foo (2nd of that name)"; in the JSON the names stay as they are, so a
 * script reading them still can, and a list of names gets a parallel list
 * "<list>_occurrences" (an object the key "occurrence"), only when a name
 * in it is a second or later one. */
static const char *ordinal_suffix(uint32_t k)
{
    if (k % 100 >= 11 && k % 100 <= 13)
        return "th";
    return k % 10 == 1 ? "st" : k % 10 == 2 ? "nd" : k % 10 == 3 ? "rd" : "th";
}

/* " (2nd of that name)" for a later occurrence, "" for the first. */
static const char *occurrence_text(uint32_t k, size_t name_len, char *buf, size_t size)
{
    if (k < 2)
        return "";
    snprintf(buf, size, " (%" PRIu32 "%s %s)", k, ordinal_suffix(k), name_len ? "of that name" : "without a name");
    return buf;
}

static bool any_later(const uint32_t *occurrence, size_t n)
{
    for (size_t k = 0; occurrence && k < n; k++)
        if (occurrence[k] >= 2)
            return true;
    return false;
}

/* Sets key to the occurrences of a list of names when one is a later one. */
static void set_occurrences(json_t *o, const char *key, const uint32_t *occurrence, size_t n)
{
    if (!o || !any_later(occurrence, n))
        return;
    json_t *a = json_array();
    for (size_t k = 0; k < n; k++)
        json_array_append_new(a, json_integer(occurrence[k]));
    json_object_set_new(o, key, a);
}

static void set_occurrence(json_t *o, const char *key, uint32_t k)
{
    if (o && k >= 2)
        json_object_set_new(o, key, json_integer(k));
}

/* ------------------------------------------------------------- values -- */

static json_t *header_value(mtlbx_library *lib, unsigned f) { return vj_header_field(lib, (enum mtlbx_header_field)f); }
static json_t *function_value(mtlbx_interface_reader *rd, mtlbx_library *lib, size_t i, unsigned f)
{
    if (f == MTLBX_FF_INTERFACE)
        return vj_function_interface(rd, lib, i);
    return vj_function_field(lib, i, (enum mtlbx_function_field)f);
}

static json_t *member_name_json(mtlbx_library *lib, struct mtlbx_member_ref r)
{
    const char *s = mbx_library_sources(lib)->archives[r.archive].members[r.member].name;
    return vj_bytes((struct mtlbx_bytes){ (const uint8_t *)s, strlen(s) });
}

/* ----------------------------------------------------------------- JSON -- */

static json_t *names_json(mtlbx_library *lib, const size_t *v, size_t n)
{
    json_t *a = json_array();
    for (size_t k = 0; k < n; k++)
        json_array_append_new(a, vj_bytes(mbx_function_at(lib, v[k])->name));
    return a;
}

static json_t *members_json(mtlbx_library *lib, const struct mtlbx_member_ref *v, size_t n)
{
    json_t *a = json_array();
    for (size_t k = 0; k < n; k++)
        json_array_append_new(a, member_name_json(lib, v[k]));
    return a;
}

static json_t *library_json(const struct mtlbx_library_diff *d)
{
    json_t *header = json_array();
    for (unsigned f = 0; f < MTLBX_HF_COUNT; f++)
        if (d->header_fields & (1u << f))
            json_array_append_new(header, json_pack("{s:s,s:o,s:o}", "field", mbx_header_field_name(f), "a",
                                                    header_value(d->a, f), "b", header_value(d->b, f)));
    json_t *changed = json_array();
    /* Many functions' interfaces: a module several share is read once. */
    mtlbx_interface_reader *ra = d->n_changed ? mbx_interface_reader_new(d->a) : NULL;
    mtlbx_interface_reader *rb = d->n_changed ? mbx_interface_reader_new(d->b) : NULL;
    for (size_t k = 0; k < d->n_changed; k++) {
        const struct mtlbx_function_change *c = &d->changed[k];
        json_t *fields = json_array();
        for (unsigned f = 0; f < MTLBX_FF_COUNT; f++) {
            if (!(c->fields & (1u << f)))
                continue;
            json_t *field = json_pack("{s:s,s:o,s:o}", "field", mbx_function_field_name(f), "a",
                                      function_value(ra, d->a, c->a, f), "b", function_value(rb, d->b, c->b, f));
            /* Extra key: what changed in the interface, one line each. */
            if (field && f == MTLBX_FF_INTERFACE)
                json_object_set_new(field, "changes", vj_interface_changes(ra, d->a, c->a, rb, d->b, c->b));
            json_array_append_new(fields, field);
        }
        json_t *one = json_pack("{s:o,s:o}", "name", vj_bytes(mbx_function_at(d->a, c->a)->name), "fields", fields);
        set_occurrence(one, "occurrence", c->occurrence_a);
        json_array_append_new(changed, one);
    }
    mbx_interface_reader_free(ra);
    mbx_interface_reader_free(rb);
    json_t *members_changed = json_array();
    for (size_t k = 0; k < d->n_members_changed; k++)
        json_array_append_new(members_changed, member_name_json(d->a, d->members_changed[k].a));
    json_t *o = json_pack("{s:i,s:o,s:{s:o,s:o,s:o},s:{s:o,s:o,s:o}}", "index", (int)d->index, "header", header,
                          "functions", "added", names_json(d->b, d->added, d->n_added), "removed",
                          names_json(d->a, d->removed, d->n_removed), "changed", changed, "sources", "added",
                          members_json(d->b, d->members_added, d->n_members_added), "removed",
                          members_json(d->a, d->members_removed, d->n_members_removed), "changed",
                          members_changed);
    /* Extra keys, beyond the contract: which occurrence of a repeated
     * name each is; renamed or moved functions (same stored HASH) and
     * source members (same bytes). */
    json_t *fo = o ? json_object_get(o, "functions") : NULL, *so = o ? json_object_get(o, "sources") : NULL;
    set_occurrences(fo, "added_occurrences", d->added_occurrence, d->n_added);
    set_occurrences(fo, "removed_occurrences", d->removed_occurrence, d->n_removed);
    set_occurrences(so, "added_occurrences", d->members_added_occurrence, d->n_members_added);
    set_occurrences(so, "removed_occurrences", d->members_removed_occurrence, d->n_members_removed);
    bool later_changed = false;
    for (size_t k = 0; k < d->n_members_changed; k++)
        later_changed |= d->members_changed[k].occurrence_a >= 2;
    if (so && later_changed) {
        json_t *a = json_array();
        for (size_t k = 0; k < d->n_members_changed; k++)
            json_array_append_new(a, json_integer(d->members_changed[k].occurrence_a));
        json_object_set_new(so, "changed_occurrences", a);
    }
    json_t *renamed = json_array(), *members_renamed = json_array();
    for (size_t k = 0; k < d->n_renamed; k++) {
        json_t *one = json_pack("{s:o,s:o}", "a", vj_bytes(mbx_function_at(d->a, d->renamed[k].a)->name), "b",
                                vj_bytes(mbx_function_at(d->b, d->renamed[k].b)->name));
        set_occurrence(one, "a_occurrence", d->renamed[k].occurrence_a);
        set_occurrence(one, "b_occurrence", d->renamed[k].occurrence_b);
        json_array_append_new(renamed, one);
    }
    for (size_t k = 0; k < d->n_members_renamed; k++) {
        json_t *one = json_pack("{s:o,s:o}", "a", member_name_json(d->a, d->members_renamed[k].a), "b",
                                member_name_json(d->b, d->members_renamed[k].b));
        set_occurrence(one, "a_occurrence", d->members_renamed[k].occurrence_a);
        set_occurrence(one, "b_occurrence", d->members_renamed[k].occurrence_b);
        json_array_append_new(members_renamed, one);
    }
    /* Only when there are some: the contract's objects stay as they were. */
    if (o && json_array_size(renamed))
        json_object_set(json_object_get(o, "functions"), "renamed", renamed);
    if (o && json_array_size(members_renamed))
        json_object_set(json_object_get(o, "sources"), "renamed", members_renamed);
    json_decref(renamed);
    json_decref(members_renamed);
    if (o && (!d->a || !d->b))
        json_object_set_new(o, "only_in", json_string(d->a ? "a" : "b"));
    if (o && d->sources_incomplete)
        json_object_set_new(o, "sources_incomplete", json_true());
    return o;
}

json_t *diff_json(const struct mtlbx_diff *d, const char *pa, const char *pb)
{
    json_t *libs = json_array();
    for (size_t l = 0; l < d->n_libraries; l++)
        json_array_append_new(libs, library_json(&d->libraries[l]));
    json_t *root = json_pack("{s:o,s:o,s:b,s:o}", "a", vj_bytes((struct mtlbx_bytes){ (const uint8_t *)pa, strlen(pa) }),
                             "b", vj_bytes((struct mtlbx_bytes){ (const uint8_t *)pb, strlen(pb) }), "identical",
                             d->identical, "libraries", libs);
    /* Only when there are some: the contract's object stays as it was. */
    if (root && d->gpu_slices_changed)
        json_object_set_new(root, "gpu_slices_changed", json_integer((json_int_t)d->gpu_slices_changed));
    return root;
}

/* ----------------------------------------------------------------- text -- */

/* A function's name, and which of that name it is when not the first. */
static void put_function_name(mtlbx_library *lib, size_t i, uint32_t occurrence)
{
    const struct mtlbx_function *fn = mbx_function_at(lib, i);
    char buf[64];
    cli_put_escaped(stdout, fn->name);
    fputs(occurrence_text(occurrence, fn->name.len, buf, sizeof buf), stdout);
}

static void print_function_line(char mark, const char *colour, mtlbx_library *lib, size_t i, uint32_t occurrence,
                                const char *prefix, const struct diff_palette *p)
{
    const struct mtlbx_function *fn = mbx_function_at(lib, i);
    char tbuf[24];
    const char *type = (fn->present & MTLBX_F_TYPE) ? mbx_function_type_name(fn->type, tbuf, sizeof tbuf) : "-";
    printf("%s%s%c %-9s ", prefix, colour, mark, type);
    put_function_name(lib, i, occurrence);
    fputs(p->off, stdout);
}

static void put_member_name(mtlbx_library *lib, struct mtlbx_member_ref r, uint32_t occurrence)
{
    const char *s = mbx_library_sources(lib)->archives[r.archive].members[r.member].name;
    char buf[64];
    cli_put_escaped(stdout, (struct mtlbx_bytes){ (const uint8_t *)s, strlen(s) });
    fputs(occurrence_text(occurrence, strlen(s), buf, sizeof buf), stdout);
}

/* "PREFIX~ source    NAME" without the end of the line. */
static void print_member_line_open(char mark, const char *colour, mtlbx_library *lib, struct mtlbx_member_ref r,
                                   uint32_t occurrence, const char *prefix)
{
    printf("%s%s%c source    ", prefix, colour, mark);
    put_member_name(lib, r, occurrence);
}

static void print_member_line(char mark, const char *colour, mtlbx_library *lib, struct mtlbx_member_ref r,
                              uint32_t occurrence, const char *prefix, const struct diff_palette *p)
{
    print_member_line_open(mark, colour, lib, r, occurrence, prefix);
    printf("%s\n", p->off);
}

/* The content of a changed source member as `diff -u` gives it (diffutils),
 * every line escaped and indented under the member's line. */
static void print_member_content_diff(const struct mtlbx_library_diff *d, const struct mtlbx_member_change *c,
                                      const char *prefix)
{
    const struct mtlbx_member *x = &mbx_library_sources(d->a)->archives[c->a.archive].members[c->a.member];
    const struct mtlbx_member *y = &mbx_library_sources(d->b)->archives[c->b.archive].members[c->b.member];
    if (!x->data || !y->data)
        return;
    char *diff_path = find_tool("diff");
    if (!diff_path) {
        printf("%s    (install diffutils to see the content change)\n", prefix);
        return;
    }
    struct tool_result r;
    if (!run_unified_diff(diff_path, x->data, (size_t)x->size, y->data, (size_t)y->size, "A", "B", &r)) {
        printf("%s    (diff failed: ", prefix);
        cli_put_escaped(stdout, (struct mtlbx_bytes){ (const uint8_t *)r.message, strlen(r.message) });
        puts(")");
    } else {
        for (size_t at = 0; at < r.output_len;) {
            const char *nl = memchr(r.output + at, '\n', r.output_len - at);
            size_t len = nl ? (size_t)(nl - (r.output + at)) : r.output_len - at;
            printf("%s    ", prefix);
            cli_put_escaped(stdout, (struct mtlbx_bytes){ (const uint8_t *)r.output + at, len });
            putchar('\n');
            at += len + 1;
        }
        if (r.truncated)
            printf("%s    (diff output cut at its size limit)\n", prefix);
    }
    tool_result_free(&r);
    free(diff_path);
}

static void print_library(const struct mtlbx_library_diff *d, bool many, const char *indent, const struct diff_palette *p)
{
    char prefix[48];
    snprintf(prefix, sizeof prefix, "%.16s", indent);
    if (many)
        snprintf(prefix + strlen(prefix), sizeof prefix - strlen(prefix), "[%zu] ", d->index);
    if (!d->a || !d->b)
        printf("%s%s%c library   %zu only in %s (%zu functions)%s\n", prefix, d->a ? p->del : p->add,
               d->a ? '-' : '+', d->index, d->a ? "A" : "B",
               mbx_library_function_count(d->a ? d->a : d->b), p->off);
    for (unsigned f = 0; f < MTLBX_HF_COUNT; f++)
        if (d->header_fields & (1u << f)) {
            char *text = diff_header_change_text(d->a, d->b, f, p);
            printf("%s%s~ header%s    %s\n", prefix, p->chg, p->off, text ? text : "(out of memory)");
            free(text);
        }
    for (size_t k = 0; k < d->n_removed; k++) {
        print_function_line('-', p->del, d->a, d->removed[k], d->removed_occurrence[k], prefix, p);
        putchar('\n');
    }
    for (size_t k = 0; k < d->n_added; k++) {
        print_function_line('+', p->add, d->b, d->added[k], d->added_occurrence[k], prefix, p);
        putchar('\n');
    }
    mtlbx_interface_reader *ra = d->n_changed ? mbx_interface_reader_new(d->a) : NULL;
    mtlbx_interface_reader *rb = d->n_changed ? mbx_interface_reader_new(d->b) : NULL;
    for (size_t k = 0; k < d->n_changed; k++) {
        const struct mtlbx_function_change *c = &d->changed[k];
        print_function_line('~', p->chg, d->a, c->a, c->occurrence_a, prefix, p);
        char *text = diff_function_change_text(ra, d->a, c->a, rb, d->b, c->b, c->fields, p);
        printf(": %s\n", text ? text : "(out of memory)");
        free(text);
    }
    mbx_interface_reader_free(ra);
    mbx_interface_reader_free(rb);
    for (size_t k = 0; k < d->n_renamed; k++) {
        print_function_line('>', p->chg, d->a, d->renamed[k].a, d->renamed[k].occurrence_a, prefix, p);
        fputs(" -> ", stdout);
        put_function_name(d->b, d->renamed[k].b, d->renamed[k].occurrence_b);
        puts(" (renamed: same hash)");
    }
    for (size_t k = 0; k < d->n_members_renamed; k++) {
        const struct mtlbx_member_change *c = &d->members_renamed[k];
        print_member_line_open('>', p->chg, d->a, c->a, c->occurrence_a, prefix);
        fputs(" -> ", stdout);
        put_member_name(d->b, c->b, c->occurrence_b);
        printf(" (renamed: same bytes)%s\n", p->off);
    }
    for (size_t k = 0; k < d->n_members_removed; k++)
        print_member_line('-', p->del, d->a, d->members_removed[k], d->members_removed_occurrence[k], prefix, p);
    for (size_t k = 0; k < d->n_members_added; k++)
        print_member_line('+', p->add, d->b, d->members_added[k], d->members_added_occurrence[k], prefix, p);
    for (size_t k = 0; k < d->n_members_changed; k++) {
        print_member_line('~', p->chg, d->a, d->members_changed[k].a, d->members_changed[k].occurrence_a, prefix, p);
        print_member_content_diff(d, &d->members_changed[k], prefix);
    }
    if (d->sources_incomplete)
        printf("%s? sources   an embedded source archive did not decode; its members were not compared\n", prefix);
}

static void count_up(size_t n, const char *what, const char **sep)
{
    if (n) {
        printf("%s%zu %s", *sep, n, what);
        *sep = ", ";
    }
}

static void print_summary(const struct mtlbx_diff *d, const char *pa, const char *pb, bool verified,
                          const char *indent, const struct diff_palette *p)
{
    size_t added = 0, removed = 0, changed = 0, renamed = 0, header = 0, members = 0, only = 0, functions = 0;
    for (size_t l = 0; l < d->n_libraries; l++) {
        const struct mtlbx_library_diff *ld = &d->libraries[l];
        added += ld->n_added, removed += ld->n_removed, changed += ld->n_changed, renamed += ld->n_renamed;
        members += ld->n_members_added + ld->n_members_removed + ld->n_members_changed + ld->n_members_renamed;
        only += !ld->a || !ld->b;
        for (unsigned f = 0; f < MTLBX_HF_COUNT; f++)
            header += (ld->header_fields >> f) & 1u;
        if (ld->a)
            functions += mbx_library_function_count(ld->a);
    }
    char *sa = cli_escape_str_dup(pa);
    char *sb = cli_escape_str_dup(pb);
    printf("%s%s%s -> %s: ", indent, p->bold, sa ? sa : "?", sb ? sb : "?");
    free(sa);
    free(sb);
    if (d->identical) {
        printf("identical (%zu %s, %zu functions, %s)%s\n", d->n_libraries,
               d->n_libraries == 1 ? "library" : "libraries", functions,
               verified ? "every module hashed" : "modules compared byte for byte", p->off);
        return;
    }
    const char *sep = "";
    count_up(changed, changed == 1 ? "function changed" : "functions changed", &sep);
    count_up(added, added == 1 ? "function added" : "functions added", &sep);
    count_up(removed, removed == 1 ? "function removed" : "functions removed", &sep);
    count_up(renamed, renamed == 1 ? "function renamed" : "functions renamed", &sep);
    count_up(header, header == 1 ? "header field" : "header fields", &sep);
    count_up(members, members == 1 ? "source member" : "source members", &sep);
    count_up(only, only == 1 ? "library in one file only" : "libraries in one file only", &sep);
    count_up(d->gpu_slices_changed, d->gpu_slices_changed == 1 ? "GPU slice changed" : "GPU slices changed", &sep);
    if (!*sep)
        fputs("different", stdout);
    printf("%s\n", p->off);
}

void diff_print_text(const struct mtlbx_diff *d, const char *pa, const char *pb, bool verified, bool colour,
                     const char *indent)
{
    const struct diff_palette *p = colour ? &diff_colours : &diff_plain;
    print_summary(d, pa, pb, verified, indent, p);
    for (size_t l = 0; l < d->n_libraries; l++)
        print_library(&d->libraries[l], d->n_libraries > 1, indent, p);
}
