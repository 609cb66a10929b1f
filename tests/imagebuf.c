/* See imagebuf.h. */
#include "config.h"

#include "imagebuf.h"

#include <gcrypt.h>
#include <stdlib.h>
#include <string.h>

static void grow(struct imagebuf *b, size_t n)
{
    if (b->len + n <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n)
        cap *= 2;
    b->data = realloc(b->data, cap);
    if (!b->data)
        abort();
    b->cap = cap;
}

void ib_free(struct imagebuf *b)
{
    free(b->data);
    *b = (struct imagebuf){ 0 };
}

void ib_bytes(struct imagebuf *b, const void *p, size_t n)
{
    grow(b, n);
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
}

void ib_zeros(struct imagebuf *b, size_t n)
{
    grow(b, n);
    memset(b->data + b->len, 0, n);
    b->len += n;
}

void ib_u8(struct imagebuf *b, uint8_t v) { ib_bytes(b, &v, 1); }
void ib_u16(struct imagebuf *b, uint16_t v) { uint8_t p[2] = { (uint8_t)v, (uint8_t)(v >> 8) }; ib_bytes(b, p, 2); }
void ib_u32(struct imagebuf *b, uint32_t v) { ib_u16(b, (uint16_t)v); ib_u16(b, (uint16_t)(v >> 16)); }
void ib_u64(struct imagebuf *b, uint64_t v) { ib_u32(b, (uint32_t)v); ib_u32(b, (uint32_t)(v >> 32)); }

void ib_put_u32(struct imagebuf *b, size_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b->data[at + i] = (uint8_t)(v >> (8 * i));
}

void ib_put_u64(struct imagebuf *b, size_t at, uint64_t v)
{
    ib_put_u32(b, at, (uint32_t)v);
    ib_put_u32(b, at + 4, (uint32_t)(v >> 32));
}

void ib_tag(struct imagebuf *b, const char *fourcc, const void *value, size_t len)
{
    ib_bytes(b, fourcc, 4);
    ib_u16(b, (uint16_t)len);
    ib_bytes(b, value, len);
}

void ib_tag_wide(struct imagebuf *b, const char *fourcc, const void *value, size_t len)
{
    ib_bytes(b, fourcc, 4);
    ib_u32(b, (uint32_t)len);
    ib_bytes(b, value, len);
}

void ib_tag_str(struct imagebuf *b, const char *fourcc, const char *s) { ib_tag(b, fourcc, s, strlen(s) + 1); }

void ib_tag_u64(struct imagebuf *b, const char *fourcc, uint64_t v)
{
    ib_bytes(b, fourcc, 4);
    ib_u16(b, 8);
    ib_u64(b, v);
}

void ib_tag_pair(struct imagebuf *b, const char *fourcc, uint64_t off, uint64_t size)
{
    ib_bytes(b, fourcc, 4);
    ib_u16(b, 16);
    ib_u64(b, off);
    ib_u64(b, size);
}

void ib_endt(struct imagebuf *b) { ib_bytes(b, "ENDT", 4); }

void ib_module(struct imagebuf *b, const char *payload, size_t payload_len)
{
    size_t bitcode = 4 + payload_len;
    size_t total = (20 + bitcode + 15) & ~(size_t)15;
    ib_u32(b, 0x0B17C0DE);
    ib_u32(b, 0);
    ib_u32(b, 20);
    ib_u32(b, (uint32_t)bitcode);
    ib_u32(b, 0xFFFFFFFF);
    ib_bytes(b, "BC\xC0\xDE", 4);
    ib_bytes(b, payload, payload_len);
    ib_zeros(b, total - 20 - bitcode);
}

static void group(struct imagebuf *b, const uint8_t *tags, size_t len, bool excludes_self)
{
    ib_u32(b, (uint32_t)(len + 4 + (excludes_self ? 0 : 4)));
    ib_bytes(b, tags, len);
    ib_endt(b);
}

