/* The container layer (src/lib/container) on text: the one escaping
 * policy for bytes bound for a terminal or a file name (escape.c). */
#ifndef MTLBX_CONTAINER_ESCAPE_H
#define MTLBX_CONTAINER_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* --------------------------------------------------------------- escape -- */

/* The one policy for what a terminal or a file name must never receive
 * as itself (the command line's escaping, the explorer's and the names of
 * extracted files all ask here): C0 and C1 controls and DEL act on the
 * terminal; bidi controls reorder what is shown ("trojan source"); the
 * invisible format characters (zero-width space, word joiner, BOM, soft
 * hyphen, tag characters, Arabic number signs, Egyptian hieroglyph and
 * musical format controls...) and the line and paragraph separators make
 * two names look the same or a name look like something else. Those are
 * whole Unicode categories (Cc, Cf, Zl, Zp), taken from libunistring's
 * tables (escape.c), and so are the code points unassigned in them: a
 * later Unicode may make one a format character. */
bool mbx_codepoint_unsafe(uint32_t cp);

enum {
    MTLBX_ESC_TERMINAL = 1u << 0, /* also escape mbx_codepoint_unsafe() characters */
};
/* The length (1-4) of the valid UTF-8 sequence at p, of `left` bytes, and
 * its code point in *cp; 0 when it is not valid: an overlong form, a
 * surrogate, past U+10FFFF or cut short (what jansson refuses too). */
size_t mbx_utf8_next(const uint8_t *p, size_t left, uint32_t *cp);
/* Copies `len` bytes to `out` as valid UTF-8 text: invalid bytes become
 * "\xNN"; with MTLBX_ESC_TERMINAL also every control character and a
 * backslash becomes "\\". Always NUL-terminates (truncating on a char
 * boundary). Returns the length that the full escape would need. */
size_t mbx_escape(const uint8_t *bytes, size_t len, unsigned flags,
                    char *out, size_t out_size);
/* Same, into a malloc'd string (NULL on OOM). */
char *mbx_escape_dup(const uint8_t *bytes, size_t len, unsigned flags);

#ifdef __cplusplus
}
#endif

#endif
