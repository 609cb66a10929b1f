/* A GPU slice of a fat file (gpu_slice.h, FORMAT §24). The Mach-O reader
 * (macho.c) walks the header and load commands and hands out the
 * sections, every count and size bounded there; this file keeps what it
 * passes by (LC_SEGMENT_64 ranges, LC_SYMTAB, LC_NOTE), reads the symbol
 * table, pairs each `__NAME_begin` with its `__NAME_end` and
 * `__NAME_agc.main`, opens the `__TEXT,__metallib` section as a library,
 * and lists the pieces that claim the slice's bytes.
 *
 * Symbols are nlist_64 (n_strx u32, n_type u8, n_sect u8, n_desc u16,
 * n_value u64); a value is an address, turned into a file offset through
 * the section its n_sect names (in the one public sample the segment's
 * address equals its file offset, which is not assumed). */
#include "config.h"
#include "container/file_handle.h"
#include "container/grow.h"
#include "container/le_read.h"
#include "container/library.h"
#include "container/report.h"
#include "container/span.h"
#include "container/escape.h"
#include "container/macho.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MH_MAGIC_64 0xFEEDFACFu
#define LC_SYMTAB 0x2u
#define LC_SEGMENT_64 0x19u
#define LC_NOTE 0x31u
#define N_STAB 0xE0u
#define N_TYPE 0x0Eu
#define N_SECT 0x0Eu
#define NLIST_64 16u
/* Bounds on what a hostile slice may ask for: real archives hold a few
 * dozen symbols per function and a handful of segments and notes. */
#define MAX_SYMBOLS (1u << 20)
#define MAX_SEGMENTS 256
#define MAX_NOTES 64
#define MAX_FUNCTIONS 65536
#define MAX_NAME 4096

struct segment {
    char name[17];
    uint64_t offset, size;     /* absolute, clipped to the slice */
};

struct note {
    char owner[17];
    uint64_t offset, size;     /* absolute */
    uint64_t at;               /* of the command */
};

struct reader {
    mtlbx_file *f;
    struct mtlbx_gpu_slice *g;
    bool has_symtab;
    uint32_t symoff, nsyms, stroff, strsize;
    uint64_t symtab_at;
    struct segment *segments;
    size_t n_segments, cap_segments;
    struct note *notes;
    size_t n_notes, cap_notes;
    size_t cap_pieces, cap_functions;
    bool functions_capped;     /* MAX_FUNCTIONS was said */
    bool failed;               /* memory ran out */
};

/* A symbol the pairing looks at: one of the three suffixes. */
enum mark { MARK_BEGIN, MARK_END, MARK_ENTRY };

struct mark_sym {
    const uint8_t *base;       /* the name less its suffix */
    size_t base_len;
    enum mark mark;
    uint64_t offset;           /* file offset of the value, UINT64_MAX: none */
    size_t section;            /* index in g->sections, SIZE_MAX: none */
    uint64_t at;               /* of its nlist entry */
};

const char *mbx_fat_arch_name(uint32_t cputype)
{
    switch (cputype) {
    case MTLBX_CPU_AIR64: return "air64";
    case MTLBX_CPU_APPLE_GPU: return "applegpu";
    case MTLBX_CPU_AMD_GPU: return "amdgpu";
    case MTLBX_CPU_INTEL_GPU: return "intelgpu";
    default: return NULL;
    }
}

uint32_t mbx_fat_arch_cputype(const char *name)
{
    static const uint32_t all[] = { MTLBX_CPU_AIR64, MTLBX_CPU_APPLE_GPU, MTLBX_CPU_AMD_GPU, MTLBX_CPU_INTEL_GPU };
    for (size_t i = 0; name && i < sizeof all / sizeof *all; i++)
        if (strcmp(name, mbx_fat_arch_name(all[i])) == 0)
            return all[i];
    return 0;
}

static void esc(const void *bytes, size_t len, char *out, size_t size)
{
    mbx_escape(bytes, len, MTLBX_ESC_TERMINAL, out, size);
}

/* ------------------------------------------------------ load commands -- */

struct window {
    const mtlbx_file *f;
    uint64_t base, size;
};

