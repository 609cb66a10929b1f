/* The two files of a diff compared byte for byte on a thread of their own
 * (compare_scan.c), while the comparison goes through the function lists
 * and metadata: where a module lies at the same offset in both files, its
 * bytes are then known equal or not without reading them again. Internal
 * to the comparison layer. */
#ifndef MTLBX_COMPARE_SCAN_H
#define MTLBX_COMPARE_SCAN_H

#include "container/types.h"

struct byte_scan;

/* Starts the scan of a against b, or NULL when it would not pay (small
 * files, a file without a descriptor) or cannot start: the caller then
 * compares modules itself. */
struct byte_scan *byte_scan_start(const mtlbx_file *a, const mtlbx_file *b);
/* Whether the len bytes at off are the same in both files: 1 or 0, or -1
 * when the scan cannot say (past the shorter file, a read came up short).
 * Waits until the scan has passed them. */
int byte_scan_equal(struct byte_scan *s, uint64_t off, uint64_t len);
/* Stops the scan and frees it (NULL is fine). */
void byte_scan_stop(struct byte_scan *s);

#endif
