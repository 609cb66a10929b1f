/* A folder written whole or not at all (unpack's output): filled under a
 * temporary name beside its target, then put in place by one rename, the
 * old folder (if any) kept until then and removed after. Every outcome,
 * a failure, a file-size limit, SIGINT/SIGTERM/SIGHUP at any moment, is
 * the old folder or the new one, never a mix, and no folder of this run
 * left behind (the temporary one and the parents it made are registered
 * with fatal_cleanup while they exist). */
#ifndef MTLBX_DIR_SWAP_H
#define MTLBX_DIR_SWAP_H

#include <stdbool.h>
#include <stddef.h>

struct dir_swap {
    char *target;      /* the folder to replace or create (its real path when it exists) */
    char *tmp;         /* write here: "PARENT/.mtlbx-tmp-XXXXXXXX" */
    char *made;        /* the topmost missing parent this made (removed on failure), or NULL */
    bool exists;       /* the target exists: swapped with the new one, then removed */
    int tree_slot, made_slot;
};

/* Checks the target and makes the temporary folder. The target may be
 * missing (its parents are made) or an empty folder; a folder with files
 * is replaced only with `force`, and only when it holds manifest.json
 * (an earlier unpack: nothing else of the user's is ever removed) and not
 * the file being read (`keep`, may be NULL). -1 with a
 * one-line reason in err. */
int dir_swap_begin(struct dir_swap *s, const char *dir, bool force, const char *keep, char *err, size_t err_size);
/* Puts the filled temporary folder in place; the old one is removed
 * after. 0; 1 when the new folder is in place but the old one could not
 * be removed whole (a reason in err); -1 with a reason when nothing
 * changed (then as dir_swap_abort). */
int dir_swap_commit(struct dir_swap *s, char *err, size_t err_size);
/* Removes the temporary folder and the parents made. */
void dir_swap_abort(struct dir_swap *s);

#endif
