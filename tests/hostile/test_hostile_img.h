/* Hostile metallib images for the hostile-input tests, built in code on
 * top of imagebuf: embedded-source sections around any bzip2 payload, tar
 * archives with dangerous members, bzip2 bombs. Nothing here comes from
 * the third-party corpus. */
#ifndef MTLBX_TEST_HOSTILE_IMG_H
#define MTLBX_TEST_HOSTILE_IMG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "imagebuf.h"

/* An HSRD sources section holding one SARC group around `payload`, into
 * `out`. `sarc_len` overrides the SARC u32 length when not 0. Returns the
 * SARC tag's section-relative offset (what SOFF must say). */
size_t hi_sources_section(struct imagebuf *out, const void *payload, size_t payload_len,
                          uint32_t sarc_len);

/* A SOFF tag, for test_function.extra_tags. */
void hi_soff_tag(uint8_t out[14], uint64_t soff);

/* One library with a function "f" whose SOFF points at one archive with
 * this bzip2 payload. `sarc_len` as above. */
void hi_library_with_payload(struct imagebuf *img, const void *payload, size_t payload_len,
                             uint32_t sarc_len);

/* A member for hi_tar(). */
struct hi_member {
    const char *name;
    char type;                 /* 'f' file, 'l' symlink, 'h' hard link, 'c' char device, 'p' fifo, 'd' dir */
    const char *content;       /* files; link target for l/h */
};

/* A ustar archive of the members, bzip2-compressed, into `out`. */
void hi_tar_bz2(struct imagebuf *out, const struct hi_member *m, size_t n);

/* bzip2 of `zeros` zero bytes, compressed in a streaming way so the test
 * itself never holds the inflated size. */
void hi_bz2_zeros(struct imagebuf *out, size_t zeros);

/* Writes bytes to a new file; false on failure. */
bool hi_write_file(const char *path, const void *data, size_t len);

#endif
