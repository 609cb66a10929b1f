/* libFuzzer harness over the writer's two inputs from outside (issue 33):
 *
 *  - 'M' then a manifest (src/lib/writer/manifest_read.c): read into a model with
 *    its file references resolved beneath a scratch folder the harness
 *    makes once (modules m.air and sub/n.air, an archive s.bz2, a link
 *    out of the folder, a FIFO), then laid out into memory. Promises:
 *    a refusal is one line, a library written is as long as the layout
 *    said and the parser opens it, and its header's length is its own.
 *  - anything else: the rest is an AIR module for mtlbx_writer_add_function
 *    (target macOS 26.0). Promises: a refusal is one line; a module taken
 *    gives a library the parser reads with one function whose HASH is
 *    the module's digest, and no error.
 * A broken promise aborts. Seeds: manifests of the project's fixtures
 * (their files renamed to the scratch folder's) and the sample's modules
 * (seeds/writer/). */
#include "config.h"

#include "checks/hash.h"
#include "writer/manifest.h"
#include "writer/writer.h"
#include "writer/writer_internal.h"
#include "writer/writer_model.h"
#include "container/file.h"
#include "container/functions.h"
#include "container/diagnostics.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void broken(const char *what)
{
    fprintf(stderr, "fuzz_writer: broken promise: %s\n", what);
    abort();
}

static void one_line(const char *msg)
{
    if (!msg[0] || strchr(msg, '\n'))
        broken("a refusal is not one line");
}

/* The scratch folder, made on the first call, removed at exit. */
static int scratch = -1;
static char scratch_dir[64];

static void remove_scratch(void)
{
    static const char *const names[] = { "m.air", "s.bz2", "sub/n.air", "link.air", "fifo.air", "sub" };
    char path[128];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(path, sizeof path, "%s/%s", scratch_dir, names[i]);
        if (unlink(path) != 0)
            rmdir(path);
    }
    rmdir(scratch_dir);
}

static void make_scratch(void)
{
    char *dir = scratch_dir;
    snprintf(scratch_dir, sizeof scratch_dir, "/tmp/mtlbx-fuzz-writer-XXXXXX");
    if (!mkdtemp(dir))
        broken("no scratch folder");
    atexit(remove_scratch);
    static const char module[] = "\xde\xc0\x17\x0b module bytes for the writer's fuzzer";
    char path[256];
    snprintf(path, sizeof path, "%s/m.air", dir);
    FILE *fp = fopen(path, "wb");
    fwrite(module, 1, sizeof module, fp);
    fclose(fp);
    snprintf(path, sizeof path, "%s/s.bz2", dir);
    fp = fopen(path, "wb");
    fwrite("BZh9", 1, 4, fp);
    fclose(fp);
    snprintf(path, sizeof path, "%s/sub", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/sub/n.air", dir);
    fp = fopen(path, "wb");
    fwrite(module, 1, 16, fp);
    fclose(fp);
    snprintf(path, sizeof path, "%s/link.air", dir);
    if (symlink("/etc/hostname", path) != 0)
        broken("no symbolic link");
    snprintf(path, sizeof path, "%s/fifo.air", dir);
    mkfifo(path, 0600);
    scratch = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (scratch < 0)
        broken("cannot open the scratch folder");
}

struct mem {
    uint8_t *buf;
    uint64_t len;
};

static int mem_put(void *ctx, mtlbx_writer *w, uint64_t off, const void *data, size_t len)
{
    struct mem *m = ctx;
    (void)w;
    if (off + len > m->len) {
        /* The harness caps what a manifest may make: the files are tiny,
         * values come from the input. */
        if (off + len > ((uint64_t)64 << 20))
            return -1;
        uint8_t *g = realloc(m->buf, (size_t)(off + len));
        if (!g)
            return -1;
        memset(g + m->len, 0xA5, (size_t)(off + len - m->len));
        m->buf = g;
        m->len = off + len;
    }
    memcpy(m->buf + off, data, len);
    return 0;
}

static void check_written(const uint8_t *buf, size_t len, size_t functions)
{
    mtlbx_file *f;
    struct mtlbx_error err;
    if (mbx_open_buffer(buf, len, "written", &f, &err) != MTLBX_E_NONE)
        broken("the parser does not open what the writer wrote");
    for (size_t l = 0; l < mbx_file_library_count(f); l++) {
        mtlbx_library *lib = mbx_library_at(f, l);
        const struct mtlbx_header *h = mbx_library_header(lib);
        if (h->declared_size != h->available)
            broken("a library's header length is not its own");
        if (functions != SIZE_MAX) {
            if (mbx_library_function_count(lib) != functions)
                broken("the library does not hold the function added");
            if (mbx_library_verify_all(lib, 1) != 0)
                broken("a HASH is not its module's digest");
            for (size_t i = 0; i < mbx_library_diag_count(lib); i++)
                if (mbx_library_diag(lib, i)->severity == MTLBX_ERROR)
                    broken("an error in a library made from a module the writer took");
        }
    }
    mbx_close(f);
}

static void manifest(const uint8_t *data, size_t size)
{
    if (scratch < 0)
        make_scratch();
    mtlbx_writer *w = mbx_writer_new();
    char err[512];
    if (!w)
        return;
    if (!mbx_manifest_load_text(w, scratch, (const char *)data, size, err, sizeof err)) {
        one_line(err);
        mtlbx_writer_free(w);
        return;
    }
    mbx_wr_set_base_dir(w, scratch);
    struct mem m = { NULL, 0 };
    struct mtlbx_wr_sink sink = { mem_put, &m };
    uint64_t len = 0;
    int rc = mbx_wr_write(w, &sink, &len);
    if (rc == MTLBX_WRITER_OK) {
        if (len != m.len)
            broken("the bytes written are not the length the layout gave");
        check_written(m.buf, (size_t)m.len, SIZE_MAX);
    } else {
        one_line(mtlbx_writer_error_string(w));
    }
    free(m.buf);
    mtlbx_writer_free(w);
}

static void module(const uint8_t *data, size_t size)
{
    mtlbx_writer *w = mtlbx_writer_new();
    if (!w)
        return;
    if (mtlbx_writer_target(w, "macOS:26.0") != MTLBX_WRITER_OK)
        broken("macOS 26 is a target the writer knows");
    if (mtlbx_writer_add_function(w, data, size) != MTLBX_WRITER_OK) {
        one_line(mtlbx_writer_error_string(w));
        mtlbx_writer_free(w);
        return;
    }
    const void *out;
    size_t len;
    if (mtlbx_writer_write_memory(w, &out, &len) != MTLBX_WRITER_OK)
        one_line(mtlbx_writer_error_string(w));
    else
        check_written(out, len, 1);
    mtlbx_writer_free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    if (data[0] == 'M')
        manifest(data + 1, size - 1);
    else
        module(data + 1, size - 1);
    return 0;
}
