/* C++ symbol names (`_Z...`) as a reader wants them, bounded in time and
 * memory.
 *
 * The demangler is GCC's (cp-demangle.c, the code of libstdc++'s
 * __cxa_demangle and of binutils), from libiberty, rather than a
 * hand-written one. A mangled name can ask for far more text than it
 * holds: substitutions (S_, S0_, ...) repeat earlier parts, so 512 bytes
 * that nest them double 48 times when printed (issue 35), and
 * __cxa_demangle, which takes no limit, then runs for minutes past 3 GB.
 * cplus_demangle_v3_callback is the one entry point that can be stopped:
 * it parses into a fixed array on the stack (never the heap) and hands
 * the text out through a callback as it prints, so the callback here
 * collects it and, once it passes the bound, leaves the demangler with
 * longjmp. Nothing is left behind by that (the demangler allocates
 * nothing), and the work done is what the bound allows: the parse is
 * linear in the name (which is bounded too: its stack array is two
 * components a byte) and the printing stops at the bound.
 *
 * A name past either bound is shown as stored; mbx_demangle_bounded
 * says so, so that a caller can tell the reader why. */
#include "config.h"

#include "bitcode/demangle.h"

#include <libiberty/demangle.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* The demangled text may be this many times the mangled name, plus
 * DEMANGLE_OUTPUT_SLACK: real names grow two to five times (std::
 * templates spelt out), and a name at the bound costs a few
 * microseconds, so a library full of them costs what its size says. */
#define DEMANGLE_OUTPUT_FACTOR 16
#define DEMANGLE_OUTPUT_SLACK 256

struct sink {
    char *buf;
    size_t len, cap, limit;
    enum mtlbx_demangle_status why;  /* of a jump out */
    jmp_buf out;
};

static void collect(const char *text, size_t n, void *opaque)
{
    struct sink *s = opaque;
    if (n > s->limit - s->len) {
        s->why = MTLBX_DEMANGLE_TOO_LONG;
        longjmp(s->out, 1);
    }
    if (s->len + n + 1 > s->cap) {
        size_t cap = s->cap * 2 > s->len + n + 1 ? s->cap * 2 : s->len + n + 1;
        if (cap > s->limit + 1)
            cap = s->limit + 1;
        char *b = realloc(s->buf, cap);
        if (!b) {
            s->why = MTLBX_DEMANGLE_NO_MEMORY;
            longjmp(s->out, 1);
        }
        s->buf = b;
        s->cap = cap;
    }
    memcpy(s->buf + s->len, text, n);
    s->len += n;
    s->buf[s->len] = '\0';
}

/* setjmp is here, apart from the caller that owns *s: what the callback
 * changes in *s is then no local of the function that called setjmp,
 * which C leaves indeterminate after the jump. */
static bool run(const char *mangled, struct sink *s)
{
    if (setjmp(s->out) != 0)
        return false;
    /* The options of __cxa_demangle (parameters, and types' qualifiers). */
    if (!cplus_demangle_v3_callback(mangled, DMGL_PARAMS | DMGL_ANSI | DMGL_TYPES, collect, s)) {
        s->why = MTLBX_DEMANGLE_NOT_MANGLED;
        return false;
    }
    return true;
}

enum mtlbx_demangle_status mbx_demangle_bounded(struct mtlbx_bytes name, char **out)
{
    *out = NULL;
    if (name.len < 3 || name.ptr[0] != '_' || name.ptr[1] != 'Z' || memchr(name.ptr, '\0', name.len))
        return MTLBX_DEMANGLE_NOT_MANGLED;
    if (name.len > MTLBX_DEMANGLE_INPUT_MAX)
        return MTLBX_DEMANGLE_TOO_LONG;
    char z[MTLBX_DEMANGLE_INPUT_MAX + 1];
    memcpy(z, name.ptr, name.len);
    z[name.len] = '\0';
    size_t limit = name.len * DEMANGLE_OUTPUT_FACTOR + DEMANGLE_OUTPUT_SLACK;
    struct sink s = { .limit = limit };
    if (!run(z, &s)) {
        free(s.buf);
        return s.why;
    }
    if (!s.buf) /* nothing printed: not a name a reader wants */
        return MTLBX_DEMANGLE_NOT_MANGLED;
    *out = s.buf;
    return MTLBX_DEMANGLED;
}

char *mbx_demangle(struct mtlbx_bytes name)
{
    char *d;
    return mbx_demangle_bounded(name, &d) == MTLBX_DEMANGLED ? d : NULL;
}
