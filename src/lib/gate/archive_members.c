/* Reading metallibs out of archives with libarchive: list the members by
 * magic (descending into archives inside archives), decompress one into
 * memory under a size limit, and open "ARCHIVE!MEMBER[!MEMBER...]" paths.
 * See archive_members.h. */
#include "config.h"

#include "archive_members.h"
#include "macho_members.h"
#include "member_reader.h"

#include "container/archive_dl.h"
#include "gate/gate.h"

#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The limit, set once by the program at its start (from its environment,
 * which the library never reads) and read by every listing after. */
static _Atomic uint64_t limit_set = MEMBER_LIMIT_DEFAULT;

void mbx_member_limit_set(uint64_t limit)
{
    limit_set = limit ? limit : MEMBER_LIMIT_DEFAULT;
}

uint64_t mbx_member_limit(void)
{
    return limit_set;
}

static void say(char *err, size_t size, const char *fmt, const char *a)
{
    if (err && size)
        snprintf(err, size, fmt, a ? a : "unknown error");
}

/* Reads up to want bytes of the current member (libarchive may return
 * fewer than asked). Returns the count, or -1 on a damaged member. */
static ssize_t read_some(struct archive *a, uint8_t *buf, size_t want)
{
    size_t got = 0;
    while (got < want) {
        la_ssize_t n = archive_read_data(a, buf + got, want - got);
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (ssize_t)got;
}

/* Says that a member does not fit in what it may hold (`size` is its
 * declared size, 0 when it grew past the limit while being read): the
 * whole limit, or what the archives it is nested in leave of it. */
static void over_limit(const struct member_reader *rd, uint64_t size, char *err, size_t err_size)
{
    unsigned long long whole = rd->held + rd->limit, held = rd->held;
    if (!held && size)
        snprintf(err, err_size, "member of %llu bytes is over the limit of %llu bytes (MTLBX_MEMBER_LIMIT)",
                 (unsigned long long)size, whole);
    else if (!held)
        snprintf(err, err_size, "member decompresses past the limit of %llu bytes (a zip bomb?)", whole);
    else if (size)
        snprintf(err, err_size, "member of %llu bytes: with the %llu bytes of the archives it is nested in, over "
                 "the limit of %llu bytes (MTLBX_MEMBER_LIMIT)", (unsigned long long)size, held, whole);
    else
        snprintf(err, err_size, "member decompresses past the %llu bytes that the archives it is nested in "
                 "(%llu bytes) leave of the limit of %llu bytes (MTLBX_MEMBER_LIMIT)",
                 (unsigned long long)rd->limit, held, whole);
}

/* The member's next bytes: from the archive, or from a Mach-O section. */
static la_ssize_t member_read(struct member_reader *rd, void *buf, size_t n)
{
    return rd->a ? archive_read_data(rd->a, buf, n) : rd->read(rd->read_ctx, buf, n);
}

void *mbx_member_read_all(struct member_reader *rd, size_t *len, char *err, size_t err_size)
{
    return mbx_member_read_upto(rd, rd->limit, len, err, err_size);
}

/* A member over what it may hold: a caller's own limit (`own`), or the
 * listing's (over_limit says how the nested archives share it). */
static void too_big(const struct member_reader *rd, bool own, uint64_t limit, uint64_t size, char *err,
                    size_t err_size)
{
    if (!own)
        over_limit(rd, size, err, err_size);
    else if (size)
        snprintf(err, err_size, "member of %llu bytes is over the limit of %llu bytes", (unsigned long long)size,
                 (unsigned long long)limit);
    else
        snprintf(err, err_size, "member decompresses past the limit of %llu bytes", (unsigned long long)limit);
}

void *mbx_member_read_upto(struct member_reader *rd, uint64_t limit, size_t *len, char *err, size_t err_size)
{
    *len = 0;
    bool own = limit < rd->limit;
    if (!own)
        limit = rd->limit;
    if (rd->size_known && rd->declared > limit) {
        too_big(rd, own, limit, rd->declared, err, err_size);
        return NULL;
    }
    /* Trust the declared size only as a first guess: a zip bomb lies. */
    size_t cap = rd->size_known && rd->declared >= rd->head_len ? (size_t)rd->declared + 1 : 1 << 16;
    if (cap < rd->head_len + 1)
        cap = rd->head_len + 1;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        say(err, err_size, "%s", "out of memory");
        return NULL;
    }
    memcpy(buf, rd->head, rd->head_len);
    size_t used = rd->head_len;
    for (;;) {
        if (used == cap) {
            if (cap > limit) {
                free(buf);
                too_big(rd, own, limit, 0, err, err_size);
                return NULL;
            }
            size_t next = cap * 2 > limit + 1 ? (size_t)limit + 1 : cap * 2;
            uint8_t *grown = next > cap ? realloc(buf, next) : NULL;
            if (!grown) {
                free(buf);
                say(err, err_size, "%s", "out of memory");
                return NULL;
            }
            buf = grown;
            cap = next;
        }
        la_ssize_t n = member_read(rd, buf + used, cap - used);
        if (n < 0) {
            say(err, err_size, "damaged member: %s", rd->a ? archive_error_string(rd->a) : "section cut short");
            free(buf);
            return NULL;
        }
        if (n == 0)
            break;
        used += (size_t)n;
    }
    if (used > limit) {
        free(buf);
        too_big(rd, own, limit, 0, err, err_size);
        return NULL;
    }
    *len = used;
    return buf;
}

