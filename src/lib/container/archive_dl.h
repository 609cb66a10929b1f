/* libarchive, loaded when first needed (archive_dl.c). Include this after
 * <archive.h> and <archive_entry.h> instead of linking -larchive: each
 * archive_* call below goes to the library opened with dlopen on the first
 * call. Linked in, libarchive and the ten libraries it pulls in (xml2, icu,
 * nettle, zstd ...) were half of every command's start-up, for the few
 * that read an archive (the embedded sources, .ipa and .zip operands). */
#ifndef MTLBX_ARCHIVE_DL_H
#define MTLBX_ARCHIVE_DL_H

#include <archive.h>
#include <archive_entry.h>
#include <stdbool.h>

/* Loads libarchive (once; thread-safe). False when it cannot be loaded:
 * then archive_dl_error() says why, in one line, and every archive_*
 * call below fails as an out-of-memory would (archive_read_new gives NULL). */
bool archive_dl_load(void);
/* Why libarchive could not be loaded ("libarchive.so.13: cannot open
 * shared object file ..."), or NULL when it is loaded or not tried yet. */
const char *archive_dl_error(void);
/* Whether loading failed for want of memory (mapping the library or one
 * it needs): the environment's failure, not the file's. */
bool archive_dl_out_of_memory(void);

/* archive_read_next_header as every reader of members calls it: in the
 * C.UTF-8 locale of the calling thread. libarchive converts a member's
 * name to the current locale's charset when the archive records one (a
 * zip's UTF-8 flag, a pax header); in the C locale, where the program runs
 * (it never calls setlocale, and a library must not), a name outside ASCII
 * does not convert: it comes back NULL with ARCHIVE_WARN, and two members
 * named with an accent or a bidi control would both be "". uselocale()
 * changes this thread alone, for this one call; names then keep the bytes
 * they are stored as, and are escaped wherever shown. */
int archive_dl_next_header(struct archive *a, struct archive_entry **e);
/* The member's name as read there (its stored bytes), or NULL when the
 * archive holds none libarchive could give. */
const char *archive_dl_entry_name(struct archive_entry *e);

/* (return type, name, parameters, arguments, what it returns unloaded) */
#define ARCHIVE_DL_FUNCTIONS(X) \
    X(struct archive *, archive_read_new, (void), (), NULL) \
    X(int, archive_read_free, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_errno, (struct archive *a), (a), 0) \
    X(const char *, archive_error_string, (struct archive *a), (a), archive_dl_error()) \
    X(la_ssize_t, archive_read_data, (struct archive *a, void *buf, size_t n), (a, buf, n), ARCHIVE_FATAL) \
    X(int, archive_read_data_block, (struct archive *a, const void **buf, size_t *n, la_int64_t *off), \
      (a, buf, n, off), ARCHIVE_FATAL) \
    X(int, archive_read_next_header, (struct archive *a, struct archive_entry **e), (a, e), ARCHIVE_FATAL) \
    X(int, archive_read_open_filename, (struct archive *a, const char *path, size_t block), (a, path, block), \
      ARCHIVE_FATAL) \
    X(int, archive_read_open_memory, (struct archive *a, const void *buf, size_t n), (a, buf, n), ARCHIVE_FATAL) \
    X(int, archive_read_support_filter_bzip2, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_read_support_filter_compress, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_read_support_filter_gzip, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_read_support_filter_lz4, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_read_support_filter_lzip, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_read_support_filter_none, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_read_support_filter_xz, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_read_support_filter_zstd, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_read_support_format_7zip, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_read_support_format_ar, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_read_support_format_cpio, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_read_support_format_empty, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_read_support_format_gnutar, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_read_support_format_rar, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_read_support_format_rar5, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_read_support_format_tar, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_read_support_format_xar, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(int, archive_read_support_format_zip, (struct archive *a), (a), ARCHIVE_FATAL) \
    X(__LA_MODE_T, archive_entry_filetype, (struct archive_entry *e), (e), 0) \
    X(__LA_MODE_T, archive_entry_perm, (struct archive_entry *e), (e), 0) \
    X(const char *, archive_entry_hardlink, (struct archive_entry *e), (e), NULL) \
    X(const char *, archive_entry_pathname, (struct archive_entry *e), (e), NULL) \
    X(const char *, archive_entry_pathname_utf8, (struct archive_entry *e), (e), NULL) \
    X(const char *, archive_entry_symlink, (struct archive_entry *e), (e), NULL) \
    X(la_int64_t, archive_entry_size, (struct archive_entry *e), (e), 0) \
    X(int, archive_entry_size_is_set, (struct archive_entry *e), (e), 0)

/* Our names for them (never libarchive's own: nothing of ours may
 * interpose on its symbols), and the calls renamed to them. */
#define ARCHIVE_DL_DECLARE(ret, name, params, args, unloaded) ret dl_##name params;
ARCHIVE_DL_FUNCTIONS(ARCHIVE_DL_DECLARE)
#undef ARCHIVE_DL_DECLARE

#define archive_read_new dl_archive_read_new
#define archive_read_free dl_archive_read_free
#define archive_errno dl_archive_errno
#define archive_error_string dl_archive_error_string
#define archive_read_data dl_archive_read_data
#define archive_read_data_block dl_archive_read_data_block
#define archive_read_next_header dl_archive_read_next_header
#define archive_read_open_filename dl_archive_read_open_filename
#define archive_read_open_memory dl_archive_read_open_memory
#define archive_read_support_filter_bzip2 dl_archive_read_support_filter_bzip2
#define archive_read_support_filter_compress dl_archive_read_support_filter_compress
#define archive_read_support_filter_gzip dl_archive_read_support_filter_gzip
#define archive_read_support_filter_lz4 dl_archive_read_support_filter_lz4
#define archive_read_support_filter_lzip dl_archive_read_support_filter_lzip
#define archive_read_support_filter_none dl_archive_read_support_filter_none
#define archive_read_support_filter_xz dl_archive_read_support_filter_xz
#define archive_read_support_filter_zstd dl_archive_read_support_filter_zstd
#define archive_read_support_format_7zip dl_archive_read_support_format_7zip
#define archive_read_support_format_ar dl_archive_read_support_format_ar
#define archive_read_support_format_cpio dl_archive_read_support_format_cpio
#define archive_read_support_format_empty dl_archive_read_support_format_empty
#define archive_read_support_format_gnutar dl_archive_read_support_format_gnutar
#define archive_read_support_format_rar dl_archive_read_support_format_rar
#define archive_read_support_format_rar5 dl_archive_read_support_format_rar5
#define archive_read_support_format_tar dl_archive_read_support_format_tar
#define archive_read_support_format_xar dl_archive_read_support_format_xar
#define archive_read_support_format_zip dl_archive_read_support_format_zip
#define archive_entry_filetype dl_archive_entry_filetype
#define archive_entry_perm dl_archive_entry_perm
#define archive_entry_hardlink dl_archive_entry_hardlink
#define archive_entry_pathname dl_archive_entry_pathname
#define archive_entry_pathname_utf8 dl_archive_entry_pathname_utf8
#define archive_entry_symlink dl_archive_entry_symlink
#define archive_entry_size dl_archive_entry_size
#define archive_entry_size_is_set dl_archive_entry_size_is_set

#endif
