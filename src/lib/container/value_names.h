/* The container layer (src/lib/container): the names of a header's and a
 * function's values as CONTRACT.md spells them (function and file types,
 * target OS, data types, CPU types, tags). */
#ifndef MTLBX_CONTAINER_VALUE_NAMES_H
#define MTLBX_CONTAINER_VALUE_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "container/header.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------- value names -- */

/* Lower-case names as CONTRACT.md spells them; unknown values are written
 * as "unknown-N" / "unknown-0xNN" into buf. Return buf or a static string. */
const char *mbx_function_type_name(uint8_t type, char *buf, size_t n);
const char *mbx_file_type_name(uint8_t file_type, char *buf, size_t n);
const char *mbx_target_os_name(uint8_t platform_byte, char *buf, size_t n);
/* The deployment target as `info` and the explorer show it: "macOS 13.0.0",
 * or "unknown" when the header records none (target byte and version 0). */
const char *mbx_target_text(const struct mtlbx_header *h, char *buf, size_t n);
const char *mbx_data_type_name(uint8_t type, char *buf, size_t n);
const char *mbx_cputype_name(uint32_t cputype);     /* "AIR64", ... or NULL */
const char *mbx_tag_description(const char *fourcc); /* one line, or NULL */
bool mbx_data_type_known(uint8_t type);
bool mbx_function_type_known(uint8_t type);

#ifdef __cplusplus
}
#endif

#endif
