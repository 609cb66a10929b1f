/* FUNCTION_INTERFACE (CONTRACT.md "Function interfaces") from a decoded
 * interface, as a jansson value: the text its one writer
 * (interface_stream.c, which `dump --json --interfaces` streams) gives,
 * read back, so that `sig --json`, `diff` and the dump cannot differ. */
#include "config.h"

#include "interface_json.h"
#include "interface_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* JSON strings must be UTF-8: invalid bytes become \xNN text. */
static json_t *json_bytes(struct mtlbx_bytes b)
{
    char *s = mbx_escape_dup(b.ptr, b.len, 0);
    json_t *j = json_string(s ? s : "");
    free(s);
    return j;
}

/* What the stream wrote, read back as a jansson value; NULL when memory
 * ran out. */
static json_t *read_back(struct json_stream *js)
{
    size_t len = 0, cap = 0;
    char *text = json_stream_take(js, &len, &cap);
    json_t *j = text && !js->failed ? json_loadb(text, len, JSON_DECODE_ANY, NULL) : NULL;
    free(text);
    return j;
}

json_t *interface_argument_json(const struct mtlbx_air_argument *a)
{
    struct json_stream js;
    json_stream_init(&js, NULL);
    interface_stream_put_argument(&js, NULL, a);
    return read_back(&js);
}

json_t *interface_json(const struct mtlbx_interface *iface)
{
    if (!iface || iface->module.failed)
        return json_null();
    struct json_stream js;
    json_stream_init(&js, NULL);
    interface_stream_put(&js, NULL, iface);
    return read_back(&js);
}

void interface_cut_message(char *out, size_t size)
{
    snprintf(out, size, "interface cut: its metadata stands for more than %d values (nodes that share children); "
             "the rest is left out", MTLBX_BC_MAX_INTERFACE_VALUES);
}

json_t *interface_problem_json(const mtlbx_library *lib, size_t i, const struct mtlbx_interface *iface,
                               const struct mtlbx_error *err)
{
    const char *message = NULL, *severity = "error";
    uint64_t offset = 0;
    char cut[160];
    if (!iface) {
        message = err->message;
        offset = err->has_offset ? err->offset : mbx_function_at(lib, i)->module.offset;
    } else if (iface->module.failed) {
        message = iface->module.error;
        offset = iface->module.error_offset;
    } else if (iface->cut) {
        interface_cut_message(cut, sizeof cut);
        message = cut;
        offset = iface->cut_offset;
        severity = "warning";
    }
    if (!message)
        return NULL;
    char text[320];
    snprintf(text, sizeof text, "function %zu: %s%s", i, iface && iface->cut ? "" : "interface not decoded: ",
             message);
    return json_pack("{s:s,s:I,s:o}", "severity", severity, "offset", (json_int_t)offset, "message",
                     json_bytes((struct mtlbx_bytes){ (const uint8_t *)text, strlen(text) }));
}

json_t *function_interface_json(mtlbx_interface_reader *rd, const mtlbx_library *lib, size_t i, mtlbx_read_window *win,
                                json_t **diag)
{
    struct mtlbx_error err = { 0 };
    struct mtlbx_interface *iface = mbx_interface_read(rd, lib, i, win, &err);
    *diag = interface_problem_json(lib, i, iface, &err);
    json_t *j = interface_json(iface);
    mbx_interface_free(iface);
    return j;
}
