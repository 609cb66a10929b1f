/* Where a function is defined in a source text, found by its name (the
 * source view of a function page). Pure: no terminal, no parser. */
#ifndef MTLBX_UI_SOURCE_FIND_H
#define MTLBX_UI_SOURCE_FIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How well a text defines `name` (0: not at all): a line where the name
 * is followed by "(" or "<" and preceded by a stage word (kernel, vertex,
 * fragment...) is best; then any such call-like line; then the name
 * anywhere as a whole word (a [[host_name("...")]] string). *line is the
 * 0-based line of the best place. */
int source_find_name(const uint8_t *text, size_t len, const char *name, size_t name_len, size_t *line);

/* The definition of a function named `symbol` (demangled already, or a
 * plain name): the whole name first, then shorter names made by dropping
 * trailing _parts (template instances named base_float_half are defined as
 * base), then a C++ name's last identifier. Returns the score (0: none). */
int source_find_definition(const uint8_t *text, size_t len, const char *symbol, size_t *line);

#endif
