/* check --expect LIST read from its path (expect_load.h). */
#include "config.h"

#include "cli/gate/expect_load.h"
#include "cli/commands.h"
#include "gate/archive_members.h"
#include "program/release_pairs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A text LIST bigger than this is refused (a million names is ~50 MB). */
#define LIST_MAX_BYTES ((size_t)64 << 20)

static void problem_stderr(void *ctx, const char *path, const char *message)
{
    (void)ctx;
    cli_error(path, NULL, "%s", message);
}

/* LIST is a folder, an archive or a Mach-O host: every library in it. */
static bool load_release(struct expect *e, const char *list)
{
    e->from_library = true;
    struct release_side side = { .problem = problem_stderr };
    release_side_collect(list, &side);
    bool ok = !side.failed;
    for (size_t i = 0; ok && i < side.n; i++) {
        mtlbx_file *f = cli_open(side.v[i].open);
        ok = f && mbx_expect_add_file(e, f);
        mbx_close(f);
    }
    release_side_free(&side);
    return ok;
}

static bool load_text(struct expect *e, const char *list)
{
    FILE *in = fopen(list, "rb");
    if (!in) {
        cli_error(list, NULL, "--expect: %s", strerror(errno));
        return false;
    }
    char *text = malloc(LIST_MAX_BYTES + 1);
    size_t len = text ? fread(text, 1, LIST_MAX_BYTES + 1, in) : 0;
    bool ok = text && !ferror(in) && len <= LIST_MAX_BYTES;
    if (!ok)
        cli_error(list, NULL, "--expect: %s", !text ? "out of memory" : ferror(in) ? strerror(errno)
                                                                    : "a list of names over 64 MiB");
    fclose(in);
    ok = ok && mbx_expect_add_text(e, text, len);
    free(text);
    return ok;
}

bool expect_load(struct expect *e, const char *list)
{
    if (!mbx_expect_begin(e, list))
        return false;
    /* A build when it opens as one (a metallib, a host, a folder or an
     * archive); anything that is not a metallib at all is a text list. */
    bool ok;
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    if (release_is_release(list)) {
        ok = load_release(e, list);
    } else {
        int rc = cli_open_quiet(list, &f, &err);
        if (rc == MTLBX_E_NONE) {
            ok = mbx_expect_add_file(e, f);
        } else if (rc == MTLBX_E_NOT_METALLIB && !mbx_metallib_name(list)) {
            ok = load_text(e, list);
        } else {
            ok = false;
            cli_error(list, err.has_offset ? &err.offset : NULL, "--expect: %s", err.message);
        }
        mbx_close(f);
    }
    if (ok && !mbx_expect_finish(e)) {
        cli_error(list, NULL, "--expect: out of memory");
        ok = false;
    }
    if (!ok)
        mbx_expect_free(e);
    return ok;
}
