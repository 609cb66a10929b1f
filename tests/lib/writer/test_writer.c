/* The writer's API of ../shared/LIBRARY.md (src/lib/writer/writer_api.c):
 * a library from AIR modules and a target, read back by the parser; the
 * embedded sources it writes decoded by the parser's own archive reader;
 * header values set by key; and every refusal: FAILED with one line,
 * nothing added, the writer still usable, nothing written. The modules
 * are the sample's own (data/sample.metallib), read through the parser. */
#include "config.h"

#include "checks/hash.h"
#include "writer/writer.h"
#include "testenv.h"
#include "container/diagnostics.h"
#include "container/file.h"
#include "container/functions.h"
#include "container/header.h"
#include "container/sources.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static mtlbx_file *sample;

static void open_sample(void)
{
    const char *src = testenv("MTLBX_SRCDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/data/sample.metallib", src ? src : ".");
    struct mtlbx_error err;
    cr_assert_eq(mbx_open_path(path, &sample, &err), MTLBX_E_NONE, "%s", err.message);
}

static void close_sample(void)
{
    mbx_close(sample);
}

/* The module bytes of the sample's function NAME. */
static struct mtlbx_bytes module_of(const char *name)
{
    mtlbx_library *lib = mbx_library_at(sample, 0);
    long i = mbx_library_function_find(lib, name);
    cr_assert_geq(i, 0, "%s", name);
    return mbx_function_module_bytes(lib, (size_t)i);
}

static mtlbx_file *reopen(const void *data, size_t len)
{
    mtlbx_file *f;
    struct mtlbx_error err;
    cr_assert_eq(mbx_open_buffer(data, len, "written", &f, &err), MTLBX_E_NONE, "%s", err.message);
    return f;
}

static size_t errors(mtlbx_library *lib)
{
    size_t n = 0;
    for (size_t i = 0; i < mbx_library_diag_count(lib); i++)
        n += mbx_library_diag(lib, i)->severity == MTLBX_ERROR;
    return n;
}

TestSuite(writer, .init = open_sample, .fini = close_sample);

Test(writer, modules_and_target)
{
    mtlbx_writer *w = mtlbx_writer_new();
    cr_assert(w);
    cr_assert_eq(mtlbx_writer_target(w, "macOS:15.0"), MTLBX_WRITER_OK, "%s", mtlbx_writer_error_string(w));
    static const char *const names[] = { "mesh_main", "object_main", "fragment_main" };
    for (size_t k = 0; k < 3; k++) {
        struct mtlbx_bytes m = module_of(names[k]);
        cr_assert_eq(mtlbx_writer_add_function(w, m.ptr, m.len), MTLBX_WRITER_OK, "%s", mtlbx_writer_error_string(w));
    }
    const void *out;
    size_t len;
    cr_assert_eq(mtlbx_writer_write_memory(w, &out, &len), MTLBX_WRITER_OK, "%s", mtlbx_writer_error_string(w));
    mtlbx_file *f = reopen(out, len);
    mtlbx_library *lib = mbx_library_at(f, 0);
    const struct mtlbx_header *h = mbx_library_header(lib);
    cr_assert_eq(h->major, 1);
    cr_assert_eq(h->minor, 2);
    cr_assert_eq(h->patch, 8, "macOS 15 is container 1.2.8");
    cr_assert(h->macos);
    cr_assert_eq(h->platform_byte, 0x81);
    cr_assert_eq(h->os_major, 15);
    cr_assert_eq(mbx_library_function_count(lib), 3);
    mtlbx_library *orig = mbx_library_at(sample, 0);
    for (size_t k = 0; k < 3; k++) {
        const struct mtlbx_function *fn = mbx_function_at(lib, k);
        const struct mtlbx_function *o = mbx_function_at(orig, (size_t)mbx_library_function_find(orig, names[k]));
        cr_assert_eq(fn->name.len, strlen(names[k]));
        cr_assert_eq(memcmp(fn->name.ptr, names[k], fn->name.len), 0);
        cr_assert_eq(fn->type, o->type);
        cr_assert_eq(fn->air_major, o->air_major);
        cr_assert_eq(fn->air_minor, o->air_minor);
        cr_assert_eq(fn->msl_major, o->msl_major);
        cr_assert_eq(fn->msl_minor, o->msl_minor);
        cr_assert_eq(memcmp(fn->hash, o->hash, 32), 0);
        cr_assert_eq(mbx_function_verify(lib, k, NULL), MTLBX_HASH_MATCHES);
    }
    cr_assert_eq(errors(lib), 0);
    /* A second write does not take the first one's bytes away. */
    const void *again;
    size_t len2;
    cr_assert_eq(mtlbx_writer_write_memory(w, &again, &len2), MTLBX_WRITER_OK);
    cr_assert_eq(len2, len);
    cr_assert_eq(memcmp(again, out, len), 0);
    mbx_close(f);
    mtlbx_writer_free(w);
}

