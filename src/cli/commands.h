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

/* dump_json.c: the `dump --json` document of an open file (jansson),
 * also one line of `find --json`. `path` is what the document names. */
struct json_t;
struct json_t *dump_document(const char *path, mtlbx_file *f);
int cmd_find(int argc, char **argv, const struct global_options *g);

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
/* Parses "-o DIR", "--force" style options shared by extract/sources. */
const char *cli_program_name(void);

#endif
