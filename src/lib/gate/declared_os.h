/* What a package declares as the oldest OS it runs on, for the release
 * gate (`check` and `find --os declared`): each metallib found is held
 * against the minimum its package promises.
 *
 * Where a declaration comes from, and which libraries it covers:
 * - a wheel's platform tags (macosx_14_0_arm64, ios_13_0_arm64_iphoneos),
 *   from its file name (the archive itself, or a wheel inside an archive)
 *   and from its *.dist-info/WHEEL `Tag:` lines: every library in it;
 * - an Info.plist (LSMinimumSystemVersion for macOS, MinimumOSVersion for
 *   iOS, tvOS, watchOS and visionOS; XML or binary, info_plist.h) of a
 *   bundle (.app, .appex, .framework): every library below the bundle,
 *   in an archive (.ipa, .zip) or a folder (the folders named in the
 *   path are looked at, the nearest bundle first);
 * - the LC_BUILD_VERSION (or LC_VERSION_MIN_*) of the Mach-O slice whose
 *   section holds the library: that library.
 * A library's floor is the lowest version declared for its platform in
 * its scope: that is where the package lets itself be installed. No
 * printing; names and plist texts in the sources are valid UTF-8 (the
 * printer escapes them for a terminal). */
#ifndef MTLBX_DECLARED_OS_H
#define MTLBX_DECLARED_OS_H

#include "container/macho.h"
#include "checks/os.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct declaration {
    char *scope;               /* the joined member names it covers start with this ("" all) */
    enum mtlbx_os os;          /* MTLBX_OS_NONE: a MinimumOSVersion whose plist names no platform,
                                * taken for a library of any platform but macOS */
    struct mtlbx_os_version version;
    char *source;              /* "wheel tag macosx_14_0_arm64 (file name)" */
};

/* Info.plist files of bundles in folders, read once for many libraries
 * (one per thread: not locked). Zero-initialise; free with
 * mbx_bundle_cache_free. */
#define BUNDLE_CACHE_SLOTS 8
struct bundle_cache {
    struct bundle_slot {
        char *dir;             /* the bundle folder */
        bool found;
        struct declaration decl[2];
        size_t n_decl;
        char *note;            /* why it declares nothing, or NULL */
    } slot[BUNDLE_CACHE_SLOTS];
    size_t next;
};
void mbx_bundle_cache_free(struct bundle_cache *c);

/* What one job (a file named or met in a folder, with what is inside it)
 * declares. */
struct package {
    char *disk_path;           /* the file on disk */
    struct declaration *v;
    size_t n, cap;
    char **notes;              /* plists that declare nothing or could not be read */
    size_t n_notes, cap_notes;
    bool wheel;                /* its file name is a wheel's */
    bool bundle_above;         /* a bundle folder is among the folders above it */
    bool archive;              /* the job lists members (an archive or a Mach-O host) */
    bool members_declared;     /* a WHEEL or an Info.plist member was read */
    bool out_of_memory;
};

/* Starts the job on `disk_path`: the wheel tags of its file name, the
 * Info.plist of the bundles in the folders above it. */
void mbx_package_begin(struct package *p, const char *disk_path, bool archive, struct bundle_cache *cache);
void mbx_package_end(struct package *p);

/* Whether a member (its joined name inside the job) is a declaration to
 * read: a *.dist-info/WHEEL, or an Info.plist of a bundle. */
bool mbx_package_member_wanted(const char *joined);
/* Reads that member's bytes. */
void mbx_package_member(struct package *p, const char *joined, const uint8_t *data, size_t len);
/* That member could not be read (why: one line): said where it looked. */
void mbx_package_member_unread(struct package *p, const char *joined, const char *why);
/* Reads it through an archive listing's reader (bounded: INFO_PLIST_MAX_BYTES). */
struct member_reader;
void mbx_package_member_read(struct package *p, const char *joined, struct member_reader *rd);

/* The floor of one library: `member` its joined name inside the job (""
 * for the file itself), `slice` its Mach-O slice (a copy) or NULL, `host`
 * the Mach-O host's name for the source text, `os` its platform. */
struct floor {
    bool found;
    enum mtlbx_os os;
    struct mtlbx_os_version version;
    char source[320];          /* where the floor comes from */
    bool other_platforms;      /* not found, but the package declares for other platforms */
    char others[320];          /* those, for the warning */
    char looked[400];          /* not found: where it looked */
};
void mbx_package_floor(const struct package *p, const char *member, const struct mtlbx_macho_slice *slice,
                   const char *host, enum mtlbx_os os, struct floor *out);

#endif