Test(writer, refusals_leave_the_writer_usable)
{
    mtlbx_writer *w = mtlbx_writer_new();
    struct mtlbx_bytes mesh = module_of("mesh_main");
    const void *out;
    size_t len;
    cr_assert_eq(mtlbx_writer_write_memory(w, &out, &len), MTLBX_WRITER_FAILED, "no target: refused");
    cr_assert(strstr(mtlbx_writer_error_string(w), "no target"));
    cr_assert_eq(mtlbx_writer_target(w, "macOS:10.0"), MTLBX_WRITER_FAILED);
    cr_assert_eq(mtlbx_writer_target(w, "plan9:1.0"), MTLBX_WRITER_FAILED);
    cr_assert_eq(mtlbx_writer_target(w, "macOS:14.0"), MTLBX_WRITER_OK);
    /* The sample's module is built for macOS 15: newer than the target. */
    cr_assert_eq(mtlbx_writer_add_function(w, mesh.ptr, mesh.len), MTLBX_WRITER_FAILED);
    cr_assert(strstr(mtlbx_writer_error_string(w), "newer than the target macOS 14.0"), "%s",
              mtlbx_writer_error_string(w));
    cr_assert_eq(mtlbx_writer_target(w, "macOS:26.0"), MTLBX_WRITER_OK);
    cr_assert_eq(mtlbx_writer_add_function(w, mesh.ptr, mesh.len), MTLBX_WRITER_OK);
    /* Now the module is in: a target it would not load on is refused. */
    cr_assert_eq(mtlbx_writer_target(w, "macOS:14.0"), MTLBX_WRITER_FAILED);
    cr_assert_eq(mtlbx_writer_add_function(w, mesh.ptr, mesh.len), MTLBX_WRITER_FAILED, "a second mesh_main");
    cr_assert(strstr(mtlbx_writer_error_string(w), "already defines a function named mesh_main"));
    static const uint8_t junk[64] = "not bitcode at all";
    cr_assert_eq(mtlbx_writer_add_function(w, junk, sizeof junk), MTLBX_WRITER_FAILED);
    cr_assert(strstr(mtlbx_writer_error_string(w), "not an AIR module"));
    cr_assert_eq(mtlbx_writer_add_function(w, mesh.ptr, 10), MTLBX_WRITER_FAILED, "cut short");
    cr_assert_eq(mtlbx_writer_set(w, MTLBX_WRITER_OS_VERSION, "26.x"), MTLBX_WRITER_FAILED);
    cr_assert_eq(mtlbx_writer_set(w, 999, "x"), MTLBX_WRITER_FAILED);
    cr_assert_eq(mtlbx_writer_add_source(w, "", "x", 1), MTLBX_WRITER_FAILED);
    /* None of that added anything: one function, and the target macOS 26. */
    cr_assert_eq(mtlbx_writer_write_memory(w, &out, &len), MTLBX_WRITER_OK, "%s", mtlbx_writer_error_string(w));
    mtlbx_file *f = reopen(out, len);
    cr_assert_eq(mbx_library_function_count(mbx_library_at(f, 0)), 1);
    cr_assert_eq(mbx_library_header(mbx_library_at(f, 0))->os_major, 26);
    cr_assert_eq(mbx_library_header(mbx_library_at(f, 0))->patch, 9);
    mbx_close(f);
    mtlbx_writer_free(w);
}

