/* check's findings and their formats (check_report.h). */
#include "config.h"

#include "cli/gate/check_report.h"
#include "cli/commands.h"
#include "gate/archive_members.h"
#include "gate/gate.h"
#include "json/json_stream.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

bool report_format_parse(const char *value, bool json, enum report_format *out)
{
    *out = json ? REPORT_JSON : REPORT_TEXT;
    if (!value)
        return true;
    enum report_format f;
    if (strcmp(value, "text") == 0)
        f = REPORT_TEXT;
    else if (strcmp(value, "json") == 0)
        f = REPORT_JSON;
    else if (strcmp(value, "github") == 0)
        f = REPORT_GITHUB;
    else {
        char *shown = cli_escape_str_dup(value);
        fprintf(stderr, "%s: --format %s: expected text, json or github\n", cli_program_name(), shown ? shown : "?");
        free(shown);
        return false;
    }
    if (json && f != REPORT_JSON) {
        fprintf(stderr, "%s: --json and --format %s: choose one\n", cli_program_name(), value);
        return false;
    }
    *out = f;
    return true;
}

size_t report_file(struct report *r, const char *name)
{
    if (r->n_names == r->cap_names) {
        size_t cap = r->cap_names ? 2 * r->cap_names : 16;
        char **g = realloc(r->names, cap * sizeof *g);
        if (!g) {
            r->out_of_memory = true;
            return SIZE_MAX;
        }
        r->names = g;
        r->cap_names = cap;
    }
    if (!(r->names[r->n_names] = strdup(name))) {
        r->out_of_memory = true;
        return SIZE_MAX;
    }
    return r->n_names++;
}

void report_add(struct report *r, size_t file, enum mtlbx_severity sev, uint64_t offset, const char *message,
                const char *rule)
{
    if (file == SIZE_MAX)
        return;
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        struct report_item *g = realloc(r->v, cap * sizeof *g);
        if (!g) {
            r->out_of_memory = true;
            return;
        }
        r->v = g;
        r->cap = cap;
    }
    char *m = strdup(message);
    if (!m) {
        r->out_of_memory = true;
        return;
    }
    r->v[r->n++] = (struct report_item){ file, sev, offset, m, rule };
}

static int item_cmp(const void *a, const void *b)
{
    const struct report_item *x = a, *y = b;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    return mbx_gate_order(x->offset, x->severity, x->message, y->offset, y->severity, y->message);
}

/* GitHub's escaping of a workflow command's message (escapeData), and of
 * a property (escapeProperty, which adds ':' and ','). */
static void put_github(FILE *out, const char *s, bool property)
{
    for (; *s; s++) {
        switch (*s) {
        case '%': fputs("%25", out); break;
        case '\r': fputs("%0D", out); break;
        case '\n': fputs("%0A", out); break;
        case ':': property ? fputs("%3A", out) : fputc(':', out); break;
        case ',': property ? fputs("%2C", out) : fputc(',', out); break;
        default: fputc(*s, out);
        }
    }
}

/* Valid UTF-8 for JSON; nothing that acts on a terminal for GitHub's log. */
static char *escaped(const struct report *r, const char *s, size_t n)
{
    return r->format == REPORT_JSON ? json_bytes_text_dup(s, n) : cli_escape_dup(s, n);
}

static bool print_item(const struct report *r, const struct report_item *it, FILE *out)
{
    const char *name = r->names[it->file];
    const char *sev = it->severity == MTLBX_ERROR ? "error" : "warning";
    if (r->format == REPORT_TEXT) {
        cli_put_escaped(out, (struct mtlbx_bytes){ (const uint8_t *)name, strlen(name) });
        fprintf(out, ":%llu: %s: ", (unsigned long long)it->offset, sev);
        cli_put_escaped(out, (struct mtlbx_bytes){ (const uint8_t *)it->message, strlen(it->message) });
        fputc('\n', out);
        return true;
    }
    char *file = escaped(r, name, strlen(name));
    char *msg = escaped(r, it->message, strlen(it->message));
    bool ok = file && msg;
    if (ok && r->format == REPORT_JSON) {
        json_t *o = json_pack("{s:s, s:I, s:s, s:s, s:s}", "file", file, "offset", (json_int_t)it->offset, "severity",
                              sev, "message", msg, "rule", it->rule);
        char *line = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
        ok = line && fprintf(out, "%s\n", line) >= 0;
        free(line);
        json_decref(o);
    } else if (ok) {
        /* GitHub attaches an annotation to a file of the repository: a
         * member's archive (or Mach-O host) is that file; the member is
         * named in the message, which keeps the whole name. */
        size_t cut = mbx_member_path_split(name);
        char *repo_file = cut ? escaped(r, name, cut) : NULL;
        fprintf(out, "::%s file=", sev);
        put_github(out, repo_file ? repo_file : file, true);
        free(repo_file);
        fputs(",title=", out);
        char title[64];
        snprintf(title, sizeof title, "mtlbx check (%s)", it->rule);
        put_github(out, title, true);
        fputs("::", out);
        put_github(out, file, false);
        fprintf(out, ":%llu: ", (unsigned long long)it->offset);
        put_github(out, msg, false);
        fputc('\n', out);
    }
    free(file);
    free(msg);
    return ok;
}

bool report_flush(struct report *r, FILE *out)
{
    if (r->n > 1)
        qsort(r->v, r->n, sizeof *r->v, item_cmp);
    bool ok = !r->out_of_memory;
    for (size_t i = 0; i < r->n; i++) {
        if (ok)
            ok = print_item(r, &r->v[i], out);
        free(r->v[i].message);
    }
    r->findings += r->n;
    r->n = 0;
    for (size_t i = 0; i < r->n_names; i++)
        free(r->names[i]);
    r->n_names = 0;
    return ok && !ferror(out);
}

void report_free(struct report *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->v[i].message);
    for (size_t i = 0; i < r->n_names; i++)
        free(r->names[i]);
    free(r->v);
    free(r->names);
    memset(r, 0, sizeof *r);
}
