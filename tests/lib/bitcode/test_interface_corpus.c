/* The native bitcode reader against llvm-dis, on every function of every
 * corpus library: for each module, llvm-dis prints its LLVM assembly, an
 * independent text reader (llparse.c) takes the named AIR metadata out of
 * it, and the stage, every input and output argument's index, kind, name,
 * type, location (or location_expression, a binding computed from function
 * constants), function_constant (the guard's name), access and address
 * space (against the entry function's `define` line: its parameter
 * numbered by the argument's index), and the module facts must equal what
 * mbx_function_interface() decoded. llvm-dis runs on batches of modules
 * (its start-up dominates), two batches at a time. Skips (77) without the
 * corpus or without llvm-dis. */
#include "config.h"

#include "llparse.h"
#include "bitcode/interface_reader.h"
#include "testenv.h"

#include "../src/program/run_tool.h"
#include "container/functions.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define BATCH 120

struct job {
    const char *file;          /* corpus file name (for messages) */
    mtlbx_library *lib;
    size_t fn;
    char bc[64], ll[64];       /* temp names inside the work directory */
};

struct counts {
    size_t functions, staged, arguments, no_stage, compared_facts, expressions, guarded;
    size_t pointers, from_parameter;   /* address spaces compared; read from the parameter type */
};

static char *llvm_dis;
static char workdir[] = "/tmp/mtlbx-ifcorpus-XXXXXX";

/* ---------------------------------------------------------- expected -- */

static bool key_is(const struct ll_op *op)
{
    return op->kind == LL_STRING && op->len >= 4 && memcmp(op->s, "air.", 4) == 0;
}

/* The argument as FORMAT §21 reads the text. */
struct text_arg {
    bool has_index;
    int64_t index;
    const char *kind;
    const char *name, *type;
    bool has_location;
    int64_t location;
    const char *location_expression;   /* the global named where the binding is */
    const char *function_constant;     /* last string of the node it points at */
    const char *access;
};

static int64_t first_int_after(const struct ll_tuple *t, size_t key)
{
    for (size_t i = key + 1; i < t->n && !key_is(&t->ops[i]); i++)
        if (t->ops[i].kind == LL_INT)
            return i;
    return -1;
}

/* CONTRACT "location": the operand right after `key` (air.location_index:
 * its first integer) is the binding when an int, an expression when a
 * global. True when it decided. */
static bool binding_after(const struct ll_tuple *t, size_t key, bool any_int, struct text_arg *a)
{
    if (key + 1 >= t->n || key_is(&t->ops[key + 1]))
        return false;
    const struct ll_op *op = &t->ops[key + 1];
    if (op->kind == LL_GLOBAL) {
        a->location_expression = op->s;
        return true;
    }
    int64_t at = any_int ? first_int_after(t, key) : op->kind == LL_INT ? (int64_t)key + 1 : -1;
    if (at < 0)
        return false;
    a->has_location = true;
    a->location = t->ops[at].i;
    return true;
}

static void text_argument(const struct ll_module *m, const struct ll_tuple *t, struct text_arg *a)
{
    memset(a, 0, sizeof *a);
    size_t start = 0;
    if (t->n && t->ops[0].kind == LL_INT) {
        a->has_index = true;
        a->index = t->ops[0].i;
        start = 1;
    }
    size_t kind_at = 0;
    bool loc_from_index = false, has_kind = false;
    for (size_t i = start; i < t->n; i++) {
        if (!key_is(&t->ops[i]))
            continue;
        const char *k = t->ops[i].s + 4;
        if (!a->kind && strcmp(k, "function_constant") != 0) {
            a->kind = k;
            kind_at = i;
            has_kind = true;
        }
        if (strcmp(k, "function_constant") == 0 && !a->function_constant && i + 1 < t->n &&
            t->ops[i + 1].kind == LL_REF) {
            const struct ll_tuple *guard = ll_node(m, (long)t->ops[i + 1].i);
            for (size_t g = guard ? guard->n : 0; g-- > 0 && !a->function_constant;)
                if (guard->ops[g].kind == LL_STRING && !key_is(&guard->ops[g]))
                    a->function_constant = guard->ops[g].s;
        }
        bool has_next = i + 1 < t->n && !key_is(&t->ops[i + 1]);
        if (strcmp(k, "arg_name") == 0 && !a->name && has_next && t->ops[i + 1].kind == LL_STRING)
            a->name = t->ops[i + 1].s;
        if (strcmp(k, "arg_type_name") == 0 && !a->type && has_next && t->ops[i + 1].kind == LL_STRING)
            a->type = t->ops[i + 1].s;
        if (strcmp(k, "location_index") == 0 && !loc_from_index)
            loc_from_index = binding_after(t, i, true, a);
        if (!a->access && (!strcmp(k, "read") || !strcmp(k, "write") || !strcmp(k, "read_write") || !strcmp(k, "sample")))
            a->access = k;
    }
    if (!loc_from_index && has_kind)
        binding_after(t, kind_at, false, a);
}

