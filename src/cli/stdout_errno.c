/* Standard output that remembers why it failed (commands.h).
 *
 * stdio keeps only an error flag: by the time a command looks at it (a
 * final fflush, ferror, the close at exit) errno holds whatever came last,
 * such as the ENOTTY of an isatty(), and `find --json F > /dev/full` said
 * "Inappropriate ioctl for device". Nothing can ask the kernel afterwards
 * why a write failed, and the writes are everywhere (printf, fputs,
 * jansson's json_dumpf), so the one place that sees each failing write(2)
 * with its errno is the stream itself: a stdio stream over descriptor 1
 * (fopencookie) that does the writes and keeps the first errno.
 *
 * It replaces stdout only when standard output is not a terminal: the
 * explorer, which needs the real one, starts only on a terminal, and a
 * terminal does not fill up. */
#include "config.h"

#include "commands.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static _Atomic int first_errno;

static void keep(int e)
{
    int none = 0;
    atomic_compare_exchange_strong(&first_errno, &none, e);
}

/* fopencookie's contract: the bytes written, short (0 included) on an
 * error, which sets the stream's error flag. Runs under the stream's
 * lock, so find's workers never interleave inside one buffer. */
static ssize_t write_out(void *cookie, const char *buf, size_t n)
{
    (void)cookie;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(STDOUT_FILENO, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w < 0)
                keep(errno);
            break;
        }
        done += (size_t)w;
    }
    return (ssize_t)done;
}

static int close_out(void *cookie)
{
    (void)cookie;
    if (close(STDOUT_FILENO) == 0)
        return 0;
    keep(errno);
    return -1;
}

void cli_stdout_keep_errno(void)
{
    if (isatty(STDOUT_FILENO))
        return;
    /* A file-size limit (ulimit -f) on a redirected output raises SIGXFSZ,
     * which ends the process without a word: blocked (here, before any
     * thread starts, so every thread inherits it; children get an empty
     * mask from run_tool's posix_spawn), the write fails with EFBIG
     * instead and is reported like a full disk. */
    sigset_t xfsz;
    sigemptyset(&xfsz);
    sigaddset(&xfsz, SIGXFSZ);
    pthread_sigmask(SIG_BLOCK, &xfsz, NULL);
    cookie_io_functions_t io = { .write = write_out, .close = close_out };
    FILE *f = fopencookie(NULL, "w", io);
    if (f)
        stdout = f;
}

int cli_stdout_errno(void) { return atomic_load(&first_errno); }