int64_t mbx_member_measure(struct member_reader *rd)
{
    /* Through archive_read_data, as the head was read (mixing in
     * archive_read_data_block would skip what it has buffered), or a Mach-O
     * section's reader. */
    uint8_t buf[16384];
    uint64_t used = rd->head_len;
    while (used <= rd->limit) {
        la_ssize_t n = member_read(rd, buf, sizeof buf);
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        used += (uint64_t)n;
    }
    return used > rd->limit ? (int64_t)rd->limit + 1 : (int64_t)used;
}

/* A reader for every archive format and compression libarchive has that
 * mbx_archive_content() recognises. (Not mtree: its entries name files on
 * disk, which libarchive would then open.) */
static struct archive *new_reader(void)
{
    struct archive *a = archive_read_new();
    if (!a)
        return NULL;
    archive_read_support_filter_gzip(a);
    archive_read_support_filter_bzip2(a);
    archive_read_support_filter_xz(a);
    archive_read_support_filter_zstd(a);
    archive_read_support_filter_lz4(a);
    archive_read_support_filter_lzip(a);
    archive_read_support_filter_compress(a);
    archive_read_support_format_zip(a);
    archive_read_support_format_tar(a);
    archive_read_support_format_gnutar(a);
    archive_read_support_format_7zip(a);
    archive_read_support_format_xar(a);
    archive_read_support_format_cpio(a);
    archive_read_support_format_ar(a);
    archive_read_support_format_rar(a);
    archive_read_support_format_rar5(a);
    return a;
}

/* An open that failed because no format bid on the bytes ("Unrecognized
 * archive format"): libarchive's ARCHIVE_ERRNO_FILE_FORMAT, which its
 * private header defines as EILSEQ on Linux (EFTYPE where that exists). */
static bool unrecognised(struct archive *a)
{
#ifdef EFTYPE
    return archive_errno(a) == EFTYPE;
#else
    return archive_errno(a) == EILSEQ;
#endif
}

/* One listing, through every nesting level. */
struct lister {
    member_fn fn;
    void *ctx;
    const char *want;          /* mbx_open_any: only this joined name, else NULL */
    const volatile int *cancel;
    char *err;
    size_t err_size;
    int status;                /* 0, or -1 once a problem is in err */
    bool stop;
    /* Memory is bounded per listing, not per level: the nested archives
     * open at once (each read whole into memory) and the member being read
     * share mbx_member_limit() (`limit`); `held` is what the open ones hold.
     * A zip of stored zips three deep once held the innermost bytes three
     * times over, a limit each. */
    uint64_t limit, held;
    /* mbx_archive_list_metallibs_and: the other members asked for */
    bool (*side_wants)(const char *joined);
    member_fn side;
    bool nest_turn;            /* holds the process's turn (nest_take_turn) */
};

