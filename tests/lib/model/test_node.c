/* Unit tests of the node tree (node.c) and of what nodes say (fields.c,
 * fields_tag.c): tree shape, lazy building, labels and their escaping,
 * node_at_offset, FOLLOW targets, field spans, flags, hostile bytes, and
 * every fixture and corpus file when they are there. */
#include "config.h"

#include "imagebuf.h"
#include "libcheck.h"
#include "checks/hash.h"
#include "model/model.h"
#include "container/functions.h"
#include "container/metadata.h"
#include "container/sources.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


static const char *label(mtlbx_model *m, const mtlbx_node *n)
{
    static char buf[512];
    mbx_node_label(m, n, buf, sizeof buf);
    return buf;
}

/* The first child of n of this kind, or NULL. */
static mtlbx_node *child_kind(mtlbx_model *m, mtlbx_node *n, enum mtlbx_node_kind k)
{
    for (size_t i = 0; i < mbx_node_child_count(m, n); i++)
        if (mbx_node_child(m, n, i)->kind == k)
            return mbx_node_child(m, n, i);
    return NULL;
}

/* The first TAG child of n with this FourCC, or NULL. */
static mtlbx_node *child_tag(mtlbx_model *m, mtlbx_node *n, const char *fourcc)
{
    for (size_t i = 0; i < mbx_node_child_count(m, n); i++) {
        mtlbx_node *c = mbx_node_child(m, n, i);
        if (c->kind == MTLBX_NODE_TAG && !strcmp(c->tag.name, fourcc))
            return c;
    }
    return NULL;
}

static mtlbx_node *library_node(mtlbx_model *m)
{
    mtlbx_node *lib = child_kind(m, mbx_root(m), MTLBX_NODE_LIBRARY);
    cr_assert_not_null(lib);
    return lib;
}

static mtlbx_node *function_node(mtlbx_model *m, size_t i)
{
    mtlbx_node *fl = child_kind(m, library_node(m), MTLBX_NODE_FUNCTION_LIST);
    cr_assert_not_null(fl);
    cr_assert_lt(i, mbx_node_child_count(m, fl));
    return mbx_node_child(m, fl, i);
}

/* Fields collected for inspection (value copied: the callback's string
 * lives only during the call). */
struct field_copy {
    char name[64], value[512];
    struct mtlbx_field f;
};
struct fieldset {
    size_t n;
    struct field_copy v[256];
};

static void collect(void *ctx, const struct mtlbx_field *fl)
{
    struct fieldset *s = ctx;
    if (s->n >= sizeof s->v / sizeof s->v[0])
        return;
    snprintf(s->v[s->n].name, sizeof s->v[s->n].name, "%s", fl->name);
    snprintf(s->v[s->n].value, sizeof s->v[s->n].value, "%s", fl->value);
    s->v[s->n].f = *fl;
    s->n++;
}

static const struct field_copy *find_field(struct fieldset *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->v[i].name, name))
            return &s->v[i];
    return NULL;
}

/* Terminal-safe: valid UTF-8 (checked loosely: no 0xC0/0xC1/0xF5+ and no
 * stray continuation), no C0 control, no DEL, no C1 control. */
static bool terminal_safe(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        if (*p < 0x20 || *p == 0x7f)
            return false;
        int extra = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2 : (*p & 0xF8) == 0xF0 ? 3 : -1;
        if (extra < 0 || *p == 0xC0 || *p == 0xC1 || *p >= 0xF5)
            return false;
        if (*p == 0xC2 && p[1] >= 0x80 && p[1] < 0xA0)
            return false;
        p++;
        for (int i = 0; i < extra; i++, p++)
            if ((*p & 0xC0) != 0x80)
                return false;
    }
    return true;
}

struct check_ctx {
    const mtlbx_node *n;
    bool inside;               /* fields with bytes must lie inside n */
    uint64_t file_size;        /* and every field inside the file (0: unchecked) */
    size_t bad;
};

static void check_field(void *ctx, const struct mtlbx_field *fl)
{
    struct check_ctx *c = ctx;
    cr_assert_not_null(fl->name);
    cr_assert_not_null(fl->value);
    cr_assert(terminal_safe(fl->name), "field name not terminal-safe");
    cr_assert(terminal_safe(fl->value), "field %s value not terminal-safe", fl->name);
    if (c->file_size && fl->size && (fl->offset > c->file_size || fl->size > c->file_size - fl->offset))
        c->bad++;
    if (c->inside && fl->size &&
        (fl->offset < c->n->offset || fl->offset - c->n->offset > c->n->size ||
         fl->size > c->n->size - (fl->offset - c->n->offset)))
        c->bad++;
}

/* Walks the whole tree with an explicit stack (bounded), checking labels,
 * fields and spans. Archives are expanded only when `load` is set. */
