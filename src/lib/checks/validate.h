/* The checks layer (src/lib/checks) on modules: whether each module is
 * bitcode and its interface decodes, and the container's claims (NAME,
 * TYPE, versions) held to what the modules say. What it finds becomes
 * diagnostics of the library, at a byte offset; it never prints. The
 * checks know the container and the bitcode reader, and nothing above
 * them (model/ and compare/ call them, never the other way). */
#ifndef MTLBX_CHECKS_VALIDATE_H
#define MTLBX_CHECKS_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>

#include "bitcode/interface_reader.h"
#include "container/functions.h"

/* -------------------------------------------------- module validation -- */

/* Is module i LLVM bitcode (wrapper magic or raw bitcode, wrapper within the
 * module)? The first call reports a problem as an error diagnostic at the
 * module's offset; later calls return the cached answer. Hash checks
 * (mbx_function_verify, mbx_library_verify_all) answer it on the way. True when there is
 * no module to judge. mbx_library_validate_modules does every module and
 * returns how many are not bitcode. */
bool mbx_module_validate(mtlbx_library *lib, size_t i);
size_t mbx_library_validate_modules(mtlbx_library *lib);
/* Within src/lib: judges module i (once) from its first n bytes in
 * `head`, or reading them when head is NULL or too short. */
bool bitcode_judge(mtlbx_library *lib, size_t i, const uint8_t *head, size_t n);
/* Decodes every function's interface (as mbx_interface_read does)
 * on up to `threads` threads (0 = number of CPUs); each module that is
 * bitcode but does not decode becomes an error diagnostic of the library
 * at the module's offset (the message says where reading stopped).
 * Returns how many functions failed. For `check`: it costs what `sig`
 * costs. */
size_t mbx_library_check_interfaces(mtlbx_library *lib, unsigned threads);
/* The same for function i alone (the explorer's background check calls it
 * once per function), through `rd` (a reader of lib kept across the calls,
 * so that a shared module is read once; may be NULL). False when its
 * interface did not decode. */
bool mbx_function_check_interface(mtlbx_interface_reader *rd, mtlbx_library *lib, size_t i);
/* mbx_library_verify_all and mbx_library_check_interfaces in one pass:
 * each module is decoded on the thread that hashed it, from the bytes the
 * hash has just read, so the file is read once and the decode costs a
 * fraction of the hash. Returns the mismatches; *failed (may be NULL) gets
 * how many interfaces did not decode. */
size_t mbx_library_verify_and_check_interfaces(mtlbx_library *lib, unsigned threads, size_t *failed);
/* mbx_library_verify_all for functions [first, end) only, each one's
 * interface decoded as mbx_interface_read decodes it (through `rd`, may
 * be NULL) from the bytes its hash has just read, and handed to `visit`
 * on the thread that decoded it: iface NULL when it did not decode, with
 * *err saying why (a file that shrank under the hash is not read again:
 * mbx_file_changed() tells). The interface, and what it points to, last
 * only until visit returns. Each module is read once for both, where
 * verify_all and then mbx_interface_read read it twice (dump --json
 * --interfaces). Threads: 0 for every CPU. Returns the mismatches. The
 * function list's pages the range read stay mapped: a caller going
 * through the library range by range lets them go as it goes
 * (mbx_library_release_pages), not after every range. */
typedef void (*mtlbx_interface_visit_fn)(const mtlbx_library *lib, size_t i, const struct mtlbx_interface *iface,
                                         const struct mtlbx_error *err, void *ctx);
size_t mbx_library_verify_decoding(mtlbx_library *lib, mtlbx_interface_reader *rd, size_t first, size_t end,
                                     unsigned threads, mtlbx_interface_visit_fn visit, void *ctx);

/* ---------------------------------------------------------------- claims -- */

/* The container's claims held to the modules (claims_check.c), for plain
 * `check`: function i's NAME (a function its module defines), TYPE (the
 * stage its module declares), AIR and MSL versions (its module's own),
 * each disagreement an error of the library naming function, field and
 * both values. Called with the interface just decoded (the interface
 * pass calls it). */
void claims_check_function(mtlbx_library *lib, size_t i, const struct mtlbx_interface *iface);
/* The comparison itself, for anyone holding a function entry and its
 * module's interface (the writer holds a manifest's functions to their
 * modules with it, pack DIR): each disagreement, one line naming function,
 * field and both values (names escaped), given to `report`; returns how
 * many. */
typedef void (*mbx_claim_report_fn)(void *ctx, const char *msg);
size_t mbx_claims_compare(const struct mtlbx_function *fn, const struct mtlbx_interface *iface,
                          mbx_claim_report_fn report, void *ctx);
/* A warning of the library when the header's deployment target is not
 * the modules' triple (mbx_library_deployment), naming both. */
void mbx_library_check_deployment(mtlbx_library *lib);

#endif
