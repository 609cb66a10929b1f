/* The scriptable commands of ../shared/CONTRACT.md. Each takes the
 * arguments after its own name and returns the process exit status. */
#ifndef MTLBX_COMMANDS_H
#define MTLBX_COMMANDS_H

#include "mtlbx.h"
#include <stdio.h>

struct global_options {
    const char *llvm_dis;      /* --llvm-dis PATH, else $MTLBX_LLVM_DIS, else PATH lookup */
    bool no_color;
    bool ascii;
};

int cmd_info(int argc, char **argv, const struct global_options *g);
int cmd_ls(int argc, char **argv, const struct global_options *g);
int cmd_dump(int argc, char **argv, const struct global_options *g);
int cmd_check(int argc, char **argv, const struct global_options *g);
int cmd_extract(int argc, char **argv, const struct global_options *g);
int cmd_sources(int argc, char **argv, const struct global_options *g);
int cmd_dis(int argc, char **argv, const struct global_options *g);
int cmd_sig(int argc, char **argv, const struct global_options *g);

/* common.c ------------------------------------------------------------- */

/* Opens `path`; on failure prints "mtlbx: PATH: message" (with the offset
 * where one applies) and returns NULL. */
mtlbx_file *cli_open(const char *path);
/* "mtlbx: PATH: message" or "mtlbx: PATH:OFFSET: message" on stderr. */
void cli_error(const char *path, const uint64_t *offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Writes bytes from the file to `out`, escaped so that nothing acts on a
 * terminal (controls and invalid UTF-8 become \xNN). */
void cli_put_escaped(FILE *out, struct mtlbx_bytes b);
/* After reading modules: 0 if the file is as it was mapped, else prints
 * the same one-line error as the SIGBUS guard and returns 2. */
int cli_unchanged(const char *path, const mtlbx_file *f);
/* After a command has read what it prints from f: 0, or 2 after a
 * one-line error when the parser ran out of memory (what was printed is
 * incomplete) or the file changed while it was read. */
int cli_complete(const char *path, const mtlbx_file *f);
/* At exit (main() registers it with atexit): flushes and closes standard
 * output, and when anything written to it was lost (a full disk, an I/O
 * error) prints a message and ends the process with status 2 instead of
 * the one it was exiting with. */
void cli_close_stdout(void);
/* Parses "-o DIR", "--force" style options shared by extract/sources. */
const char *cli_program_name(void);

#endif
