/* Arrays that grow with what is parsed (src/lib only; grow_array_to is
 * in container/diag.c). */
#ifndef MTLBX_CONTAINER_GROW_H
#define MTLBX_CONTAINER_GROW_H

#include <stdbool.h>
#include <stddef.h>

/* Makes room for `need` elements in a growable array (doubling), so that
 * arrays grow with what is actually parsed rather than with a count read
 * from the file. Returns false on overflow or out of memory. Inline when
 * there is room already: the bitcode reader asks for every element. */
bool grow_array_to(void **array, size_t *cap, size_t need, size_t elem_size);
static inline bool grow_array(void **array, size_t *cap, size_t need, size_t elem_size)
{
    return need <= *cap || grow_array_to(array, cap, need, elem_size);
}

#endif
