/* The one atomic write of the tree: a file appears whole under its name
 * or not at all, and nothing else is ever harmed. The library's
 * mtlbx_writer_write_filename writes through it, and so does the
 * program's signal-safe writer (src/program/safe_write.c), which adds the
 * registration that lets its signal handlers remove the temporary.
 *
 * It prints nothing, installs no handler and leaves the host's signal
 * mask as it found it (see atomic_file.c for SIGXFSZ). */
#ifndef MTLBX_ATOMIC_FILE_H
#define MTLBX_ATOMIC_FILE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a write may replace, and what it must not. */
struct atomic_file_rules {
    /* An existing regular file (or a symbolic link: the link itself is
     * replaced, never written through) named by the target may be
     * replaced. Without it the move into place is renameat2(NOREPLACE) or
     * link(), so even a file that appears while the temporary is filled
     * is kept. Whatever this says, a target that is a directory, device,
     * FIFO or socket is refused. */
    bool replace;
    /* Never replace this file (the input being read). */
    bool has_keep;
    uint64_t keep_dev, keep_ino;
    /* The length of the file when known (else 0): refused up front when
     * it passes the file-size limit (RLIMIT_FSIZE). */
    uint64_t size;
};

/* The reasons atomic_file_begin and _commit give beside their message. */
enum {
    ATOMIC_FILE_OK = 0,
    ATOMIC_FILE_FAILED = -1,
    ATOMIC_FILE_EXISTS = -2, /* the target exists and rules.replace is false */
};

struct atomic_file {
    int fd;        /* the temporary: write here (pwrite at any offset) */
    int dfd;       /* the directory of the target */
    bool own_dfd;  /* dfd was opened by atomic_file_begin_path */
    struct atomic_file_rules rules;
    char tmp[32];  /* the temporary's name in dfd: ".mtlbx-tmp-XXXXXXXX" */
    char name[256];
    /* SIGXFSZ is blocked in the calling thread from begin to commit or
     * abort: the mask to restore, and whether one was pending before. */
    sigset_t old_mask;
    bool xfsz_was_pending;
};

/* Checks NAME (one path component) in the directory dfd against the
 * rules and creates an empty temporary beside it. ATOMIC_FILE_OK, or a
 * negative reason with a one-line message in err (nothing left behind). */
int atomic_file_begin(struct atomic_file *a, int dfd, const char *name, const struct atomic_file_rules *rules,
                      char *err, size_t err_size);
/* The same for a path as the user gave it (its directory is followed). */
int atomic_file_begin_path(struct atomic_file *a, const char *path, const struct atomic_file_rules *rules,
                           char *err, size_t err_size);
/* Closes the temporary and moves it into place; on any failure removes
 * it. Either way the thread's signal mask is restored. */
int atomic_file_commit(struct atomic_file *a, char *err, size_t err_size);
/* Removes the temporary. Harmless after a failed begin or a commit. */
void atomic_file_abort(struct atomic_file *a);

/* A folder filled under the name `tmp` put in place as `target` (one
 * filesystem): a missing target by renameat2(RENAME_NOREPLACE), so a
 * folder that appears meanwhile is kept (where NOREPLACE is missing, a
 * plain rename, which replaces only an empty one); an existing one
 * (`exists`) by RENAME_EXCHANGE, so `target` names the old folder, then
 * the new one, never nothing (where EXCHANGE is missing, two renames,
 * the old one put back if the second fails). Then *old (malloc'd) names
 * the old folder, for the caller to remove. 0, or -1 with errno and
 * nothing changed. Block the signals that would remove `tmp` around it. */
int atomic_dir_put(const char *tmp, const char *target, bool exists, char **old);

#endif
