/* The function table's model: one row per function of every open library,
 * filtered and sorted by any column, as htop's process list. Rows are
 * three small integers; every column is read from the library when it is
 * drawn or sorted, so 200,000 functions cost 2.4 MB and a sort only the
 * keys it compares. No curses: the bench and the tests drive it directly. */
#ifndef MTLBX_UI_FTABLE_H
#define MTLBX_UI_FTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "container/functions.h"

/* Columns in screen order; FT_COL_ORDER is the file's own order. */
enum ft_col {
    FT_COL_ORDER, FT_COL_FILE, FT_COL_STAGE, FT_COL_ARGS, FT_COL_MSL, FT_COL_SIZE, FT_COL_HASH, FT_COL_SRC,
    FT_COL_GPU, FT_COL_REQUIRES, FT_COL_NAME, FT_COL_COUNT
};

struct ft_lib {
    mtlbx_library *lib;
    uint32_t file;               /* which open file it belongs to */
    const char *path;            /* that file's path (NULL: none); outlives the table */
    /* Filled by ftable_init: the library's place among its file's. */
    uint32_t in_file, file_libs;
};

struct ft_row {
    uint32_t lib;                /* index into ftable.libs */
    uint32_t index;              /* function index in that library */
};

struct ftable {
    struct ft_lib *libs;
    size_t n_libs;
    struct ft_row *all;          /* every function, in file order */
    size_t n_all;
    uint32_t *shown;             /* positions into all: filtered, sorted */
    size_t n_shown;
    enum ft_col sort;
    bool descending;
    char filter[128];            /* "" : every function */
    bool raw_names;              /* names as stored, not demangled */
    int stage_width;             /* the longest stage name of any row */
    bool show_file;              /* several libraries: the file column says whose */
    int file_width;              /* the longest file cell, at most FT_FILE_WIDTH_MAX */
    int requires_width;          /* the longest platform name present + " 26.0" */
    bool show_gpu;               /* a file has GPU slices (a binary archive, FORMAT §24) */
    int gpu_width;               /* the longest gpu cell, at most FT_GPU_WIDTH_MAX */
    /* Where the args column comes from: -1 not known yet, -2 no entry.
     * NULL: the interfaces the library keeps. */
    long (*arg_count)(void *ctx, const mtlbx_library *lib, size_t index);
    /* The model that keeps lib's interfaces (for the arguments column
     * while arg_count does not know yet), with arg_ctx. */
    mtlbx_model *(*model_of)(void *ctx, const mtlbx_library *lib);
    void *arg_ctx;
    /* The sort's key arrays, kept from one sort to the next: fresh
     * pages for 200,000 keys cost more than the sort itself. */
    struct sort_key *keys, *keys_tmp;
    /* Every row's stored name, back to back in `all` order, for `/`:
     * name_at[pos] .. name_at[pos + 1] - 1 (a NUL after each). Read
     * through the library, each name is a 144-byte table entry and a
     * page of the mapping away from the last one: a search over 200,000
     * names took 30 ms, most of it getting there. NULL when out of
     * memory (then the library's entries are read). */
    char *names;
    uint32_t *name_at;
    /* The last `/`: matching positions into shown, in order. */
    char query[256];
    uint32_t *hits;
    size_t n_hits, hit_cur;
    /* Marked functions (ftable_marks.c): one byte per row of `all`, whose
     * order never changes, so a mark stays on its function through every
     * sort and filter. NULL until the first mark. */
    uint8_t *marked;
    size_t n_marked;
};

#define FT_FILE_WIDTH_MAX 20
#define FT_GPU_WIDTH_MAX 42          /* three GPUs: "applegpu 12.3K intelgpu 12.3K amdgpu 12.3K" */

/* Builds the rows of these libraries (file order, no filter). False when
 * out of memory (the table is then empty but valid). */
bool ftable_init(struct ftable *t, const struct ft_lib *libs, size_t n_libs);
void ftable_free(struct ftable *t);