static bool read_slice_bytes(void *ctx, uint64_t off, void *buf, size_t n)
{
    const struct window *w = ctx;
    if (off > w->size || n > w->size - off)
        return false;
    memcpy(buf, w->f->data + w->base + off, n);
    return true;
}

static void on_command(void *ctx, size_t slice, uint32_t cmd, const uint8_t *c, uint32_t size, uint64_t at)
{
    (void)slice;
    struct reader *r = ctx;
    struct mtlbx_gpu_slice *g = r->g;
    at += g->offset; /* the reader's offsets are the slice's */
    switch (cmd) {
    case LC_SEGMENT_64: {
        if (size < 72)
            return; /* the Mach-O reader says so */
        if (r->n_segments == MAX_SEGMENTS) {
            diag_add(&r->f->diags, MTLBX_ERROR, at, "GPU slice %zu: more than %d segments: the rest are not read",
                     g->slice, MAX_SEGMENTS);
            return;
        }
        uint64_t off = rd64(c + 40), len = rd64(c + 48);
        if (len == 0)
            return;
        if (!span_within(off, len, 0, g->size)) {
            char name[80];
            esc(c + 8, strnlen((const char *)c + 8, 16), name, sizeof name);
            diag_add(&r->f->diags, MTLBX_ERROR, at + 40,
                     "GPU slice %zu: segment %s (file offset %llu, %llu bytes) lies outside the slice of %llu bytes",
                     g->slice, name, (unsigned long long)off, (unsigned long long)len, (unsigned long long)g->size);
            return;
        }
        if (!grow_array((void **)&r->segments, &r->cap_segments, r->n_segments + 1, sizeof *r->segments)) {
            r->failed = true;
            return;
        }
        struct segment *s = &r->segments[r->n_segments++];
        memcpy(s->name, c + 8, 16);
        s->name[16] = '\0';
        s->offset = g->offset + off;
        s->size = len;
        return;
    }
    case LC_SYMTAB:
        if (size < 24) {
            diag_add(&r->f->diags, MTLBX_ERROR, at, "GPU slice %zu: LC_SYMTAB of %u bytes is shorter than 24",
                     g->slice, size);
            return;
        }
        if (r->has_symtab) {
            diag_add(&r->f->diags, MTLBX_ERROR, at, "GPU slice %zu: a second LC_SYMTAB: not read", g->slice);
            return;
        }
        r->has_symtab = true;
        r->symoff = rd32(c + 8);
        r->nsyms = rd32(c + 12);
        r->stroff = rd32(c + 16);
        r->strsize = rd32(c + 20);
        r->symtab_at = at;
        return;
    case LC_NOTE: {
        if (size < 40) {
            diag_add(&r->f->diags, MTLBX_ERROR, at, "GPU slice %zu: LC_NOTE of %u bytes is shorter than 40",
                     g->slice, size);
            return;
        }
        uint64_t off = rd64(c + 24), len = rd64(c + 32);
        if (!span_within(off, len, 0, g->size)) {
            diag_add(&r->f->diags, MTLBX_ERROR, at + 24,
                     "GPU slice %zu: note data (offset %llu, %llu bytes) lies outside the slice of %llu bytes",
                     g->slice, (unsigned long long)off, (unsigned long long)len, (unsigned long long)g->size);
            return;
        }
        if (r->n_notes == MAX_NOTES) {
            diag_add(&r->f->diags, MTLBX_ERROR, at, "GPU slice %zu: more than %d notes: the rest are not read",
                     g->slice, MAX_NOTES);
            return;
        }
        if (len == 0)
            return;
        if (!grow_array((void **)&r->notes, &r->cap_notes, r->n_notes + 1, sizeof *r->notes)) {
            r->failed = true;
            return;
        }
        struct note *n = &r->notes[r->n_notes++];
        memcpy(n->owner, c + 8, 16);
        n->owner[16] = '\0';
        n->offset = g->offset + off;
        n->size = len;
        n->at = at;
        return;
    }
    default:
        return;
    }
}

static int section_by_header(const void *a, const void *b)
{
    const struct mtlbx_gpu_section *x = a, *y = b;
    return (x->header_offset > y->header_offset) - (x->header_offset < y->header_offset);
}

/* Header, load commands, segments, notes and sections, through the
 * Mach-O reader. False when the slice is not a Mach-O it can read. */
