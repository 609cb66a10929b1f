/* Platforms and OS versions (checks/os.h): their names, their
 * order, Apple's platform numbers, and the platform and deployment target
 * a library's header records. The ground the requirement rule
 * (requirements.c) and the deployment target (deployment.c) stand on. */
#include "config.h"
#include "container/library.h"
#include "bitcode/bitcode.h"
#include "checks/requirements.h"

#include <string.h>
#include <stdbool.h>

static const char *const OS_NAMES[MTLBX_OS_COUNT] = {
    [MTLBX_OS_MACOS] = "macOS", [MTLBX_OS_IOS] = "iOS", [MTLBX_OS_TVOS] = "tvOS",
    [MTLBX_OS_MACCATALYST] = "macCatalyst", [MTLBX_OS_VISIONOS] = "visionOS", [MTLBX_OS_WATCHOS] = "watchOS",
};

const char *mbx_os_name(enum mtlbx_os os)
{
    return os > MTLBX_OS_NONE && os < MTLBX_OS_COUNT ? OS_NAMES[os] : NULL;
}

int mbx_os_version_cmp(struct mtlbx_os_version a, struct mtlbx_os_version b)
{
    if (a.major != b.major)
        return a.major < b.major ? -1 : 1;
    return (a.minor > b.minor) - (a.minor < b.minor);
}

static struct mtlbx_os_version ver(uint16_t major, uint16_t minor)
{
    return (struct mtlbx_os_version){ major, minor };
}

enum mtlbx_os mbx_platform_os(uint32_t platform)
{
    switch (platform) {
    case 1: return MTLBX_OS_MACOS;
    case 2: case 7: return MTLBX_OS_IOS;
    case 3: case 8: return MTLBX_OS_TVOS;
    case 4: case 9: return MTLBX_OS_WATCHOS;
    case 6: return MTLBX_OS_MACCATALYST;
    case 11: case 12: return MTLBX_OS_VISIONOS;
    default: return MTLBX_OS_NONE;
    }
}

/* The header's byte 11: 0x80 (64-bit) and a platform number. */
static enum mtlbx_os header_os(uint8_t platform_byte)
{
    return platform_byte & 0x80 ? mbx_platform_os(platform_byte & 0x7Fu) : MTLBX_OS_NONE;
}

bool mbx_library_deployment_target(const mtlbx_library *lib, enum mtlbx_os *os, struct mtlbx_os_version *v)
{
    *os = header_os(lib->header.platform_byte);
    *v = ver(lib->header.os_major, lib->header.os_minor);
    return *os != MTLBX_OS_NONE;
}

/* Every module of a library is built for one target; the first few are
 * asked, so one damaged module does not lose the platform. */
#define TRIPLE_TRIES 4

bool mbx_library_triple(const mtlbx_library *lib, char *buf, size_t size)
{
    for (size_t i = 0; i < lib->n_functions && i < TRIPLE_TRIES; i++) {
        struct mtlbx_bytes m = mbx_function_module_bytes(lib, i);
        if (m.len && bc_module_triple(m.ptr, m.len, buf, size))
            return true;
    }
    return false;
}

enum mtlbx_os mbx_library_os(const mtlbx_library *lib)
{
    mtlbx_library *mut = (mtlbx_library *)lib; /* a cache only: computing it twice is harmless */
    int cached = mut->req_os;
    if (cached)
        return (enum mtlbx_os)(cached - 1);
    enum mtlbx_os os = header_os(lib->header.platform_byte);
    char triple[128];
    if (os == MTLBX_OS_NONE && mbx_library_triple(lib, triple, sizeof triple))
        os = mbx_os_of_triple(triple);
    mut->req_os = (int)os + 1;
    return os;
}
