/* Embedded sources for a library made from modules
 * (mtlbx_writer_add_source): the members added, as one archive "0" that
 * every function's SOFF names, in the layout FORMAT §9 gives.
 *
 * The archive is what real libraries hold: a POSIX ustar tar (mode 0644,
 * uid and gid 0, mtime 0, two zero blocks at the end, a long name split
 * into the prefix field), bzip2-compressed with libbz2 at block size 9
 * (BZh9, as Xcode 15 and 16 write; no zero padding after the stream,
 * which readers do not need). The section is HSRD (with a working
 * directory) from container 1.2.6 on, HSRC before (FORMAT §2.2); its link
 * command and working directory are empty: no air-lld ran. */
#include "config.h"
#include "writer_internal.h"
#include "container/le_read.h"
#include "writer/writer.h"
#include "writer/writer_model.h"

#include <bzlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void octal(uint8_t *field, size_t width, uint64_t v)
{
    /* width-1 digits and a NUL, as `tar` writes numeric fields. */
    char buf[24];
    snprintf(buf, sizeof buf, "%0*llo", (int)(width - 1), (unsigned long long)v);
    memcpy(field, buf, width - 1);
    field[width - 1] = 0;
}

/* Splits a member name into ustar's prefix and name fields. */
static bool split_name(const char *name, size_t *prefix_len, const char **rest)
{
    size_t len = strlen(name);
    if (len <= 100) {
        *prefix_len = 0;
        *rest = name;
        return true;
    }
    for (size_t cut = len < 156 ? len - 1 : 155; cut > 0; cut--)
        if (name[cut] == '/' && len - cut - 1 <= 100 && len - cut - 1 > 0) {
            *prefix_len = cut;
            *rest = name + cut + 1;
            return true;
        }
    return false;
}

bool wr_member_name_ok(const char *name)
{
    size_t p;
    const char *r;
    return name && *name && split_name(name, &p, &r);
}

static uint8_t *make_tar(const struct wr_member *m, size_t n, size_t *len)
{
    size_t total = 1024;
    for (size_t i = 0; i < n; i++) {
        size_t blocks = (m[i].len + 511) / 512;
        if (blocks > (SIZE_MAX - total) / 512 - 1)
            return NULL;
        total += 512 + blocks * 512;
    }
    uint8_t *tar = calloc(1, total);
    if (!tar)
        return NULL;
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t *h = tar + pos;
        size_t prefix_len;
        const char *rest;
        split_name(m[i].name, &prefix_len, &rest);
        memcpy(h, rest, strlen(rest));
        octal(h + 100, 8, 0644);
        octal(h + 108, 8, 0);
        octal(h + 116, 8, 0);
        octal(h + 124, 12, m[i].len);
        octal(h + 136, 12, 0);
        memset(h + 148, ' ', 8);
        h[156] = '0';
        memcpy(h + 257, "ustar\0" "00", 8);
        octal(h + 329, 8, 0);
        octal(h + 337, 8, 0);
        memcpy(h + 345, m[i].name, prefix_len);
        unsigned sum = 0;
        for (int k = 0; k < 512; k++)
            sum += h[k];
        char chk[8];
        snprintf(chk, sizeof chk, "%06o", sum);
        memcpy(h + 148, chk, 6);
        h[154] = 0;
        h[155] = ' ';
        pos += 512;
        if (m[i].len)
            memcpy(tar + pos, m[i].data, m[i].len);
        pos += (m[i].len + 511) / 512 * 512;
    }
    *len = total;
    return tar;
}

/* Rewrites a run of tags at the end of the tag array with `add` in front
 * (at_end false) or behind (true); the old run stays unused. */
