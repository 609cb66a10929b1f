/* One function's interface, CONTRACT.md's FUNCTION_INTERFACE, written
 * straight into a JSON stream: the same bytes as interface_json() dumped
 * in its place, without building a jansson tree per function (that was
 * most of `dump --json --interfaces`, issue 22). */
#ifndef MTLBX_INTERFACE_STREAM_H
#define MTLBX_INTERFACE_STREAM_H

#include "json_stream.h"
#include "mtlbx.h"

/* `iface` as the next item (member `key`, or an element when NULL); null
 * when it is NULL or its module did not decode. */
void interface_stream_put(struct json_stream *js, const char *key, const struct mtlbx_interface *iface);

/* Decodes function i of `lib` through the reader `rd` and the window `win`
 * (either may be NULL, as for mtlbx_interface_read) and writes its
 * interface as the member `key`; `*diag` as function_interface_json() sets it. */
void function_interface_stream(struct json_stream *js, const char *key, mtlbx_interface_reader *rd,
                               const mtlbx_library *lib, size_t i,
                               mtlbx_read_window *win, json_t **diag);

#endif
