/* Comparing mtlbx dump --json output with a reference document the way
 * CONTRACT.md asks: every key of the reference must be present and equal,
 * except "diagnostics", where only the presence of an error must agree. */
#ifndef MTLBX_TEST_JSONCMP_H
#define MTLBX_TEST_JSONCMP_H

#include <jansson.h>
#include <stddef.h>

/* Logs each difference (prefixed with `file` and the key path) through
 * Criterion's log and returns how many there were. */
size_t json_contract_compare(const char *file, const char *path, const json_t *got, const json_t *want);

#endif
