/* manifest.json: a library's values, as `mtlbx unpack` writes them and
 * `mtlbx pack DIR` reads them (doc/writer-layout.md describes every key).
 * It holds no offset, size, MDSZ, OFFT or HASH: the writer computes
 * those (src/lib/writer). Modules and source archives are files beside
 * it, named by paths relative to its folder. */
#ifndef MTLBX_MANIFEST_H
#define MTLBX_MANIFEST_H

#include "mtlbx_private.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define MANIFEST_NAME "manifest.json"
#define MANIFEST_VERSION 1

/* The files of one library: module m is modules[m], archive a is
 * archives[a] (relative paths, '/' separated). */
struct manifest_files {
    char **modules;
    char **archives;
};

/* manifest_write.c: the manifest of the model `w` (made by
 * mbx_wr_describe), files[l] naming library l's files, streamed to
 * `out` (a library of 20,000 functions has a 15 MB manifest: it is never
 * held whole). False (with a reason in err) when a write failed or
 * memory ran out. */
bool manifest_render(mtlbx_writer *w, const struct manifest_files *files, FILE *out, char *err, size_t err_size);

/* manifest_read.c: fills the empty writer `w` from manifest text; file
 * references are opened beneath `dirfd` (mbx_wr_open_beneath) to learn
 * their sizes, and read again when the library is written. False with a
 * one-line reason in err naming the key ("libraries[0].functions[3].type:
 * ..."); true with a complete model. */
bool manifest_load(mtlbx_writer *w, int dirfd, const char *text, size_t len, char *err, size_t err_size);

/* manifest_values.c: what both sides share. */
/* Lower-case hex of n bytes into a malloc'd string (NULL out of memory). */
char *manifest_hex(const uint8_t *p, size_t n);
/* Hex text to bytes (malloc'd, *n); false when it is not an even number
 * of hex digits. */
bool manifest_unhex(const char *text, uint8_t **out, size_t *n);
/* Whether `n` bytes are a JSON string as they are: valid UTF-8 with no NUL. */
bool manifest_text_ok(const uint8_t *p, size_t n);
/* A tag value that is that text and a NUL, nothing after. */
bool manifest_cstring_ok(const uint8_t *p, size_t n);
/* The names of a byte as dump --json spells them, and back: a function
 * type ("kernel", "unknown-9"), a file type, a target OS. */
bool manifest_function_type(const char *name, uint8_t *out);
bool manifest_file_type(const char *name, uint8_t *out);
bool manifest_target_os(const char *name, uint8_t *out);
/* "1.2.7" / "14.0.0" / "2.6": numbers within max[], `parts` of them. */
bool manifest_version(const char *text, int parts, const unsigned long *max, unsigned long *out);
/* A FourCC as its four characters when they are printable ASCII. */
bool manifest_fourcc_text(uint32_t fourcc, char out[5]);

#endif
