/* See test_hostile_img.h. Tars are written by libarchive and compressed by
 * libbz2, the same libraries that read them back, so the bytes are what a
 * real tool would produce, except for the names and types we choose. */
#include "config.h"

#include "test_hostile_img.h"

#include <archive.h>
#include <archive_entry.h>
#include <bzlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

size_t hi_sources_section(struct imagebuf *out, const void *payload, size_t payload_len,
                          uint32_t sarc_len)
{
    static const char link[] = "air-lld -o hostile.metallib";
    static const char wd[] = "/work";
    ib_u32(out, 1);
    ib_bytes(out, link, sizeof link);
    ib_bytes(out, wd, sizeof wd);
    size_t group = out->len;
    ib_u32(out, 0);
    size_t sarc = out->len;
    ib_bytes(out, "SARC", 4);
    ib_u32(out, sarc_len ? sarc_len : (uint32_t)(2 + payload_len));
    ib_bytes(out, "0", 2);
    ib_bytes(out, payload, payload_len);
    ib_endt(out);
    /* The group size excludes its own prefix (FORMAT.md §9). */
    ib_put_u32(out, group, (uint32_t)(out->len - group - 4));
    return sarc;
}

void hi_soff_tag(uint8_t out[14], uint64_t soff)
{
    memcpy(out, "SOFF", 4);
    out[4] = 8;
    out[5] = 0;
    for (int i = 0; i < 8; i++)
        out[6 + i] = (uint8_t)(soff >> (8 * i));
}

void hi_library_with_payload(struct imagebuf *img, const void *payload, size_t payload_len,
                             uint32_t sarc_len)
{
    struct imagebuf sec = { 0 };
    size_t sarc = hi_sources_section(&sec, payload, payload_len, sarc_len);
    uint8_t soff[14];
    hi_soff_tag(soff, sarc);
    struct test_function fn = { .name = "f", .type = 2, .extra_tags = soff, .extra_tags_len = sizeof soff };
    ib_library(img, &(struct test_library){ .n_functions = 1, .functions = &fn, .ext = TEST_EXT_UUID,
                                            .sources = sec.data, .sources_len = sec.len });
    ib_free(&sec);
}

static la_ssize_t to_buf(struct archive *a, void *ctx, const void *p, size_t n)
{
    (void)a;
    ib_bytes(ctx, p, n);
    return (la_ssize_t)n;
}

void hi_tar_bz2(struct imagebuf *out, const struct hi_member *m, size_t n)
{
    struct imagebuf tar = { 0 };
    struct archive *a = archive_write_new();
    archive_write_set_format_ustar(a);
    archive_write_set_bytes_in_last_block(a, 1);
    archive_write_open(a, &tar, NULL, to_buf, NULL);
    for (size_t i = 0; i < n; i++) {
        struct archive_entry *e = archive_entry_new();
        archive_entry_set_pathname(e, m[i].name);
        archive_entry_set_perm(e, 0644);
        size_t len = 0;
        switch (m[i].type) {
        case 'l': archive_entry_set_filetype(e, AE_IFLNK); archive_entry_set_symlink(e, m[i].content); break;
        case 'h': archive_entry_set_filetype(e, AE_IFREG); archive_entry_set_hardlink(e, m[i].content); break;
        case 'c': archive_entry_set_filetype(e, AE_IFCHR); archive_entry_set_rdev(e, makedev(1, 3)); break;
        case 'p': archive_entry_set_filetype(e, AE_IFIFO); break;
        case 'd': archive_entry_set_filetype(e, AE_IFDIR); break;
        default:
            archive_entry_set_filetype(e, AE_IFREG);
            len = m[i].content ? strlen(m[i].content) : 0;
        }
        archive_entry_set_size(e, (la_int64_t)len);
        archive_write_header(a, e);
        if (len)
            archive_write_data(a, m[i].content, len);
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
    unsigned cap = (unsigned)(tar.len + tar.len / 100 + 1024);
    char *z = malloc(cap);
    if (BZ2_bzBuffToBuffCompress(z, &cap, (char *)tar.data, (unsigned)tar.len, 9, 0, 0) == BZ_OK)
        ib_bytes(out, z, cap);
    free(z);
    ib_free(&tar);
}

void hi_bz2_zeros(struct imagebuf *out, size_t zeros)
{
    static char in[1 << 20];
    char obuf[1 << 16];
    bz_stream bz;
    memset(&bz, 0, sizeof bz);
    BZ2_bzCompressInit(&bz, 9, 0, 0);
    size_t fed = 0;
    for (;;) {
        size_t piece = zeros - fed < sizeof in ? zeros - fed : sizeof in;
        bz.next_in = in;
        bz.avail_in = (unsigned)piece;
        int action = fed + piece == zeros ? BZ_FINISH : BZ_RUN;
        int rc;
        do {
            bz.next_out = obuf;
            bz.avail_out = sizeof obuf;
            rc = BZ2_bzCompress(&bz, action);
            ib_bytes(out, obuf, sizeof obuf - bz.avail_out);
        } while (bz.avail_in > 0 || (action == BZ_FINISH && rc != BZ_STREAM_END));
        fed += piece;
        if (action == BZ_FINISH)
            break;
    }
    BZ2_bzCompressEnd(&bz);
}

bool hi_write_file(const char *path, const void *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return false;
    bool ok = write(fd, data, len) == (ssize_t)len;
    return close(fd) == 0 && ok;
}
