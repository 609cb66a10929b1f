/* See layout_json.h. */
#include "config.h"

#include "layout_json.h"
#include "checks/byte_layout.h"
#include "json/json_stream.h"

static bool put_region(void *ctx, const struct mtlbx_region *r)
{
    struct json_stream *js = ctx;
    json_stream_open(js, NULL, '{');
    json_stream_put_int(js, "offset", (json_int_t)r->offset);
    json_stream_put_int(js, "size", (json_int_t)r->size);
    json_stream_put_string(js, "what", r->what);
    json_stream_close(js);
    return !js->failed && !ferror(js->out);
}

bool layout_json_stream(struct json_stream *js, mtlbx_file *f)
{
    json_stream_open(js, "layout", '[');
    bool complete = mbx_layout_walk(f, put_region, js);
    json_stream_close(js);
    return complete && !js->failed;
}
