/* The verbs on one function, from whichever view has it selected: e
 * writes its module (through safe_write, asking where with a default and
 * again before replacing a file), d disassembles it with llvm-dis into the
 * text view, in the background and cached per module hash. */
#include "config.h"

#include "run_tool.h"
#include "safe_write.h"
#include "ui/core/job.h"
#include "ui/verbs/verbs.h"
#include "ui/widgets/prompt.h"
#include "checks/sha256.h"
#include "ui/text/textfmt.h"
#include "container/functions.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *escaped(struct mtlbx_bytes b)
{
    char *s = textfmt_escape_dup(b.ptr, b.len);
    return s ? s : strdup("?");
}

void verb_extract_function(struct explorer *ex, mtlbx_library *lib, size_t fn)
{
    struct mtlbx_bytes m = mbx_function_module_bytes(lib, fn);
    const struct mtlbx_function *f = mbx_function_at(lib, fn);
    if (m.len == 0) {
        ex_error(ex, "this function's module is missing or outside the module section");
        return;
    }
    char *base = safe_component(f->name.ptr, f->name.len);
    char def[300], path[1024];
    snprintf(def, sizeof def, "%s.air", base ? base : "module");
    free(base);
    if (!prompt_path(ex, "Write module to", def, path, sizeof path))
        return;
    verb_write_bytes(ex, path, m.ptr, m.len);
}

/* llvm-dis outputs kept by the SHA-256 of the module they came from
 * (computed, not the HASH tag, which a damaged file may get wrong): the
 * same module is disassembled once however often d is pressed on it or on
 * a function that shares it. A few entries, the oldest replaced. */
#define IR_CACHE_ENTRIES 8
#define IR_CACHE_MAX_BYTES ((size_t)256 << 20)

struct ir_entry {
    uint8_t key[32];
    char *text;
    size_t len;
    bool truncated;
};

struct ir_cache {
    struct ir_entry v[IR_CACHE_ENTRIES];
    size_t next;
};

void verbs_done(struct explorer *ex)
{
    if (!ex->ir)
        return;
    for (size_t i = 0; i < IR_CACHE_ENTRIES; i++)
        free(ex->ir->v[i].text);
    free(ex->ir);
    ex->ir = NULL;
}

static const struct ir_entry *ir_lookup(struct explorer *ex, const uint8_t key[32])
{
    for (size_t i = 0; ex->ir && i < IR_CACHE_ENTRIES; i++)
        if (ex->ir->v[i].text && memcmp(ex->ir->v[i].key, key, 32) == 0)
            return &ex->ir->v[i];
    return NULL;
}

static void ir_store(struct explorer *ex, const uint8_t key[32], const char *text, size_t len, bool truncated)
{
    if (len > IR_CACHE_MAX_BYTES / IR_CACHE_ENTRIES)
        return;
    if (!ex->ir && !(ex->ir = calloc(1, sizeof *ex->ir)))
        return;
    struct ir_entry *e = &ex->ir->v[ex->ir->next];
    char *copy = malloc(len + 1);
    if (!copy)
        return;
    memcpy(copy, text, len);
    copy[len] = '\0';
    free(e->text);
    *e = (struct ir_entry){ .text = copy, .len = len, .truncated = truncated };
    memcpy(e->key, key, 32);
    ex->ir->next = (ex->ir->next + 1) % IR_CACHE_ENTRIES;
}

/* llvm-dis runs on the job worker: the UI keeps answering keys, shows
 * "llvm-dis... 2.1 s", and Esc kills and reaps the child. */
struct dis_job {
    uint8_t key[32];             /* the module's SHA-256, for the cache */
    char *llvm_dis;
    const uint8_t *module;       /* in the mapping, which outlives the job */
    size_t len;
    char title[400], save[300];
    struct tool_result res;
    int rc;
};

