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

/* One way of writing the table: a section's heading and end, and a key's
 * row (its names, what it does). */
struct key_format {
    const char *section_head; /* printf format of the section's title */
    const char *section_end;
    void (*row)(const char *names, const char *help);
};

/* The table section by section; a section no key is in is left out. */
static void print_sections(const struct key_format *f)
{
    for (size_t s = 0; s < key_sections_len; s++) {
        bool any = false;
        for (size_t i = 0; i < key_table_len; i++) {
            const struct key_binding *b = &key_table[i];
            if (!key_in_section(b, key_sections[s].mask))
                continue;
            if (!any) {
                printf(f->section_head, key_sections[s].title);
                any = true;
            }
            char names[96];
            key_binding_names(b, names, sizeof names);
            f->row(names, b->help);
        }
        if (any)
            fputs(f->section_end, stdout);
    }
}

static void man_row(const char *names, const char *help)
{
    /* \\& keeps "[", "]" and ":" from being read as delimiters. */
    printf(".It Sy \"\\&");
    man_text(names);
    printf("\"\n");
    man_text(help);
    putchar('\n');
}

static void print_man(void)
{
    static const struct key_format man = {
        ".Ss %s\n.Bl -tag -width \"PgDn, Ctrl-F\" -compact\n", ".El\n", man_row,
    };
    print_sections(&man);
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

static void markdown_row(const char *names, const char *help)
{
    doc_md_row(stdout, names, help);
}

static void print_markdown(void)
{
    static const struct key_format md = {
        "\n**%s**\n\n| key | action |\n|---|---|\n", "", markdown_row,
    };
    print_sections(&md);
    printf("\n%s", keys_legend);
}

int main(int argc, char **argv)
{
    return doc_main(argc, argv, "keydoc", print_man, print_markdown);
}
