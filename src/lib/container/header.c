/* The 88-byte MTLB header (FORMAT §2): versions, platform, file type and
 * the four section (offset, size) pairs. Both published readings of bytes
 * 4-15 are kept. A header shorter than 88 bytes is an error, not a refusal:
 * whatever fields are present are still decoded. */
#include "config.h"
#include "container/file_handle.h"
#include "container/le_read.h"
#include "container/library.h"
#include "container/parse.h"
#include "container/report.h"

#include <string.h>

#define HEADER_SIZE 88

static const char *const section_names[4] = {
    "function list", "public metadata", "private metadata", "module list",
};

void parse_header(mtlbx_library *lib)
{
    struct mtlbx_header *h = &lib->header;
    const uint8_t *p = lib->file->data + h->base;
    uint64_t avail = h->available;
    h->complete = avail >= HEADER_SIZE;

    /* A truncated header is decoded from a zero-padded copy so each field
     * is either real or zero; the error below says where the file ends. */
    uint8_t buf[HEADER_SIZE] = { 0 };
    memcpy(buf, p, avail < HEADER_SIZE ? avail : HEADER_SIZE);
    if (!h->complete)
        lib_damaged(lib, h->base + avail, "header truncated: %llu of %d bytes present",
                  (unsigned long long)avail, HEADER_SIZE);

    h->version_word = rd16(buf + 4);
    h->macos = (h->version_word & 0x8000) != 0;
    h->major = h->version_word & 0x7FFF;
    h->minor = rd16(buf + 6);
    h->patch = rd16(buf + 8);
    h->type_byte = buf[10];
    h->file_type = buf[10] & 0x7F;
    h->stub = (buf[10] & 0x80) != 0;
    h->platform_byte = buf[11];
    h->os_major = rd16(buf + 12);
    h->os_minor = buf[14];
    h->os_patch = buf[15];
    h->os_minor_u16 = rd16(buf + 14);
    h->declared_size = rd64(buf + 16);
    for (int i = 0; i < 4; i++) {
        h->raw_offset[i] = rd64(buf + 24 + 16 * i);
        h->raw_size[i] = rd64(buf + 32 + 16 * i);
    }
    if (!h->complete) {
        /* Nothing past the header can be located: leave every section empty. */
        h->function_list = h->public_md = h->private_md = h->modules =
            (struct mtlbx_range){ h->base + avail, 0 };
        return;
    }

    if (h->declared_size != avail)
        lib_error(lib, h->base + 16, "header file size %llu disagrees with the real size %llu",
                  (unsigned long long)h->declared_size, (unsigned long long)avail);
    if (h->major != 1 || h->minor != 2)
        lib_warning(lib, h->base + 4, "unknown container version %u.%u.%u", h->major, h->minor, h->patch);
    if (h->file_type > 3)
        lib_warning(lib, h->base + 10, "unknown file type %u", h->file_type);
    if (h->platform_byte != 0 && (h->platform_byte < 0x81 || h->platform_byte > 0x8C))
        lib_warning(lib, h->base + 11, "unknown target platform byte 0x%02x", h->platform_byte);

    /* Resolve each pair to an absolute range clipped to this library. The
     * function list's size excludes its u32 count word (P1). */
    struct mtlbx_range *ranges[4] = { &h->function_list, &h->public_md, &h->private_md, &h->modules };
    for (int i = 0; i < 4; i++) {
        uint64_t off = h->raw_offset[i], size = h->raw_size[i];
        if (i == 0 && size <= UINT64_MAX - 4)
            size += 4;
        if (off > avail) {
            lib_damaged(lib, h->base + 24 + 16 * i, "%s offset 0x%llx is past the end of the library (0x%llx)",
                      section_names[i], (unsigned long long)off, (unsigned long long)avail);
            *ranges[i] = (struct mtlbx_range){ h->base + avail, 0 };
            continue;
        }
        if (size > avail - off) {
            lib_damaged(lib, h->base + 32 + 16 * i, "%s (0x%llx + 0x%llx) runs past the end of the library (0x%llx)",
                      section_names[i], (unsigned long long)off, (unsigned long long)size,
                      (unsigned long long)avail);
            size = avail - off;
        }
        *ranges[i] = (struct mtlbx_range){ h->base + off, size };
    }
}

const struct mtlbx_header *mbx_library_header(const mtlbx_library *lib) { return &lib->header; }
