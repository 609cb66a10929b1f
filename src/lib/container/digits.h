/* The container layer (src/lib/container) on numbers shown to a person:
 * digits grouped by three (nouns.c, where mbx_count_noun groups them
 * too). */
#ifndef MTLBX_CONTAINER_DIGITS_H
#define MTLBX_CONTAINER_DIGITS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1234567 as "1,234,567" in out (n bytes; 27 are enough); returns out. */
const char *mbx_format_count(char *out, size_t n, uint64_t v);

#ifdef __cplusplus
}
#endif

#endif
