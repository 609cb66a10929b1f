/* What goes with a decoded interface's JSON: the CONTRACT DIAGNOSTIC of
 * a function whose interface did not decode or was cut, and decoding one
 * into its FUNCTION_INTERFACE value, which the one writer of it builds
 * (interface_stream.c, interface_json()). */
#include "config.h"

#include "interface_json.h"
#include "bitcode/interface_reader.h"
#include "json_stream.h"
#include "container/functions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* JSON strings must be UTF-8: invalid bytes become \xNN text. */
static json_t *json_bytes(struct mtlbx_bytes b)
{
    char *s = json_bytes_text_dup(b.ptr, b.len);
    json_t *j = json_string(s ? s : "");
    free(s);
    return j;
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
