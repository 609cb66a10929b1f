/* The declarations of declared_os.h: wheel tags, bundles' Info.plist,
 * a Mach-O slice's minimum OS, and which libraries each one covers. */
#include "config.h"

#include "declared_os.h"
#include "archive_members.h"
#include "info_plist.h"
#include "container/dup_printf.h"
#include "container/escape.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const BUNDLE_SUFFIXES[] = { ".app", ".appex", ".framework" };

/* ------------------------------------------------------------ helpers -- */

/* A name for messages: valid UTF-8 (invalid bytes as \xNN). Whoever
 * prints a message escapes it for a terminal, once. */
static char *shown(const char *s, size_t len)
{
    return mbx_escape_dup((const uint8_t *)s, len, 0);
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);
    return len >= n && strncasecmp(s + len - n, suffix, n) == 0;
}

static bool bundle_name(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof BUNDLE_SUFFIXES / sizeof *BUNDLE_SUFFIXES; i++)
        if (ends_with(s, len, BUNDLE_SUFFIXES[i]))
            return true;
    return false;
}

static void add(struct package *p, const char *scope, size_t scope_len, enum mtlbx_os os, struct mtlbx_os_version v,
                char *source)
{
    char *sc = strndup(scope, scope_len);
    if (!source || !sc || (p->n == p->cap && !(p->v = realloc(p->v, (p->cap = p->cap ? 2 * p->cap : 8) * sizeof *p->v)))) {
        free(sc);
        free(source);
        p->out_of_memory = true;
        if (!p->v)
            p->n = p->cap = 0;
        return;
    }
    p->v[p->n++] = (struct declaration){ sc, os, v, source };
}

static void note(struct package *p, char *text)
{
    if (!text || (p->n_notes == p->cap_notes &&
                  !(p->notes = realloc(p->notes, (p->cap_notes = p->cap_notes ? 2 * p->cap_notes : 4) * sizeof *p->notes)))) {
        free(text);
        p->out_of_memory = true;
        if (!p->notes)
            p->n_notes = p->cap_notes = 0;
        return;
    }
    p->notes[p->n_notes++] = text;
}

/* ------------------------------------------------------------- wheels -- */

/* A platform tag: macosx_14_0_arm64 (macOS 14.0), ios_13_0_arm64_iphoneos
 * (iOS 13.0, PEP 730). */
static bool platform_tag(const char *tag, size_t len, enum mtlbx_os *os, struct mtlbx_os_version *v)
{
    size_t skip;
    if (len > 7 && strncmp(tag, "macosx_", 7) == 0)
        *os = MTLBX_OS_MACOS, skip = 7;
    else if (len > 4 && strncmp(tag, "ios_", 4) == 0)
        *os = MTLBX_OS_IOS, skip = 4;
    else
        return false;
    unsigned long major = 0, minor = 0;
    size_t i = skip, start = i;
    while (i < len && tag[i] >= '0' && tag[i] <= '9' && i - start < 5)
        major = major * 10 + (unsigned long)(tag[i++] - '0');
    if (i == start || i >= len || tag[i] != '_')
        return false;
    start = ++i;
    while (i < len && tag[i] >= '0' && tag[i] <= '9' && i - start < 5)
        minor = minor * 10 + (unsigned long)(tag[i++] - '0');
    if (i == start || i >= len || tag[i] != '_' || major > UINT16_MAX || minor > UINT16_MAX)
        return false;
    *v = (struct mtlbx_os_version){ (uint16_t)major, (uint16_t)minor };
    return true;
}

/* The lowest version each platform's tags name, over every tag of one
 * source (a file name, a WHEEL file): the floor is the lowest, so one
 * declaration per platform says all the tags can. One per tag would copy
 * the scope and the source's name per tag: 80,000 tags in a WHEEL under a
 * 60,000-byte member name were 4.7 GB. Ties keep the first tag seen, as
 * the floor does. */
struct tag_mins {
    bool has[MTLBX_OS_COUNT];
    struct mtlbx_os_version v[MTLBX_OS_COUNT];
    const char *tag[MTLBX_OS_COUNT];
    size_t tag_len[MTLBX_OS_COUNT];
};

/* A tag as a message shows it: at most this many bytes of it. */
#define TAG_SHOWN 64

