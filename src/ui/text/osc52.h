/* The OSC 52 "set clipboard" sequence, which terminals (xterm, kitty,
 * iTerm2, Windows Terminal...) and tmux (set -g set-clipboard on) turn
 * into the user's own clipboard, also over SSH. Pure. */
#ifndef MTLBX_UI_OSC52_H
#define MTLBX_UI_OSC52_H

#include <stddef.h>
#include <stdint.h>

/* Text bigger than this is not sent (terminals drop long sequences). */
#define OSC52_MAX_TEXT 65536

/* Writes ESC ] 52 ; c ; BASE64 BEL into `out`. Returns its length, or 0
 * when `cap` is too small or the text too long. */
size_t osc52_encode(const uint8_t *text, size_t len, char *out, size_t cap);

#endif
