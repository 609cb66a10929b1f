/* One function's interface, CONTRACT.md's FUNCTION_INTERFACE, written
 * straight into a JSON stream, without building a jansson tree per
 * function (that was most of `dump --json --interfaces`, issue 22). The
 * one writer of it: interface_json.h reads this text back for the callers
 * that want a jansson value. */
#ifndef MTLBX_INTERFACE_STREAM_H
#define MTLBX_INTERFACE_STREAM_H

#include "json_stream.h"
#include "mtlbx_private.h"

/* `iface` as the next item (member `key`, or an element when NULL); null
 * when it is NULL or its module did not decode. */
void interface_stream_put(struct json_stream *js, const char *key, const struct mtlbx_interface *iface);
/* One ARGUMENT object of its inputs or outputs. */
void interface_stream_put_argument(struct json_stream *js, const char *key, const struct mtlbx_air_argument *a);

#endif
