/* The Mach-O reader of macho.h: the universal header, then each slice's
 * header and load commands, asked of the caller in increasing offset
 * order. Layouts are Apple's <mach-o/loader.h> and <mach-o/fat.h>:
 *   mach_header        magic cputype cpusubtype filetype ncmds sizeofcmds flags (28 bytes; 64-bit: + reserved, 32)
 *   load_command       cmd cmdsize
 *   segment_command    cmd cmdsize segname[16] vmaddr vmsize fileoff filesize maxprot initprot nsects flags (56)
 *   segment_command_64 the same with 64-bit vmaddr vmsize fileoff filesize (72)
 *   section            sectname[16] segname[16] addr size offset align reloff nreloc flags r1 r2 (68)
 *   section_64         sectname[16] segname[16] addr size(64-bit) offset align reloff nreloc flags r1 r2 r3 (80)
 *   build_version      cmd cmdsize platform minos sdk ntools (24)
 *   version_min        cmd cmdsize version sdk (16)
 *   fat_header         magic nfat_arch, big-endian (8); fat_arch cputype cpusubtype offset size align (20);
 *                      fat_arch_64 cputype cpusubtype offset(64) size(64) align reserved (32) */
#include "config.h"
#include "container/diag_list.h"
#include "container/grow.h"
#include "container/le_read.h"
#include "container/span.h"
#include "container/escape.h"
#include "container/macho.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MH_MAGIC 0xFEEDFACEu
#define MH_MAGIC_64 0xFEEDFACFu
#define MH_CIGAM 0xCEFAEDFEu
#define MH_CIGAM_64 0xCFFAEDFEu
#define FAT_MAGIC 0xCAFEBABEu
#define FAT_MAGIC_64 0xCAFEBABFu
#define LC_SEGMENT 0x1u
#define LC_SEGMENT_64 0x19u
#define SECTION_TYPE 0xFFu
#define S_ZEROFILL 0x1u
#define S_GB_ZEROFILL 0xCu
#define S_THREAD_LOCAL_ZEROFILL 0x12u

struct mtlbx_macho {
    mtlbx_macho_read_fn read;
    void *ctx;
    uint64_t size;
    struct diag_list diags;
    size_t n_slices;
    struct mtlbx_macho_slice slices[MTLBX_MACHO_MAX_SLICES];
    size_t next_slice;         /* the next slice to parse */
    /* The current slice's sections, by offset, and the next to hand out. */
    struct mtlbx_macho_section *sections;
    size_t n_sections, cap_sections, next_section;
    size_t handed_out;         /* sections handed out so far (MTLBX_MACHO_MAX_SECTIONS) */
    /* The first 4 bytes, read once: a thin file's header goes on from
     * them (every read is past the last one, for a one-pass reader). */
    uint8_t magic[4];
    bool section_cap_said;
    bool keep_empty;           /* mbx_macho_keep_empty_sections */
    mtlbx_macho_command_fn on_command;
    void *on_command_ctx;
};

static uint32_t be32(const uint8_t *p) { return rd32be(p); }
static uint64_t be64(const uint8_t *p) { return ((uint64_t)be32(p) << 32) | be32(p + 4); }

/* A slice's integers in its own byte order. */
static uint32_t u32(const struct mtlbx_macho_slice *s, const uint8_t *p) { return s->big_endian ? be32(p) : rd32(p); }
static uint64_t u64(const struct mtlbx_macho_slice *s, const uint8_t *p) { return s->big_endian ? be64(p) : rd64(p); }

