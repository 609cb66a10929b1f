/* Prints the command table as documentation: `cmddoc man` for the SYNOPSIS
 * of man/mtlbx.1 (mdoc), `cmddoc markdown` for the command table of
 * README.md. Built, not installed; tests/cli/cli_doc.sh checks both documents
 * still match the table, as src/ui/keydoc does for the keys. */
#include "config.h"

#include "cli/commands.h"
#include "program/docfmt.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* mdoc: '-' as \-, argument names in lower case ("DIR" -> "dir"). */
static void man_word(const char *s, size_t n, bool lower)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        if (s[i] == '-')
            fputs("\\-", stdout);
        else
            putchar(lower ? tolower((unsigned char)s[i]) : s[i]);
    }
}

static void man_option(const struct cli_option *o, bool repeat)
{
    if (o->key < 256)
        printf("Fl %c", o->key);
    else {
        printf("Fl \\-");
        man_word(o->name, strlen(o->name), false);
    }
    /* "PLATFORM:VERSION|declared": a choice of an argument (upper case
     * in the table) and words typed as they are (lower case). */
    for (const char *a = o->arg; a && *a;) {
        size_t n = strcspn(a, "|");
        bool literal = true;
        for (size_t i = 0; i < n; i++)
            literal &= !isupper((unsigned char)a[i]);
        printf(a == o->arg ? " %s " : " | %s ", literal ? "Cm" : "Ar");
        man_word(a, n, !literal);
        a += n + (a[n] == '|');
    }
    if (repeat)
        printf(" ...");
}

/* "FILE NAME" -> ".Ar file name", "FILE..." -> ".Ar file ..." */
static void man_operands(const char *ops)
{
    printf(".Ar ");
    for (const char *p = ops; *p; p++) {
        if (p[0] == '.' && p[1] == '.' && p[2] == '.') {
            printf(" ...");
            p += 2;
        } else {
            putchar(tolower((unsigned char)*p));
        }
    }
    putchar('\n');
}

static void print_man(void)
{
    printf(".Nm\n");
    for (const struct cli_option *o = cli_global_options; o->key; o++)
        if (o->flags & CLI_OPT_EXPLORER) {
            printf(".Op ");
            man_option(o, false);
            putchar('\n');
        }
    printf(".Op Ar file ...\n");
    for (size_t i = 0; i < cli_commands_len; i++) {
        const struct cli_command *c = &cli_commands[i];
        printf(".Nm\n.Cm %s\n", c->name);
        for (const struct cli_option *o = c->options; o->key; o++)
            if (o->flags & CLI_OPT_REQUIRED) {
                putchar('.');
                man_option(o, false);
                putchar('\n');
            }
        man_operands(c->operands);
        for (const struct cli_option *o = c->options; o->key; o++)
            if (!(o->flags & CLI_OPT_REQUIRED)) {
                printf(".Op ");
                man_option(o, (o->flags & CLI_OPT_REPEAT) != 0);
                putchar('\n');
            }
    }
    printf(".Nm\n.Fl h | \\-help | \\-version\n");
}

static void print_markdown(void)
{
    char syn[256], code[sizeof "mtlbx " + sizeof syn];
    printf("| command | what it does |\n|---|---|\n");
    for (size_t i = 0; i < cli_commands_len; i++) {
        cli_synopsis(&cli_commands[i], syn, sizeof syn);
        snprintf(code, sizeof code, "mtlbx %s", syn);
        doc_md_row(stdout, code, cli_commands[i].summary);
    }
}

int main(int argc, char **argv)
{
    return doc_main(argc, argv, "cmddoc", print_man, print_markdown);
}
