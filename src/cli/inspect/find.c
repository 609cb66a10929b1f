/* `mtlbx find PATH... [--json]`: a survey of every metallib under some
 * folders and inside the archives found there (by content: zip, tar,
 * compressed tar, ..., nested; see archive_members.h).
 *
 * The walk (src/lib/gate/tree_walk.c) runs on the main thread and only reads
 * each file's magic; what it finds goes through a bounded queue to one
 * worker per core, which parses the library (or lists the archive) and
 * formats its line. Lines are printed in the order the walk found them,
 * so the output does not depend on the number of cores; a result waits
 * only for the ones before it. Unreadable entries are reported on stderr
 * and make the exit status 1; the rest of the survey goes on. An entry
 * that memory ran out for is reported the same way but makes it 2: the
 * environment failed, and the survey is short of that entry. */
#include "config.h"

#include "cli/commands.h"
#include "gate/declared_gate.h"
#include "cli/inspect/gpu_text.h"
#include "cli/gate/os_option.h"
#include "gate/archive_members.h"
#include "gate/macho_members.h"
#include "program/fatal_cleanup.h"
#include "program/text_buf.h"
#include "gate/tree_walk.h"
#include "checks/requirements.h"
#include "checks/requires_text.h"
#include "gate/gate.h"
#include "container/header.h"
#include "container/nouns.h"
#include "container/digits.h"
#include "container/target_names.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <stdbool.h>

#define QUEUE_CAP 256
#define MAX_WORKERS 64
#define PROGRESS_MS 100
/* Files up to this size are read into a worker's buffer rather than
 * mapped: unmapping in a process with several threads interrupts every
 * other core to flush its TLB, and with thousands of small libraries that
 * cost more than the parsing. Bigger files are mapped as usual. */
#define READ_INSTEAD_OF_MAP ((uint64_t)64 << 20)
/* With --json, a library file at least this big has its document written
 * straight to the output when its turn comes, not gathered in memory
 * first: S200k's (534 MB, 200,000 functions) is 176 MB on one line, and
 * gathering it (twice: the stream, then the job's text) took find --json
 * to 365 MB where dump --json streams it in 20. Smaller documents (a few
 * MB at most) are gathered, so that workers need not wait for their turn. */
#define STREAM_DOCUMENT_FROM ((uint64_t)16 << 20)

struct job {
    enum walk_kind kind;
    char *path;
    size_t seq;
    bool named;                /* the user named it: a non-archive is said */
};

struct finder {
    bool json;
    struct mbx_os_gate gate;       /* --os: the deployment gate's verdict per library */
    pthread_mutex_t lock;
    pthread_cond_t can_take, can_put, progress_wake;
    pthread_cond_t turn;       /* next_print moved: a job waiting to stream may go */
    bool streaming;            /* the job next in line writes to stdout itself */
    /* STREAM_DOCUMENT_FROM, or MTLBX_FIND_STREAM_FROM (bytes) for the
     * tests: 0 streams every document, to check that turns keep order. */
    uint64_t stream_from;
    struct job queue[QUEUE_CAP];
    size_t q_head, q_count;
    bool no_more_jobs;
    /* Results by sequence number; printed[0..next_print) are gone. */
    char **results;
    size_t n_results, cap_results, next_print;
    size_t parsed;
    bool failed;               /* an unreadable entry: exit 1 */
    /* Memory ran out for an entry: the environment failed, not the file,
     * and the survey is short of it (exit 2, as every command). */
    bool short_of_memory;
    bool output_error;
    bool progress_shown;       /* a progress line is on stderr: clear it first */
    bool progress_on;
    bool stdout_tty;           /* results share the terminal with the progress line */
    struct walk_progress walk;
};

/* The marker of a job that printed nothing (an archive without metallibs). */
static char nothing[] = "";

/* ------------------------------------------------------------ output -- */

