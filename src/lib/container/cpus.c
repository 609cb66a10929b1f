/* How many CPUs the process may run on (container/functions.h): the affinity mask's
 * count, not the machine's, so that `taskset -c 0 mtlbx check` runs one
 * thread instead of several taking turns on one core (each switch, and
 * each page-table change seen by more than one thread, costs CPU). */
#include "config.h"

#include "container/functions.h"

#include <sched.h>
#include <unistd.h>

unsigned mbx_cpus(void)
{
#if HAVE_SCHED_GETAFFINITY
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
#endif
    /* Elsewhere (macOS has no affinity masks) every online CPU. */
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}
