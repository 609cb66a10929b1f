/* mtlbx — what is left of the internal API's umbrella header. Not
 * installed; outside programs use <mtlbx.h>.
 *
 * Every file includes the header of each layer it uses instead
 * (container/container.h, bitcode/interface.h, checks/requirements.h,
 * model/model.h, compare/compare.h, json/..., writer/writer.h,
 * gate/gate.h), so that changing one layer's header rebuilds only the
 * files that use that layer. This file is kept for the five headers that
 * the move of the release gate's program files into src/lib/gate (issue
 * 42) carries (src/program/{archive_members,member_plan,declared_os,
 * info_plist}.h, src/cli/gate/expect.h): it gives them the two layers
 * they use, the container and the checks. When they include those
 * themselves, delete it. */
#ifndef MTLBX_PRIVATE_H
#define MTLBX_PRIVATE_H

#include "container/container.h"
#include "checks/requirements.h"

#endif