static void clear_progress_locked(struct finder *fd)
{
    if (fd->progress_shown) {
        fputs("\r\033[K", stderr);
        fd->progress_shown = false;
    }
}

/* Marks the run failed (exit 1), or short of memory (exit 2), for a
 * problem already said on stderr. */
static void mark_failed(struct finder *fd, bool out_of_memory)
{
    pthread_mutex_lock(&fd->lock);
    fd->failed = true;
    fd->short_of_memory |= out_of_memory;
    pthread_mutex_unlock(&fd->lock);
}

/* "mtlbx: PATH: message" on stderr, one line, marks the run failed. */
static void report_at(struct finder *fd, const char *path, const uint64_t *offset, const char *message,
                      bool out_of_memory)
{
    pthread_mutex_lock(&fd->lock);
    clear_progress_locked(fd);
    cli_error(path, offset, "%s", message);
    pthread_mutex_unlock(&fd->lock);
    mark_failed(fd, out_of_memory);
}

static void report(struct finder *fd, const char *path, const char *message)
{
    report_at(fd, path, NULL, message, false);
}

static void report_out_of_memory(struct finder *fd, const char *path, const char *message)
{
    report_at(fd, path, NULL, message, true);
}

/* An open that failed: out of memory (mapping the file included) is the
 * environment's failure. */
static void report_open(struct finder *fd, const char *path, const struct mtlbx_error *err)
{
    report_at(fd, path, NULL, err->message, err->status == MTLBX_E_NOMEM);
}

/* Stores a job's text and prints every result that is now next in line.
 * write_failed: the job wrote to stdout itself (take_stdout), and that
 * failed. */
static void deliver(struct finder *fd, size_t seq, char *text, bool write_failed)
{
    pthread_mutex_lock(&fd->lock);
    fd->results[seq] = text ? text : nothing;
    fd->parsed++;
    fd->output_error |= write_failed;
    if (seq == fd->next_print)
        fd->streaming = false;
    while (fd->next_print < fd->n_results && fd->results[fd->next_print]) {
        char *t = fd->results[fd->next_print];
        if (t != nothing) {
            /* On the same terminal, a result would land after the progress
             * text: clear that first, and put the result out before the
             * progress line comes back. */
            if (fd->stdout_tty)
                clear_progress_locked(fd);
            if (fputs(t, stdout) == EOF || (fd->stdout_tty && fflush(stdout) == EOF))
                fd->output_error = true;
            free(t);
        }
        fd->results[fd->next_print++] = NULL;
    }
    pthread_cond_broadcast(&fd->turn);
    pthread_mutex_unlock(&fd->lock);
}

/* ------------------------------------------------------ one metallib -- */

/* A job's output: gathered until its turn, or written straight to stdout
 * once the job has taken it (direct). */
struct text {
    struct text_buf buf;         /* failed: out of memory */
    size_t seq;
    bool direct;
    bool write_failed;
};

static void text_add(struct text *t, const char *s)
{
    size_t n = strlen(s);
    if (t->direct) {
        if (fputs(s, stdout) == EOF)
            t->write_failed = true;
        return;
    }
    text_buf_add(&t->buf, s, n);
}

/* The columns of describe_line, printed first when the output is a
 * terminal (a pipe gets the bare rows, for cut and awk). */
static const char header_row[] = "PATH\tVERSION\tTARGET\tFUNCTIONS\tPROBLEMS\tREQUIRES\n";

/* TARGET of one library: the header's target OS and version; where an
 * older container has none (byte 11 and the version all zero), the
 * platform its modules' target triple names, "macOS (triple)", as the
 * requirements take it (mbx_library_os); "unknown" when neither says. */
