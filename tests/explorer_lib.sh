# Shared by the explorer_*.sh tests: run the real mtlbx in a private tmux
# server at a fixed size, type keys, and poll the screen with a bounded
# wait. Sourced, not run. POSIX sh.
#
# Paths: the binary and the source tree come from the test environment
# (tests/local.mk exports MTLBX_BIN and MTLBX_SRCDIR); without it, from
# the current (build) directory and $srcdir, as automake runs tests.

MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
SAMPLE=$SRC/data/sample.metallib
FIXTURES=$SRC/tests/fixtures
CORPUS=${MTLBX_CORPUS:-$SRC/../shared/corpus}

if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP: tmux is not installed"
    exit 77
fi
if [ ! -x "$MTLBX_BIN" ]; then
    echo "FAIL: no binary at $MTLBX_BIN"
    exit 1
fi
case $MTLBX_BIN in /*) ;; *) MTLBX_BIN=$(pwd)/$MTLBX_BIN ;; esac
case $SRC in /*) ;; *) SRC=$(pwd)/$SRC; SAMPLE=$SRC/data/sample.metallib; FIXTURES=$SRC/tests/fixtures ;; esac
case $CORPUS in /*) ;; *) CORPUS=$(pwd)/$CORPUS ;; esac

# Everything the tests write goes here (srcdir is read-only in distcheck).
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-explorer.XXXXXX") || exit 1
# One private tmux server per start (a fresh socket name each time, so a
# new session never races the previous server's shutdown).
RUN=0
SOCK=mtlbx-test-$$-$RUN
FAILED=0
T() { tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup() {
    T kill-server >/dev/null 2>&1
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# start W H TERM [ENV=VALUE...] -- ARGS...: runs mtlbx ARGS in a fresh
# session. When it exits, the pane prints EXITED:<status> and whether the
# terminal modes came back as they were (STTY:same / STTY:changed).
start() {
    _w=$1 _h=$2 _term=$3
    shift 3
    _env=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
        _env="$_env $1"
        shift
    done
    [ "$1" = "--" ] && shift
    _args=""
    for _a in "$@"; do
        _args="$_args '$_a'"
    done
    T kill-server >/dev/null 2>&1
    RUN=$((RUN + 1))
    SOCK=mtlbx-test-$$-$RUN
    cat > "$WORK/run.sh" <<SCRIPT
cd '$WORK'
stty -g > '$WORK/stty.before'
env TERM=$_term LC_ALL=\${TEST_LC_ALL:-C.UTF-8} $_env '$MTLBX_BIN' $_args
rc=\$?
stty -g > '$WORK/stty.after'
printf '\\nEXITED:%s\\n' "\$rc"
if cmp -s '$WORK/stty.before' '$WORK/stty.after'; then echo STTY:same; else echo STTY:changed; fi
sleep 300
SCRIPT
    T new-session -d -x "$_w" -y "$_h" "TEST_LC_ALL=${TEST_LC_ALL:-C.UTF-8} sh '$WORK/run.sh'"
}

screen() { T capture-pane -p -t 0; }

# Keys: tmux key names (Enter, Tab, BSpace, Up, NPage, C-l) or text.
keys() { T send-keys -t 0 "$@"; }
type_text() { T send-keys -t 0 -l "$1"; }

fail() {
    echo "FAIL: $*"
    echo "----- screen -----"
    screen
    echo "------------------"
    FAILED=1
}

# wait_for TEXT [SECONDS]: until TEXT (fixed string) is on screen.
wait_for() {
    _limit=$(( ${2:-10} * 10 ))
    _i=0
    while [ $_i -lt $_limit ]; do
        if screen | grep -F -q -- "$1"; then
            return 0
        fi
        if ! T has-session >/dev/null 2>&1; then
            fail "tmux session gone while waiting for: $1"
            return 1
        fi
        sleep 0.1
        _i=$((_i + 1))
    done
    fail "timed out waiting for: $1"
    return 1
}

# wait_gone TEXT [SECONDS]: until TEXT is no longer on screen.
wait_gone() {
    _limit=$(( ${2:-10} * 10 ))
    _i=0
    while [ $_i -lt $_limit ]; do
        if ! screen | grep -F -q -- "$1"; then
            return 0
        fi
        sleep 0.1
        _i=$((_i + 1))
    done
    fail "still on screen: $1"
    return 1
}

# expect TEXT: on screen right now (after a wait_for of something else).
expect() {
    screen | grep -F -q -- "$1" || fail "not on screen: $1"
}
expect_not() {
    if screen | grep -F -q -- "$1"; then fail "unexpectedly on screen: $1"; fi
}

# quit_and_check: Q (quit from any view; q closes the view back to the
# one it was opened from, and quits only at the first), then the program
# must exit 0 and restore the tty.
quit_and_check() {
    keys Q
    wait_for "EXITED:${1:-0}" 10 || return 1
    wait_for "STTY:same" 5
}

# to_bytes: the byte explorer (tree, detail and hex panels) on the first
# function, from the function table that is a library's home (b); a file
# without functions opens on its bytes already.
to_bytes() {
    _i=0
    while [ $_i -lt 300 ]; do
        _s=$(screen)
        case $_s in
            *" 1 Tree  "* | *EXITED:*) return 0 ;;
            *" Functions  "*)
                keys b
                wait_for " 1 Tree  "
                return $? ;;
        esac
        if ! T has-session >/dev/null 2>&1; then
            fail "tmux session gone while waiting for the first screen"
            return 1
        fi
        sleep 0.1
        _i=$((_i + 1))
    done
    fail "neither the function table nor the tree showed"
    return 1
}

finish() {
    if [ "$FAILED" -ne 0 ]; then
        exit 1
    fi
    echo "PASS"
    exit 0
}
