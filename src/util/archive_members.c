/* Reading metallibs out of .ipa/.zip archives with libarchive: list the
 * members by magic, decompress one into memory under a size limit, and
 * open "ARCHIVE!MEMBER" paths. See archive_members.h. */
#include "config.h"

#include "archive_members.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

struct member_reader {
    struct archive *a;
    uint8_t head[4];           /* the bytes already read to see the magic */
    size_t head_len;
    uint64_t declared;         /* size in the archive's directory, 0 unknown */
    bool size_known;
};

uint64_t member_limit(void)
{
    const char *env = getenv("MTLBX_MEMBER_LIMIT");
    if (env && *env) {
        char *end;
        unsigned long long v = strtoull(env, &end, 10);
        if (*end == '\0' && v > 0)
            return v;
    }
    return MEMBER_LIMIT_DEFAULT;
}

bool metallib_magic(const uint8_t m[4])
{
    return (m[0] == 'M' && m[1] == 'T' && m[2] == 'L' && m[3] == 'B') ||
           (m[0] == 0xCB && m[1] == 0xFE && m[2] == 0xBA && m[3] == 0xBE);
}

bool archive_magic(const uint8_t m[4])
{
    /* A local file header, or the end record of an empty archive. */
    return m[0] == 'P' && m[1] == 'K' && ((m[2] == 3 && m[3] == 4) || (m[2] == 5 && m[3] == 6));
}

bool archive_name_wanted(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && (strcasecmp(name + n - 4, ".ipa") == 0 || strcasecmp(name + n - 4, ".zip") == 0);
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

void *member_read_all(struct member_reader *rd, size_t *len, char *err, size_t err_size)
{
    uint64_t limit = member_limit();
    *len = 0;
    if (rd->size_known && rd->declared > limit) {
        snprintf(err, err_size, "member of %llu bytes is over the limit of %llu bytes (MTLBX_MEMBER_LIMIT)",
                 (unsigned long long)rd->declared, (unsigned long long)limit);
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
                snprintf(err, err_size, "member decompresses past the limit of %llu bytes (a zip bomb?)",
                         (unsigned long long)limit);
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
        la_ssize_t n = archive_read_data(rd->a, buf + used, cap - used);
        if (n < 0) {
            say(err, err_size, "damaged member: %s", archive_error_string(rd->a));
            free(buf);
            return NULL;
        }
        if (n == 0)
            break;
        used += (size_t)n;
    }
    if (used > limit) {
        free(buf);
        snprintf(err, err_size, "member decompresses past the limit of %llu bytes (a zip bomb?)",
                 (unsigned long long)limit);
        return NULL;
    }
    *len = used;
    return buf;
}

/* Every regular member (only_metallibs: those with a metallib magic) goes
 * to fn, after its first four bytes have been read. */
static int walk_members(const char *path, bool only_metallibs, member_fn fn, void *ctx,
                        const volatile int *cancel, char *err, size_t err_size)
{
    struct archive *a = archive_read_new();
    if (!a) {
        say(err, err_size, "%s", "out of memory");
        return -1;
    }
    archive_read_support_format_zip(a);
    if (archive_read_open_filename(a, path, 1 << 16) != ARCHIVE_OK) {
        say(err, err_size, "cannot read the archive: %s", archive_error_string(a));
        archive_read_free(a);
        return -1;
    }
    int status = 0;
    struct archive_entry *e;
    for (size_t count = 0;; count++) {
        if (cancel && *cancel)
            break;
        if (count == ARCHIVE_MAX_ENTRIES) {
            snprintf(err, err_size, "more than %d entries: the rest is not read", ARCHIVE_MAX_ENTRIES);
            status = -1;
            break;
        }
        int r = archive_read_next_header(a, &e);
        if (r == ARCHIVE_EOF)
            break;
        if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
            say(err, err_size, "damaged archive: %s", archive_error_string(a));
            status = -1;
            break;
        }
        if (archive_entry_filetype(e) != AE_IFREG)
            continue;
        const char *name = archive_entry_pathname(e);
        if (!name)
            name = archive_entry_pathname_utf8(e);
        struct member_reader rd = { .a = a, .size_known = archive_entry_size_is_set(e) != 0 };
        if (rd.size_known && archive_entry_size(e) >= 0)
            rd.declared = (uint64_t)archive_entry_size(e);
        ssize_t got = read_some(a, rd.head, sizeof rd.head);
        if (got < 0) {
            char what[300];
            snprintf(what, sizeof what, "%.200s", name ? name : "?");
            snprintf(err, err_size, "damaged member %s: %s", what, archive_error_string(a));
            status = -1;
            break;
        }
        rd.head_len = (size_t)got;
        if (only_metallibs && (got < 4 || !metallib_magic(rd.head)))
            continue;
        if (fn(ctx, name ? name : "", rd.declared, &rd))
            break;
    }
    archive_read_free(a);
    return status;
}

int archive_list_metallibs(const char *path, member_fn fn, void *ctx, const volatile int *cancel,
                           char *err, size_t err_size)
{
    return walk_members(path, true, fn, ctx, cancel, err, err_size);
}

size_t member_path_split(const char *arg)
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
    struct open_member *om = ctx;
    if (strcmp(name, om->want) != 0)
        return 0;
    om->found = true;
    om->data = member_read_all(rd, &om->len, om->err, sizeof om->err);
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

int open_any(const char *arg, mtlbx_file **out, struct mtlbx_error *err)
{
    *out = NULL;
    size_t cut = member_path_split(arg);
    if (!cut)
        return mtlbx_open_path(arg, out, err);
    char *archive = strndup(arg, cut);
    if (!archive)
        return fail(err, MTLBX_E_NOMEM, "out of memory");
    struct open_member om = { .want = arg + cut + 1 };
    char list_err[256] = "";
    int rc = walk_members(archive, false, take_member, &om, NULL, list_err, sizeof list_err);
    free(archive);
    if (!om.found)
        return fail(err, MTLBX_E_IO, rc ? list_err : "no such member in the archive");
    if (!om.data)
        return fail(err, MTLBX_E_IO, om.err);
    return mtlbx_open_memory_owned(om.data, om.len, arg, out, err);
}
