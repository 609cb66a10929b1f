/* The parser library's requirements (src/lib/checks/requirements.c) and the
 * target-triple reader (src/lib/bitcode/bitcode_triple.c): platform names and
 * triples, and a module damaged at every byte of its start, which must
 * give the right triple or none, never a crash or a read outside it (run
 * under ASan by CI). The values for whole corpus files are checked from
 * the command line by tests/cli/requirements.sh. */
#include "config.h"

#include "mtlbx_private.h"
#include "testenv.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *fixture(const char *rel)
{
    const char *src = testenv("MTLBX_SRCDIR");
    size_t n = strlen(src ? src : ".") + strlen(rel) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", src ? src : ".", rel);
    return p;
}

Test(requirements, triples_and_names)
{
    cr_assert_eq(mtlbx_os_of_triple("air64-apple-macosx14.0.0"), MTLBX_OS_MACOS);
    cr_assert_eq(mtlbx_os_of_triple("air64_v23-apple-ios14.0.0"), MTLBX_OS_IOS);
    cr_assert_eq(mtlbx_os_of_triple("air64_v23-apple-tvos14.0.0-simulator"), MTLBX_OS_TVOS);
    cr_assert_eq(mtlbx_os_of_triple("air64_v23-apple-watchos7.0.0"), MTLBX_OS_WATCHOS);
    cr_assert_eq(mtlbx_os_of_triple("air64_v26-apple-xros1.0.0"), MTLBX_OS_VISIONOS);
    cr_assert_eq(mtlbx_os_of_triple("air64-apple-ios14.0-macabi"), MTLBX_OS_MACCATALYST);
    cr_assert_eq(mtlbx_os_of_triple("air64-apple"), MTLBX_OS_NONE);
    cr_assert_eq(mtlbx_os_of_triple(""), MTLBX_OS_NONE);
    cr_assert_eq(mtlbx_os_of_triple("x-y-linux"), MTLBX_OS_NONE);
    cr_assert_eq(mtlbx_os_parse("macOS", 5), MTLBX_OS_MACOS);
    cr_assert_eq(mtlbx_os_parse("IOS", 3), MTLBX_OS_IOS);
    cr_assert_eq(mtlbx_os_parse("xros", 4), MTLBX_OS_VISIONOS);
    cr_assert_eq(mtlbx_os_parse("macosxx", 7), MTLBX_OS_NONE);
    cr_assert_eq(mtlbx_os_parse("mac", 3), MTLBX_OS_NONE);
    cr_assert_str_eq(mtlbx_os_name(MTLBX_OS_MACCATALYST), "macCatalyst");
    cr_assert_null(mtlbx_os_name(MTLBX_OS_NONE));
    cr_assert_lt(mtlbx_os_version_cmp((struct mtlbx_os_version){ 10, 15 }, (struct mtlbx_os_version){ 11, 0 }), 0);
    cr_assert_gt(mtlbx_os_version_cmp((struct mtlbx_os_version){ 10, 15 }, (struct mtlbx_os_version){ 10, 9 }), 0);
}

/* Slice 0 of the fat fixture records no target OS: its platform is its
 * module's triple. Every byte of that module's first 400 is then spoiled
 * in turn (and everything after it): the reader finds the triple, or
 * none, or (damage inside its characters) printable text, and the requirement is macOS 11.0 or unknown, nothing else. */
Test(requirements, damaged_module_triple)
{
    char *path = fixture("tests/fixtures/fat.metallib");
    FILE *in = fopen(path, "rb");
    cr_assert(in, "cannot open %s", path);
    static uint8_t orig[1 << 16], copy[1 << 16];
    size_t len = fread(orig, 1, sizeof orig, in);
    cr_assert(feof(in));
    fclose(in);
    free(path);

    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    cr_assert_eq(mtlbx_open_buffer(orig, len, "fat", &f, &err), MTLBX_E_NONE);
    mtlbx_model *m = mtlbx_model_open(f);
    mtlbx_library *lib = mtlbx_library_at(f, 0);
    cr_assert_eq(mtlbx_library_header(lib)->platform_byte, 0, "slice 0 should have no target OS");
    char triple[128];
    cr_assert(mtlbx_library_triple(lib, triple, sizeof triple));
    cr_assert_str_eq(triple, "air64-apple-macosx11.0.0");
    struct mtlbx_requires r;
    mtlbx_library_requires(lib, &r);
    cr_assert_eq(r.os, MTLBX_OS_MACOS);
    cr_assert(r.has_version && r.version.major == 11 && r.version.minor == 0);
    /* The explorer shows it in the library's label. */
    mtlbx_node *root = mtlbx_root(m), *node = NULL;
    for (size_t i = 0; i < mtlbx_node_child_count(m, root) && !node; i++)
        if (mtlbx_node_child(m, root, i)->kind == MTLBX_NODE_LIBRARY)
            node = mtlbx_node_child(m, root, i);
    cr_assert(node);
    char label[256];
    mtlbx_node_label(m, node, label, sizeof label);
    cr_assert(strstr(label, "loads on macOS 11.0+"), "library label: %s", label);
    const struct mtlbx_function *fn = mtlbx_function_at(lib, 0);
    uint64_t start = fn->module.offset, size = fn->module.size;
    mtlbx_model_close(m);
    mtlbx_close(f);

    size_t found = 0;
    bool last_exact = false;
    for (uint64_t k = 0; k < size && k < 400; k++) {
        memcpy(copy, orig, len);
        for (uint64_t j = start + k; j < start + size; j++)
            copy[j] = (uint8_t)(0xA5 ^ j);
        cr_assert_eq(mtlbx_open_buffer(copy, len, "spoiled", &f, &err), MTLBX_E_NONE);
        lib = mtlbx_library_at(f, 0);
        /* Damage inside the triple's own characters may change them, but
         * what comes out is always printable text within the buffer. */
        if (mtlbx_library_triple(lib, triple, sizeof triple)) {
            cr_assert_lt(strlen(triple), sizeof triple);
            for (const char *c = triple; *c; c++)
                cr_assert(*c >= 0x20 && *c < 0x7F, "spoiled from byte %llu", (unsigned long long)k);
            found += strcmp(triple, "air64-apple-macosx11.0.0") == 0;
            last_exact = strcmp(triple, "air64-apple-macosx11.0.0") == 0;
        } else {
            last_exact = false;
        }
        mtlbx_library_requires(lib, &r);
        cr_assert(r.os == MTLBX_OS_MACOS || (r.os == MTLBX_OS_NONE && !r.has_version));
        mtlbx_close(f);
    }
    cr_assert(last_exact, "damage after the triple should leave it whole");
    cr_assert_lt(found, 400, "damage before the triple should lose it");
}