static bool read_commands(struct reader *r, uint32_t **numbers)
{
    struct mtlbx_gpu_slice *g = r->g;
    struct window w = { r->f, g->offset, g->size };
    mtlbx_macho *m = mbx_macho_open(g->size, read_slice_bytes, &w);
    if (!m) {
        r->failed = true;
        return false;
    }
    mbx_macho_keep_empty_sections(m);
    mbx_macho_on_command(m, on_command, r);
    struct mtlbx_macho_section sec;
    size_t cap = 0, cap_numbers = 0;
    while (mbx_macho_next_section(m, &sec)) {
        if (!grow_array((void **)&g->sections, &cap, g->n_sections + 1, sizeof *g->sections) ||
            !grow_array((void **)numbers, &cap_numbers, g->n_sections + 1, sizeof **numbers)) {
            r->failed = true;
            break;
        }
        struct mtlbx_gpu_section *s = &g->sections[g->n_sections];
        memcpy(s->segment, sec.segment, sizeof s->segment);
        memcpy(s->section, sec.section, sizeof s->section);
        s->offset = g->offset + sec.offset;
        s->size = sec.size;
        s->addr = sec.addr;
        s->header_offset = g->offset + sec.header_offset;
        (*numbers)[g->n_sections++] = sec.number;
    }
    const struct mtlbx_macho_slice *s = mbx_macho_slice_at(m, 0);
    bool ok = s && s->parsed && s->is64 && !s->big_endian && (s->commands_offset || s->commands_size);
    if (s && s->parsed && s->commands_offset) {
        g->read = true;
        g->filetype = s->filetype;
        if (!s->is64 || s->big_endian)
            diag_add(&r->f->diags, MTLBX_WARNING, g->offset, "GPU slice %zu is a %s%s Mach-O, not 64-bit little-endian",
                     g->slice, s->is64 ? "64-bit" : "32-bit", s->big_endian ? " big-endian" : "");
        if (s->cputype != g->cputype)
            diag_add(&r->f->diags, MTLBX_WARNING, g->offset + 4,
                     "GPU slice %zu: its Mach-O header names CPU 0x%08x, its fat record 0x%08x", g->slice,
                     s->cputype, g->cputype);
        uint64_t cmds = g->offset + s->commands_offset;
        uint64_t hsize = s->is64 ? 32 : 28;
        struct mtlbx_gpu_piece head = { MTLBX_GPU_PIECE_HEADER, g->offset, hsize, 0, "" };
        struct mtlbx_gpu_piece lc = { MTLBX_GPU_PIECE_COMMANDS, cmds, s->commands_size, 0, "" };
        if (grow_array((void **)&g->pieces, &r->cap_pieces, g->n_pieces + 2, sizeof *g->pieces)) {
            g->pieces[g->n_pieces++] = head;
            if (lc.size)
                g->pieces[g->n_pieces++] = lc;
        } else {
            r->failed = true;
        }
    }
    for (size_t i = 0; i < mbx_macho_diag_count(m); i++) {
        const struct mtlbx_diag *d = mbx_macho_diag(m, i);
        if (d)
            diag_add(&r->f->diags, d->severity, g->offset + d->offset, "GPU slice %zu: %s", g->slice, d->message);
    }
    if (mbx_macho_out_of_memory(m))
        r->failed = true;
    mbx_macho_close(m);
    /* Sections in load-command order, their numbers with them. */
    if (g->n_sections > 1) {
        struct { struct mtlbx_gpu_section s; uint32_t n; } *pairs = malloc(g->n_sections * sizeof *pairs);
        if (!pairs) {
            r->failed = true;
            return ok;
        }
        for (size_t i = 0; i < g->n_sections; i++) {
            pairs[i].s = g->sections[i];
            pairs[i].n = (*numbers)[i];
        }
        qsort(pairs, g->n_sections, sizeof *pairs, section_by_header); /* s is first */
        for (size_t i = 0; i < g->n_sections; i++) {
            g->sections[i] = pairs[i].s;
            (*numbers)[i] = pairs[i].n;
        }
        free(pairs);
    }
    return ok;
}

/* ------------------------------------------------------------ symbols -- */

