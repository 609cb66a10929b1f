/* The release gate over check's operands (gate_run.h): the walk of
 * `mtlbx check`, its findings handed to the caller's sink. */
#include "config.h"

#include "gate/gate_run.h"
#include "gate/archive_members.h"
#include "gate/macho_members.h"
#include "gate/tree_walk.h"
#include "container/dup_printf.h"
#include "container/functions.h"
#include "container/header.h"
#include "container/nouns.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A text LIST bigger than this is refused (a million names is ~50 MB). */
#define LIST_MAX_BYTES ((size_t)64 << 20)

static void problem(const struct mbx_gate_sink *s, const char *path, const uint64_t *offset, const char *message)
{
    s->problem(s->ctx, path, offset, message);
}

static int open_path(const struct mbx_gate_sink *s, const char *path, mtlbx_file **f, struct mtlbx_error *err)
{
    return s->open ? s->open(s->ctx, path, f, err) : mbx_open_any(path, f, err);
}

/* Opened, or NULL after the sink was told why. */
static mtlbx_file *open_or_say(const struct mbx_gate_sink *s, const char *path)
{
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    if (open_path(s, path, &f, &err) != MTLBX_E_NONE) {
        problem(s, path, err.has_offset ? &err.offset : NULL, err.message);
        return NULL;
    }
    return f;
}

/* A file read only in part (memory ran out) or that changed under the
 * reads is not answered for: true after saying so. */
static bool incomplete(const struct mbx_gate_sink *s, const char *path, const mtlbx_file *f)
{
    uint64_t at;
    if (mbx_file_out_of_memory(f, &at)) {
        problem(s, path, &at, "out of memory while reading the file: the result is incomplete");
        return true;
    }
    if (mbx_file_changed(f)) {
        problem(s, path, NULL, "the file changed or shrank while it was being read");
        return true;
    }
    return false;
}

/* A member read whole and opened, named ARCHIVE!MEMBER (*full, malloc'd,
 * or NULL); NULL after the sink was told why. */
static mtlbx_file *open_member(const struct mbx_gate_sink *s, const char *archive, const char *name,
                               struct member_reader *rd, char **full)
{
    *full = mbx_archive_join(archive, name);
    char err[256];
    size_t len;
    void *data = *full ? mbx_member_read_all(rd, &len, err, sizeof err) : NULL;
    mtlbx_file *f = NULL;
    struct mtlbx_error oerr;
    if (!*full)
        problem(s, archive, NULL, "out of memory");
    else if (!data)
        problem(s, *full, NULL, err);
    else if (mbx_open_buffer_owned(data, len, *full, &f, &oerr) != MTLBX_E_NONE)
        problem(s, *full, oerr.has_offset ? &oerr.offset : NULL, oerr.message);
    return f;
}

/* ---------------------------------------------------------- the run -- */

/* A finding of mbx_gate_check_file, into the sink. */
struct into {
    struct mbx_gate_run *r;
    size_t idx;
};

static bool add(struct mbx_gate_run *r, size_t idx, enum mtlbx_severity sev, uint64_t offset, const char *message,
                const char *rule)
{
    if (idx == SIZE_MAX || !r->sink.finding(r->sink.ctx, idx, sev, offset, message, rule)) {
        r->job_out_of_memory = true;
        return false;
    }
    return true;
}

static bool add_finding(void *ctx, enum mtlbx_severity sev, uint64_t offset, const char *message, const char *rule)
{
    struct into *into = ctx;
    return add(into->r, into->idx, sev, offset, message, rule);
}

static size_t file_index(struct mbx_gate_run *r, const char *name)
{
    size_t idx = r->sink.file(r->sink.ctx, name);
    if (idx == SIZE_MAX)
        r->job_out_of_memory = true;
    return idx;
}

/* One library file: checked, held against --expect, kept for the gate. */
static void check_library(struct mbx_gate_run *r, const char *name, const char *member,
                          const struct mtlbx_macho_slice *slice, mtlbx_file *f)
{
    size_t idx = file_index(r, name);
    struct into into = { r, idx };
    if (mbx_gate_check_file(f, r->gate, add_finding, &into) < 0) {
        problem(&r->sink, name, NULL, "out of memory");
        r->unopened = true;
    }
    for (size_t l = 0; r->expect && l < mbx_file_library_count(f); l++) {
        const mtlbx_library *lib = mbx_library_at(f, l);
        mbx_expect_library(r->expect, lib);
        /* An empty library (a build that cached a 118-byte metallib) fails any --expect. */
        if (!mbx_library_function_count(lib)) {
            size_t n = mbx_expect_count(r->expect);
            char *msg = mbx_dup_printf("library has no functions, and %s expects %zu %s", r->expect->list, n,
                                       mbx_noun(n, "name", "names"));
            if (msg)
                add(r, idx, MTLBX_ERROR, mbx_library_header(lib)->base, msg, MBX_RULE_EXPECT);
            free(msg);
        }
    }
    if (r->gate->declared && !mbx_file_out_of_memory(f, NULL))
        mbx_gate_wait_add(&r->wait, name, member, slice, f, true, idx);
    if (incomplete(&r->sink, name, f))
        r->unopened = true;
}