size_t ib_library(struct imagebuf *b, const struct test_library *spec)
{
    size_t base = b->len, n = spec->n_functions;
    struct imagebuf mods = { 0 }, pub = { 0 }, priv = { 0 };
    size_t *mod_off = calloc(n + 1, sizeof *mod_off), *mod_len = calloc(n + 1, sizeof *mod_len);
    size_t *pub_off = calloc(n + 1, sizeof *pub_off), *priv_off = calloc(n + 1, sizeof *priv_off);
    for (size_t i = 0; i < n; i++) {
        const struct test_function *f = &spec->functions[i];
        const char *payload = f->payload ? f->payload : f->name ? f->name : "";
        mod_off[i] = mods.len;
        ib_module(&mods, payload, strlen(payload));
        mod_len[i] = mods.len - mod_off[i];
        pub_off[i] = pub.len;
        group(&pub, f->public_tags, f->public_tags_len, f->prefix_excludes_self);
        priv_off[i] = priv.len;
        group(&priv, f->private_tags, f->private_tags_len, f->prefix_excludes_self);
    }

    /* Header, patched at the end. */
    ib_zeros(b, 88);
    memcpy(b->data + base, "MTLB", 4);
    b->data[base + 4] = (uint8_t)(spec->version_word ? spec->version_word : 0x8001);
    b->data[base + 5] = (uint8_t)((spec->version_word ? spec->version_word : 0x8001) >> 8);
    b->data[base + 6] = 2;
    b->data[base + 8] = (uint8_t)(spec->patch ? spec->patch : 7);
    b->data[base + 11] = spec->platform_byte;

    size_t fl = b->len;
    ib_u32(b, (uint32_t)n);
    size_t *rflt_at = calloc(n + 1, sizeof *rflt_at);
    for (size_t i = 0; i < n; i++) {
        const struct test_function *f = &spec->functions[i];
        size_t entry = b->len;
        ib_u32(b, 0);
        if (f->name)
            ib_tag_str(b, "NAME", f->name);
        ib_tag(b, "TYPE", &f->type, 1);
        uint8_t digest[32];
        gcry_md_hash_buffer(GCRY_MD_SHA256, digest, mods.data + mod_off[i], mod_len[i]);
        if (f->bad_hash)
            digest[0] ^= 0xFF;
        ib_tag(b, "HASH", digest, 32);
        ib_bytes(b, "OFFT", 4);
        ib_u16(b, 24);
        ib_u64(b, pub_off[i]);
        ib_u64(b, priv_off[i]);
        ib_u64(b, mod_off[i]);
        uint16_t vers[4] = { 2, 6, 3, 1 };
        ib_bytes(b, "VERS", 4);
        ib_u16(b, 8);
        for (int v = 0; v < 4; v++)
            ib_u16(b, vers[v]);
        if (!f->no_mdsz)
            ib_tag_u64(b, "MDSZ", mod_len[i]);
        if (spec->reflection) {
            rflt_at[i] = b->len + 6;
            ib_tag_u64(b, "RFLT", 0);
        }
        ib_bytes(b, f->extra_tags, f->extra_tags_len);
        ib_endt(b);
        ib_put_u32(b, entry, (uint32_t)(b->len - entry));
    }
    size_t fl_size = b->len - fl - 4;

    size_t hdyn_at = 0, rlst_at = 0, hsrd_at = 0;
    if (spec->ext != TEST_EXT_NONE) {
        if (spec->sources) {
            hsrd_at = b->len + 6;
            ib_tag_pair(b, "HSRD", 0, 0);
        }
        if (spec->dynamic_name) {
            hdyn_at = b->len + 6;
            ib_tag_pair(b, "HDYN", 0, 0);
        }
        if (spec->reflection) {
            rlst_at = b->len + 6;
            ib_tag_pair(b, "RLST", 0, 0);
        }
        if (spec->ext == TEST_EXT_UUID)
            ib_tag(b, "UUID", "0123456789abcdef", 16);
        ib_endt(b);
    }
    size_t pub_at = b->len;
    ib_bytes(b, pub.data, pub.len);
    size_t priv_at = b->len;
    ib_bytes(b, priv.data, priv.len);
    size_t mods_at = b->len;
    ib_bytes(b, mods.data, mods.len);

    if (hdyn_at) {
        size_t at = b->len;
        ib_tag_str(b, "NAME", spec->dynamic_name);
        if (spec->dynamic_linked)
            ib_tag_str(b, "DYNL", spec->dynamic_linked);
        ib_endt(b);
        ib_put_u64(b, hdyn_at, at - base);
        ib_put_u64(b, hdyn_at + 8, b->len - at);
    }
    if (rlst_at) {
        /* One reflection group per function; RFLT points at each. */
        size_t at = b->len;
        ib_u32(b, (uint32_t)n);
        for (size_t i = 0; i < n; i++) {
            size_t g = b->len;
            ib_u32(b, 0);
            ib_tag_wide(b, "RBUF", "\0\0\0\0AIRR", 8);
            ib_endt(b);
            ib_put_u32(b, g, (uint32_t)(b->len - g));
            ib_put_u64(b, rflt_at[i], g - at);
        }
        ib_put_u64(b, rlst_at, at - base);
        ib_put_u64(b, rlst_at + 8, b->len - at);
    }

    if (hsrd_at) {
        size_t at = b->len;
        ib_bytes(b, spec->sources, spec->sources_len);
        ib_put_u64(b, hsrd_at, at - base);
        ib_put_u64(b, hsrd_at + 8, spec->sources_len);
    }

    ib_put_u64(b, base + 16, b->len - base);
    ib_put_u64(b, base + 24, fl - base);
    ib_put_u64(b, base + 32, fl_size);
    ib_put_u64(b, base + 40, pub_at - base);
    ib_put_u64(b, base + 48, pub.len);
    ib_put_u64(b, base + 56, priv_at - base);
    ib_put_u64(b, base + 64, priv.len);
    ib_put_u64(b, base + 72, mods_at - base);
    ib_put_u64(b, base + 80, mods.len);
    ib_free(&mods);
    ib_free(&pub);
    ib_free(&priv);
    free(mod_off);
    free(mod_len);
    free(pub_off);
    free(priv_off);
    free(rflt_at);
    return base;
}
