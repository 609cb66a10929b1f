/* The manifest's text scanned, strings and brackets only, for where each
 * library's "functions" array lies (manifest_scan.c), so that manifest
 * reading (manifest_read.c) parses those functions one at a time and
 * memory holds one function's tree, not 20,000. */
#ifndef MTLBX_MANIFEST_SCAN_H
#define MTLBX_MANIFEST_SCAN_H

#include <stddef.h>
#include <stdint.h>

/* Where a library's "functions" array lies in the manifest's text:
 * [start, end), from its '[' to past its ']'. */
struct fn_span {
    size_t start, end;
};
#define FN_NONE SIZE_MAX

/* The first position at or after p that is not JSON white space. */
size_t mbx_manifest_skip_ws(const char *t, size_t n, size_t p);

/* The text without its functions arrays ("[]" and their newlines, so
 * jansson's line numbers stay right), and the arrays' spans (one per
 * library, FN_NONE where a library has none; the caller frees *spans).
 * NULL: the text does not scan as expected; parse it whole. */
char *mbx_manifest_skeleton(const char *t, size_t n, struct fn_span **spans, size_t *n_spans, size_t *out_len);

#endif
