/* The explorer's background scan of folders, app bundles and archives (`mtlbx DIR`, `mtlbx App.ipa`): one thread walks the roots in
 * order (src/lib/gate/tree_walk.c) and lists the archives it meets, appending
 * what it finds to a list the UI reads while the scan goes on. No curses
 * here. */
#ifndef MTLBX_UI_FOLDER_SCAN_H
#define MTLBX_UI_FOLDER_SCAN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gate/tree_walk.h"
#include "container/types.h"

struct folder_entry {
    uint32_t root;             /* which root it was found under */
    char *label;               /* below the root, for display (raw bytes) */
    char *open_path;           /* what mbx_open_any() takes: a path or ARCHIVE!MEMBER */
    uint64_t size;
    char *problem;             /* not NULL: an unreadable entry, and why */
    /* Set by the UI thread only: */
    mtlbx_file *file;          /* parsed once opened, kept until exit */
    size_t functions;          /* also set by the survey */
    /* Set by the survey thread (under lock), as `mtlbx find` reports: */
    bool surveyed;             /* functions, version, target, msl, problems */
    bool unreadable;           /* the survey could not parse it */
    char version[40];          /* "1.2.8" (a fat file: each slice's, with ',') */
    char target[64];           /* "macOS 15.0.0" */
    char msl[24];              /* lowest-highest MSL version of its functions */
    size_t problems;           /* diagnostics */
    char *index;               /* what `/` finds: function names, argument
                                * names and types, one per line ("NAME" or
                                * "TYPE ARG in NAME"); NULL until indexed */
};

struct folder_scan {
    char **roots;              /* as given on the command line */
    uint32_t n_roots;
    pthread_mutex_t lock;      /* guards v, n, cap */
    struct folder_entry *v;
    size_t n, cap;
    struct walk_progress progress;
    atomic_size_t members;     /* metallibs found inside archives */
    volatile int cancel;
    atomic_bool done;
    bool began, thread_started;
    pthread_t thread;
    /* The survey: a second thread opens each library found (in the order
     * found) for its counts, then indexes names for `/`. */
    atomic_size_t surveyed, indexed;
    atomic_bool survey_done;
    bool survey_started;
    pthread_t survey_thread;
};

/* True when `path` is something the scan opens: a folder, or an archive
 * by its content (mbx_archive_content(): zip, tar, compressed tar, ...). */
bool folder_scan_wants(const char *path);

/* Sets up a scan of copies of the roots; NULL on no memory. */
struct folder_scan *folder_scan_new(char *const *roots, uint32_t n_roots);
/* Starts the threads (the explorer does it once its first screen is out,
 * so the scan never delays it): the walk, and the survey that fills each
 * entry's counts and then its search index. Without a thread, scans at
 * once (and the survey does not run). */
void folder_scan_begin(struct folder_scan *s);
/* folder_survey.c: the survey thread's body. */
void *folder_survey_thread(void *scan);
/* Asks the thread to stop soon; what was found stays. */
void folder_scan_cancel(struct folder_scan *s);
/* The title line while the folder list shows: " mtlbx  ROOT | ROOT",
 * terminal-safe. */
void folder_scan_title(const struct folder_scan *s, char *buf, size_t size);
/* Stops and joins the thread, closes every opened file, frees it all. */
void folder_scan_free(struct folder_scan *s);

#endif
