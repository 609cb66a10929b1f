/* The scriptable commands of ../shared/CONTRACT.md. Each takes the
 * parsed arguments (cmdline.h) and returns the process exit status. */
#ifndef MTLBX_COMMANDS_H
#define MTLBX_COMMANDS_H

#include "cli/cmdline.h"
#include "model/names.h"
#include "container/file.h"
#include "container/functions.h"
#include <stdio.h>

/* Each is one entry of the command table (cmdtable.c), which parsed and
 * checked its options and operands before calling it. */
int cmd_info(const struct cli_args *a);
int cmd_ls(const struct cli_args *a);
int cmd_dump(const struct cli_args *a);
int cmd_check(const struct cli_args *a);
int cmd_extract(const struct cli_args *a);
int cmd_sources(const struct cli_args *a);
int cmd_dis(const struct cli_args *a);
int cmd_sig(const struct cli_args *a);
int cmd_diff(const struct cli_args *a);
int cmd_textconv(const struct cli_args *a);

int cmd_find(const struct cli_args *a);
int cmd_src(const struct cli_args *a);
int cmd_unpack(const struct cli_args *a);
int cmd_pack(const struct cli_args *a);
int cmd_thin(const struct cli_args *a);

/* dump.c: the `dump --json` document of an open file (the library's
 * renderer, json/dump_json.h), streamed to `out` and ended by a newline;
 * on one line for `find --json` (one_line). `path` is what the document
 * names. 0, or 2 after a one-line error. */
int dump_write_document(FILE *out, const char *path, mtlbx_file *f, bool one_line);

/* common.c ------------------------------------------------------------- */

/* Opens `path`; on failure prints "mtlbx: PATH: message" (with the offset
 * where one applies) and returns NULL. */
mtlbx_file *cli_open(const char *path);
/* The same open without the message: the mbx_open_path status, *err
 * filled on failure. Every command opens through one of these two, which
 * install the SIGBUS guard (a file that shrinks while mapped ends the
 * command with one line naming it and exit 2, never a signal death). */
int cli_open_quiet(const char *path, mtlbx_file **out, struct mtlbx_error *err);
/* "mtlbx: PATH: message" or "mtlbx: PATH:OFFSET: message" on stderr. */
void cli_error(const char *path, const uint64_t *offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Writes bytes from the file to `out`, escaped so that nothing acts on a
 * terminal (controls and invalid UTF-8 become \xNN). */
void cli_put_escaped(FILE *out, struct mtlbx_bytes b);
/* The same text in a string, for a message or a line made up before it
 * is printed: every name, path or value a command shows (from the file or
 * from its arguments) passes through these, the command line's one use of
 * the library's terminal escaping (container/escape.h). Malloc'd; NULL
 * out of memory. */
char *cli_escape_dup(const void *bytes, size_t len);
char *cli_escape_str_dup(const char *s);
/* Into `out` (always NUL-terminated, cut on a character boundary when it
 * does not fit); returns the length the whole text needs. */
size_t cli_escape(const void *bytes, size_t len, char *out, size_t out_size);
/* After reading modules: 0 if the file is as it was mapped, else prints
 * the same one-line error as the SIGBUS guard and returns 2. */
int cli_unchanged(const char *path, const mtlbx_file *f);
/* After a command has read what it prints from f: 0, or 2 after a
 * one-line error when the parser ran out of memory (what was printed is
 * incomplete) or the file changed while it was read. */
int cli_complete(const char *path, const mtlbx_file *f);
/* `info` and `ls` on a damaged library (mbx_file_damaged: a section or
 * module runs past the end of the file): one line naming the offset, and
 * 1; else 0. */
int cli_damaged(const char *path, const mtlbx_file *f);
/* At exit (main() registers it with atexit): flushes and closes standard
 * output, and when anything written to it was lost (a full disk, an I/O
 * error) prints a message and ends the process with status 2 instead of
 * the one it was exiting with. */
void cli_close_stdout(void);
/* stdout_errno.c. First thing in main(): when standard output is not a
 * terminal, stdout becomes a stream that keeps the errno of its first
 * failing write (or close), and SIGXFSZ is blocked so that a file-size
 * limit fails a write (EFBIG) rather than killing the process. */
void cli_stdout_keep_errno(void);
/* That errno: why standard output failed, or 0 (no failure, or stdout was
 * not replaced). What a command says when its output is lost. */
int cli_stdout_errno(void);
/* --slice N (the commands that take a function name): *slice is N, or -1
 * when not given. False after a one-line error when f has no library N. */
bool cli_slice(const struct cli_args *a, const char *path, const mtlbx_file *f, long *slice);
/* names.c: a function NAME operand (exact, glob or unique prefix; see
 * mbx_resolve_function_name). 0: *out holds the functions (one: the
 * caller wants a single function, so a glob matching several is refused;
 * an exact name used by several functions gives them all, first first);
 * 1: no such function, or several, reported on one line naming the
 * closest ones (out is empty); 2: out of memory, reported. */
int cli_resolve_functions(const char *path, const mtlbx_file *f, const char *name, bool one,
                          struct mtlbx_name_matches *out);
/* One function a command opened by NAME (dis, src). */
struct cli_function {
    mtlbx_file *file;
    mtlbx_library *lib;
    size_t index;                     /* in lib */
    const struct mtlbx_function *fn;
    const char *shown;                /* its name escaped for the terminal; "?" out of memory */
    char *shown_copy;                 /* (what cli_close_function frees) */
};
/* Opens `path` and resolves NAME to one function (as above, one = true),
 * in slice N when args has --slice N (args may be NULL): 0 with `out`
 * filled (close it with cli_close_function), or the status (1 or 2,
 * reported) with nothing to close. */
int cli_open_function(const struct cli_args *args, const char *path, const char *name, struct cli_function *out);
void cli_close_function(struct cli_function *cf);
/* Whether the file at `path` was written to since `at_open` was taken
 * (an in-place rewrite changes its modification and change times), or
 * can no longer be stat'ed. */
struct stat;
bool cli_modified_since(const char *path, const struct stat *at_open);
/* Parses "-o DIR", "--force" style options shared by extract/sources. */
const char *cli_program_name(void);

#endif
