/* Internal structures of the parser library, shared by the files in src/lib only. */
#ifndef MTLBX_INTERNAL_H
#define MTLBX_INTERNAL_H

#include "mtlbx_private.h"
#include "container/bytes.h"
#include "container/library.h"
#include "bitcode/bitcode.h"


/* module_check.c: judge module i (once) from its first n bytes in `head`, or
 * reading them when head is NULL or too short. */
bool bitcode_judge(mtlbx_library *lib, size_t i, const uint8_t *head, size_t n);

/* sha256.c: digests. sha256_ready initialises libgcrypt (once; every
 * other call does it too). A stream: open (NULL when libgcrypt cannot),
 * write, close (out may be NULL: the digest is not wanted). A batch: many
 * digests at once through the multi-buffer library (see there); new is
 * NULL when that cannot be loaded (then hash one at a time). add queues a
 * message, whose bytes must stay put and whose `out` is written by finish
 * (or by an add that finds the batch full); free finishes what is queued. */
void sha256_ready(void);
void sha256(const uint8_t *data, size_t len, uint8_t out[32]);
struct sha256_stream;
struct sha256_stream *sha256_stream_open(void);
void sha256_stream_write(struct sha256_stream *s, const uint8_t *data, size_t len);
void sha256_stream_close(struct sha256_stream *s, uint8_t out[32]);
struct sha256_batch;
struct sha256_batch *sha256_batch_new(void);
void sha256_batch_free(struct sha256_batch *b);
void sha256_batch_add(struct sha256_batch *b, const uint8_t *data, size_t len, uint8_t out[32]);
void sha256_batch_finish(struct sha256_batch *b);

/* hash.c */
/* mbx_library_verify_all, handing each module to visit->fn right after
 * its hash, on the same thread: `bytes` are its module.size bytes where
 * the hash read them (valid only during the call), or NULL when they are
 * not at hand (then read them through the mapping, or not at all). */
struct module_visitor {
    void (*fn)(mtlbx_library *lib, size_t i, const uint8_t *bytes, void *ctx);
    void *ctx;
};
size_t library_verify_visiting(mtlbx_library *lib, unsigned threads, const struct module_visitor *visit);
/* The same for functions [first, end) only; a part leaves the function
 * list's pages mapped (mbx_library_verify_decoding says why). */
size_t library_verify_range(mtlbx_library *lib, size_t first, size_t end, unsigned threads,
                            const struct module_visitor *visit);

#endif