static bool bytes_is(struct mtlbx_bytes b, const char *s)
{
    return s && b.len == strlen(s) && memcmp(b.ptr, s, b.len) == 0;
}

/* CONTRACT "address_space": the LLVM address space of the parameter the
 * argument is (its index is the parameter number), as the `define` line
 * spells its type; null (MTLBX_AS_NOT_POINTER) for one that is not a
 * pointer and for outputs, which are no parameter. `fn` is the entry's
 * function (NULL for outputs). */
static void compare_address_space(const char *id, const struct ll_function *fn, const struct mtlbx_air_argument *a,
                                  struct counts *c)
{
    bool pointer = a->address_space_from == MTLBX_AS_METADATA || a->address_space_from == MTLBX_AS_PARAMETER;
    if (!fn) {
        cr_expect(a->address_space_from != MTLBX_AS_PARAMETER && a->address_space_from != MTLBX_AS_UNKNOWN,
                  "%s: an output's address space from a parameter (%d)", id, a->address_space_from);
        return;
    }
    cr_expect(a->has_index && a->index < fn->n_params, "%s: no parameter %u in the define line (%zu)", id, a->index,
              fn->n_params);
    if (!a->has_index || a->index >= fn->n_params)
        return;
    const char *param = fn->params[a->index];
    int want = ll_param_address_space(param);
    cr_expect_neq(want, -2, "%s: parameter text '%s' does not read as a type", id, param);
    if (want == -2)
        return;
    if (want < 0) {
        cr_expect(!pointer, "%s: address space %lld for '%s', which is no pointer", id, (long long)a->address_space,
                  param);
        cr_expect_eq(a->address_space_from, MTLBX_AS_NOT_POINTER, "%s: '%s': address space from %d, want none", id,
                     param, a->address_space_from);
        return;
    }
    cr_expect(pointer && a->address_space == want, "%s: address space %s%lld (from %d), llvm-dis says '%s'", id,
              pointer ? "" : "null/", (long long)a->address_space, a->address_space_from, param);
    c->pointers++;
    c->from_parameter += a->address_space_from == MTLBX_AS_PARAMETER;
}

