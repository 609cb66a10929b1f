/* bench/decode_interfaces: decodes the AIR interface of every function of
 * the libraries named, with nothing else around it (no printing per
 * function), so that bench/run can put the native bitcode reader side by
 * side with `openssl dgst -sha256` over the same file, or with llvm-dis on
 * the same modules.
 *
 *   bench/decode_interfaces [--first N] [--each] FILE...
 *
 * --first N  only the first N functions of each library
 * --each     one line per function: microseconds, module bytes, file, name
 *            (tab-separated), for a decode time of every module
 * It ends with one summary line on stderr: functions, failures, bytes,
 * seconds. Exit status 1 if any interface failed to decode, 2 if a file
 * cannot be opened. */
#include "config.h"

#include "bitcode/interface_reader.h"
#include "container/escape.h"
#include "container/file.h"
#include "container/functions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char *argv[])
{
    size_t first = SIZE_MAX, functions = 0, failures = 0;
    unsigned long long bytes = 0;
    bool each = false;
    int status = 0, i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--first") == 0 && i + 1 < argc)
            first = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--each") == 0)
            each = true;
        else {
            fprintf(stderr, "usage: %s [--first N] [--each] FILE...\n", argv[0]);
            return 2;
        }
    }
    if (i == argc) {
        fprintf(stderr, "usage: %s [--first N] [--each] FILE...\n", argv[0]);
        return 2;
    }
    double start = now();
    for (; i < argc; i++) {
        mtlbx_file *f;
        struct mtlbx_error err;
        if (mbx_open_path(argv[i], &f, &err) != MTLBX_E_NONE) {
            fprintf(stderr, "%s: %s\n", argv[i], err.message);
            status = 2;
            continue;
        }
        for (size_t l = 0; l < mbx_file_library_count(f); l++) {
            mtlbx_library *lib = mbx_library_at(f, l);
            size_t n = mbx_library_function_count(lib);
            mtlbx_interface_reader *rd = mbx_interface_reader_new(lib); /* as sig decodes */
            for (size_t k = 0; k < n && k < first; k++) {
                double t0 = each ? now() : 0;
                struct mtlbx_interface *it = mbx_interface_read(rd, lib, k, NULL, &err);
                functions++;
                bytes += mbx_function_module_bytes(lib, k).len;
                if (!it || it->module.failed) {
                    failures++;
                    status = status ? status : 1;
                }
                if (each) {
                    const struct mtlbx_function *fn = mbx_function_at(lib, k);
                    char *name = mbx_escape_dup(fn->name.ptr, fn->name.len, MTLBX_ESC_TERMINAL);
                    printf("%.1f\t%zu\t%s\t%s\n", (now() - t0) * 1e6, mbx_function_module_bytes(lib, k).len,
                           argv[i], name ? name : "?");
                    free(name);
                }
                mbx_interface_free(it);
            }
            mbx_interface_reader_free(rd);
        }
        mbx_close(f);
    }
    fprintf(stderr, "decode_interfaces: %zu functions, %zu failed, %llu module bytes, %.3f s\n", functions,
            failures, bytes, now() - start);
    if (fflush(stdout) != 0 || ferror(stdout))
        return 2;
    return status;
}
