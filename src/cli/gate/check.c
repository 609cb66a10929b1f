/* `mtlbx check`: everything that can be checked, one finding per line as
 * FILE:OFFSET: error|warning: message (or JSON Lines, or GitHub
 * annotations: check_report.h). It hashes every module, checks that each
 * is LLVM bitcode and that its interface decodes, walks the byte layout
 * and decompresses every source archive, so each lazily found problem
 * shows (the library's checker core: gate/gate.h). It takes what find takes (folders, archives, Mach-O hosts, walked
 * the same way) and adds the release gate: --os declared (declared_gate.h)
 * and --expect LIST (expect.h). Findings of a library come sorted by
 * offset, identical on every run. */
#include "config.h"

#include "cli/commands.h"
#include "cli/gate/check_report.h"
#include "cli/gate/declared_gate.h"
#include "cli/gate/expect.h"
#include "cli/gate/os_option.h"
#include "program/archive_members.h"
#include "program/macho_members.h"
#include "program/tree_walk.h"
#include "gate/gate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A finding of mbx_gate_check_file, into the report. */
struct report_into {
    struct report *r;
    size_t idx;
};

static bool add_finding(void *ctx, enum mtlbx_severity sev, uint64_t offset, const char *message, const char *rule)
{
    struct report_into *into = ctx;
    report_add(into->r, into->idx, sev, offset, message, rule);
    return !into->r->out_of_memory;
}

/* ---------------------------------------------------------- the run -- */

struct checker {
    struct mbx_os_gate gate;
    struct expect *expect;     /* --expect, or NULL */
    struct report report;
    struct bundle_cache cache;
    bool any_finding, any_unopened, output_failed;
    /* The job at hand: a file, or an archive or Mach-O host with what is
     * inside it (--os declared waits for its declarations). */
    struct package pkg;
    struct gate_wait wait;
    const char *operand;
};

/* One library file: checked, held against --expect, kept for the gate. */
static void check_library(struct checker *c, const char *name, const char *member,
                          const struct mtlbx_macho_slice *slice, mtlbx_file *f)
{
    size_t idx = report_file(&c->report, name);
    struct report_into into = { &c->report, idx };
    if (mbx_gate_check_file(f, &c->gate, add_finding, &into) < 0) {
        cli_error(name, NULL, "out of memory");
        c->any_unopened = true;
    }
    for (size_t l = 0; c->expect && l < mbx_file_library_count(f); l++) {
        const mtlbx_library *lib = mbx_library_at(f, l);
        expect_library(c->expect, lib);
        /* An empty library (a build that cached a 118-byte metallib) fails any --expect. */
        if (!mbx_library_function_count(lib)) {
            char *msg = NULL;
            if (asprintf(&msg, "library has no functions, and %s expects %zu %s", c->expect->list,
                         expect_count(c->expect), mbx_noun(expect_count(c->expect), "name", "names")) >= 0)
                report_add(&c->report, idx, MTLBX_ERROR, mbx_library_header(lib)->base, msg, RULE_EXPECT);
            free(msg);
        }
    }
    if (c->gate.declared && !mbx_file_out_of_memory(f, NULL))
        gate_wait_add(&c->wait, name, member, slice, f, true, idx);
    if (cli_complete(name, f))
        c->any_unopened = true;
}

static void emit_declared(void *ctx, size_t tag, const char *name, const struct gate_finding *g)
{
    (void)name;
    struct checker *c = ctx;
    report_add(&c->report, tag, g->severity, g->offset, g->message, RULE_OS_DECLARED);
}

static void job_begin(struct checker *c, const char *disk_path, bool archive)
{
    if (c->gate.declared)
        package_begin(&c->pkg, disk_path, archive, &c->cache);
}

/* The job's declared findings, then everything it found, printed. */
static void job_end(struct checker *c)
{
    if (c->gate.declared) {
        if (!gate_wait_finish(&c->wait, &c->pkg, emit_declared, c) || c->pkg.out_of_memory)
            c->report.out_of_memory = true;
        gate_wait_free(&c->wait);
        package_end(&c->pkg);
    }
    size_t before = c->report.findings;
    if (c->report.out_of_memory) {
        cli_error(c->operand, NULL, "out of memory: its findings are not all known");
        c->any_unopened = true;
    }
    if (!report_flush(&c->report, stdout))
        c->output_failed = true;
    c->any_finding |= c->report.findings > before;
    c->report.out_of_memory = false;
}

struct member_ctx {
    struct checker *c;
    const char *archive;
    size_t members;            /* handed to on_member */
};

/* A WHEEL or an Info.plist member (--os declared). */
static int on_declaration(void *ctx, const char *name, uint64_t size, struct member_reader *rd)
{
    (void)size;
    package_member_read(&((struct member_ctx *)ctx)->c->pkg, name, rd);
    return 0;
}

