/* One function's interface, CONTRACT.md's FUNCTION_INTERFACE, written
 * straight into a JSON stream: the same bytes as interface_json() dumped
 * in its place, without building a jansson tree per function (that was
 * most of `dump --json --interfaces`, issue 22). */
#ifndef MTLBX_INTERFACE_STREAM_H
#define MTLBX_INTERFACE_STREAM_H

#include "json_stream.h"
#include "bitcode/interface.h"

/* `iface` as the next item (member `key`, or an element when NULL); null
 * when it is NULL or its module did not decode. */
void interface_stream_put(struct json_stream *js, const char *key, const struct mtlbx_interface *iface);

#endif