/* The platform tags of "PLAT.PLAT..." (a compressed tag set), into m. */
static void add_tags(struct tag_mins *m, const char *tags, size_t len)
{
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && tags[j] != '.')
            j++;
        enum mtlbx_os os;
        struct mtlbx_os_version v;
        if (platform_tag(tags + i, j - i, &os, &v) && (!m->has[os] || mbx_os_version_cmp(v, m->v[os]) < 0)) {
            m->has[os] = true;
            m->v[os] = v;
            m->tag[os] = tags + i;
            m->tag_len[os] = j - i;
        }
        i = j + 1;
    }
}

/* One declaration per platform of m, covering `scope`. */
static void add_tag_mins(struct package *p, const struct tag_mins *m, const char *scope, size_t scope_len,
                         const char *where)
{
    for (int os = 0; os < MTLBX_OS_COUNT; os++) {
        if (!m->has[os])
            continue;
        size_t n = m->tag_len[os];
        char *tag = shown(m->tag[os], n > TAG_SHOWN ? TAG_SHOWN : n);
        add(p, scope, scope_len, (enum mtlbx_os)os, m->v[os],
            tag ? mbx_dup_printf("wheel tag %s%s in %s", tag, n > TAG_SHOWN ? "..." : "", where) : NULL);
        free(tag);
    }
}

/* A wheel's file name, NAME-VERSION[-BUILD]-PY-ABI-PLATFORM.whl: its
 * platform tags cover `scope`. */
static bool wheel_name(struct package *p, const char *name, size_t len, const char *scope, size_t scope_len)
{
    if (!ends_with(name, len, ".whl"))
        return false;
    len -= 4;
    size_t dashes = 0, last = 0;
    for (size_t i = 0; i < len; i++)
        if (name[i] == '-')
            dashes++, last = i;
    if (dashes < 4)
        return false;
    p->wheel = true;
    struct tag_mins m = { 0 };
    add_tags(&m, name + last + 1, len - last - 1);
    char *base = shown(name, len + 4);
    char *where = base ? mbx_dup_printf("the file name %s", base) : NULL;
    if (where)
        add_tag_mins(p, &m, scope, scope_len, where);
    else
        p->out_of_memory = true;
    free(where);
    free(base);
    return true;
}

/* *.dist-info/WHEEL: "Tag: cp312-cp312-macosx_14_0_arm64" lines. */
static void wheel_metadata(struct package *p, const char *scope, size_t scope_len, const char *where,
                           const uint8_t *data, size_t len)
{
    struct tag_mins m = { 0 };
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && data[e] != '\n')
            e++;
        size_t end = e > i && data[e - 1] == '\r' ? e - 1 : e;
        if (end - i > 4 && memcmp(data + i, "Tag:", 4) == 0) {
            size_t last = end;
            while (last > i && data[last - 1] != '-')
                last--;
            if (last > i)
                add_tags(&m, (const char *)data + last, end - last);
        }
        i = e + 1;
    }
    add_tag_mins(p, &m, scope, scope_len, where);
}

/* ---------------------------------------------------------- Info.plist -- */

/* Declarations of one Info.plist (read into decl[0..1]); a note when it
 * declares nothing. */
static size_t plist_declarations(const uint8_t *data, size_t len, const char *where, struct declaration decl[2],
                                 char **why)
{
    struct info_plist_min m;
    char err[160];
    size_t n = 0;
    *why = NULL;
    if (!mbx_info_plist_read(data, len, &m, err, sizeof err)) {
        *why = mbx_dup_printf("%s: %s", where, err);
        return 0;
    }
    if (m.has_macos)
        decl[n++] = (struct declaration){ NULL, MTLBX_OS_MACOS, m.macos,
                                          mbx_dup_printf("LSMinimumSystemVersion %s in %s", m.macos_text, where) };
    if (m.has_other)
        decl[n++] = (struct declaration){ NULL, m.other_os, m.other,
                                          mbx_dup_printf("MinimumOSVersion %s in %s%s", m.other_text, where,
                                                     m.other_os ? "" : ", which names no platform") };
    if (m.bad_macos || m.bad_other)
        *why = mbx_dup_printf("%s: %s \"%s\" is not a version", where,
                          m.bad_macos ? "LSMinimumSystemVersion" : "MinimumOSVersion",
                          m.bad_macos ? m.macos_text : m.other_text);
    else if (!n)
        *why = mbx_dup_printf("%s declares no LSMinimumSystemVersion or MinimumOSVersion", where);
    return n;
}

