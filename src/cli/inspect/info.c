/* `mtlbx info`: a human summary of each library: header, sections,
 * function counts by type, sources, dynamic header and problem counts. */
#include "config.h"

#include "cli/commands.h"
#include "cli/inspect/gpu_text.h"
#include "cli/gate/os_option.h"
#include "bitcode/interface_reader.h"
#include "checks/byte_layout.h"
#include "container/header.h"
#include "container/nouns.h"
#include "container/digits.h"
#include "container/sources.h"
#include "container/value_names.h"
#include "container/target_names.h"

#include <stdio.h>
#include <string.h>

static void print_section(const char *name, struct mtlbx_range r, const char *extra)
{
    char size[48];
    printf("  %-20s 0x%08llx  %16s%s%s\n", name, (unsigned long long)r.offset,
           mbx_count_noun(r.size, "byte", "bytes", size, sizeof size), extra ? "  " : "", extra ? extra : "");
}

/* AIR and language versions, compiler and options of the first function's
 * module: one module decoded, so info stays as fast on 20,000 functions. */
static void print_module_facts(const mtlbx_library *lib)
{
    if (mbx_library_function_count(lib) == 0)
        return;
    struct mtlbx_error err = { 0 };
    struct mtlbx_interface *iface = mbx_function_interface(lib, 0, &err);
    if (!iface || iface->module.failed) {
        printf("Module facts           first module not decoded: %s\n", iface ? iface->module.error : err.message);
        mbx_interface_free(iface);
        return;
    }
    printf("Module facts           (first module)");
    if (iface->has_air_version)
        printf(" AIR %u.%u.%u", iface->air_version[0], iface->air_version[1], iface->air_version[2]);
    if (iface->has_language_version) {
        printf(", ");
        cli_put_escaped(stdout, iface->language_name);
        printf(" %u.%u.%u", iface->language_version[0], iface->language_version[1], iface->language_version[2]);
    }
    printf("\n");
    if (iface->has_compiler) {
        printf("  compiler             ");
        cli_put_escaped(stdout, iface->compiler);
        printf("\n");
    }
    for (size_t i = 0; i < iface->n_compile_options; i++) {
        printf(i ? "                       " : "  compile options      ");
        cli_put_escaped(stdout, iface->compile_options[i]);
        printf("\n");
    }
    mbx_interface_free(iface);
}

static void print_library(const mtlbx_library *lib, size_t index, bool fat)
{
    const struct mtlbx_header *h = mbx_library_header(lib);
    char b1[32], b2[32];
    printf("%sLibrary %zu at 0x%llx\n", fat ? "\n" : "", index, (unsigned long long)h->base);
    gpu_info_library(mbx_library_file(lib), index);
    printf("  container version    %u.%u.%u (%s)\n", h->major, h->minor, h->patch, h->macos ? "macOS" : "iOS");
    printf("  file type            %s%s\n", mbx_file_type_name(h->file_type, b1, sizeof b1),
           h->stub ? " (stub)" : "");
    printf("  target               %s\n", mbx_target_text(h, b2, sizeof b2));
    const struct mtlbx_header_ext *ext = mbx_library_header_ext(lib);
    if (ext->has_uuid) {
        printf("  uuid                 ");
        for (int i = 0; i < 16; i++)
            printf("%02x", ext->uuid[i]);
        printf("\n");
    }
    printf("Sections\n");
    print_section("function list", h->function_list, NULL);
    if (ext->present) {
        char tags[256] = "";
        size_t o = 0;
        for (size_t i = 0; i < ext->n_tags && o + 6 < sizeof tags; i++)
            o += (size_t)snprintf(tags + o, sizeof tags - o, "%s%s", i ? " " : "", ext->tags[i].name);
        print_section("header extension", ext->range, ext->n_tags ? tags : "(empty)");
    }
    print_section("public metadata", h->public_md, NULL);
    print_section("private metadata", h->private_md, NULL);
    print_section("module list", h->modules, NULL);
    const struct mtlbx_sources *src = mbx_library_sources(lib);
    if (src && src->present) {
        char extra[64], count[48];
        snprintf(extra, sizeof extra, "%s, %s", src->tag,
                 mbx_count_noun(src->n_archives, "archive", "archives", count, sizeof count));
        print_section("embedded sources", src->range, extra);
    }
    const struct mtlbx_dynamic_header *dyn = mbx_library_dynamic_header(lib);
    if (dyn->present)
        print_section("dynamic header", dyn->range, NULL);
    static const char *const list_names[] = { "variable list", "imported symbols", "reflection list",
                                              "script list" };
    for (int k = 0; k < MTLBX_LIST_COUNT; k++) {
        const struct mtlbx_list *l = mbx_library_list(lib, (enum mtlbx_list_kind)k);
        if (l->present) {
            char extra[64], count[48];
            snprintf(extra, sizeof extra, "%s, %s", l->tag,
                     mbx_count_noun(l->n_groups, "entry", "entries", count, sizeof count));
            print_section(list_names[k], l->range, extra);
        }
    }

    size_t n = mbx_library_function_count(lib);
    size_t by_type[257] = { 0 };
    /* Peeked, not kept: a count over every function leaves the table as
     * it was (a million functions' entries are 320 MB). */
    for (size_t i = 0; i < n; i++) {
        const struct mtlbx_function *fn = mbx_function_peek(lib, i);
        by_type[(fn->present & MTLBX_F_TYPE) ? fn->type : 256]++;
    }
    printf("Functions              %zu", n);
    const char *sep = " (";
    for (int t = 0; t <= 256; t++) {
        if (!by_type[t])
            continue;
        printf("%s%zu %s", sep, by_type[t], t == 256 ? "untyped" : mbx_function_type_name((uint8_t)t, b1, sizeof b1));
        sep = ", ";
    }
    printf("%s\n", n ? ")" : "");
    /* CONTRACT.md's wording: "Loads on  macOS 26.0 or later (MSL 4.0, ...)". */
    struct mtlbx_requires req;
    char loads[512];
    mbx_library_requires(lib, &req);
    req_loads_on_text(&req, loads, sizeof loads);
    printf("Loads on  %s\n", loads);
    print_module_facts(lib);
    if (dyn->present) {
        printf("Dynamic header         ");
        if (dyn->has_name) {
            printf("name \"");
            cli_put_escaped(stdout, dyn->name);
            printf("\"");
        } else {
            printf("no name");
        }
        printf(", %zu linked\n", dyn->n_linked);
        for (size_t i = 0; i < dyn->n_linked; i++) {
            printf("  linked               ");
            cli_put_escaped(stdout, dyn->linked[i]);
            printf("\n");
        }
    }
    size_t errors = 0, warnings = 0, nd = mbx_library_diag_count(lib);
    for (size_t i = 0; i < nd; i++)
        mbx_library_diag(lib, i)->severity == MTLBX_ERROR ? errors++ : warnings++;
    printf("Problems               %s, %s%s\n", mbx_count_noun(errors, "error", "errors", b1, sizeof b1),
           mbx_count_noun(warnings, "warning", "warnings", b2, sizeof b2),
           errors + warnings ? " (run 'mtlbx check' for details)" : "");
}

