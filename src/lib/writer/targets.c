/* Targets: what Apple's standalone `metallib` tool (the step that links
 * .air files into a library, `xcrun metallib a.air -o x.metallib`) writes
 * for a deployment target, and whether a module loads there.
 *
 * The container version by target comes from FORMAT.md §2.2 and the real
 * files: macOS 11 1.2.5, 12 1.2.6, 13 and 14 1.2.7, 15 1.2.8, 26 1.2.9
 * (each seen); iOS 16, tvOS simulator 16, watchOS 9 and visionOS 1 1.2.7
 * (seen). The other rows of the other platforms are the OS versions
 * released the same year as the macOS rows (iOS 14 with macOS 11, ...),
 * the toolchain that writes both: inferred, not seen. A target before
 * the first row or past the last is refused: the writer does not know
 * what Apple writes there.
 *
 * The style is the standalone tool's, as the two-step builds of the
 * corpus show it at 1.2.7 and 1.2.9 (kml, candle, minimax, the metal-info
 * probe): function tags NAME TYPE HASH MDSZ OFFT VERS, metadata groups
 * whose size leaves the prefix out, an empty header extension (ENDT
 * alone: no UUID, no HDYN), no reflection list (the compiler writes
 * reflection, not the linker). Before 1.2.6 the header records no
 * platform and no OS version (FORMAT W4). */
#include "config.h"
#include "writer_internal.h"
#include "checks/os_spec.h"
#include "writer/writer.h"
#include "writer/writer_model.h"
#include "container/escape.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdbool.h>

struct row {
    uint16_t major;
    uint16_t patch;            /* container 1.2.N */
};

static const struct row macos_rows[] = { { 11, 5 }, { 12, 6 }, { 13, 7 }, { 14, 7 }, { 15, 8 }, { 26, 9 } };
static const struct row ios_rows[] = { { 14, 5 }, { 15, 6 }, { 16, 7 }, { 17, 7 }, { 18, 8 }, { 26, 9 } };
static const struct row watchos_rows[] = { { 7, 5 }, { 8, 6 }, { 9, 7 }, { 10, 7 }, { 11, 8 }, { 26, 9 } };
static const struct row visionos_rows[] = { { 1, 7 }, { 2, 8 }, { 26, 9 } };

struct platform {
    const char *name;          /* as CONTRACT.md's target_os spells it */
    uint8_t byte;              /* header byte 11 */
    enum mtlbx_os os;
    bool macos_word;
    const struct row *rows;
    size_t n_rows;
};

#define ROWS(r) r, sizeof r / sizeof *r
static const struct platform platforms[] = {
    { "macOS", 0x81, MTLBX_OS_MACOS, true, ROWS(macos_rows) },
    { "iOS", 0x82, MTLBX_OS_IOS, false, ROWS(ios_rows) },
    { "tvOS", 0x83, MTLBX_OS_TVOS, false, ROWS(ios_rows) },
    { "watchOS", 0x84, MTLBX_OS_WATCHOS, false, ROWS(watchos_rows) },
    /* Mac Catalyst: the macOS flag with its own platform byte (FORMAT P10). */
    { "macCatalyst", 0x86, MTLBX_OS_MACCATALYST, true, ROWS(ios_rows) },
    { "iOS-simulator", 0x87, MTLBX_OS_IOS, false, ROWS(ios_rows) },
    { "tvOS-simulator", 0x88, MTLBX_OS_TVOS, false, ROWS(ios_rows) },
    { "watchOS-simulator", 0x89, MTLBX_OS_WATCHOS, false, ROWS(watchos_rows) },
    { "visionOS", 0x8B, MTLBX_OS_VISIONOS, false, ROWS(visionos_rows) },
    { "visionOS-simulator", 0x8C, MTLBX_OS_VISIONOS, false, ROWS(visionos_rows) },
};

static bool parse_number(const char **p, unsigned long max, unsigned long *out)
{
    const char *s = *p;
    if (*s < '0' || *s > '9')
        return false;
    unsigned long v = 0;
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + (unsigned long)(*s - '0');
        if (v > max)
            return false;
        s++;
    }
    *p = s;
    *out = v;
    return true;
}

static bool wr_platform_simulator(uint8_t byte)
{
    return byte == 0x87 || byte == 0x88 || byte == 0x89 || byte == 0x8C;
}

bool wr_target_simulator(const struct mtlbx_wr_target *t)
{
    return wr_platform_simulator(t->platform_byte);
}

/* The first `max` bytes of a target the caller gave, as a message quotes
 * them: escaped as stdout escapes (no control byte, no newline). */
enum { TARGET_SHOWN = 60 * 4 + 1 };
static const char *target_shown(const char *text, size_t max, char out[TARGET_SHOWN])
{
    mbx_escape((const uint8_t *)text, strnlen(text, max < 60 ? max : 60), MTLBX_ESC_TERMINAL, out, TARGET_SHOWN);
    return out;
}

