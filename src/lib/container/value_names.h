/* The container layer (src/lib/container): the names of a header's and a
 * function's values as CONTRACT.md spells them (function and file types,
 * data types, tags). The platform a library targets:
 * container/target_names.h. */
#ifndef MTLBX_CONTAINER_VALUE_NAMES_H
#define MTLBX_CONTAINER_VALUE_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------- value names -- */

/* Lower-case names as CONTRACT.md spells them; unknown values are written
 * as "unknown-N" / "unknown-0xNN" into buf. Return buf or a static string. */
const char *mbx_function_type_name(uint8_t type, char *buf, size_t n);
const char *mbx_file_type_name(uint8_t file_type, char *buf, size_t n);
const char *mbx_data_type_name(uint8_t type, char *buf, size_t n);
const char *mbx_tag_description(const char *fourcc); /* one line, or NULL */
bool mbx_data_type_known(uint8_t type);
bool mbx_function_type_known(uint8_t type);

#ifdef __cplusplus
}
#endif

#endif
