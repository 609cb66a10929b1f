/* Requirements in words (requires_text.c), shared by the commands (info,
 * sig, find, diff) and the explorer's compare view. The values come from
 * the parser library (mbx_function_requires, mbx_library_requires);
 * this is only their wording. */
#ifndef MTLBX_REQUIRES_TEXT_H
#define MTLBX_REQUIRES_TEXT_H

#include "checks/requirements.h"

#include <stddef.h>
#include <stdbool.h>

/* "macOS 26.0", "macOS (version not known)" or "unknown". Returns buf. */
const char *req_target_text(const struct mtlbx_requires *r, char *buf, size_t size);
/* What gives the version, short: "MSL 4.0, AIR 2.8" (the MSL and AIR
 * reasons), else "deployment target"; "" when nothing does. */
void req_cause_text(const struct mtlbx_requires *r, char *buf, size_t size);
/* info's line after "Loads on  ": "macOS 26.0 or later (MSL 4.0, AIR 2.8:
 * 619 functions)", with the unknown versions named. */
void req_loads_on_text(const struct mtlbx_requires *r, char *buf, size_t size);
/* Every reason, then the unknown versions: "deployment target macOS 14.0,
 * MSL 3.1 needs macOS 14.0; unknown: MSL 4.2". */
void req_reasons_text(const struct mtlbx_requires *r, char *buf, size_t size);
/* Appends the versions newer than the tables: "MSL 4.2, AIR 2.9 and 2 more". */
void req_unknown_text(const struct mtlbx_requires *r, char *buf, size_t size);

/* An OS version as people and files write it (--os, Info.plist, wheel
 * tags): "14", "14.2", "10.13.6" (a patch level adds nothing: requirements
 * are major.minor). False for anything else, trailing text included. */
bool os_version_parse(const char *s, struct mtlbx_os_version *out);

#endif
