/* What a command asks of its parsed command line: whether an option was
 * given, and its value. Apart from cmdline.c (the parser, which calls the
 * commands through the command table) so that a command calling these does
 * not call back into the parser that called it. */
#include "config.h"

#include "cmdline.h"

#include <stdlib.h>

bool cli_flag(const struct cli_args *a, int key)
{
    for (size_t i = 0; i < a->n_values; i++)
        if (a->values[i].key == key)
            return true;
    return false;
}

const char *cli_value(const struct cli_args *a, int key)
{
    const char *v = NULL;
    for (size_t i = 0; i < a->n_values; i++)
        if (a->values[i].key == key)
            v = a->values[i].value;
    return v;
}

void cli_args_free(struct cli_args *a)
{
    free(a->operands);
    free(a->values);
    a->operands = NULL;
    a->values = NULL;
    a->n_operands = 0;
    a->n_values = 0;
}
