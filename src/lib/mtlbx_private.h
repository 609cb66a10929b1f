/* mtlbx — parser library for Apple .metallib containers: the internal API.
 *
 * Not installed. Outside programs use the installed <mtlbx.h> (the small,
 * stable face of ../shared/LIBRARY.md); this header is what the explorer,
 * the command line and the tests include, free to change with them: the
 * umbrella over the layers' faces (container/container.h,
 * then the bitcode modules and MSL text declared below, checks/checks.h,
 * model/model.h, compare/compare.h, writer/writer.h). The library never prints, never exits and never touches a
 * terminal. It maps the file read-only and never copies it: every byte
 * span it hands out points into the mapping (or into the caller's buffer
 * for mbx_open_buffer) and stays valid until mbx_close().
 *
 * Offsets in this API are absolute file offsets unless a field's name says
 * otherwise (fat slices are resolved for you). Problems found while parsing
 * become diagnostics; only a file that is not a metallib at all (or cannot
 * be read) fails to open.
 */
#ifndef MTLBX_PRIVATE_H
#define MTLBX_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The container: opening, the parsed structures, diagnostics, escaping. */
#include "container/container.h"

#include "bitcode/demangle.h"
#include "bitcode/interface.h"

#include "model/msl.h"
#include "model/names.h"
#include "model/source_locate.h"

/* The faces of the upper layers: the checks over the parsed container
 * (checks/checks.h), the node model the views share (model/model.h), the
 * comparison of two libraries (compare/compare.h) and the writer
 * (writer/writer.h). */
#include "checks/checks.h"
#include "checks/hash.h"
#include "checks/sha256.h"
#include "model/model.h"
#include "compare/compare.h"
#include "writer/writer.h"

#ifdef __cplusplus
}
#endif
#endif
