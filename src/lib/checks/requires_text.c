/* The wording of requirements (requires_text.h): what info, sig, find, diff
 * and the explorer's compare view say about them. */
#include "config.h"

#include "requires_text.h"
#include "container/nouns.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends to buf (always NUL-terminated, truncated when full). */
static void add(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t size, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}

const char *req_target_text(const struct mtlbx_requires *r, char *buf, size_t size)
{
    const char *os = mbx_os_name(r->os);
    if (!os)
        snprintf(buf, size, "unknown");
    else if (!r->has_version)
        snprintf(buf, size, "%s (version not known)", os);
    else
        snprintf(buf, size, "%s %u.%u", os, r->version.major, r->version.minor);
    return buf;
}

void req_cause_text(const struct mtlbx_requires *r, char *buf, size_t size)
{
    buf[0] = '\0';
    bool deployment = false, header = false;
    for (size_t i = 0; i < r->n_reasons; i++) {
        const struct mtlbx_req_reason *x = &r->reasons[i];
        if (mbx_os_version_cmp(x->needs, r->version) != 0)
            continue;
        if (x->rule == MTLBX_REQ_DEPLOYMENT)
            deployment = true, header = x->header;
        else
            add(buf, size, "%s%s %u.%u", buf[0] ? ", " : "", x->rule == MTLBX_REQ_MSL ? "MSL" : "AIR", x->of.major,
                x->of.minor);
    }
    if (!buf[0] && deployment)
        add(buf, size, header ? "deployment target in the header: no module's target triple could be read"
                              : "deployment target");
}

void req_unknown_text(const struct mtlbx_requires *r, char *buf, size_t size)
{
    char u[32];
    for (size_t i = 0; i < r->n_unknown; i++)
        add(buf, size, "%s%s", i ? ", " : "", mbx_req_unknown_text(&r->unknown[i], u, sizeof u));
    if (r->unknown_dropped)
        add(buf, size, " and %zu more", r->unknown_dropped);
}

void req_loads_on_text(const struct mtlbx_requires *r, char *buf, size_t size)
{
    char cause[160], n[48];
    buf[0] = '\0';
    if (r->os == MTLBX_OS_NONE) {
        add(buf, size, "unknown (no target OS in the header, no target triple in the modules)");
    } else if (!r->has_version) {
        add(buf, size, "%s, version not known", mbx_os_name(r->os));
    } else {
        add(buf, size, "%s %u.%u or later", mbx_os_name(r->os), r->version.major, r->version.minor);
        req_cause_text(r, cause, sizeof cause);
        if (strncmp(cause, "deployment target", 17) == 0 || !r->n_functions)
            add(buf, size, " (%s)", cause);
        else
            add(buf, size, " (%s: %s)", cause, mbx_count_noun(r->n_functions, "function", "functions", n, sizeof n));
    }
    if (r->n_unknown) {
        add(buf, size, "; newer than the tables, not known: ");
        req_unknown_text(r, buf, size);
    }
}

void req_reasons_text(const struct mtlbx_requires *r, char *buf, size_t size)
{
    char one[96];
    buf[0] = '\0';
    for (size_t i = 0; i < r->n_reasons; i++)
        add(buf, size, "%s%s", i ? ", " : "", mbx_req_reason_text(r->os, &r->reasons[i], one, sizeof one));
    if (r->n_unknown) {
        add(buf, size, "%snot known: ", r->n_reasons ? "; " : "");
        req_unknown_text(r, buf, size);
    }
}

bool os_version_parse(const char *s, struct mtlbx_os_version *v)
{
    char *end;
    if (*s < '0' || *s > '9')
        return false;
    unsigned long major = strtoul(s, &end, 10), minor = 0;
    if (end == s || major > UINT16_MAX)
        return false;
    if (*end == '.') {
        const char *m = end + 1;
        if (*m < '0' || *m > '9')
            return false;
        minor = strtoul(m, &end, 10);
        if (minor > UINT16_MAX)
            return false;
        if (*end == '.') {
            const char *p = end + 1;
            if (*p < '0' || *p > '9')
                return false;
            strtoul(p, &end, 10);
        }
    }
    if (*end)
        return false;
    *v = (struct mtlbx_os_version){ (uint16_t)major, (uint16_t)minor };
    return true;
}
