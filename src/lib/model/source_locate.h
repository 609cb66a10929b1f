/* Where a function is defined in a library's embedded sources
 * (src/lib/model/source_locate.c). */
#ifndef MTLBX_MODEL_SOURCE_LOCATE_H
#define MTLBX_MODEL_SOURCE_LOCATE_H

#include <stddef.h>
#include <stdint.h>

#include "container/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a function is defined in the embedded sources (source_locate.c):
 * found by its name in the members' text (a mangled name by its demangled
 * base), searching the archive its SOFF names first, outside comments. A
 * definition ("name(...) {", or a [[host_name("name")]] instantiation)
 * beats a prototype. Linear in the text, whatever it holds. */
struct mtlbx_source_location {
    size_t archive, member;    /* into mbx_library_sources(lib)->archives */
    size_t line;               /* 1-based line the declaration starts on: the
                                * name's, or when the name starts its line (GNU
                                * style, "kernel void\nfoo("), the type's above */
    uint64_t offset;           /* of the name in the member's text */
    uint64_t line_offset;      /* of the start of that line */
    uint64_t end_offset;       /* past the line closing its body ('}'), or the
                                * member's end (a prototype: past its ';') */
};
/* 1 found; 0 the library has sources but no member declares it; -1 the
 * library has no embedded sources (or none decompress); -2 no memory.
 * Decompresses archives (cached, as mbx_archive_load). */
int mbx_source_locate(mtlbx_library *lib, size_t function_index, struct mtlbx_source_location *out);
/* The rule above on one text: 2 a definition of `name` at *offset, 1 only
 * a prototype, 0 neither (*offset untouched). */
int mbx_source_find_in_text(const uint8_t *text, size_t len, const char *name, size_t *offset);

#ifdef __cplusplus
}
#endif
#endif