/* The first problem goes to err (with the member it is about); the
 * listing goes on. */
static void problem(struct lister *L, const char *where, const char *what)
{
    if (L->status == 0 && L->err && L->err_size)
        snprintf(L->err, L->err_size, "%s%s%s", where ? where : "", where ? ": " : "", what ? what : "unknown error");
    L->status = -1;
}

static void list_entries(struct lister *L, struct archive *a, const char *prefix, int depth);

/* Mach-O hosts (macho_members.c) report to the listing's own problem and
 * stop. */
static void macho_problem(void *ctx, const char *where, const char *what)
{
    problem(ctx, where, what);
}

static struct macho_listener macho_listener(struct lister *L)
{
    return (struct macho_listener){ L->fn, L->ctx, L->want, macho_problem, L, L->cancel, false, L->limit - L->held,
                                    L->held };
}

/* The member at hand is a Mach-O file: its sections, read as it is
 * decompressed. */
static void list_macho(struct lister *L, const char *joined, struct archive *a, const struct member_reader *rd)
{
    struct macho_listener ml = macho_listener(L);
    mbx_macho_list_archive_member(&ml, joined, a, rd->head, rd->head_len, rd->size_known ? rd->declared : 0);
    L->stop |= ml.stop && !L->side; /* side members may still follow */
}

/* One listing at a time holds nested archives, process-wide. Each
 * listing keeps what it holds within mbx_member_limit(), but find's workers
 * (and the explorer's jobs) list several archives at once: four links to
 * one zip of stored zips, with two workers, held 412 MB, one limit each.
 * A listing takes its turn before it holds its first nested archive and
 * gives it back when it holds none again, so the process holds one limit
 * of them, and what a listing can open never depends on what the others
 * happen to hold (the same answer at any number of workers). A listing
 * waits only while it holds nothing, so none waits on another that waits
 * on it; archives with no archive inside never wait. */
static pthread_mutex_t nest_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nest_free = PTHREAD_COND_INITIALIZER;
static bool nest_taken;
static _Thread_local bool nest_turn_on_this_thread;

bool mbx_archive_nest_turn_held(void)
{
    return nest_turn_on_this_thread;
}

/* False when the listing was cancelled while it waited. */
static bool nest_take_turn(const struct lister *L)
{
    pthread_mutex_lock(&nest_lock);
    while (nest_taken && !(L->cancel && *L->cancel)) {
        /* Woken by the turn given back; a cancel sets no condition, so
         * the wait looks again every tenth of a second. */
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000 * 1000;
        if (until.tv_nsec >= 1000 * 1000 * 1000) {
            until.tv_sec++;
            until.tv_nsec -= 1000 * 1000 * 1000;
        }
        pthread_cond_timedwait(&nest_free, &nest_lock, &until);
    }
    bool got = !nest_taken;
    if (got)
        nest_taken = nest_turn_on_this_thread = true;
    pthread_mutex_unlock(&nest_lock);
    return got;
}

static void nest_give_turn(void)
{
#ifdef __GLIBC__
    /* What the listing held goes back to the system before the next one
     * takes its turn. glibc keeps freed blocks below its mmap threshold
     * (raised to 32 MiB after the first big free) in the thread's own
     * arena: two workers kept 152 MB resident for 84 MB held at a time. */
    malloc_trim(0);
#endif
    pthread_mutex_lock(&nest_lock);
    nest_taken = nest_turn_on_this_thread = false;
    pthread_cond_signal(&nest_free);
    pthread_mutex_unlock(&nest_lock);
}

