/* PLATFORM:VERSION as users write it (checks/os_spec.h): one parser
 * for `check --os`, `find --os`, `pack --target`, mtlbx_check_os,
 * mtlbx_writer_target and Python, so that every spelling is accepted or
 * refused alike by all of them. */
#include "config.h"
#include "checks/os_spec.h"

#include <string.h>
#include <strings.h>
#include <stdbool.h>

static const struct {
    const char *name;
    enum mtlbx_os os;
} PLATFORMS[] = {
    { "macos", MTLBX_OS_MACOS }, { "macosx", MTLBX_OS_MACOS }, { "osx", MTLBX_OS_MACOS },
    { "ios", MTLBX_OS_IOS }, { "ipados", MTLBX_OS_IOS }, { "tvos", MTLBX_OS_TVOS },
    { "maccatalyst", MTLBX_OS_MACCATALYST }, { "visionos", MTLBX_OS_VISIONOS },
    { "xros", MTLBX_OS_VISIONOS }, { "watchos", MTLBX_OS_WATCHOS },
};

enum mtlbx_os mbx_os_parse(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof PLATFORMS / sizeof *PLATFORMS; i++)
        if (strlen(PLATFORMS[i].name) == len && strncasecmp(name, PLATFORMS[i].name, len) == 0)
            return PLATFORMS[i].os;
    return MTLBX_OS_NONE;
}

/* Digits up to `max`, at *p; moves *p past them. */
static bool number(const char **p, unsigned long max, unsigned long *out)
{
    const char *s = *p;
    if (*s < '0' || *s > '9')
        return false;
    unsigned long v = 0;
    for (; *s >= '0' && *s <= '9'; s++)
        if ((v = v * 10 + (unsigned long)(*s - '0')) > max)
            return false;
    *p = s;
    *out = v;
    return true;
}

enum mtlbx_os_spec_error mbx_os_spec_parse(const char *text, struct mtlbx_os_spec *out)
{
    const char *colon = text ? strchr(text, ':') : NULL;
    if (!colon)
        return MTLBX_OS_SPEC_NOT_SPEC;
    size_t len = (size_t)(colon - text);
    static const char SIM[] = "-simulator";
    const size_t sim_len = sizeof SIM - 1;
    bool simulator = len > sim_len && strncasecmp(colon - sim_len, SIM, sim_len) == 0;
    enum mtlbx_os os = mbx_os_parse(text, simulator ? len - sim_len : len);
    /* A simulator of the devices only: macOS and Mac Catalyst have none. */
    if (os == MTLBX_OS_NONE || (simulator && (os == MTLBX_OS_MACOS || os == MTLBX_OS_MACCATALYST)))
        return MTLBX_OS_SPEC_PLATFORM;
    const char *p = colon + 1;
    unsigned long major, minor = 0, patch = 0;
    /* The header keeps major in 16 bits, minor and patch in 8 (FORMAT.md §2). */
    bool ok = number(&p, UINT16_MAX, &major);
    if (ok && *p == '.') {
        p++;
        ok = number(&p, UINT8_MAX, &minor);
        if (ok && *p == '.') {
            p++;
            ok = number(&p, UINT8_MAX, &patch);
        }
    }
    if (!ok || *p)
        return MTLBX_OS_SPEC_VERSION;
    *out = (struct mtlbx_os_spec){ os, simulator, { (uint16_t)major, (uint16_t)minor }, (uint8_t)patch };
    return MTLBX_OS_SPEC_OK;
}
