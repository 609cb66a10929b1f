/* How two function interfaces differ: the stage, and each argument added,
 * removed, rebound (kind or location), retyped (air.arg_type_name) or
 * otherwise changed. Arguments are paired by name, or by index when they
 * have none, through a sort and a merge, so hostile modules with thousands
 * of arguments stay cheap. Used by compare.c and by the renderers of
 * `mtlbx diff`. */
#include "config.h"
#include "container/span.h"
#include "bitcode/interface.h"
#include "compare/compare.h"

#include <stdlib.h>
#include <string.h>

/* Metadata values are finite trees (the reader turns cycles and deep
 * nesting into MTLBX_MD_NULL), so this recursion is bounded. */
static bool md_eq(const struct mtlbx_md_value *x, const struct mtlbx_md_value *y)
{
    if (x->kind != y->kind)
        return false;
    switch (x->kind) {
    case MTLBX_MD_INT: return x->i == y->i;
    case MTLBX_MD_STRING:
    case MTLBX_MD_GLOBAL: return span_eq(x->s, y->s);
    case MTLBX_MD_NULL: return true;
    case MTLBX_MD_NODE:
        if (x->n_items != y->n_items)
            return false;
        for (size_t i = 0; i < x->n_items; i++)
            if (!md_eq(&x->items[i], &y->items[i]))
                return false;
        return true;
    }
    return false;
}

bool mbx_air_property_equal(const struct mtlbx_air_property *p, const struct mtlbx_air_property *q)
{
    if (!span_eq(p->key, q->key) || p->n_values != q->n_values)
        return false;
    for (size_t v = 0; v < p->n_values; v++)
        if (!md_eq(&p->values[v], &q->values[v]))
            return false;
    return true;
}

static bool properties_eq(const struct mtlbx_air_argument *x, const struct mtlbx_air_argument *y)
{
    if (x->n_properties != y->n_properties || x->has_index != y->has_index ||
        (x->has_index && x->index != y->index))
        return false;
    for (size_t i = 0; i < x->n_properties; i++)
        if (!mbx_air_property_equal(&x->properties[i], &y->properties[i]))
            return false;
    return true;
}

static unsigned argument_change(const struct mtlbx_air_argument *x, const struct mtlbx_air_argument *y)
{
    unsigned what = 0;
    if (!span_eq(x->kind, y->kind) || x->has_location != y->has_location ||
        (x->has_location && x->location != y->location) ||
        x->has_location_expression != y->has_location_expression ||
        (x->has_location_expression && !span_eq(x->location_expression, y->location_expression)))
        what |= MTLBX_ARG_REBOUND;
    if (x->has_type != y->has_type || (x->has_type && !span_eq(x->type, y->type)))
        what |= MTLBX_ARG_RETYPED;
    /* Anything else: access, the argument index, other keys. A rebound
     * or retyped argument's properties differ anyway; say so only once. */
    bool same_access = (x->access == NULL) == (y->access == NULL) && (!x->access || strcmp(x->access, y->access) == 0);
    /* The address space (device -> constant), whichever of the metadata
     * or the parameter type told it: older AIR has it only in the latter. */
    bool xp = x->address_space_from == MTLBX_AS_METADATA || x->address_space_from == MTLBX_AS_PARAMETER;
    bool yp = y->address_space_from == MTLBX_AS_METADATA || y->address_space_from == MTLBX_AS_PARAMETER;
    bool same_space = xp == yp && (!xp || x->address_space == y->address_space);
    if (!what && (!same_access || !same_space || !properties_eq(x, y)))
        what |= MTLBX_ARG_CHANGED;
    return what;
}

/* Sort key: named arguments by name, unnamed ones by their index (or
 * position when they have none), unnamed before named. */
struct keyed {
    const struct mtlbx_air_argument *arg;
    size_t position;
};

static int key_cmp(const struct keyed *p, const struct keyed *q)
{
    const struct mtlbx_air_argument *x = p->arg, *y = q->arg;
    if (x->has_name != y->has_name)
        return x->has_name ? 1 : -1;
    if (x->has_name)
        return span_cmp(x->name, y->name);
    uint64_t ix = x->has_index ? x->index : p->position, iy = y->has_index ? y->index : q->position;
    return (ix > iy) - (ix < iy);
}

