/* The one command-line parser (GNU getopt_long: options anywhere, "--"
 * ends them, -oDIR, --output=DIR) and the usage and --help texts, all
 * driven by the command table (cmdtable.c). */
#include "config.h"

#include "commands.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define HELP_WIDTH 79

const struct cli_command *cli_find_command(const char *name)
{
    for (size_t i = 0; i < cli_commands_len; i++)
        if (strcmp(cli_commands[i].name, name) == 0)
            return &cli_commands[i];
    return NULL;
}

static const struct cli_option *find_key(const struct cli_option *opts, int key)
{
    for (; opts && opts->key; opts++)
        if (opts->key == key)
            return opts;
    return NULL;
}

/* Appends to buf, always NUL-terminated, never past size. */
static void append(char *buf, size_t size, const char *s)
{
    size_t n = strlen(buf);
    if (n + 1 < size)
        snprintf(buf + n, size - n, "%s", s);
}

void cli_option_label(const struct cli_option *o, char *buf, size_t size)
{
    if (o->key < 256)
        snprintf(buf, size, "-%c, --%s%s%s", o->key, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    else
        snprintf(buf, size, "    --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* "-o DIR", "--force": the short form where there is one. */
static void option_usage(const struct cli_option *o, char *buf, size_t size)
{
    if (o->key < 256)
        snprintf(buf, size, "-%c%s%s", o->key, o->arg ? " " : "", o->arg ? o->arg : "");
    else
        snprintf(buf, size, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

void cli_synopsis(const struct cli_command *c, char *buf, size_t size)
{
    char one[96];
    snprintf(buf, size, "%s", c->name);
    for (const struct cli_option *o = c->options; o->key; o++)
        if (o->flags & CLI_OPT_REQUIRED) {
            option_usage(o, one, sizeof one);
            append(buf, size, " ");
            append(buf, size, one);
        }
    append(buf, size, " ");
    append(buf, size, c->operands);
    for (const struct cli_option *o = c->options; o->key; o++)
        if (!(o->flags & CLI_OPT_REQUIRED)) {
            option_usage(o, one, sizeof one);
            append(buf, size, " [");
            append(buf, size, one);
            append(buf, size, (o->flags & CLI_OPT_REPEAT) ? "]..." : "]");
        }
}

/* Prints `text` from column `col`, wrapped at HELP_WIDTH; continuation
 * lines start at column `indent`. */
static void print_wrapped(FILE *out, const char *text, int col, int indent)
{
    const char *p = text;
    while (*p) {
        const char *w = p;
        while (*w && *w != ' ')
            w++;
        int len = (int)(w - p);
        if (col > indent && col + 1 + len > HELP_WIDTH) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, (size_t)len, out);
        col += len;
        p = *w ? w + 1 : w;
    }
    fputc('\n', out);
}

static void print_options(FILE *out, const struct cli_option *opts, int width)
{
    char label[96];
    for (const struct cli_option *o = opts; o->key; o++) {
        cli_option_label(o, label, sizeof label);
        fprintf(out, "  %-*s", width, label);
        print_wrapped(out, o->help, 2 + width, 2 + width);
    }
}

static int label_width(const struct cli_option *a, const struct cli_option *b)
{
    int w = 0;
    char label[96];
    for (const struct cli_option *o = a; o && o->key; o++) {
        cli_option_label(o, label, sizeof label);
        w = (int)strlen(label) + 2 > w ? (int)strlen(label) + 2 : w;
    }
    for (const struct cli_option *o = b; o && o->key; o++) {
        cli_option_label(o, label, sizeof label);
        w = (int)strlen(label) + 2 > w ? (int)strlen(label) + 2 : w;
    }
    return w;
}

void cli_print_usage(FILE *out)
{
    char syn[256];
    fprintf(out, "Usage: mtlbx [OPTION]... [FILE]...\n"
                 "       mtlbx COMMAND [ARG]... [OPTION]...\n"
                 "Explore Apple .metallib files: an interactive explorer when run in a\n"
                 "terminal, and scriptable commands.\n\nCommands:\n");
    for (size_t i = 0; i < cli_commands_len; i++) {
        cli_synopsis(&cli_commands[i], syn, sizeof syn);
        if (strlen(syn) < 28)
            fprintf(out, "  %-28s", syn);
        else
            fprintf(out, "  %s\n%30s", syn, "");
        print_wrapped(out, cli_commands[i].summary, 30, 30);
    }
    fprintf(out, "\nOptions (before or after the command):\n");
    print_options(out, cli_global_options, label_width(cli_global_options, NULL));
    fprintf(out, "\n'mtlbx COMMAND --help' shows a command's own options. Options may come\n"
                 "anywhere; '--' ends them. With no FILE, the explorer opens the bundled\n"
                 "sample library. When standard input or output is not a terminal,\n"
                 "'mtlbx FILE' prints 'mtlbx info FILE'.\n"
                 "A FILE may be an archive member, ARCHIVE.ipa!Payload/App.app/default.metallib;\n"
                 "a folder, .app, .ipa or .zip opens in the explorer with its metallibs.\n\n"
                 "Exit status: 0 ok; 1 a finding, a mismatch or nothing matched; 2 a file\n"
                 "could not be opened, is not a metallib, or a tool failed.\n"
                 "Report bugs to: %s\n",
            PACKAGE_BUGREPORT);
}

void cli_print_command_help(const struct cli_command *c, FILE *out)
{
    char syn[256];
    cli_synopsis(c, syn, sizeof syn);
    fprintf(out, "Usage: mtlbx %s\n", syn);
    fprintf(out, "%c%s.\n\nOptions:\n", c->summary[0] >= 'a' && c->summary[0] <= 'z' ? c->summary[0] - 32 : c->summary[0],
            c->summary + 1);
    static const struct cli_option help_option[] = {
        { 'h', "help", NULL, 0, "display this help and exit" },
        { 0 },
    };
    int w = label_width(c->options, help_option);
    print_options(out, c->options, w);
    print_options(out, help_option, w);
    if (c->notes)
        fprintf(out, "\n%s\n", c->notes);
    fprintf(out, "\nGlobal options (--llvm-dis PATH, --no-color, --ascii, --no-mouse) may come\n"
                 "anywhere; '--' ends the options.\n");
}

/* The command is the first operand, skipping global options (and the
 * argument of one that takes it separately). Returns its index, or 0. */
static int find_command_word(int argc, char **argv, const struct cli_command **cmd)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0)
            return 0;
        if (a[0] == '-' && a[1]) {
            for (const struct cli_option *o = cli_global_options; o->key; o++)
                if (o->arg && a[1] == '-' && strcmp(a + 2, o->name) == 0)
                    i++;
            continue;
        }
        *cmd = cli_find_command(a);
        return *cmd ? i : 0;
    }
    return 0;
}

static void usage_error(const struct cli_command *c, const char *fmt, const char *what)
{
    /* `what` may be an argument holding bytes that act on a terminal. */
    char *shown = cli_escape_str_dup(what);
    fprintf(stderr, "mtlbx: %s%s", c ? c->name : "", c ? ": " : "");
    fprintf(stderr, fmt, shown ? shown : "?");
    free(shown);
    fprintf(stderr, "\nTry 'mtlbx%s%s --help' for more information.\n", c ? " " : "", c ? c->name : "");
}

/* The options the parser knows for `c`: its own, then the global ones it
 * does not define itself. */
static size_t collect_options(const struct cli_command *c, const struct cli_option **list, size_t cap)
{
    size_t n = 0;
    for (const struct cli_option *o = c ? c->options : NULL; o && o->key && n < cap; o++)
        list[n++] = o;
    for (const struct cli_option *o = cli_global_options; o->key && n < cap; o++)
        if (!c || !find_key(c->options, o->key))
            list[n++] = o;
    return n;
}

int cli_parse(int argc, char **argv, struct cli_args *out, int *status)
{
    memset(out, 0, sizeof *out);
    *status = 2;
    const struct cli_command *cmd = NULL;
    int at = find_command_word(argc, argv, &cmd);
    out->cmd = cmd;

    enum { MAX_OPTS = 32 };
    const struct cli_option *opts[MAX_OPTS];
    size_t n_opts = collect_options(cmd, opts, MAX_OPTS);
    struct option longopts[MAX_OPTS + 1];
    char shortopts[2 * MAX_OPTS + 2] = ":";
    size_t sl = 1;
    for (size_t i = 0; i < n_opts; i++) {
        longopts[i] = (struct option){ opts[i]->name, opts[i]->arg ? required_argument : no_argument, NULL,
                                       opts[i]->key };
        if (opts[i]->key < 256) {
            shortopts[sl++] = (char)opts[i]->key;
            if (opts[i]->arg)
                shortopts[sl++] = ':';
        }
    }
    shortopts[sl] = '\0';
    longopts[n_opts] = (struct option){ 0 };

    /* getopt permutes its argv: work on a copy without the command word. */
    char **av = malloc(((size_t)argc + 1) * sizeof *av);
    out->values = calloc((size_t)argc + 1, sizeof *out->values);
    if (!av || !out->values) {
        fprintf(stderr, "mtlbx: out of memory\n");
        free(av);
        cli_args_free(out);
        return -1;
    }
    int ac = 0;
    for (int i = 0; i < argc; i++)
        if (i != at || at == 0)
            av[ac++] = argv[i];
    av[ac] = NULL;

    int rc = 0;
    opterr = 0;
    optind = 0;
    for (int k; rc == 0 && (k = getopt_long(ac, av, shortopts, longopts, NULL)) != -1;) {
        if (k == '?' || k == ':') {
            char shown[8] = { '-', (char)optopt, 0 };
            const char *arg = optopt ? shown : av[optind - 1];
            usage_error(cmd, k == '?' ? "unknown or ambiguous option '%s'" : "option '%s' needs an argument", arg);
            rc = -1;
        } else if (k == 'h' && !find_key(cmd ? cmd->options : NULL, 'h')) {
            if (cmd)
                cli_print_command_help(cmd, stdout);
            else
                cli_print_usage(stdout);
            *status = fflush(stdout) == 0 ? 0 : 2;
            rc = -1;
        } else if (k == OPT_VERSION) {
            printf("mtlbx %s\n", PACKAGE_VERSION);
            *status = fflush(stdout) == 0 ? 0 : 2;
            rc = -1;
        } else {
            if (k == OPT_LLVM_DIS)
                out->g.llvm_dis = optarg;
            else if (k == OPT_NO_COLOR)
                out->g.no_color = true;
            else if (k == OPT_ASCII)
                out->g.ascii = true;
            else if (k == OPT_NO_MOUSE)
                out->g.no_mouse = true;
            out->values[out->n_values++] = (struct cli_value){ k, optarg };
        }
    }
    if (rc == 0) {
        out->n_operands = ac - optind;
        out->operands = calloc((size_t)out->n_operands + 1, sizeof *out->operands);
        if (!out->operands) {
            fprintf(stderr, "mtlbx: out of memory\n");
            rc = -1;
        } else {
            memcpy(out->operands, av + optind, (size_t)out->n_operands * sizeof *out->operands);
        }
    }
    free(av);
    if (rc == 0 && cmd) {
        for (const struct cli_option *o = cmd->options; o->key && rc == 0; o++)
            if ((o->flags & CLI_OPT_REQUIRED) && !cli_flag(out, o->key)) {
                usage_error(cmd, "missing option --%s", o->name);
                rc = -1;
            }
        if (rc == 0 && out->n_operands < cmd->min_operands) {
            /* Name the first operand missing: "FILE", "NAME". */
            char need[64] = "";
            const char *p = cmd->operands;
            for (int i = 0; i < out->n_operands && p; i++)
                p = strchr(p, ' ') ? strchr(p, ' ') + 1 : NULL;
            snprintf(need, sizeof need, "%.*s", p ? (int)strcspn(p, " .") : 4, p ? p : "FILE");
            usage_error(cmd, "missing %s", need);
            rc = -1;
        } else if (rc == 0 && cmd->max_operands >= 0 && out->n_operands > cmd->max_operands) {
            usage_error(cmd, "unexpected argument '%s'", out->operands[cmd->max_operands]);
            rc = -1;
        }
    }
    if (rc != 0)
        cli_args_free(out);
    return rc;
}
