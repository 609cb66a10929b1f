/* Line input on the status line (search, offsets, file paths) and yes/no
 * questions (prompt.c). The screen under it is redrawn on resize; every
 * prompt keeps a history (Up/Down). */
#ifndef MTLBX_UI_WIDGETS_PROMPT_H
#define MTLBX_UI_WIDGETS_PROMPT_H

#include <stdbool.h>
#include <stddef.h>

struct explorer;

/* Reads a line; false if cancelled (Esc, Ctrl-G). */
bool prompt_line(struct explorer *ex, const char *label, const char *initial, char *out, size_t size);
/* The same for a file or directory path: Tab completes it, and all path
 * prompts share one history. */
bool prompt_path(struct explorer *ex, const char *label, const char *initial, char *out, size_t size);
/* Asks a yes/no question; true only for y or Y. */
bool prompt_yes_no(struct explorer *ex, const char *question);

#endif
