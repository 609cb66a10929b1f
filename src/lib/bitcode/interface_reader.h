/* Reading functions' AIR interfaces (src/lib/bitcode/interface_reader.c
 * and air_interface.c): one function alone, many through an interface
 * reader (a module several functions share read once), module bytes read
 * through a window of the file, or any module bytes decoded. */
#ifndef MTLBX_BITCODE_INTERFACE_READER_H
#define MTLBX_BITCODE_INTERFACE_READER_H

#include <stddef.h>
#include <stdint.h>

#include "bitcode/interface.h"
#include "container/file.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads function i's module: its bitstream blocks and its AIR interface.
 *
 * Returns NULL only when the function has no module bytes or they are not
 * LLVM bitcode at all, or out of memory; then *err (may be NULL) says why,
 * with an absolute offset. A bitstream that is damaged anywhere (truncated,
 * bad abbreviation, limit hit, broken metadata) still returns the blocks
 * read so far with module.failed set, module.error/error_offset naming the
 * first problem; then stage is NULL and every interface list is empty, and
 * callers print `"interface": null` with that diagnostic.
 *
 * The result is owned by the caller (mbx_interface_free()); it is never
 * cached by the library, so a command that walks 20,000 modules keeps memory
 * flat. Its byte spans point into the mapping or into the result itself, so
 * it must be freed before mbx_close(). Reads only immutable library state:
 * any number of threads may call it at once (the explorer decodes in a
 * background thread). Time is linear in the bytes read and memory bounded
 * by the module size and the limits above; FUNCTION blocks are skipped.
 * It decodes function i alone: a module that other functions share is read
 * again for each of them. To decode many functions, use a reader. */
struct mtlbx_interface *mbx_function_interface(const mtlbx_library *lib, size_t i,
                                                 struct mtlbx_error *err);

/* A window of the file read with pread into a buffer of its own
 * (read_window.c; made here, in interface_reader.c): cheaper than faulting the mapping in when many modules
 * are read in file order, since a page fault costs more than the copy on
 * the machines measured. A window serves one thread at a time. */
typedef struct mtlbx_read_window mtlbx_read_window;
mtlbx_read_window *mbx_read_window_new(void);    /* NULL: out of memory */
void mbx_read_window_free(mtlbx_read_window *w);

/* An interface reader (bitcode/interface_reader.c): what a caller that
 * decodes many functions of one library keeps between them. A module that
 * several functions share (the same offset and size) is read once through
 * it and each function's entry decoded from that one read; at most a few
 * such modules are kept at a time, each until all its functions have had
 * it. Make one per library for a pass (a command, a check, a model) and
 * free it when the pass is done, before mbx_close(): the modules it
 * keeps point into the mapping. Any number of threads may read through
 * one reader at once. NULL from _new: out of memory (or lib NULL); a NULL
 * reader is still a valid argument below, it just keeps nothing. */
typedef struct mtlbx_interface_reader mtlbx_interface_reader;
mtlbx_interface_reader *mbx_interface_reader_new(const mtlbx_library *lib);
void mbx_interface_reader_free(mtlbx_interface_reader *rd);

/* mbx_function_interface through the reader `rd` (made for lib; NULL, or
 * made for another library: decoded alone), with the module's bytes read
 * through `w` (may be NULL: through the mapping), a buffer filled by
 * pread, a window of the file from the module on: the same result, for
 * less CPU when many modules are read in file order. The result's byte
 * spans may point into w's buffer: free the result before the next read
 * through w. Make one window per thread. */
struct mtlbx_interface *mbx_interface_read(mtlbx_interface_reader *rd, const mtlbx_library *lib, size_t i,
                                             mtlbx_read_window *w, struct mtlbx_error *err);

/* The same over any module bytes (tests, fuzzing): `data` is the module
 * (wrapper or bare "BC\xC0\xDE"), `base` its absolute offset (added to every
 * offset reported), `symbol` the function's name used to pick the entry
 * (may be NULL: then the only entry, if there is exactly one). `data` must
 * outlive the result. */
struct mtlbx_interface *mbx_interface_decode(const uint8_t *data, size_t len, uint64_t base,
                                               const uint8_t *symbol, size_t symbol_len,
                                               struct mtlbx_error *err);

#ifdef __cplusplus
}
#endif
#endif
