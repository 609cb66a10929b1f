/* The container layer (src/lib/container): the names of the platform a
 * library is built for, as CONTRACT.md spells them: the target OS of the
 * header, its deployment target as text, and the CPU type of a fat slice
 * or a module's wrapper. (Parsing a PLATFORM:VERSION the user typed:
 * checks/os_spec.h.) */
#ifndef MTLBX_CONTAINER_TARGET_NAMES_H
#define MTLBX_CONTAINER_TARGET_NAMES_H

#include <stddef.h>
#include <stdint.h>


#ifdef __cplusplus
extern "C" {
#endif

struct mtlbx_header; /* container/header.h */

/* "macos", ...; an unknown platform as "unknown-N" in buf. */
const char *mbx_target_os_name(uint8_t platform_byte, char *buf, size_t n);
/* The deployment target as `info` and the explorer show it: "macOS 13.0.0",
 * or "unknown" when the header records none (target byte and version 0). */
const char *mbx_target_text(const struct mtlbx_header *h, char *buf, size_t n);
/* "AIR64", ... or NULL */
const char *mbx_cputype_name(uint32_t cputype);

#ifdef __cplusplus
}
#endif

#endif
