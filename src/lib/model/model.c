/* The model of one open file: the object the views hold to walk its node
 * tree. It owns what the tree needs beside the file's parsed structures,
 * for as long as a view shows the file: the node arena, the index of the
 * diagnostics by offset, and the interfaces kept for the selected
 * functions (with the interface readers, one per library, that decode
 * them: a module several functions share is read once). They belong to this layer, so they hang here and not off the
 * file handle; close the model before the file.
 *
 * All three are made when the model is opened (small: a few pointers per
 * library), so their pointers never change after and the explorer's worker
 * threads read them without a lock. The interface cache has a mutex of its
 * own (iface_cache.c); the arena and the diagnostic index are used by the
 * thread that walks the tree (the explorer's UI thread, or a job while the
 * UI thread waits for a key). */
#include "config.h"
#include "node.h"
#include "model/model.h"

#include <stdlib.h>

mtlbx_model *mbx_model_open(mtlbx_file *f)
{
    if (!f)
        return NULL;
    mtlbx_model *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->f = f;
    m->arena = node_arena_new();
    m->diags = node_diags_new(f);
    m->ifaces = iface_cache_new(f);
    if (!m->arena || !m->diags || !m->ifaces) {
        mbx_model_close(m);
        return NULL;
    }
    return m;
}

void mbx_model_close(mtlbx_model *m)
{
    if (!m)
        return;
    /* The interfaces first (latest made, first freed): nodes do not
     * point into them. */
    iface_cache_free(m->ifaces);
    node_diags_free(m->diags);
    node_arena_free(m->arena);
    free(m);
}

mtlbx_file *mbx_model_file(const mtlbx_model *m)
{
    return m ? m->f : NULL;
}
