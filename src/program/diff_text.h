/* One change of a library comparison (compare.h) in words, old value and
 * new: "requires macOS 15.0 (MSL 3.2) -> macOS 26.0 (MSL 4.0)", "hash
 * 1f2e... -> 9a8b...", "interface buffer(3) x: float* -> half*". Written
 * once for `mtlbx diff` (src/cli/diff_render.c) and the explorer's compare
 * view (src/ui/views/compare/compare_view.c), which show the same lines.
 * Returns strings, never prints; every byte from a file is escaped for the
 * terminal. */
#ifndef MTLBX_UTIL_DIFF_TEXT_H
#define MTLBX_UTIL_DIFF_TEXT_H

#include "bitcode/interface_reader.h"
#include "compare/compare.h"

/* Escape sequences around added, removed and changed values ("" for none). */
struct diff_palette {
    const char *add, *del, *chg, *bold, *off;
};
extern const struct diff_palette diff_colours, diff_plain;

/* "FIELD OLD -> NEW" for one changed header field (malloc'd; NULL when out
 * of memory). requires reads "requires macOS 15.0 (MSL 3.2, AIR 2.7) ->
 * macOS 26.0 (MSL 4.0, AIR 2.8)". */
char *diff_header_change_text(mtlbx_library *a, mtlbx_library *b, enum mtlbx_header_field f,
                              const struct diff_palette *p);
/* Every changed field of function i of a against function j of b (fields:
 * 1u << MTLBX_FF_*), "FIELD OLD -> NEW" each, joined by "; "; the
 * interface as its argument changes, decoded through the readers ra and
 * rb (of a and b; NULL: alone). Malloc'd; NULL when out of memory. */
char *diff_function_change_text(mtlbx_interface_reader *ra, mtlbx_library *a, size_t i, mtlbx_interface_reader *rb,
                                mtlbx_library *b, size_t j, unsigned fields,
                                const struct diff_palette *p);

#endif