static size_t walk_all(mtlbx_model *m, bool load, size_t max_nodes)
{
    mtlbx_node *stack[64];
    size_t top = 0, seen = 0;
    size_t next_child[64];
    stack[top] = mbx_root(m);
    next_child[top++] = 0;
    char buf[256];
    while (top && seen < max_nodes) {
        mtlbx_node *n = stack[top - 1];
        if (next_child[top - 1] == 0) {
            seen++;
            mbx_node_label(m, n, buf, sizeof buf);
            cr_assert(terminal_safe(buf), "label not terminal-safe: kind %d", n->kind);
            cr_assert_gt(strlen(buf), 0, "empty label for kind %d", n->kind);
            (void)mbx_node_flags(m, n);
            struct check_ctx c = { .n = n, .file_size = mbx_file_size(mbx_model_file(m)),
                                   .inside = n->kind == MTLBX_NODE_TAG || n->kind == MTLBX_NODE_FUNCTION ||
                                             n->kind == MTLBX_NODE_MODULE || n->kind == MTLBX_NODE_HEADER ||
                                             n->kind == MTLBX_NODE_TAG_GROUP || n->kind == MTLBX_NODE_FAT_SLICE };
            mbx_node_fields(m, n, check_field, &c);
            cr_assert_eq(c.bad, 0, "%zu fields outside the span of '%s' or the file", c.bad, buf);
            if (n->parent && n->size && n->parent->size && n->kind != MTLBX_NODE_TAG_GROUP &&
                n->kind != MTLBX_NODE_MODULE && n->parent->kind != MTLBX_NODE_FILE)
                cr_assert(n->offset >= n->parent->offset &&
                              n->offset + n->size <= n->parent->offset + n->parent->size,
                          "child '%s' outside its parent", buf);
        }
        bool descend = n->kind != MTLBX_NODE_ARCHIVE || load;
        size_t cc = descend ? mbx_node_child_count(m, n) : 0;
        if (next_child[top - 1] < cc && top < 64) {
            mtlbx_node *c = mbx_node_child(m, n, next_child[top - 1]++);
            cr_assert_not_null(c);
            cr_assert_eq(c->parent, n);
            stack[top] = c;
            next_child[top++] = 0;
        } else {
            top--;
        }
    }
    return seen;
}

static void check_at_offsets(mtlbx_model *m, uint64_t step)
{
    uint64_t size = mbx_file_size(mbx_model_file(m));
    for (uint64_t off = 0; off < size; off += step) {
        mtlbx_node *n = mbx_node_at_offset(m, off);
        cr_assert_not_null(n);
        if (n != mbx_root(m))
            cr_assert(off >= n->offset && off - n->offset < n->size, "0x%llx outside the node found for it",
                      (unsigned long long)off);
    }
    cr_assert_eq(mbx_node_at_offset(m, size + 100), mbx_root(m));
}

static const struct test_function three[] = {
    { .name = "vert", .type = 0 },
    { .name = "frag", .type = 1 },
    { .name = "compute_things", .type = 2, .payload = "a somewhat longer payload to vary sizes" },
};

static void three_lib(struct imagebuf *b)
{
    ib_library(b, &(struct test_library){ .n_functions = 3, .functions = three, .ext = TEST_EXT_UUID,
                                          .platform_byte = 0x81, .dynamic_name = "lib.metallib",
                                          .reflection = true });
}

Test(tree, shape_of_a_plain_library)
{
    struct imagebuf b = { 0 };
    three_lib(&b);
    mtlbx_file *f = open_buf(&b);
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_node *root = mbx_root(m);
    cr_assert_eq(root->kind, MTLBX_NODE_FILE);
    cr_assert_eq(root, mbx_root(m));
    mtlbx_node *lib = library_node(m);
    static const enum mtlbx_node_kind want[] = {
        MTLBX_NODE_HEADER, MTLBX_NODE_FUNCTION_LIST, MTLBX_NODE_HEADER_EXT, MTLBX_NODE_PUBLIC_MD,
        MTLBX_NODE_PRIVATE_MD, MTLBX_NODE_MODULE_LIST, MTLBX_NODE_DYNAMIC_HEADER, MTLBX_NODE_LIST,
    };
    cr_assert_eq(mbx_node_child_count(m, lib), sizeof want / sizeof *want, "%s", label(m, lib));
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_assert_eq(mbx_node_child(m, lib, i)->kind, want[i], "child %zu", i);
    cr_assert_null(mbx_node_child(m, lib, 99));
    mtlbx_node *hdr = mbx_node_child(m, lib, 0);
    cr_assert_eq(hdr->offset, 0);
    cr_assert_eq(hdr->size, 88);
    cr_assert_eq(mbx_node_child(m, lib, 7)->sub, MTLBX_LIST_RLST);

    mtlbx_node *fn = function_node(m, 2);
    cr_assert_eq(fn->kind, MTLBX_NODE_FUNCTION);
    cr_assert_eq(fn->index, 2);
    size_t n = mbx_node_child_count(m, fn);
    cr_assert_geq(n, 5);
    cr_assert_str_eq(mbx_node_child(m, fn, 0)->tag.name, "NAME");
    /* Tags in file order, then ENDT, then the two metadata groups, the
     * module and the interface. */
    for (size_t i = 1; i < n; i++) {
        mtlbx_node *a = mbx_node_child(m, fn, i - 1), *c = mbx_node_child(m, fn, i);
        if (c->kind == MTLBX_NODE_TAG)
            cr_assert_eq(c->offset, a->offset + a->size);
    }
    cr_assert_eq(mbx_node_child(m, fn, n - 1)->kind, MTLBX_NODE_INTERFACE);
    cr_assert_eq(mbx_node_child(m, fn, n - 2)->kind, MTLBX_NODE_MODULE);
    cr_assert_eq(mbx_node_child(m, fn, n - 3)->kind, MTLBX_NODE_TAG_GROUP);
    cr_assert_eq(mbx_node_child(m, fn, n - 4)->kind, MTLBX_NODE_TAG_GROUP);
    mtlbx_node *endt = mbx_node_child(m, fn, n - 5);
    cr_assert_str_eq(endt->tag.name, "ENDT");
    cr_assert_eq(endt->offset + endt->size, fn->offset + fn->size);

    mtlbx_node *mods = child_kind(m, lib, MTLBX_NODE_MODULE_LIST);
    cr_assert_eq(mbx_node_child_count(m, mods), 3);
    for (size_t i = 1; i < 3; i++)
        cr_assert_leq(mbx_node_child(m, mods, i - 1)->offset, mbx_node_child(m, mods, i)->offset);
    mtlbx_node *pub = child_kind(m, lib, MTLBX_NODE_PUBLIC_MD);
    cr_assert_eq(mbx_node_child_count(m, pub), 3);
    cr_assert_eq(mbx_node_child(m, pub, 0)->kind, MTLBX_NODE_TAG_GROUP);
    mtlbx_node *rl = child_kind(m, lib, MTLBX_NODE_LIST);
    cr_assert_eq(mbx_node_child_count(m, rl), 3); /* one RBUF group per function */
    cr_assert_not_null(child_tag(m, mbx_node_child(m, rl, 0), "RBUF"));
    mtlbx_node *dyn = child_kind(m, lib, MTLBX_NODE_DYNAMIC_HEADER);
    cr_assert_not_null(child_tag(m, dyn, "NAME"));
    cr_assert_not_null(child_tag(m, child_kind(m, lib, MTLBX_NODE_HEADER_EXT), "UUID"));
    walk_all(m, true, 100000);
    mbx_model_close(m);
    mbx_close(f);
    ib_free(&b);
}