static void emit_declared(void *ctx, size_t tag, const char *name, const struct gate_finding *g)
{
    (void)name;
    add(ctx, tag, g->severity, g->offset, g->message, MBX_RULE_OS_DECLARED);
}

static void job_begin(struct mbx_gate_run *r, const char *disk_path, bool archive)
{
    if (r->gate->declared)
        mbx_package_begin(&r->pkg, disk_path, archive, &r->cache);
}

/* The job's declared findings, then everything it found, flushed. */
static void job_end(struct mbx_gate_run *r)
{
    if (r->gate->declared) {
        if (!mbx_gate_wait_finish(&r->wait, &r->pkg, emit_declared, r) || r->pkg.out_of_memory)
            r->job_out_of_memory = true;
        mbx_gate_wait_free(&r->wait);
        mbx_package_end(&r->pkg);
    }
    if (r->job_out_of_memory) {
        problem(&r->sink, r->operand, NULL, "out of memory: its findings are not all known");
        r->unopened = true;
    }
    if (!r->sink.flush(r->sink.ctx))
        r->stopped = true;
    r->job_out_of_memory = false;
}

struct member_ctx {
    struct mbx_gate_run *r;
    const char *archive;
    size_t members;            /* handed to on_member */
};

/* A WHEEL or an Info.plist member (--os declared). */
static int on_declaration(void *ctx, const char *name, uint64_t size, struct member_reader *rd)
{
    (void)size;
    mbx_package_member_read(&((struct member_ctx *)ctx)->r->pkg, name, rd);
    return 0;
}

static int on_member(void *ctx, const char *name, uint64_t size, struct member_reader *rd)
{
    (void)size;
    struct member_ctx *mc = ctx;
    struct mbx_gate_run *r = mc->r;
    mc->members++;
    char *full;
    mtlbx_file *f = open_member(&r->sink, mc->archive, name, rd, &full);
    if (f)
        check_library(r, full, name, mbx_member_macho_slice(rd), f);
    else
        r->unopened = true;
    mbx_close(f);
    free(full);
    return 0;
}

/* An archive or a Mach-O host: its libraries (only `want` when not NULL),
 * and what its package declares. */
static void check_archive(struct mbx_gate_run *r, const char *path, const char *want, bool named)
{
    job_begin(r, path, true);
    struct member_ctx mc = { r, path, 0 };
    char err[300];
    int rc = mbx_archive_list_metallibs_and(path, want, on_member,
                                            r->gate->declared ? mbx_package_member_wanted : NULL, on_declaration,
                                            &mc, NULL, err, sizeof err);
    if (rc != 0 && (rc != ARCHIVE_NOT_ARCHIVE || named)) {
        problem(&r->sink, path, NULL, err);
        r->unopened = true;
    } else if (want && !mc.members) {
        problem(&r->sink, r->operand, NULL, "no such member in the archive");
        r->unopened = true;
    }
    job_end(r);
}

/* A file named, or met in a folder, as a metallib. */
static void check_path(struct mbx_gate_run *r, const char *path)
{
    mtlbx_file *f = open_or_say(&r->sink, path);
    if (!f) {
        r->unopened = true;
        return;
    }
    job_begin(r, path, false);
    check_library(r, path, "", NULL, f);
    mbx_close(f);
    job_end(r);
}

static int on_entry(void *ctx, const struct walk_entry *e)
{
    struct mbx_gate_run *r = ctx;
    switch (e->kind) {
    case WALK_PROBLEM:
        problem(&r->sink, e->path, NULL, e->problem);
        r->unopened = true;
        break;
    case WALK_METALLIB:
        check_path(r, e->path);
        break;
    case WALK_ARCHIVE:
        check_archive(r, e->path, NULL, !e->rel[0]);
        break;
    }
    return r->stopped;
}

static void report_missing(void *ctx, const char *what, bool glob)
{
    struct mbx_gate_run *r = ctx;
    char *msg = glob ? mbx_dup_printf("no function matches %s, which %s expects", what, r->expect->list)
                     : mbx_dup_printf("function %s is missing, which %s expects", what, r->expect->list);
    if (msg)
        add(r, file_index(r, r->operand), MTLBX_ERROR, 0, msg, MBX_RULE_EXPECT);
    free(msg);
}