static bool ends_with(const uint8_t *s, size_t n, const char *suffix, size_t *base_len)
{
    size_t k = strlen(suffix);
    if (n <= k || memcmp(s + n - k, suffix, k) != 0)
        return false;
    *base_len = n - k;
    return true;
}

/* The section (index) and file offset of a symbol's value; false when it
 * lies in none (an `_end` may be the section's end). */
static bool place(const struct mtlbx_gpu_slice *g, const uint32_t *numbers, uint8_t n_sect, uint64_t value,
                  size_t *section, uint64_t *offset)
{
    for (size_t i = 0; i < g->n_sections; i++) {
        const struct mtlbx_gpu_section *s = &g->sections[i];
        if (numbers[i] != n_sect || value < s->addr || value - s->addr > s->size)
            continue;
        *section = i;
        *offset = s->offset + (value - s->addr);
        return true;
    }
    return false;
}

static int mark_cmp(const void *a, const void *b)
{
    const struct mark_sym *x = a, *y = b;
    size_t n = x->base_len < y->base_len ? x->base_len : y->base_len;
    int c = memcmp(x->base, y->base, n);
    if (c)
        return c;
    if (x->base_len != y->base_len)
        return x->base_len < y->base_len ? -1 : 1;
    if (x->mark != y->mark)
        return (int)x->mark - (int)y->mark;
    return (x->at > y->at) - (x->at < y->at);
}

static bool is_section(const struct mtlbx_gpu_section *s, const char *name)
{
    return strcmp(s->section, name) == 0;
}

/* The symbol table, bounded: its entries and strings inside the slice,
 * each string index inside the strings, each name NUL-terminated there. */
static struct mark_sym *read_marks(struct reader *r, const uint32_t *numbers, size_t *count)
{
    struct mtlbx_gpu_slice *g = r->g;
    mtlbx_file *f = r->f;
    *count = 0;
    if (!r->has_symtab)
        return NULL;
    uint32_t nsyms = r->nsyms;
    if (!span_within(r->symoff, (uint64_t)nsyms * NLIST_64, 0, g->size)) {
        diag_add(&f->diags, MTLBX_ERROR, r->symtab_at + 8,
                 "GPU slice %zu: symbol table (offset %u, %u symbols) lies outside the slice of %llu bytes", g->slice,
                 r->symoff, nsyms, (unsigned long long)g->size);
        return NULL;
    }
    if (!span_within(r->stroff, r->strsize, 0, g->size)) {
        diag_add(&f->diags, MTLBX_ERROR, r->symtab_at + 16,
                 "GPU slice %zu: string table (offset %u, %u bytes) lies outside the slice of %llu bytes", g->slice,
                 r->stroff, r->strsize, (unsigned long long)g->size);
        return NULL;
    }
    if (nsyms > MAX_SYMBOLS) {
        diag_add(&f->diags, MTLBX_ERROR, r->symtab_at + 12,
                 "GPU slice %zu: %u symbols are over the limit of %u: the rest are not read", g->slice, nsyms,
                 MAX_SYMBOLS);
        nsyms = MAX_SYMBOLS;
    }
    struct mtlbx_gpu_piece syms = { MTLBX_GPU_PIECE_SYMBOLS, g->offset + r->symoff, (uint64_t)r->nsyms * NLIST_64,
                                    0, "" };
    struct mtlbx_gpu_piece strs = { MTLBX_GPU_PIECE_STRINGS, g->offset + r->stroff, r->strsize, 0, "" };
    if (!grow_array((void **)&g->pieces, &r->cap_pieces, g->n_pieces + 2, sizeof *g->pieces)) {
        r->failed = true;
        return NULL;
    }
    if (syms.size)
        g->pieces[g->n_pieces++] = syms;
    if (strs.size)
        g->pieces[g->n_pieces++] = strs;
    const uint8_t *tab = f->data + g->offset + r->symoff, *str = f->data + g->offset + r->stroff;
    struct mark_sym *v = NULL;
    size_t n = 0, cap = 0;
    unsigned bad_index = 0;
    for (uint32_t i = 0; i < nsyms; i++) {
        const uint8_t *e = tab + (uint64_t)i * NLIST_64;
        uint64_t at = g->offset + r->symoff + (uint64_t)i * NLIST_64;
        uint32_t strx = rd32(e);
        uint8_t type = e[4], n_sect = e[5];
        if (strx >= r->strsize) {
            if (bad_index++ < 8)
                diag_add(&f->diags, MTLBX_ERROR, at,
                         "GPU slice %zu: symbol %u names string %u, past the %u-byte string table", g->slice, i, strx,
                         r->strsize);
            continue;
        }
        size_t left = r->strsize - strx, len = strnlen((const char *)str + strx, left);
        if (len == left) {
            diag_add(&f->diags, MTLBX_ERROR, at, "GPU slice %zu: symbol %u's name runs past the string table",
                     g->slice, i);
            continue;
        }
        if ((type & N_STAB) || (type & N_TYPE) != N_SECT)
            continue;
        struct mark_sym m = { .base = str + strx, .at = at, .offset = UINT64_MAX, .section = SIZE_MAX };
        if (ends_with(m.base, len, "_begin", &m.base_len))
            m.mark = MARK_BEGIN;
        else if (ends_with(m.base, len, "_end", &m.base_len))
            m.mark = MARK_END;
        else if (ends_with(m.base, len, "_agc.main", &m.base_len))
            m.mark = MARK_ENTRY;
        else
            continue;
        if (m.base_len > MAX_NAME)
            continue;
        if (!place(g, numbers, n_sect, rd64(e + 8), &m.section, &m.offset)) {
            char name[160];
            esc(str + strx, len, name, sizeof name);
            diag_add(&f->diags, MTLBX_ERROR, at + 8,
                     "GPU slice %zu: symbol %s (address 0x%llx, section %u) lies in no section of the slice",
                     g->slice, name, (unsigned long long)rd64(e + 8), n_sect);
            continue;
        }
        if (!grow_array((void **)&v, &cap, n + 1, sizeof *v)) {
            r->failed = true;
            break;
        }
        v[n++] = m;
    }
    if (bad_index > 8)
        diag_add(&f->diags, MTLBX_ERROR, r->symtab_at,
                 "GPU slice %zu: %u symbols name strings past the string table (the first 8 are listed)", g->slice,
                 bad_index);
    *count = n;
    return v;
}

