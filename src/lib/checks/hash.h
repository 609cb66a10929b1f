/* Module hashes (src/lib/checks/hash.c): each function's module hashed
 * and compared with its HASH tag, one at a time or all on threads, the
 * answer cached per function; and, for the library's own passes, the
 * hash of every module with its bytes handed on while they are at hand. */
#ifndef MTLBX_CHECKS_HASH_H
#define MTLBX_CHECKS_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "container/types.h"

#ifdef __cplusplus
extern "C" {
#endif

enum mtlbx_hash_state {
    MTLBX_HASH_UNCHECKED = 0,
    MTLBX_HASH_PENDING,        /* queued in the background */
    MTLBX_HASH_MATCHES,
    MTLBX_HASH_MISMATCH,
    MTLBX_HASH_UNAVAILABLE,    /* no HASH tag or no module bytes */
};

/* SHA-256 of the module compared with HASH. Blocking; caches the result.
 * `actual` (32 bytes, may be NULL) receives the computed digest. */
enum mtlbx_hash_state mbx_function_verify(mtlbx_library *lib, size_t i,
                                            uint8_t actual[32]);
/* Cached state without hashing (never blocks). */
enum mtlbx_hash_state mbx_function_hash_state(const mtlbx_library *lib, size_t i);
/* Verify every function using up to `threads` threads (0 = number of CPUs).
 * Returns the number of mismatches. Thread-safe against hash_state readers. */
size_t mbx_library_verify_all(mtlbx_library *lib, unsigned threads);
/* After verify_all: how many functions have no module where their entry
 * says (a cut file) or one whose HASH could not be checked (checks/hash.c).
 * Every verifier (mtlbx_verify, ls --verify, check) counts them as
 * findings: a module not hashed is never "OK". */
size_t mbx_library_unhashed(mtlbx_library *lib);

#ifdef __cplusplus
}
#endif

/* Within src/lib: */
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
