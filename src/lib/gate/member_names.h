/* What a member is called and what it is, for every lister of members
 * (archive_members.c, macho_members.c) and the folder walk: the metallib
 * magics, the .metallib name, and OUTER!INNER names. */
#ifndef MTLBX_MEMBER_NAMES_H
#define MTLBX_MEMBER_NAMES_H

#include <stdbool.h>
#include <stdint.h>

/* The metallib magics: MTLB, or the fat CB FE BA BE. */
bool mbx_metallib_magic(const uint8_t magic[4]);
/* A name ending in .metallib (any case): one that is not a metallib is
 * reported, never passed over in silence. */
bool mbx_metallib_name(const char *name);
/* "PREFIX!NAME" (just NAME when prefix is NULL), malloc'd; NULL on no memory. */
char *mbx_archive_join(const char *prefix, const char *name);

#endif
