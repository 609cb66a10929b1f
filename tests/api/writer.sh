#!/bin/sh
# The writer through the installed libmtlbx (issues 32 and 33, LIBRARY.md
# "The writer"): tests/api/writer_consumer.c, built with nothing but
# `pkg-config --cflags --libs mtlbx` from the scratch prefix make check
# installed, packs the modules the library reads out of a file into a new
# library for the file's own target, reads it back with mtlbx_open_filename
# (the same functions, names, types, versions, HASH and modules), and the
# program's `mtlbx pack` of the same modules must be the same bytes. Then
# the refusals and the atomic writes, and every cut and one-byte change of
# a module (MTLBX_FAILED and a reason, never a crash). On the sample;
# writer_corpus.sh sources it to pack every Apple-built executable library
# of $MTLBX_CORPUS instead (and skips without it).
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/api/api_lib.sh"
# shellcheck disable=SC2046
if ! $CC -o "$WORK/writer_consumer" "$SRC/tests/api/writer_consumer.c" $(pkg-config --cflags --libs mtlbx) \
    2>"$WORK/cc.err"; then
    fail "the writer consumer does not build with pkg-config's flags alone: $(head -5 "$WORK/cc.err")"
    finish
fi

# pack_one LIB [some]: the C API's library of LIB's modules is the one
# `mtlbx pack` makes of them, and reads back as LIB's functions.
# Returns 3 when LIB has nothing to pack (not a plain executable with a
# target).
pack_one() {
    rm -rf "$WORK/mod" "$WORK/api.metallib" "$WORK/cli.metallib" && mkdir "$WORK/mod"
    with_lib "$WORK/writer_consumer" pack "$1" "$WORK/api.metallib" "$WORK/mod" ${2:-} 2>"$WORK/err"
    st=$?
    [ $st -eq 3 ] && return 3
    if [ $st -ne 0 ]; then
        fail "$(basename "$1"): the writer's library is not the original's functions (exit $st):"
        head -10 "$WORK/err"
        return 1
    fi
    target=$("$BIN" info "$1" | awk '$1 == "target" { print $2 ":" $3; exit }')
    # shellcheck disable=SC2046
    if ! "$BIN" pack $(ls "$WORK/mod"/*.air) --target "$target" -o "$WORK/cli.metallib" 2>"$WORK/err"; then
        fail "$(basename "$1"): mtlbx pack --target $target refuses what the C API took: $(cat "$WORK/err")"
        return 1
    fi
    cmp -s "$WORK/api.metallib" "$WORK/cli.metallib" ||
        { fail "$(basename "$1"): mtlbx_writer_* and mtlbx pack --target $target write different bytes"; return 1; }
    return 0
}

case ${WRITER_FILES:-} in
corpus)
    if [ ! -d "${MTLBX_CORPUS:-}" ] || ! ls "$MTLBX_CORPUS"/*.metallib >/dev/null 2>&1; then
        echo "SKIP: no corpus at ${MTLBX_CORPUS:-\$MTLBX_CORPUS} (see README.md: What ../shared is)"
        exit 77
    fi
    n=0
    for f in "$MTLBX_CORPUS"/*.metallib; do
        pack_one "$f" && n=$((n + 1))
    done
    [ $n -ge 20 ] && ok "$n corpus libraries packed for their own target through mtlbx_writer_*: read back with the original's functions, and the bytes mtlbx pack writes" ||
        fail "only $n corpus libraries were packed through mtlbx_writer_*"
    ;;
*)
    S=$SRC/data/sample.metallib
    pack_one "$S" some && ok "the sample's modules packed through mtlbx_writer_*: read back with the same functions, the bytes mtlbx pack writes"
    mkdir "$WORK/out"
    if with_lib "$WORK/writer_consumer" hostile "$S" "$WORK/out" 2>"$WORK/err"; then
        ok "refusals (MTLBX_FAILED and a reason), atomic writes, every cut and one-byte change of a module"
    else
        fail "the writer's refusals and writes:"
        head -20 "$WORK/err"
    fi
    ;;
esac
finish