Test(tree, children_are_built_only_when_asked)
{
    struct imagebuf b = { 0 };
    three_lib(&b);
    mtlbx_file *f = open_buf(&b);
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_node *lib = library_node(m);
    mtlbx_node *fl = child_kind(m, lib, MTLBX_NODE_FUNCTION_LIST);
    cr_assert_not(fl->built);
    cr_assert_eq(fl->n_children, 0);
    cr_assert(mbx_node_expandable(m, fl));
    cr_assert_not(fl->built, "expandable must not build");
    cr_assert_eq(mbx_node_child_count(m, fl), 3);
    mtlbx_node *fn = mbx_node_child(m, fl, 0);
    cr_assert_not(fn->built, "listing functions must not build their tags");
    char buf[128];
    mbx_node_label(m, fn, buf, sizeof buf);
    mbx_node_fields(m, fn, check_field, &(struct check_ctx){ .n = fn });
    cr_assert_not(fn->built, "labels and fields must not build children");
    /* The same node comes back on every call. */
    cr_assert_eq(mbx_node_child(m, fl, 0), fn);
    mbx_model_close(m);
    mbx_close(f);
    ib_free(&b);
}

Test(labels, say_what_the_node_is)
{
    struct imagebuf b = { 0 };
    three_lib(&b);
    mtlbx_file *f = open_buf(&b);
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_library *l = mbx_library_at(f, 0);
    mtlbx_node *lib = library_node(m);
    cr_assert_str_eq(label(m, child_kind(m, lib, MTLBX_NODE_HEADER)), "Header  1.2.7 macOS executable");
    cr_assert_str_eq(label(m, child_kind(m, lib, MTLBX_NODE_FUNCTION_LIST)), "Functions (3)");
    mtlbx_node *fn = function_node(m, 2);
    cr_assert(strstr(label(m, fn), "kernel"), "%s", label(m, fn));
    cr_assert(strstr(label(m, fn), "compute_things"), "%s", label(m, fn));
    cr_assert(strstr(label(m, fn), "[hash ?]"), "%s", label(m, fn));
    cr_assert_eq(mbx_function_verify(l, 2, NULL), MTLBX_HASH_MATCHES);
    cr_assert(strstr(label(m, fn), "[hash ok]"), "%s", label(m, fn));
    cr_assert_str_eq(label(m, child_tag(m, fn, "NAME")), "NAME  \"compute_things\"");
    cr_assert_str_eq(label(m, child_tag(m, fn, "TYPE")), "TYPE  kernel");
    cr_assert(!strncmp(label(m, child_tag(m, fn, "OFFT")), "OFFT  pub 0x", 12), "%s",
              label(m, child_tag(m, fn, "OFFT")));
    cr_assert(!strncmp(label(m, child_tag(m, fn, "VERS")), "VERS  AIR ", 10));
    cr_assert(strstr(label(m, child_kind(m, fn, MTLBX_NODE_MODULE)), "Module  compute_things  "));
    cr_assert(strstr(label(m, child_kind(m, lib, MTLBX_NODE_DYNAMIC_HEADER)), "\"lib.metallib\""));
    /* Any buffer size is safe, even 1 and 0. */
    char tiny[4];
    mbx_node_label(m, fn, tiny, sizeof tiny);
    cr_assert_eq(strlen(tiny), 3);
    mbx_node_label(m, fn, tiny, 1);
    cr_assert_str_eq(tiny, "");
    mbx_node_label(m, fn, tiny, 0);
    mbx_model_close(m);
    mbx_close(f);
    ib_free(&b);
}

