/* The embedded source archives' members (mtlbx_source_*), listed across
 * a library's archives in archive order. An archive is decompressed the
 * first time the list is asked for; one that does not decode adds its
 * finding and no members. */
#include "config.h"

#include "api/handle.h"
#include "container/sources.h"

#include <errno.h>
#include <stdlib.h>

/* Lists the members of every archive of the library once. */
static bool list_sources(mtlbx *h, struct api_library *al)
{
    if (al->sources_listed)
        return true;
    const struct mtlbx_sources *src = mbx_library_sources(al->lib);
    size_t n = 0;
    for (size_t k = 0; src && src->present && k < src->n_archives; k++)
        if (mbx_archive_load(al->lib, k) == MTLBX_ARCHIVE_LOADED)
            n += src->archives[k].n_members;
    struct api_source *v = calloc(n ? n : 1, sizeof *v);
    if (!v) {
        api_set_error(h, ENOMEM, -1, "out of memory");
        return false;
    }
    size_t at = 0;
    for (size_t k = 0; src && src->present && k < src->n_archives; k++)
        if (src->archives[k].state == MTLBX_ARCHIVE_LOADED)
            for (size_t m = 0; m < src->archives[k].n_members && at < n; m++)
                v[at++] = (struct api_source){ k, m };
    al->sources = v;
    al->n_sources = at;
    al->sources_listed = true;
    return true;
}

int64_t mtlbx_source_count(mtlbx *h, int lib)
{
    struct api_library *al = api_library(h, lib);
    if (!al || !list_sources(h, al))
        return -1;
    return (int64_t)al->n_sources;
}

static const struct mtlbx_member *member(mtlbx *h, int lib, int64_t i)
{
    struct api_library *al = api_library(h, lib);
    if (!al || !list_sources(h, al))
        return NULL;
    if (i < 0 || (uint64_t)i >= al->n_sources) {
        api_set_error(h, EINVAL, -1, "source member %lld: the library has %zu", (long long)i, al->n_sources);
        return NULL;
    }
    const struct mtlbx_sources *src = mbx_library_sources(al->lib);
    return &src->archives[al->sources[i].archive].members[al->sources[i].member];
}

const char *mtlbx_source_name(mtlbx *h, int lib, int64_t i)
{
    const struct mtlbx_member *m = member(h, lib, i);
    return m ? m->name : NULL;
}

const void *mtlbx_source_data(mtlbx *h, int lib, int64_t i, size_t *len)
{
    if (len)
        *len = 0;
    const struct mtlbx_member *m = member(h, lib, i);
    if (!m)
        return NULL;
    if (m->type != MTLBX_MEMBER_FILE) {
        api_set_error(h, 0, -1, "source member %lld is not a regular file", (long long)i);
        return NULL;
    }
    if (len)
        *len = m->data ? (size_t)m->size : 0;
    return m->data ? (const void *)m->data : (const void *)"";
}
