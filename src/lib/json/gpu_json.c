/* GPU_BINARY (gpu_json.h): what gpu_slice.c read, as CONTRACT.md spells
 * it. Names are the stored bytes; JSON strings must be UTF-8, so invalid
 * bytes become \xNN text as everywhere in the document. */
#include "config.h"

#include "json/gpu_json.h"
#include "json/json_stream.h"
#include "container/gpu_slice.h"

#include <stdlib.h>
#include <string.h>

static json_t *jint(uint64_t v) { return json_integer((json_int_t)v); }

static json_t *jname(const char *s, size_t n)
{
    char *e = json_bytes_text_dup(s, n);
    json_t *j = json_string(e ? e : "");
    free(e);
    return j;
}

static json_t *gpu_binary_json(const struct mtlbx_gpu_slice *g)
{
    json_t *sections = json_array(), *functions = json_array();
    for (size_t i = 0; i < g->n_sections; i++) {
        const struct mtlbx_gpu_section *s = &g->sections[i];
        json_array_append_new(sections, json_pack("{s:o,s:o,s:o,s:o}", "segment", jname(s->segment, strlen(s->segment)),
                                                  "section", jname(s->section, strlen(s->section)), "offset",
                                                  jint(s->offset), "size", jint(s->size)));
    }
    for (size_t i = 0; i < g->n_functions; i++) {
        const struct mtlbx_gpu_function *fn = &g->functions[i];
        json_t *o = json_pack("{s:o,s:o,s:o,s:o,s:o}", "name", jname(fn->name, fn->name_len), "symbol",
                              jname(fn->symbol, strlen(fn->symbol)), "offset", jint(fn->offset), "size",
                              jint(fn->size), "entry", fn->has_entry ? jint(fn->entry) : json_null());
        /* Extra: where its AIR lies (library and function index), or null. */
        if (o)
            json_object_set_new(o, "air", fn->library >= 0
                                              ? json_pack("{s:I,s:I}", "library", (json_int_t)fn->library,
                                                          "function", (json_int_t)fn->function)
                                              : json_null());
        json_array_append_new(functions, o);
    }
    return json_pack("{s:o,s:o,s:o,s:o}", "filetype", jint(g->filetype), "sections", sections, "functions", functions,
                     "embedded_library", g->embedded_library >= 0 ? jint((uint64_t)g->embedded_library) : json_null());
}

void fat_slice_gpu_json(const mtlbx_file *f, size_t slice, json_t *obj)
{
    long lib = mbx_fat_slice_library(f, slice);
    const struct mtlbx_gpu_slice *g = mbx_gpu_slice_of(f, slice);
    /* A GPU slice's metallib is its embedded_library: "library" names an
     * AIR64 slice's own. */
    json_object_set_new(obj, "library", lib >= 0 && !g ? jint((uint64_t)lib) : json_null());
    json_object_set_new(obj, "gpu_binary", g ? gpu_binary_json(g) : json_null());
}
