/* The checks layer (src/lib/checks): PLATFORM:VERSION, the --os spec a
 * release is held to (os_spec.c). */
#ifndef MTLBX_CHECKS_OS_SPEC_H
#define MTLBX_CHECKS_OS_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#include "checks/os.h"

/* --------------------------------------------------------------- OS spec -- */

/* PLATFORM:VERSION as every command and API takes it (os_spec.c):
 * PLATFORM one of mbx_os_parse's names (any case), iOS, tvOS, watchOS
 * and visionOS also with "-simulator"; VERSION MAJOR[.MINOR[.PATCH]],
 * major up to 65535, minor and patch up to 255 (what a header holds). */
struct mtlbx_os_spec {
    enum mtlbx_os os;
    bool simulator;
    struct mtlbx_os_version version;
    uint8_t patch;
};
enum mtlbx_os_spec_error {
    MTLBX_OS_SPEC_OK,
    MTLBX_OS_SPEC_NOT_SPEC,          /* no ':' */
    MTLBX_OS_SPEC_PLATFORM,          /* no platform of that name */
    MTLBX_OS_SPEC_VERSION,           /* the version is not MAJOR[.MINOR[.PATCH]] in range */
};
enum mtlbx_os_spec_error mbx_os_spec_parse(const char *text, struct mtlbx_os_spec *out);
/* The platforms, for a message: */
#define MTLBX_OS_SPEC_PLATFORMS "macOS, iOS, tvOS, watchOS, macCatalyst, visionOS; iOS, tvOS, watchOS and " \
                                "visionOS also as e.g. iOS-simulator"

#endif
