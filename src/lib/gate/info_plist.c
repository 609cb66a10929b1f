/* Info.plist through libplist (info_plist.h).
 *
 * libplist 2.2 (Debian 12) reads any plist, but it has no bounds of its
 * own: it recurses once per nesting level (an XML plist 200,000 arrays
 * deep, 2.6 MB, overflows the stack; a binary one 116,000 deep does under
 * ASan), and it copies a binary plist's shared references out into a tree
 * (a 200-byte plist whose arrays each name the next one 14 times would be
 * 14^11 nodes: it ran for minutes). So before libplist sees the bytes they
 * are bounded here: the size, the XML nesting depth, and for a binary
 * plist the object table (every reference inside it, no cycle) and the
 * size of the tree it unfolds to. This checks structure only; every value
 * is read by libplist. */
#include "config.h"

#include "info_plist.h"
#include "checks/requires_text.h"
#include "container/escape.h"

#include <plist/plist.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Deeper than any real Info.plist (a dozen levels at most). */
#define MAX_DEPTH 64
/* Nodes a binary plist may unfold to (a real one: a few hundred). */
#define MAX_NODES 100000

/* ---------------------------------------------------------- XML depth -- */

/* Where `end` (a terminator such as "-->") ends at or after `from`, or n
 * when the text ends first. */
static size_t skip_past(const uint8_t *p, size_t n, size_t from, const char *end)
{
    size_t el = strlen(end);
    const uint8_t *hit = from <= n ? memmem(p + from, n - from, end, el) : NULL;
    return hit ? (size_t)(hit - p) + el : n;
}

static bool starts(const uint8_t *p, size_t n, size_t at, const char *s)
{
    size_t l = strlen(s);
    return n - at >= l && memcmp(p + at, s, l) == 0;
}

/* The deepest nesting of <array> and <dict> (an element that closes
 * itself, <dict/>, does not nest). One pass, each byte looked at a
 * bounded number of times: a markup run is scanned once for its end and
 * the scan goes on after it, so a megabyte of "</dict" with no '>' costs
 * one pass, not one per tag. Comments, CDATA sections and processing
 * instructions are skipped whole: "</dict>" inside a comment is no tag.
 * An unterminated tag ends the scan (libplist refuses such a file). */
static bool xml_depth_ok(const uint8_t *p, size_t n)
{
    int depth = 0;
    for (size_t i = 0; i < n;) {
        const uint8_t *lt = memchr(p + i, '<', n - i);
        if (!lt)
            break;
        i = (size_t)(lt - p);
        if (starts(p, n, i, "<!--")) {
            i = skip_past(p, n, i + 4, "-->");
            continue;
        }
        if (starts(p, n, i, "<![CDATA[")) {
            i = skip_past(p, n, i + 9, "]]>");
            continue;
        }
        if (starts(p, n, i, "<?")) {
            i = skip_past(p, n, i + 2, "?>");
            continue;
        }
        size_t e = skip_past(p, n, i + 1, ">");
        if (e == n && p[n - 1] != '>')
            break; /* unterminated: no tag */
        /* The tag is p[i] .. p[e - 1] == '>'. */
        bool close = i + 1 < n && p[i + 1] == '/';
        size_t k = i + 1 + close;
        size_t name = starts(p, n, k, "array") ? 5 : starts(p, n, k, "dict") ? 4 : 0;
        /* "<dictx>" is another element; the name ends at '>', '/' or a space. */
        bool named = name && k + name < e && (p[k + name] == '>' || p[k + name] == '/' || p[k + name] == ' ' ||
                                             p[k + name] == '\t' || p[k + name] == '\r' || p[k + name] == '\n');
        if (named) {
            bool self_closing = p[e - 2] == '/';
            if (close)
                depth--;
            else if (!self_closing && ++depth > MAX_DEPTH)
                return false;
        }
        i = e;
    }
    return true;
}

/* ------------------------------------------------------ binary bounds -- */

