/* See layout_json.h. jansson writes the document through a callback that
 * holds back its closing brace; the regions follow as they are walked. */
#include "config.h"

#include "layout_json.h"

#include <string.h>

struct held_back {
    FILE *out;
    char tail[8];              /* the last bytes written, not yet passed on */
    size_t n;
    bool failed;
};

static int hold_back(const char *buf, size_t size, void *data)
{
    struct held_back *h = data;
    /* Pass on everything except the last few bytes seen so far. */
    char joined[sizeof h->tail + 4096];
    while (size) {
        size_t take = size < 4096 ? size : 4096;
        memcpy(joined, h->tail, h->n);
        memcpy(joined + h->n, buf, take);
        size_t total = h->n + take, keep = total < sizeof h->tail ? total : sizeof h->tail;
        if (total > keep && fwrite(joined, 1, total - keep, h->out) != total - keep)
            h->failed = true;
        memcpy(h->tail, joined + total - keep, keep);
        h->n = keep;
        buf += take;
        size -= take;
    }
    return h->failed ? -1 : 0;
}

struct region_out {
    FILE *out;
    size_t flags;
    size_t count;
    bool failed;
};

static bool write_region(void *ctx, const struct mtlbx_region *r)
{
    struct region_out *o = ctx;
    json_t *j = json_pack("{s:I,s:I,s:s}", "offset", (json_int_t)r->offset, "size", (json_int_t)r->size, "what",
                          r->what);
    if (!j || fputs(o->count++ ? ",\n  " : "\n  ", o->out) < 0 ||
        json_dumpf(j, o->out, (o->flags & ~(size_t)JSON_INDENT(31)) | JSON_COMPACT) != 0)
        o->failed = true;
    json_decref(j);
    return !o->failed;
}

int json_dump_with_layout(json_t *root, mtlbx_file *f, FILE *out, size_t flags)
{
    struct held_back h = { .out = out };
    if (json_dump_callback(root, hold_back, &h, flags) != 0 || h.failed)
        return -1;
    /* The held-back tail ends with the object's closing brace. */
    char *brace = h.n ? memchr(h.tail, '}', h.n) : NULL;
    while (brace && memchr(brace + 1, '}', h.n - (size_t)(brace + 1 - h.tail)))
        brace = memchr(brace + 1, '}', h.n - (size_t)(brace + 1 - h.tail));
    if (!brace)
        return -1;
    /* What came before the brace (indentation, a newline) goes out first. */
    size_t before = (size_t)(brace - h.tail);
    while (before && (h.tail[before - 1] == '\n' || h.tail[before - 1] == ' '))
        before--;
    if (fwrite(h.tail, 1, before, out) != before)
        return -1;
    bool empty = before && h.tail[before - 1] == '{';
    if (fputs(empty ? "\n \"layout\": [" : ",\n \"layout\": [", out) < 0)
        return -1;
    struct region_out o = { .out = out, .flags = flags };
    bool complete = mtlbx_layout_walk(f, write_region, &o);
    if (fputs("\n ]\n}", out) < 0 || o.failed)
        return -1;
    return complete ? 0 : -1;
}
