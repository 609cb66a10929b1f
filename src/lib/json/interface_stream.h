/* One function's interface, CONTRACT.md's FUNCTION_INTERFACE, written
 * straight into a JSON stream, without building a jansson tree per
 * function (that was most of `dump --json --interfaces`, issue 22). The
 * one writer of it: interface_json() and interface_argument_json()
 * (interface_json.h) are the same writer building a jansson value. */
#ifndef MTLBX_INTERFACE_STREAM_H
#define MTLBX_INTERFACE_STREAM_H

#include "json_stream.h"
#include "bitcode/interface.h"

/* `iface` as the next item (member `key`, or an element when NULL); null
 * when it is NULL or its module did not decode. */
void interface_stream_put(struct json_stream *js, const char *key, const struct mtlbx_interface *iface);

#endif
