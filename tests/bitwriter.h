/* A small LLVM bitstream writer for tests: synthetic bitcode modules, valid
 * or broken on purpose, built bit by bit (tests/lib/bitcode/test_interface_hostile.c). */
#ifndef MTLBX_TEST_BITWRITER_H
#define MTLBX_TEST_BITWRITER_H

#include <stddef.h>
#include <stdint.h>

struct bitwriter {
    uint8_t *buf;
    size_t cap;
    uint64_t bit;
    unsigned width;            /* abbrev id width of the current block */
    size_t depth;
    struct { size_t len_word; unsigned outer_width; } stack[16384];
};

/* Starts a stream with the "BC\xC0\xDE" magic (abbrev width 2). */
struct bitwriter *bw_new(void);
void bw_free(struct bitwriter *w);
void bw_fixed(struct bitwriter *w, uint64_t v, unsigned n);
void bw_vbr(struct bitwriter *w, uint64_t v, unsigned n);
void bw_align32(struct bitwriter *w);
/* ENTER_SUBBLOCK id with a new abbrev width; the length word is patched by bw_end. */
void bw_enter(struct bitwriter *w, uint32_t block_id, unsigned new_width);
void bw_end(struct bitwriter *w);
/* An UNABBREV_RECORD. */
void bw_record(struct bitwriter *w, uint32_t code, const uint64_t *ops, size_t n);
/* A record whose operands are the bytes of `s` (names, old strings). */
void bw_record_str(struct bitwriter *w, uint32_t code, const char *s);
/* An UNABBREV_RECORD of n operands passed as uint64_t arguments (at most 16). */
void bw_recordv(struct bitwriter *w, uint32_t code, size_t n, ...);
/* A top-level STRTAB block (abbreviation [literal 1, blob]) whose blob
 * is the bytes of `s`, its length given as `claimed` (strlen(s) for a
 * valid one). */
void bw_strtab(struct bitwriter *w, const char *s, uint64_t claimed);
/* Bytes written so far (whole 32-bit words). */
size_t bw_size(struct bitwriter *w);

#endif
