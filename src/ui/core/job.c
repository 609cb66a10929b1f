/* The one background job and the model lock. A job is small: a worker
 * function, a finish function and progress counters. Only one runs at a
 * time; a key that would start another says so instead of queueing.
 *
 * A cancel waits a moment for the worker to see it. A worker inside a
 * call that cannot be interrupted (the library's source search, opening a
 * release's archives) is then left behind: the screen answers at once,
 * the slot stays busy ("stopping") until the worker ends, and its finish
 * runs then, as cancelled. Such a worker never takes the model lock. */
#include "config.h"

#include "ui/core/job.h"
#include "ui/text/keylog.h"
#include "ui/term/term.h"
#include "ui/core/core.h"
#include "container/digits.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct job_slot {
    struct job job;
    pthread_t thread;
    bool left_behind;            /* cancelled, but not ended yet */
};

/* How long a cancel waits for the worker before leaving it behind. */
#define JOB_STOP_WAIT_MS 300

static pthread_mutex_t model = PTHREAD_MUTEX_INITIALIZER;
static atomic_int ui_waiting;
static volatile sig_atomic_t interrupted;
static struct sigaction saved_sigint;

uint64_t job_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void job_model_ui_enter(void)
{
    atomic_fetch_add(&ui_waiting, 1);
    pthread_mutex_lock(&model);
    atomic_fetch_sub(&ui_waiting, 1);
}

void job_model_ui_leave(void) { pthread_mutex_unlock(&model); }
void job_model_lock(void) { pthread_mutex_lock(&model); }
void job_model_unlock(void) { pthread_mutex_unlock(&model); }

void job_model_yield(void)
{
    if (atomic_load(&ui_waiting) == 0)
        return;
    pthread_mutex_unlock(&model);
    /* A mutex is not fair: step aside until the UI thread has it. */
    while (atomic_load(&ui_waiting) > 0)
        sched_yield();
    pthread_mutex_lock(&model);
}

bool job_cancelled(const struct job *j)
{
    return atomic_load(&((struct job *)j)->cancel);
}

void job_set_progress(struct job *j, size_t done, size_t total)
{
    atomic_store(&j->done, done);
    atomic_store(&j->total, total);
}

/* While a job runs, Ctrl-C cancels it instead of ending the explorer. */
static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void *trampoline(void *arg)
{
    struct job *j = arg;
    j->work(j);
    atomic_store(&j->finished, true);
    return NULL;
}

bool job_running(const struct explorer *ex)
{
    return ex->job != NULL;
}

bool job_start(struct explorer *ex, const char *what, job_work_fn work, job_finish_fn finish,
               void *ctx, bool counts_bytes)
{
    if (ex->job) {
        if (ex->job->left_behind)
            ex_error(ex, "still stopping %s: try again in a moment", ex->job->job.what);
        else
            ex_error(ex, "busy with %s: wait, or Esc cancels it", ex->job->job.what);
        return false;
    }
    struct job_slot *s = calloc(1, sizeof *s);
    if (!s) {
        ex_error(ex, "out of memory");
        return false;
    }
    snprintf(s->job.what, sizeof s->job.what, "%s", what);
    s->job.work = work;
    s->job.finish = finish;
    s->job.ctx = ctx;
    s->job.counts_bytes = counts_bytes;
    atomic_init(&s->job.cancel, false);
    atomic_init(&s->job.finished, false);
    atomic_init(&s->job.done, 0);
    atomic_init(&s->job.total, 0);
    s->job.started_ms = job_now_ms();
    /* The worker needs no signals: they go to the UI thread. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = pthread_create(&s->thread, NULL, trampoline, &s->job);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        free(s);
        ex_error(ex, "cannot start a worker thread");
        return false;
    }
    interrupted = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &saved_sigint);
    ex->job = s;
    return true;
}

static void end_job(struct explorer *ex, bool cancelled)
{
    struct job_slot *s = ex->job;
    /* The worker may be waiting for the model lock, which we hold. */
    job_model_ui_leave();
    pthread_join(s->thread, NULL);
    job_model_ui_enter();
    sigaction(SIGINT, &saved_sigint, NULL);
    ex->job = NULL;
    char what[80];
    snprintf(what, sizeof what, "job-%s%s", s->job.what, cancelled ? "-cancelled" : "");
    for (char *p = what; *p; p++)
        if (*p == ' ')
            *p = '-';
    keylog_note(what, (job_now_ms() - s->job.started_ms) * 1000u);
    /* The status line held the job's progress ("comparing... 0.0 s (Esc
     * cancels)"): it ends with the job, not at the next key; the finish
     * says what came of it. */
    ex->status[0] = '\0';
    ex->status_error = false;
    s->job.finish(ex, &s->job, cancelled || atomic_load(&s->job.cancel));
    free(s);
}

/* Whether the worker ended within `ms` (the model lock is let go
 * meanwhile: the worker may be waiting for it). */
static bool ended_within(struct job_slot *s, uint64_t ms)
{
    uint64_t until = job_now_ms() + ms;
    job_model_ui_leave();
    while (!atomic_load(&s->job.finished) && job_now_ms() < until)
        nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
    job_model_ui_enter();
    return atomic_load(&s->job.finished);
}

void job_cancel(struct explorer *ex)
{
    struct job_slot *s = ex->job;
    if (!s)
        return;
    atomic_store(&s->job.cancel, true);
    if (s->left_behind) {
        if (atomic_load(&s->job.finished))
            end_job(ex, true); /* it ended meanwhile: its finish frees what it holds */
        return;
    }
    if (!ended_within(s, JOB_STOP_WAIT_MS)) {
        s->left_behind = true;  /* its finish runs when it ends (job_poll) */
        return;
    }
    end_job(ex, true);
}

bool job_stuck(const struct explorer *ex)
{
    return ex->job && ex->job->left_behind && !atomic_load(&ex->job->job.finished);
}

bool job_poll(struct explorer *ex)
{
    if (!ex->job)
        return false;
    if (interrupted) {
        interrupted = 0;
        job_cancel(ex);
        return true;
    }
    if (atomic_load(&ex->job->job.finished)) {
        end_job(ex, ex->job->left_behind);
        return true;
    }
    return false;
}

void job_progress_text(const struct explorer *ex, char *buf, size_t size)
{
    if (!ex->job) {
        buf[0] = '\0';
        return;
    }
    const struct job *j = &ex->job->job;
    double secs = (double)(job_now_ms() - j->started_ms) / 1000.0;
    size_t done = atomic_load(&((struct job *)j)->done), total = atomic_load(&((struct job *)j)->total);
    const char *dots = term_ascii() ? "..." : "\xe2\x80\xa6";
    if (ex->job->left_behind) {
        snprintf(buf, size, "cancelled, still ending: %s%s %.1f s  (Q quits without waiting)", j->what, dots,
                 secs);
    } else if (total) {
        char a[32], b[32];
        mbx_format_count(a, sizeof a, j->counts_bytes ? done >> 20 : done);
        mbx_format_count(b, sizeof b, j->counts_bytes ? total >> 20 : total);
        snprintf(buf, size, "%s %s/%s%s %.1f s  (Esc cancels)", j->what, a, b,
                 j->counts_bytes ? " MiB" : "", secs);
    } else {
        snprintf(buf, size, "%s%s %.1f s  (Esc cancels)", j->what, dots, secs);
    }
}
