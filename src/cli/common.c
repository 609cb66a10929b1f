/* What every command shares: opening a file with a one-line error naming
 * it, error messages, escaped output of file bytes, and the SIGBUS guard
 * for a file that shrinks while it is mapped. */
#include "config.h"

#include "commands.h"
#include "program/fatal_cleanup.h"
#include "gate/archive_members.h"
#include "container/dup_printf.h"
#include "container/diagnostics.h"
#include "container/escape.h"
#include "container/file.h"
#include "container/nouns.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
#include <stdbool.h>

/* Set while a file is mapped, for the SIGBUS message. */
static const char *volatile current_path;

static void on_sigbus(int sig)
{
    (void)sig;
    fatal_cleanup_claim(); /* workers that fault together: one line */
    fatal_cleanup_run(); /* a temporary file being filled from the mapping */
    static const char a[] = "mtlbx: ";
    static const char b[] = ": the file changed or shrank while it was being read\n";
    const char *p = current_path ? current_path : "(file)";
    /* Only async-signal-safe calls here. */
    if (write(STDERR_FILENO, a, sizeof a - 1) < 0 || write(STDERR_FILENO, p, strlen(p)) < 0 ||
        write(STDERR_FILENO, b, sizeof b - 1) < 0)
        _exit(2);
    _exit(2);
}

const char *cli_program_name(void) { return "mtlbx"; }

/* The last guard of stderr: a message quotes values escaped where it is
 * made (manifest values, targets, section names...), and whatever a
 * message still holds that could act on a terminal or a log reader (a
 * control byte, a newline that would start a line of its own, such as a
 * GitHub `::error::` command, a bidi or invisible character, invalid
 * UTF-8) is written as \xNN here. Backslashes pass: the text already
 * escaped keeps its one level of escaping. */
static void put_defanged(FILE *out, const char *msg)
{
    const uint8_t *p = (const uint8_t *)msg;
    for (size_t i = 0, n = strlen(msg); i < n;) {
        uint32_t cp;
        size_t l = mbx_utf8_next(p + i, n - i, &cp);
        if (l && !mbx_codepoint_unsafe(cp)) {
            fwrite(p + i, 1, l, out);
            i += l;
            continue;
        }
        for (size_t k = 0; k < (l ? l : 1); k++)
            fprintf(out, "\\x%02x", p[i + k]);
        i += l ? l : 1;
    }
}

void cli_error(const char *path, const uint64_t *offset, const char *fmt, ...)
{
    /* Not a fixed buffer: a message naming a long function must keep the
     * reason that follows the name. */
    va_list ap;
    va_start(ap, fmt);
    char *msg = mbx_dup_vprintf(fmt, ap);
    va_end(ap);
    /* The path is the user's own argument, but it may still hold bytes that
     * act on a terminal; escape it like anything else. */
    char *safe = cli_escape_str_dup(path);
    flockfile(stderr);
    if (offset)
        fprintf(stderr, "mtlbx: %s:%llu: ", safe ? safe : "?", (unsigned long long)*offset);
    else
        fprintf(stderr, "mtlbx: %s: ", safe ? safe : "?");
    put_defanged(stderr, msg ? msg : fmt);
    fputc('\n', stderr);
    funlockfile(stderr);
    free(safe);
    free(msg);
}

int cli_open_quiet(const char *path, mtlbx_file **out, struct mtlbx_error *err)
{
    static bool guard_installed;
    fatal_cleanup_install_handlers();
    if (!guard_installed) {
        struct sigaction sa = { .sa_handler = on_sigbus };
        sigemptyset(&sa.sa_mask);
        sigaction(SIGBUS, &sa, NULL);
        guard_installed = true;
    }
    /* Named by the guard from here on, also for whatever the caller maps
     * of this path itself (textconv's "not a metallib" digest). */
    current_path = path;
    return mbx_open_any(path, out, err);
}

mtlbx_file *cli_open(const char *path)
{
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    if (cli_open_quiet(path, &f, &err) != MTLBX_E_NONE) {
        cli_error(path, err.has_offset ? &err.offset : NULL, "%s", err.message);
        return NULL;
    }
    return f;
}

int cli_unchanged(const char *path, const mtlbx_file *f)
{
    if (!mbx_file_changed(f))
        return 0;
    cli_error(path, NULL, "the file changed or shrank while it was being read");
    return 2;
}