/* The member at hand is an archive itself: list it from memory. */
static void list_nested(struct lister *L, struct member_reader *rd, const char *joined, int depth)
{
    if (depth >= ARCHIVE_MAX_NESTING) {
        char what[80];
        snprintf(what, sizeof what, "archives nested more than %d deep: not opened", ARCHIVE_MAX_NESTING);
        problem(L, joined, what);
        return;
    }
    bool outermost = !L->nest_turn;
    if (outermost) {
        if (!nest_take_turn(L)) {
            L->stop = true; /* cancelled */
            return;
        }
        L->nest_turn = true;
    }
    char err[256];
    size_t len;
    void *data = mbx_member_read_all(rd, &len, err, sizeof err);
    if (!data) {
        problem(L, joined, err);
        if (outermost) {
            L->nest_turn = false;
            nest_give_turn();
        }
        return;
    }
    L->held += len;
    struct archive *inner = new_reader();
    if (!inner) {
        problem(L, joined, archive_dl_error() ? archive_dl_error() : "out of memory");
    } else if (archive_read_open_memory(inner, data, len) != ARCHIVE_OK) {
        /* Compressed bytes that hold no archive (a .gz of a text file)
         * are not an archive: nothing to say. */
        if (!unrecognised(inner))
            problem(L, joined, archive_error_string(inner));
    } else {
        list_entries(L, inner, joined, depth + 1);
    }
    if (inner)
        archive_read_free(inner);
    free(data);
    L->held -= len;
    if (outermost) {
        L->nest_turn = false;
        nest_give_turn();
    }
}

static void list_entries(struct lister *L, struct archive *a, const char *prefix, int depth)
{
    struct archive_entry *e;
    for (size_t count = 0; !L->stop; count++) {
        if (L->cancel && *L->cancel) {
            L->stop = true;
            break;
        }
        if (count == ARCHIVE_MAX_ENTRIES) {
            char what[80];
            snprintf(what, sizeof what, "more than %d entries: the rest is not read", ARCHIVE_MAX_ENTRIES);
            problem(L, prefix, what);
            break;
        }
        int r = archive_dl_next_header(a, &e);
        if (r == ARCHIVE_EOF)
            break;
        if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
            char what[300];
            snprintf(what, sizeof what, "damaged archive: %s", archive_error_string(a));
            problem(L, prefix, what);
            break;
        }
        if (archive_entry_filetype(e) != AE_IFREG)
            continue;
        const char *name = archive_dl_entry_name(e);
        char *joined = mbx_archive_join(prefix, name ? name : "");
        if (!joined) {
            problem(L, prefix, "out of memory");
            break;
        }
        size_t jl = strlen(joined);
        bool wanted = L->want && strcmp(joined, L->want) == 0;
        bool on_the_way = L->want && strncmp(L->want, joined, jl) == 0 && L->want[jl] == '!';
        bool side = L->side && L->side_wants && L->side_wants(joined);
        if (L->want && !wanted && !on_the_way && !side) {
            free(joined);
            continue;
        }
        struct member_reader rd = { .a = a, .size_known = archive_entry_size_is_set(e) != 0,
                                    .limit = L->limit - L->held, .held = L->held };
        if (rd.size_known && archive_entry_size(e) >= 0)
            rd.declared = (uint64_t)archive_entry_size(e);
        ssize_t got = read_some(a, rd.head, sizeof rd.head);
        if (got < 0) {
            char what[300];
            snprintf(what, sizeof what, "damaged member: %s", archive_error_string(a));
            problem(L, joined, what);
            free(joined);
            break;
        }
        rd.head_len = (size_t)got;
        bool lib = got >= 4 && mbx_metallib_magic(rd.head);
        if (wanted || (!L->want && (lib || mbx_metallib_name(joined)))) {
            /* A .metallib that is not one goes to fn too: opening it says
             * so, rather than the member passing in silence. */
            /* (With side members asked for, they may still follow.) */
            if (L->fn(L->ctx, joined, rd.declared, &rd) || (wanted && !L->side))
                L->stop = true;
        } else if (!lib && side) {
            if (L->side(L->ctx, joined, rd.declared, &rd))
                L->stop = true;
        } else if (!lib && mbx_archive_content(rd.head, rd.head_len)) {
            list_nested(L, &rd, joined, depth);
        } else if (!lib && mbx_macho_content(rd.head, rd.head_len)) {
            list_macho(L, joined, a, &rd);
        }
        free(joined);
    }
}

/* A file whose first bytes are a Mach-O's: its sections are listed, not
 * the file through libarchive. */
static bool is_macho_file(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    uint8_t head[8];
    ssize_t n = fd >= 0 ? pread(fd, head, sizeof head, 0) : -1;
    if (fd >= 0)
        close(fd);
    return n > 0 && mbx_macho_content(head, (size_t)n);
}

