/* s on a function (the table, its page): the embedded source member that
 * defines it, in the text view at that line; and one member's text. */
#include "config.h"

#include "safe_write.h"
#include "ui/text/source_find.h"
#include "ui/verbs/verbs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

void verb_show_source(struct explorer *ex, mtlbx_library *lib, size_t fn)
{
    const struct mtlbx_sources *s = mtlbx_library_sources(lib);
    if (!s || !s->present || s->n_archives == 0) {
        ex_message(ex, "no embedded sources in this library (they come from -frecord-sources)");
        return;
    }
    long a = mtlbx_function_archive(lib, fn);
    if (a < 0) {
        ex_message(ex, "this function names no source archive (no SOFF)");
        return;
    }
    ex_message(ex, "decompressing the source archive...");
    ex_draw(ex);
    ex->status[0] = '\0';
    if (mtlbx_archive_load(lib, (size_t)a) != MTLBX_ARCHIVE_LOADED) {
        ex_error(ex, "the source archive does not decompress (! lists why)");
        return;
    }
    const struct mtlbx_archive *ar = &s->archives[a];
    const struct mtlbx_function *f = mtlbx_function_at(lib, fn);
    char *demangled = mtlbx_demangle(f->name);
    char *name = demangled ? demangled : strndup((const char *)f->name.ptr, f->name.len);
    /* The best definition over the members, .metal files before others. */
    long best = -1;
    int best_score = 0;
    size_t best_line = 0;
    for (int pass = 0; pass < 2 && best_score < 3; pass++)
        for (size_t m = 0; name && m < ar->n_members; m++) {
            const struct mtlbx_member *mem = &ar->members[m];
            if (mem->type != MTLBX_MEMBER_FILE || !mem->data || ends_with(mem->name, ".metal") != (pass == 0))
                continue;
            size_t line = 0;
            int score = source_find_definition(mem->data, mem->size, name, &line);
            if (score > best_score) {
                best_score = score;
                best = (long)m;
                best_line = line;
            }
        }
    if (best < 0) {
        ex_message(ex, "%s is not named in the embedded sources; s in the byte explorer lists them",
                   name ? "the function" : "?");
        free(name);
        return;
    }
    free(name);
    const struct mtlbx_member *mem = &ar->members[best];
    /* The file name first: a long path is cut at its end. */
    const char *slash = strrchr(mem->name, '/');
    const char *base = slash && slash[1] ? slash + 1 : mem->name;
    char *path = mtlbx_escape_dup((const uint8_t *)mem->name, strlen(mem->name), MTLBX_ESC_TERMINAL);
    char *file = mtlbx_escape_dup((const uint8_t *)base, strlen(base), MTLBX_ESC_TERMINAL);
    char title[1200];
    snprintf(title, sizeof title, "%.200s in %.900s", file ? file : "?", path ? path : "?");
    struct text_doc doc = { .title = title, .data = (const char *)mem->data, .len = mem->size, .save_name = base,
                            .line = best_line };
    struct place at = place_text(&doc);
    free(path);
    free(file);
    if (open_view(ex, VIEW_TEXT, &at))
        ex_message(ex, "line %zu%s; q returns", best_line + 1,
                   best_score >= 3 ? " defines it" : best_score == 2 ? " names it" : " mentions it");
}

static char *member_name(const struct mtlbx_member *mem)
{
    char *s = mtlbx_escape_dup((const uint8_t *)mem->name, strlen(mem->name), MTLBX_ESC_TERMINAL);
    return s ? s : strdup("?");
}

void verb_show_member(struct explorer *ex, mtlbx_library *lib, size_t archive, size_t member)
{
    const struct mtlbx_sources *s = mtlbx_library_sources(lib);
    if (!s || archive >= s->n_archives || s->archives[archive].state != MTLBX_ARCHIVE_LOADED ||
        member >= s->archives[archive].n_members) {
        ex_error(ex, "that member is not available");
        return;
    }
    const struct mtlbx_member *mem = &s->archives[archive].members[member];
    char *name = member_name(mem);
    if (mem->type != MTLBX_MEMBER_FILE || !mem->data) {
        if (mem->link_target) {
            char *t = mtlbx_escape_dup((const uint8_t *)mem->link_target, strlen(mem->link_target),
                                       MTLBX_ESC_TERMINAL);
            ex_message(ex, "%s is a link to %s", name, t ? t : "?");
            free(t);
        } else {
            ex_message(ex, "%s is not a regular file", name);
        }
        free(name);
        return;
    }
    const char *slash = strrchr(mem->name, '/');
    char *base = safe_component((const uint8_t *)(slash ? slash + 1 : mem->name),
                                strlen(slash ? slash + 1 : mem->name));
    char title[600];
    snprintf(title, sizeof title, "source: %.500s", name);
    struct text_doc doc = { .title = title, .data = (const char *)mem->data, .len = (size_t)mem->size,
                            .save_name = base ? base : "member.txt" };
    struct place at = place_text(&doc);
    open_view(ex, VIEW_TEXT, &at);
    free(base);
    free(name);
}
