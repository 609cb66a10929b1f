/* Key latency, measured by the explorer itself for bench/run: with
 * MTLBX_KEYLOG=FILE set, each key appends one line to FILE, the key's
 * name and the microseconds from reading it to the refresh that shows
 * its effect. A background job's end is logged too ("job-done"), with
 * the time its finish and redraw took. */
#ifndef MTLBX_UI_KEYLOG_H
#define MTLBX_UI_KEYLOG_H

#include <stdint.h>

void keylog_open(void);          /* reads MTLBX_KEYLOG; silent if unset */
void keylog_close(void);
uint64_t keylog_now_us(void);
void keylog_record(const char *what, uint64_t start_us);

#endif
