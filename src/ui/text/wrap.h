/* Wrapping text to a width in screen columns, so a long name is shown
 * whole on two or three lines (status line, the selected detail field)
 * rather than cut. Pure: no terminal. */
#ifndef MTLBX_UI_WRAP_H
#define MTLBX_UI_WRAP_H

#include <stddef.h>

/* Splits `utf8` into at most `max_lines` lines of at most `width`
 * columns, breaking after a space when one lies in the line's last third,
 * else inside a word. Line i is the bytes [starts[i], starts[i + 1]) with
 * starts[lines] = strlen(utf8); `starts` holds max_lines + 1 entries.
 * Returns the number of lines; when the text needs more than max_lines,
 * the last line holds everything left (the caller cuts it). */
int wrap_text(const char *utf8, int width, size_t *starts, int max_lines);

/* Line i of a wrap_text result copied into out (cut to size - 1 bytes,
 * NUL-terminated); returns out. */
const char *wrap_line(const char *utf8, const size_t *starts, int i, char *out, size_t size);

#endif
