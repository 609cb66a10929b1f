/* A growable text buffer, written once for the tree: appends keep it
 * NUL-terminated, grow it by doubling, and on running out of memory (or
 * past SIZE_MAX) mark it failed and ignore what comes after, so a caller
 * checks once at the end. Used wherever text is gathered before it is
 * shown or written (the explorer's help and problem list, the folder
 * survey's index, `find`; the JSON stream of the parser library keeps its
 * own, since src/lib calls nothing above it). */
#ifndef MTLBX_UTIL_TEXT_BUF_H
#define MTLBX_UTIL_TEXT_BUF_H

#include <stdbool.h>
#include <stddef.h>

struct text_buf {
    char *s;                     /* NULL until something is added */
    size_t len, cap;
    bool failed;                 /* out of memory: what followed is lost */
};

/* Appends n bytes (which may hold NULs; s stays NUL-terminated after them). */
void text_buf_add(struct text_buf *t, const void *p, size_t n);
void text_buf_str(struct text_buf *t, const char *s);
void text_buf_printf(struct text_buf *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Takes over a buffer of `cap` bytes (malloc'd, or NULL) to fill from its
 * start: what a caller reuses from one text to the next. */
void text_buf_adopt(struct text_buf *t, char *buf, size_t cap);
/* The text, the caller's now (free it), its length in *len and its
 * buffer's size in *cap (either may be NULL); NULL when it failed (the
 * buffer is then freed) or nothing was added. The buffer is empty again. */
char *text_buf_take(struct text_buf *t, size_t *len, size_t *cap);
void text_buf_free(struct text_buf *t);

#endif
