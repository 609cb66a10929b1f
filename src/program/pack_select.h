/* A library of some functions of an open file, written atomically: what
 * `mtlbx pack --from FILE -f NAME... -o OUT` writes and what the
 * explorer's w writes of the function table's marked functions. One code
 * path (the writer's describe and select, then safe_write's temporary),
 * so both give the same bytes and the same guarantees: OUT is refused
 * when it exists unless `force`, never replaced when it is FILE itself,
 * and nothing is left behind on an error, a stop or a signal. */
#ifndef MTLBX_PACK_SELECT_H
#define MTLBX_PACK_SELECT_H

#include <stdbool.h>
#include <stdint.h>

#include "container/types.h"

enum pack_select_status {
    PACK_SELECT_OK = 0,
    PACK_SELECT_INPUT,     /* the writer cannot say FILE's library (err, err_offset in FILE) */
    PACK_SELECT_OUTPUT,    /* OUT could not be written (err) */
    PACK_SELECT_CHANGED,   /* FILE changed, or memory ran out, while it was read: nothing written */
    PACK_SELECT_STOPPED,   /* `tick` asked to stop: nothing written */
};

struct pack_select {
    /* What to write. */
    mtlbx_file *file;
    const char *file_path;       /* FILE on disk, never replaced (NULL: not a file of its own) */
    bool *const *keep;           /* keep[l][i]: function i of library l of FILE */
    const char *out;
    bool force;
    unsigned describe_flags;     /* MTLBX_WR_DESCRIBE_* */
    /* Called as OUT is written (may be NULL): bytes written of the
     * library's length; nonzero stops (PACK_SELECT_STOPPED). */
    int (*tick)(void *ctx, uint64_t done, uint64_t total);
    /* Called every 4,096 functions as FILE is read before anything is
     * written (may be NULL): functions read of all; nonzero stops. */
    int (*read_tick)(void *ctx, uint64_t done, uint64_t total);
    void *tick_ctx;             /* for both */
    /* What happened. */
    uint64_t size;               /* OUT's length, when written */
    int64_t err_offset;          /* PACK_SELECT_INPUT: the offset in FILE, -1 none */
    char err[512];
};

/* Writes p->out; the status, with a one-line reason in p->err. */
enum pack_select_status pack_select_write(struct pack_select *p);

#endif
