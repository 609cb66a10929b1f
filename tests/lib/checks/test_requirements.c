/* The parser library's requirements (src/lib/checks/requirements.c) and the
 * target-triple reader (src/lib/bitcode/bitcode_triple.c): platform names and
 * triples, and a module damaged at every byte of its start, which must
 * give the right triple or none, never a crash or a read outside it (run
 * under ASan by CI). The values for whole corpus files are checked from
 * the command line by tests/cli/requirements.sh. */
#include "config.h"

#include "checks/deployment.h"
#include "checks/load_stamps.h"
#include "checks/requirements.h"
#include "model/model.h"
#include "testenv.h"
#include "container/file.h"
#include "container/functions.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

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
    cr_assert_eq(mbx_os_of_triple("air64-apple-macosx14.0.0"), MTLBX_OS_MACOS);
    cr_assert_eq(mbx_os_of_triple("air64_v23-apple-ios14.0.0"), MTLBX_OS_IOS);
    cr_assert_eq(mbx_os_of_triple("air64_v23-apple-tvos14.0.0-simulator"), MTLBX_OS_TVOS);
    cr_assert_eq(mbx_os_of_triple("air64_v23-apple-watchos7.0.0"), MTLBX_OS_WATCHOS);
    cr_assert_eq(mbx_os_of_triple("air64_v26-apple-xros1.0.0"), MTLBX_OS_VISIONOS);
    cr_assert_eq(mbx_os_of_triple("air64-apple-ios14.0-macabi"), MTLBX_OS_MACCATALYST);
    cr_assert_eq(mbx_os_of_triple("air64-apple"), MTLBX_OS_NONE);
    cr_assert_eq(mbx_os_of_triple(""), MTLBX_OS_NONE);
    cr_assert_eq(mbx_os_of_triple("x-y-linux"), MTLBX_OS_NONE);
    cr_assert_eq(mbx_os_parse("macOS", 5), MTLBX_OS_MACOS);
    cr_assert_eq(mbx_os_parse("IOS", 3), MTLBX_OS_IOS);
    cr_assert_eq(mbx_os_parse("xros", 4), MTLBX_OS_VISIONOS);
    cr_assert_eq(mbx_os_parse("macosxx", 7), MTLBX_OS_NONE);
    cr_assert_eq(mbx_os_parse("mac", 3), MTLBX_OS_NONE);
    cr_assert_str_eq(mbx_os_name(MTLBX_OS_MACCATALYST), "macCatalyst");
    cr_assert_null(mbx_os_name(MTLBX_OS_NONE));
    cr_assert_lt(mbx_os_version_cmp((struct mtlbx_os_version){ 10, 15 }, (struct mtlbx_os_version){ 11, 0 }), 0);
    cr_assert_gt(mbx_os_version_cmp((struct mtlbx_os_version){ 10, 15 }, (struct mtlbx_os_version){ 10, 9 }), 0);
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
    cr_assert_eq(mbx_open_buffer(orig, len, "fat", &f, &err), MTLBX_E_NONE);
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_library *lib = mbx_library_at(f, 0);
    cr_assert_eq(mbx_library_header(lib)->platform_byte, 0, "slice 0 should have no target OS");
    char triple[128];
    cr_assert(mbx_library_triple(lib, triple, sizeof triple));
    cr_assert_str_eq(triple, "air64-apple-macosx11.0.0");
    struct mtlbx_requires r;
    mbx_library_requires(lib, &r);
    cr_assert_eq(r.os, MTLBX_OS_MACOS);
    cr_assert(r.has_version && r.version.major == 11 && r.version.minor == 0);
    /* The explorer shows it in the library's label. */
    mtlbx_node *root = mbx_root(m), *node = NULL;
    for (size_t i = 0; i < mbx_node_child_count(m, root) && !node; i++)
        if (mbx_node_child(m, root, i)->kind == MTLBX_NODE_LIBRARY)
            node = mbx_node_child(m, root, i);
    cr_assert(node);
    char label[256];
    mbx_node_label(m, node, label, sizeof label);
    cr_assert(strstr(label, "loads on macOS 11.0+"), "library label: %s", label);
    const struct mtlbx_function *fn = mbx_function_at(lib, 0);
    uint64_t start = fn->module.offset, size = fn->module.size;
    mbx_model_close(m);
    mbx_close(f);

    size_t found = 0;
    bool last_exact = false;
    for (uint64_t k = 0; k < size && k < 400; k++) {
        memcpy(copy, orig, len);
        for (uint64_t j = start + k; j < start + size; j++)
            copy[j] = (uint8_t)(0xA5 ^ j);
        cr_assert_eq(mbx_open_buffer(copy, len, "spoiled", &f, &err), MTLBX_E_NONE);
        lib = mbx_library_at(f, 0);
        /* Damage inside the triple's own characters may change them, but
         * what comes out is always printable text within the buffer. */
        if (mbx_library_triple(lib, triple, sizeof triple)) {
            cr_assert_lt(strlen(triple), sizeof triple);
            for (const char *c = triple; *c; c++)
                cr_assert(*c >= 0x20 && *c < 0x7F, "spoiled from byte %llu", (unsigned long long)k);
            found += strcmp(triple, "air64-apple-macosx11.0.0") == 0;
            last_exact = strcmp(triple, "air64-apple-macosx11.0.0") == 0;
        } else {
            last_exact = false;
        }
        mbx_library_requires(lib, &r);
        cr_assert(r.os == MTLBX_OS_MACOS || (r.os == MTLBX_OS_NONE && !r.has_version));
        mbx_close(f);
    }
    cr_assert(last_exact, "damage after the triple should leave it whole");
    cr_assert_lt(found, 400, "damage before the triple should lose it");
}