Test(labels, escape_controls_and_invalid_utf8)
{
    static const struct test_function evil[] = {
        { .name = "\x1b]0;pwned\x07\x1b[2J\xff\xfe\xc2\x9b" "end", .type = 2 },
    };
    struct imagebuf b = { 0 };
    ib_library(&b, &(struct test_library){ .n_functions = 1, .functions = evil, .ext = TEST_EXT_UUID,
                                           .dynamic_name = "\x1b[31mred" });
    mtlbx_file *f = open_buf(&b);
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_node *fn = function_node(m, 0);
    const char *s = label(m, fn);
    cr_assert(terminal_safe(s), "%s", s);
    cr_assert(strstr(s, "end"), "%s", s);
    cr_assert(strstr(s, "\\x1b"), "%s", s);
    cr_assert(terminal_safe(label(m, child_tag(m, fn, "NAME"))));
    cr_assert(terminal_safe(label(m, child_kind(m, library_node(m), MTLBX_NODE_DYNAMIC_HEADER))));
    walk_all(m, false, 10000);
    mbx_model_close(m);
    mbx_close(f);
    ib_free(&b);
}

Test(at_offset, finds_the_innermost_node)
{
    struct imagebuf b = { 0 };
    three_lib(&b);
    mtlbx_file *f = open_buf(&b);
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_library *l = mbx_library_at(f, 0);
    const struct mtlbx_function *fn1 = mbx_function_at(l, 1);
    uint64_t name_byte = (uint64_t)(fn1->name.ptr - mbx_file_data(f)) + 1;
    mtlbx_node *n = mbx_node_at_offset(m, name_byte);
    cr_assert_eq(n->kind, MTLBX_NODE_TAG);
    cr_assert_str_eq(n->tag.name, "NAME");
    cr_assert_eq(n->parent->kind, MTLBX_NODE_FUNCTION);
    cr_assert_eq(n->parent->index, 1);
    cr_assert_eq(mbx_node_at_offset(m, 5)->kind, MTLBX_NODE_HEADER);
    n = mbx_node_at_offset(m, fn1->module.offset + 3);
    cr_assert_eq(n->kind, MTLBX_NODE_MODULE);
    cr_assert_eq(n->index, 1);
    const struct mtlbx_metadata *md = mbx_function_metadata(l, 1);
    n = mbx_node_at_offset(m, md->public_group.offset);
    cr_assert_eq(n->kind, MTLBX_NODE_TAG_GROUP, "kind %d", n->kind);
    n = mbx_node_at_offset(m, md->public_group.offset + md->public_group.size - 1);
    cr_assert_eq(n->kind, MTLBX_NODE_TAG);
    cr_assert_str_eq(n->tag.name, "ENDT");
    check_at_offsets(m, 1);
    mbx_model_close(m);
    mbx_close(f);
    ib_free(&b);
}

Test(fields, offt_follows_to_groups_and_module)
{
    struct imagebuf b = { 0 };
    three_lib(&b);
    mtlbx_file *f = open_buf(&b);
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_library *l = mbx_library_at(f, 0);
    mtlbx_node *offt = child_tag(m, function_node(m, 2), "OFFT");
    cr_assert_not_null(offt);
    struct fieldset *s = calloc(1, sizeof *s);
    mbx_node_fields(m, offt, collect, s);
    const struct field_copy *tag = find_field(s, "tag"), *len = find_field(s, "length");
    cr_assert(tag && len);
    cr_assert_eq(tag->f.offset, offt->offset);
    cr_assert_eq(tag->f.size, 4);
    cr_assert_eq(len->f.offset, offt->offset + 4);
    cr_assert_eq(len->f.size, 2);
    const struct field_copy *mod = find_field(s, "module");
    const struct field_copy *pub = find_field(s, "public metadata");
    const struct field_copy *priv = find_field(s, "private metadata");
    cr_assert(mod && pub && priv);
    const struct mtlbx_function *fn = mbx_function_at(l, 2);
    const struct mtlbx_metadata *md = mbx_function_metadata(l, 2);
    cr_assert(mod->f.flags & MTLBX_FIELD_FOLLOW);
    cr_assert_eq(mod->f.target, fn->module.offset);
    cr_assert_eq(mod->f.offset, offt->offset + 6 + 16);
    cr_assert_eq(mod->f.size, 8);
    cr_assert(pub->f.flags & MTLBX_FIELD_FOLLOW);
    cr_assert_eq(pub->f.target, md->public_group.offset);
    cr_assert_eq(priv->f.target, md->private_group.offset);
    cr_assert_eq(mbx_node_at_offset(m, mod->f.target)->kind, MTLBX_NODE_MODULE);

    /* NAME: FourCC, length, value, each with its own bytes. */
    memset(s, 0, sizeof *s);
    mtlbx_node *name = child_tag(m, function_node(m, 0), "NAME");
    mbx_node_fields(m, name, collect, s);
    const struct field_copy *v = find_field(s, "name");
    cr_assert_not_null(v);
    cr_assert_eq(v->f.offset, name->offset + 6);
    cr_assert_eq(v->f.size, 5);
    cr_assert_str_eq(v->value, "\"vert\"");

    /* Header: section offsets follow to the section start. */
    memset(s, 0, sizeof *s);
    mbx_node_fields(m, child_kind(m, library_node(m), MTLBX_NODE_HEADER), collect, s);
    const struct field_copy *mo = find_field(s, "module list offset");
    cr_assert(mo && (mo->f.flags & MTLBX_FIELD_FOLLOW));
    cr_assert_eq(mo->f.target, mbx_library_header(l)->modules.offset);
    cr_assert_eq(mo->f.offset, 0x48);
    free(s);
    mbx_model_close(m);
    mbx_close(f);
    ib_free(&b);
}

