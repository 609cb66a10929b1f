/* The command table and the one command-line parser all commands share.
 *
 * Every command is one entry of cli_commands[] (cmdtable.c): its name, its
 * operands, a one-line summary, its options with their argument names and
 * help, and its cmd_ function. From that table come the parsing (GNU style:
 * options anywhere, "--" ends them, -oDIR / --output=DIR), the top-level
 * usage, each command's -h/--help, and the SYNOPSIS and command list of the
 * man page and README (src/cli/cmddoc). Adding a command is one table
 * entry plus its cmd_ function. */
#ifndef MTLBX_CMDLINE_H
#define MTLBX_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Keys of options that have no one-letter form (a letter is its own key). */
enum cli_option_key {
    OPT_LLVM_DIS = 256,
    OPT_NO_COLOR,
    OPT_ASCII,
    OPT_VERSION,
    OPT_VERIFY,
    OPT_NAMES,
    OPT_JSON,
    OPT_FORCE,
    OPT_LIST,
    OPT_INTERFACES,
    OPT_NO_MOUSE,
    OPT_LAYOUT,
    OPT_OS,
    OPT_SLICE,
    OPT_ALL,
    OPT_TARGET,
    OPT_FROM,
    OPT_EXPECT,
    OPT_FORMAT,
    OPT_KEEP_MANIFEST_VALUES,
};

enum cli_option_flags {
    CLI_OPT_REPEAT = 1u << 0,    /* may be given several times ("[-f NAME]...") */
    CLI_OPT_REQUIRED = 1u << 1,  /* must be given ("dump --json FILE") */
    CLI_OPT_EXPLORER = 1u << 2,  /* global option shown in the explorer's synopsis */
};

struct cli_option {
    int key;              /* the letter of -X, or an OPT_ value */
    const char *name;     /* long name without "--" */
    const char *arg;      /* argument name ("DIR"), NULL for a flag */
    unsigned flags;
    const char *help;
};

struct global_options {
    const char *llvm_dis;      /* --llvm-dis PATH, else $MTLBX_LLVM_DIS, else PATH lookup */
    bool no_color;
    bool ascii;
    bool no_mouse;             /* --no-mouse: the explorer leaves the mouse to the terminal */
};

/* What a command receives: its operands, its options in the order given,
 * and the global options. */
struct cli_value {
    int key;
    const char *value;    /* NULL for a flag */
};

struct cli_command;

struct cli_args {
    const struct cli_command *cmd;   /* NULL: no command (the explorer) */
    struct global_options g;
    int n_operands;
    char **operands;
    size_t n_values;
    struct cli_value *values;
};

struct cli_command {
    const char *name;
    const char *operands;            /* "FILE...", "FILE NAME" */
    int min_operands, max_operands;  /* max -1: no limit */
    const char *summary;             /* one line, no full stop */
    const struct cli_option *options; /* ends with a zero entry */
    const char *notes;               /* more --help text, or NULL */
    int (*run)(const struct cli_args *a);
};

extern const struct cli_command cli_commands[];
extern const size_t cli_commands_len;
extern const struct cli_option cli_global_options[];
const struct cli_command *cli_find_command(const char *name);

/* Parses argv. Returns 0 with `out` filled (out->cmd NULL when no command
 * was named), or -1 when the parse decided the exit status itself (help,
 * version, a usage error already printed), stored in *status. */
int cli_parse(int argc, char **argv, struct cli_args *out, int *status);
void cli_args_free(struct cli_args *a);

/* Whether the option was given; its last value (NULL if never given). */
bool cli_flag(const struct cli_args *a, int key);
const char *cli_value(const struct cli_args *a, int key);

/* "extract FILE [-o DIR] [-f NAME]... [--force]" */
void cli_synopsis(const struct cli_command *c, char *buf, size_t size);
/* "-o, --output DIR" or "    --force" */
void cli_option_label(const struct cli_option *o, char *buf, size_t size);
void cli_print_usage(FILE *out);
void cli_print_command_help(const struct cli_command *c, FILE *out);

#endif