struct bplist {
    const uint8_t *p;
    size_t n;
    uint64_t objects, offsets_at;
    unsigned offset_size, ref_size;
    /* per object: 0 not seen, 1 on the current path, 2 done; and the
     * number of nodes it unfolds to */
    uint8_t *state;
    uint32_t *nodes;
};

static uint64_t be_uint(const uint8_t *p, unsigned size)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v = v << 8 | p[i];
    return v;
}

/* Where object i starts, or SIZE_MAX when its offset is outside. */
static size_t object_at(const struct bplist *b, uint64_t i)
{
    uint64_t off = be_uint(b->p + b->offsets_at + i * b->offset_size, b->offset_size);
    return off >= 8 && off < b->offsets_at ? (size_t)off : SIZE_MAX;
}

/* A container's element count and where its references start. */
static bool container(const struct bplist *b, size_t at, uint64_t *count, size_t *refs)
{
    unsigned low = b->p[at] & 0x0F;
    size_t pos = at + 1;
    *count = low;
    if (low == 0x0F) { /* the count is an int object: 0x1N, then 2^N bytes */
        if (pos >= b->offsets_at || (b->p[pos] & 0xF0) != 0x10)
            return false;
        unsigned size = 1u << (b->p[pos] & 0x0F);
        if (size > 8 || pos + 1 + size > b->offsets_at)
            return false;
        *count = be_uint(b->p + pos + 1, size);
        pos += 1 + size;
    }
    *refs = pos;
    return true;
}

/* The nodes object i unfolds to (at most MAX_NODES + 1), depth-first with
 * an explicit stack of at most MAX_DEPTH; 0 when the structure is bad. */
static uint64_t unfold(struct bplist *b, uint64_t i, int depth)
{
    if (depth > MAX_DEPTH || b->state[i] == 1)
        return 0;                  /* too deep, or a cycle */
    if (b->state[i] == 2)
        return b->nodes[i];
    size_t at = object_at(b, i);
    if (at == SIZE_MAX)
        return 0;
    unsigned type = b->p[at] >> 4;
    uint64_t total = 1;
    if (type == 0xA || type == 0xC || type == 0xD) {
        uint64_t count;
        size_t refs;
        if (!container(b, at, &count, &refs))
            return 0;
        uint64_t n_refs = type == 0xD ? 2 * count : count;
        if (count > b->n || (b->offsets_at - refs) / b->ref_size < n_refs)
            return 0;
        b->state[i] = 1;
        for (uint64_t k = 0; k < n_refs && total <= MAX_NODES; k++) {
            uint64_t ref = be_uint(b->p + refs + k * b->ref_size, b->ref_size);
            uint64_t sub = ref < b->objects ? unfold(b, ref, depth + 1) : 0;
            if (!sub) {
                b->state[i] = 0;
                return 0;
            }
            total += sub;
        }
    }
    b->state[i] = 2;
    b->nodes[i] = total > MAX_NODES ? MAX_NODES + 1 : (uint32_t)total;
    return b->nodes[i];
}

/* The trailer: 6 unused bytes, offset size, reference size, then three
 * big-endian u64: object count, top object, offset table offset. */
static bool bplist_bounded(const uint8_t *p, size_t n, const char **why)
{
    *why = "a binary plist whose object table does not hold together";
    if (n < 8 + 32)
        return false;
    const uint8_t *t = p + n - 32;
    struct bplist b = { p, n, be_uint(t + 8, 8), be_uint(t + 24, 8), t[6], t[7], NULL, NULL };
    uint64_t top = be_uint(t + 16, 8);
    if (!b.offset_size || b.offset_size > 8 || !b.ref_size || b.ref_size > 8 || !b.objects || top >= b.objects ||
        b.offsets_at < 8 || b.offsets_at > n - 32 || (n - 32 - b.offsets_at) / b.offset_size < b.objects)
        return false;
    b.state = calloc((size_t)b.objects, 1);
    b.nodes = calloc((size_t)b.objects, sizeof *b.nodes);
    uint64_t nodes = b.state && b.nodes ? unfold(&b, top, 0) : 0;
    free(b.state);
    free(b.nodes);
    if (nodes > MAX_NODES)
        *why = "a binary plist that unfolds to more than 100,000 values (shared references)";
    else if (!nodes)
        *why = "a binary plist with a reference outside it, a cycle, or nesting deeper than 64";
    return nodes && nodes <= MAX_NODES;
}

