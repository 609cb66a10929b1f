/* `mtlbx ls`: one line per function, or with --names the names alone. It
 * reads no module bytes unless --verify, so listing a 300 MB library
 * touches only its function list. */
#include "config.h"

#include "cli/commands.h"
#include "cli/inspect/gpu_text.h"
#include "checks/hash.h"
#include "checks/validate.h"
#include "container/header.h"
#include "container/value_names.h"

#include <stdio.h>
#include <string.h>

/* Each line is built by hand into a buffer: with printf and snprintf per
 * field, formatting cost twice as much as parsing the whole library. Every
 * field has a bounded width (u16 versions, u64 numbers, type names of at
 * most 16 bytes), so a line never reaches LINE_MAX_BYTES and the writers
 * below need no bounds checks. */
#define LINE_MAX_BYTES 512

static char *put_str(char *p, const char *s)
{
    while (*s)
        *p++ = *s++;
    return p;
}

static char *pad_to(char *p, const char *line, size_t col)
{
    while ((size_t)(p - line) < col)
        *p++ = ' ';
    return p;
}

/* Decimal, right-aligned in `width` columns. */
static char *put_uint(char *p, uint64_t v, int width)
{
    char tmp[20];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (int i = n; i < width; i++)
        *p++ = ' ';
    while (n)
        *p++ = tmp[--n];
    return p;
}

static char *put_hex(char *p, uint64_t v, int digits)
{
    static const char hex[] = "0123456789abcdef";
    for (int i = digits - 1; i >= 0; i--, v >>= 4)
        p[i] = hex[v & 15];
    return p + digits;
}

static void print_function(const mtlbx_library *lib, size_t i, bool verify)
{
    const struct mtlbx_function *fn = mbx_function_at(lib, i);
    char line[LINE_MAX_BYTES], tbuf[24], *p = line;
    p = put_uint(p, i, 5);
    p = put_str(p, "  ");
    p = put_str(p, (fn->present & MTLBX_F_TYPE) ? mbx_function_type_name(fn->type, tbuf, sizeof tbuf) : "-");
    p = pad_to(p, line, 20);
    if (fn->present & MTLBX_F_VERS) {
        char *col = p;
        p = put_uint(p, fn->air_major, 0);
        *p++ = '.';
        p = put_uint(p, fn->air_minor, 0);
        p = pad_to(p, col, 6);
        p = put_uint(p, fn->msl_major, 0);
        *p++ = '.';
        p = put_uint(p, fn->msl_minor, 0);
    } else {
        p = put_str(p, "-     -");
    }
    p = pad_to(p, line, 35);
    if (fn->module_valid) {
        p = put_str(p, "0x");
        p = put_hex(p, fn->module.offset, fn->module.offset >> 32 ? 16 : 8);
        *p++ = ' ';
        p = put_uint(p, fn->module.size, 10);
    } else {
        /* No module where its entry says (mtlbx check says why): no
         * offset and size that look like one. */
        p = put_str(p, "-                   -");
    }
    p = put_str(p, "  ");
    if (fn->hash)
        for (int b = 0; b < 8; b++)
            p = put_hex(p, fn->hash[b], 2);
    else
        p = put_str(p, "-               ");
    if (verify) {
        enum mtlbx_hash_state s = mbx_function_hash_state(lib, i);
        p = put_str(p, s == MTLBX_HASH_MATCHES ? "  ok      " : s == MTLBX_HASH_MISMATCH ? "  MISMATCH" : "  -       ");
    }
    p = put_str(p, "  ");
    fwrite(line, 1, (size_t)(p - line), stdout);
    cli_put_escaped(stdout, fn->name);
    putchar('\n');
}

/* --names: the name alone, for shell completion. */
static void print_name(const mtlbx_library *lib, size_t i)
{
    cli_put_escaped(stdout, mbx_function_at(lib, i)->name);
    putchar('\n');
}

/* One file: 0 ok, 1 a hash mismatch, a module that is not bitcode or a
 * damaged library (what can be read is still listed), 2 unreadable. */
static int list_file(const char *path, bool verify, bool names_only)
{
    mtlbx_file *f = cli_open(path);
    if (!f)
        return 2;
    size_t mismatches = 0, not_bitcode = 0;
    size_t nlib = mbx_file_library_count(f);
    for (size_t l = 0; l < nlib; l++) {
        mtlbx_library *lib = mbx_library_at(f, l);
        if (verify)
            mismatches += mbx_library_verify_all(lib, 0);
        if (!names_only && (nlib > 1 || mbx_file_is_fat(f)))
            printf("# library %zu at 0x%llx\n", l, (unsigned long long)mbx_library_header(lib)->base);
        for (size_t i = 0; i < mbx_library_function_count(lib); i++) {
            if (names_only)
                print_name(lib, i);
            else
                print_function(lib, i, verify);
            /* The names are read from the function list's pages: let
             * them go behind us, or a million entries stay resident. */
            if (i % 4096 == 4095) {
                mbx_library_release_pages(lib);
                mbx_library_forget(lib, i);
            }
            if (!verify)
                continue;
            const struct mtlbx_function *fn = mbx_function_at(lib, i);
            uint64_t at = fn->module.offset;
            /* The full listing shows a mismatch in its column; names
             * alone have no column for it. At the HASH, as check has it. */
            if (names_only && fn->hash && mbx_function_hash_state(lib, i) == MTLBX_HASH_MISMATCH) {
                uint64_t hash_at = (uint64_t)(fn->hash - mbx_file_data(f));
                cli_error(path, &hash_at, "function %zu: HASH does not match its module", i);
            }
            if (!fn->module_valid || (fn->hash && mbx_function_hash_state(lib, i) == MTLBX_HASH_UNAVAILABLE)) {
                cli_error(path, fn->module_valid ? &at : NULL,
                          "function %zu: module could not be read, so it is not verified (mtlbx check says why)", i);
                not_bitcode++;
            } else if (!mbx_module_validate(lib, i)) {
                cli_error(path, &at, "function %zu: module is not LLVM bitcode (mtlbx check says why)", i);
                not_bitcode++;
            }
        }
    }
    if (!names_only)
        gpu_ls(f); /* a binary archive's GPU code */
    int damaged = cli_damaged(path, f);
    int incomplete = cli_complete(path, f);
    mbx_close(f);
    return incomplete ? 2 : mismatches || not_bitcode || damaged ? 1 : 0;
}

int cmd_ls(const struct cli_args *args)
{
    bool verify = cli_flag(args, OPT_VERIFY), names_only = cli_flag(args, OPT_NAMES);
    int worst = 0;
    for (int a = 0; a < args->n_operands; a++) {
        const char *path = args->operands[a];
        /* Several files: each under a header, as head(1) does. */
        if (args->n_operands > 1) {
            printf("%s==> ", a ? "\n" : "");
            cli_put_escaped(stdout, (struct mtlbx_bytes){ (const uint8_t *)path, strlen(path) });
            printf(" <==\n");
        }
        fflush(stdout);   /* the header before any error about this file */
        int st = list_file(path, verify, names_only);
        worst = st > worst ? st : worst;
    }
    if (fflush(stdout) != 0 || ferror(stdout))
        return 2;
    return worst;
}
