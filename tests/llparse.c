/* See llparse.h. */
#include "llparse.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static char *dup_n(const char *p, size_t n)
{
    char *s = malloc(n + 1);
    memcpy(s, p, n);
    s[n] = '\0';
    return s;
}

/* llvm-dis escapes '"', '\\' and non-printable bytes as \HH. */
static char *unescape(const char *p, size_t n, size_t *out_len)
{
    char *s = malloc(n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\\' && i + 2 < n && isxdigit((unsigned char)p[i + 1]) &&
            isxdigit((unsigned char)p[i + 2])) {
            char hex[3] = { p[i + 1], p[i + 2], 0 };
            s[k++] = (char)strtol(hex, NULL, 16);
            i += 2;
        } else {
            s[k++] = p[i];
        }
    }
    s[k] = '\0';
    *out_len = k;
    return s;
}

static const char *skip_space(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* One operand's text, trimmed. */
static void classify(const char *p, const char *end, struct ll_op *op)
{
    memset(op, 0, sizeof *op);
    p = skip_space(p, end);
    while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    size_t n = (size_t)(end - p);
    if (n >= 2 && p[0] == '!' && p[1] == '"' && end[-1] == '"') {
        op->kind = LL_STRING;
        op->s = unescape(p + 2, n - 3, &op->len);
        return;
    }
    if (n >= 2 && p[0] == '!' && isdigit((unsigned char)p[1])) {
        op->kind = LL_REF;
        op->i = strtol(p + 1, NULL, 10);
        return;
    }
    if (n == 4 && memcmp(p, "null", 4) == 0) {
        op->kind = LL_NULL;
        return;
    }
    /* "TYPE VALUE": the value is the last word */
    const char *v = end;
    while (v > p && v[-1] != ' ')
        v--;
    if (v < end && *v == '@') {
        op->kind = LL_GLOBAL;
        if (v + 1 < end && v[1] == '"')
            op->s = unescape(v + 2, (size_t)(end - v - 3), &op->len);
        else
            op->s = dup_n(v + 1, (size_t)(end - v - 1)), op->len = (size_t)(end - v - 1);
        return;
    }
    bool int_type = p[0] == 'i' && v - p >= 3 && isdigit((unsigned char)p[1]);
    for (const char *q = p + 1; int_type && q < v - 1; q++)
        int_type = isdigit((unsigned char)*q);
    if (int_type) {
        if (end - v == 4 && memcmp(v, "true", 4) == 0) {
            op->kind = LL_INT;
            op->i = -1; /* i1 true, sign-extended as the bitcode stores it */
            return;
        }
        if (end - v == 5 && memcmp(v, "false", 5) == 0) {
            op->kind = LL_INT;
            return;
        }
        char *stop;
        long long x = strtoll(v, &stop, 10);
        if (stop == end) {
            op->kind = LL_INT;
            op->i = x;
            return;
        }
    }
    op->kind = LL_OTHER;
}

/* Splits "a, b, c" at top-level commas (outside quotes and brackets). */
static void split_ops(const char *p, const char *end, struct ll_tuple *t)
{
    t->present = true;
    p = skip_space(p, end);
    if (p == end)
        return;
    int depth = 0;
    bool quoted = false;
    const char *start = p;
    size_t cap = 0;
    for (const char *q = p;; q++) {
        if (q == end || (!quoted && depth == 0 && *q == ',')) {
            if (t->n == cap) {
                cap = cap ? cap * 2 : 8;
                t->ops = realloc(t->ops, cap * sizeof *t->ops);
            }
            classify(start, q, &t->ops[t->n++]);
            if (q == end)
                break;
            start = q + 1;
            continue;
        }
        if (*q == '"')
            quoted = !quoted;
        else if (!quoted && (*q == '(' || *q == '[' || *q == '{' || *q == '<'))
            depth++;
        else if (!quoted && (*q == ')' || *q == ']' || *q == '}' || *q == '>'))
            depth--;
    }
}

static void parse_line(const char *p, const char *end, struct ll_module *m)
{
    if (p < end && *p == '!') {
        const char *eq = memchr(p, '=', (size_t)(end - p));
        if (!eq || eq == p + 1)
            return;
        const char *name_end = eq;
        while (name_end > p && name_end[-1] == ' ')
            name_end--;
        const char *rhs = skip_space(eq + 1, end);
        if (end - rhs >= 9 && memcmp(rhs, "distinct ", 9) == 0)
            rhs += 9;
        if (end - rhs < 3 || rhs[0] != '!' || rhs[1] != '{' || end[-1] != '}')
            return; /* a specialised node (DILocation ...) */
        struct ll_tuple t = { 0 };
        split_ops(rhs + 2, end - 1, &t);
        if (isdigit((unsigned char)p[1])) {
            long id = strtol(p + 1, NULL, 10);
            if (id < 0 || id > 50000000)
                return;
            if ((size_t)id >= m->n_nodes) {
                size_t n = (size_t)id + 1;
                m->nodes = realloc(m->nodes, n * sizeof *m->nodes);
                memset(m->nodes + m->n_nodes, 0, (n - m->n_nodes) * sizeof *m->nodes);
                m->n_nodes = n;
            }
            m->nodes[id] = t;
        } else {
            m->named = realloc(m->named, (m->n_named + 1) * sizeof *m->named);
            struct ll_named *nm = &m->named[m->n_named++];
            nm->name = dup_n(p + 1, (size_t)(name_end - p - 1));
            nm->n = t.n;
            nm->ids = malloc((t.n ? t.n : 1) * sizeof *nm->ids);
            for (size_t i = 0; i < t.n; i++) {
                nm->ids[i] = t.ops[i].kind == LL_REF ? (long)t.ops[i].i : -1;
                free(t.ops[i].s);
            }
            free(t.ops);
        }
        return;
    }
    bool defined = end - p > 7 && memcmp(p, "define ", 7) == 0;
    if (defined || (end - p > 8 && memcmp(p, "declare ", 8) == 0)) {
        const char *at = memchr(p, '@', (size_t)(end - p));
        if (!at)
            return;
        const char *q = at + 1, *open;
        char *name;
        if (q < end && *q == '"') {
            const char *close = memchr(q + 1, '"', (size_t)(end - q - 1));
            if (!close)
                return;
            size_t len;
            name = unescape(q + 1, (size_t)(close - q - 1), &len);
            open = close + 1;
        } else {
            const char *e = q;
            while (e < end && *e != '(')
                e++;
            name = dup_n(q, (size_t)(e - q));
            open = e;
        }
        m->functions = realloc(m->functions, (m->n_functions + 1) * sizeof *m->functions);
        struct ll_function *f = &m->functions[m->n_functions++];
        *f = (struct ll_function){ .name = name, .defined = defined };
        if (!defined || open >= end || *open != '(')
            return;
        /* The parameter list: to the ')' that closes it. */
        int depth = 0;
        bool quoted = false;
        const char *close = NULL;
        for (const char *c = open; c < end && !close; c++) {
            if (*c == '"')
                quoted = !quoted;
            else if (!quoted && (*c == '(' || *c == '[' || *c == '{' || *c == '<'))
                depth++;
            else if (!quoted && (*c == ')' || *c == ']' || *c == '}' || *c == '>') && --depth == 0)
                close = c;
        }
        if (!close)
            return;
        /* Each parameter's text, split at the commas outside brackets. */
        for (const char *start = skip_space(open + 1, close); start < close;) {
            depth = 0;
            quoted = false;
            const char *e = start;
            for (; e < close && (quoted || depth || *e != ','); e++) {
                if (*e == '"')
                    quoted = !quoted;
                else if (!quoted && (*e == '(' || *e == '[' || *e == '{' || *e == '<'))
                    depth++;
                else if (!quoted && (*e == ')' || *e == ']' || *e == '}' || *e == '>'))
                    depth--;
            }
            f->params = realloc(f->params, (f->n_params + 1) * sizeof *f->params);
            f->params[f->n_params++] = dup_n(start, (size_t)(e - start));
            start = e < close ? skip_space(e + 1, close) : close;
        }
    }
}

/* The end of an LLVM identifier after its sigil: "quoted" or name chars. */
static const char *skip_identifier(const char *p)
{
    if (*p == '"') {
        const char *close = strchr(p + 1, '"');
        return close ? close + 1 : NULL;
    }
    const char *q = p;
    while (isalnum((unsigned char)*q) || strchr("-$._", *q))
        q++;
    return q > p ? q : NULL;
}

/* Past the bracket that closes the one at p (quotes respected). */
static const char *skip_balanced(const char *p)
{
    int depth = 0;
    bool quoted = false;
    for (; *p; p++) {
        if (*p == '"')
            quoted = !quoted;
        else if (!quoted && strchr("([{<", *p))
            depth++;
        else if (!quoted && strchr(")]}>", *p) && --depth == 0)
            return p + 1;
    }
    return NULL;
}

/* " addrspace(N)" at p: N, and p moved past it; else -1. */
static long addrspace_at(const char **p)
{
    const char *q = *p;
    while (*q == ' ')
        q++;
    if (strncmp(q, "addrspace(", 10) != 0)
        return -1;
    char *stop;
    long n = strtol(q + 10, &stop, 10);
    if (stop == q + 10 || *stop != ')')
        return -1;
    *p = stop + 1;
    return n;
}

int ll_param_address_space(const char *param)
{
    const char *p = param;
    while (*p == ' ')
        p++;
    if (strncmp(p, "ptr", 3) == 0 && (p[3] == ' ' || p[3] == '\0')) {
        p += 3;
        long as = addrspace_at(&p);
        return as < 0 ? 0 : (int)as;
    }
    /* The base type: %name, %"name", <...>, <{...}>, [...], {...}, or a word. */
    if (*p == '%')
        p = skip_identifier(p + 1);
    else if (*p == '<' || *p == '[' || *p == '{')
        p = skip_balanced(p);
    else if (isalpha((unsigned char)*p))
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
    else
        return -2;
    if (!p)
        return -2;
    /* Then pointer levels ("addrspace(N)*", "*") and function parameter
     * lists, the last pointer level deciding. */
    int as = -1;
    for (;;) {
        const char *q = p;
        long space = addrspace_at(&q);
        while (*q == ' ' && space < 0 && q[1] == '(')
            q++;
        if (*q == '*') {
            as = space < 0 ? 0 : (int)space;
            p = q + 1;
        } else if (*q == '(' && space < 0) {
            if (!(p = skip_balanced(q)))
                return -2;
        } else {
            return as;
        }
    }
}

bool ll_parse(const char *text, size_t len, struct ll_module *m)
{
    memset(m, 0, sizeof *m);
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *line_end = nl ? nl : end;
        parse_line(p, line_end, m);
        p = nl ? nl + 1 : end;
    }
    return len == 0 || strstr(text, "target triple") || strstr(text, "source_filename") || m->n_named;
}