static int by_key(const void *a, const void *b)
{
    const struct keyed *p = a, *q = b;
    int c = key_cmp(p, q);
    return c ? c : (p->position > q->position) - (p->position < q->position);
}

static struct keyed *sorted_args(const struct mtlbx_air_argument *v, size_t n)
{
    struct keyed *k = malloc((n ? n : 1) * sizeof *k);
    if (!k)
        return NULL;
    for (size_t i = 0; i < n; i++)
        k[i] = (struct keyed){ &v[i], i };
    qsort(k, n, sizeof *k, by_key);
    return k;
}

static bool push(struct mtlbx_interface_diff *d, size_t *cap, struct mtlbx_argument_change c)
{
    if (d->n_changes == *cap) {
        size_t ncap = *cap ? *cap * 2 : 8;
        struct mtlbx_argument_change *v = realloc(d->changes, ncap * sizeof *v);
        if (!v)
            return false;
        d->changes = v;
        *cap = ncap;
    }
    d->changes[d->n_changes++] = c;
    return true;
}

/* One list (inputs or outputs): a merge of the two sorted lists; the
 * changes are then put back in A's order (added ones after, in B's). */
static int change_order(const void *a, const void *b)
{
    const struct mtlbx_argument_change *x = a, *y = b;
    /* Those A has, by their position in A; then the added, by B's. */
    if ((x->a == NULL) != (y->a == NULL))
        return x->a ? -1 : 1;
    uintptr_t px = (uintptr_t)(x->a ? x->a : x->b), py = (uintptr_t)(y->a ? y->a : y->b);
    return (px > py) - (px < py);
}

static bool compare_list(const struct mtlbx_air_argument *va, size_t na, const struct mtlbx_air_argument *vb,
                         size_t nb, bool output, struct mtlbx_interface_diff *d, size_t *cap)
{
    struct keyed *ka = sorted_args(va, na), *kb = sorted_args(vb, nb);
    bool ok = ka && kb;
    size_t first = d->n_changes, i = 0, j = 0;
    while (ok && (i < na || j < nb)) {
        int c = i == na ? 1 : j == nb ? -1 : key_cmp(&ka[i], &kb[j]);
        if (c < 0)
            ok = push(d, cap, (struct mtlbx_argument_change){ MTLBX_ARG_REMOVED, output, ka[i].arg, NULL });
        else if (c > 0)
            ok = push(d, cap, (struct mtlbx_argument_change){ MTLBX_ARG_ADDED, output, NULL, kb[j].arg });
        else {
            unsigned what = argument_change(ka[i].arg, kb[j].arg);
            if (what)
                ok = push(d, cap, (struct mtlbx_argument_change){ what, output, ka[i].arg, kb[j].arg });
        }
        /* Past this key on each side it was taken from (later duplicates
         * of a name are not compared). */
        const struct keyed key = c <= 0 ? ka[i] : kb[j];
        if (c <= 0)
            while (++i < na && key_cmp(&ka[i], &key) == 0)
                ;
        if (c >= 0)
            while (++j < nb && key_cmp(&kb[j], &key) == 0)
                ;
    }
    free(ka);
    free(kb);
    /* Arguments of one list lie in one array, so pointer order is list order. */
    if (ok && d->n_changes - first > 1)
        qsort(d->changes + first, d->n_changes - first, sizeof *d->changes, change_order);
    return ok;
}

bool mbx_interface_compare(const struct mtlbx_interface *a, const struct mtlbx_interface *b,
                             struct mtlbx_interface_diff *out)
{
    memset(out, 0, sizeof *out);
    size_t cap = 0;
    out->stage_changed = (a->stage == NULL) != (b->stage == NULL) || (a->stage && strcmp(a->stage, b->stage) != 0);
    if (!compare_list(a->inputs, a->n_inputs, b->inputs, b->n_inputs, false, out, &cap) ||
        !compare_list(a->outputs, a->n_outputs, b->outputs, b->n_outputs, true, out, &cap)) {
        mbx_interface_diff_free(out);
        return false;
    }
    return true;
}

void mbx_interface_diff_free(struct mtlbx_interface_diff *d)
{
    if (!d)
        return;
    free(d->changes);
    memset(d, 0, sizeof *d);
}
