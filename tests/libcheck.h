/* Small Criterion helpers shared by the tests that open images built with
 * imagebuf.h: open one from memory (failing the test if it is refused) and
 * count the diagnostics that match. */
#ifndef MTLBX_TEST_LIBCHECK_H
#define MTLBX_TEST_LIBCHECK_H

#include "imagebuf.h"
#include "container/diagnostics.h"
#include "container/file.h"

#include <criterion/criterion.h>
#include <string.h>

static inline mtlbx_file *open_buf(const struct imagebuf *b)
{
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    cr_assert_eq(mbx_open_buffer(b->data, b->len, "test", &f, &err), MTLBX_E_NONE, "%s", err.message);
    return f;
}

/* Number of diagnostics of `sev` whose message contains `needle` (any
 * message when needle is NULL). */
static inline size_t count_diags(const mtlbx_library *lib, enum mtlbx_severity sev, const char *needle)
{
    size_t n = 0;
    for (size_t i = 0; i < mbx_library_diag_count(lib); i++) {
        const struct mtlbx_diag *d = mbx_library_diag(lib, i);
        if (d->severity == sev && (!needle || strstr(d->message, needle)))
            n++;
    }
    return n;
}

#endif
