/* An app's Info.plist (XML or binary), read with libplist for the
 * minimum OS the app declares: LSMinimumSystemVersion (macOS) and
 * MinimumOSVersion (iOS, tvOS, watchOS, visionOS, the platform named by
 * CFBundleSupportedPlatforms or DTPlatformName). What release gates
 * compare a metallib's needs against (declared_os.h). No printing. */
#ifndef MTLBX_INFO_PLIST_H
#define MTLBX_INFO_PLIST_H

#include "checks/os.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A plist larger than this is refused: real ones are a few KiB. */
#define INFO_PLIST_MAX_BYTES ((size_t)1 << 20)

struct info_plist_min {
    bool has_macos;                      /* LSMinimumSystemVersion */
    struct mtlbx_os_version macos;
    char macos_text[32];                 /* as written, valid UTF-8 */
    bool has_other;                      /* MinimumOSVersion */
    struct mtlbx_os_version other;
    char other_text[32];
    enum mtlbx_os other_os;              /* its platform; MTLBX_OS_NONE when the plist names none */
    /* A key present whose value is no version: its text stays in *_text */
    bool bad_macos, bad_other;
};

/* Reads data (len bytes). False with a one-line reason in err when it is
 * not a plist libplist reads, is over the bounds (size, nesting, shared
 * references: see info_plist.c), or its root is not a dictionary; true
 * otherwise, even when it declares no minimum. */
bool mbx_info_plist_read(const uint8_t *data, size_t len, struct info_plist_min *out, char *err, size_t err_size);

#endif