void ll_free(struct ll_module *m)
{
    for (size_t i = 0; i < m->n_nodes; i++) {
        for (size_t k = 0; k < m->nodes[i].n; k++)
            free(m->nodes[i].ops[k].s);
        free(m->nodes[i].ops);
    }
    free(m->nodes);
    for (size_t i = 0; i < m->n_named; i++) {
        free(m->named[i].name);
        free(m->named[i].ids);
    }
    free(m->named);
    for (size_t i = 0; i < m->n_functions; i++) {
        free(m->functions[i].name);
        for (size_t k = 0; k < m->functions[i].n_params; k++)
            free(m->functions[i].params[k]);
        free(m->functions[i].params);
    }
    free(m->functions);
    memset(m, 0, sizeof *m);
}

const struct ll_tuple *ll_node(const struct ll_module *m, long id)
{
    if (id < 0 || (size_t)id >= m->n_nodes || !m->nodes[id].present)
        return NULL;
    return &m->nodes[id];
}

const struct ll_function *ll_function(const struct ll_module *m, const char *name)
{
    for (size_t i = 0; i < m->n_functions; i++)
        if (strcmp(m->functions[i].name, name) == 0)
            return &m->functions[i];
    return NULL;
}

bool ll_is_function(const struct ll_module *m, const char *name)
{
    return ll_function(m, name) != NULL;
}