Test(flags, unknown_tags_and_hash_mismatch)
{
    static const uint8_t zzzz[] = { 'Z', 'Z', 'Z', 'Z', 3, 0, 1, 2, 3 };
    static const struct test_function fns[] = {
        { .name = "a", .type = 2, .extra_tags = zzzz, .extra_tags_len = sizeof zzzz },
        { .name = "b", .type = 2, .bad_hash = true },
    };
    struct imagebuf b = { 0 };
    ib_library(&b, &(struct test_library){ .n_functions = 2, .functions = fns, .ext = TEST_EXT_UUID });
    mtlbx_file *f = open_buf(&b);
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_library *l = mbx_library_at(f, 0);
    mtlbx_node *z = child_tag(m, function_node(m, 0), "ZZZZ");
    cr_assert_not_null(z);
    cr_assert(mbx_node_flags(m, z) & MTLBX_NODE_UNKNOWN);
    cr_assert_str_eq(label(m, z), "ZZZZ  (unknown, 3 bytes)");
    cr_assert_not(mbx_node_flags(m, child_tag(m, function_node(m, 0), "NAME")) & MTLBX_NODE_UNKNOWN);

    mtlbx_node *fb = function_node(m, 1);
    cr_assert_not(mbx_node_flags(m, fb) & MTLBX_NODE_PROBLEM);
    size_t lib_children = mbx_node_child_count(m, library_node(m));
    cr_assert_eq(mbx_function_verify(l, 1, NULL), MTLBX_HASH_MISMATCH);
    cr_assert(strstr(label(m, fb), "[hash MISMATCH]"), "%s", label(m, fb));
    cr_assert(mbx_node_flags(m, fb) & MTLBX_NODE_PROBLEM);
    cr_assert(mbx_node_flags(m, library_node(m)) & MTLBX_NODE_PROBLEM);
    cr_assert(mbx_node_flags(m, mbx_root(m)) & MTLBX_NODE_PROBLEM);
    /* Function a's unknown tag was already a diagnostic. */
    mtlbx_node *d = child_kind(m, library_node(m), MTLBX_NODE_DIAGNOSTICS);
    cr_assert_not_null(d);
    cr_assert_eq(mbx_node_child_count(m, library_node(m)), lib_children);
    cr_assert(mbx_node_flags(m, d) & MTLBX_NODE_PROBLEM);
    struct fieldset *s = calloc(1, sizeof *s);
    mbx_node_fields(m, child_tag(m, fb, "HASH"), collect, s);
    const struct field_copy *st = find_field(s, "state");
    cr_assert_not_null(st);
    cr_assert_str_eq(st->value, "MISMATCH");
    cr_assert(st->f.flags & MTLBX_FIELD_ERROR);
    free(s);
    mbx_model_close(m);
    mbx_close(f);
    ib_free(&b);
}

Test(flags, diagnostics_node_appears_after_a_mismatch)
{
    static const struct test_function fns[] = {
        { .name = "a", .type = 2 },
        { .name = "b", .type = 2, .bad_hash = true },
    };
    struct imagebuf b = { 0 };
    ib_library(&b, &(struct test_library){ .n_functions = 2, .functions = fns, .ext = TEST_EXT_UUID });
    mtlbx_file *f = open_buf(&b);
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_library *l = mbx_library_at(f, 0);
    mtlbx_node *lib = library_node(m);
    size_t before = mbx_node_child_count(m, lib);
    cr_assert_null(child_kind(m, lib, MTLBX_NODE_DIAGNOSTICS));
    cr_assert_not(mbx_node_flags(m, lib) & MTLBX_NODE_PROBLEM);
    cr_assert_eq(mbx_function_verify(l, 1, NULL), MTLBX_HASH_MISMATCH);
    cr_assert_gt(mbx_library_diag_count(l), 0);
    cr_assert_eq(mbx_node_child_count(m, lib), before + 1);
    mtlbx_node *d = child_kind(m, lib, MTLBX_NODE_DIAGNOSTICS);
    cr_assert_not_null(d);
    cr_assert(mbx_node_flags(m, d) & MTLBX_NODE_PROBLEM);
    cr_assert(strstr(label(m, d), "1 error"), "%s", label(m, d));
    struct fieldset *s = calloc(1, sizeof *s);
    mbx_node_fields(m, d, collect, s);
    cr_assert_eq(s->n, 1);
    cr_assert(s->v[0].f.flags & MTLBX_FIELD_ERROR);
    cr_assert(s->v[0].f.flags & MTLBX_FIELD_FOLLOW);
    free(s);
    mbx_model_close(m);
    mbx_close(f);
    ib_free(&b);
}

