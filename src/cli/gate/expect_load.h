/* check --expect LIST read from the command line's LIST (the names and
 * their matching: the library's gate/expect.h): a text file, a metallib,
 * or a build (a folder, an archive, a Mach-O host) whose every function
 * name is expected. */
#ifndef MTLBX_EXPECT_LOAD_H
#define MTLBX_EXPECT_LOAD_H

#include "gate/expect.h"

/* Reads LIST; false after a one-line message on stderr. */
bool expect_load(struct expect *e, const char *list);

#endif
