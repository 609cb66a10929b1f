/* manifest.json: a library's values, as `mtlbx unpack` writes them and
 * `mtlbx pack DIR` reads them (doc/writer-layout.md describes every key).
 * It holds no offset, size, MDSZ, OFFT or HASH: the writer computes
 * those. Modules and source archives are files beside it, named by paths
 * relative to its folder. The manifest is the writer's model as text, so
 * it lives here, behind two calls (load, render) and the few questions
 * unpack asks to name the files beside it; the model itself stays
 * private to src/lib/writer (writer_model.h). */
#ifndef MTLBX_MANIFEST_H
#define MTLBX_MANIFEST_H

#include "writer/writer.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define MANIFEST_NAME "manifest.json"
#define MANIFEST_VERSION 1

/* The files of one library: module m is modules[m], archive a is
 * archives[a] (relative paths, '/' separated). */
struct mbx_manifest_files {
    char **modules;
    char **archives;
};

/* Flags of mbx_manifest_load. */
enum {
    /* Pack the function list's NAME, TYPE, AIR and MSL versions as the
     * manifest gives them, even where its modules say otherwise (by
     * default such a manifest is refused: pack --keep-manifest-values). */
    MBX_MANIFEST_KEEP_VALUES = 1u << 0,
};

/* Load: DIR's manifest.json (opened beneath `dirfd`, the folder's
 * descriptor, which must stay open until the writer is freed) read into a
 * new writer, ready to write: the files it names are opened beneath
 * dirfd to learn their sizes and read again when the library is written.
 * NULL with a one-line reason in err naming the key
 * ("libraries[0].functions[3].type: ...", values quoted escaped), or
 * naming the first function whose NAME, TYPE, AIR or MSL version is not
 * its module's (unless MBX_MANIFEST_KEEP_VALUES): both values. */
mtlbx_writer *mbx_manifest_load(int dirfd, unsigned flags, char *err, size_t err_size);

/* Render: the manifest of the model `w` (made by mbx_writer_describe),
 * files[l] naming library l's files, streamed to `out` (a library of
 * 20,000 functions has a 15 MB manifest: it is never held whole). False
 * (with a reason in err) when a write failed or memory ran out. */
bool mbx_manifest_render(mtlbx_writer *w, const struct mbx_manifest_files *files, FILE *out, char *err,
                         size_t err_size);

/* What unpack needs of library l of a described writer to write and
 * name the files beside the manifest: its modules' and source archives'
 * counts and bytes (pointing into the described file), the modules in
 * the order its functions first use them (into order[], module_count
 * entries; returns how many, SIZE_MAX out of memory), and the NAME of
 * the first function that uses module m (ptr NULL when none has one). */
size_t mbx_manifest_module_count(mtlbx_writer *w, size_t l);
size_t mbx_manifest_archive_count(mtlbx_writer *w, size_t l);
struct mtlbx_bytes mbx_manifest_module_bytes(mtlbx_writer *w, size_t l, size_t m);
struct mtlbx_bytes mbx_manifest_archive_bytes(mtlbx_writer *w, size_t l, size_t a);
size_t mbx_manifest_module_order(mtlbx_writer *w, size_t l, size_t *order);
struct mtlbx_bytes mbx_manifest_module_name(mtlbx_writer *w, size_t l, size_t m);

#endif