static void target_text(const mtlbx_library *lib, const struct mtlbx_header *h, char *buf, size_t size)
{
    char os[32];
    const char *from_triple = NULL;
    if (!h->platform_byte && !h->os_major && !h->os_minor && !h->os_patch)
        from_triple = mbx_os_name(mbx_library_os(lib));
    if (from_triple)
        snprintf(buf, size, "%s (triple)", from_triple);
    else
        snprintf(buf, size, "%s %u.%u.%u", mbx_target_os_name(h->platform_byte, os, sizeof os), h->os_major,
                 h->os_minor, h->os_patch);
}

/* PATH \t VERSION \t TARGET \t FUNCTIONS \t PROBLEMS \t REQUIRES; a fat
 * file lists each slice's version, target and requirement, separated by
 * commas. */
static void describe_line(struct text *t, const char *name, const mtlbx_file *f)
{
    char *safe = cli_escape_str_dup(name);
    text_add(t, safe ? safe : "?");
    free(safe);
    char versions[256] = "", targets[512] = "", requires[512] = "", buf[96];
    size_t functions = 0, problems = mbx_file_diag_count(f);
    for (size_t l = 0; l < mbx_file_library_count(f); l++) {
        mtlbx_library *lib = mbx_library_at(f, l);
        const struct mtlbx_header *h = mbx_library_header(lib);
        size_t vl = strlen(versions), tl = strlen(targets);
        snprintf(versions + vl, sizeof versions - vl, "%s%u.%u.%u", l ? "," : "", h->major, h->minor, h->patch);
        target_text(lib, h, buf, sizeof buf);
        snprintf(targets + tl, sizeof targets - tl, "%s%s", l ? "," : "", buf);
        functions += mbx_library_function_count(lib);
        problems += mbx_library_diag_count(lib);
        struct mtlbx_requires req;
        mbx_library_requires(lib, &req);
        size_t rl = strlen(requires);
        snprintf(requires + rl, sizeof requires - rl, "%s%s", l ? "," : "", req_target_text(&req, buf, sizeof buf));
    }
    char tail[2000], gpus[512];
    gpu_find_column(f, gpus, sizeof gpus); /* a binary archive: a seventh column */
    snprintf(tail, sizeof tail, "\t%s\t%s\t%zu\t%zu\t%s%s\n", versions[0] ? versions : "-",
             targets[0] ? targets : "-", functions, problems, requires[0] ? requires : "-", gpus);
    text_add(t, tail);
}

/* Waits until every job before t's has been printed, then prints what t
 * gathered so far: from then on t writes to stdout itself. Jobs are taken
 * in order, so each one before it is in a worker's hands and ends. */
static void take_stdout(struct finder *fd, struct text *t)
{
    if (t->direct)
        return;
    pthread_mutex_lock(&fd->lock);
    while (fd->next_print != t->seq)
        pthread_cond_wait(&fd->turn, &fd->lock);
    fd->streaming = true;
    clear_progress_locked(fd);
    pthread_mutex_unlock(&fd->lock);
    t->direct = true;
    if (t->buf.len && fputs(t->buf.s, stdout) == EOF)
        t->write_failed = true;
    /* Printed: nothing of it is left to deliver again. */
    text_buf_free(&t->buf);
}

/* The same streamed document as `dump --json`, on one line. A document
 * that could not be written whole (its error is already on stderr) is
 * left out and fails the run; one written straight to stdout (a big
 * library, see STREAM_DOCUMENT_FROM) is cut short there, as dump's is. */
static void describe_json(struct finder *fd, struct text *t, const char *name, mtlbx_file *f)
{
    /* A worker that holds the turn for nested archives gathers even a big
     * document: waiting for the jobs before it to print, it could wait on
     * one that waits for that turn. */
    if (mbx_file_size(f) >= fd->stream_from && !mbx_archive_nest_turn_held())
        take_stdout(fd, t);
    if (t->direct) {
        if (dump_write_document(stdout, name, f, true) != 0)
            mark_failed(fd, false);
        if (ferror(stdout))
            t->write_failed = true;
        return;
    }
    char *s = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&s, &len);
    if (!mem) {
        t->buf.failed = true;
        return;
    }
    int rc = dump_write_document(mem, name, f, true);
    if (fclose(mem) != 0 || !s) {
        free(s);
        t->buf.failed = true;
        return;
    }
    if (rc == 0)
        text_add(t, s);
    else
        mark_failed(fd, false);
    free(s);
}