Test(labels, bad_lengths_and_empty_library)
{
    static const uint8_t bad[] = { 'T', 'E', 'S', 'S', 2, 0, 1, 2, 'U', 'U', 'I', 'D', 1, 0, 7 };
    static const struct test_function fns[] = {
        { .name = "a", .type = 77, .extra_tags = bad, .extra_tags_len = sizeof bad },
    };
    struct imagebuf b = { 0 };
    ib_library(&b, &(struct test_library){ .n_functions = 1, .functions = fns, .ext = TEST_EXT_NONE,
                                           .patch = 2, .version_word = 0x0001 });
    mtlbx_file *f = open_buf(&b);
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_node *fn = function_node(m, 0);
    cr_assert_str_eq(label(m, child_tag(m, fn, "TESS")), "TESS  (bad length 2)");
    cr_assert_str_eq(label(m, child_tag(m, fn, "UUID")), "UUID  (bad length 1)");
    cr_assert(strstr(label(m, fn), "unknown-77"), "%s", label(m, fn));
    cr_assert(mbx_node_flags(m, fn) & MTLBX_NODE_UNKNOWN);
    cr_assert(mbx_node_flags(m, child_tag(m, fn, "TYPE")) & MTLBX_NODE_UNKNOWN);
    cr_assert_str_eq(label(m, child_kind(m, library_node(m), MTLBX_NODE_HEADER)), "Header  1.2.2 iOS executable");
    cr_assert_null(child_kind(m, library_node(m), MTLBX_NODE_HEADER_EXT));
    walk_all(m, true, 10000);
    mbx_model_close(m);
    mbx_close(f);
    ib_free(&b);

    /* No functions at all: every section is there, with no children. */
    memset(&b, 0, sizeof b);
    ib_library(&b, &(struct test_library){ .n_functions = 0, .ext = TEST_EXT_UUID });
    f = open_buf(&b);
    m = mbx_model_open(f);
    mtlbx_node *fl = child_kind(m, library_node(m), MTLBX_NODE_FUNCTION_LIST);
    cr_assert_str_eq(label(m, fl), "Functions (0)");
    cr_assert_not(mbx_node_expandable(m, fl));
    cr_assert_eq(mbx_node_child_count(m, fl), 0);
    cr_assert_eq(mbx_node_child_count(m, child_kind(m, library_node(m), MTLBX_NODE_MODULE_LIST)), 0);
    check_at_offsets(m, 1);
    mbx_model_close(m);
    mbx_close(f);
    ib_free(&b);
}

Test(tree, truncated_header_and_null_arguments)
{
    static const uint8_t tiny[] = { 'M', 'T', 'L', 'B', 1, 0x80, 2, 0 };
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    cr_assert_eq(mbx_open_buffer(tiny, sizeof tiny, "tiny", &f, &err), MTLBX_E_NONE);
    mtlbx_model *m = mbx_model_open(f);
    walk_all(m, true, 100);
    check_at_offsets(m, 1);
    mtlbx_node *lib = child_kind(m, mbx_root(m), MTLBX_NODE_LIBRARY);
    if (lib) {
        cr_assert(strstr(label(m, lib), "truncated"), "%s", label(m, lib));
        cr_assert(mbx_node_flags(m, lib) & MTLBX_NODE_PROBLEM);
    }
    cr_assert_null(mbx_root(NULL));
    cr_assert_eq(mbx_node_child_count(m, NULL), 0);
    cr_assert_null(mbx_node_child(NULL, mbx_root(m), 0));
    cr_assert_eq(mbx_node_flags(m, NULL), 0);
    mbx_node_fields(m, NULL, check_field, NULL);
    char buf[8] = "x";
    mbx_node_label(m, NULL, buf, sizeof buf);
    cr_assert_str_eq(buf, "");
    mbx_model_close(m);
    mbx_close(f);
}

/* A big library: listing and finding must not build what is not asked
 * for, and finding a byte must not cost a pass over every function. */