/* What Metal decides by (checks/load_stamps.h): the triple's OS
 * version, refused a newer major and accepted a newer minor of the same
 * one (zig-metallib docs/air-format.md 1.7, measured on macOS 26.3), each
 * macOS 10.x a major of its own. */
Test(requirements, triple_versions_and_the_major_rule)
{
    struct mtlbx_os_version v;
    cr_assert(mbx_triple_os_version("air64_v28-apple-macosx26.0.0", &v) && v.major == 26 && v.minor == 0);
    cr_assert(mbx_triple_os_version("air64-apple-ios16.4.0", &v) && v.major == 16 && v.minor == 4);
    cr_assert(mbx_triple_os_version("air64-apple-ios14.0-macabi", &v) && v.major == 14 && v.minor == 0);
    cr_assert(mbx_triple_os_version("air64_v26-apple-xros1.0.0-simulator", &v) && v.major == 1);
    cr_assert(mbx_triple_os_version("air64-apple-macosx10.13", &v) && v.major == 10 && v.minor == 13);
    cr_assert_not(mbx_triple_os_version("air64-apple-macosx", &v));
    cr_assert_not(mbx_triple_os_version("air64-apple", &v));
    cr_assert_not(mbx_triple_os_version("air64-apple-macosx99999999.0", &v));
    struct mtlbx_os_version v26 = { 26, 0 }, v26_4 = { 26, 4 }, v27 = { 27, 0 }, v14 = { 14, 0 };
    cr_assert_eq(mbx_triple_accepts(MTLBX_OS_MACOS, v26, v26), MTLBX_TRIPLE_ACCEPTED);
    cr_assert_eq(mbx_triple_accepts(MTLBX_OS_MACOS, v26_4, v26), MTLBX_TRIPLE_ACCEPTED);
    cr_assert_eq(mbx_triple_accepts(MTLBX_OS_MACOS, v26, v26_4), MTLBX_TRIPLE_NEWER_MINOR);
    cr_assert_eq(mbx_triple_accepts(MTLBX_OS_MACOS, v26, v27), MTLBX_TRIPLE_REFUSED);
    cr_assert_eq(mbx_triple_accepts(MTLBX_OS_MACOS, v14, v26), MTLBX_TRIPLE_REFUSED);
    cr_assert_eq(mbx_triple_accepts(MTLBX_OS_MACOS, (struct mtlbx_os_version){ 10, 13 },
                                      (struct mtlbx_os_version){ 10, 14 }), MTLBX_TRIPLE_REFUSED);
    cr_assert_eq(mbx_platform_os(1), MTLBX_OS_MACOS);
    cr_assert_eq(mbx_platform_os(7), MTLBX_OS_IOS);
    cr_assert_eq(mbx_platform_os(6), MTLBX_OS_MACCATALYST);
    cr_assert_eq(mbx_platform_os(12), MTLBX_OS_VISIONOS);
    cr_assert_eq(mbx_platform_os(5), MTLBX_OS_NONE);
    struct mtlbx_os_version needs;
    cr_assert_eq(mbx_msl_needs(MTLBX_OS_MACOS, (struct mtlbx_os_version){ 4, 0 }, &needs), MTLBX_TABLE_FOUND);
    cr_assert(needs.major == 26 && needs.minor == 0);
    cr_assert_eq(mbx_air_needs(MTLBX_OS_IOS, (struct mtlbx_os_version){ 2, 5 }, &needs), MTLBX_TABLE_FOUND);
    cr_assert(needs.major == 16 && needs.minor == 0);
    cr_assert_eq(mbx_msl_needs(MTLBX_OS_MACOS, (struct mtlbx_os_version){ 9, 9 }, &needs), MTLBX_TABLE_UNKNOWN);
    cr_assert_eq(mbx_msl_needs(MTLBX_OS_MACOS, (struct mtlbx_os_version){ 1, 0 }, &needs), MTLBX_TABLE_OLDER);
    cr_assert_eq(mbx_msl_needs(MTLBX_OS_WATCHOS, (struct mtlbx_os_version){ 3, 0 }, &needs),
                 MTLBX_TABLE_NO_PLATFORM);
}

