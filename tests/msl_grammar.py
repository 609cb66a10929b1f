#!/usr/bin/env python3
"""Checks that `mtlbx sig` output reads as MSL declarations (issue 23):
brackets balanced in every declaration, struct declarations well formed
(`struct NAME {`, member lines `TYPE NAME[N] [[...]];`, `};`), no member
line outside a struct, function constants declared as `constant TYPE NAME
[[function_constant(N)]];` (inside `namespace NS { ... }` for a C++ name), every function declaration starting with a stage
(kernel, vertex, fragment or an attribute such as [[mesh]]) and ending in
`);`, and nothing else but comments. Not a compiler: it checks the shape
a compiler needs. Usage: msl_grammar.py FILE... (exit 1 naming each
offending line)."""
import re
import sys

IDENT = r"[A-Za-z_]\w*"
STRUCT_OPEN = re.compile(r"^struct (%s) \{$" % IDENT)
MEMBER = re.compile(r"^    \S.*[\s*&](%s)(\[\d+\])?( \[\[.*\]\])?;$" % IDENT)
ATTRIBUTE_LINE = re.compile(r"^\[\[\w+(\(\d+\))?\]\]$")
DECL_START = re.compile(r"^(\[\[\w+(\(\d+\))?\]\] )?(kernel|vertex|fragment|\[\[\w+\]\]) \S")
# A function constant the function uses (CNST), inside its C++ namespaces.
CONSTANT = re.compile(r"^(namespace %s \{ )*constant [a-z][a-z0-9]* %s \[\[function_constant\(\d+\)\]\];( \})*$"
                      % (IDENT, IDENT))
PAIRS = {")": "(", "]": "[", "}": "{", ">": "<"}


def code_of(line):
    """The line without its comments (/* */ spans, then // to the end)."""
    # Before a ; , or ) the spaces go with it: `x /* c */;` is `x;`.
    line = re.sub(r"\s*/\*.*?\*/(?=\s*[;,)])", "", line)
    line = re.sub(r"/\*.*?\*/", "", line)
    at = line.find("//")
    return (line[:at] if at >= 0 else line).rstrip()


def check(path):
    errors = []
    state, stack, start = "top", [], 0

    def bad(n, why, text):
        errors.append("%s:%d: %s: %s" % (path, n, why, text))

    for n, raw in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
        text = raw.rstrip("\n")
        code = code_of(text)
        if not code.strip():
            continue
        if state == "top" and stack:
            bad(n, "unbalanced brackets before this line", text)
            stack = []
        for c in code:
            if c in "([{<":
                stack.append(c)
            elif c in PAIRS:
                if not stack or stack.pop() != PAIRS[c]:
                    bad(n, "unbalanced '%s'" % c, text)
                    stack = []
        if state == "struct":
            if code == "};" and not stack:
                state = "top"
            elif not MEMBER.match(code):
                bad(n, "not a struct member", text)
            continue
        if state == "decl":
            if re.match(r"^ {8}", code) or re.search(r";.", code):
                bad(n, "a member line outside a struct", text)
            if code.endswith(");") and not stack:
                state = "top"
            elif code.endswith(";"):
                bad(n, "a member line outside a struct", text)
            elif not code.startswith("    "):
                bad(n, "declaration not ended by ');'", text)
                state = "top"
            else:
                continue
            continue
        # top level
        m = STRUCT_OPEN.match(code)
        if m:
            state = "struct"
            start = n
        elif ATTRIBUTE_LINE.match(code):
            pass
        elif CONSTANT.match(code) and code.count("{") == code.count("}"):
            stack = []
        elif DECL_START.match(code):
            if re.search(r"\bstruct %s\(" % IDENT, code) or re.search(r"\bstruct \(", code):
                bad(n, "'struct' as a return type", text)
            start = n
            if code.endswith(");") and not stack:
                pass
            elif code.endswith(";"):
                bad(n, "declaration not ended by ');'", text)
            else:
                state = "decl"
        elif code.endswith(";"):
            bad(n, "a member line outside a struct", text)
        else:
            bad(n, "neither a declaration, a struct nor a comment", text)
    if state != "top":
        bad(start, "not closed at the end of the file", "")
    if stack:
        bad(start, "unbalanced brackets at the end of the file", "")
    return errors


def main():
    errors = []
    for path in sys.argv[1:]:
        errors += check(path)
    for e in errors[:20]:
        print(e)
    if len(errors) > 20:
        print("... %d more" % (len(errors) - 20))
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