static void compare_args(const char *what, const struct job *j, const struct ll_module *m, long list_id,
                         const struct ll_function *params, const struct mtlbx_air_argument *got, size_t n_got,
                         struct counts *c)
{
    const struct mtlbx_function *fn = mbx_function_at(j->lib, j->fn);
    const struct ll_tuple *list = ll_node(m, list_id);
    size_t n = list ? list->n : 0;
    cr_expect_eq(n_got, n, "%s %.*s: %zu %s, llvm-dis shows %zu", j->file, (int)fn->name.len, fn->name.ptr, n_got,
                 what, n);
    for (size_t i = 0; i < n && i < n_got; i++) {
        const struct ll_tuple *t = list->ops[i].kind == LL_REF ? ll_node(m, (long)list->ops[i].i) : NULL;
        struct text_arg want;
        struct ll_tuple empty = { 0 };
        text_argument(m, t ? t : &empty, &want);
        const struct mtlbx_air_argument *a = &got[i];
        char id[512];
        snprintf(id, sizeof id, "%s %.*s %s[%zu]", j->file, (int)fn->name.len, fn->name.ptr, what, i);
        cr_expect_eq(a->has_index, want.has_index, "%s: index presence", id);
        if (a->has_index && want.has_index)
            cr_expect_eq((int64_t)a->index, want.index, "%s: index %u, want %lld", id, a->index,
                         (long long)want.index);
        cr_expect(want.kind ? bytes_is(a->kind, want.kind) : a->kind.len == 0, "%s: kind '%.*s', want '%s'", id,
                  (int)a->kind.len, a->kind.ptr, want.kind ? want.kind : "");
        cr_expect(want.name ? a->has_name && bytes_is(a->name, want.name) : !a->has_name, "%s: name '%.*s', want '%s'",
                  id, (int)a->name.len, a->name.ptr, want.name ? want.name : "(none)");
        cr_expect(want.type ? a->has_type && bytes_is(a->type, want.type) : !a->has_type, "%s: type '%.*s', want '%s'",
                  id, (int)a->type.len, a->type.ptr, want.type ? want.type : "(none)");
        cr_expect_eq(a->has_location, want.has_location, "%s: location presence", id);
        if (a->has_location && want.has_location)
            cr_expect_eq(a->location, want.location, "%s: location %lld, want %lld", id, (long long)a->location,
                         (long long)want.location);
        cr_expect(want.location_expression
                      ? a->has_location_expression && bytes_is(a->location_expression, want.location_expression)
                      : !a->has_location_expression,
                  "%s: location_expression '%.*s', want '%s'", id, (int)a->location_expression.len,
                  a->location_expression.ptr, want.location_expression ? want.location_expression : "(none)");
        cr_expect(want.function_constant
                      ? a->has_function_constant && bytes_is(a->function_constant, want.function_constant)
                      : !a->has_function_constant,
                  "%s: function_constant '%.*s', want '%s'", id, (int)a->function_constant.len,
                  a->function_constant.ptr, want.function_constant ? want.function_constant : "(none)");
        c->expressions += want.location_expression != NULL;
        c->guarded += want.function_constant != NULL;
        cr_expect(want.access ? a->access && strcmp(a->access, want.access) == 0 : !a->access,
                  "%s: access %s, want %s", id, a->access ? a->access : "(none)", want.access ? want.access : "(none)");
        compare_address_space(id, params, a, c);
        c->arguments++;
    }
}

static const struct ll_tuple *named_first(const struct ll_module *m, const char *name)
{
    for (size_t i = 0; i < m->n_named; i++)
        if (strcmp(m->named[i].name, name) == 0 && m->named[i].n)
            return ll_node(m, m->named[i].ids[0]);
    return NULL;
}

static void compare(const struct job *j, const struct ll_module *m, const struct mtlbx_interface *it, struct counts *c)
{
    const struct mtlbx_function *fn = mbx_function_at(j->lib, j->fn);
    char sym[1024];
    snprintf(sym, sizeof sym, "%.*s", (int)fn->name.len, fn->name.ptr);
    c->functions++;
    cr_expect(!it->module.failed, "%s %s: decoding failed: %s at 0x%llx", j->file, sym, it->module.error,
              (unsigned long long)it->module.error_offset);
    /* The entry: the tuple naming the function in an air.X list whose
     * first operand is a function, else the only such tuple. */
    const char *stage = NULL, *only_stage = NULL;
    const struct ll_tuple *entry = NULL, *only = NULL;
    size_t n_entries = 0;
    for (size_t i = 0; i < m->n_named && !entry; i++) {
        if (strncmp(m->named[i].name, "air.", 4) != 0)
            continue;
        for (size_t k = 0; k < m->named[i].n && !entry; k++) {
            const struct ll_tuple *t = ll_node(m, m->named[i].ids[k]);
            if (!t || !t->n || t->ops[0].kind != LL_GLOBAL || !ll_is_function(m, t->ops[0].s))
                continue;
            n_entries++;
            only = t;
            only_stage = m->named[i].name + 4;
            if (strcmp(t->ops[0].s, sym) == 0) {
                entry = t;
                stage = m->named[i].name + 4;
            }
        }
    }
    if (!entry && n_entries == 1) {
        entry = only;
        stage = only_stage;
    }
    cr_expect(stage ? it->stage && strcmp(it->stage, stage) == 0 : !it->stage, "%s %s: stage %s, llvm-dis says %s",
              j->file, sym, it->stage ? it->stage : "null", stage ? stage : "null");
    if (!stage) {
        c->no_stage++;
    } else {
        c->staged++;
        long outs = entry->n > 1 && entry->ops[1].kind == LL_REF ? (long)entry->ops[1].i : -1;
        long ins = entry->n > 2 && entry->ops[2].kind == LL_REF ? (long)entry->ops[2].i : -1;
        const struct ll_function *def = ll_function(m, entry->ops[0].s);
        cr_expect(def && def->defined, "%s %s: no define line for @%s", j->file, sym, entry->ops[0].s);
        compare_args("outputs", j, m, outs, NULL, it->outputs, it->n_outputs, c);
        if (def && def->defined)
            compare_args("inputs", j, m, ins, def, it->inputs, it->n_inputs, c);
    }
    /* Module facts */
    const struct ll_tuple *v = named_first(m, "air.version");
    bool want_version = v && v->n >= 3 && v->ops[0].kind == LL_INT && v->ops[1].kind == LL_INT &&
                        v->ops[2].kind == LL_INT;
    cr_expect_eq(it->has_air_version, want_version, "%s %s: air.version presence", j->file, sym);
    if (want_version && it->has_air_version)
        cr_expect(it->air_version[0] == v->ops[0].i && it->air_version[1] == v->ops[1].i &&
                      it->air_version[2] == v->ops[2].i,
                  "%s %s: air.version", j->file, sym);
    const struct ll_tuple *ident = named_first(m, "llvm.ident");
    bool want_ident = ident && ident->n >= 1 && ident->ops[0].kind == LL_STRING;
    cr_expect_eq(it->has_compiler, want_ident, "%s %s: llvm.ident presence", j->file, sym);
    if (want_ident && it->has_compiler)
        cr_expect(bytes_is(it->compiler, ident->ops[0].s), "%s %s: llvm.ident '%.*s', want '%s'", j->file, sym,
                  (int)it->compiler.len, it->compiler.ptr, ident->ops[0].s);
    c->compared_facts++;
}