static int on_member(void *ctx, const char *name, uint64_t size, struct member_reader *rd)
{
    (void)size;
    struct member_ctx *mc = ctx;
    mc->members++;
    char *full = archive_join(mc->archive, name);
    char err[256];
    size_t len;
    void *data = full ? member_read_all(rd, &len, err, sizeof err) : NULL;
    mtlbx_file *f = NULL;
    struct mtlbx_error oerr;
    if (!full)
        cli_error(mc->archive, NULL, "out of memory");
    else if (!data)
        cli_error(full, NULL, "%s", err);
    else if (mbx_open_buffer_owned(data, len, full, &f, &oerr) != MTLBX_E_NONE)
        cli_error(full, oerr.has_offset ? &oerr.offset : NULL, "%s", oerr.message);
    if (f)
        check_library(mc->c, full, name, member_macho_slice(rd), f);
    else
        mc->c->any_unopened = true;
    mbx_close(f);
    free(full);
    return 0;
}

/* An archive or a Mach-O host: its libraries (only `want` when not NULL),
 * and what its package declares. */
static void check_archive(struct checker *c, const char *path, const char *want, bool named)
{
    job_begin(c, path, true);
    struct member_ctx mc = { c, path, 0 };
    char err[300];
    int rc = archive_list_metallibs_and(path, want, on_member, c->gate.declared ? package_member_wanted : NULL,
                                        on_declaration, &mc, NULL, err, sizeof err);
    if (rc != 0 && (rc != ARCHIVE_NOT_ARCHIVE || named)) {
        cli_error(path, NULL, "%s", err);
        c->any_unopened = true;
    } else if (want && !mc.members) {
        cli_error(c->operand, NULL, "no such member in the archive");
        c->any_unopened = true;
    }
    job_end(c);
}

/* A file named, or met in a folder, as a metallib. */
static void check_path(struct checker *c, const char *path)
{
    mtlbx_file *f = cli_open(path);
    if (!f) {
        c->any_unopened = true;
        return;
    }
    job_begin(c, path, false);
    check_library(c, path, "", NULL, f);
    mbx_close(f);
    job_end(c);
}

static int on_entry(void *ctx, const struct walk_entry *e)
{
    struct checker *c = ctx;
    switch (e->kind) {
    case WALK_PROBLEM:
        cli_error(e->path, NULL, "%s", e->problem);
        c->any_unopened = true;
        break;
    case WALK_METALLIB:
        check_path(c, e->path);
        break;
    case WALK_ARCHIVE:
        check_archive(c, e->path, NULL, !e->rel[0]);
        break;
    }
    return 0;
}

static void report_missing(void *ctx, const char *what, bool glob)
{
    struct checker *c = ctx;
    size_t idx = report_file(&c->report, c->operand);
    char *msg = NULL;
    if (asprintf(&msg, glob ? "no function matches %s, which %s expects" : "function %s is missing, which %s expects",
                 what, c->expect->list) >= 0)
        report_add(&c->report, idx, MTLBX_ERROR, 0, msg, RULE_EXPECT);
    free(msg);
}

/* A list that names nothing checks nothing: a pipeline's mistake (an
 * empty file, a build that lost its functions), never a pass. */
static void report_empty_list(struct checker *c)
{
    size_t idx = report_file(&c->report, c->operand);
    char *msg = NULL;
    if (asprintf(&msg, "%s names no function: an --expect list that names nothing checks nothing",
                 c->expect->list) >= 0)
        report_add(&c->report, idx, MTLBX_ERROR, 0, msg, RULE_EXPECT);
    free(msg);
}

int cmd_check(const struct cli_args *args)
{
    struct checker c = { 0 };
    struct expect expect;
    if (!os_gate_parse(args, &c.gate) ||
        !report_format_parse(cli_value(args, OPT_FORMAT), cli_flag(args, OPT_JSON), &c.report.format))
        return 2;
    if (cli_value(args, OPT_EXPECT)) {
        if (!expect_load(&expect, cli_value(args, OPT_EXPECT)))
            return 2;
        c.expect = &expect;
    }
    for (int a = 0; a < args->n_operands && !c.output_failed; a++) {
        const char *path = args->operands[a];
        c.operand = path;
        if (c.expect)
            expect_reset(c.expect);
        /* What find takes: a folder, an archive, a Mach-O host; a member
         * of one (ARCHIVE!MEMBER, HOST!SEGMENT,SECTION) is read with the
         * declarations beside it. */
        size_t cut = member_path_split(path);
        if (cut) {
            char *archive = strndup(path, cut);
            if (archive)
                check_archive(&c, archive, path + cut + 1, true);
            else
                cli_error(path, NULL, "out of memory"), c.any_unopened = true;
            free(archive);
        } else if (folder_or_archive(path)) {
            struct walk_progress progress = { 0 };
            tree_walk(path, on_entry, &c, &progress, NULL);
        } else {
            check_path(&c, path);
        }
        if (c.expect) {
            if (!expect_count(c.expect))
                report_empty_list(&c);
            expect_missing(c.expect, report_missing, &c);
            if (c.expect->out_of_memory)
                cli_error(path, NULL, "out of memory"), c.any_unopened = true;
            if (!report_flush(&c.report, stdout))
                c.output_failed = true;
            c.any_finding |= c.report.findings > 0;
        }
    }
    report_free(&c.report);
    bundle_cache_free(&c.cache);
    if (c.expect)
        expect_free(c.expect);
    if (c.output_failed || fflush(stdout) != 0 || ferror(stdout))
        return 2;
    return c.any_unopened ? 2 : c.any_finding ? 1 : 0;
}