/* One finding of a gate, as `check` words it: after the file's line, or
 * on stderr with --json, to keep JSON Lines whole. Fails the run. */
static void gate_line(struct finder *fd, struct text *t, const char *name, const struct gate_finding *g)
{
    char *safe = cli_escape_str_dup(name);
    char *msg = cli_escape_str_dup(g->message);
    char *line = NULL;
    if (!safe || !msg || asprintf(&line, "%s:%llu: %s: %s\n", safe, (unsigned long long)g->offset,
                                  g->severity == MTLBX_ERROR ? "error" : "warning", msg) < 0)
        line = NULL;
    if (!line) {
        t->buf.failed = true;
    } else if (fd->json) {
        pthread_mutex_lock(&fd->lock);
        clear_progress_locked(fd);
        fputs(line, stderr);
        pthread_mutex_unlock(&fd->lock);
    } else {
        text_add(t, line);
    }
    free(line);
    free(msg);
    free(safe);
    mark_failed(fd, false);
}

/* --os PLATFORM:VERSION: each library's verdict as `check --os` words it
 * (library level). */
static void describe_gate(struct finder *fd, struct text *t, const char *name, mtlbx_file *f)
{
    struct gate_finding *g = NULL;
    size_t n = 0;
    bool ok = true;
    for (size_t l = 0; ok && l < mbx_file_library_count(f); l++)
        ok = os_gate_library(&fd->gate, mbx_library_at(f, l), false, &g, &n);
    for (size_t i = 0; i < n; i++) {
        gate_line(fd, t, name, &g[i]);
        free(g[i].message);
    }
    free(g);
    if (!ok)
        t->buf.failed = true;
}

/* --os declared: a job's libraries wait for its declarations (declared_gate.h). */
struct emit_ctx {
    struct finder *fd;
    struct text *t;
};

static void emit_declared(void *ctx, size_t tag, const char *name, const struct gate_finding *g)
{
    (void)tag;
    struct emit_ctx *e = ctx;
    gate_line(e->fd, e->t, name, g);
}

/* Describes one file; with --os declared its libraries join `wait`
 * (`member`: its name inside the job, `slice`: its Mach-O slice). */
static void describe(struct finder *fd, struct text *t, const char *name, mtlbx_file *f, struct gate_wait *wait,
                     const char *member, const struct mtlbx_macho_slice *slice)
{
    size_t start = t->buf.len;
    if (fd->json)
        describe_json(fd, t, name, f);
    else
        describe_line(t, name, f);
    if (fd->gate.on)
        describe_gate(fd, t, name, f);
    if (fd->gate.declared && !mbx_file_out_of_memory(f, NULL))
        mbx_gate_wait_add(wait, name, member, slice, f, false, 0);
    uint64_t at;
    if (mbx_file_out_of_memory(f, &at)) {
        /* Counts from a library read in part would be wrong, not short
         * (the memory's diagnostic counted as the library's problem,
         * exit 0): no line for it, an error and exit 2 instead. */
        if (!t->direct) {
            t->buf.len = start;
            if (t->buf.s)
                t->buf.s[start] = '\0';
        }
        /* The JSON document said so itself (dump_write_document). */
        if (fd->json)
            mark_failed(fd, true);
        else
            report_at(fd, name, &at, "out of memory while reading the file: the result is incomplete", true);
    } else if (mbx_file_changed(f)) {
        report(fd, name, "the file changed or shrank while it was being read");
    }
}

/* -------------------------------------------------- archive members -- */

struct member_ctx {
    struct finder *fd;
    struct text *t;
    const char *archive;
    struct package *pkg;       /* --os declared */
    struct gate_wait *wait;
};

