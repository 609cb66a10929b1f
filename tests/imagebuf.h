/* Building metallib images in test code: a growable byte buffer with
 * little-endian writers and tag helpers, and a builder for a whole valid
 * library from a small description. Tests then damage the bytes they want. */
#ifndef MTLBX_TEST_IMAGEBUF_H
#define MTLBX_TEST_IMAGEBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct imagebuf {
    uint8_t *data;
    size_t len, cap;
};

void ib_free(struct imagebuf *b);
void ib_bytes(struct imagebuf *b, const void *p, size_t n);
void ib_zeros(struct imagebuf *b, size_t n);
void ib_u8(struct imagebuf *b, uint8_t v);
void ib_u16(struct imagebuf *b, uint16_t v);
void ib_u32(struct imagebuf *b, uint32_t v);
void ib_u64(struct imagebuf *b, uint64_t v);
void ib_put_u32(struct imagebuf *b, size_t at, uint32_t v);
void ib_put_u64(struct imagebuf *b, size_t at, uint64_t v);
/* A tag with a u16 length (or u32 when `wide`). */
void ib_tag(struct imagebuf *b, const char *fourcc, const void *value, size_t len);
void ib_tag_wide(struct imagebuf *b, const char *fourcc, const void *value, size_t len);
void ib_tag_str(struct imagebuf *b, const char *fourcc, const char *s); /* with NUL */
void ib_tag_u64(struct imagebuf *b, const char *fourcc, uint64_t v);
void ib_tag_pair(struct imagebuf *b, const char *fourcc, uint64_t off, uint64_t size);
void ib_endt(struct imagebuf *b);

/* A module: bitcode wrapper + `payload_len` bytes + zero padding to 16. */
void ib_module(struct imagebuf *b, const char *payload, size_t payload_len);

struct test_function {
    const char *name;               /* NULL: no NAME tag */
    uint8_t type;
    const char *payload;            /* module payload text; NULL: the name */
    bool no_mdsz;
    bool bad_hash;
    const uint8_t *public_tags;     /* raw tags (without ENDT) for the public group */
    size_t public_tags_len;
    const uint8_t *private_tags;
    size_t private_tags_len;
    const uint8_t *extra_tags;      /* raw tags appended to the function entry */
    size_t extra_tags_len;
    bool prefix_excludes_self;      /* metadata groups written the metallib-tool way */
};

enum test_ext { TEST_EXT_NONE, TEST_EXT_EMPTY, TEST_EXT_UUID };

struct test_library {
    size_t n_functions;
    const struct test_function *functions;
    enum test_ext ext;
    uint16_t version_word;          /* 0: 0x8001 */
    uint16_t patch;                 /* 0: 7 */
    uint8_t platform_byte;          /* byte 11 */
    const char *dynamic_name;       /* adds HDYN + a dynamic header with NAME */
    const char *dynamic_linked;     /* one DYNL */
    bool reflection;                /* adds RLST with one RBUF group and RFLT per function */
    const uint8_t *sources;         /* raw embedded-source section, appended last and */
    size_t sources_len;             /* located by an HSRD tag (needs ext != NONE) */
};

/* Appends a whole library to b (at its current end) and returns its start. */
size_t ib_library(struct imagebuf *b, const struct test_library *spec);

#endif