int mbx_wr_parse_target(mtlbx_writer *w, const char *text, struct mtlbx_wr_target *out)
{
    /* The one parser of PLATFORM:VERSION (checks/os_spec.c): what check
     * --os and mtlbx_check_os accept, pack --target accepts. */
    struct mtlbx_os_spec spec;
    char shown[TARGET_SHOWN], shown_pf[TARGET_SHOWN];
    switch (mbx_os_spec_parse(text, &spec)) {
    case MTLBX_OS_SPEC_OK:
        break;
    case MTLBX_OS_SPEC_NOT_SPEC:
        return mbx_wr_fail(w, -1, "target \"%s\" is not PLATFORM:VERSION (macOS:14.0, iOS:17.0, ...)",
                             target_shown(text ? text : "", 60, shown));
    case MTLBX_OS_SPEC_PLATFORM: {
        size_t len = (size_t)(strchr(text, ':') - text);
        return mbx_wr_fail(w, -1, "target \"%s\": no platform the writer knows is called \"%s\" ("
                             MTLBX_OS_SPEC_PLATFORMS ")", target_shown(text, 60, shown),
                             target_shown(text, len < 40 ? len : 40, shown_pf));
    }
    default:
        return mbx_wr_fail(w, -1, "target \"%s\": the version is not MAJOR[.MINOR[.PATCH]]",
                             target_shown(text, 60, shown));
    }
    const struct platform *pf = NULL;
    for (size_t i = 0; i < sizeof platforms / sizeof *platforms && !pf; i++)
        if (platforms[i].os == spec.os && wr_platform_simulator(platforms[i].byte) == spec.simulator)
            pf = &platforms[i];
    unsigned long major = spec.version.major, minor = spec.version.minor, patch = spec.patch;
    if (!pf)
        return mbx_wr_fail(w, -1, "target \"%s\": no platform the writer knows", target_shown(text, 60, shown));
    const struct row *row = NULL;
    for (size_t i = 0; i < pf->n_rows; i++)
        if (pf->rows[i].major == major)
            row = &pf->rows[i];
    if (!row)
        return mbx_wr_fail(w, -1, "target %s %lu: the writer does not know what Apple's tools write for it "
                             "(it knows %s %u to %u)",
                             pf->name, major, pf->name, pf->rows[0].major, pf->rows[pf->n_rows - 1].major);
    *out = (struct mtlbx_wr_target){ pf->os, pf->byte, pf->macos_word, (uint16_t)major, (uint8_t)minor,
                                     (uint8_t)patch, row->patch, "" };
    snprintf(out->text, sizeof out->text, "%s %lu.%lu", pf->name, major, minor);
    if (patch)
        snprintf(out->text, sizeof out->text, "%s %lu.%lu.%lu", pf->name, major, minor, patch);
    return MTLBX_WRITER_OK;
}

void mbx_wr_apply_target(struct mtlbx_wr_library *lib, const struct mtlbx_wr_target *t)
{
    lib->version_word = (uint16_t)(1 | (t->macos_word ? 0x8000 : 0));
    lib->minor = 2;
    lib->patch = t->container_patch;
    if (t->container_patch >= 6) {
        lib->platform_byte = t->platform_byte;
        lib->os_major = t->major;
        lib->os_minor = t->minor;
        lib->os_patch = t->patch;
    } else {
        lib->platform_byte = 0;
        lib->os_major = 0;
        lib->os_minor = lib->os_patch = 0;
    }
    lib->md_prefix_excludes = true;
    lib->has_ext = true;
}

/* "air64-apple-macosx14.0.0[-env]": the OS version after the OS name. */
bool wr_triple_version(const char *triple, unsigned long v[3], bool *simulator)
{
    const char *os = strchr(triple, '-');
    os = os ? strchr(os + 1, '-') : NULL;
    if (!os)
        return false;
    os++;
    const char *env = strchr(os, '-');
    *simulator = env && strncmp(env + 1, "simulator", 9) == 0;
    const char *p = os;
    while (*p && (*p < '0' || *p > '9') && *p != '-')
        p++;
    v[0] = v[1] = v[2] = 0;
    for (int k = 0; k < 3; k++) {
        if (!parse_number(&p, 1000000, &v[k]))
            return k > 0;
        if (*p != '.')
            return true;
        p++;
    }
    return true;
}

void wr_note(mtlbx_writer *w, const char *fmt, ...)
{
    if (w->n_notes++)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->note, sizeof w->note, fmt, ap);
    va_end(ap);
}

const char *mbx_writer_note(const mtlbx_writer *w, size_t *more)
{
    *more = w->n_notes ? w->n_notes - 1 : 0;
    return w->n_notes ? w->note : NULL;
}
