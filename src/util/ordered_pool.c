/* The ordered pool (ordered_pool.h). One mutex and one condition guard the
 * counters; an item costs a few lock round trips, nothing next to the
 * tens of microseconds of work it stands for (decoding one module). */
#include "config.h"

#include "ordered_pool.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#define ORDERED_MAX_THREADS 16

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t changed;      /* an item done, or one delivered */
    size_t n, window;
    size_t next;                 /* the next item to take */
    size_t delivered;            /* items 0..delivered-1 are delivered */
    unsigned char *ready;        /* per slot: worked on, not delivered */
    ordered_work_fn work;
    void *ctx;
};

/* With the lock held: the next item, if the window has room for it. */
static bool take(struct pool *p, size_t *item)
{
    if (p->next >= p->n || p->next >= p->delivered + p->window)
        return false;
    *item = p->next++;
    return true;
}

/* With the lock held: works on `item` without it. */
static void work_on(struct pool *p, size_t item)
{
    pthread_mutex_unlock(&p->lock);
    p->work(p->ctx, item, item % p->window);
    pthread_mutex_lock(&p->lock);
    p->ready[item % p->window] = 1;
    pthread_cond_broadcast(&p->changed);
}

static void *worker(void *arg)
{
    struct pool *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        size_t item;
        if (take(p, &item))
            work_on(p, item);
        else if (p->next >= p->n)
            break;
        else
            pthread_cond_wait(&p->changed, &p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

int ordered_run(size_t n, size_t window, unsigned threads, ordered_work_fn work, ordered_deliver_fn deliver,
                void *ctx)
{
    if (n == 0)
        return 0;
    if (window == 0)
        window = 1;
    struct pool p = { .n = n, .window = window, .work = work, .ctx = ctx };
    p.ready = calloc(window, 1);
    if (!p.ready)
        return -1;
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.changed, NULL);
    if (threads > ORDERED_MAX_THREADS)
        threads = ORDERED_MAX_THREADS;
    if (threads > n)
        threads = (unsigned)n;
    pthread_t tid[ORDERED_MAX_THREADS];
    unsigned started = 0;
    for (unsigned t = 1; t < threads; t++)
        if (pthread_create(&tid[started], NULL, worker, &p) == 0)
            started++;
    for (size_t i = 0; i < n; i++) {
        pthread_mutex_lock(&p.lock);
        while (!p.ready[i % window]) {
            size_t item;
            if (take(&p, &item))
                work_on(&p, item);
            else
                pthread_cond_wait(&p.changed, &p.lock);
        }
        p.ready[i % window] = 0;
        pthread_mutex_unlock(&p.lock);
        deliver(ctx, i, i % window);
        pthread_mutex_lock(&p.lock);
        p.delivered = i + 1;
        pthread_cond_broadcast(&p.changed);
        pthread_mutex_unlock(&p.lock);
    }
    for (unsigned t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    pthread_cond_destroy(&p.changed);
    pthread_mutex_destroy(&p.lock);
    free(p.ready);
    return 0;
}