static int rerun(mtlbx_writer *w, struct mtlbx_wr_library *lib, struct mtlbx_wr_tags *run, uint32_t fourcc,
                 enum mtlbx_wr_kind kind, bool at_end)
{
    struct mtlbx_wr_tags old = *run, fresh = mtlbx_wr_tags_begin(lib);
    if (!at_end && mbx_wr_add_tag(w, lib, fourcc, kind, NULL, 0, true) < 0)
        return MTLBX_WRITER_FATAL;
    for (size_t i = 0; i < old.n; i++) {
        struct mtlbx_wr_tag t = lib->tags[old.first + i];
        if (mbx_wr_add_tag(w, lib, t.fourcc, (enum mtlbx_wr_kind)t.kind, t.value.ptr, t.value.len, true) < 0)
            return MTLBX_WRITER_FATAL;
    }
    if (at_end && mbx_wr_add_tag(w, lib, fourcc, kind, NULL, 0, true) < 0)
        return MTLBX_WRITER_FATAL;
    mtlbx_wr_tags_end(lib, &fresh);
    *run = fresh;
    return MTLBX_WRITER_OK;
}

int wr_lay_out_members(mtlbx_writer *w, struct mtlbx_wr_library *lib)
{
    if (!w->n_members)
        return MTLBX_WRITER_OK;
    size_t tar_len;
    uint8_t *tar = make_tar(w->members, w->n_members, &tar_len);
    if (!tar)
        return mbx_wr_out_of_memory(w);
    /* bzip2 never grows data by more than 1% + 600 bytes. */
    unsigned int cap = (unsigned int)(tar_len + tar_len / 100 + 600);
    char *bz = tar_len < UINT32_MAX / 2 ? malloc(cap) : NULL;
    int rc = MTLBX_WRITER_OK;
    if (!bz || BZ2_bzBuffToBuffCompress(bz, &cap, (char *)tar, (unsigned int)tar_len, 9, 0, 0) != BZ_OK) {
        rc = bz ? mbx_wr_fail(w, -1, "the embedded sources could not be compressed") : mbx_wr_out_of_memory(w);
        free(bz);
        free(tar);
        return rc;
    }
    free(tar);
    const uint8_t *payload = mbx_wr_copy(w, bz, cap);
    free(bz);
    if (!payload)
        return mbx_wr_out_of_memory(w);
    /* Called before every write: the archive is made again from all the
     * members, and what earlier calls set up is kept. */
    if (!lib->has_sources) {
        struct mtlbx_wr_archive *ar = mbx_wr_add_archive(w, lib);
        if (!ar)
            return MTLBX_WRITER_FATAL;
        ar->id = (struct mtlbx_bytes){ (const uint8_t *)"0", 1 };
        lib->has_sources = true;
        lib->link_command = (struct mtlbx_bytes){ (const uint8_t *)"", 0 };
        lib->working_dir = (struct mtlbx_bytes){ (const uint8_t *)"", 0 };
    }
    lib->archives[0].payload = (struct mtlbx_wr_blob){ payload, cap, NULL, false };
    uint32_t tag = lib->patch >= 6 ? FOURCC('H', 'S', 'R', 'D') : FOURCC('H', 'S', 'R', 'C');
    if (tag != lib->sources_tag) { /* the target changed the container version */
        for (size_t i = 0; lib->has_ext && i < lib->ext.n; i++)
            if (lib->tags[lib->ext.first + i].kind == MTLBX_WR_SECTION &&
                lib->tags[lib->ext.first + i].fourcc == lib->sources_tag)
                lib->tags[lib->ext.first + i].fourcc = tag;
        lib->sources_tag = tag;
    }
    for (size_t i = 0; i < lib->n_functions && rc == MTLBX_WRITER_OK; i++)
        if (lib->functions[i].archive < 0) {
            lib->functions[i].archive = 0;
            rc = rerun(w, lib, &lib->functions[i].tags, FOURCC('S', 'O', 'F', 'F'), MTLBX_WR_SOFF, true);
        }
    if (rc == MTLBX_WRITER_OK && !(lib->has_ext && wr_find_tag(lib, lib->ext, tag))) {
        lib->has_ext = true;
        rc = rerun(w, lib, &lib->ext, tag, MTLBX_WR_SECTION, false);
    }
    return rc;
}
