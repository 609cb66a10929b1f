/* The api layer's handle (src/lib/api): the one object <mtlbx.h> hands
 * out, over an mtlbx_file of the layers below. What it answers is kept in
 * it (pool.h) until mtlbx_free. Only this layer's files include this. */
#ifndef MTLBX_API_HANDLE_H
#define MTLBX_API_HANDLE_H

#include "mtlbx.h"
#include "bitcode/interface_reader.h"
#include "api/pool.h"

#include <stdarg.h>

/* Function string keys: each has a column, every function's value in one
 * block of text (each value followed by a NUL, an absent one empty), made
 * the first time it is asked for. The cheap ones (CHEAP_COLUMNS) are made
 * together in one pass over the function list; the others one function
 * at a time, each value kept in `one` as it is made. */
enum api_fn_column {
    COL_NAME, COL_TYPE, COL_AIR_VERSION, COL_MSL_VERSION, COL_HASH, /* cheap */
    COL_REQUIRES, COL_DECLARATION, COL_INTERFACE_JSON, COL_COUNT
};
#define CHEAP_COLUMNS (COL_HASH + 1)
extern const char api_none[];
#define API_NONE api_none
#define API_ABSENT UINT64_MAX

struct api_column {
    char *text;                /* NULL until made */
    size_t len;
    uint64_t *at;              /* function i's value at text + at[i]; API_ABSENT: none */
    const char **one;          /* the others: function i's value, API_NONE: none, NULL: not yet */
};

/* Library string keys, cached the same way. */
enum api_lib_value {
    LV_CONTAINER_VERSION, LV_PLATFORM, LV_FILE_TYPE, LV_TARGET_OS, LV_OS_VERSION, LV_UUID, LV_REQUIRES, LV_COUNT
};

struct api_source {
    size_t archive, member;
};

struct api_library {
    mtlbx_library *lib;
    size_t n_functions;
    const char *values[LV_COUNT];
    struct api_column columns[COL_COUNT];
    int64_t *module_offset, *module_size;  /* made with the cheap columns; -1: none */
    mtlbx_interface_reader *reader;        /* for declarations and interfaces */
    bool sources_listed;
    size_t n_sources;
    struct api_source *sources;
};

/* Where the findings of the lists below the handle have been read up to. */
struct api_diag {
    const char *message;
    int severity;                          /* MTLBX_SEVERITY_* */
    int64_t offset;
};

struct mtlbx {
    mtlbx_file *file;                      /* NULL until an open succeeded */
    bool fatal;                            /* an open failed: the handle holds no file */
    struct api_pool pool;
    size_t n_libraries;
    struct api_library *libraries;
    /* The last failure */
    int err_errno;
    int64_t err_offset;
    const char *err_text;
    /* Findings, in the order they were seen (diag.c) */
    struct api_diag *diags;
    size_t n_diags, cap_diags;
    size_t file_diags_seen;
    size_t *lib_diags_seen;                /* per library */
    /* The dump --json documents, per flags (json.c) */
    const char *json[4];
};

/* Records the handle's error (errno_value 0 for a format failure; offset
 * -1 for none) and returns `status`. */
int api_fail(mtlbx *h, int status, int errno_value, int64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The same for a pointer-returning call: NULL. */
void api_set_error(mtlbx *h, int errno_value, int64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Library `lib` of an open handle, or NULL with the error set. */
struct api_library *api_library(mtlbx *h, int lib);
/* Function fn of it, or false with the error set. */
bool api_function_ok(mtlbx *h, struct api_library *al, int64_t fn);
/* The interface reader of a library (made on first use; NULL is usable). */
mtlbx_interface_reader *api_reader(struct api_library *al);
/* Reads every finding the lists below have gained into the handle's list
 * (`whole`: decoding the lazy parts of each library first, whose findings
 * belong there too); false when out of memory. */
bool api_diag_sync(mtlbx *h, bool whole);
/* Adds one finding of the handle's own (check_os); false when out of memory. */
bool api_diag_add(mtlbx *h, int severity, int64_t offset, const char *message);

#endif