/* The bundle folder an Info.plist at `path` (len bytes, '/'-separated)
 * belongs to: B.app/Info.plist, B.app/Contents/Info.plist,
 * B.framework/Resources/Info.plist, B.framework/Versions/A/Resources/Info.plist.
 * Returns the length of "…/B.app/" (0: not a bundle's). */
static size_t plist_bundle(const char *path, size_t len)
{
    static const char leaf[] = "Info.plist";
    if (len < sizeof leaf - 1 || memcmp(path + len - (sizeof leaf - 1), leaf, sizeof leaf - 1) != 0 ||
        (len > sizeof leaf - 1 && path[len - sizeof leaf] != '/'))
        return 0;
    size_t dir = len - (sizeof leaf - 1); /* "…/B.app/Contents/" */
    for (int step = 0; step < 4 && dir > 1; step++) {
        size_t start = dir - 1;
        while (start > 0 && path[start - 1] != '/')
            start--;
        if (bundle_name(path + start, dir - 1 - start))
            return dir;
        dir = start; /* one folder up: Contents/, Resources/, Versions/A/ */
    }
    return 0;
}

bool mbx_package_member_wanted(const char *joined)
{
    const char *name = strrchr(joined, '!');
    name = name ? name + 1 : joined;
    size_t len = strlen(name);
    const char *slash = strchr(name, '/');
    if (slash && strcmp(slash, "/WHEEL") == 0 && ends_with(name, (size_t)(slash - name), ".dist-info"))
        return true;
    return plist_bundle(name, len) != 0;
}

void mbx_package_member(struct package *p, const char *joined, const uint8_t *data, size_t len)
{
    const char *name = strrchr(joined, '!');
    size_t prefix = name ? (size_t)(name + 1 - joined) : 0; /* "OUTER!" of a nested archive */
    name = joined + prefix;
    char *full = mbx_dup_printf("%s!%s", p->disk_path ? p->disk_path : "", joined);
    char *where = full ? shown(full, strlen(full)) : NULL;
    free(full);
    if (!where) {
        p->out_of_memory = true;
        return;
    }
    p->members_declared = true;
    size_t bundle = plist_bundle(name, strlen(name));
    if (bundle) {
        struct declaration decl[2];
        char *why;
        size_t n = plist_declarations(data, len, where, decl, &why);
        char *scope = mbx_dup_printf("%.*s%.*s", (int)prefix, joined, (int)bundle, name);
        for (size_t i = 0; i < n; i++)
            add(p, scope ? scope : "", scope ? strlen(scope) : 0, decl[i].os, decl[i].version, decl[i].source);
        if (why)
            note(p, why);
        free(scope);
    } else {
        wheel_metadata(p, joined, prefix, where, data, len);
    }
    free(where);
}

void mbx_package_member_unread(struct package *p, const char *joined, const char *why)
{
    char *full = mbx_dup_printf("%s!%s", p->disk_path ? p->disk_path : "", joined);
    char *where = full ? shown(full, strlen(full)) : NULL;
    free(full);
    note(p, where ? mbx_dup_printf("%s: not read: %s", where, why) : NULL);
    free(where);
}

void mbx_package_member_read(struct package *p, const char *joined, struct member_reader *rd)
{
    char err[256];
    size_t len;
    void *data = mbx_member_read_upto(rd, INFO_PLIST_MAX_BYTES, &len, err, sizeof err);
    if (data)
        mbx_package_member(p, joined, data, len);
    else
        mbx_package_member_unread(p, joined, err);
    free(data);
}

/* ------------------------------------------------------------ folders -- */

static const char *const PLIST_PLACES[] = { "Contents/Info.plist", "Info.plist", "Resources/Info.plist" };