Test(scale, twenty_thousand_functions)
{
    enum { N = 20000 };
    struct test_function *fns = calloc(N, sizeof *fns);
    char (*names)[16] = calloc(N, sizeof *names);
    for (size_t i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "fn%zu", i);
        fns[i] = (struct test_function){ .name = names[i], .type = 2, .payload = "x" };
    }
    struct imagebuf b = { 0 };
    ib_library(&b, &(struct test_library){ .n_functions = N, .functions = fns, .ext = TEST_EXT_UUID });
    mtlbx_file *f = open_buf(&b);
    mtlbx_model *m = mbx_model_open(f);
    mtlbx_library *l = mbx_library_at(f, 0);
    mtlbx_node *lib = library_node(m);
    mtlbx_node *fl = child_kind(m, lib, MTLBX_NODE_FUNCTION_LIST);
    cr_assert_not(fl->built);
    const struct mtlbx_function *last = mbx_function_at(l, N - 1);
    uint64_t at = (uint64_t)(last->name.ptr - mbx_file_data(f));
    clock_t t0 = clock();
    mtlbx_node *n = NULL;
    for (int rep = 0; rep < 2000; rep++)
        n = mbx_node_at_offset(m, at + (uint64_t)(rep % 3));
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    cr_assert_eq(n->kind, MTLBX_NODE_TAG);
    cr_assert_eq(n->parent->index, N - 1);
    cr_assert_lt(secs, 2.0, "2000 lookups took %.2fs", secs);
    cr_assert_eq(fl->n_children, N);
    /* Only the path was built: function 0 has no tag nodes. */
    cr_assert_not(mbx_node_child(m, fl, 0)->built);
    cr_assert_not(child_kind(m, lib, MTLBX_NODE_MODULE_LIST)->built);
    /* Modules are sorted and bisected too. */
    t0 = clock();
    for (int rep = 0; rep < 2000; rep++)
        n = mbx_node_at_offset(m, mbx_function_at(l, (size_t)rep * 7)->module.offset + 1);
    secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    cr_assert_eq(n->kind, MTLBX_NODE_MODULE);
    cr_assert_lt(secs, 2.0, "2000 module lookups took %.2fs", secs);
    mbx_model_close(m);
    mbx_close(f);
    ib_free(&b);
    free(fns);
    free(names);
}

/* Flipped bytes anywhere: walking everything never crashes or hangs. */
Test(hostile, damaged_images_walk_safely)
{
    struct imagebuf base = { 0 };
    three_lib(&base);
    uint32_t seed = 12345;
    for (int round = 0; round < 300; round++) {
        struct imagebuf b = { 0 };
        ib_bytes(&b, base.data, base.len);
        for (int k = 0; k < 1 + round % 6; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = 4 + (seed >> 8) % (b.len - 4);
            seed = seed * 1103515245u + 12345u;
            b.data[at] = (uint8_t)(round % 3 == 0 ? 0xFF : seed >> 16);
        }
        if (round % 10 == 9)
            b.len = 4 + (seed >> 4) % b.len;
        mtlbx_file *f = NULL;
        struct mtlbx_error err;
        if (mbx_open_buffer(b.data, b.len, "hostile", &f, &err) == MTLBX_E_NONE) {
            mtlbx_model *m = mbx_model_open(f);
            walk_all(m, true, 50000);
            check_at_offsets(m, 7);
            mbx_model_close(m);
            mbx_close(f);
        }
        ib_free(&b);
    }
    ib_free(&base);
}

/* ------------------------------------------------- files on disk -- */

static const char *srcdir(void)
{
    static char dir[PATH_MAX];
    const char *e = getenv("MTLBX_SRCDIR");
    if (e && *e)
        return e;
    /* Fallback, run by hand: this file is tests/lib/model/test_node.c in
     * the source tree, so the top is three folders up from its own. */
    snprintf(dir, sizeof dir, "%s", __FILE__);
    for (int up = 0; up < 4; up++) {
        char *slash = strrchr(dir, '/');
        if (!slash) {
            snprintf(dir, sizeof dir, ".");
            break;
        }
        *slash = 0;
    }
    return dir;
}

static mtlbx_file *open_path_or_skip(const char *path)
{
    mtlbx_file *f = NULL;
    struct mtlbx_error err;
    if (mbx_open_path(path, &f, &err) != MTLBX_E_NONE)
        return NULL;
    return f;
}

