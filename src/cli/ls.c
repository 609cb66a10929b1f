/* `mtlbx ls`: one line per function. It reads no module bytes unless
 * --verify, so listing a 300 MB library touches only its function list. */
#include "config.h"

#include "commands.h"

#include <stdio.h>
#include <string.h>

/* A line is built by hand into a buffer: with printf and snprintf per
 * field, formatting cost more than parsing the whole library (20,000 lines
 * took 2/3 of the instructions of `ls`). */
struct line {
    char buf[512];
    size_t n;
};

static void put(struct line *l, const char *s, size_t len)
{
    if (len > sizeof l->buf - l->n)
        len = sizeof l->buf - l->n;
    memcpy(l->buf + l->n, s, len);
    l->n += len;
}

static void put_str(struct line *l, const char *s) { put(l, s, strlen(s)); }

static void pad_to(struct line *l, size_t col)
{
    while (l->n < col && l->n < sizeof l->buf)
        l->buf[l->n++] = ' ';
}

/* Decimal, right-aligned in `width` columns. */
static void put_uint(struct line *l, uint64_t v, size_t width)
{
    char tmp[24];
    size_t i = sizeof tmp;
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    size_t digits = sizeof tmp - i;
    for (size_t p = digits; p < width; p++)
        put(l, " ", 1);
    put(l, tmp + i, digits);
}

static void put_hex(struct line *l, uint64_t v, int digits)
{
    static const char hex[] = "0123456789abcdef";
    char tmp[16];
    for (int i = digits - 1; i >= 0; i--, v >>= 4)
        tmp[i] = hex[v & 15];
    put(l, tmp, (size_t)digits);
}

static void print_function(const mtlbx_library *lib, size_t i, bool verify)
{
    const struct mtlbx_function *fn = mtlbx_function_at(lib, i);
    struct line l = { .n = 0 };
    char tbuf[24];
    put_uint(&l, i, 5);
    put_str(&l, "  ");
    put_str(&l, (fn->present & MTLBX_F_TYPE) ? mtlbx_function_type_name(fn->type, tbuf, sizeof tbuf) : "-");
    pad_to(&l, 20);
    if (fn->present & MTLBX_F_VERS) {
        size_t col = l.n;
        put_uint(&l, fn->air_major, 0);
        put(&l, ".", 1);
        put_uint(&l, fn->air_minor, 0);
        pad_to(&l, col + 6);
        put_uint(&l, fn->msl_major, 0);
        put(&l, ".", 1);
        put_uint(&l, fn->msl_minor, 0);
    } else {
        put_str(&l, "-     -");
    }
    pad_to(&l, 35);
    put_str(&l, "0x");
    put_hex(&l, fn->module.offset, fn->module.offset >> 32 ? 16 : 8);
    put(&l, " ", 1);
    put_uint(&l, fn->module.size, 10);
    put_str(&l, "  ");
    if (fn->hash)
        for (int b = 0; b < 8; b++)
            put_hex(&l, fn->hash[b], 2);
    else
        put_str(&l, "-               ");
    if (verify) {
        enum mtlbx_hash_state s = mtlbx_function_hash_state(lib, i);
        put_str(&l, "  ");
        put_str(&l, s == MTLBX_HASH_OK ? "ok      " : s == MTLBX_HASH_MISMATCH ? "MISMATCH" : "-       ");
    }
    put_str(&l, "  ");
    fwrite(l.buf, 1, l.n, stdout);
    cli_put_escaped(stdout, fn->name);
    putchar('\n');
}

int cmd_ls(int argc, char **argv, const struct global_options *g)
{
    (void)g;
    bool verify = false;
    const char *path = NULL;
    for (int a = 0; a < argc; a++) {
        if (strcmp(argv[a], "--verify") == 0)
            verify = true;
        else if (!path && (argv[a][0] != '-' || argv[a][1] == '\0'))
            path = argv[a];
        else {
            fprintf(stderr, "mtlbx: ls: unexpected argument '%s'\nUsage: mtlbx ls FILE [--verify]\n", argv[a]);
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "mtlbx: ls: missing FILE\nUsage: mtlbx ls FILE [--verify]\n");
        return 2;
    }
    mtlbx_file *f = cli_open(path);
    if (!f)
        return 2;
    size_t mismatches = 0;
    size_t nlib = mtlbx_library_count(f);
    for (size_t l = 0; l < nlib; l++) {
        mtlbx_library *lib = mtlbx_library_at(f, l);
        if (verify)
            mismatches += mtlbx_library_verify_all(lib, 0);
        if (nlib > 1 || mtlbx_file_is_fat(f))
            printf("# library %zu at 0x%llx\n", l, (unsigned long long)mtlbx_library_header(lib)->base);
        for (size_t i = 0; i < mtlbx_function_count(lib); i++)
            print_function(lib, i, verify);
    }
    int changed = verify ? cli_unchanged(path, f) : 0;
    mtlbx_close(f);
    if (fflush(stdout) != 0 || changed)
        return 2;
    return mismatches ? 1 : 0;
}
