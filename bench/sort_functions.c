/* The function table's model alone (issue 20): builds the rows of a
 * library, then sorts them by every column in turn and applies a filter,
 * printing each step's CPU and wall milliseconds, for bench/run's "sort
 * of 200,000 rows" row (the slowest column's CPU time is what the goal
 * bounds: wall time on a busy machine measures the machine). */
#include "config.h"

#include "ui/model/ftable.h"
#include "container/file.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static double ms(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: sort_functions FILE FILTER\n");
        return 2;
    }
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    if (mbx_open_path(argv[1], &f, &err) != MTLBX_E_NONE) {
        fprintf(stderr, "sort_functions: %s: %s\n", argv[1], err.message);
        return 2;
    }
    struct ft_lib lib = { mbx_library_at(f, 0), 0, NULL, 0, 0 };
    struct ftable t;
    if (!lib.lib || !ftable_init(&t, &lib, 1)) {
        fprintf(stderr, "sort_functions: %s: no library, or out of memory\n", argv[1]);
        return 2;
    }
    double worst = 0;
    size_t sel = 0;
    /* Twice round: the first pass also faults the names' pages in. */
    for (int round = 0; round < 2; round++)
        for (int c = 1; c <= FT_COL_COUNT; c++) {
            t.sort = (enum ft_col)(c % FT_COL_COUNT);
            double c0 = ms(CLOCK_PROCESS_CPUTIME_ID), w0 = ms(CLOCK_MONOTONIC);
            if (!ftable_apply(&t, &sel))
                return 2;
            double cpu = ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
            if (round == 1 && cpu > worst)
                worst = cpu;
            fprintf(stderr, "sort by %-10s %8.1f ms CPU %8.1f ms wall\n", ftable_col_title(t.sort), cpu,
                    ms(CLOCK_MONOTONIC) - w0);
        }
    snprintf(t.filter, sizeof t.filter, "%s", argv[2]);
    double c0 = ms(CLOCK_PROCESS_CPUTIME_ID);
    ftable_apply(&t, &sel);
    double filter = ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    fprintf(stderr, "filter %s: %zu of %zu rows, %.1f ms CPU\n", argv[2], t.n_shown, t.n_all, filter);
    printf("%zu %.1f %.1f\n", t.n_all, worst, filter);
    ftable_free(&t);
    mbx_close(f);
    return 0;
}
