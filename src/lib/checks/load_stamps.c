/* The stamps Metal checks when it loads a library (checks.h, "load
 * stamps"): the modules' target triple, the MSL and AIR versions, and
 * the header's deployment target beside them. Reads the function list
 * and, for the triples, the start of each module's MODULE block. */
#include "config.h"
#include "bitcode/bitcode.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

/* Modules asked for a triple when not every one is read (as
 * mtlbx_library_triple does: one damaged module does not lose it). */
#define TRIPLE_TRIES 4

bool mtlbx_triple_os_version(const char *triple, struct mtlbx_os_version *out)
{
    /* ARCH-VENDOR-OS[-ENVIRONMENT]; OS is letters, then the version */
    const char *os = strchr(triple, '-');
    os = os ? strchr(os + 1, '-') : NULL;
    if (!os)
        return false;
    os++;
    while (*os >= 'a' && *os <= 'z')
        os++;
    if (*os < '0' || *os > '9')
        return false;
    char *end;
    unsigned long major = strtoul(os, &end, 10), minor = 0;
    if (*end == '.' && end[1] >= '0' && end[1] <= '9')
        minor = strtoul(end + 1, &end, 10);
    if (major > UINT16_MAX || minor > UINT16_MAX)
        return false;
    *out = (struct mtlbx_os_version){ (uint16_t)major, (uint16_t)minor };
    return true;
}

enum mtlbx_triple_verdict mtlbx_triple_accepts(enum mtlbx_os os, struct mtlbx_os_version running,
                                               struct mtlbx_os_version asks)
{
    if (mtlbx_os_version_cmp(asks, running) <= 0)
        return MTLBX_TRIPLE_ACCEPTED;
    /* macOS 10.0 to 10.15 were each a major release (10.16 is 11). */
    bool ten = os == MTLBX_OS_MACOS && asks.major == 10;
    if (asks.major == running.major && !ten)
        return MTLBX_TRIPLE_NEWER_MINOR;
    return MTLBX_TRIPLE_REFUSED;
}

/* One module's triple into the stamps. */
static void note_triple(struct mtlbx_load_stamps *s, const char *triple)
{
    struct mtlbx_os_version v = { 0, 0 };
    bool has_v = mtlbx_triple_os_version(triple, &v);
    enum mtlbx_os os = mtlbx_os_of_triple(triple);
    s->triples_read++;
    if (!s->has_triple) {
        s->has_triple = true;
        snprintf(s->triple, sizeof s->triple, "%s", triple);
        s->triple_os = os;
        s->triple_has_version = has_v;
        s->triple_version = v;
        s->triple_functions = 1;
        return;
    }
    bool same = os == s->triple_os && has_v == s->triple_has_version &&
                (!has_v || mtlbx_os_version_cmp(v, s->triple_version) == 0);
    if (same) {
        s->triple_functions++;
        return;
    }
    s->triples_differ++;
    /* Keep the one that asks the most: it is the one that can be refused. */
    if (has_v && (!s->triple_has_version || mtlbx_os_version_cmp(v, s->triple_version) > 0)) {
        snprintf(s->triple, sizeof s->triple, "%s", triple);
        s->triple_os = os;
        s->triple_has_version = true;
        s->triple_version = v;
        s->triples_differ += s->triple_functions - 1; /* the old ones now differ, this one does not */
        s->triple_functions = 1;
    }
}

static void note_version(bool *has, struct mtlbx_os_version *max, size_t *count, struct mtlbx_os_version v)
{
    int c = *has ? mtlbx_os_version_cmp(v, *max) : 1;
    if (c > 0) {
        *has = true;
        *max = v;
        *count = 1;
    } else if (c == 0) {
        (*count)++;
    }
}

void mtlbx_library_load_stamps(const mtlbx_library *lib, bool every_module, struct mtlbx_load_stamps *out)
{
    memset(out, 0, sizeof *out);
    out->os = mtlbx_library_os(lib);
    out->has_header_target = mtlbx_library_deployment_target(lib, &out->header_os, &out->header_version);
    out->n_functions = lib->n_functions;
    struct function_cursor cur = { 0 };
    for (size_t i = 0; i < lib->n_functions; i++) {
        const struct mtlbx_function *fn = function_cursor_at((mtlbx_library *)lib, &cur, i);
        if (!fn)
            break;
        if (fn->present & MTLBX_F_VERS) {
            note_version(&out->has_msl, &out->msl, &out->msl_functions,
                         (struct mtlbx_os_version){ fn->msl_major, fn->msl_minor });
            note_version(&out->has_air, &out->air, &out->air_functions,
                         (struct mtlbx_os_version){ fn->air_major, fn->air_minor });
        }
        if (!every_module && (out->has_triple || i >= TRIPLE_TRIES))
            continue;
        struct mtlbx_bytes m = mtlbx_function_module_bytes(lib, i);
        char triple[96];
        if (m.len && bc_module_triple(m.ptr, m.len, triple, sizeof triple))
            note_triple(out, triple);
    }
    function_cursor_free(&cur);
}