static int walk_lister(const char *path, struct lister L)
{
    char *err = L.err;
    size_t err_size = L.err_size;
    if (is_macho_file(path)) {
        struct macho_listener ml = macho_listener(&L);
        if (!mbx_macho_list_path(&ml, path, err, err_size))
            return -1;
        return L.status;
    }
    struct archive *a = new_reader();
    if (!a) {
        say(err, err_size, "%s", archive_dl_error() ? archive_dl_error() : "out of memory");
        return -1;
    }
    if (archive_read_open_filename(a, path, 1 << 16) != ARCHIVE_OK) {
        bool format = unrecognised(a);
        say(err, err_size, format ? "not a metallib, nor an archive libarchive reads (%s)" : "cannot read the archive: %s",
            archive_error_string(a));
        archive_read_free(a);
        return format ? ARCHIVE_NOT_ARCHIVE : -1;
    }
    list_entries(&L, a, NULL, 1);
    archive_read_free(a);
    return L.status;
}

static int walk_members(const char *path, const char *want, member_fn fn, void *ctx, const volatile int *cancel,
                        char *err, size_t err_size)
{
    return walk_lister(path, (struct lister){ fn, ctx, want, cancel, err, err_size, 0, false, mbx_member_limit(), 0,
                                              NULL, NULL, false });
}

int mbx_archive_list_metallibs(const char *path, member_fn fn, void *ctx, const volatile int *cancel,
                           char *err, size_t err_size)
{
    return walk_members(path, NULL, fn, ctx, cancel, err, err_size);
}

int mbx_archive_list_metallibs_and(const char *path, const char *want, member_fn fn,
                               bool (*side_wants)(const char *joined), member_fn side, void *ctx,
                               const volatile int *cancel, char *err, size_t err_size)
{
    return walk_lister(path, (struct lister){ fn, ctx, want, cancel, err, err_size, 0, false, mbx_member_limit(), 0,
                                              side_wants, side, false });
}

bool mbx_folder_or_archive(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return false;
    if (S_ISDIR(st.st_mode))
        return true;
    if (!S_ISREG(st.st_mode))
        return false;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    uint8_t head[ARCHIVE_HEAD];
    ssize_t n = fd >= 0 ? pread(fd, head, sizeof head, 0) : -1;
    bool archive = n > 0 && !(n >= 4 && mbx_metallib_magic(head)) &&
                   (mbx_archive_content(head, (size_t)n) || mbx_macho_content(head, (size_t)n));
    if (fd >= 0)
        close(fd);
    return archive;
}

size_t mbx_member_path_split(const char *arg)
{
    struct stat st;
    if (stat(arg, &st) == 0)
        return 0;
    size_t n = strlen(arg);
    char *prefix = malloc(n + 1);
    if (!prefix)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if (arg[i] != '!')
            continue;
        memcpy(prefix, arg, i);
        prefix[i] = '\0';
        if (stat(prefix, &st) == 0 && S_ISREG(st.st_mode)) {
            free(prefix);
            return i;
        }
    }
    free(prefix);
    return 0;
}

struct open_member {
    const char *want;
    bool found;
    void *data;
    size_t len;
    char err[256];
};

static int take_member(void *ctx, const char *name, uint64_t size, struct member_reader *rd)
{
    (void)size;
    (void)name;                /* walk_members calls only for om->want */
    struct open_member *om = ctx;
    om->found = true;
    om->data = mbx_member_read_all(rd, &om->len, om->err, sizeof om->err);
    return 1;
}

static int fail(struct mtlbx_error *err, enum mtlbx_status st, const char *msg)
{
    if (err) {
        err->status = st;
        err->offset = 0;
        err->has_offset = false;
        snprintf(err->message, sizeof err->message, "%s", msg);
    }
    return st;
}

/* ------------------------------------------------------- offers -- */

struct offer {
    const char *arg;           /* NULL: a free slot */
    void *data;
    size_t len;
    char error[256];
};

static _Thread_local struct offer offers[OPEN_ANY_OFFERS];

