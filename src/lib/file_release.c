/* Dropping pages of the mapping that a streaming command has finished
 * with. `mtlbx sig` reads every module of a 20,000-function library
 * through the mapping; the pages it touches (and the kernel's fault-around
 * neighbours) would otherwise all count as resident, about the size of
 * the file. They stay in the page cache, and a later access simply maps
 * them again, so this changes memory use, never what is read. */
#include "config.h"

#include "internal.h"

#include <sys/mman.h>
#include <unistd.h>

void mtlbx_file_release(const mtlbx_file *f, uint64_t offset, uint64_t size)
{
    /* Only a file mapping: a caller's buffer (mtlbx_open_memory) is not
     * ours, and DONTNEED on anonymous memory would zero it. */
    if (!f || !f->mapped || offset >= f->size || size == 0)
        return;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        return;
    uint64_t end = size > f->size - offset ? f->size : offset + size;
    uint64_t start = offset - offset % (uint64_t)page;
    end = end + ((uint64_t)page - end % (uint64_t)page) % (uint64_t)page;
    (void)madvise((void *)(f->data + start), (size_t)(end - start), MADV_DONTNEED);
}