/* A WHEEL or an Info.plist (--os declared): what the package declares. */
static int on_declaration(void *ctx, const char *name, uint64_t size, struct member_reader *rd)
{
    (void)size;
    mbx_package_member_read(((struct member_ctx *)ctx)->pkg, name, rd);
    return 0;
}

static int on_member(void *ctx, const char *name, uint64_t size, struct member_reader *rd)
{
    (void)size;
    struct member_ctx *mc = ctx;
    size_t n = strlen(mc->archive) + 1 + strlen(name) + 1;
    char *full = malloc(n);
    if (!full)
        return 1;
    snprintf(full, n, "%s!%s", mc->archive, name);
    char err[256];
    size_t len;
    void *data = mbx_member_read_all(rd, &len, err, sizeof err);
    mtlbx_file *f = NULL;
    struct mtlbx_error oerr;
    if (!data)
        report(mc->fd, full, err);
    else if (mbx_open_buffer_owned(data, len, full, &f, &oerr) != MTLBX_E_NONE)
        report_open(mc->fd, full, &oerr);
    else
        describe(mc->fd, mc->t, full, f, mc->wait, name, mbx_member_macho_slice(rd));
    mbx_close(f);
    free(full);
    return 0;
}

/* A worker's reusable read buffer. */
struct buffer {
    uint8_t *data;
    size_t cap;
};

