/* `mtlbx check`: everything that can be checked, one finding per line as
 * FILE:OFFSET: error|warning: message (or JSON Lines, or GitHub
 * annotations: check_report.h). It hashes every module, checks that each
 * is LLVM bitcode and that its interface decodes, walks the byte layout
 * and decompresses every source archive, so each lazily found problem
 * shows (the library's checker core: gate/gate.h). It takes what find
 * takes (folders, archives, Mach-O hosts, walked the same way) and adds
 * the release gate: --os declared and --expect LIST. The walk and the
 * findings are the library's (gate/gate_run.h, which libmtlbx's
 * mtlbx_gate_* runs too); here they are printed. Findings of a library
 * come sorted by offset, identical on every run. */
#include "config.h"

#include "cli/commands.h"
#include "cli/gate/check_report.h"
#include "cli/gate/os_option.h"
#include "gate/gate_run.h"
#include "gate/archive_members.h"
#include "gate/macho_members.h"
#include "gate/tree_walk.h"
#include "gate/gate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct printer {
    struct report report;
    bool any_finding;
};

static size_t on_file(void *ctx, const char *name)
{
    return report_file(&((struct printer *)ctx)->report, name);
}

static bool on_finding(void *ctx, size_t file, enum mtlbx_severity sev, uint64_t offset, const char *message,
                       const char *rule)
{
    struct printer *p = ctx;
    report_add(&p->report, file, sev, offset, message, rule);
    return !p->report.out_of_memory;
}

/* What a job found, printed. */
static bool on_flush(void *ctx)
{
    struct printer *p = ctx;
    size_t before = p->report.findings;
    bool ok = report_flush(&p->report, stdout);
    p->any_finding |= p->report.findings > before;
    p->report.out_of_memory = false;
    return ok;
}

static void on_problem(void *ctx, const char *path, const uint64_t *offset, const char *message)
{
    (void)ctx;
    cli_error(path, offset, "%s", message);
}

static int on_open(void *ctx, const char *path, mtlbx_file **out, struct mtlbx_error *err)
{
    (void)ctx;
    return cli_open_quiet(path, out, err);
}

int cmd_check(const struct cli_args *args)
{
    struct mbx_os_gate gate;
    struct printer p = { 0 };
    struct expect expect;
    if (!os_gate_parse(args, &gate) ||
        !report_format_parse(cli_value(args, OPT_FORMAT), cli_flag(args, OPT_JSON), &p.report.format))
        return 2;
    struct mbx_gate_run run = { .gate = &gate,
                                .sink = { on_file, on_finding, on_flush, on_problem, on_open, &p } };
    if (cli_value(args, OPT_EXPECT)) {
        if (!mbx_gate_run_expect(&expect, cli_value(args, OPT_EXPECT), &run.sink))
            return 2;
        run.expect = &expect;
    }
    for (int a = 0; a < args->n_operands && !run.stopped; a++)
        mbx_gate_run_operand(&run, args->operands[a]);
    report_free(&p.report);
    mbx_gate_run_free(&run);
    if (run.expect)
        mbx_expect_free(run.expect);
    if (run.stopped || fflush(stdout) != 0 || ferror(stdout))
        return 2;
    return run.unopened ? 2 : p.any_finding ? 1 : 0;
}
