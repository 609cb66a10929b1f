/* mtlbx_verify and mtlbx_check_os: what the program's `ls --verify` and
 * `check --os` answer, as statuses and findings of the handle; the gate's
 * findings are the library's one writer of them (checks/os_gate.c). */
#include "config.h"

#include "checks/hash.h"
#include "checks/os_gate.h"
#include "checks/os_spec.h"
#include "checks/requires_text.h"
#include "api/handle.h"
#include "container/file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

int mtlbx_verify(mtlbx *h)
{
    if (!h || !h->file) {
        if (h)
            api_set_error(h, 0, -1, "no file is open");
        return MTLBX_FAILED;
    }
    size_t mismatches = 0, unhashed = 0;
    for (size_t l = 0; l < h->n_libraries; l++) {
        mismatches += mbx_library_verify_all(h->libraries[l].lib, 0);
        unhashed += mbx_library_unhashed(h->libraries[l].lib);
    }
    /* Hashing reads the file again (pread): a file cut short under it
     * cannot be answered for. */
    if (mbx_file_changed(h->file))
        return api_fail(h, MTLBX_FATAL, 0, -1, "%s: the file changed or shrank while it was being read",
                        mbx_file_path(h->file));
    if (!api_diag_sync(h, true))
        return api_fail(h, MTLBX_FAILED, ENOMEM, -1, "out of memory");
    if (mismatches || unhashed)
        return api_fail(h, MTLBX_WARN, 0, -1, "%zu %s not match %s HASH, %zu could not be read (the file's "
                        "findings say where)", mismatches, mismatches == 1 ? "module does" : "modules do",
                        mismatches == 1 ? "its" : "their", unhashed);
    return MTLBX_OK;
}

/* One finding of the gate, kept in the handle's list. */
static bool gate_finding(void *ctx, enum mtlbx_severity sev, uint64_t offset, const char *message)
{
    return api_diag_add(ctx, sev == MTLBX_ERROR ? MTLBX_SEVERITY_ERROR : MTLBX_SEVERITY_WARNING, (int64_t)offset,
                        message);
}

int mtlbx_check_os(mtlbx *h, const char *os)
{
    if (!h || !h->file) {
        if (h)
            api_set_error(h, 0, -1, "no file is open");
        return MTLBX_FAILED;
    }
    struct mtlbx_os_spec spec;
    if (mbx_os_spec_parse(os, &spec) != MTLBX_OS_SPEC_OK)
        return api_fail(h, MTLBX_FAILED, EINVAL, -1, "%s: expected PLATFORM:VERSION, e.g. macOS:14.0 (platforms: "
                        MTLBX_OS_SPEC_PLATFORMS ")", os ? os : "(null)");
    /* The file's own findings first, so that the gate's follow them. */
    if (!api_diag_sync(h, true))
        return api_fail(h, MTLBX_FAILED, ENOMEM, -1, "out of memory");
    size_t before = h->n_diags;
    for (size_t l = 0; l < h->n_libraries; l++)
        if (!mbx_os_gate_library(h->libraries[l].lib, spec.os, spec.version, true, gate_finding, h))
            return api_fail(h, MTLBX_FAILED, ENOMEM, -1, "out of memory");
    size_t n = h->n_diags - before;
    if (n)
        return api_fail(h, MTLBX_WARN, 0, -1, "%zu %s: the file does not load on %s, or that is not known", n,
                        n == 1 ? "finding" : "findings", os);
    return MTLBX_OK;
}
