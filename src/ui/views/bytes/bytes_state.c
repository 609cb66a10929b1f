/* The byte explorer's private block (bytes.h), and what every file of
 * the folder reads from it without any of them calling another: the
 * lowest file here. */
#include "config.h"

#include "ui/views/bytes/bytes.h"

struct bytes *bytes_of(struct explorer *ex)
{
    return view_state(ex, VIEW_BYTES);
}

long bytes_function_of(const mtlbx_node *n)
{
    for (; n; n = n->parent) {
        if (n->kind == MTLBX_NODE_FUNCTION || n->kind == MTLBX_NODE_MODULE)
            return n->index;
        /* A metadata group belongs to the function it is indexed by, both
         * under the function and under the metadata sections. */
        if (n->kind == MTLBX_NODE_TAG_GROUP && n->parent &&
            (n->parent->kind == MTLBX_NODE_FUNCTION || n->parent->kind == MTLBX_NODE_PUBLIC_MD ||
             n->parent->kind == MTLBX_NODE_PRIVATE_MD))
            return n->index;
    }
    return -1;
}