/* Reads the first Info.plist of the bundle folder `dir` into a slot. */
static void read_bundle(struct bundle_slot *s)
{
    for (size_t i = 0; i < sizeof PLIST_PLACES / sizeof *PLIST_PLACES && !s->found; i++) {
        char *path = mbx_dup_printf("%s/%s", s->dir, PLIST_PLACES[i]);
        int fd = path ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW) : -1;
        struct stat st;
        if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
            s->found = true;
            size_t want = st.st_size > (off_t)INFO_PLIST_MAX_BYTES ? INFO_PLIST_MAX_BYTES + 1 : (size_t)st.st_size;
            uint8_t *buf = malloc(want ? want : 1);
            size_t got = 0;
            while (buf && got < want) {
                ssize_t r = read(fd, buf + got, want - got);
                if (r < 0 && errno == EINTR)
                    continue;
                if (r <= 0)
                    break;
                got += (size_t)r;
            }
            char *where = shown(path, strlen(path));
            if (buf && where)
                s->n_decl = plist_declarations(buf, got, where, s->decl, &s->note);
            else
                s->note = mbx_dup_printf("%s: not read: out of memory", where ? where : "Info.plist");
            free(where);
            free(buf);
        }
        if (fd >= 0)
            close(fd);
        free(path);
    }
}

static struct bundle_slot *bundle_lookup(struct bundle_cache *c, const char *dir, size_t len)
{
    for (size_t i = 0; i < BUNDLE_CACHE_SLOTS; i++)
        if (c->slot[i].dir && strlen(c->slot[i].dir) == len && memcmp(c->slot[i].dir, dir, len) == 0)
            return &c->slot[i];
    struct bundle_slot *s = &c->slot[c->next];
    c->next = (c->next + 1) % BUNDLE_CACHE_SLOTS;
    free(s->dir);
    for (size_t i = 0; i < s->n_decl; i++)
        free(s->decl[i].source);
    free(s->note);
    *s = (struct bundle_slot){ strndup(dir, len), false, { { 0 } }, 0, NULL };
    if (s->dir)
        read_bundle(s);
    return s;
}

void mbx_bundle_cache_free(struct bundle_cache *c)
{
    for (size_t i = 0; i < BUNDLE_CACHE_SLOTS; i++) {
        free(c->slot[i].dir);
        for (size_t k = 0; k < c->slot[i].n_decl; k++)
            free(c->slot[i].decl[k].source);
        free(c->slot[i].note);
    }
    memset(c, 0, sizeof *c);
}

/* The bundles among the folders named in the path, nearest first. */
static void folder_bundles(struct package *p, const char *path, struct bundle_cache *cache)
{
    size_t end = strlen(path);
    while (end > 0 && path[end - 1] != '/')
        end--;                  /* the file's own name is not a folder */
    while (end > 1) {
        size_t dir_end = end - 1; /* without the '/' */
        size_t start = dir_end;
        while (start > 0 && path[start - 1] != '/')
            start--;
        if (bundle_name(path + start, dir_end - start)) {
            p->bundle_above = true;
            struct bundle_slot *s = bundle_lookup(cache, path, dir_end);
            for (size_t i = 0; i < s->n_decl; i++)
                add(p, "", 0, s->decl[i].os, s->decl[i].version, strdup(s->decl[i].source));
            if (s->note)
                note(p, strdup(s->note));
        }
        end = start;
    }
}

/* -------------------------------------------------------------- a job -- */

void mbx_package_begin(struct package *p, const char *disk_path, bool archive, struct bundle_cache *cache)
{
    memset(p, 0, sizeof *p);
    p->archive = archive;
    p->disk_path = strdup(disk_path);
    p->out_of_memory = !p->disk_path;
    const char *base = strrchr(disk_path, '/');
    base = base ? base + 1 : disk_path;
    wheel_name(p, base, strlen(base), "", 0);
    folder_bundles(p, disk_path, cache);
}

void mbx_package_end(struct package *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->v[i].scope);
        free(p->v[i].source);
    }
    for (size_t i = 0; i < p->n_notes; i++)
        free(p->notes[i]);
    free(p->v);
    free(p->notes);
    free(p->disk_path);
    memset(p, 0, sizeof *p);
}

static bool applies(const struct declaration *d, enum mtlbx_os os)
{
    return d->os == os || (d->os == MTLBX_OS_NONE && os != MTLBX_OS_MACOS && os != MTLBX_OS_NONE);
}