void mbx_gate_run_operand(struct mbx_gate_run *r, const char *path)
{
    r->operand = path;
    if (r->expect)
        mbx_expect_reset(r->expect);
    /* What find takes: a folder, an archive, a Mach-O host; a member of
     * one (ARCHIVE!MEMBER, HOST!SEGMENT,SECTION) is read with the
     * declarations beside it. */
    size_t cut = mbx_member_path_split(path);
    if (cut) {
        char *archive = strndup(path, cut);
        if (archive)
            check_archive(r, archive, path + cut + 1, true);
        else
            problem(&r->sink, path, NULL, "out of memory"), r->unopened = true;
        free(archive);
    } else if (mbx_folder_or_archive(path)) {
        struct walk_progress progress = { 0 };
        mbx_tree_walk(path, on_entry, r, &progress, NULL);
    } else {
        check_path(r, path);
    }
    if (r->expect && !r->stopped) {
        /* A list that names nothing checks nothing: a pipeline's mistake
         * (an empty file, a build that lost its functions), never a pass. */
        if (!mbx_expect_count(r->expect)) {
            char *msg = mbx_dup_printf("%s names no function: an --expect list that names nothing checks nothing",
                                       r->expect->list);
            if (msg)
                add(r, file_index(r, r->operand), MTLBX_ERROR, 0, msg, MBX_RULE_EXPECT);
            free(msg);
        }
        mbx_expect_missing(r->expect, report_missing, r);
        if (r->expect->out_of_memory)
            problem(&r->sink, path, NULL, "out of memory"), r->unopened = true;
        if (!r->sink.flush(r->sink.ctx))
            r->stopped = true;
        r->job_out_of_memory = false;
    }
}

void mbx_gate_run_free(struct mbx_gate_run *r)
{
    mbx_bundle_cache_free(&r->cache);
}

/* ------------------------------------------------- an --expect LIST -- */

struct expect_walk {
    struct expect *e;
    const struct mbx_gate_sink *sink;
    bool ok;
    const char *archive;       /* the archive being listed */
};

static int expect_member(void *ctx, const char *name, uint64_t size, struct member_reader *rd)
{
    (void)size;
    struct expect_walk *w = ctx;
    char *full;
    mtlbx_file *f = open_member(w->sink, w->archive, name, rd, &full);
    w->ok = w->ok && f && mbx_expect_add_file(w->e, f);
    mbx_close(f);
    free(full);
    return !w->ok;
}

static int expect_entry(void *ctx, const struct walk_entry *e)
{
    struct expect_walk *w = ctx;
    if (e->kind == WALK_PROBLEM) {
        problem(w->sink, e->path, NULL, e->problem);
        w->ok = false;
    } else if (e->kind == WALK_METALLIB) {
        mtlbx_file *f = open_or_say(w->sink, e->path);
        w->ok = f && mbx_expect_add_file(w->e, f);
        mbx_close(f);
    } else {
        char err[300];
        w->archive = e->path;
        int rc = mbx_archive_list_metallibs(e->path, expect_member, w, NULL, err, sizeof err);
        if (rc != 0 && (rc != ARCHIVE_NOT_ARCHIVE || !e->rel[0])) {
            problem(w->sink, e->path, NULL, err);
            w->ok = false;
        }
    }
    return !w->ok;
}

static bool expect_text(struct expect *e, const char *list, const struct mbx_gate_sink *sink)
{
    int fd = open(list, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        char *msg = mbx_dup_printf("--expect: %s", strerror(errno));
        problem(sink, list, NULL, msg ? msg : "--expect: out of memory");
        free(msg);
        return false;
    }
    char *text = malloc(LIST_MAX_BYTES + 1);
    size_t len = 0;
    char why_errno[200];
    const char *why = text ? NULL : "--expect: out of memory";
    while (text && len <= LIST_MAX_BYTES) {
        ssize_t n = read(fd, text + len, LIST_MAX_BYTES + 1 - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            snprintf(why_errno, sizeof why_errno, "--expect: %s", strerror(errno)), why = why_errno;
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    close(fd);
    if (!why && len > LIST_MAX_BYTES)
        why = "--expect: a list of names over 64 MiB";
    bool ok = !why && mbx_expect_add_text(e, text, len);
    if (why)
        problem(sink, list, NULL, why);
    free(text);
    return ok;
}

bool mbx_gate_run_expect(struct expect *e, const char *list, const struct mbx_gate_sink *sink)
{
    if (!mbx_expect_begin(e, list)) {
        problem(sink, list, NULL, "--expect: out of memory");
        return false;
    }
    /* A build when it opens as one (a metallib, a host, a folder or an
     * archive); anything that is not a metallib at all is a text list. */
    bool ok;
    if (!mbx_member_path_split(list) && mbx_folder_or_archive(list)) {
        e->from_library = true;
        struct expect_walk w = { e, sink, true, NULL };
        struct walk_progress progress = { 0 };
        mbx_tree_walk(list, expect_entry, &w, &progress, NULL);
        ok = w.ok;
    } else {
        mtlbx_file *f = NULL;
        struct mtlbx_error err;
        int rc = open_path(sink, list, &f, &err);
        if (rc == MTLBX_E_NONE) {
            ok = mbx_expect_add_file(e, f);
        } else if (rc == MTLBX_E_NOT_METALLIB && !mbx_metallib_name(list)) {
            ok = expect_text(e, list, sink);
        } else {
            ok = false;
            char *msg = mbx_dup_printf("--expect: %s", err.message);
            problem(sink, list, err.has_offset ? &err.offset : NULL, msg ? msg : err.message);
            free(msg);
        }
        mbx_close(f);
    }
    if (ok && !mbx_expect_finish(e)) {
        problem(sink, list, NULL, "--expect: out of memory");
        ok = false;
    }
    if (!ok)
        mbx_expect_free(e);
    return ok;
}