/* The stamps of two fixtures: every module's triple is read either way
 * (the deployment target is the highest of them, deployment.c). */
Test(requirements, load_stamps)
{
    char *path = fixture("tests/fixtures/dylib-v129.metallib");
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    cr_assert_eq(mbx_open_path(path, &f, &err), MTLBX_E_NONE, "%s", err.message);
    free(path);
    struct mtlbx_load_stamps s;
    for (int every = 0; every < 2; every++) {
        mbx_library_load_stamps(mbx_library_at(f, 0), every, &s);
        cr_assert_eq(s.os, MTLBX_OS_MACOS);
        cr_assert(s.has_triple);
        cr_assert_str_eq(s.triple, "air64_v28-apple-macosx26.0.0");
        cr_assert(s.triple_has_version && s.triple_version.major == 26 && s.triple_version.minor == 0);
        cr_assert_eq(s.triples_read, 2);
        cr_assert_eq(s.triple_functions, 2);
        cr_assert_eq(s.triples_differ, 0);
        cr_assert(s.has_header_target && s.header_os == MTLBX_OS_MACOS && s.header_version.major == 26);
        cr_assert(s.has_msl && s.msl.major == 4 && s.msl.minor == 0 && s.msl_functions == 2);
        cr_assert(s.has_air && s.air.major == 2 && s.air.minor == 8 && s.air_functions == 2);
    }
    mbx_close(f);
    /* No target OS in the header: the triple alone names the platform. */
    path = fixture("tests/fixtures/legacy-v122-ios.metallib");
    cr_assert_eq(mbx_open_path(path, &f, &err), MTLBX_E_NONE, "%s", err.message);
    free(path);
    mbx_library_load_stamps(mbx_library_at(f, 0), true, &s);
    cr_assert_not(s.has_header_target);
    cr_assert_eq(s.os, MTLBX_OS_IOS);
    cr_assert_str_eq(s.triple, "air64-apple-ios12.0.0");
    mbx_close(f);
}

/* The release level Metal compares a triple at (FORMAT.md §23). */
Test(requirements, triple_rule)
{
    const struct mtlbx_os_version v13 = { 13, 0 }, v13_2 = { 13, 2 }, v14 = { 14, 0 }, v10_13 = { 10, 13 },
                                  v10_14 = { 10, 14 };
    cr_assert_eq(mbx_triple_accepts(MTLBX_OS_MACOS, v13, v13_2), MTLBX_TRIPLE_NEWER_MINOR);
    cr_assert_eq(mbx_triple_accepts(MTLBX_OS_MACOS, v13_2, v13), MTLBX_TRIPLE_ACCEPTED);
    cr_assert_eq(mbx_triple_accepts(MTLBX_OS_MACOS, v13_2, v14), MTLBX_TRIPLE_REFUSED);
    cr_assert_eq(mbx_triple_accepts(MTLBX_OS_MACOS, v10_13, v10_14), MTLBX_TRIPLE_REFUSED);
    cr_assert_eq(mbx_triple_accepts(MTLBX_OS_IOS, v13, v13_2), MTLBX_TRIPLE_NEWER_MINOR);
    struct mtlbx_os_version r = mbx_os_release(MTLBX_OS_MACOS, v13_2);
    cr_assert(r.major == 13 && r.minor == 0);
    r = mbx_os_release(MTLBX_OS_MACOS, v10_14);
    cr_assert(r.major == 10 && r.minor == 14);
}
