/* Dropping pages of the mapping that a streaming pass has finished with:
 * `mtlbx sig` reads every module of a 20,000-function library through the
 * mapping, dump and the byte layout every entry and metadata group; the
 * pages they touch (and the kernel's fault-around neighbours) would
 * otherwise all count as resident, about the size of what was read. They
 * stay in the page cache, and a later access simply maps them again, so
 * this changes memory use, never what is read. */
#include "config.h"

#include "container/file_handle.h"
#include "container/file_read.h"
#include "container/library.h"

#include <sys/mman.h>
#include <unistd.h>

/* A file up to this size keeps every page it maps: its resident pages
 * can never pass this, while each release is a system call and a TLB
 * flush, and a later read of the same bytes faults them back in. The
 * corpus (54 files, 12 MB) in one `check`: 354 madvise calls of 4-50 KB. */
#define KEEP_PAGES_BELOW ((uint64_t)8 << 20)

void file_release_pages(const mtlbx_file *f, uint64_t off, uint64_t size)
{
    /* Whole pages only: a page shared with bytes outside the range stays. */
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        page = 4096;
    if (!f->mapped || off >= f->size || f->size < KEEP_PAGES_BELOW)
        return;
    uint64_t end = size > f->size - off ? f->size : off + size;
    uint64_t first = (off + (uint64_t)page - 1) / (uint64_t)page * (uint64_t)page;
    uint64_t last = end / (uint64_t)page * (uint64_t)page;
    /* A read-only private mapping of a file: MADV_DONTNEED drops the
     * pages, and the next read maps them again from the page cache. */
    if (last > first)
        (void)madvise((void *)(f->data + first), (size_t)(last - first), MADV_DONTNEED);
}

void mbx_library_release_pages(const mtlbx_library *lib)
{
    const struct mtlbx_header *h = &lib->header;
    file_release_pages(lib->file, h->function_list.offset, h->function_list.size);
    file_release_pages(lib->file, h->public_md.offset, h->public_md.size);
    file_release_pages(lib->file, h->private_md.offset, h->private_md.size);
    for (int k = 0; k < MTLBX_LIST_COUNT; k++)
        if (lib->lists[k].present)
            file_release_pages(lib->file, lib->lists[k].range.offset, lib->lists[k].range.size);
}

void mbx_file_release(const mtlbx_file *f, uint64_t offset, uint64_t size)
{
    /* Only a file mapping (file_release_pages checks): a caller's buffer
     * (mbx_open_buffer) is not ours, and DONTNEED on anonymous memory
     * would zero it. */
    if (f)
        file_release_pages(f, offset, size);
}
