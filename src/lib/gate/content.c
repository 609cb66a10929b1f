/* What a file holds by its first bytes (gate.h): an archive the gate
 * walks for its libraries. The program's folder walk (src/program) and
 * libmtlbx's gate ask the same question here. */
#include "config.h"

#include "gate/gate.h"

#include <string.h>

static bool starts(const uint8_t *h, size_t n, const char *magic, size_t len)
{
    return n >= len && memcmp(h, magic, len) == 0;
}

bool mbx_archive_content(const uint8_t *h, size_t n)
{
    /* Containers: zip (a local header, or the end record of an empty one),
     * ustar/GNU tar, 7-Zip, xar, cpio (odc, newc, crc), ar, RAR 4 and 5. */
    if (starts(h, n, "PK\3\4", 4) || starts(h, n, "PK\5\6", 4) || (n >= 262 && memcmp(h + 257, "ustar", 5) == 0) ||
        starts(h, n, "7z\xBC\xAF\x27\x1C", 6) || starts(h, n, "xar!", 4) || starts(h, n, "070707", 6) ||
        starts(h, n, "070701", 6) || starts(h, n, "070702", 6) || starts(h, n, "!<arch>\n", 8) ||
        starts(h, n, "Rar!\x1A\x07", 6))
        return true;
    /* Compressed streams, which may hold a tar (libarchive decides): gzip,
     * bzip2, xz, lzma-alone is left out (no magic), zstd, lz4, lzip, compress. */
    return starts(h, n, "\x1F\x8B", 2) || starts(h, n, "BZh", 3) || starts(h, n, "\xFD" "7zXZ\0", 6) ||
           starts(h, n, "\x28\xB5\x2F\xFD", 4) || starts(h, n, "\x04\x22\x4D\x18", 4) ||
           starts(h, n, "LZIP", 4) || starts(h, n, "\x1F\x9D", 2);
}