static void diag(mtlbx_macho *m, enum mtlbx_severity sev, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void diag(mtlbx_macho *m, enum mtlbx_severity sev, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(&m->diags, sev, offset, fmt, ap);
    va_end(ap);
}

/* A segment or section name (up to 16 bytes from the file) as a message
 * quotes it: escaped as stdout escapes, so no control byte or newline of
 * the file reaches a terminal or starts a line of a log. */
enum { NAME_SHOWN = 16 * 4 + 1 };
static const char *name_shown(const char *name, char out[NAME_SHOWN])
{
    mbx_escape((const uint8_t *)name, strnlen(name, 16), MTLBX_ESC_TERMINAL, out, NAME_SHOWN);
    return out;
}

bool mbx_macho_magic(const uint8_t *h, size_t n)
{
    if (n < 4)
        return false;
    uint32_t le = rd32(h), be = be32(h);
    if (le == MH_MAGIC || le == MH_MAGIC_64 || be == MH_MAGIC || be == MH_MAGIC_64)
        return true;
    if ((be == FAT_MAGIC || be == FAT_MAGIC_64) && n >= 8) {
        uint32_t count = be32(h + 4);
        return count >= 1 && count <= MTLBX_MACHO_MAX_SLICES;
    }
    return false;
}

const char *mbx_macho_cpu_name(uint32_t cputype, uint32_t cpusubtype)
{
    uint32_t sub = cpusubtype & 0x00FFFFFFu; /* the high byte holds capability bits */
    switch (cputype) {
    case 0x0100000Cu: return sub == 2 ? "arm64e" : "arm64";
    case 0x0200000Cu: return "arm64_32";
    case 0x01000007u: return sub == 8 ? "x86_64h" : "x86_64";
    case 7: return "i386";
    case 12: return sub == 9 ? "armv7" : sub == 11 ? "armv7s" : sub == 12 ? "armv7k" : sub == 6 ? "armv6" : "arm";
    case 18: return "ppc";
    case 0x01000012u: return "ppc64";
    default: return NULL;
    }
}

/* ----------------------------------------------------- universal header -- */

static int by_offset(const void *a, const void *b)
{
    const struct mtlbx_macho_slice *x = a, *y = b;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

static void read_universal(mtlbx_macho *m, bool wide)
{
    uint8_t hdr[4];
    if (!m->read(m->ctx, 4, hdr, sizeof hdr)) {
        diag(m, MTLBX_ERROR, 4, "universal Mach-O header cut short");
        return;
    }
    uint32_t count = be32(hdr);
    size_t rec = wide ? 32 : 20;
    if (count > MTLBX_MACHO_MAX_SLICES) {
        diag(m, MTLBX_ERROR, 4, "universal Mach-O slice count %u is over the limit of %d: the rest are not read",
             count, MTLBX_MACHO_MAX_SLICES);
        count = MTLBX_MACHO_MAX_SLICES;
    }
    uint8_t recs[MTLBX_MACHO_MAX_SLICES * 32];
    if (count && !m->read(m->ctx, 8, recs, count * rec)) {
        diag(m, MTLBX_ERROR, 8, "universal Mach-O header cut short: %u slice records of %zu bytes do not fit", count,
             rec);
        return;
    }
    uint64_t header_end = 8 + (uint64_t)count * rec;
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *p = recs + i * rec;
        struct mtlbx_macho_slice s = { .cputype = be32(p), .cpusubtype = be32(p + 4), .record_offset = 8 + i * rec };
        s.offset = wide ? be64(p + 8) : be32(p + 8);
        s.size = wide ? be64(p + 16) : be32(p + 12);
        if (!span_within(s.offset, s.size, 0, m->size)) {
            diag(m, MTLBX_ERROR, s.record_offset,
                 "universal Mach-O slice %u (offset %llu, %llu bytes) lies outside the file", i,
                 (unsigned long long)s.offset, (unsigned long long)s.size);
            continue;
        }
        if (s.offset < header_end) {
            diag(m, MTLBX_ERROR, s.record_offset, "universal Mach-O slice %u starts inside the universal header", i);
            continue;
        }
        m->slices[m->n_slices++] = s;
    }
    /* Read in file order; a slice that starts inside the one before is
     * not read (the bytes would be two things at once). */
    qsort(m->slices, m->n_slices, sizeof *m->slices, by_offset);
    size_t kept = 0;
    uint64_t end = 0;
    for (size_t i = 0; i < m->n_slices; i++) {
        const struct mtlbx_macho_slice *s = &m->slices[i];
        if (kept && s->offset < end) {
            diag(m, MTLBX_ERROR, s->record_offset,
                 "universal Mach-O slice at offset %llu overlaps the slice before it: not read",
                 (unsigned long long)s->offset);
            continue;
        }
        end = s->offset + s->size;
        m->slices[kept++] = *s;
    }
    m->n_slices = kept;
}

mtlbx_macho *mbx_macho_open(uint64_t size, mtlbx_macho_read_fn read, void *ctx)
{
    mtlbx_macho *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->read = read;
    m->ctx = ctx;
    m->size = size;
    if (!read(ctx, 0, m->magic, sizeof m->magic)) {
        diag(m, MTLBX_ERROR, 0, "not a Mach-O file: fewer than 4 bytes");
        return m;
    }
    uint32_t be = be32(m->magic);
    if (be == FAT_MAGIC || be == FAT_MAGIC_64) {
        read_universal(m, be == FAT_MAGIC_64);
    } else {
        m->slices[0] = (struct mtlbx_macho_slice){ .offset = 0, .size = size };
        m->n_slices = 1;
    }
    return m;
}

/* ------------------------------------------------------ one slice -- */

static void add_min_os(mtlbx_macho *m, struct mtlbx_macho_slice *s, uint32_t cmd, uint32_t platform, uint32_t v,
                       uint64_t at)
{
    if (s->n_min_os == MTLBX_MACHO_MAX_MIN_OS) {
        diag(m, MTLBX_WARNING, at, "more than %d minimum-OS load commands in one slice: the rest are not read",
             MTLBX_MACHO_MAX_MIN_OS);
        return;
    }
    s->min_os[s->n_min_os++] = (struct mtlbx_macho_min_os){ cmd, platform, (uint16_t)(v >> 16), (uint8_t)(v >> 8),
                                                            (uint8_t)v, at };
}

static bool add_section(mtlbx_macho *m, const struct mtlbx_macho_section *sec)
{
    if (!grow_array((void **)&m->sections, &m->cap_sections, m->n_sections + 1, sizeof *m->sections)) {
        m->diags.out_of_memory = true;
        diag(m, MTLBX_ERROR, sec->header_offset, "out of memory listing the Mach-O sections");
        return false;
    }
    m->sections[m->n_sections++] = *sec;
    return true;
}

static void copy_name(char out[17], const uint8_t *p)
{
    memcpy(out, p, 16);
    out[16] = '\0';
}

/* The sections of one segment command (its bytes at `cmd`, `cmdsize`
 * long, at absolute offset `at`). */
static void read_segment(mtlbx_macho *m, struct mtlbx_macho_slice *s, size_t slice, const uint8_t *cmd,
                         uint32_t cmdsize, uint64_t at, uint32_t *number)
{
    size_t head = s->is64 ? 72 : 56, rec = s->is64 ? 80 : 68;
    if (cmdsize < head) {
        diag(m, MTLBX_ERROR, at, "segment command of %u bytes is shorter than its %zu-byte header", cmdsize, head);
        return;
    }
    uint32_t nsects = u32(s, cmd + head - 8);
    uint64_t room = (cmdsize - head) / rec;
    if (nsects > room) {
        diag(m, MTLBX_ERROR, at + head - 8, "segment declares %u sections, its command holds %llu", nsects,
             (unsigned long long)room);
        nsects = (uint32_t)room;
    }
    for (uint32_t k = 0; k < nsects; k++) {
        const uint8_t *p = cmd + head + k * rec;
        struct mtlbx_macho_section sec = { .header_offset = at + head + k * rec, .slice = slice,
                                           .number = ++*number };
        copy_name(sec.section, p);
        copy_name(sec.segment, p + 16);
        sec.addr = s->is64 ? u64(s, p + 32) : u32(s, p + 32);
        uint64_t size = s->is64 ? u64(s, p + 40) : u32(s, p + 36);
        uint32_t offset = u32(s, p + (s->is64 ? 48 : 40));
        uint32_t type = u32(s, p + (s->is64 ? 64 : 56)) & SECTION_TYPE;
        if (type == S_ZEROFILL || type == S_GB_ZEROFILL || type == S_THREAD_LOCAL_ZEROFILL)
            continue; /* no bytes in the file */
        if (size == 0) {
            if (m->keep_empty && offset <= s->size) {
                sec.offset = s->offset + offset;
                if (!add_section(m, &sec))
                    return;
            }
            continue;
        }
        if (!span_within(offset, size, 0, s->size)) {
            char seg[NAME_SHOWN], sect[NAME_SHOWN];
            diag(m, MTLBX_ERROR, sec.header_offset,
                 "section %s,%s (offset %u, %llu bytes) lies outside its slice of %llu bytes",
                 name_shown(sec.segment, seg), name_shown(sec.section, sect), offset, (unsigned long long)size,
                 (unsigned long long)s->size);
            continue;
        }
        sec.offset = s->offset + offset;
        sec.size = size;
        if (!add_section(m, &sec))
            return;
    }
}

static int section_by_offset(const void *a, const void *b)
{
    const struct mtlbx_macho_section *x = a, *y = b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return (x->header_offset > y->header_offset) - (x->header_offset < y->header_offset);
}

/* Reads slice i's header and load commands into m->sections. */
static void read_slice(mtlbx_macho *m, size_t i)
{
    struct mtlbx_macho_slice *s = &m->slices[i];
    s->parsed = true;
    uint8_t hdr[32];
    bool thin = s->offset == 0; /* its magic is m->magic */
    if (s->size < 28 || (thin ? (memcpy(hdr, m->magic, 4), false) : !m->read(m->ctx, s->offset, hdr, 4))) {
        diag(m, MTLBX_ERROR, s->offset, "Mach-O header cut short");
        return;
    }
    uint32_t le = rd32(hdr), be = be32(hdr);
    if (le == MH_MAGIC || le == MH_MAGIC_64) {
        s->is64 = le == MH_MAGIC_64;
    } else if (be == MH_MAGIC || be == MH_MAGIC_64) {
        s->is64 = be == MH_MAGIC_64;
        s->big_endian = true;
    } else {
        diag(m, MTLBX_ERROR, s->offset, "slice does not start with a Mach-O magic (%02x %02x %02x %02x)", hdr[0],
             hdr[1], hdr[2], hdr[3]);
        return;
    }
    size_t hsize = s->is64 ? 32 : 28;
    if (s->size < hsize || !m->read(m->ctx, s->offset + 4, hdr + 4, hsize - 4)) {
        diag(m, MTLBX_ERROR, s->offset, "Mach-O header cut short");
        return;
    }
    uint32_t cputype = u32(s, hdr + 4), cpusubtype = u32(s, hdr + 8);
    if (m->slices[i].record_offset && (cputype != s->cputype || cpusubtype != s->cpusubtype))
        diag(m, MTLBX_WARNING, s->offset, "slice header names CPU 0x%x/0x%x, its universal record 0x%x/0x%x",
             cputype, cpusubtype, s->cputype, s->cpusubtype);
    s->cputype = cputype;
    s->cpusubtype = cpusubtype;
    s->filetype = u32(s, hdr + 12);
    uint32_t ncmds = u32(s, hdr + 16), sizeofcmds = u32(s, hdr + 20);
    uint64_t cmds_at = s->offset + hsize;
    if (sizeofcmds > s->size - hsize) {
        diag(m, MTLBX_ERROR, s->offset + 20, "load commands of %u bytes run past the end of the slice (%llu bytes)",
             sizeofcmds, (unsigned long long)s->size);
        sizeofcmds = (uint32_t)(s->size - hsize > UINT32_MAX ? UINT32_MAX : s->size - hsize);
    }
    if (sizeofcmds > MTLBX_MACHO_MAX_CMDS_SIZE) {
        diag(m, MTLBX_ERROR, s->offset + 20, "load commands of %u bytes are over the limit of %u: not read",
             sizeofcmds, MTLBX_MACHO_MAX_CMDS_SIZE);
        return;
    }
    if (ncmds > sizeofcmds / 8)
        diag(m, MTLBX_ERROR, s->offset + 16, "%u load commands cannot fit in %u bytes", ncmds, sizeofcmds);
    uint8_t *cmds = malloc(sizeofcmds ? sizeofcmds : 1);
    if (!cmds) {
        m->diags.out_of_memory = true;
        diag(m, MTLBX_ERROR, cmds_at, "out of memory reading %u bytes of load commands", sizeofcmds);
        return;
    }
    if (sizeofcmds && !m->read(m->ctx, cmds_at, cmds, sizeofcmds)) {
        diag(m, MTLBX_ERROR, cmds_at, "load commands (%u bytes) cut short", sizeofcmds);
        free(cmds);
        return;
    }
    uint32_t pos = 0, number = 0;
    s->commands_offset = cmds_at;
    for (uint32_t k = 0; k < ncmds; k++) {
        uint64_t at = cmds_at + pos;
        if (sizeofcmds - pos < 8) {
            diag(m, MTLBX_ERROR, at, "load command %u of %u lies past the %u bytes of load commands", k, ncmds,
                 sizeofcmds);
            break;
        }
        uint32_t cmd = u32(s, cmds + pos) & ~0x80000000u; /* LC_REQ_DYLD */
        uint32_t cmdsize = u32(s, cmds + pos + 4);
        if (cmdsize < 8 || cmdsize > sizeofcmds - pos) {
            diag(m, MTLBX_ERROR, at + 4, "load command %u (0x%x) has size %u, %s", k, cmd, cmdsize,
                 cmdsize < 8 ? "less than 8" : "past the end of the load commands");
            break;
        }
        const uint8_t *c = cmds + pos;
        switch (cmd) {
        case LC_SEGMENT:
        case LC_SEGMENT_64:
            if ((cmd == LC_SEGMENT_64) != s->is64)
                diag(m, MTLBX_WARNING, at, "a %s segment command in a %s Mach-O", cmd == LC_SEGMENT_64 ? "64-bit" : "32-bit",
                     s->is64 ? "64-bit" : "32-bit");
            else
                read_segment(m, s, i, c, cmdsize, at, &number);
            break;
        case MTLBX_LC_BUILD_VERSION:
            if (cmdsize < 24)
                diag(m, MTLBX_ERROR, at, "LC_BUILD_VERSION of %u bytes is shorter than 24", cmdsize);
            else
                add_min_os(m, s, cmd, u32(s, c + 8), u32(s, c + 12), at);
            break;
        case MTLBX_LC_VERSION_MIN_MACOSX:
        case MTLBX_LC_VERSION_MIN_IPHONEOS:
        case MTLBX_LC_VERSION_MIN_TVOS:
        case MTLBX_LC_VERSION_MIN_WATCHOS:
            if (cmdsize < 16)
                diag(m, MTLBX_ERROR, at, "LC_VERSION_MIN command of %u bytes is shorter than 16", cmdsize);
            else
                add_min_os(m, s, cmd,
                           cmd == MTLBX_LC_VERSION_MIN_MACOSX ? 1 : cmd == MTLBX_LC_VERSION_MIN_IPHONEOS ? 2
                           : cmd == MTLBX_LC_VERSION_MIN_TVOS ? 3 : 4,
                           u32(s, c + 8), at);
            break;
        default:
            break;
        }
        if (m->on_command)
            m->on_command(m->on_command_ctx, i, cmd, c, cmdsize, at);
        pos += cmdsize;
    }
    s->commands_size = pos;
    free(cmds);
    /* By offset; a section that starts inside the load commands or inside
     * the one before it is not handed out (its bytes would be two things,
     * and a reader that only goes forward has passed them). */
    if (m->n_sections > 1) /* (sections is NULL while empty) */
        qsort(m->sections, m->n_sections, sizeof *m->sections, section_by_offset);
    size_t kept = 0;
    bool after_section = false;
    uint64_t end = cmds_at + pos; /* where the commands read end (sizeofcmds may lie) */
    for (size_t k = 0; k < m->n_sections; k++) {
        const struct mtlbx_macho_section *sec = &m->sections[k];
        if (sec->size == 0) { /* kept empty: no bytes to be two things */
            m->sections[kept++] = *sec;
            continue;
        }
        if (sec->offset < end) {
            char seg[NAME_SHOWN], sect[NAME_SHOWN];
            diag(m, MTLBX_ERROR, sec->header_offset, "section %s,%s at offset %llu overlaps %s: not read",
                 name_shown(sec->segment, seg), name_shown(sec->section, sect), (unsigned long long)sec->offset,
                 after_section ? "the section before it" : "the Mach-O header or load commands");
            continue;
        }
        after_section = true;
        end = sec->offset + sec->size;
        m->sections[kept++] = *sec;
    }
    m->n_sections = kept;
}

void mbx_macho_keep_empty_sections(mtlbx_macho *m)
{
    m->keep_empty = true;
}

void mbx_macho_on_command(mtlbx_macho *m, mtlbx_macho_command_fn fn, void *ctx)
{
    m->on_command = fn;
    m->on_command_ctx = ctx;
}

bool mbx_macho_next_section(mtlbx_macho *m, struct mtlbx_macho_section *out)
{
    while (m->next_section == m->n_sections) {
        if (m->next_slice == m->n_slices)
            return false;
        m->n_sections = m->next_section = 0;
        read_slice(m, m->next_slice++);
    }
    if (m->handed_out == MTLBX_MACHO_MAX_SECTIONS) {
        if (!m->section_cap_said)
            diag(m, MTLBX_ERROR, m->sections[m->next_section].header_offset,
                 "more than %d sections with bytes: the rest are not read", MTLBX_MACHO_MAX_SECTIONS);
        m->section_cap_said = true;
        return false;
    }
    m->handed_out++;
    *out = m->sections[m->next_section++];
    return true;
}

size_t mbx_macho_slice_count(const mtlbx_macho *m)
{
    return m->n_slices;
}

const struct mtlbx_macho_slice *mbx_macho_slice_at(const mtlbx_macho *m, size_t i)
{
    return i < m->n_slices ? &m->slices[i] : NULL;
}

size_t mbx_macho_diag_count(const mtlbx_macho *m)
{
    return m->diags.n + (m->diags.dropped ? 1 : 0);
}

const struct mtlbx_diag *mbx_macho_diag(const mtlbx_macho *m, size_t i)
{
    static _Thread_local struct mtlbx_diag scratch;
    return diag_get(&m->diags, i, &scratch);
}

bool mbx_macho_out_of_memory(const mtlbx_macho *m)
{
    return m->diags.out_of_memory;
}

void mbx_macho_close(mtlbx_macho *m)
{
    if (!m)
        return;
    diag_free(&m->diags);
    free(m->sections);
    free(m);
}
