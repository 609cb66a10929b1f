/* See bitwriter.h. */
#include "bitwriter.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct bitwriter *bw_new(void)
{
    struct bitwriter *w = calloc(1, sizeof *w);
    w->width = 2;
    bw_fixed(w, 'B', 8);
    bw_fixed(w, 'C', 8);
    bw_fixed(w, 0xC0, 8);
    bw_fixed(w, 0xDE, 8);
    return w;
}

void bw_free(struct bitwriter *w)
{
    free(w->buf);
    free(w);
}

void bw_fixed(struct bitwriter *w, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++, w->bit++) {
        size_t byte = (size_t)(w->bit / 8);
        if (byte + 8 >= w->cap) {
            size_t cap = w->cap ? w->cap * 2 : 256;
            w->buf = realloc(w->buf, cap);
            memset(w->buf + w->cap, 0, cap - w->cap);
            w->cap = cap;
        }
        if ((v >> i) & 1)
            w->buf[byte] |= (uint8_t)(1u << (w->bit % 8));
    }
}

void bw_vbr(struct bitwriter *w, uint64_t v, unsigned n)
{
    const uint64_t more = UINT64_C(1) << (n - 1);
    while (v >= more) {
        bw_fixed(w, (v & (more - 1)) | more, n);
        v >>= n - 1;
    }
    bw_fixed(w, v, n);
}

void bw_align32(struct bitwriter *w)
{
    while (w->bit % 32)
        bw_fixed(w, 0, 1);
}

void bw_enter(struct bitwriter *w, uint32_t block_id, unsigned new_width)
{
    bw_fixed(w, 1, w->width);
    bw_vbr(w, block_id, 8);
    bw_vbr(w, new_width, 4);
    bw_align32(w);
    w->stack[w->depth].len_word = (size_t)(w->bit / 8);
    w->stack[w->depth].outer_width = w->width;
    w->depth++;
    bw_fixed(w, 0, 32);
    w->width = new_width;
}

void bw_end(struct bitwriter *w)
{
    bw_fixed(w, 0, w->width);
    bw_align32(w);
    w->depth--;
    size_t at = w->stack[w->depth].len_word;
    uint32_t words = (uint32_t)((w->bit / 8 - at - 4) / 4);
    for (int i = 0; i < 4; i++)
        w->buf[at + (size_t)i] = (uint8_t)(words >> (8 * i));
    w->width = w->stack[w->depth].outer_width;
}

void bw_record(struct bitwriter *w, uint32_t code, const uint64_t *ops, size_t n)
{
    bw_fixed(w, 3, w->width);
    bw_vbr(w, code, 6);
    bw_vbr(w, n, 6);
    for (size_t i = 0; i < n; i++)
        bw_vbr(w, ops[i], 6);
}

void bw_record_str(struct bitwriter *w, uint32_t code, const char *s)
{
    size_t n = strlen(s);
    uint64_t *ops = malloc((n ? n : 1) * sizeof *ops);
    for (size_t i = 0; i < n; i++)
        ops[i] = (uint8_t)s[i];
    bw_record(w, code, ops, n);
    free(ops);
}

void bw_recordv(struct bitwriter *w, uint32_t code, size_t n, ...)
{
    uint64_t ops[16];
    va_list ap;
    va_start(ap, n);
    for (size_t i = 0; i < n && i < 16; i++)
        ops[i] = va_arg(ap, uint64_t);
    va_end(ap);
    bw_record(w, code, ops, n < 16 ? n : 16);
}

void bw_strtab(struct bitwriter *w, const char *s, uint64_t claimed)
{
    bw_enter(w, 23, 3);
    bw_fixed(w, 2, 3); /* DEFINE_ABBREV [literal 1, blob] */
    bw_vbr(w, 2, 5);
    bw_fixed(w, 1, 1);
    bw_vbr(w, 1, 8);
    bw_fixed(w, 0, 1);
    bw_fixed(w, 5, 3);
    bw_fixed(w, 4, 3); /* that abbreviation */
    bw_vbr(w, claimed, 6);
    bw_align32(w);
    for (const char *c = s; *c; c++)
        bw_fixed(w, (uint8_t)*c, 8);
    bw_align32(w);
    bw_end(w);
}

size_t bw_size(struct bitwriter *w)
{
    return (size_t)((w->bit + 31) / 32 * 4);
}
