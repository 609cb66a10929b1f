/* Test helpers: where things are, and running the real binary. */
#ifndef MTLBX_TESTENV_H
#define MTLBX_TESTENV_H

#include <stddef.h>

/* $NAME, or NULL when unset or empty. */
const char *testenv(const char *name);
/* Runs argv (no shell) with stdin from /dev/null; captures stdout and
 * stderr. Returns the exit status, or -1 if it did not exit normally. */
int run_capture(char *const argv[], char **out, size_t *out_len, char **err, size_t *err_len);

#endif
