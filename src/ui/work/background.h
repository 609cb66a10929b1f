/* The explorer's background sweeps (hasher.c, ifacer.c) run below the
 * UI thread: on a 2-CPU machine the two sweeps and the UI thread share
 * two CPUs, and a key (a search over 200,000 functions) waited for a CPU
 * as long as it ran. Linux's nice is per thread. The levels keep the
 * order the sweeps were meant to have: the screen first, then the hash
 * check, then the search texts. */
#ifndef MTLBX_UI_BACKGROUND_H
#define MTLBX_UI_BACKGROUND_H

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BACKGROUND_NICE_HASHER 5
#define BACKGROUND_NICE_IFACER 10

/* Lowers the calling thread's priority to `level` (best effort). */
static inline void background_thread_nice(int level)
{
#ifdef SYS_gettid
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), level);
#else
    (void)level;
#endif
}

#endif