bool mbx_open_any_offer(const char *arg, void *data, size_t len, const char *error)
{
    for (size_t i = 0; i < OPEN_ANY_OFFERS; i++)
        if (!offers[i].arg) {
            offers[i] = (struct offer){ arg, data, len, "" };
            snprintf(offers[i].error, sizeof offers[i].error, "%s", error ? error : "");
            return true;
        }
    free(data);
    return false;
}

void mbx_open_any_withdraw(void)
{
    for (size_t i = 0; i < OPEN_ANY_OFFERS; i++) {
        free(offers[i].data);
        offers[i] = (struct offer){ 0 };
    }
}

/* The offer for arg, taken out of its slot; false when there is none. */
static bool take_offer(const char *arg, struct offer *out)
{
    for (size_t i = 0; i < OPEN_ANY_OFFERS; i++)
        if (offers[i].arg && strcmp(offers[i].arg, arg) == 0) {
            *out = offers[i];
            offers[i] = (struct offer){ 0 };
            return true;
        }
    return false;
}

/* The metallib sections of a Mach-O host named on its own: the first
 * three names and how many. */
struct host_sections {
    size_t n;
    char *names[3];
};

static int note_section(void *ctx, const char *name, uint64_t size, struct member_reader *rd)
{
    (void)size;
    (void)rd;
    struct host_sections *h = ctx;
    if (h->n < 3)
        h->names[h->n] = strdup(name);
    h->n++;
    return 0;
}

/* A Mach-O file named where a metallib is wanted: its one metallib
 * section, as HOST!SEGMENT,SECTION; several are named, none is said. */
static int open_host(const char *arg, mtlbx_file **out, struct mtlbx_error *err)
{
    struct host_sections h = { 0 };
    char list_err[256] = "";
    int rc = walk_members(arg, NULL, note_section, &h, NULL, list_err, sizeof list_err);
    char msg[sizeof err->message];
    if (h.n == 1 && h.names[0]) {
        char *full = mbx_archive_join(arg, h.names[0]);
        rc = full ? mbx_open_any(full, out, err) : fail(err, MTLBX_E_NOMEM, "out of memory");
        free(full);
    } else {
        if (h.n == 0)
            snprintf(msg, sizeof msg, "not a metallib: a Mach-O file with no metallib in its sections%s%.180s%s",
                     rc ? " (" : "", rc ? list_err : "", rc ? ")" : "");
        else
            snprintf(msg, sizeof msg, "a Mach-O file with %zu metallibs in its sections: name one, as HOST!%.80s%s%.80s",
                     h.n, h.names[0] ? h.names[0] : "?", h.names[1] ? " or HOST!" : "",
                     h.names[1] ? h.names[1] : "");
        rc = fail(err, MTLBX_E_NOT_METALLIB, msg);
    }
    for (size_t i = 0; i < 3; i++)
        free(h.names[i]);
    return rc;
}

int mbx_open_any(const char *arg, mtlbx_file **out, struct mtlbx_error *err)
{
    *out = NULL;
    struct offer ready;
    if (take_offer(arg, &ready))
        return ready.data ? mbx_open_buffer_owned(ready.data, ready.len, arg, out, err)
                          : fail(err, MTLBX_E_IO, ready.error);
    size_t cut = mbx_member_path_split(arg);
    if (!cut) {
        int rc = mbx_open_path(arg, out, err);
        return rc == MTLBX_E_NOT_METALLIB && is_macho_file(arg) ? open_host(arg, out, err) : rc;
    }
    char *archive = strndup(arg, cut);
    if (!archive)
        return fail(err, MTLBX_E_NOMEM, "out of memory");
    struct open_member om = { .want = arg + cut + 1 };
    char list_err[256] = "";
    int rc = walk_members(archive, om.want, take_member, &om, NULL, list_err, sizeof list_err);
    free(archive);
    if (!om.found)
        return fail(err, MTLBX_E_IO, rc ? list_err : "no such member in the archive");
    if (!om.data)
        return fail(err, MTLBX_E_IO, om.err);
    return mbx_open_buffer_owned(om.data, om.len, arg, out, err);
}
