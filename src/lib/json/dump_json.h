/* The `dump --json` document (dump_json.c): the one renderer of what
 * `mtlbx dump --json` and `find --json` print and libmtlbx's mtlbx_json
 * returns. It never prints anything else: what went wrong is its result,
 * for the caller to word (the command line, src/cli/dump.c) or keep (the
 * api layer). */
#ifndef MTLBX_DUMP_JSON_H
#define MTLBX_DUMP_JSON_H

#include "container/types.h"

#include <stdio.h>

enum {
    MTLBX_DOC_INTERFACES = 1u << 0, /* each function's "interface" (dump --interfaces) */
    MTLBX_DOC_LAYOUT = 1u << 1,     /* the "layout" array (dump --layout) */
    MTLBX_DOC_ONE_LINE = 1u << 2,   /* on one line (find --json), else indented */
};

enum mtlbx_doc_result {
    MTLBX_DOC_WRITTEN = 0,     /* whole, then a newline; the caller still asks whether
                                  the file was read whole (mbx_file_out_of_memory,
                                  mbx_file_changed), as after any read */
    MTLBX_DOC_NO_MEMORY,       /* nothing written: memory ran out first */
    MTLBX_DOC_FILE_INCOMPLETE, /* nothing written: parsing ran out of memory or the
                                  file changed (mbx_file_out_of_memory and
                                  mbx_file_changed say which, and where) */
    MTLBX_DOC_CUT_NO_MEMORY,   /* cut short: memory ran out while writing */
    MTLBX_DOC_CUT_LAYOUT,      /* cut short: the byte layout could not be completed */
    MTLBX_DOC_CUT_VALUE,       /* cut short: a value could not be written whole */
    MTLBX_DOC_CUT_OUTPUT,      /* cut short: writing to `out` failed (ferror) */
};

/* The document of an open file on `out`, naming `path`, followed by a
 * newline. Hashes every module first (with MTLBX_DOC_INTERFACES, as it
 * writes them), so that a file that changes gives no document at all. */
enum mtlbx_doc_result mbx_doc_write(FILE *out, const char *path, mtlbx_file *f, unsigned flags);

/* For jansson's allocator (json_set_alloc_funcs, with free): malloc, and
 * a failure marks the document of the calling thread cut short. Values
 * jansson fails to build are otherwise left out without a word. The
 * program installs it; mbx_doc_watch_jansson installs it for the
 * library's own documents when the host has left jansson's allocator as
 * it was (malloc and free, which it keeps calling: the host sees no
 * difference). */
void *mbx_doc_malloc(size_t n);
void mbx_doc_watch_jansson(void);

#endif
