/* A main() for the fuzz harnesses without libFuzzer: runs every file
 * named, or every file of every directory named, through
 * LLVMFuzzerTestOneInput once. This is how the seed corpus and each input
 * a fuzzer crashed on stay in `make check` (and run under ASan/UBSan in
 * CI): the harness aborts on any broken promise, so a regression fails. */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    struct stat st;
    if (fstat(fileno(fp), &st) != 0 || st.st_size > (64 << 20)) {
        fclose(fp);
        fprintf(stderr, "replay: %s: cannot size it or over 64 MiB\n", path);
        return 1;
    }
    /* An exact-size copy, so ASan sees any read past the input's end. */
    size_t n = (size_t)st.st_size;
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf || fread(buf, 1, n, fp) != n) {
        fclose(fp);
        free(buf);
        fprintf(stderr, "replay: cannot read %s\n", path);
        return 1;
    }
    fclose(fp);
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    int failures = 0;
    size_t ran = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: %s: no such file or directory\n", argv[i]);
            failures++;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            failures += run_file(argv[i]);
            ran++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        if (!d) {
            failures++;
            continue;
        }
        char **names = NULL;
        size_t n = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            names = realloc(names, (n + 1) * sizeof *names);
            names[n++] = strdup(e->d_name);
        }
        closedir(d);
        if (n > 1)   /* a stable order for the log (names is NULL when empty) */
            qsort(names, n, sizeof *names, cmp_str);
        for (size_t k = 0; k < n; k++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], names[k]);
            printf("%s\n", path);
            fflush(stdout);
            failures += run_file(path);
            ran++;
            free(names[k]);
        }
        free(names);
    }
    printf("replayed %zu input(s), %d unreadable\n", ran, failures);
    return failures ? 1 : 0;
}
