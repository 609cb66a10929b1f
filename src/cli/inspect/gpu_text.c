/* GPU slices in info, ls and find (gpu_text.h). */
#include "config.h"

#include "cli/inspect/gpu_text.h"
#include "cli/commands.h"
#include "container/file.h"
#include "container/functions.h"
#include "container/gpu_slice.h"
#include "container/nouns.h"
#include "container/target_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *arch_of(uint32_t cputype, char *buf, size_t size)
{
    const char *a = mbx_fat_arch_name(cputype);
    if (a)
        return a;
    snprintf(buf, size, "cpu-0x%08x", cputype);
    return buf;
}

void gpu_info_slice(const mtlbx_file *f, size_t slice)
{
    const struct mtlbx_gpu_slice *g = mbx_gpu_slice_of(f, slice);
    if (!g)
        return;
    char n1[48], a[80], b[80];
    const char *cpu = mbx_cputype_name(g->cputype);
    printf("    GPU code           %s (subtype %u), Mach-O file type %u, %s", cpu ? cpu : "unknown GPU",
           g->cpusubtype, g->filetype, mbx_count_noun(g->n_functions, "function", "functions", n1, sizeof n1));
    if (g->embedded_library >= 0)
        printf(", AIR in library %ld", g->embedded_library);
    printf("\n");
    for (size_t i = 0; i < g->n_sections; i++) {
        const struct mtlbx_gpu_section *s = &g->sections[i];
        cli_escape(s->segment, strlen(s->segment), a, sizeof a);
        cli_escape(s->section, strlen(s->section), b, sizeof b);
        char name[170];
        snprintf(name, sizeof name, "%s,%s", a, b);
        printf("    section            %-22s 0x%08llx %12s\n", name, (unsigned long long)s->offset,
               mbx_count_noun(s->size, "byte", "bytes", n1, sizeof n1));
    }
    for (size_t i = 0; i < g->n_functions; i++) {
        const struct mtlbx_gpu_function *fn = &g->functions[i];
        char *name = cli_escape_dup(fn->name, fn->name_len);
        printf("    function           %s: code at 0x%llx, %s", name ? name : "?", (unsigned long long)fn->offset,
               mbx_count_noun(fn->size, "byte", "bytes", n1, sizeof n1));
        if (fn->has_entry)
            printf(", entry 0x%llx", (unsigned long long)fn->entry);
        printf("%s\n", fn->library < 0 ? " (no AIR function of that name)" : "");
        free(name);
    }
}

void gpu_info_library(const mtlbx_file *f, size_t library)
{
    const struct mtlbx_gpu_slice *g = mbx_gpu_slice_embedding(f, library);
    if (g) {
        const char *cpu = mbx_cputype_name(g->cputype);
        printf("  embedded in          slice %zu (%s), section __TEXT,__metallib: the AIR its GPU code was compiled "
               "from\n", g->slice, cpu ? cpu : "GPU");
    }
}

void gpu_ls(const mtlbx_file *f)
{
    char n1[48], arch[32];
    for (size_t k = 0; k < mbx_gpu_slice_count(f); k++) {
        const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(f, k);
        const char *a = arch_of(g->cputype, arch, sizeof arch);
        printf("# slice %zu %s (subtype %u) at 0x%llx: GPU code for %s\n", g->slice, a, g->cpusubtype,
               (unsigned long long)g->offset, mbx_count_noun(g->n_functions, "function", "functions", n1, sizeof n1));
        for (size_t i = 0; i < g->n_functions; i++) {
            const struct mtlbx_gpu_function *fn = &g->functions[i];
            char entry[24] = "-";
            if (fn->has_entry)
                snprintf(entry, sizeof entry, "0x%08llx", (unsigned long long)fn->entry);
            printf("%5zu  %-12s 0x%08llx %10llu  entry %-10s  ", i, a, (unsigned long long)fn->offset,
                   (unsigned long long)fn->size, entry);
            char *name = cli_escape_dup(fn->name, fn->name_len);
            printf("%s\n", name ? name : "?");
            free(name);
        }
    }
}

void gpu_find_column(const mtlbx_file *f, char *out, size_t size)
{
    out[0] = '\0';
    if (!mbx_gpu_slice_count(f) || size < 8)
        return;
    size_t len = (size_t)snprintf(out, size, "\tGPU ");
    for (size_t l = 0; l < mbx_file_library_count(f) && len < size; l++) {
        mtlbx_library *lib = mbx_library_at(f, l);
        if (l)
            len += (size_t)snprintf(out + len, size - len, ",");
        bool any = false;
        for (size_t k = 0; k < mbx_gpu_slice_count(f) && len < size; k++) {
            const struct mtlbx_gpu_slice *g = mbx_gpu_slice_at(f, k);
            bool has = false;
            for (size_t i = 0; i < g->n_functions && !has; i++)
                has = mbx_library_function_find(lib, g->functions[i].name) >= 0;
            if (!has)
                continue;
            char arch[32];
            len += (size_t)snprintf(out + len, size - len, "%s%s", any ? "+" : "", arch_of(g->cputype, arch, sizeof arch));
            any = true;
        }
        if (!any && len < size)
            len += (size_t)snprintf(out + len, size - len, "-");
    }
    if (len >= size)
        out[size - 1] = '\0';
}