int cli_complete(const char *path, const mtlbx_file *f)
{
    /* Asked again for the same file (a name lookup that missed, then the
     * command's end), the error is said once. Per thread: find's workers
     * write documents side by side. */
    static _Thread_local const mtlbx_file *reported;
    static _Thread_local const char *reported_path;
    uint64_t at;
    if (mbx_file_out_of_memory(f, &at)) {
        if (reported != f || reported_path != path)
            cli_error(path, &at, "out of memory while reading the file: the result is incomplete");
        reported = f;
        reported_path = path;
        return 2;
    }
    return cli_unchanged(path, f);
}

int cli_damaged(const char *path, const mtlbx_file *f)
{
    uint64_t at;
    const char *why;
    if (!mbx_file_damaged(f, &at, &why))
        return 0;
    cli_error(path, &at, "damaged library: %s", why);
    return 1;
}

void cli_close_stdout(void)
{
    /* fclose reports what fflush does, plus a failing close (NFS); a
     * stream that already failed keeps its error flag, and its errno was
     * kept by the stream (cli_stdout_keep_errno). EPIPE never gets here:
     * SIGPIPE ends the process first, as for any filter. This is the one
     * line said about lost output: commands only return 2. */
    int failed = ferror(stdout);
    errno = 0;
    if (fclose(stdout) != 0 || failed) {
        int e = cli_stdout_errno() ? cli_stdout_errno() : errno;
        if (e)
            fprintf(stderr, "mtlbx: write error on standard output: %s\n", strerror(e));
        else
            fprintf(stderr, "mtlbx: write error on standard output\n");
        _exit(2);
    }
}

void cli_put_escaped(FILE *out, struct mtlbx_bytes b)
{
    /* Most names are plain printable ASCII with no backslash: those need no
     * escaping, and `ls` prints tens of thousands of them. */
    if (b.len == 0)
        return; /* a function without NAME has no bytes (and a NULL ptr) */
    size_t i = 0;
    while (i < b.len && b.ptr[i] >= 0x20 && b.ptr[i] < 0x7F && b.ptr[i] != '\\')
        i++;
    if (i == b.len) {
        fwrite(b.ptr, 1, b.len, out);
        return;
    }
    char buf[512];
    if (cli_escape(b.ptr, b.len, buf, sizeof buf) < sizeof buf) {
        fputs(buf, out);
        return;
    }
    char *s = cli_escape_dup(b.ptr, b.len);
    if (s)
        fputs(s, out);
    free(s);
}

char *cli_escape_dup(const void *bytes, size_t len)
{
    return mbx_escape_dup(bytes, len, MTLBX_ESC_TERMINAL);
}

char *cli_escape_str_dup(const char *s) { return cli_escape_dup(s, strlen(s)); }

size_t cli_escape(const void *bytes, size_t len, char *out, size_t out_size)
{
    return mbx_escape(bytes, len, MTLBX_ESC_TERMINAL, out, out_size);
}

bool cli_slice(const struct cli_args *a, const char *path, const mtlbx_file *f, long *slice)
{
    *slice = -1;
    const char *v = cli_value(a, OPT_SLICE);
    if (!v)
        return true;
    char *end;
    errno = 0;
    unsigned long n = strtoul(v, &end, 10);
    size_t count = mbx_file_library_count(f);
    if (!*v || *end || errno || v[0] == '-' || n >= count) {
        char *safe = cli_escape_str_dup(v);
        cli_error(path, NULL, "--slice %s: the file has %zu %s (0 to %zu)", safe ? safe : "?", count,
                  mbx_noun(count, "library", "libraries"), count ? count - 1 : 0);
        free(safe);
        return false;
    }
    *slice = (long)n;
    return true;
}

bool cli_modified_since(const char *path, const struct stat *at_open)
{
    struct stat now;
    if (!at_open || stat(path, &now) != 0)
        return true;
    return now.st_mtim.tv_sec != at_open->st_mtim.tv_sec || now.st_mtim.tv_nsec != at_open->st_mtim.tv_nsec ||
           now.st_ctim.tv_sec != at_open->st_ctim.tv_sec || now.st_ctim.tv_nsec != at_open->st_ctim.tv_nsec ||
           now.st_size != at_open->st_size;
}