/* Takes d as the floor if it is lower than the one so far. */
static void consider(struct floor *out, enum mtlbx_os os, const struct declaration *d)
{
    if (out->found && mbx_os_version_cmp(d->version, out->version) >= 0)
        return;
    out->found = true;
    out->os = os;
    out->version = d->version;
    snprintf(out->source, sizeof out->source, "%s", d->source);
}

static void add_other(struct floor *out, const struct declaration *d)
{
    size_t len = strlen(out->others);
    if (len + 1 < sizeof out->others)
        snprintf(out->others + len, sizeof out->others - len, "%s%s %u.%u (%s)", len ? "; " : "",
                 mbx_os_name(d->os) ? mbx_os_name(d->os) : "an unnamed platform", d->version.major,
                 d->version.minor, d->source);
    out->other_platforms = true;
}

void mbx_package_floor(const struct package *p, const char *member, const struct mtlbx_macho_slice *slice,
                   const char *host, enum mtlbx_os os, struct floor *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < p->n; i++) {
        const struct declaration *d = &p->v[i];
        if (strncmp(member, d->scope, strlen(d->scope)) != 0)
            continue;
        if (applies(d, os))
            consider(out, os, d);
        else
            add_other(out, d);
    }
    /* Wheels inside the archive: OUTER!x.whl!member */
    struct package inner = { 0 };
    for (const char *bang = strchr(member, '!'); bang; bang = strchr(bang + 1, '!')) {
        const char *start = bang;
        while (start > member && start[-1] != '!' && start[-1] != '/')
            start--;
        wheel_name(&inner, start, (size_t)(bang - start), "", 0);
    }
    for (size_t i = 0; i < inner.n; i++)
        applies(&inner.v[i], os) ? consider(out, os, &inner.v[i]) : add_other(out, &inner.v[i]);
    mbx_package_end(&inner);
    /* Its Mach-O host */
    for (size_t i = 0; slice && i < slice->n_min_os; i++) {
        const struct mtlbx_macho_min_os *m = &slice->min_os[i];
        const char *arch = mbx_macho_cpu_name(slice->cputype, slice->cpusubtype);
        char *h = shown(host, strlen(host));
        struct declaration d = { NULL, mbx_platform_os(m->platform), { m->major, m->minor },
                                 mbx_dup_printf("%s minos %u.%u of %s%s%s%s",
                                            m->cmd == MTLBX_LC_BUILD_VERSION ? "LC_BUILD_VERSION" : "LC_VERSION_MIN",
                                            m->major, m->minor, h ? h : "its host", arch ? " (" : "",
                                            arch ? arch : "", arch ? ")" : "") };
        free(h);
        if (d.source && d.os != MTLBX_OS_NONE)
            applies(&d, os) ? consider(out, os, &d) : add_other(out, &d);
        free(d.source);
    }
    if (out->found)
        return;
    /* Where it looked */
    size_t n = 0;
    char *buf = out->looked;
    size_t size = sizeof out->looked;
#define LOOKED(...) \
    do { \
        if (n + 1 < size) \
            n += (size_t)snprintf(buf + n, size - n, __VA_ARGS__); \
        if (n >= size) \
            n = size - 1; \
    } while (0)
    const char *base = strrchr(p->disk_path ? p->disk_path : "", '/');
    base = base ? base + 1 : p->disk_path ? p->disk_path : "";
    char *b = shown(base, strlen(base));
    if (p->wheel)
        LOOKED("the wheel's platform tags (none in %s names a macOS or iOS version)", b ? b : "?");
    else
        LOOKED("a wheel's platform tag (%s is not a wheel's name)", b ? b : "?");
    free(b);
    bool host_alone = slice && !strchr(member, '!'); /* the job is a Mach-O file: its members are sections */
    if (p->archive && !host_alone)
        LOOKED(", the members (%s)", p->members_declared ? "no WHEEL or bundle Info.plist declares it" :
                                                            "no *.dist-info/WHEEL, no bundle Info.plist");
    LOOKED(", the folders above it (%s)", p->bundle_above ? "their bundles declare no minimum for it" :
                                                            "no .app, .appex or .framework");
    if (slice)
        LOOKED(", its Mach-O slice (no LC_BUILD_VERSION or LC_VERSION_MIN_*)");
    for (size_t i = 0; i < p->n_notes; i++)
        LOOKED("; %s", p->notes[i]);
#undef LOOKED
}
