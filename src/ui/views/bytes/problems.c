/* p and P: the next or previous problem from the hex cursor, a function
 * whose hash does not match or a diagnostic, in file order (a search for
 * "BAD" cannot find them: that is a badge, not a name). */
#include "config.h"

#include "ui/views/bytes/bytes.h"
#include "ui/work/hasher.h"
#include "checks/hash.h"
#include "container/file.h"
#include "container/functions.h"
#include "container/diagnostics.h"

#include <inttypes.h>
#include <stdio.h>

struct problem_pick {
    uint64_t from;
    bool forward;
    bool found, wrapped_found;
    uint64_t best, wrap_best;    /* nearest after (before) `from`; extreme for the wrap */
    char what[200], wrap_what[200];
};

static void consider(struct problem_pick *p, uint64_t off, const char *what)
{
    bool ahead = p->forward ? off > p->from : off < p->from;
    if (ahead) {
        if (!p->found || (p->forward ? off < p->best : off > p->best)) {
            p->found = true;
            p->best = off;
            snprintf(p->what, sizeof p->what, "%s", what);
        }
    } else if (!p->wrapped_found || (p->forward ? off < p->wrap_best : off > p->wrap_best)) {
        p->wrapped_found = true;
        p->wrap_best = off;
        snprintf(p->wrap_what, sizeof p->wrap_what, "%s", what);
    }
}

static void consider_diag(struct problem_pick *p, const struct mtlbx_diag *d)
{
    char what[200];
    snprintf(what, sizeof what, "%s: %.180s", d->severity == MTLBX_ERROR ? "error" : "warning",
             d->message ? d->message : "");
    consider(p, d->offset, what);
}

void problems_step(struct explorer *ex, bool forward)
{
    struct bytes *b = bytes_of(ex);
    uint32_t file = bytes_current_file(ex);
    mtlbx_file *f = ex->files[file].f;
    struct problem_pick p = { .from = b->hex.file == file ? b->hex.cursor : 0, .forward = forward };
    for (size_t d = 0; d < mbx_file_diag_count(f); d++)
        consider_diag(&p, mbx_file_diag(f, d));
    for (size_t l = 0; l < mbx_file_library_count(f); l++) {
        mtlbx_library *lib = mbx_library_at(f, l);
        for (size_t d = 0; d < mbx_library_diag_count(lib); d++)
            consider_diag(&p, mbx_library_diag(lib, d));
        size_t n = mbx_library_function_count(lib);
        for (size_t i = 0; i < n; i++)
            if (mbx_function_hash_state(lib, i) == MTLBX_HASH_MISMATCH)
                consider(&p, mbx_function_at(lib, i)->entry_offset, "hash mismatch (HASH does not match the module)");
    }
    if (!p.found && !p.wrapped_found) {
        size_t done, total;
        hasher_progress(ex->hasher, &done, &total);
        ex_message(ex, "no problems found%s", done < total ? " so far (hashes are still being checked)" : "");
        return;
    }
    uint64_t at = p.found ? p.best : p.wrap_best;
    history_push(ex);
    hex_goto(ex, file, at);
    hex_sync_tree(ex);
    ex_message(ex, "0x%" PRIx64 ": %s%s", at, p.found ? p.what : p.wrap_what,
               p.found ? "" : "  (wrapped)");
}