int cmd_info(const struct cli_args *args)
{
    int argc = args->n_operands;
    char **argv = args->operands;
    int status = 0;
    for (int a = 0; a < argc; a++) {
        mtlbx_file *f = cli_open(argv[a]);
        if (!f) {
            status = 2;
            continue;
        }
        if (a)
            printf("\n");
        printf("File                   ");
        cli_put_escaped(stdout, (struct mtlbx_bytes){ (const uint8_t *)argv[a], strlen(argv[a]) });
        char n1[48], n2[48], n3[32];
        printf(" (%s)\n", mbx_count_noun(mbx_file_size(f), "byte", "bytes", n1, sizeof n1));
        /* The layout walk also adds its findings to the problem counts. */
        struct mtlbx_layout *layout = mbx_layout_check(f);
        const struct mtlbx_layout_summary *lay = layout ? &layout->summary : NULL;
        /* Every byte is explained only when none is left unclaimed and
         * nothing the header declares is missing: a cut file's bytes may
         * all be claimed by the sections it cuts short. */
        bool damaged = mbx_file_damaged(f, NULL, NULL);
        if (lay)
            printf("Claimed                %s of %s%s%s%s\n",
                   mbx_format_count(n3, sizeof n3, lay->claimed + lay->padding),
                   mbx_count_noun(mbx_file_size(f), "byte", "bytes", n1, sizeof n1),
                   lay->unclaimed ? ", " : damaged ? "" : " (every byte explained)",
                   lay->unclaimed ? mbx_count_noun(lay->unclaimed, "byte", "bytes", n2, sizeof n2) : "",
                   lay->unclaimed ? " unclaimed (run 'mtlbx check')" : "");
        if (damaged)
            printf("Damaged                the file ends before what its header declares (run 'mtlbx check')\n");
        mbx_layout_free(layout);
        if (mbx_file_is_fat(f)) {
            printf("Fat container          %s\n",
                   mbx_count_noun(mbx_fat_slice_count(f), "slice", "slices", n1, sizeof n1));
            for (size_t i = 0; i < mbx_fat_slice_count(f); i++) {
                const struct mbx_fat_slice *s = mbx_fat_slice(f, i);
                const char *cpu = mbx_cputype_name(s->cputype);
                printf("  slice %zu              %s (0x%08x/%u) at 0x%x, %s\n", i, cpu ? cpu : "unknown cpu",
                       s->cputype, s->cpusubtype, s->offset, mbx_count_noun(s->size, "byte", "bytes", n1, sizeof n1));
                gpu_info_slice(f, i);
            }
            size_t nd = mbx_file_diag_count(f);
            if (nd)
                printf("  %s in the fat container and its GPU slices (run 'mtlbx check')\n",
                       mbx_count_noun(nd, "problem", "problems", n1, sizeof n1));
        }
        for (size_t i = 0; i < mbx_file_library_count(f); i++)
            print_library(mbx_library_at(f, i), i, mbx_file_is_fat(f));
        fflush(stdout); /* the summary before the line that says it is damaged */
        if (cli_damaged(argv[a], f) && status < 1)
            status = 1;
        if (cli_complete(argv[a], f))
            status = 2;
        mbx_close(f);
    }
    return status;
}
