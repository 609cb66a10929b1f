/* s on a function (the table, its page): the embedded source member that
 * defines it, found by the library as `mtlbx src` finds it, in the text
 * view at that line; and one member's text. */
#include "config.h"

#include "safe_write.h"
#include "ui/core/job.h"
#include "ui/verbs/verbs.h"
#include "model/source_locate.h"
#include "ui/text/textfmt.h"
#include "container/functions.h"
#include "container/sources.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The library's source search (mbx_source_locate, the same `mtlbx src`
 * uses) runs on the job worker: it decompresses the archives and reads
 * every member, which on a big or hostile library takes a while. It reads
 * only the library's sources, never the node model, so it needs no model
 * lock, and a cancel that it cannot see (inside the library) leaves it
 * behind (core/job.c). */
struct source_job {
    mtlbx_library *lib;
    size_t fn;
    int found;
    struct mtlbx_source_location loc;
};

static void source_work(struct job *j)
{
    struct source_job *d = j->ctx;
    d->found = mbx_source_locate(d->lib, d->fn, &d->loc);
}

static void source_finish(struct explorer *ex, struct job *j, bool cancelled)
{
    struct source_job *d = j->ctx;
    const struct mtlbx_function *f = mbx_function_at(d->lib, d->fn);
    char *name = textfmt_escape_dup(f->name.ptr, f->name.len);
    if (cancelled) {
        ex_message(ex, "source search cancelled");
    } else if (d->found == -2) {
        ex_error(ex, "out of memory searching the sources");
    } else if (d->found < 0) {
        ex_error(ex, "the source archives do not decompress (! lists why)");
    } else if (d->found == 0) {
        ex_message(ex, "no embedded source member defines %s; s in the byte explorer lists them",
                   name ? name : "?");
    } else {
        const struct mtlbx_member *mem =
            &mbx_library_sources(d->lib)->archives[d->loc.archive].members[d->loc.member];
        /* The file name first: a long path is cut at its end. */
        const char *slash = strrchr(mem->name, '/');
        const char *base = slash && slash[1] ? slash + 1 : mem->name;
        char *path = textfmt_escape_str_dup(mem->name);
        char *file = textfmt_escape_str_dup(base);
        char title[1200];
        snprintf(title, sizeof title, "%.200s in %.900s", file ? file : "?", path ? path : "?");
        struct text_doc doc = { .title = title, .data = (const char *)mem->data, .len = (size_t)mem->size,
                                .save_name = base, .line = d->loc.line ? d->loc.line - 1 : 0 };
        struct place at = place_text(&doc);
        if (open_view(ex, VIEW_TEXT, &at))
            ex_message(ex, "line %zu defines %s (as mtlbx src finds it); q returns", d->loc.line, name ? name : "it");
        free(path);
        free(file);
    }
    free(name);
    free(d);
}

void verb_show_source(struct explorer *ex, mtlbx_library *lib, size_t fn)
{
    const struct mtlbx_sources *s = mbx_library_sources(lib);
    if (!s || !s->present || s->n_archives == 0) {
        ex_message(ex, "no embedded sources in this library (they come from -frecord-sources)");
        return;
    }
    struct source_job *d = calloc(1, sizeof *d);
    if (!d) {
        ex_error(ex, "out of memory");
        return;
    }
    d->lib = lib;
    d->fn = fn;
    if (!job_start(ex, "searching the sources", source_work, source_finish, d, false))
        free(d);
}

static char *member_name(const struct mtlbx_member *mem)
{
    char *s = textfmt_escape_str_dup(mem->name);
    return s ? s : strdup("?");
}

void verb_show_member(struct explorer *ex, mtlbx_library *lib, size_t archive, size_t member)
{
    const struct mtlbx_sources *s = mbx_library_sources(lib);
    if (!s || archive >= s->n_archives || s->archives[archive].state != MTLBX_ARCHIVE_LOADED ||
        member >= s->archives[archive].n_members) {
        ex_error(ex, "that member is not available");
        return;
    }
    const struct mtlbx_member *mem = &s->archives[archive].members[member];
    char *name = member_name(mem);
    if (mem->type != MTLBX_MEMBER_FILE || !mem->data) {
        if (mem->link_target) {
            char *t = textfmt_escape_str_dup(mem->link_target);
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