/* Opens a small file through the worker's buffer, a big one by mapping. */
static int open_small(const char *path, struct buffer *b, mtlbx_file **out, struct mtlbx_error *err)
{
    int fdesc = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    if (fdesc < 0 || fstat(fdesc, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > READ_INSTEAD_OF_MAP) {
        if (fdesc >= 0)
            close(fdesc);
        return mbx_open_path(path, out, err); /* its error messages, or a map */
    }
    size_t want = (size_t)st.st_size, got = 0;
    if (want > b->cap) {
        uint8_t *g = realloc(b->data, want);
        if (!g) {
            close(fdesc);
            return mbx_open_path(path, out, err);
        }
        b->data = g;
        b->cap = want;
    }
    while (got < want) {
        ssize_t n = read(fdesc, b->data + got, want - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fdesc);
    /* A file that shrank meanwhile is parsed as it was read: truncated. */
    return mbx_open_buffer(b->data, got, path, out, err);
}

static char *run_job(struct finder *fd, const struct job *j, struct buffer *b, struct bundle_cache *cache,
                     bool *write_failed)
{
    struct text t = { .seq = j->seq };
    struct package pkg;
    struct gate_wait wait = { 0 };
    if (fd->gate.declared)
        mbx_package_begin(&pkg, j->path, j->kind == WALK_ARCHIVE, cache);
    if (j->kind == WALK_METALLIB) {
        mtlbx_file *f = NULL;
        struct mtlbx_error err;
        if (open_small(j->path, b, &f, &err) != MTLBX_E_NONE)
            report_open(fd, j->path, &err);
        else
            describe(fd, &t, j->path, f, &wait, "", NULL);
        mbx_close(f);
    } else {
        struct member_ctx mc = { fd, &t, j->path, &pkg, &wait };
        char err[300];
        int rc = mbx_archive_list_metallibs_and(j->path, NULL, on_member, fd->gate.declared ? mbx_package_member_wanted : NULL,
                                            on_declaration, &mc, NULL, err, sizeof err);
        /* Compressed bytes with no archive inside, met in a folder, are
         * just not an archive; named on the command line, they are said. */
        if (rc != 0 && (rc != ARCHIVE_NOT_ARCHIVE || j->named))
            report(fd, j->path, err);
    }
    if (fd->gate.declared) {
        struct emit_ctx e = { fd, &t };
        if (!mbx_gate_wait_finish(&wait, &pkg, emit_declared, &e) || pkg.out_of_memory)
            t.buf.failed = true;
        mbx_gate_wait_free(&wait);
        mbx_package_end(&pkg);
    }
    if (t.buf.failed) {
        report_out_of_memory(fd, j->path, "out of memory");
        text_buf_free(&t.buf);
        *write_failed = t.write_failed;
        return NULL;
    }
    *write_failed = t.write_failed;
    if (t.direct && fflush(stdout) == EOF)
        *write_failed = true;
    return text_buf_take(&t.buf, NULL, NULL);
}

static void *worker(void *arg)
{
    struct finder *fd = arg;
    struct buffer b = { 0 };
    struct bundle_cache cache = { 0 };
    for (;;) {
        pthread_mutex_lock(&fd->lock);
        while (!fd->q_count && !fd->no_more_jobs)
            pthread_cond_wait(&fd->can_take, &fd->lock);
        if (!fd->q_count) {
            pthread_mutex_unlock(&fd->lock);
            free(b.data);
            mbx_bundle_cache_free(&cache);
            return NULL;
        }
        struct job j = fd->queue[fd->q_head];
        fd->q_head = (fd->q_head + 1) % QUEUE_CAP;
        fd->q_count--;
        pthread_cond_signal(&fd->can_put);
        pthread_mutex_unlock(&fd->lock);
        bool write_failed = false;
        char *text = run_job(fd, &j, &b, &cache, &write_failed);
        free(j.path);
        deliver(fd, j.seq, text, write_failed);
    }
}

/* -------------------------------------------------------------- walk -- */

static int on_entry(void *ctx, const struct walk_entry *e)
{
    struct finder *fd = ctx;
    if (e->kind == WALK_PROBLEM) {
        report(fd, e->path, e->problem);
        return 0;
    }
    char *path = strdup(e->path);
    pthread_mutex_lock(&fd->lock);
    if (path && fd->n_results == fd->cap_results) {
        size_t cap = fd->cap_results ? 2 * fd->cap_results : 1024;
        char **g = realloc(fd->results, cap * sizeof *g);
        if (g) {
            memset(g + fd->n_results, 0, (cap - fd->n_results) * sizeof *g);
            fd->results = g;
            fd->cap_results = cap;
        }
    }
    if (!path || fd->n_results == fd->cap_results) {
        pthread_mutex_unlock(&fd->lock);
        free(path);
        report_out_of_memory(fd, e->path, "out of memory");
        return 0;
    }
    while (fd->q_count == QUEUE_CAP)
        pthread_cond_wait(&fd->can_put, &fd->lock);
    fd->queue[(fd->q_head + fd->q_count++) % QUEUE_CAP] = (struct job){ e->kind, path, fd->n_results++, !e->rel[0] };
    pthread_cond_signal(&fd->can_take);
    pthread_mutex_unlock(&fd->lock);
    return 0;
}

/* ---------------------------------------------------------- progress -- */

static void *progress_thread(void *arg)
{
    struct finder *fd = arg;
    pthread_mutex_lock(&fd->lock);
    while (fd->progress_on) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += PROGRESS_MS * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&fd->progress_wake, &fd->lock, &ts);
        if (!fd->progress_on)
            break;
        /* A document going out on the same terminal: no progress text
         * inside it. */
        if (fd->streaming && fd->stdout_tty)
            continue;
        size_t found = fd->n_results, done = fd->parsed;
        char files[32], libs[32], bar[21];
        int fill = found ? (int)(20 * done / found) : 0;
        for (int i = 0; i < 20; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[20] = '\0';
        size_t n_files = atomic_load(&fd->walk.files), n_libs = atomic_load(&fd->walk.metallibs);
        fprintf(stderr, "\r\033[K[%s] %zu/%zu parsed; %s %s %s, %s %s", bar, done, found,
                fd->no_more_jobs ? "scanned" : "scanning...", mbx_format_count(files, sizeof files, n_files),
                mbx_noun(n_files, "file", "files"), mbx_format_count(libs, sizeof libs, n_libs),
                mbx_noun(n_libs, "metallib", "metallibs"));
        fd->progress_shown = true;
    }
    clear_progress_locked(fd);
    pthread_mutex_unlock(&fd->lock);
    return NULL;
}

/* -------------------------------------------------------------- main -- */

static void on_sigbus(int sig)
{
    (void)sig;
    fatal_cleanup_claim(); /* workers that fault together: one line */
    static const char m[] = "mtlbx: find: a file changed or shrank while it was being read\n";
    if (write(STDERR_FILENO, m, sizeof m - 1) < 0)
        _exit(2);
    _exit(2);
}

int cmd_find(const struct cli_args *args)
{
    /* The table checked the options and that there is a PATH. */
    struct finder fd = { 0 };
    fd.json = cli_flag(args, OPT_JSON);
    const char *stream_from = getenv("MTLBX_FIND_STREAM_FROM");
    fd.stream_from = stream_from && *stream_from ? strtoull(stream_from, NULL, 10) : STREAM_DOCUMENT_FROM;
    if (!os_gate_parse(args, &fd.gate))
        return 2;
    fd.stdout_tty = isatty(STDOUT_FILENO);
    int n_paths = args->n_operands;
    char **paths = args->operands;
    struct sigaction sa = { .sa_handler = on_sigbus };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
    /* Before any thread makes an object (jansson's hash seed). */
    json_object_seed(0);

    pthread_mutex_init(&fd.lock, NULL);
    pthread_cond_init(&fd.can_take, NULL);
    pthread_cond_init(&fd.can_put, NULL);
    pthread_cond_init(&fd.progress_wake, NULL);
    pthread_cond_init(&fd.turn, NULL);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int n_workers = cores < 1 ? 1 : cores > MAX_WORKERS ? MAX_WORKERS : (int)cores;
    pthread_t workers[MAX_WORKERS], progress;
    int started = 0;
    for (; started < n_workers; started++)
        if (pthread_create(&workers[started], NULL, worker, &fd) != 0)
            break;
    int rc = 0;
    if (!started) {
        fprintf(stderr, "mtlbx: find: cannot start a thread: %s\n", strerror(errno));
        rc = 2;
    }
    fd.progress_on = started && isatty(STDERR_FILENO);
    if (fd.progress_on && pthread_create(&progress, NULL, progress_thread, &fd) != 0)
        fd.progress_on = false;
    bool progress_started = fd.progress_on;
    if (fd.stdout_tty && !fd.json && started && fputs(header_row, stdout) == EOF)
        fd.output_error = true;
    for (int p = 0; p < n_paths && started; p++)
        mbx_tree_walk(paths[p], on_entry, &fd, &fd.walk, NULL);

    pthread_mutex_lock(&fd.lock);
    fd.no_more_jobs = true;
    pthread_cond_broadcast(&fd.can_take);
    pthread_mutex_unlock(&fd.lock);
    for (int w = 0; w < started; w++)
        pthread_join(workers[w], NULL);
    if (progress_started) {
        pthread_mutex_lock(&fd.lock);
        fd.progress_on = false;
        pthread_cond_signal(&fd.progress_wake);
        pthread_mutex_unlock(&fd.lock);
        pthread_join(progress, NULL);
    }
    free(fd.results);
    pthread_mutex_destroy(&fd.lock);
    pthread_cond_destroy(&fd.can_take);
    pthread_cond_destroy(&fd.can_put);
    pthread_cond_destroy(&fd.progress_wake);
    pthread_cond_destroy(&fd.turn);
    /* Lost output: cli_close_stdout says so, with the write's own errno. */
    if (fflush(stdout) != 0 || ferror(stdout) || fd.output_error)
        return 2;
    if (rc || fd.short_of_memory)
        return 2;
    return fd.failed ? 1 : 0;
}
