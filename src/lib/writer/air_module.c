/* A function from its AIR module alone (mbx_wr_add_air): what the
 * standalone `metallib` tool reads from a .air it links.
 *
 *  - NAME: the symbol of the module's one entry (air.kernel, air.vertex,
 *    ... FORMAT §21); TYPE: that list's stage; VERS: !air.version and
 *    !air.language_version.
 *  - CNST (public metadata): !air.function_constants, one constant per
 *    node {global, type name, name, index, active}, in order (FORMAT §6).
 *  - VATT and VATY: the entry's air.vertex_input arguments, in order:
 *    name, location index, active unless air.arg_unused, data type.
 * Each was checked against the corpus libraries Apple's tools wrote
 * (tests/cli/pack_modules.sh compares them).
 *
 * A module is one function, as `mtlbx extract` writes them: the entries
 * of an .air that `metal -c` made for a whole source file are several,
 * and splitting an LLVM module is a linker's work, not this writer's. */
#include "config.h"
#include "writer_internal.h"
#include "container/grow.h"
#include "container/le_read.h"
#include "bitcode/arena.h"
#include "bitcode/bitcode.h"
#include "bitcode/interface_reader.h"
#include "checks/deployment.h"
#include "checks/requirements.h"
#include "writer/writer.h"
#include "writer/writer_model.h"
#include "container/escape.h"
#include "container/value_names.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#define WRAPPER_MAGIC 0x0B17C0DEu

/* ------------------------------------------------------------ names -- */

