/* See layout_json.h. */
#include "config.h"

#include "layout_json.h"

static bool put_region(void *ctx, const struct mtlbx_region *r)
{
    struct json_stream *js = ctx;
    json_stream_put(js, NULL, json_pack("{s:I,s:I,s:s}", "offset", (json_int_t)r->offset, "size",
                                        (json_int_t)r->size, "what", r->what));
    return !js->failed && !ferror(js->out);
}

bool layout_json_stream(struct json_stream *js, mtlbx_file *f)
{
    json_stream_open(js, "layout", '[');
    bool complete = mtlbx_layout_walk(f, put_region, js);
    json_stream_close(js);
    return complete && !js->failed;
}
