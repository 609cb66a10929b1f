/* A function's AIR interface (FORMAT §21), decoded from its module. */
#include "config.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

static void set_err(struct mtlbx_error *err, uint64_t offset, const char *msg)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    err->status = MTLBX_E_NOT_METALLIB;
    err->offset = offset;
    err->has_offset = true;
    snprintf(err->message, sizeof err->message, "%s", msg);
}

struct mtlbx_interface *mtlbx_interface_decode(const uint8_t *data, size_t len, uint64_t base,
                                               const uint8_t *symbol, size_t symbol_len,
                                               struct mtlbx_error *err)
{
    (void)data, (void)len, (void)symbol, (void)symbol_len;
    set_err(err, base, "not decoded yet");
    return NULL;
}

struct mtlbx_interface *mtlbx_function_interface(const mtlbx_library *lib, size_t i,
                                                 struct mtlbx_error *err)
{
    struct mtlbx_bytes m = mtlbx_function_module_bytes(lib, i);
    const struct mtlbx_function *fn = mtlbx_function_at(lib, i);
    return mtlbx_interface_decode(m.ptr, m.len, fn ? fn->module.offset : 0, fn ? fn->name.ptr : NULL,
                                  fn ? fn->name.len : 0, err);
}

void mtlbx_interface_free(struct mtlbx_interface *iface)
{
    free(iface);
}