/* --------------------------------------------------------------- read -- */

static bool version_of(plist_t dict, const char *key, struct mtlbx_os_version *v, char *text, size_t size)
{
    plist_t node = plist_dict_get_item(dict, key);
    if (!node || plist_get_node_type(node) != PLIST_STRING)
        return false;
    const char *s = plist_get_string_ptr(node, NULL);
    if (!s)
        return false;
    mbx_escape((const uint8_t *)s, strlen(s), 0, text, size); /* printers escape for a terminal */
    return os_version_parse(s, v);
}

/* The platform a MinimumOSVersion is for: CFBundleSupportedPlatforms
 * ("iPhoneOS", "AppleTVOS", "WatchOS", "XROS" and their simulators), else
 * DTPlatformName ("iphoneos", ...). */
static enum mtlbx_os platform_of(const char *name)
{
    static const struct { const char *prefix; enum mtlbx_os os; } names[] = {
        { "iphone", MTLBX_OS_IOS }, { "appletv", MTLBX_OS_TVOS }, { "watch", MTLBX_OS_WATCHOS },
        { "xr", MTLBX_OS_VISIONOS }, { "macosx", MTLBX_OS_MACOS },
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strncasecmp(name, names[i].prefix, strlen(names[i].prefix)) == 0)
            return names[i].os;
    return MTLBX_OS_NONE;
}

static enum mtlbx_os embedded_platform(plist_t dict)
{
    plist_t list = plist_dict_get_item(dict, "CFBundleSupportedPlatforms");
    if (list && plist_get_node_type(list) == PLIST_ARRAY)
        for (uint32_t i = 0; i < plist_array_get_size(list); i++) {
            plist_t item = plist_array_get_item(list, i);
            const char *s = item && plist_get_node_type(item) == PLIST_STRING ? plist_get_string_ptr(item, NULL) : NULL;
            enum mtlbx_os os = s ? platform_of(s) : MTLBX_OS_NONE;
            if (os != MTLBX_OS_NONE && os != MTLBX_OS_MACOS)
                return os;
        }
    plist_t name = plist_dict_get_item(dict, "DTPlatformName");
    const char *s = name && plist_get_node_type(name) == PLIST_STRING ? plist_get_string_ptr(name, NULL) : NULL;
    enum mtlbx_os os = s ? platform_of(s) : MTLBX_OS_NONE;
    return os == MTLBX_OS_MACOS ? MTLBX_OS_NONE : os;
}

bool mbx_info_plist_read(const uint8_t *data, size_t len, struct info_plist_min *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    const char *why = NULL;
    if (len > INFO_PLIST_MAX_BYTES)
        why = "over 1 MiB";
    else if (len < 8)
        why = "too short for a plist";
    else if (memcmp(data, "bplist", 6) == 0)
        why = bplist_bounded(data, len, &why) ? NULL : why;
    else if (!xml_depth_ok(data, len))
        why = "an XML plist nested more than 64 deep";
    if (why) {
        snprintf(err, err_size, "not read: %s", why);
        return false;
    }
    plist_t root = NULL;
    plist_from_memory((const char *)data, (uint32_t)len, &root);
    if (!root || plist_get_node_type(root) != PLIST_DICT) {
        snprintf(err, err_size, "not read: %s", root ? "its root is not a dictionary" : "not a plist libplist reads");
        plist_free(root);
        return false;
    }
    out->has_macos = version_of(root, "LSMinimumSystemVersion", &out->macos, out->macos_text, sizeof out->macos_text);
    out->has_other = version_of(root, "MinimumOSVersion", &out->other, out->other_text, sizeof out->other_text);
    out->bad_macos = !out->has_macos && out->macos_text[0];
    out->bad_other = !out->has_other && out->other_text[0];
    out->other_os = embedded_platform(root);
    plist_free(root);
    return true;
}
