/* The verbs several views share, each on what it is given (a function, a
 * library, a file, a text), never on a view's selection: the view that
 * has the selection says what it is about. They ask with the prompt, say
 * how it went on the status line, and open the view that shows the result
 * (the text view, by its id). */
#ifndef MTLBX_UI_VERBS_VERBS_H
#define MTLBX_UI_VERBS_VERBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ui/core/core.h"

/* ---- write_file.c: writing what the user asked for ---- */
/* Writes bytes to a path the user chose, asking before overwriting. */
bool verb_write_bytes(struct explorer *ex, const char *path, const void *data, size_t len);
/* "~/x" as $HOME/x. */
void verb_expand_home(const char *in, char *out, size_t size);
/* mkdir -p; false with a reason in err. */
bool verb_make_dirs(const char *path, char *err, size_t err_size);
/* Several files would be replaced: ask once. True means overwrite them
 * all; false (or none existing) means keep existing files. */
bool verb_confirm_overwrite(struct explorer *ex, size_t existing, size_t total, const char *dir);

/* ---- write_library.c: w in the function table and on a function's page ---- */
/* Which functions of one shown file a library is written of. */
struct library_pick {
    uint32_t file;               /* into ex->files */
    bool **keep;                 /* keep[l][i]: function i of the file's library l (malloc'd) */
    size_t n_libs;               /* the file's libraries */
    size_t n_functions;          /* how many keep holds */
    bool marked;                 /* the marked ones (else the one under the cursor) */
    char default_name[300];      /* the path offered */
};
void library_pick_free(struct library_pick *pick);
/* Asks where (Tab completes; asks again before replacing a file, never
 * replaces the file shown), then writes the library in the background
 * and says what was written. Takes `pick`'s arrays in every case. */
void verb_write_library(struct explorer *ex, struct library_pick *pick);
/* The same for one function (w on its page): a library of it alone. */
void verb_write_function_library(struct explorer *ex, mtlbx_library *lib, size_t fn);

/* ---- actions.c: e and d on one function ---- */
/* e: its module (exactly the bytes HASH covers) to NAME.air. */
void verb_extract_function(struct explorer *ex, mtlbx_library *lib, size_t fn);
/* d: llvm-dis of its module into the text view, in the background,
 * cached per module hash. */
void verb_disassemble(struct explorer *ex, mtlbx_library *lib, size_t fn);
/* The explorer ends: the cached disassemblies go. */
void verbs_done(struct explorer *ex);

/* ---- extract_all.c: E ---- */
/* Every module of a library into a directory, in the background. */
void verb_extract_all(struct explorer *ex, mtlbx_library *lib);

/* ---- source.c: s and a member's text ---- */
/* s on a function: the embedded source member that defines it, in the
 * text view at that line. */
void verb_show_source(struct explorer *ex, mtlbx_library *lib, size_t fn);
/* One member of a loaded source archive in the text view. */
void verb_show_member(struct explorer *ex, mtlbx_library *lib, size_t archive, size_t member);

/* ---- diag_view.c: ! ---- */
/* Every finding of a shown file, in full, in the text view, whose Enter
 * goes to a finding's offset in the byte explorer. */
void verb_show_problems(struct explorer *ex, uint32_t file);

/* ---- clipboard.c: y ---- */
/* Copies `text` (terminal-safe, as shown) to the user's clipboard with
 * OSC 52; `what` names it in the message ("the name"). */
void verb_copy(struct explorer *ex, const char *what, const char *text);

#endif