Test(writer, sources_and_keys)
{
    mtlbx_writer *w = mtlbx_writer_new();
    struct mtlbx_bytes obj = module_of("object_main"), frag = module_of("fragment_main");
    cr_assert_eq(mtlbx_writer_target(w, "macOS:15.0"), MTLBX_WRITER_OK);
    cr_assert_eq(mtlbx_writer_add_function(w, obj.ptr, obj.len), MTLBX_WRITER_OK);
    static const char text[] = "kernel void k() {}\n";
    char long_name[201]; /* 200 bytes: more than the name field, less than prefix + name */
    memset(long_name, 'd', sizeof long_name);
    for (size_t i = 50; i < sizeof long_name - 1; i += 50)
        long_name[i] = '/';
    long_name[sizeof long_name - 1] = 0;
    cr_assert_eq(mtlbx_writer_add_source(w, "/src/shaders.metal", text, sizeof text - 1), MTLBX_WRITER_OK);
    cr_assert_eq(mtlbx_writer_add_source(w, long_name, "x", 1), MTLBX_WRITER_OK, "%s", mtlbx_writer_error_string(w));
    cr_assert_eq(mtlbx_writer_add_source(w, "/src/shaders.metal", "y", 1), MTLBX_WRITER_FAILED, "a member twice");
    /* A function added after the sources still gets its SOFF. */
    cr_assert_eq(mtlbx_writer_add_function(w, frag.ptr, frag.len), MTLBX_WRITER_OK);
    cr_assert_eq(mtlbx_writer_set(w, MTLBX_WRITER_UUID, "00112233445566778899aabbccddeeff"), MTLBX_WRITER_OK);
    cr_assert_eq(mtlbx_writer_set(w, MTLBX_WRITER_NAME, "@rpath/libk.metallib"), MTLBX_WRITER_OK);
    cr_assert_eq(mtlbx_writer_set(w, MTLBX_WRITER_FILE_TYPE, "dynamic"), MTLBX_WRITER_OK);
    const void *out;
    size_t len;
    cr_assert_eq(mtlbx_writer_write_memory(w, &out, &len), MTLBX_WRITER_OK, "%s", mtlbx_writer_error_string(w));
    mtlbx_file *f = reopen(out, len);
    mtlbx_library *lib = mbx_library_at(f, 0);
    cr_assert_eq(errors(lib), 0);
    cr_assert_eq(mbx_library_header(lib)->file_type, 2);
    const struct mtlbx_header_ext *x = mbx_library_header_ext(lib);
    cr_assert(x->has_uuid);
    cr_assert_eq(x->uuid[0], 0x00);
    cr_assert_eq(x->uuid[15], 0xff);
    const struct mtlbx_dynamic_header *d = mbx_library_dynamic_header(lib);
    cr_assert(d->has_name);
    cr_assert_eq(d->name.len, strlen("@rpath/libk.metallib"));
    const struct mtlbx_sources *s = mbx_library_sources(lib);
    cr_assert(s->present);
    cr_assert_str_eq(s->tag, "HSRD");
    cr_assert_eq(s->n_archives, 1);
    cr_assert_eq(mbx_archive_load(lib, 0), MTLBX_ARCHIVE_LOADED);
    const struct mtlbx_archive *a = &s->archives[0];
    cr_assert_eq(a->n_members, 2);
    cr_assert_str_eq(a->members[0].name, "/src/shaders.metal");
    cr_assert_eq(a->members[0].size, sizeof text - 1);
    cr_assert_eq(memcmp(a->members[0].data, text, sizeof text - 1), 0);
    cr_assert_str_eq(a->members[1].name, long_name, "a long name is split into the ustar prefix and joined back");
    for (size_t i = 0; i < 2; i++)
        cr_assert_eq(mbx_function_archive(lib, i), 0, "function %zu's SOFF", i);
    mbx_close(f);
    mtlbx_writer_free(w);
}

Test(writer, write_filename_is_atomic)
{
    char dir[] = "/tmp/mtlbx-writer-XXXXXX";
    cr_assert(mkdtemp(dir));
    char path[256], missing[256];
    snprintf(path, sizeof path, "%s/out.metallib", dir);
    snprintf(missing, sizeof missing, "%s/no/such/dir/out.metallib", dir);
    mtlbx_writer *w = mtlbx_writer_new();
    struct mtlbx_bytes m = module_of("visible_fn");
    cr_assert_eq(mtlbx_writer_target(w, "macOS:15.0"), MTLBX_WRITER_OK);
    cr_assert_eq(mtlbx_writer_add_function(w, m.ptr, m.len), MTLBX_WRITER_OK);
    cr_assert_eq(mtlbx_writer_write_filename(w, missing), MTLBX_WRITER_FAILED);
    cr_assert_eq(mtlbx_writer_write_filename(w, path), MTLBX_WRITER_OK, "%s", mtlbx_writer_error_string(w));
    /* Exactly the file, no temporary left beside it. */
    DIR *dd = opendir(dir);
    struct dirent *e;
    size_t n = 0;
    while ((e = readdir(dd)))
        if (e->d_name[0] != '.' || strncmp(e->d_name, ".mtlbx-tmp", 10) == 0)
            n++;
    closedir(dd);
    cr_assert_eq(n, 1);
    mtlbx_file *f;
    struct mtlbx_error err;
    cr_assert_eq(mbx_open_path(path, &f, &err), MTLBX_E_NONE);
    cr_assert_eq(mbx_library_function_count(mbx_library_at(f, 0)), 1);
    mbx_close(f);
    unlink(path);
    rmdir(dir);
    mtlbx_writer_free(w);
}
