/* The parsing steps of a library, called in order by container/library.c
 * and decoded on need after (src/lib only): header, function list,
 * header extension, modules, sources, dynamic header and lists,
 * metadata, reflection, archives. */
#ifndef MTLBX_CONTAINER_PARSE_H
#define MTLBX_CONTAINER_PARSE_H

#include <stdbool.h>
#include <stdint.h>

#include "container/functions.h"
#include "container/header.h"
#include "container/metadata.h"
#include "container/sources.h"

struct function_cursor;        /* container/cursor.h */

/* Parsing steps, called in order by library.c */
void parse_header(mtlbx_library *lib);
void parse_function_list(mtlbx_library *lib);
void parse_header_ext(mtlbx_library *lib);
void parse_modules(mtlbx_library *lib);
/* modules.c: fills fn's derived fields (module span, metadata offsets)
 * from its tags; returns false when its module lies outside the module
 * list, with the span it names in *rel and *size. */
bool derive_function(const mtlbx_library *lib, struct mtlbx_function *fn, uint64_t *rel, uint64_t *size);
void parse_sources(mtlbx_library *lib);      /* sources.c: structure only, no bzip2 */
void parse_dynamic_and_lists(mtlbx_library *lib);
void check_overlaps(mtlbx_library *lib);
void free_sources(mtlbx_library *lib);
void free_metadata(mtlbx_library *lib);
/* Decoded on first need, through library_decode_rest() */
/* Both read every function entry through `fns`, the caller's cursor:
 * library_decode_rest runs them one after the other on one cursor, so a
 * small library's entries are decoded once for the two. */
void decode_metadata(mtlbx_library *lib, struct function_cursor *fns); /* metadata.c */
void decode_lists(mtlbx_library *lib, struct function_cursor *fns);    /* dynamic.c: list groups, RFLT check */

/* reflection.c: RETR and ARGR of one public metadata group. */
void reflection_decode_retr(mtlbx_library *lib, struct mtlbx_reflection *r, const struct mtlbx_tag *t);
void reflection_decode_argr(mtlbx_library *lib, struct mtlbx_reflection *r, const struct mtlbx_tag *t);

/* header_ext.c: a section pointer (HSRD, HDYN, RLST ...) resolved to an
 * absolute range; false if absent or outside the library. */
bool ext_section(mtlbx_library *lib, uint32_t fourcc, const char *what, struct mtlbx_range *out,
                 const struct mtlbx_tag **tag_out);

/* archive.c: bzip2 + tar listing of one SARC payload. Named source_* so
 * that nothing of ours interposes on libarchive's own archive_* symbols. */
enum mtlbx_archive_state source_archive_decode(mtlbx_library *lib, struct mtlbx_archive *a);
void source_archive_free(struct mtlbx_archive *a);

#endif
