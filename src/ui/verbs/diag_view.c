/* The diagnostics view (`!`): every finding of the current file in full,
 * sorted by offset and wrapped to the screen, in the text view. Enter on
 * a finding follows its offset (Backspace comes back), since the detail
 * panel and the Diagnostics node cut long messages. */
#include "config.h"

#include "program/text_buf.h"
#include "ui/verbs/verbs.h"
#include "container/file.h"
#include "container/diagnostics.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INDENT 12   /* "0x00001234  " */

/* "0x00001234  error: message", the message wrapped at `width` columns at
 * spaces, continuation lines indented under it. Messages are ASCII-safe
 * (the library escapes what it quotes from the file). */
static void put_finding(struct text_buf *t, const struct mtlbx_diag *d, int width)
{
    char head[64];
    int n = snprintf(head, sizeof head, "0x%08" PRIx64 "  %s: ", d->offset,
                     d->severity == MTLBX_ERROR ? "error" : "warning");
    text_buf_add(t, head, (size_t)n);
    int col = n, avail = width > INDENT + 20 ? width : INDENT + 20;
    const char *p = d->message;
    while (*p) {
        size_t w = strcspn(p, " ");
        if (col > INDENT && col + (int)w > avail) {
            text_buf_add(t, "\n            ", 1 + INDENT);
            col = INDENT;
        }
        /* A word longer than a line is cut into pieces. */
        while (col + (int)w > avail && avail - col > 0) {
            text_buf_add(t, p, (size_t)(avail - col));
            p += avail - col;
            w -= (size_t)(avail - col);
            text_buf_add(t, "\n            ", 1 + INDENT);
            col = INDENT;
        }
        text_buf_add(t, p, w);
        col += (int)w;
        p += w;
        if (*p == ' ') {
            text_buf_add(t, " ", 1);
            col++;
            p++;
        }
    }
    text_buf_add(t, "\n", 1);
}

/* Enter on a line of the findings (the text view's): the finding's
 * offset in the byte explorer. A finding's first line starts with its
 * offset, its continuations with spaces: walk up to the first line. */
static bool follow(struct explorer *ex, const char *text, size_t len, size_t at, long file)
{
    while (at > 0 && at < len && text[at] == ' ') {
        at--; /* onto the newline ending the line above */
        while (at > 0 && text[at - 1] != '\n')
            at--;
    }
    char head[32];
    size_t n = len - at < sizeof head - 1 ? len - at : sizeof head - 1;
    snprintf(head, sizeof head, "%.*s", (int)n, text + at);
    char *end;
    unsigned long long off = strtoull(head, &end, 16);
    if (end == head || (uint32_t)file >= ex->n_files) {
        ex_error(ex, "no offset on this line");
        return false;
    }
    struct place to = place_offset((uint32_t)file, (uint64_t)off);
    if (!open_view(ex, VIEW_BYTES, &to))
        return false;
    ex_message(ex, "at 0x%llx (Backspace goes back; ! lists the problems again)", off);
    return true;
}

void verb_show_problems(struct explorer *ex, uint32_t file)
{
    if (file >= ex->n_files)
        return;
    mtlbx_file *f = ex->files[file].f;
    size_t n = mbx_file_diag_count(f);
    for (size_t l = 0; l < mbx_file_library_count(f); l++)
        n += mbx_library_diag_count(mbx_library_at(f, l));
    const struct mtlbx_diag **all = malloc((n + 1) * sizeof *all);
    if (!all) {
        ex_error(ex, "out of memory");
        return;
    }
    size_t k = 0, errors = 0;
    for (size_t i = 0; i < mbx_file_diag_count(f); i++)
        all[k++] = mbx_file_diag(f, i);
    for (size_t l = 0; l < mbx_file_library_count(f); l++) {
        const mtlbx_library *lib = mbx_library_at(f, l);
        for (size_t i = 0; i < mbx_library_diag_count(lib) && k < n; i++)
            all[k++] = mbx_library_diag(lib, i);
    }
    qsort(all, k, sizeof *all, mbx_diag_ptr_cmp);
    for (size_t i = 0; i < k; i++)
        errors += all[i]->severity == MTLBX_ERROR;
    if (k == 0) {
        free(all);
        ex_message(ex, "no problems found in this file (hashes are checked in the background)");
        return;
    }
    struct text_buf t = { 0 };
    for (size_t i = 0; i < k; i++)
        put_finding(&t, all[i], ex->lay.cols - 2);
    free(all);
    if (t.failed) {
        text_buf_free(&t);
        ex_error(ex, "out of memory");
        return;
    }
    char title[160];
    snprintf(title, sizeof title, "Diagnostics: %zu error%s, %zu warning%s  (Enter follows an offset)", errors,
             errors == 1 ? "" : "s", k - errors, k - errors == 1 ? "" : "s");
    struct text_doc doc = { .title = title, .data = t.s, .len = t.len, .save_name = "diagnostics.txt",
                            .enter = follow, .enter_arg = file };
    struct place at = place_text(&doc);
    open_view(ex, VIEW_TEXT, &at);
    text_buf_free(&t);
}
