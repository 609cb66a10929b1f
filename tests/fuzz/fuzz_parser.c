/* libFuzzer harness over the parser's memory entry point. Each input is
 * opened with mbx_open_buffer() and walked completely (walk.c): every
 * node, label and field, every function, hash checks, source archive
 * decompression and tar listing, every diagnostic. Any broken promise the
 * walk notices aborts, so libFuzzer keeps the input as a finding. */
#include "walk.h"
#include "container/file.h"
#include "container/metadata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The ARGR grammar straight on the input, too: it is a byte grammar of
     * its own, and most inputs never reach it through a library. */
    struct mtlbx_reflection r = { 0 };
    struct mtlbx_decode_error derr;
    bool exact = mbx_argr_decode(data, size, 0, &r, &derr);
    if ((exact && !r.complete) || (!exact && derr.offset > size))
        abort();
    for (size_t i = 0; i < r.n_arguments; i++)
        if (r.arguments[i].offset + r.arguments[i].size > size)
            abort();
    mbx_reflection_free(&r);
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    memset(&err, 0, sizeof err);
    int rc = mbx_open_buffer(data, size, "fuzz", &f, &err);
    if (rc != MTLBX_E_NONE) {
        /* Refused: there must be a reason, and no handle. */
        if (f || !memchr(err.message, '\0', sizeof err.message) || !err.message[0])
            abort();
        return 0;
    }
    struct walk_stats st;
    walk_file(f, &st);
    if (st.bad) {
        fprintf(stderr, "walk: %zu broken promise(s); first: %s\n", st.bad, st.first_bad);
        abort();
    }
    mbx_close(f);
    return 0;
}
