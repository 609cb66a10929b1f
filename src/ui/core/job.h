/* Work that takes time (llvm-dis, searches over 200,000 functions, byte
 * searches over gigabytes) runs on one worker thread, so the screen keeps
 * redrawing and answering keys. The main loop shows the job's progress on
 * the status line and Esc or Ctrl-C cancels it; the job's `finish` runs
 * back on the UI thread, which alone touches the screen.
 *
 * The node model is built lazily and is not thread-safe, so whoever walks
 * it holds the model lock: the UI thread holds it except while waiting for
 * a key, and a worker takes it and gives it up often (job_model_yield), and
 * at once when the UI thread is waiting for it. */
#ifndef MTLBX_UI_JOB_H
#define MTLBX_UI_JOB_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct explorer;
struct job;

/* Runs on the worker; looks at job_cancelled() often. One that cannot (it
 * waits in a library call) must not take the model lock: it is left
 * behind when cancelled (job_cancel). */
typedef void (*job_work_fn)(struct job *j);
/* Runs on the UI thread once the worker has ended (joined), cancelled or
 * not; it owns and frees `ctx`. */
typedef void (*job_finish_fn)(struct explorer *ex, struct job *j, bool cancelled);

struct job {
    char what[48];               /* "llvm-dis", "searching" */
    job_work_fn work;
    job_finish_fn finish;
    void *ctx;
    atomic_bool cancel, finished;
    atomic_size_t done, total;   /* progress; total 0: show the time only */
    uint64_t started_ms;
    bool counts_bytes;           /* progress in bytes: shown as MiB */
};

/* Starts a job (ctx passes to it) unless one already runs: then false,
 * a message says so, and the caller still owns ctx. */
bool job_start(struct explorer *ex, const char *what, job_work_fn work, job_finish_fn finish,
               void *ctx, bool counts_bytes);
bool job_running(const struct explorer *ex);
/* On the UI thread, each turn of the loop: ends a finished job (calls its
 * finish) and turns a Ctrl-C into a cancel. True if anything changed. */
bool job_poll(struct explorer *ex);
/* Asks the worker to stop and waits a moment for it, then runs
 * finish(cancelled); a worker that does not stop by then is left behind
 * and finished when it ends (job_poll). */
void job_cancel(struct explorer *ex);
/* A cancelled worker still running: the explorer may end without
 * waiting for it (and without freeing what it reads). */
bool job_stuck(const struct explorer *ex);
/* "llvm-dis… 2.1 s  (Esc cancels)", "searching 120,000/200,000 ...". */
void job_progress_text(const struct explorer *ex, char *buf, size_t size);

bool job_cancelled(const struct job *j);
void job_set_progress(struct job *j, size_t done, size_t total);

/* The model lock (see above). */
void job_model_ui_enter(void);
void job_model_ui_leave(void);
void job_model_lock(void);       /* worker */
void job_model_unlock(void);     /* worker */
void job_model_yield(void);      /* worker: let a waiting UI thread in */

/* Milliseconds on the monotonic clock. */
uint64_t job_now_ms(void);

#endif
