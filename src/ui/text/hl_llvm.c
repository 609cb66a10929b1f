/* LLVM assembly colour (hl.h): comments, strings, @globals, %locals,
 * !metadata, #attribute groups, numbers, the instruction and definition
 * keywords, and types (void, float, i32, ptr...). One pass, no state:
 * nothing in llvm-dis output spans lines. */
#include "config.h"

#include "ui/text/hl.h"

#include <string.h>

bool hl_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* IR names also hold '.', '$' and '-' (%struct.Foo, @llvm.memcpy.p0). */
static bool ir_name_char(char c)
{
    return hl_ident_char(c) || c == '.' || c == '$' || c == '-';
}

static bool word_in(const char *w, size_t n, const char *const *set)
{
    for (; *set; set++)
        if (strlen(*set) == n && memcmp(*set, w, n) == 0)
            return true;
    return false;
}

static const char *const keywords[] = {
    "define", "declare", "ret", "br", "call", "tail", "musttail", "load", "store", "alloca",
    "getelementptr", "inbounds", "icmp", "fcmp", "phi", "select", "switch", "unreachable",
    "add", "fadd", "sub", "fsub", "mul", "fmul", "udiv", "sdiv", "fdiv", "urem", "srem", "frem",
    "shl", "lshr", "ashr", "and", "or", "xor", "fneg", "zext", "sext", "trunc", "fptrunc", "fpext",
    "bitcast", "addrspacecast", "ptrtoint", "inttoptr", "sitofp", "uitofp", "fptosi", "fptoui",
    "extractelement", "insertelement", "shufflevector", "extractvalue", "insertvalue",
    "atomicrmw", "cmpxchg", "fence", "target", "datalayout", "triple", "source_filename",
    "global", "constant", "private", "internal", "external", "linkonce_odr", "weak", "common",
    "unnamed_addr", "local_unnamed_addr", "attributes", "type", "to", "align", "addrspace",
    "section", "true", "false", "null", "undef", "poison", "zeroinitializer", "volatile",
    "nuw", "nsw", "exact", "fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc",
    "eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle",
    "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "une", "uno", "label",
    NULL,
};

static const char *const types[] = {
    "void", "half", "bfloat", "float", "double", "ptr", "metadata", "opaque", "x86_mmx", NULL,
};

static bool is_type(const char *w, size_t n)
{
    if (n >= 2 && w[0] == 'i') { /* i1, i32, i128 */
        size_t k = 1;
        while (k < n && w[k] >= '0' && w[k] <= '9')
            k++;
        if (k == n)
            return true;
    }
    return word_in(w, n, types);
}

static size_t add(struct hl_span *out, size_t n, size_t cap, size_t start, size_t len, enum hl_kind k)
{
    if (n < cap && len)
        out[n++] = (struct hl_span){ start, len, k };
    return n;
}

/* End of a "..." string starting at i (past its closing quote). */
static size_t string_end(const char *s, size_t len, size_t i)
{
    for (i++; i < len && s[i] != '"'; i++)
        ;
    return i < len ? i + 1 : len;
}

size_t hl_llvm_line(const char *s, size_t len, struct hl_span *out, size_t cap)
{
    size_t n = 0, i = 0;
    while (i < len && n < cap) {
        char c = s[i];
        size_t j = i + 1;
        if (c == ';') {
            n = add(out, n, cap, i, len - i, HL_COMMENT);
            break;
        }
        if (c == '"' || (c == 'c' && j < len && s[j] == '"' && (i == 0 || !hl_ident_char(s[i - 1])))) {
            j = string_end(s, len, c == 'c' ? j : i);
            n = add(out, n, cap, i, j - i, HL_STRING);
        } else if (c == '!' && j < len && s[j] == '"') { /* !"a metadata string" */
            n = add(out, n, cap, i, 1, HL_META);
            size_t e = string_end(s, len, j);
            n = add(out, n, cap, j, e - j, HL_STRING);
            j = e;
        } else if (c == '@' || c == '%' || c == '!' || c == '#') {
            if (j < len && s[j] == '"' && c != '#' && c != '!')
                j = string_end(s, len, j);
            else
                while (j < len && ir_name_char(s[j]))
                    j++;
            enum hl_kind k = c == '@' ? HL_GLOBAL : c == '%' ? HL_LOCAL : c == '!' ? HL_META : HL_ATTR;
            if (j > i + 1 || c == '!')
                n = add(out, n, cap, i, j - i, k);
        } else if ((c >= '0' && c <= '9') || (c == '-' && j < len && s[j] >= '0' && s[j] <= '9')) {
            bool after_ident = i > 0 && ir_name_char(s[i - 1]);
            while (j < len && (hl_ident_char(s[j]) || s[j] == '.' ||
                               ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E'))))
                j++;
            if (!after_ident)
                n = add(out, n, cap, i, j - i, HL_NUMBER);
        } else if (hl_ident_char(c) && (i == 0 || !ir_name_char(s[i - 1]))) {
            while (j < len && hl_ident_char(s[j]))
                j++;
            if (j < len && s[j] == ':')      /* a block label "entry:" */
                n = add(out, n, cap, i, j - i + 1, HL_LOCAL);
            else if (is_type(s + i, j - i))
                n = add(out, n, cap, i, j - i, HL_TYPE);
            else if (word_in(s + i, j - i, keywords))
                n = add(out, n, cap, i, j - i, HL_KEYWORD);
        }
        i = j;
    }
    return n;
}
