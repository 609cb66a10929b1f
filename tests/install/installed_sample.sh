#!/bin/sh
# The installed program finds its sample under the prefix it was really
# installed to: make install with another prefix than configure's
# (prefix=DIR), staged with DESTDIR, and the staged tree moved elsewhere.
# `mtlbx` alone, stdin not a terminal, prints info on the sample it found.
# When configure's own data directory holds a sample (mtlbx installed on
# this machine), that one comes first, as it should: then only that some
# sample opens is checked.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
BUILD=${MTLBX_BUILDDIR:-$(pwd)}
W=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-installed.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM HUP
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES DESTDIR
install_to() { # make install of the program and its data, with these make arguments
    ${MAKE:-make} -s -C "$BUILD" install-binPROGRAMS install-dist_pkgdataDATA "$@" >"$W/make.log" 2>&1 ||
        { cat "$W/make.log"; echo "FAIL: make install $*"; exit 1; }
}
configured=$(sed -n 's/^prefix = //p' "$BUILD/Makefile")
configured_sample=$(${MAKE:-make} -s -C "$BUILD" --no-print-directory -f Makefile -f - print-pkgdatadir <<'MK' 2>/dev/null
print-pkgdatadir:
	@echo $(pkgdatadir)/sample.metallib
MK
)
[ -n "$configured_sample" ] || { echo "FAIL: no pkgdatadir in $BUILD/Makefile"; exit 1; }
opens() { # opens BIN WHERE: BIN alone opens the sample under WHERE
    "$1" </dev/null >"$W/out" 2>&1 || { fail "$1 alone failed: $(head -3 "$W/out")"; return; }
    got=$(sed -n 's/^File  *\(.*\) ([0-9,]* bytes)$/\1/p' "$W/out" | head -n 1)
    if [ -f "$configured_sample" ]; then
        [ "$got" = "$configured_sample" ] && ok "$3: the configured $got (installed on this machine)" ||
            fail "$3: opened '$got', not the configured $configured_sample"
    else
        case $got in
        "$2"/*/sample.metallib) ok "$3: $got" ;;
        *) fail "$3: opened '$got', not the sample under $2"; cat "$W/out" ;;
        esac
    fi
}
install_to prefix="$W/p"
opens "$W/p/bin/mtlbx" "$W/p" "make install prefix=DIR (configured for $configured)"
install_to DESTDIR="$W/stage"
opens "$W/stage$configured/bin/mtlbx" "$W/stage$configured" "make install DESTDIR=STAGE, run in the stage"
mv "$W/stage$configured" "$W/moved"
opens "$W/moved/bin/mtlbx" "$W/moved" "the staged tree moved elsewhere"
rm -f "$W/moved/share/mtlbx/sample.metallib"
if [ ! -f "$configured_sample" ]; then
    if "$W/moved/bin/mtlbx" </dev/null >"$W/out" 2>&1; then
        fail "with no sample anywhere, mtlbx alone opened: $(head -1 "$W/out")"
    else
        grep -q "sample.*was not found" "$W/out" && ok "no sample: mtlbx says so" || { fail "no sample"; cat "$W/out"; }
    fi
fi
exit $FAILED
