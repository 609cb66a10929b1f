/* The folder list's survey (folder_scan.h): a thread that opens each
 * library the walk found, in order, and notes what `mtlbx find` reports
 * (functions, container version, target, problems) plus the range of MSL
 * versions; once every library has its counts, it goes over them again
 * decoding interfaces, so that `/` can find a function, argument or type
 * name in any of them. Each file is closed before the next is opened:
 * memory stays flat however many libraries there are. No curses here. */
#include "config.h"

#include "gate/archive_members.h"
#include "program/text_buf.h"
#include "ui/work/folder_scan.h"
#include "bitcode/interface_reader.h"
#include "ui/text/textfmt.h"
#include "container/functions.h"
#include "container/header.h"
#include "container/target_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* While the walk is still finding entries: how long to wait for more. */
#define WAIT_NS 20000000L

/* Bytes from the file, made safe for the screen (they are shown in the
 * status line when found). */
static void add_safe(struct text_buf *t, struct mtlbx_bytes b)
{
    char *e = textfmt_escape_dup(b.ptr, b.len);
    if (e)
        text_buf_str(t, e);
    free(e);
}

/* Entry i's open path, copied (entries move when the list grows); NULL
 * when it is not there yet or has nothing to open. */
static char *path_of(struct folder_scan *s, size_t i, bool *past_end)
{
    char *p = NULL;
    pthread_mutex_lock(&s->lock);
    *past_end = i >= s->n;
    if (!*past_end && !s->v[i].problem)
        p = strdup(s->v[i].open_path);
    pthread_mutex_unlock(&s->lock);
    return p;
}

static void summarize(struct folder_scan *s, size_t i, const char *path)
{
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    bool ok = mbx_open_any(path, &f, &err) == MTLBX_E_NONE && f;
    char version[40] = "", target[64] = "", msl[24] = "", buf[64];
    size_t functions = 0, problems = ok ? mbx_file_diag_count(f) : 0;
    unsigned lo = ~0u, hi = 0;
    for (size_t l = 0; ok && l < mbx_file_library_count(f); l++) {
        mtlbx_library *lib = mbx_library_at(f, l);
        const struct mtlbx_header *h = mbx_library_header(lib);
        size_t vl = strlen(version), tl = strlen(target);
        snprintf(version + vl, sizeof version - vl, "%s%u.%u.%u", l ? "," : "", h->major, h->minor, h->patch);
        snprintf(target + tl, sizeof target - tl, "%s%s", l ? "," : "", mbx_target_text(h, buf, sizeof buf));
        functions += mbx_library_function_count(lib);
        problems += mbx_library_diag_count(lib);
        for (size_t k = 0; k < mbx_library_function_count(lib); k++) {
            const struct mtlbx_function *fn = mbx_function_at(lib, k);
            if (!(fn->present & MTLBX_F_VERS))
                continue;
            unsigned v = (unsigned)fn->msl_major * 1000 + fn->msl_minor;
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
    }
    if (hi && lo == hi)
        snprintf(msl, sizeof msl, "%u.%u", lo / 1000, lo % 1000);
    else if (hi)
        snprintf(msl, sizeof msl, "%u.%u-%u.%u", lo / 1000, lo % 1000, hi / 1000, hi % 1000);
    mbx_close(f);
    pthread_mutex_lock(&s->lock);
    struct folder_entry *e = &s->v[i];
    e->surveyed = true;
    e->unreadable = !ok;
    if (ok) {
        e->functions = functions;
        e->problems = problems;
        memcpy(e->version, version, sizeof version);
        memcpy(e->target, target, sizeof target);
        memcpy(e->msl, msl, sizeof msl);
    }
    pthread_mutex_unlock(&s->lock);
}

/* Every function's name, and each argument's type and name with its
 * function's ("TYPE ARG in NAME"), one a line: the line found is what
 * the status line shows, the part that matched first. */
static void index_entry(struct folder_scan *s, size_t i, const char *path)
{
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    struct text_buf t = { 0 };
    text_buf_add(&t, "", 0);
    if (mbx_open_any(path, &f, &err) == MTLBX_E_NONE && f) {
        for (size_t l = 0; l < mbx_file_library_count(f) && !s->cancel; l++) {
            mtlbx_library *lib = mbx_library_at(f, l);
            mtlbx_interface_reader *rd = mbx_interface_reader_new(lib);
            for (size_t k = 0; k < mbx_library_function_count(lib) && !s->cancel; k++) {
                struct mtlbx_bytes name = mbx_function_at(lib, k)->name;
                add_safe(&t, name);
                text_buf_add(&t, "\n", 1);
                struct mtlbx_interface *iface = mbx_interface_read(rd, lib, k, NULL, NULL);
                for (size_t a = 0; iface && a < iface->n_inputs; a++) {
                    const struct mtlbx_air_argument *arg = &iface->inputs[a];
                    if (!arg->has_name && !arg->has_type)
                        continue;
                    if (arg->has_type)
                        add_safe(&t, arg->type);
                    text_buf_add(&t, " ", 1);
                    if (arg->has_name)
                        add_safe(&t, arg->name);
                    text_buf_add(&t, " in ", 4);
                    add_safe(&t, name);
                    text_buf_add(&t, "\n", 1);
                }
                mbx_interface_free(iface);
            }
            mbx_interface_reader_free(rd);
        }
        mbx_close(f);
    }
    char *index = text_buf_take(&t, NULL, NULL);
    pthread_mutex_lock(&s->lock);
    if (index && !s->v[i].index) {
        s->v[i].index = index;
        index = NULL;
    }
    pthread_mutex_unlock(&s->lock);
    free(index);
}

void *folder_survey_thread(void *arg)
{
    struct folder_scan *s = arg;
    /* Counts first, following the walk. */
    for (size_t i = 0; !s->cancel;) {
        bool past_end;
        char *path = path_of(s, i, &past_end);
        if (past_end) {
            if (atomic_load(&s->done)) {
                /* The walk is over: nothing more will come. */
                pthread_mutex_lock(&s->lock);
                past_end = i >= s->n;
                pthread_mutex_unlock(&s->lock);
                if (past_end)
                    break;
                continue;
            }
            nanosleep(&(struct timespec){ 0, WAIT_NS }, NULL);
            continue;
        }
        if (path)
            summarize(s, i, path);
        free(path);
        atomic_store(&s->surveyed, ++i);
    }
    /* Then the index for `/`. */
    for (size_t i = 0; !s->cancel; i++) {
        bool past_end;
        char *path = path_of(s, i, &past_end);
        if (past_end)
            break;
        if (path)
            index_entry(s, i, path);
        free(path);
        atomic_store(&s->indexed, i + 1);
    }
    atomic_store(&s->survey_done, true);
    return NULL;
}