/* The AIR function of that name: in the slice's own embedded library
 * first, then in any library of the file. */
static void match_air(const mtlbx_file *f, long embedded, struct mtlbx_gpu_function *fn)
{
    fn->library = fn->function = -1;
    if (embedded >= 0) {
        long k = mbx_library_function_find(f->libraries[embedded], fn->name);
        if (k >= 0) {
            fn->library = embedded;
            fn->function = k;
            return;
        }
    }
    for (size_t l = 0; l < f->n_libraries; l++) {
        long k = mbx_library_function_find(f->libraries[l], fn->name);
        if (k >= 0) {
            fn->library = (long)l;
            fn->function = k;
            return;
        }
    }
}

static char *dup_bytes(const uint8_t *p, size_t n)
{
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, p, n);
        s[n] = '\0';
    }
    return s;
}

/* One `_begin` with its `_end` (and `_agc.main`, if any) among the marks
 * of one base name [lo, hi). */
static void add_function(struct reader *r, const struct mark_sym *begin, const struct mark_sym *lo,
                         const struct mark_sym *hi)
{
    struct mtlbx_gpu_slice *g = r->g;
    mtlbx_file *f = r->f;
    const struct mark_sym *end = NULL, *entry = NULL;
    for (const struct mark_sym *m = lo; m < hi; m++) {
        if (m->mark == MARK_END && !end)
            end = m;
        if (m->mark == MARK_ENTRY && !entry)
            entry = m;
    }
    char name[160];
    esc(begin->base, begin->base_len, name, sizeof name);
    if (!end) {
        diag_add(&f->diags, MTLBX_ERROR, begin->at, "GPU slice %zu: %s_begin has no %s_end: its code's size is unknown",
                 g->slice, name, name);
        return;
    }
    if (end->section != begin->section || end->offset < begin->offset) {
        diag_add(&f->diags, MTLBX_ERROR, end->at, "GPU slice %zu: %s_end (0x%llx) is not after %s_begin (0x%llx) in its section",
                 g->slice, name, (unsigned long long)end->offset, name, (unsigned long long)begin->offset);
        return;
    }
    const struct mtlbx_gpu_section *sec = &g->sections[begin->section];
    /* The brackets around the embedded library and the descriptor are
     * not functions. */
    if (is_section(sec, "__metallib") || is_section(sec, "__descriptor") || is_section(sec, "__reflection"))
        return;
    if (g->n_functions == MAX_FUNCTIONS) {
        if (!r->functions_capped)
            diag_add(&f->diags, MTLBX_ERROR, begin->at, "GPU slice %zu: more than %d functions: the rest are not read",
                     g->slice, MAX_FUNCTIONS);
        r->functions_capped = true;
        return;
    }
    if (!grow_array((void **)&g->functions, &r->cap_functions, g->n_functions + 1, sizeof *g->functions)) {
        r->failed = true;
        return;
    }
    struct mtlbx_gpu_function fn = { .offset = begin->offset, .size = end->offset - begin->offset,
                                     .symbol_offset = begin->at, .section = begin->section };
    /* The GPU linker writes `__` before the AIR name. */
    size_t skip = begin->base_len >= 2 && memcmp(begin->base, "__", 2) == 0 ? 2 : 0;
    fn.symbol = dup_bytes(begin->base, begin->base_len + 6); /* with "_begin" */
    fn.name = dup_bytes(begin->base + skip, begin->base_len - skip);
    fn.name_len = begin->base_len - skip;
    if (!fn.symbol || !fn.name) {
        free((char *)fn.symbol);
        free((char *)fn.name);
        r->failed = true;
        return;
    }
    if (entry) {
        if (entry->offset < fn.offset || entry->offset >= fn.offset + fn.size)
            diag_add(&f->diags, MTLBX_WARNING, entry->at,
                     "GPU slice %zu: %s_agc.main (0x%llx) lies outside its code (0x%llx, %llu bytes)", g->slice, name,
                     (unsigned long long)entry->offset, (unsigned long long)fn.offset, (unsigned long long)fn.size);
        fn.has_entry = true;
        fn.entry = entry->offset;
    }
    match_air(f, g->embedded_library, &fn);
    if (fn.library < 0) {
        char shown[160];
        esc(fn.name, fn.name_len, shown, sizeof shown);
        diag_add(&f->diags, MTLBX_WARNING, begin->at,
                 "GPU slice %zu holds code for %s, a function no AIR library of the file has", g->slice, shown);
    }
    g->functions[g->n_functions++] = fn;
}