static void dis_work(struct job *j)
{
    struct dis_job *d = j->ctx;
    d->rc = run_llvm_dis_cancellable(d->llvm_dis, d->module, d->len, LLVM_DIS_TIMEOUT_MS,
                                     LLVM_DIS_MAX_OUTPUT, &j->cancel, &d->res);
}

static void dis_finish(struct explorer *ex, struct job *j, bool cancelled)
{
    struct dis_job *d = j->ctx;
    if (cancelled || d->res.cancelled) {
        ex_message(ex, "llvm-dis cancelled");
    } else if (d->rc != 0) {
        ex_error(ex, "llvm-dis failed: %s", d->res.message[0] ? d->res.message : "no reason given");
    } else {
        ir_store(ex, d->key, d->res.output ? d->res.output : "", d->res.output_len, d->res.truncated);
        /* The chosen llvm-dis rejected it and a newer one read it: say which. */
        char title[sizeof d->title + 600];
        char *by = d->res.read_by[0] ? escaped((struct mtlbx_bytes){ (const uint8_t *)d->res.read_by,
                                                                     strlen(d->res.read_by) })
                                     : NULL;
        char *chosen = by ? escaped((struct mtlbx_bytes){ (const uint8_t *)d->llvm_dis, strlen(d->llvm_dis) })
                          : NULL;
        if (by)
            snprintf(title, sizeof title, "%s (read by %.250s; %.250s rejected it)", d->title, by,
                     chosen ? chosen : "?");
        else
            snprintf(title, sizeof title, "%s", d->title);
        free(by);
        free(chosen);
        struct text_doc doc = { .title = title, .data = d->res.output ? d->res.output : "",
                                .len = d->res.output_len, .save_name = d->save };
        struct place at = place_text(&doc);
        if (open_view(ex, VIEW_TEXT, &at))
            ex_message(ex, "%s%s", d->res.truncated ? "output cut at the size limit; " : "",
                       "/ searches, w saves, q returns");
    }
    tool_result_free(&d->res);
    free(d->llvm_dis);
    free(d);
}

void verb_disassemble(struct explorer *ex, mtlbx_library *lib, size_t fn)
{
    struct mtlbx_bytes m = mbx_function_module_bytes(lib, fn);
    if (m.len == 0) {
        ex_error(ex, "this function's module is missing or outside the module section");
        return;
    }
    if (!ex->llvm_dis)
        ex->llvm_dis = find_llvm_dis(ex->opts ? ex->opts->llvm_dis : NULL);
    if (!ex->llvm_dis) {
        ex_error(ex, "llvm-dis not found: install LLVM, or use --llvm-dis PATH or MTLBX_LLVM_DIS");
        return;
    }
    struct dis_job *d = calloc(1, sizeof *d);
    if (!d || !(d->llvm_dis = strdup(ex->llvm_dis))) {
        free(d);
        ex_error(ex, "out of memory");
        return;
    }
    const struct mtlbx_function *f = mbx_function_at(lib, fn);
    char *name = escaped(f->name);
    char *safe = safe_component(f->name.ptr, f->name.len);
    snprintf(d->title, sizeof d->title, "llvm-dis: %.300s", name);
    snprintf(d->save, sizeof d->save, "%s.ll", safe ? safe : "module");
    free(safe);
    free(name);
    mbx_sha256(m.ptr, m.len, d->key);
    const struct ir_entry *hit = ir_lookup(ex, d->key);
    if (hit) {
        struct text_doc doc = { .title = d->title, .data = hit->text, .len = hit->len, .save_name = d->save };
        struct place at = place_text(&doc);
        if (open_view(ex, VIEW_TEXT, &at))
            ex_message(ex, "%s%s", hit->truncated ? "output cut at the size limit; " : "",
                       "/ searches, w saves, q returns (cached)");
        free(d->llvm_dis);
        free(d);
        return;
    }
    d->module = m.ptr;
    d->len = m.len;
    if (!job_start(ex, "llvm-dis", dis_work, dis_finish, d, false)) {
        free(d->llvm_dis);
        free(d);
    }
}