/* ------------------------------------------------------------- batches -- */

static bool write_file(const char *path, const uint8_t *p, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return false;
    bool ok = true;
    while (n && ok) {
        ssize_t w = write(fd, p, n);
        ok = w > 0;
        if (ok) {
            p += w;
            n -= (size_t)w;
        }
    }
    return close(fd) == 0 && ok;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    *len = fread(buf, 1, (size_t)n, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

/* Starts llvm-dis on jobs[0..n) (each writes NAME.ll beside NAME.bc). */
static pid_t start_dis(struct job *jobs, size_t n)
{
    if (!n)
        return 0;
    char **argv = calloc(n + 2, sizeof *argv);
    argv[0] = llvm_dis;
    for (size_t i = 0; i < n; i++)
        argv[i + 1] = jobs[i].bc;
    pid_t pid = fork();
    if (pid == 0) {
        if (chdir(workdir) != 0)
            _exit(126);
        int devnull = open("/dev/null", O_RDWR);
        dup2(devnull, 0);
        dup2(devnull, 1);
        dup2(devnull, 2); /* "ignoring invalid debug info" chatter */
        execv(llvm_dis, argv);
        _exit(127);
    }
    free(argv);
    return pid;
}

static void wait_dis(pid_t pid)
{
    int status = 0;
    if (pid <= 0)
        return;
    while (waitpid(pid, &status, 0) < 0)
        cr_assert(errno == EINTR, "waitpid: %s", strerror(errno));
    /* llvm-dis exits non-zero when any module of the batch fails; each
     * missing .ll is then reported below, module by module. */
}

static void finish(struct job *jobs, size_t n, struct counts *c)
{
    char path[256];
    for (size_t i = 0; i < n; i++) {
        struct job *j = &jobs[i];
        const struct mtlbx_function *fn = mbx_function_at(j->lib, j->fn);
        size_t len = 0;
        snprintf(path, sizeof path, "%s/%s", workdir, j->ll);
        char *text = read_file(path, &len);
        cr_expect_not_null(text, "%s %.*s: llvm-dis wrote no assembly", j->file, (int)fn->name.len, fn->name.ptr);
        struct mtlbx_error err;
        struct mtlbx_interface *it = mbx_function_interface(j->lib, j->fn, &err);
        cr_expect_not_null(it, "%s %.*s: %s", j->file, (int)fn->name.len, fn->name.ptr, err.message);
        if (text && it) {
            struct ll_module m;
            cr_expect(ll_parse(text, len, &m), "%s: not llvm-dis output", path);
            compare(j, &m, it, c);
            ll_free(&m);
        }
        mbx_interface_free(it);
        free(text);
        unlink(path);
        snprintf(path, sizeof path, "%s/%s", workdir, j->bc);
        unlink(path);
    }
}

Test(interface_corpus, every_function_agrees_with_llvm_dis, .timeout = 1200)
{
    const char *dir = testenv("MTLBX_CORPUS");
    /* Criterion runs each test in a fresh process: look the tool up here */
    cr_assert_not_null(llvm_dis = find_llvm_dis(NULL));
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    cr_assert_not_null(mkdtemp(workdir));
    struct job *jobs = NULL;
    size_t n_jobs = 0;
    mtlbx_file **files = NULL;
    size_t n_files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (e->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        mtlbx_file *f;
        struct mtlbx_error err;
        if (mbx_open_path(path, &f, &err) != MTLBX_E_NONE)
            continue; /* README, PROVENANCE.tsv ... */
        files = realloc(files, (n_files + 1) * sizeof *files);
        files[n_files++] = f;
        const char *name = strdup(e->d_name);
        for (size_t l = 0; l < mbx_file_library_count(f); l++) {
            mtlbx_library *lib = mbx_library_at(f, l);
            for (size_t i = 0; i < mbx_library_function_count(lib); i++) {
                if (!mbx_function_module_bytes(lib, i).ptr)
                    continue;
                jobs = realloc(jobs, (n_jobs + 1) * sizeof *jobs);
                struct job *j = &jobs[n_jobs];
                *j = (struct job){ .file = name, .lib = lib, .fn = i };
                snprintf(j->bc, sizeof j->bc, "m%06zu.bc", n_jobs);
                snprintf(j->ll, sizeof j->ll, "m%06zu.ll", n_jobs);
                n_jobs++;
            }
        }
    }
    closedir(d);
    cr_assert_gt(n_jobs, 0, "no modules in %s", dir);
    struct counts c = { 0 };
    for (size_t at = 0; at < n_jobs; at += 2 * BATCH) {
        size_t n1 = n_jobs - at < BATCH ? n_jobs - at : BATCH;
        size_t n2 = n_jobs - at - n1 < BATCH ? n_jobs - at - n1 : BATCH;
        for (size_t i = at; i < at + n1 + n2; i++) {
            struct bc_path { char p[256]; } bp;
            struct mtlbx_bytes mod = mbx_function_module_bytes(jobs[i].lib, jobs[i].fn);
            snprintf(bp.p, sizeof bp.p, "%s/%s", workdir, jobs[i].bc);
            cr_assert(write_file(bp.p, mod.ptr, mod.len), "cannot write %s", bp.p);
        }
        pid_t p1 = start_dis(jobs + at, n1), p2 = start_dis(jobs + at + n1, n2);
        wait_dis(p1);
        wait_dis(p2);
        finish(jobs + at, n1 + n2, &c);
    }
    rmdir(workdir);
    fprintf(stderr,
            "interface_corpus: %zu functions in %zu files compared with llvm-dis: %zu with a stage entry "
            "(%zu arguments and outputs, %zu guarded by a function constant, %zu bindings computed, "
            "%zu pointers whose address space is the define line's, %zu of them read from the parameter type), "
            "%zu without; module facts of %zu\n",
            c.functions, n_files, c.staged, c.arguments, c.guarded, c.expressions, c.pointers, c.from_parameter,
            c.no_stage, c.compared_facts);
    cr_expect_eq(c.functions, n_jobs);
    cr_expect(c.arguments == 0 || c.pointers > 0, "no pointer argument compared");
    for (size_t i = 0; i < n_files; i++)
        mbx_close(files[i]);
    free(files);
    free(jobs);
    free(llvm_dis);
}

int main(int argc, char *argv[])
{
    const char *dir = testenv("MTLBX_CORPUS");
    char marker[4096];
    struct stat st;
    snprintf(marker, sizeof marker, "%s/expected", dir ? dir : "");
    if (!dir || stat(marker, &st) != 0) {
        fprintf(stderr, "SKIP: interface corpus test: no corpus at '%s' (set MTLBX_CORPUS)\n", dir ? dir : "(unset)");
        return 77;
    }
    char *tool = find_llvm_dis(NULL);
    if (!tool) {
        fprintf(stderr, "SKIP: interface corpus test: llvm-dis not found (set MTLBX_LLVM_DIS or install llvm)\n");
        return 77;
    }
    free(tool);
    struct criterion_test_set *tests = criterion_initialize();
    int result = 0;
    if (criterion_handle_args(argc, argv, true))
        result = !criterion_run_all_tests(tests);
    criterion_finalize(tests);
    return result;
}
