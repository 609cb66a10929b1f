/* Entry point of the ncurses explorer. The rest of src/ui is private to it. */
#ifndef MTLBX_EXPLORER_H
#define MTLBX_EXPLORER_H

#include <stdbool.h>

struct explorer_options {
    bool no_color;             /* --no-color or NO_COLOR set */
    bool ascii;                /* --ascii, or the locale is not UTF-8 */
    const char *llvm_dis;      /* NULL: $MTLBX_LLVM_DIS, then PATH */
    bool no_mouse;             /* --no-mouse: leave the mouse to the terminal */
};

/* Opens every path as its own root and runs until the user quits.
 * Returns the process exit status (0, or 2 if no file could be opened).
 * Restores the terminal on every exit path, signals included. */
int explorer_main(int n_paths, char *const *paths, const struct explorer_options *opts);

#endif
