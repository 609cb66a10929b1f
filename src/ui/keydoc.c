/* Prints the key table as documentation: `keydoc man` for the KEYS part of
 * man/mtlbx.1 (mdoc), `keydoc markdown` for README.md. Built, not
 * installed; tests/ui/test_ui_keys.c checks the man page still matches. */
#include "config.h"

#include "ui/term/keys.h"
#include "program/docfmt.h"

#include <stdio.h>
#include <string.h>

/* mdoc treats a leading '.' or '\'' as a request and '\' as an escape. */
static void man_text(const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", stdout);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", stdout);
        else
            putchar(*s);
    }
}

static void print_man(void)
{
    for (size_t s = 0; s < key_sections_len; s++) {
        bool any = false;
        for (size_t i = 0; i < key_table_len; i++) {
            const struct key_binding *b = &key_table[i];
            if (!key_in_section(b, key_sections[s].mask))
                continue;
            if (!any) {
                printf(".Ss %s\n.Bl -tag -width \"PgDn, Ctrl-F\" -compact\n", key_sections[s].title);
                any = true;
            }
            char names[96];
            key_binding_names(b, names, sizeof names);
            /* \\& keeps "[", "]" and ":" from being read as delimiters. */
            printf(".It Sy \"\\&");
            man_text(names);
            printf("\"\n");
            man_text(b->help);
            putchar('\n');
        }
        if (any)
            printf(".El\n");
    }
    printf(".Pp\n");
    for (const char *p = keys_legend; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)n, p);
        man_text(line);
        putchar('\n');
        p += n + (nl != NULL);
    }
}

static void print_markdown(void)
{
    for (size_t s = 0; s < key_sections_len; s++) {
        bool any = false;
        for (size_t i = 0; i < key_table_len; i++) {
            const struct key_binding *b = &key_table[i];
            if (!key_in_section(b, key_sections[s].mask))
                continue;
            if (!any) {
                printf("\n**%s**\n\n| key | action |\n|---|---|\n", key_sections[s].title);
                any = true;
            }
            char names[96];
            key_binding_names(b, names, sizeof names);
            printf("| `");
            doc_md_cell(stdout, names);
            printf("` | ");
            doc_md_cell(stdout, b->help);
            printf(" |\n");
        }
    }
    printf("\n%s", keys_legend);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "man") == 0)
        print_man();
    else if (argc == 2 && strcmp(argv[1], "markdown") == 0)
        print_markdown();
    else {
        fprintf(stderr, "usage: keydoc man|markdown\n");
        return 2;
    }
    return 0;
}