const struct ft_row *ftable_row(const struct ftable *t, size_t shown_pos);
mtlbx_library *ftable_row_lib(const struct ftable *t, const struct ft_row *r);
const struct mtlbx_function *ftable_row_function(const struct ftable *t, const struct ft_row *r);

/* Re-applies the filter and the sort (after either changed, or when the
 * interfaces behind the args column arrived); the selection (*sel, a
 * position in shown: the view's) stays on its function when that is
 * still shown, else goes to the first row. */
bool ftable_apply(struct ftable *t, size_t *sel);

/* Column text of one row, without padding ("kernel", "4", "3.1", "12.3K",
 * "ok", "S", "macOS 14.0", "#1 a" for a.metallib's second library,
 * "applegpu 1.4K amdgpu 1.4K": the GPUs its file holds compiled code
 * for it and how much, "-" none). The args column says "..."
 * until the interface is decoded; requires says "-" where no platform is
 * known and "macOS ?" where no version is. Terminal-safe. */
void ftable_cell(const struct ftable *t, const struct ft_row *r, enum ft_col c, char *out, size_t size);
const char *ftable_col_title(enum ft_col c);

/* The name as shown: demangled unless raw_names, made terminal-safe,
 * malloc'd (NULL only when out of memory). */
char *ftable_display_name(const struct ftable *t, const struct ft_row *r);
/* The same for any function of a library (the function page's). */
char *ftable_function_name(const mtlbx_library *lib, size_t index, bool raw);

/* `/`: every shown function whose name (or, once decoded, an argument's
 * name or type, through `extra`) contains the text, ignoring case.
 * Returns the number of matching functions. */
typedef const char *(*ftable_extra_fn)(void *ctx, const mtlbx_library *lib, size_t index, size_t *len);
size_t ftable_search(struct ftable *t, const char *text, ftable_extra_fn extra, void *ctx);
/* The next (or previous) hit from the selection *sel (moved there),
 * wrapping; false if none. *wrapped says whether it went round. */
bool ftable_search_step(struct ftable *t, size_t *sel, bool forward, bool *wrapped);

/* ---- ftable_marks.c: marks (Space, a, u, v in the function table) ---- */
bool ftable_is_marked(const struct ftable *t, const struct ft_row *r);
/* Marks or unmarks the function shown at `pos`; false out of memory. */
bool ftable_mark_toggle(struct ftable *t, size_t pos);
enum ft_mark_op { FT_MARK_SET, FT_MARK_CLEAR, FT_MARK_INVERT };
/* Every shown row (what the filter lets through); the number of marks
 * changed, or -1 out of memory. */
long ftable_mark_shown(struct ftable *t, enum ft_mark_op op);
/* Every mark, shown or not; how many there were. */
size_t ftable_unmark_all(struct ftable *t);
/* Marked functions the filter hides. */
size_t ftable_marked_hidden(const struct ftable *t);
/* The files (ft_lib.file) that hold a marked function: how many, and
 * the first's in *file. */
size_t ftable_marked_files(const struct ftable *t, uint32_t *file);

/* Marks kept while other files are shown (the folder list opened another
 * library): each function by its file's path, its library's place in the
 * file, its index and its name, so that it is marked again when its file
 * is shown again and still holds it. */
struct ft_kept_mark {
    char *path;
    uint32_t in_file;
    uint32_t index;
    char *name;
    size_t name_len;
};
struct ft_kept_marks {
    struct ft_kept_mark *v;
    size_t n, cap;
    bool out_of_memory;
};
/* Adds the table's marks to k (before the table is freed). */
void ftable_marks_keep(const struct ftable *t, struct ft_kept_marks *k);
/* Marks again the kept functions this table holds, and forgets them from
 * k (the others stay); how many. */
size_t ftable_marks_restore(struct ftable *t, struct ft_kept_marks *k);
void ftable_kept_marks_free(struct ft_kept_marks *k);

/* Where a function of a library stands in the shown rows, or -1. */
long ftable_find(const struct ftable *t, const mtlbx_library *lib, size_t index);

#endif
