/* A small reader of the named metadata in llvm-dis's text output, written
 * independently of the library's bitcode reader so that the two can be
 * compared (tests/lib/bitcode/test_interface_corpus.c). It reads only what AIR
 * interfaces use: "!name = !{!1, ...}" lines, "!N = [distinct ]!{...}"
 * tuples, the names of defined and declared functions, and the parameter
 * types of the defined ones (an argument's address space). */
#ifndef MTLBX_LLPARSE_H
#define MTLBX_LLPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ll_kind { LL_NULL, LL_INT, LL_STRING, LL_REF, LL_GLOBAL, LL_OTHER };

struct ll_op {
    enum ll_kind kind;
    int64_t i;                 /* LL_INT; LL_REF: the node number */
    char *s;                   /* LL_STRING (unescaped), LL_GLOBAL (name) */
    size_t len;
};

struct ll_tuple {
    bool present;
    size_t n;
    struct ll_op *ops;
};

struct ll_named {
    char *name;
    size_t n;
    long *ids;
};

struct ll_function {
    char *name;
    bool defined;              /* a `define` line (else `declare`) */
    size_t n_params;           /* define lines: each parameter's text, */
    char **params;             /* "<4 x float> addrspace(1)* nocapture readonly %0" */
};

struct ll_module {
    size_t n_nodes;            /* highest node number + 1 */
    struct ll_tuple *nodes;
    size_t n_named;
    struct ll_named *named;
    size_t n_functions;
    struct ll_function *functions;   /* defined or declared */
};

/* Parses llvm-dis output. False if the text is not what llvm-dis prints. */
bool ll_parse(const char *text, size_t len, struct ll_module *m);
void ll_free(struct ll_module *m);
const struct ll_tuple *ll_node(const struct ll_module *m, long id);
bool ll_is_function(const struct ll_module *m, const char *name);
/* The function of that name, or NULL. */
const struct ll_function *ll_function(const struct ll_module *m, const char *name);
/* A parameter's address space as its text spells it: N for a pointer
 * (`T addrspace(N)*`, `ptr addrspace(N)`; 0 without addrspace; the
 * outermost level of a pointer to a pointer), -1 for a type that is no
 * pointer, -2 for text that does not read as an LLVM type. */
int ll_param_address_space(const char *param);

#endif