static int function_by_offset(const void *a, const void *b)
{
    const struct mtlbx_gpu_function *x = a, *y = b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return (x->symbol_offset > y->symbol_offset) - (x->symbol_offset < y->symbol_offset);
}

static void read_functions(struct reader *r, const uint32_t *numbers)
{
    size_t n;
    struct mark_sym *v = read_marks(r, numbers, &n);
    if (!v)
        return;
    qsort(v, n, sizeof *v, mark_cmp);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && v[j].base_len == v[i].base_len && memcmp(v[j].base, v[i].base, v[i].base_len) == 0)
            j++;
        /* Marks of one name, _begin first: one function (a second
         * _begin of the same name is the same code said twice). */
        if (v[i].mark == MARK_BEGIN)
            add_function(r, &v[i], v + i, v + j);
        i = j;
    }
    free(v);
    struct mtlbx_gpu_slice *g = r->g;
    if (g->n_functions > 1)
        qsort(g->functions, g->n_functions, sizeof *g->functions, function_by_offset);
    for (size_t i = 1; i < g->n_functions; i++) {
        const struct mtlbx_gpu_function *a = &g->functions[i - 1], *b = &g->functions[i];
        if (b->offset < a->offset + a->size) {
            char x[160], y[160];
            esc(a->name, a->name_len, x, sizeof x);
            esc(b->name, b->name_len, y, sizeof y);
            diag_add(&r->f->diags, MTLBX_WARNING, b->offset, "GPU slice %zu: the code of %s overlaps that of %s",
                     g->slice, y, x);
        }
    }
}

/* ------------------------------------------------- embedded library -- */

