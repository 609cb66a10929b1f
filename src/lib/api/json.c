/* mtlbx_json, and the text of mtlbx_function_interface_json: the dump
 * --json document and a function's "interface" object, made by the
 * program's one renderer (src/lib/json), so the two can never disagree. */
#include "config.h"

#include "bitcode/interface_reader.h"
#include "json/dump_json.h"
#include "json/interface_json.h"
#include "json/interface_stream.h"
#include "json/json_stream.h"
#include "api/values.h"
#include "container/diagnostics.h"
#include "container/file.h"
#include "container/functions.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Why a document is not whole, in the program's words (src/cli/dump.c). */
static const char *failure_text(enum mtlbx_doc_result r)
{
    switch (r) {
    case MTLBX_DOC_NO_MEMORY: return "out of memory";
    case MTLBX_DOC_CUT_NO_MEMORY:
    case MTLBX_DOC_CUT_OUTPUT: return "out of memory: the JSON document is incomplete";
    case MTLBX_DOC_CUT_LAYOUT: return "the byte layout could not be completed";
    case MTLBX_DOC_CUT_VALUE: return "the JSON document could not be written whole";
    default: return NULL;
    }
}

/* After reading what the answer needs: NULL when the file was read whole,
 * else the error set and its text. */
static const char *file_incomplete(mtlbx *h)
{
    uint64_t at;
    const char *path = mbx_file_path(h->file);
    if (mbx_file_out_of_memory(h->file, &at)) {
        api_set_error(h, ENOMEM, (int64_t)at, "%s:%llu: out of memory while reading the file: the result is "
                      "incomplete", path, (unsigned long long)at);
        return h->err_text;
    }
    if (mbx_file_changed(h->file)) {
        api_set_error(h, 0, -1, "%s: the file changed or shrank while it was being read", path);
        return h->err_text;
    }
    return NULL;
}

const char *mtlbx_json(mtlbx *h, unsigned flags)
{
    if (!h || !h->file) {
        if (h)
            api_set_error(h, 0, -1, "no file is open");
        return NULL;
    }
    if (flags & ~(MTLBX_JSON_INTERFACES | MTLBX_JSON_LAYOUT)) {
        api_set_error(h, EINVAL, -1, "mtlbx_json: flags 0x%x are not MTLBX_JSON_* flags", flags);
        return NULL;
    }
    if (h->json[flags])
        return h->json[flags];
    mbx_doc_watch_jansson();
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) {
        api_set_error(h, ENOMEM, -1, "out of memory");
        return NULL;
    }
    enum mtlbx_doc_result r = mbx_doc_write(m, mbx_file_path(h->file), h->file,
                                              (flags & MTLBX_JSON_INTERFACES ? MTLBX_DOC_INTERFACES : 0) |
                                                  (flags & MTLBX_JSON_LAYOUT ? MTLBX_DOC_LAYOUT : 0));
    if (fclose(m) != 0 || !text) {
        free(text);
        api_set_error(h, ENOMEM, -1, "out of memory");
        return NULL;
    }
    /* Findings made on the way (modules that are not bitcode, hashes that
     * do not match) join the handle's list. */
    (void)api_diag_sync(h, true);
    const char *why = failure_text(r);
    if (why || r == MTLBX_DOC_FILE_INCOMPLETE || file_incomplete(h)) {
        free(text);
        if (why)
            api_set_error(h, r == MTLBX_DOC_CUT_LAYOUT || r == MTLBX_DOC_CUT_VALUE ? 0 : ENOMEM, -1, "%s: %s",
                          mbx_file_path(h->file), why);
        else if (r == MTLBX_DOC_FILE_INCOMPLETE)
            file_incomplete(h);
        return NULL;
    }
    /* The program prints a newline after the document; the string is the
     * document alone. */
    if (len && text[len - 1] == '\n')
        text[len - 1] = '\0';
    if (!pool_adopt(&h->pool, text)) {
        api_set_error(h, ENOMEM, -1, "out of memory");
        return NULL;
    }
    return h->json[flags] = text;
}

const char *api_interface_json_text(mtlbx *h, struct api_library *al, size_t i, bool *keep)
{
    struct mtlbx_error err = { 0 };
    struct mtlbx_interface *iface = mbx_interface_read(api_reader(al), al->lib, i, NULL, &err);
    if (!iface && err.status == MTLBX_E_NOMEM) {
        *keep = false;
        api_set_error(h, ENOMEM, -1, "out of memory");
        return NULL;
    }
    /* A module that does not decode is "interface": null, as in the
     * document; the error says where, as its diagnostic does. */
    if (!iface || iface->module.failed) {
        uint64_t at = !iface ? (err.has_offset ? err.offset : mbx_function_at(al->lib, i)->module.offset)
                             : iface->module.error_offset;
        *keep = false;
        api_set_error(h, 0, (int64_t)at, "%llu: function %zu: interface not decoded: %s", (unsigned long long)at, i,
                      iface ? iface->module.error : err.message);
        mbx_interface_free(iface);
        return pool_intern(&h->pool, "null");
    }
    struct json_stream js;
    json_stream_init(&js, NULL);
    interface_stream_put(&js, NULL, iface);
    size_t len = 0, cap = 0;
    char *text = json_stream_take(&js, &len, &cap);
    mbx_interface_free(iface);
    const char *kept = text && !js.failed ? pool_dup(&h->pool, text, len) : NULL;
    free(text);
    if (!kept) {
        *keep = false;
        api_set_error(h, ENOMEM, -1, "out of memory");
    }
    return kept;
}