Test(files, fixtures_and_sample)
{
    char dir[PATH_MAX + 32], path[PATH_MAX + 300];
    snprintf(dir, sizeof dir, "%s/tests/fixtures", srcdir());
    DIR *d = opendir(dir);
    if (!d) {
        cr_assert_fail("no fixtures at %s: they are part of the tree", dir);
    }
    size_t files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 9 || strcmp(e->d_name + len - 9, ".metallib"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        mtlbx_file *f = open_path_or_skip(path);
        mtlbx_model *m = mbx_model_open(f);
        cr_assert_not_null(f, "%s does not open", path);
        walk_all(m, true, 1000000);
        check_at_offsets(m, 3);
        if (!strcmp(e->d_name, "fat.metallib")) {
            mtlbx_node *root = mbx_root(m);
            cr_assert_eq(mbx_node_child(m, root, 0)->kind, MTLBX_NODE_FAT_HEADER);
            cr_assert_eq(mbx_node_child_count(m, mbx_node_child(m, root, 0)), 2);
            cr_assert_eq(mbx_node_child(m, root, 1)->kind, MTLBX_NODE_LIBRARY);
            cr_assert_eq(mbx_node_child(m, root, 2)->kind, MTLBX_NODE_LIBRARY);
            /* A byte of the second slice's header belongs to that library. */
            mtlbx_node *lib2 = mbx_node_child(m, root, 2);
            mtlbx_node *h = mbx_node_at_offset(m, lib2->offset + 1);
            cr_assert_eq(h->kind, MTLBX_NODE_HEADER);
            cr_assert_eq(h->parent, lib2);
        }
        if (!strcmp(e->d_name, "unknown-tags.metallib")) {
            mtlbx_node *z = child_tag(m, function_node(m, 0), "ZZZZ");
            cr_assert_not_null(z);
            cr_assert_eq(mbx_node_flags(m, z) & (MTLBX_NODE_UNKNOWN | MTLBX_NODE_PROBLEM),
                         MTLBX_NODE_UNKNOWN | MTLBX_NODE_PROBLEM);
            cr_assert(mbx_node_flags(m, z) & MTLBX_NODE_WARNING);
        }
        if (!strcmp(e->d_name, "unknown-tags.metallib")) {
            cr_assert_str_eq(label(m, child_tag(m, function_node(m, 0), "TESS")),
                             "TESS  triangle, 3 control points");
            cr_assert_str_eq(label(m, child_tag(m, function_node(m, 1), "LAYR")), "LAYR  ushort");
            mtlbx_node *h = child_tag(m, child_kind(m, library_node(m), MTLBX_NODE_HEADER_EXT), "HXYZ");
            cr_assert_not_null(h);
            cr_assert(mbx_node_flags(m, h) & MTLBX_NODE_UNKNOWN);
        }
        if (!strcmp(e->d_name, "fat.metallib")) {
            /* Fields of the second slice's header carry absolute offsets. */
            mtlbx_node *lib2 = mbx_node_child(m, mbx_root(m), 2);
            struct fieldset *s = calloc(1, sizeof *s);
            mbx_node_fields(m, child_kind(m, lib2, MTLBX_NODE_HEADER), collect, s);
            const struct field_copy *magic = find_field(s, "magic");
            const struct field_copy *fo = find_field(s, "function list offset");
            cr_assert(magic && fo);
            cr_assert_eq(magic->f.offset, lib2->offset);
            cr_assert_eq(fo->f.offset, lib2->offset + 0x18);
            cr_assert_eq(fo->f.target, child_kind(m, lib2, MTLBX_NODE_FUNCTION_LIST)->offset);
            free(s);
        }
        if (!strcmp(e->d_name, "hsrc-v125.metallib")) {
            /* SOFF follows to the SARC tag of the function's archive. */
            mtlbx_node *soff = child_tag(m, function_node(m, 0), "SOFF");
            cr_assert_not_null(soff);
            struct fieldset *s = calloc(1, sizeof *s);
            mbx_node_fields(m, soff, collect, s);
            const struct field_copy *t = find_field(s, "source archive");
            cr_assert(t && (t->f.flags & MTLBX_FIELD_FOLLOW));
            const struct mtlbx_sources *src = mbx_library_sources(mbx_library_at(f, 0));
            cr_assert_eq(t->f.target, src->archives[0].sarc_offset);
            cr_assert_eq(memcmp(mbx_file_data(f) + t->f.target, "SARC", 4), 0);
            free(s);
        }
        if (!strcmp(e->d_name, "hsrc-v125.metallib")) {
            mtlbx_node *src = child_kind(m, library_node(m), MTLBX_NODE_SOURCES);
            cr_assert_not_null(src);
            mtlbx_node *ar = mbx_node_child(m, src, 0);
            cr_assert_eq(ar->kind, MTLBX_NODE_ARCHIVE);
            cr_assert_gt(mbx_node_child_count(m, ar), 0, "%s", label(m, ar));
            cr_assert_eq(mbx_node_child(m, ar, 0)->kind, MTLBX_NODE_MEMBER);
            cr_assert(strstr(label(m, ar), "members"), "%s", label(m, ar));
        }
        mbx_model_close(m);
        mbx_close(f);
        files++;
    }
    closedir(d);
    snprintf(path, sizeof path, "%s/data/sample.metallib", srcdir());
    mtlbx_file *f = open_path_or_skip(path);
    mtlbx_model *m = mbx_model_open(f);
    if (f) {
        walk_all(m, true, 1000000);
        check_at_offsets(m, 5);
        mbx_model_close(m);
        mbx_close(f);
    }
    cr_assert_gt(files, 0, "no fixture in %s", dir);
    cr_log_info("%zu fixtures walked", files);
}

Test(files, corpus)
{
    const char *env = getenv("MTLBX_CORPUS");
    char dir[PATH_MAX], path[PATH_MAX + 300];
    if (env && *env)
        snprintf(dir, sizeof dir, "%s", env);
    else
        snprintf(dir, sizeof dir, "%s/../shared/corpus", srcdir());
    DIR *d = opendir(dir);
    if (!d) {
        cr_skip_test("no corpus at %s (set MTLBX_CORPUS)", dir);
    }
    struct dirent *e;
    size_t files = 0, nodes = 0;
    while ((e = readdir(d))) {
        if (!strstr(e->d_name, ".metallib"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        mtlbx_file *f = open_path_or_skip(path);
        mtlbx_model *m = mbx_model_open(f);
        if (!f)
            continue; /* the one non-metallib in the corpus */
        nodes += walk_all(m, false, 2000000);
        check_at_offsets(m, 61);
        mbx_model_close(m);
        mbx_close(f);
        files++;
    }
    closedir(d);
    cr_assert_gt(files, 0, "no library opened in %s", dir);
    cr_log_info("corpus: %zu files, %zu nodes walked", files, nodes);
}
