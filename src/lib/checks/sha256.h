/* SHA-256 digests (src/lib/checks/sha256.c): libgcrypt, and Intel's
 * multi-buffer library for many modules at once where it loads. */
#ifndef MTLBX_CHECKS_SHA256_H
#define MTLBX_CHECKS_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* SHA-256 of any bytes (a source member's text, for textconv). */
void mbx_sha256(const void *data, size_t len, uint8_t out[32]);
/* The program's MTLBX_NO_MULTI_BUFFER: false hashes every module with
 * libgcrypt alone, not Intel's multi-buffer library (before the first hash). */
void mbx_hash_use_multi_buffer(bool use);

#ifdef __cplusplus
}
#endif

/* Within src/lib: */
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

#endif