static void open_embedded(struct reader *r)
{
    struct mtlbx_gpu_slice *g = r->g;
    mtlbx_file *f = r->f;
    for (size_t i = 0; i < g->n_sections; i++) {
        const struct mtlbx_gpu_section *s = &g->sections[i];
        if (!is_section(s, "__metallib") || s->size == 0)
            continue;
        if (s->size < 4 || memcmp(f->data + s->offset, "MTLB", 4) != 0) {
            diag_add(&f->diags, MTLBX_ERROR, s->offset,
                     "GPU slice %zu: its __metallib section does not start with MTLB", g->slice);
            return;
        }
        /* The library's own declared size when the section holds it (the
         * section is padded to 16 bytes after it), else the section. */
        uint64_t size = s->size;
        if (s->size >= 0x18) {
            uint64_t declared = rd64(f->data + s->offset + 0x10);
            if (declared && declared <= s->size)
                size = declared;
        }
        mtlbx_library *lib = library_open(f, f->n_libraries, s->offset, size);
        if (!lib) {
            file_out_of_memory(f, s->offset, "out of memory opening the library of GPU slice %zu", g->slice);
            return;
        }
        g->embedded_library = (long)f->n_libraries;
        f->libraries[f->n_libraries++] = lib;
        return; /* one library a slice */
    }
}

/* -------------------------------------------------------------- pieces -- */

static int piece_by_offset(const void *a, const void *b)
{
    const struct mtlbx_gpu_piece *x = a, *y = b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return (x->size < y->size) - (x->size > y->size);
}

static const char *piece_name(const struct mtlbx_gpu_slice *g, const struct mtlbx_gpu_piece *p, char *buf, size_t n)
{
    switch (p->kind) {
    case MTLBX_GPU_PIECE_HEADER: return "the Mach-O header";
    case MTLBX_GPU_PIECE_COMMANDS: return "the load commands";
    case MTLBX_GPU_PIECE_NOTE: return "a note's data";
    case MTLBX_GPU_PIECE_SYMBOLS: return "the symbol table";
    case MTLBX_GPU_PIECE_STRINGS: return "the string table";
    case MTLBX_GPU_PIECE_SECTION: {
        char seg[80], sec[80];
        esc(g->sections[p->index].segment, strlen(g->sections[p->index].segment), seg, sizeof seg);
        esc(g->sections[p->index].section, strlen(g->sections[p->index].section), sec, sizeof sec);
        snprintf(buf, n, "section %s,%s", seg, sec);
        return buf;
    }
    default: return "padding";
    }
}