static uint64_t name_hash(const uint8_t *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

bool wr_name_claim(mtlbx_writer *w, const uint8_t *name, size_t len, bool *oom)
{
    *oom = false;
    if (w->names_n * 2 >= w->names_cap) {
        size_t cap = w->names_cap ? w->names_cap * 2 : 64;
        struct mtlbx_bytes *slots = calloc(cap, sizeof *slots);
        if (!slots) {
            *oom = true;
            return false;
        }
        for (size_t i = 0; i < w->names_cap; i++)
            if (w->names[i].ptr) {
                size_t k = name_hash(w->names[i].ptr, w->names[i].len) & (cap - 1);
                while (slots[k].ptr)
                    k = (k + 1) & (cap - 1);
                slots[k] = w->names[i];
            }
        free(w->names);
        w->names = slots;
        w->names_cap = cap;
    }
    size_t k = name_hash(name, len) & (w->names_cap - 1);
    while (w->names[k].ptr) {
        if (w->names[k].len == len && memcmp(w->names[k].ptr, name, len) == 0)
            return false;
        k = (k + 1) & (w->names_cap - 1);
    }
    const uint8_t *copy = mbx_wr_copy(w, name, len);
    if (!copy) {
        *oom = true;
        return false;
    }
    w->names[k] = (struct mtlbx_bytes){ copy, len };
    w->names_n++;
    return true;
}

/* ------------------------------------------------------- the module -- */

static bool data_type_of(struct mtlbx_bytes name, uint8_t *out)
{
    char buf[32];
    for (unsigned t = 0; t < 256; t++) {
        if (!mbx_data_type_known((uint8_t)t))
            continue;
        const char *n = mbx_data_type_name((uint8_t)t, buf, sizeof buf);
        if (strlen(n) == name.len && memcmp(n, name.ptr, name.len) == 0) {
            *out = (uint8_t)t;
            return true;
        }
    }
    return false;
}

static const struct {
    const char *stage;
    uint8_t type;
} stages[] = {
    { "vertex", 0 }, { "fragment", 1 }, { "kernel", 2 }, { "visible", 4 },
    { "intersection", 6 }, { "mesh", 7 }, { "object", 8 },
};

/* What bc_module_read finds: the entries and the function constants. */
struct module_scan {
    size_t n_entries;
    char entries[160];         /* the first few entry names, escaped */
    uint8_t *cnst;             /* the CNST value, malloc'd; NULL none */
    size_t cnst_len;
};

static void append_name(char *buf, size_t size, struct mtlbx_bytes name)
{
    size_t used = strlen(buf);
    if (used + 8 >= size)
        return;
    if (used)
        strcat(buf, ", ");
    used = strlen(buf);
    mbx_escape(name.ptr, name.len, MTLBX_ESC_TERMINAL, buf + used, size - used);
}

static int scan_module(mtlbx_writer *w, const uint8_t *bc, size_t len, uint64_t base, const char *lead,
                       struct module_scan *out)
{
    struct arena a = { 0 };
    struct bc_module m;
    int rc = MTLBX_WRITER_OK;
    memset(out, 0, sizeof *out);
    if (!bc_module_read(&m, bc, len, base, &a)) {
        rc = mbx_wr_fail(w, (int64_t)(base + m.rd.error_byte), "%sthe bitcode does not read: %s", lead,
                           m.rd.error);
        goto done;
    }
    for (size_t i = 0; i < m.n_named; i++) {
        const struct md_named *list = &m.named[i];
        if (strncmp(list->name, "air.", 4) != 0)
            continue;
        for (size_t k = 0; k < list->n_ops; k++) {
            struct mtlbx_md_value v;
            if (!md_value(&m, list->ops[k], 0, &v))
                goto unreadable;
            long g = v.kind == MTLBX_MD_NODE ? md_node_global(&m, list->ops[k]) : -1;
            if (g < 0 || m.globals[g].kind != GV_FUNCTION)
                continue;
            out->n_entries++;
            append_name(out->entries, sizeof out->entries, m.globals[g].name);
        }
    }
    const struct md_named *fc = md_find_named(&m, "air.function_constants");
    if (fc && fc->n_ops) {
        if (fc->n_ops > UINT16_MAX) {
            rc = mbx_wr_fail(w, -1, "%s%zu function constants, more than CNST holds", lead, fc->n_ops);
            goto done;
        }
        size_t cap = 2, used = 2;
        uint8_t *buf = malloc(cap);
        for (size_t k = 0; buf && k < fc->n_ops; k++) {
            struct mtlbx_md_value v;
            if (!md_value(&m, fc->ops[k], 0, &v)) {
                free(buf);
                goto unreadable;
            }
            const struct mtlbx_md_value *it = v.items;
            uint8_t type;
            if (v.kind != MTLBX_MD_NODE || v.n_items < 5 || it[1].kind != MTLBX_MD_STRING ||
                it[2].kind != MTLBX_MD_STRING || it[3].kind != MTLBX_MD_INT || it[4].kind != MTLBX_MD_INT ||
                it[3].i < 0 || it[3].i > UINT16_MAX || memchr(it[2].s.ptr, 0, it[2].s.len)) {
                free(buf);
                rc = mbx_wr_fail(w, (int64_t)v.offset, "%sfunction constant %zu is not {global, type, name, "
                                   "index, active}", lead, k);
                goto done;
            }
            if (!data_type_of(it[1].s, &type)) {
                char t[64];
                mbx_escape(it[1].s.ptr, it[1].s.len, MTLBX_ESC_TERMINAL, t, sizeof t);
                free(buf);
                rc = mbx_wr_fail(w, (int64_t)v.offset, "%sfunction constant %zu is of type \"%s\", no Metal "
                                   "data type the writer knows", lead, k, t);
                goto done;
            }
            size_t need = used + it[2].s.len + 1 + 4;
            if (need > cap) {
                cap = need * 2;
                uint8_t *nb = realloc(buf, cap);
                if (!nb) {
                    free(buf);
                    buf = NULL;
                    break;
                }
                buf = nb;
            }
            memcpy(buf + used, it[2].s.ptr, it[2].s.len);
            used += it[2].s.len;
            buf[used++] = 0;
            buf[used++] = type;
            wr16(buf + used, (uint16_t)it[3].i);
            used += 2;
            buf[used++] = (uint8_t)(it[4].i & 1);
        }
        if (!buf) {
            rc = mbx_wr_out_of_memory(w);
            goto done;
        }
        wr16(buf, (uint16_t)fc->n_ops);
        out->cnst = buf;
        out->cnst_len = used;
    }
    goto done;
unreadable:
    rc = mbx_wr_fail(w, (int64_t)(base + m.rd.error_byte), "%sits AIR metadata does not read: %s", lead,
                       m.rd.error);
done:
    bc_module_free(&m);
    arena_free(&a);
    return rc;
}

static bool has_property(const struct mtlbx_air_argument *arg, const char *key)
{
    for (size_t i = 0; i < arg->n_properties; i++)
        if (arg->properties[i].key.len == strlen(key) && memcmp(arg->properties[i].key.ptr, key, strlen(key)) == 0)
            return true;
    return false;
}

static bool bytes_is(struct mtlbx_bytes b, const char *s)
{
    return b.len == strlen(s) && memcmp(b.ptr, s, b.len) == 0;
}

/* VATT and VATY values from the vertex inputs; *n 0 when none. */
static int vertex_attributes(mtlbx_writer *w, const struct mtlbx_interface *iface, const char *lead,
                             uint8_t **vatt, size_t *vatt_len, uint8_t **vaty, size_t *vaty_len)
{
    size_t n = 0, names = 0;
    *vatt = *vaty = NULL;
    *vatt_len = *vaty_len = 0;
    for (size_t i = 0; i < iface->n_inputs; i++)
        if (bytes_is(iface->inputs[i].kind, "vertex_input")) {
            n++;
            names += iface->inputs[i].name.len + 1;
        }
    if (!n)
        return MTLBX_WRITER_OK;
    if (n > UINT16_MAX)
        return mbx_wr_fail(w, -1, "%s%zu vertex inputs, more than VATT holds", lead, n);
    uint8_t *a = malloc(2 + names + 2 * n), *t = malloc(2 + n);
    if (!a || !t) {
        free(a);
        free(t);
        return mbx_wr_out_of_memory(w);
    }
    wr16(a, (uint16_t)n);
    wr16(t, (uint16_t)n);
    size_t ua = 2, ut = 2;
    for (size_t i = 0; i < iface->n_inputs; i++) {
        const struct mtlbx_air_argument *arg = &iface->inputs[i];
        if (!bytes_is(arg->kind, "vertex_input"))
            continue;
        uint8_t type;
        if (!arg->has_name || !arg->has_location || arg->location < 0 || arg->location > 0x1FFF ||
            !arg->has_type || !data_type_of(arg->type, &type) || memchr(arg->name.ptr, 0, arg->name.len)) {
            free(a);
            free(t);
            return mbx_wr_fail(w, -1, "%svertex input %zu has no name, attribute index or data type the "
                                 "writer knows", lead, i);
        }
        memcpy(a + ua, arg->name.ptr, arg->name.len);
        ua += arg->name.len;
        a[ua++] = 0;
        uint16_t info = (uint16_t)arg->location | (has_property(arg, "arg_unused") ? 0 : 0x8000);
        wr16(a + ua, info);
        ua += 2;
        t[ut++] = type;
    }
    *vatt = a;
    *vatt_len = ua;
    *vaty = t;
    *vaty_len = ut;
    return MTLBX_WRITER_OK;
}

static int add_function_tags(mtlbx_writer *w, struct mtlbx_wr_library *lib, struct mtlbx_wr_function *fn,
                             struct mtlbx_bytes name, uint8_t type, const uint8_t vers[8])
{
    fn->tags = mtlbx_wr_tags_begin(lib);
    uint8_t *cname = mbx_wr_copy(w, name.ptr, name.len); /* a NUL follows */
    if (!cname || mbx_wr_add_tag(w, lib, FOURCC('N', 'A', 'M', 'E'), MTLBX_WR_VALUE, cname, name.len + 1, true) < 0 ||
        mbx_wr_add_tag(w, lib, FOURCC('T', 'Y', 'P', 'E'), MTLBX_WR_VALUE, &type, 1, false) < 0 ||
        mbx_wr_add_tag(w, lib, FOURCC('H', 'A', 'S', 'H'), MTLBX_WR_HASH, NULL, 0, true) < 0 ||
        mbx_wr_add_tag(w, lib, FOURCC('M', 'D', 'S', 'Z'), MTLBX_WR_MDSZ, NULL, 0, true) < 0 ||
        mbx_wr_add_tag(w, lib, FOURCC('O', 'F', 'F', 'T'), MTLBX_WR_OFFT, NULL, 0, true) < 0 ||
        mbx_wr_add_tag(w, lib, FOURCC('V', 'E', 'R', 'S'), MTLBX_WR_VALUE, vers, 8, false) < 0)
        return mbx_wr_out_of_memory(w);
    mtlbx_wr_tags_end(lib, &fn->tags);
    return MTLBX_WRITER_OK;
}

int mbx_wr_add_air(mtlbx_writer *w, struct mtlbx_wr_library *lib, const struct mtlbx_wr_blob *module,
                     const char *shown, const struct mtlbx_wr_target *target)
{
    if (w->fatal)
        return MTLBX_WRITER_FATAL;
    /* Messages begin "SHOWN: " (the API's "module 3: "), or with nothing
     * when the caller names the module itself. */
    char lead[200] = "";
    if (shown)
        snprintf(lead, sizeof lead, "%s: ", shown);
    char err[300];
    size_t len = (size_t)module->len;
    uint8_t *owned = NULL;
    const uint8_t *data = module->data;
    /* A module file is read whole (its AIR metadata is read from it) and
     * again when the library is written: memory holds one at a time. */
    if (module->path) {
        if (mbx_wr_read_file(w->base_dirfd, module->path, module->beneath, (uint64_t)1 << 32, &owned, &len, err,
                               sizeof err) != 0)
            return mbx_wr_fail(w, -1, "%s%s", lead, err);
        data = owned;
    }
    int rc = MTLBX_WRITER_OK;
    struct mtlbx_interface *iface = NULL;
    struct module_scan scan = { 0 };
    uint8_t *vatt = NULL, *vaty = NULL;
    size_t vatt_len = 0, vaty_len = 0;
    /* LLVM bitcode: the wrapper, or the bare stream (FORMAT §8). */
    size_t bc_off = 0, bc_len = len;
    if (len >= 20 && rd32(data) == WRAPPER_MAGIC) {
        bc_off = rd32(data + 8);
        bc_len = rd32(data + 12);
        if (bc_off > len || bc_len > len - bc_off) {
            rc = mbx_wr_fail(w, 8, "%sits bitcode wrapper points outside the module", lead);
            goto out;
        }
    }
    if (bc_len < 4 || memcmp(data + bc_off, "BC\xC0\xDE", 4) != 0) {
        rc = mbx_wr_fail(w, (int64_t)bc_off, "%snot an AIR module (not LLVM bitcode: no BC C0 DE at byte %zu)",
                           lead, bc_off);
        goto out;
    }
    char triple[96];
    bool has_triple = bc_module_triple(data, len, triple, sizeof triple);
    if (!has_triple || strncmp(triple, "air", 3) != 0) {
        rc = mbx_wr_fail(w, -1, "%sLLVM bitcode, but not an AIR module (its target triple is %s%s%s)", lead,
                           has_triple ? "\"" : "", has_triple ? triple : "missing", has_triple ? "\"" : "");
        goto out;
    }
    if ((rc = scan_module(w, data + bc_off, bc_len, bc_off, lead, &scan)) != MTLBX_WRITER_OK)
        goto out;
    if (scan.n_entries != 1) {
        if (scan.n_entries == 0)
            rc = mbx_wr_fail(w, -1, "%sthe module names no entry point (air.kernel, air.vertex, ...): its "
                               "function's name and type are not known", lead);
        else
            rc = mbx_wr_fail(w, -1, "%sthe module has %zu entry points (%s): the writer takes one function "
                               "per module, as `mtlbx extract` writes them", lead, scan.n_entries, scan.entries);
        goto out;
    }
    struct mtlbx_error e;
    iface = mbx_interface_decode(data, len, 0, NULL, 0, &e);
    if (!iface) {
        rc = e.status == MTLBX_E_NOMEM ? mbx_wr_out_of_memory(w)
                                       : mbx_wr_fail(w, (int64_t)e.offset, "%s%s", lead, e.message);
        goto out;
    }
    if (iface->module.failed || !iface->stage) {
        rc = mbx_wr_fail(w, (int64_t)iface->module.error_offset, "%sits AIR metadata does not decode: %s", lead,
                           iface->module.failed ? iface->module.error : "no entry");
        goto out;
    }
    if (!iface->has_air_version || !iface->has_language_version) {
        rc = mbx_wr_fail(w, -1, "%sno !air.version or !air.language_version: VERS is not known", lead);
        goto out;
    }
    int type = -1;
    for (size_t i = 0; i < sizeof stages / sizeof *stages; i++)
        if (strcmp(iface->stage, stages[i].stage) == 0)
            type = stages[i].type;
    if (type < 0) {
        rc = mbx_wr_fail(w, -1, "%sits entry is an air.%s, a stage whose function type the writer does not "
                           "know", lead, iface->stage);
        goto out;
    }
    for (size_t i = 0; i < iface->n_attributes; i++)
        if (bytes_is(iface->attributes[i].key, "patch")) {
            rc = mbx_wr_fail(w, -1, "%sa tessellation patch function: the writer does not know how Apple's "
                               "tool records it (TESS)", lead);
            goto out;
        }
    for (size_t i = 0; i < iface->n_outputs; i++)
        if (bytes_is(iface->outputs[i].kind, "render_target_array_index")) {
            rc = mbx_wr_fail(w, -1, "%sa [[render_target_array_index]] output: the writer does not know how "
                               "Apple's tool records it (LAYR)", lead);
            goto out;
        }
    struct mtlbx_bytes name = iface->symbol;
    char shown_name[160];
    mbx_escape(name.ptr, name.len, MTLBX_ESC_TERMINAL, shown_name, sizeof shown_name);
    if (name.len == 0 || memchr(name.ptr, 0, name.len) || name.len + 1 > UINT16_MAX) {
        rc = mbx_wr_fail(w, -1, "%sits entry's name cannot be a NAME tag", lead);
        goto out;
    }
    if (type == 0 &&
        (rc = vertex_attributes(w, iface, lead, &vatt, &vatt_len, &vaty, &vaty_len)) != MTLBX_WRITER_OK)
        goto out;
    struct wr_air_info info = { .has_triple = true };
    snprintf(info.shown, sizeof info.shown, "%s", lead);
    snprintf(info.name, sizeof info.name, "%s", shown_name);
    snprintf(info.triple, sizeof info.triple, "%s", triple);
    info.air[0] = (uint16_t)iface->air_version[0];
    info.air[1] = (uint16_t)iface->air_version[1];
    info.msl[0] = (uint16_t)iface->language_version[0];
    info.msl[1] = (uint16_t)iface->language_version[1];
    if (target && (rc = wr_check_air(w, &info, target)) != MTLBX_WRITER_OK)
        goto out;
    /* From here on only memory can run out: nothing half added stays
     * behind a FAILED. */
    bool oom;
    if (!wr_name_claim(w, name.ptr, name.len, &oom)) {
        rc = oom ? mbx_wr_out_of_memory(w)
                 : mbx_wr_fail(w, -1, "%sanother module already defines a function named %s", lead, shown_name);
        goto out;
    }

    /* The function, its module and its metadata. */
    if (!grow_array((void **)&w->air, &w->air_cap, w->n_air + 1, sizeof *w->air)) {
        rc = mbx_wr_out_of_memory(w);
        goto out;
    }
    struct mtlbx_wr_module *m = mbx_wr_add_module(w, lib);
    struct mtlbx_wr_function *fn = m ? mbx_wr_add_function(w, lib) : NULL;
    if (!fn) {
        rc = MTLBX_WRITER_FATAL;
        goto out;
    }
    fn->module = lib->n_modules - 1;
    if (module->path) {
        const char *path = mbx_wr_copy(w, module->path, strlen(module->path));
        if (!path) {
            rc = mbx_wr_out_of_memory(w);
            goto out;
        }
        m->bytes = (struct mtlbx_wr_blob){ NULL, len, path, module->beneath };
    } else {
        const uint8_t *copy = mbx_wr_copy(w, data, len);
        if (!copy) {
            rc = mbx_wr_out_of_memory(w);
            goto out;
        }
        m->bytes = (struct mtlbx_wr_blob){ copy, len, NULL, false };
    }
    uint8_t vers[8];
    wr16(vers, (uint16_t)iface->air_version[0]);
    wr16(vers + 2, (uint16_t)iface->air_version[1]);
    wr16(vers + 4, (uint16_t)iface->language_version[0]);
    wr16(vers + 6, (uint16_t)iface->language_version[1]);
    if ((rc = add_function_tags(w, lib, fn, name, (uint8_t)type, vers)) != MTLBX_WRITER_OK)
        goto out;
    fn->public_md = mtlbx_wr_tags_begin(lib);
    if ((scan.cnst && mbx_wr_add_tag(w, lib, FOURCC('C', 'N', 'S', 'T'), MTLBX_WR_VALUE, scan.cnst, scan.cnst_len,
                                       false) < 0) ||
        (vatt && (mbx_wr_add_tag(w, lib, FOURCC('V', 'A', 'T', 'T'), MTLBX_WR_VALUE, vatt, vatt_len, false) < 0 ||
                  mbx_wr_add_tag(w, lib, FOURCC('V', 'A', 'T', 'Y'), MTLBX_WR_VALUE, vaty, vaty_len, false) < 0))) {
        rc = MTLBX_WRITER_FATAL;
        goto out;
    }
    mtlbx_wr_tags_end(lib, &fn->public_md);
    fn->private_md = mtlbx_wr_tags_begin(lib);
    w->air[w->n_air++] = info;
out:
    mbx_interface_free(iface);
    free(scan.cnst);
    free(vatt);
    free(vaty);
    free(owned);
    return rc;
}

/* ----------------------------------------------------------- target -- */

/* FAILED when the module would not load on the target: its triple names
 * another platform or a newer OS, or its MSL or AIR version needs one. */
int wr_check_air(mtlbx_writer *w, const struct wr_air_info *a, const struct mtlbx_wr_target *t)
{
    enum mtlbx_os os = mbx_os_of_triple(a->triple);
    unsigned long v[3];
    bool sim;
    if (os != t->os || !wr_triple_version(a->triple, v, &sim) || sim != wr_target_simulator(t))
        return mbx_wr_fail(w, -1, "%sfunction %s is built for another platform than %s (its AIR triple is %s)",
                             a->shown, a->name, t->text, a->triple);
    /* Metal's rule (checks/deployment.c): a newer release is refused, a
     * newer minor of the target's release loads. */
    struct mtlbx_os_version asks = { (uint16_t)(v[0] > UINT16_MAX ? UINT16_MAX : v[0]),
                                     (uint16_t)(v[1] > UINT16_MAX ? UINT16_MAX : v[1]) };
    switch (mbx_triple_accepts(t->os, (struct mtlbx_os_version){ t->major, t->minor }, asks)) {
    case MTLBX_TRIPLE_REFUSED:
        return mbx_wr_fail(w, -1, "%sfunction %s is built for %s %lu.%lu.%lu (its AIR triple is %s), newer "
                             "than the target %s by a release: Metal refuses it there", a->shown, a->name,
                             mbx_os_name(os), v[0], v[1], v[2], a->triple, t->text);
    case MTLBX_TRIPLE_NEWER_MINOR:
        wr_note(w, "%sfunction %s is built for %s %lu.%lu.%lu (its AIR triple is %s), a newer minor than the "
                "target %s: packed, as Metal loads a newer minor of the same release", a->shown, a->name,
                mbx_os_name(os), v[0], v[1], v[2], a->triple, t->text);
        break;
    case MTLBX_TRIPLE_ACCEPTED:
        break;
    }
    struct mtlbx_requires req;
    struct mtlbx_os_version tv = { t->major, t->minor };
    mbx_versions_require(t->os, (struct mtlbx_os_version){ a->msl[0], a->msl[1] },
                           (struct mtlbx_os_version){ a->air[0], a->air[1] }, &req);
    if (req.has_version && mbx_os_version_cmp(req.version, tv) > 0) {
        char why[96] = "";
        for (size_t k = 0; k < req.n_reasons; k++)
            if (mbx_os_version_cmp(req.reasons[k].needs, req.version) == 0) {
                snprintf(why, sizeof why, "%s %u.%u", req.reasons[k].rule == MTLBX_REQ_MSL ? "MSL" : "AIR",
                         req.reasons[k].of.major, req.reasons[k].of.minor);
                break;
            }
        return mbx_wr_fail(w, -1, "%sfunction %s needs %s %u.%u (%s), more than the target %s", a->shown, a->name,
                             mbx_os_name(t->os), req.version.major, req.version.minor, why, t->text);
    }
    return MTLBX_WRITER_OK;
}

int mbx_wr_check_target(mtlbx_writer *w, const struct mtlbx_wr_library *lib, const struct mtlbx_wr_target *t)
{
    size_t n = lib->n_functions < w->n_air ? lib->n_functions : w->n_air;
    for (size_t i = 0; i < n; i++) {
        int rc = wr_check_air(w, &w->air[i], t);
        if (rc != MTLBX_WRITER_OK)
            return rc;
    }
    return MTLBX_WRITER_OK;
}
