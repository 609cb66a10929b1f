# Shared by the shell tests of commands (sourced, not run): ok, fail and
# expect. The caller sets W (a scratch folder) first; FAILED is its exit
# status.
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }
# expect STATUS DESCRIPTION -- runs "$@" after --, stdout to $W/out, stderr to $W/err
expect() {
    _want=$1 _what=$2
    shift 3
    "$@" >"$W/out" 2>"$W/err"
    _got=$?
    if [ "$_got" -ne "$_want" ]; then
        fail "$_what: exit $_got, wanted $_want"; sed 's/^/  stderr: /' "$W/err" | head -5
    else
        ok "$_what"
    fi
}
