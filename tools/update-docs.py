#!/usr/bin/env python3
"""Rewrite the generated parts of README.md and man/mtlbx.1 in place.

Four parts of the documents are printed by programs from the tables in the
code, and tests fail when they drift (tests/cli/cli_doc.sh, test_ui_keys):

  README.md   the command table          <- src/cli/cmddoc markdown
  README.md   the explorer key tables    <- src/ui/keydoc markdown
  man/mtlbx.1 the SYNOPSIS               <- src/cli/cmddoc man
  man/mtlbx.1 the explorer key lists     <- src/ui/keydoc man

Usage: tools/update-docs.py BUILD_DIR   (run from the source tree's top)
"""
import os
import subprocess
import sys


def run(build, prog, mode):
    return subprocess.run([os.path.join(build, prog), mode], check=True,
                          capture_output=True, text=True).stdout


def replace_between(text, start, end, new, what, blank_after=False):
    """Replace text[start_line_after .. end_line) given marker predicates."""
    lines = text.split("\n")
    i = next((k for k, l in enumerate(lines) if start(l)), None)
    if i is None:
        sys.exit(f"update-docs: no start of {what}")
    j = next((k for k in range(i + 1, len(lines)) if end(lines[k])), None)
    if j is None:
        sys.exit(f"update-docs: no end of {what}")
    return "\n".join(lines[:i] + new.strip("\n").split("\n") + ([""] if blank_after else []) + lines[j:])


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build = sys.argv[1]
    readme = open("README.md").read()
    readme = replace_between(readme, lambda l: l == "| command | what it does |",
                             lambda l: not l.startswith("|"),
                             run(build, "src/cli/cmddoc", "markdown"), "README command table")
    readme = replace_between(readme, lambda l: l == "**Everywhere**",
                             lambda l: l.startswith("## "),
                             run(build, "src/ui/keydoc", "markdown"), "README keys", blank_after=True)
    open("README.md", "w").write(readme)

    man = open("man/mtlbx.1").read()
    lines = man.split("\n")
    syn = lines.index(".Sh SYNOPSIS")
    desc = lines.index(".Sh DESCRIPTION")
    lines = lines[:syn + 1] + run(build, "src/cli/cmddoc", "man").rstrip("\n").split("\n") + lines[desc:]
    man = "\n".join(lines)
    man = replace_between(man, lambda l: l == ".Ss Everywhere",
                          lambda l: l.startswith(".Sh "),
                          run(build, "src/ui/keydoc", "man"), "man keys")
    open("man/mtlbx.1", "w").write(man)


if __name__ == "__main__":
    main()
