/* See keylog.h. A plain stdio stream: one short line a key, flushed at
 * once so a killed explorer still leaves a complete log. */
#include "config.h"

#include "ui/text/keylog.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static FILE *log_file;

void keylog_open(void)
{
    const char *path = getenv("MTLBX_KEYLOG");
    if (path && *path && !log_file)
        log_file = fopen(path, "a");
}

void keylog_close(void)
{
    if (log_file)
        fclose(log_file);
    log_file = NULL;
}

uint64_t keylog_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

void keylog_record(const char *what, uint64_t start_us, uint64_t waited_us)
{
    if (!log_file)
        return;
    uint64_t spent = keylog_now_us() - start_us;
    fprintf(log_file, "%s %llu\n", what, (unsigned long long)(spent > waited_us ? spent - waited_us : 0));
    fflush(log_file);
}

void keylog_note(const char *what, uint64_t us)
{
    if (!log_file)
        return;
    fprintf(log_file, "%s %llu\n", what, (unsigned long long)us);
    fflush(log_file);
}
