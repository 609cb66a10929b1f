/* What must not outlive the process when a signal ends it: the temporary
 * file an atomic write is filling, and the llvm-dis child (which runs in
 * its own process group, so a terminal's Ctrl-C never reaches it).
 * safe_write.c and run_tool.c register them while they exist; the signal
 * handlers of the command line (cli_open) and of the explorer (term.c)
 * call fatal_cleanup_run() before dying of the signal. Everything on the
 * signal path is async-signal-safe. */
#ifndef MTLBX_FATAL_CLEANUP_H
#define MTLBX_FATAL_CLEANUP_H

#include <signal.h>
#include <sys/types.h>

/* Registers DIRFD/NAME, a temporary file just created (NAME is copied; at
 * most 63 bytes). Returns a slot for fatal_cleanup_forget_temp(), or -1
 * when every slot is taken (the file is then not removed on a signal). */
int fatal_cleanup_add_temp(int dirfd, const char *name);
void fatal_cleanup_forget_temp(int slot);
/* A folder being filled (an unpack's temporary folder beside its
 * target, or the old one being removed): PATH (copied; shorter than
 * PATH_MAX) and everything under it are removed, without following a
 * symbolic link, at most 16 levels deep. -1 when every slot is taken. */
int fatal_cleanup_add_tree(const char *path);
void fatal_cleanup_forget_tree(int slot);
/* The removal itself, for the ordinary failure path too: what is under
 * PATH, then PATH. 0, or -1 when something could not be removed.
 * Async-signal-safe (no malloc, no stdio: getdents64 into the stack). */
int fatal_cleanup_remove_tree(const char *path);

/* The same for a child leading its own process group. */
int fatal_cleanup_add_child(pid_t pgid);
void fatal_cleanup_forget_child(int slot);

/* Blocks (or restores) the signals the handlers catch, around creating a
 * temporary file and registering it, so no signal falls in between. */
void fatal_cleanup_block(sigset_t *old);
void fatal_cleanup_unblock(const sigset_t *old);

/* Removes every registered temporary file and folder, kills and reaps
 * every registered child. Async-signal-safe. */
void fatal_cleanup_run(void);

/* Called first by every handler that ends the process. Only the first
 * thread to call it returns; any other (a second worker faulting on the
 * same shrunk file while the first reports it) waits for the process to
 * end, so the report is one line, not one per thread. Async-signal-safe. */
void fatal_cleanup_claim(void);

/* For the command line: SIGINT, SIGTERM and SIGHUP (unless ignored, as
 * under nohup) run fatal_cleanup_run(), then the process dies of the same
 * signal. Idempotent. */
void fatal_cleanup_install_handlers(void);

#endif
