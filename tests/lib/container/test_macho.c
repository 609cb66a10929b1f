/* The Mach-O reader (src/lib/container/macho.c) on the inputs that
 * tests/mkmacho.py writes as the fuzz seeds (tests/fuzz/seeds/macho: our
 * own bytes, checked against LLVM's llvm-otool when they were made):
 * sections and minimum OS of thin, 32-bit, big-endian and universal
 * files, and one diagnostic with an offset, never a crash, for each kind
 * of damage. */
#include "config.h"

#include "container/macho.h"
#include "testenv.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

struct buf {
    uint8_t *data;
    size_t size;
};

static struct buf seed(const char *name)
{
    const char *src = testenv("MTLBX_SRCDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fuzz/seeds/macho/%s", src ? src : ".", name);
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp, "cannot open %s", path);
    struct buf b = { malloc(1 << 20), 0 };
    b.size = fread(b.data, 1, 1 << 20, fp);
    fclose(fp);
    return b;
}

static bool read_at(void *ctx, uint64_t offset, void *out, size_t n)
{
    const struct buf *b = ctx;
    if (offset > b->size || n > b->size - offset)
        return false;
    memcpy(out, b->data + offset, n);
    return true;
}

/* The sections of a seed whose bytes start with MTLB, and its diagnostics. */
struct seen {
    size_t n_libs, n_diags;
    struct mtlbx_macho_section libs[8];
    struct mtlbx_macho_slice slices[8];
    char first_diag[256];
    uint64_t first_diag_offset;
};

static struct seen walk(const char *name)
{
    struct buf b = seed(name);
    struct seen s = { 0 };
    mtlbx_macho *m = mbx_macho_open(b.size, read_at, &b);
    cr_assert_not_null(m);
    struct mtlbx_macho_section sec;
    while (mbx_macho_next_section(m, &sec))
        if (sec.size >= 4 && memcmp(b.data + sec.offset, "MTLB", 4) == 0 && s.n_libs < 8) {
            s.slices[s.n_libs] = *mbx_macho_slice_at(m, sec.slice);
            s.libs[s.n_libs++] = sec;
        }
    s.n_diags = mbx_macho_diag_count(m);
    if (s.n_diags) {
        snprintf(s.first_diag, sizeof s.first_diag, "%s", mbx_macho_diag(m, 0)->message);
        s.first_diag_offset = mbx_macho_diag(m, 0)->offset;
    }
    mbx_macho_close(m);
    free(b.data);
    return s;
}

Test(macho, magic)
{
    struct buf b = seed("thin-arm64");
    cr_assert(mbx_macho_magic(b.data, b.size));
    free(b.data);
    b = seed("universal");
    cr_assert(mbx_macho_magic(b.data, b.size));
    free(b.data);
    /* A Java class file: CA FE BA BE, then its version (52 = Java 8). */
    static const uint8_t java[8] = { 0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52 };
    cr_assert_not(mbx_macho_magic(java, sizeof java));
    static const uint8_t fat_metallib[8] = { 0xCB, 0xFE, 0xBA, 0xBE, 0, 0, 0, 2 };
    cr_assert_not(mbx_macho_magic(fat_metallib, sizeof fat_metallib));
    cr_assert_not(mbx_macho_magic((const uint8_t *)"MTLB", 4));
}

Test(macho, thin_64_bit)
{
    struct seen s = walk("thin-arm64");
    cr_assert_eq(s.n_diags, 0, "%s", s.first_diag);
    cr_assert_eq(s.n_libs, 1);
    cr_assert_str_eq(s.libs[0].segment, "__TEXT");
    cr_assert_str_eq(s.libs[0].section, "metal_basic");
    cr_assert_eq(s.libs[0].size, 96);
    cr_assert_str_eq(mbx_macho_cpu_name(s.slices[0].cputype, s.slices[0].cpusubtype), "arm64");
    cr_assert_eq(s.slices[0].n_min_os, 1);
    cr_assert_eq(s.slices[0].min_os[0].cmd, MTLBX_LC_BUILD_VERSION);
    cr_assert_eq(s.slices[0].min_os[0].platform, 1);
    cr_assert_eq(s.slices[0].min_os[0].major, 14);
    cr_assert_eq(s.slices[0].min_os[0].minor, 0);
}

Test(macho, thin_32_bit_and_big_endian)
{
    struct seen s = walk("thin-i386-version-min");
    cr_assert_eq(s.n_diags, 0, "%s", s.first_diag);
    cr_assert_eq(s.n_libs, 1);
    cr_assert_str_eq(mbx_macho_cpu_name(s.slices[0].cputype, s.slices[0].cpusubtype), "i386");
    cr_assert_eq(s.slices[0].min_os[0].cmd, MTLBX_LC_VERSION_MIN_MACOSX);
    cr_assert_eq(s.slices[0].min_os[0].major, 10);
    cr_assert_eq(s.slices[0].min_os[0].minor, 13);
    s = walk("thin-ppc-big-endian");
    cr_assert_eq(s.n_diags, 0, "%s", s.first_diag);
    cr_assert_eq(s.n_libs, 1);
    cr_assert_str_eq(s.libs[0].segment, "__DATA");
    cr_assert_str_eq(s.libs[0].section, "metallib");
    cr_assert(s.slices[0].big_endian);
    cr_assert_eq(s.slices[0].n_min_os, 0);
}

Test(macho, universal)
{
    for (int wide = 0; wide < 2; wide++) {
        struct seen s = walk(wide ? "universal64" : "universal");
        cr_assert_eq(s.n_diags, 0, "%s", s.first_diag);
        cr_assert_eq(s.n_libs, 2);
        cr_assert_str_eq(mbx_macho_cpu_name(s.slices[0].cputype, s.slices[0].cpusubtype), "arm64");
        cr_assert_str_eq(mbx_macho_cpu_name(s.slices[1].cputype, s.slices[1].cpusubtype), "x86_64");
        cr_assert_gt(s.libs[1].offset, s.libs[0].offset);
        cr_assert_eq(s.slices[1].min_os[0].major, 14);
    }
}

/* Each damage: at least one diagnostic, the section it spoils not handed
 * out as a library where it cannot be, and no crash (ASan in CI). */
static void damaged(const char *name, size_t libs, const char *words)
{
    struct seen s = walk(name);
    cr_assert_geq(s.n_diags, 1, "%s: no diagnostic", name);
    cr_assert_eq(s.n_libs, libs, "%s: %zu libraries, wanted %zu", name, s.n_libs, libs);
    cr_assert(strstr(s.first_diag, words), "%s: first diagnostic \"%s\" lacks \"%s\"", name, s.first_diag, words);
}

Test(macho, hostile)
{
    damaged("hostile-ncmds", 1, "load commands cannot fit");
    damaged("hostile-cmdsize0", 0, "less than 8");
    damaged("hostile-cmdsize-past", 0, "past the end of the load commands");
    damaged("hostile-sizeofcmds-past", 1, "run past the end of the slice");
    damaged("hostile-nsects", 1, "declares 100000 sections");
    damaged("hostile-section-past", 0, "lies outside its slice");
    damaged("hostile-section-overlap", 0, "overlaps");
    damaged("hostile-fat-count", 0, "lies outside the file");
    damaged("hostile-fat-overlap", 1, "overlaps the slice before it");
    damaged("hostile-truncated", 0, "run past the end of the slice");
}
