/* Key latency, measured by the explorer itself for bench/run: with
 * MTLBX_KEYLOG=FILE set, each key appends one line to FILE, the key's
 * name and the microseconds from reading it to the refresh that shows
 * its effect, less any time a prompt spent waiting for typing. A
 * background job's end is logged too ("job-done"), with the time its
 * finish and redraw took, and its whole duration ("job NAME"). */
#ifndef MTLBX_UI_KEYLOG_H
#define MTLBX_UI_KEYLOG_H

#include <stdint.h>

void keylog_open(void);          /* reads MTLBX_KEYLOG; silent if unset */
void keylog_close(void);
uint64_t keylog_now_us(void);
/* Logs `what` with the time since start_us, less `waited_us` (time spent
 * waiting for more keys meanwhile, in a prompt). */
void keylog_record(const char *what, uint64_t start_us, uint64_t waited_us);
/* An informational line ("job searching 1234567": how long a job took);
 * bench/run reads key lines and job lines apart. */
void keylog_note(const char *what, uint64_t us);

#endif
