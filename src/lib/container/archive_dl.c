/* libarchive through dlopen (archive_dl.h says why). The soname is the one
 * configure found beside the development files (LIBARCHIVE_SONAME, e.g.
 * libarchive.so.13 on Debian 12); the program's MTLBX_LIBARCHIVE names
 * another file (mbx_archive_use_library), which the tests use to see
 * what happens when it is missing. Each
 * function is looked up once, with the rest, on the first call. */
#include "config.h"
#include "container/archive_dl.h"
#include "container/file.h"

#include <dlfcn.h>
#include <locale.h>
#include <pthread.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static bool loaded, load_out_of_memory;
static char load_error[256];

#define ARCHIVE_DL_POINTER(ret, name, params, args, unloaded) ret(*name) params;
static struct {
    ARCHIVE_DL_FUNCTIONS(ARCHIVE_DL_POINTER)
} fn;
#undef ARCHIVE_DL_POINTER

/* Another file to load than configure's soname (mbx_archive_use_library). */
static char *chosen_library;

void mbx_archive_use_library(const char *path)
{
    free(chosen_library);
    chosen_library = path && *path ? strdup(path) : NULL;
}

static void load(void)
{
    const char *soname = chosen_library ? chosen_library : LIBARCHIVE_SONAME;
    void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        /* Under a memory limit the loader cannot map libarchive or a
         * library it needs (libicudata alone is 31 MB). glibc keeps no
         * errno for it; its message names the mapping that failed. */
        load_out_of_memory = why && (strstr(why, "failed to map segment") || strstr(why, "annot allocate memory"));
        snprintf(load_error, sizeof load_error, "libarchive could not be loaded: %s", why ? why : soname);
        return;
    }
    const char *missing = NULL;
    /* dlsym gives a void *; POSIX guarantees it converts to a function
     * pointer (the memcpy keeps -Wpedantic quiet about it). */
#define ARCHIVE_DL_LOOKUP(ret, name, params, args, unloaded) \
    do { \
        void *p = dlsym(h, #name); \
        if (!p && !missing) \
            missing = #name; \
        memcpy(&fn.name, &p, sizeof p); \
    } while (0);
    ARCHIVE_DL_FUNCTIONS(ARCHIVE_DL_LOOKUP)
#undef ARCHIVE_DL_LOOKUP
    if (missing) {
        snprintf(load_error, sizeof load_error, "libarchive could not be loaded: %s has no %s", soname, missing);
        dlclose(h);
        return;
    }
    loaded = true; /* the handle stays open until the process ends */
}

bool archive_dl_load(void)
{
    pthread_once(&load_once, load);
    return loaded;
}

bool archive_dl_out_of_memory(void)
{
    return !archive_dl_load() && load_out_of_memory;
}

const char *archive_dl_error(void)
{
    return load_error[0] ? load_error : NULL;
}

#define ARCHIVE_DL_DEFINE(ret, name, params, args, unloaded) \
    ret dl_##name params \
    { \
        if (!archive_dl_load()) \
            return unloaded; \
        return fn.name args; \
    }
ARCHIVE_DL_FUNCTIONS(ARCHIVE_DL_DEFINE)
#undef ARCHIVE_DL_DEFINE

/* C.UTF-8 is built into glibc (2.35, Debian 12); where it is missing,
 * names are read in the caller's locale, as before. */
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;
static locale_t utf8_locale;

static void make_utf8_locale(void)
{
    utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

int archive_dl_next_header(struct archive *a, struct archive_entry **e)
{
    pthread_once(&utf8_once, make_utf8_locale);
    locale_t was = utf8_locale ? uselocale(utf8_locale) : (locale_t)0;
    int rc = dl_archive_read_next_header(a, e);
    if (was)
        uselocale(was);
    return rc;
}

const char *archive_dl_entry_name(struct archive_entry *e)
{
    const char *name = dl_archive_entry_pathname(e);
    return name ? name : dl_archive_entry_pathname_utf8(e);
}