static bool all_zero(const uint8_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* Notes and sections join the header, commands and tables; what lies
 * between them inside a segment is its padding; pieces that overlap are
 * findings (the layout walks each byte once). */
static void finish_pieces(struct reader *r)
{
    struct mtlbx_gpu_slice *g = r->g;
    size_t want = g->n_pieces + r->n_notes + g->n_sections;
    if (!grow_array((void **)&g->pieces, &r->cap_pieces, want, sizeof *g->pieces)) {
        r->failed = true;
        return;
    }
    for (size_t i = 0; i < r->n_notes; i++)
        g->pieces[g->n_pieces++] = (struct mtlbx_gpu_piece){ MTLBX_GPU_PIECE_NOTE, r->notes[i].offset,
                                                             r->notes[i].size, i, "" };
    for (size_t i = 0; i < r->n_notes; i++)
        memcpy(g->pieces[g->n_pieces - r->n_notes + i].name, r->notes[i].owner, 17);
    for (size_t i = 0; i < g->n_sections; i++)
        if (g->sections[i].size)
            g->pieces[g->n_pieces++] = (struct mtlbx_gpu_piece){ MTLBX_GPU_PIECE_SECTION, g->sections[i].offset,
                                                                 g->sections[i].size, i, "" };
    if (g->n_pieces > 1) /* (pieces is NULL while empty: a slice whose header could not be read) */
        qsort(g->pieces, g->n_pieces, sizeof *g->pieces, piece_by_offset);
    size_t n = g->n_pieces;
    uint64_t end = g->offset;
    for (size_t i = 0; i <= n; i++) {
        uint64_t next = i < n ? g->pieces[i].offset : g->offset + g->size;
        if (i < n && next < end) {
            char a[200], b[200];
            diag_add(&r->f->diags, MTLBX_ERROR, next, "GPU slice %zu: %s overlaps %s", g->slice,
                     piece_name(g, &g->pieces[i], a, sizeof a), piece_name(g, &g->pieces[i - 1], b, sizeof b));
        }
        /* A gap of zeros inside one segment is its padding; other bytes
         * there (a table its command points at wrongly) are explained by
         * nothing, and the layout says so. */
        bool zeros = next > end && all_zero(r->f->data + end, next - end);
        for (size_t s = 0; zeros && s < r->n_segments; s++) {
            const struct segment *seg = &r->segments[s];
            if (end < seg->offset || next > seg->offset + seg->size)
                continue;
            if (!grow_array((void **)&g->pieces, &r->cap_pieces, g->n_pieces + 1, sizeof *g->pieces)) {
                r->failed = true;
                return;
            }
            struct mtlbx_gpu_piece *p = &g->pieces[g->n_pieces++];
            *p = (struct mtlbx_gpu_piece){ MTLBX_GPU_PIECE_PADDING, end, next - end, s, "" };
            memcpy(p->name, seg->name, 17);
            break;
        }
        if (i < n && g->pieces[i].offset + g->pieces[i].size > end)
            end = g->pieces[i].offset + g->pieces[i].size;
    }
    if (g->n_pieces > 1)
        qsort(g->pieces, g->n_pieces, sizeof *g->pieces, piece_by_offset);
}

/* -------------------------------------------------------------- public -- */

void gpu_slice_read(mtlbx_file *f, struct mtlbx_gpu_slice *g)
{
    struct reader r = { .f = f, .g = g };
    uint32_t *numbers = NULL;
    g->embedded_library = -1;
    if (g->size < 4 || rd32(f->data + g->offset) != MH_MAGIC_64)
        diag_add(&f->diags, MTLBX_WARNING, g->offset, "GPU slice %zu does not start with the 64-bit Mach-O magic",
                 g->slice);
    read_commands(&r, &numbers);
    open_embedded(&r);
    read_functions(&r, numbers);
    finish_pieces(&r);
    if (r.failed)
        file_out_of_memory(f, g->offset, "out of memory reading GPU slice %zu", g->slice);
    free(numbers);
    free(r.segments);
    free(r.notes);
}

void gpu_slice_free(struct mtlbx_gpu_slice *g)
{
    for (size_t i = 0; i < g->n_functions; i++) {
        free((char *)g->functions[i].name);
        free((char *)g->functions[i].symbol);
    }
    free(g->functions);
    free(g->sections);
    free(g->pieces);
}

size_t mbx_gpu_slice_count(const mtlbx_file *f) { return f->n_gpu; }

const struct mtlbx_gpu_slice *mbx_gpu_slice_at(const mtlbx_file *f, size_t i)
{
    return i < f->n_gpu ? &f->gpu[i] : NULL;
}

const struct mtlbx_gpu_slice *mbx_gpu_slice_of(const mtlbx_file *f, size_t slice)
{
    for (size_t i = 0; i < f->n_gpu; i++)
        if (f->gpu[i].slice == slice)
            return &f->gpu[i];
    return NULL;
}

const struct mtlbx_gpu_slice *mbx_gpu_slice_embedding(const mtlbx_file *f, size_t library)
{
    for (size_t i = 0; i < f->n_gpu; i++)
        if (f->gpu[i].embedded_library >= 0 && (size_t)f->gpu[i].embedded_library == library)
            return &f->gpu[i];
    return NULL;
}

const struct mtlbx_gpu_function *mbx_gpu_code_for(const struct mtlbx_gpu_slice *g, const uint8_t *name,
                                                    size_t len)
{
    for (size_t i = 0; g && i < g->n_functions; i++)
        if (g->functions[i].name_len == len && memcmp(g->functions[i].name, name, len) == 0)
            return &g->functions[i];
    return NULL;
}

long mbx_fat_slice_library(const mtlbx_file *f, size_t slice)
{
    const struct mtlbx_gpu_slice *g = mbx_gpu_slice_of(f, slice);
    if (g)
        return g->embedded_library;
    if (slice >= f->n_slices)
        return -1;
    for (size_t l = 0; l < f->n_libraries; l++)
        if (f->libraries[l]->header.base == f->slices[slice].offset && !mbx_gpu_slice_embedding(f, l))
            return (long)l;
    return -1;
}
