/* Internal structures of the parser library, shared by the files in src/lib only. */
#ifndef MTLBX_INTERNAL_H
#define MTLBX_INTERNAL_H

#include "mtlbx_private.h"
#include "container/bytes.h"
#include "container/library.h"
#include "bitcode/bitcode.h"
#include "checks/hash.h"
#include "checks/sha256.h"


#endif
