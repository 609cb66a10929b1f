/* The checks layer (src/lib/checks) on operating systems: the platforms
 * (enum mtlbx_os) with their names, Apple's platform numbers and the
 * platform of a target triple, and an OS version with its order. The
 * concepts over them have headers of their own: requirements.h (what a
 * function or a library needs), deployment.h (the modules' deployment
 * target), os_spec.h (PLATFORM:VERSION), os_gate.h (check --os) and
 * load_stamps.h (what Metal decides loading by). Values for the caller;
 * it never prints. */
#ifndef MTLBX_CHECKS_OS_H
#define MTLBX_CHECKS_OS_H

#include <stddef.h>
#include <stdint.h>

enum mtlbx_os {
    MTLBX_OS_NONE = 0,         /* not known: no target OS and no triple */
    MTLBX_OS_MACOS, MTLBX_OS_IOS, MTLBX_OS_TVOS, MTLBX_OS_MACCATALYST, MTLBX_OS_VISIONOS,
    MTLBX_OS_WATCHOS,          /* no MTLLanguageVersion table: only its deployment target counts */
    MTLBX_OS_COUNT,
};
/* "macOS", "iOS", ... as CONTRACT.md spells them; NULL for MTLBX_OS_NONE. */
const char *mbx_os_name(enum mtlbx_os os);
/* A platform name as a user types it ("macos", "iOS", "macCatalyst",
 * "visionos", "xros"; any case), or MTLBX_OS_NONE (os_spec.c). */
enum mtlbx_os mbx_os_parse(const char *name, size_t len);
/* Apple's PLATFORM_* numbers (LC_BUILD_VERSION, and a metallib header's
 * byte 11 below its 0x80 flag): 1 macOS, 2 iOS, 3 tvOS, 4 watchOS, 6 Mac
 * Catalyst, 7-9 the simulators (as their OS), 11 visionOS, 12 its
 * simulator; MTLBX_OS_NONE for bridgeOS, DriverKit and the unknown. */
enum mtlbx_os mbx_platform_os(uint32_t platform);
/* The platform of an LLVM target triple ("air64-apple-macosx14.0.0"). */
enum mtlbx_os mbx_os_of_triple(const char *triple);

struct mtlbx_os_version {
    uint16_t major, minor;
};
/* <0, 0, >0 as a is lower than, equal to or higher than b. */
int mbx_os_version_cmp(struct mtlbx_os_version a, struct mtlbx_os_version b);

#endif
