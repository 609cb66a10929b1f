#!/bin/sh
# Memory stays flat on 200,000 functions (issue 22): ls, info, sig, sig --json,
# dump --json, dump --json --interfaces, check and diff (of the library
# with itself) on a library of 200,000 real bitcode modules
# (bench/mklarge.py S200k, ~530 MB), each
#   - under `ulimit -v` of the mapped files' size plus VM_ALLOWANCE MB
#     (each file is mapped whole; the rest is the heap, libraries and
#     thread stacks), giving exactly the output and status of a run
#     without the limit;
#   - with a peak resident set (getrusage of the child) of at most its
#     own limit in MB (RSS_LIMITS, "command:MB" words): the module and
#     function-list pages a command has read must be let go behind it
#     (dump --json --interfaces kept every module page it decoded: ~600
#     MB here), and so must the decoded function table and metadata
#     (~320 B a function; before they were dropped behind the streaming
#     commands: ls 34 MB, dump --json 91 MB here). Measured after: ls 7,
#     sig 28, sig --json 21, dump --json 39, --interfaces 39, check 123.
#     Then the hash pass let go of the entries it compared the HASH of
#     (dump 36 -> 20), check's layout walk and interface pass stopped
#     filling the function and metadata tables (check 123 -> 20), and
#     diff lets go of both libraries' entries behind its pass (diff 283 ->
#     35; its name index keeps 8 bytes a slot, not 8 and a name read).
#     sig without NAMEs had gone back to filling the function table in
#     the pass that marks which NAMEs are stored names (sig 42, 166 MB at
#     a million functions); it skips that pass now (sig 16, sig --json 13).
#     Hashing many modules at once loads Intel's multi-buffer library,
#     whose pages add 3 MB of file-backed RSS to dump --json --interfaces
#     (21 -> 24.5 MB idle; a run beside other heavy jobs read 32): its
#     limit is 40 for that. info kept every function's entry to count them
#     by type, and the triple pass held 4,096 modules' pages between two
#     releases (with the pages the kernel maps beside each, 64 MB on
#     16 KB modules): 47 MB here, 75 MB on bench/run's L20k; it peeks at
#     the entries and releases every 4 MB now (19 MB here, 18 on L20k).
# A sanitizer build reserves terabytes of address space, so `ulimit -v`
# cannot apply and its shadow memory inflates the resident set: skipped.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need python3 llvm-as tmux
if asan_build; then
    echo "SKIP: sanitizer build (its address space cannot be limited with ulimit -v)"
    exit 77
fi
VM_ALLOWANCE=${VM_ALLOWANCE:-400}
RSS_LIMITS=${RSS_LIMITS:-"ls:24 info:28 sig:28 sig--json:28 dump--json:30 dump--json--interfaces:40 check:48 diff:80 find--json:48"}
# rss_limit CMD: the limit for CMD's words joined.
rss_limit() {
    key=$(printf '%s' "$1" | tr -d ' ')
    for pair in $RSS_LIMITS; do
        [ "${pair%%:*}" = "$key" ] && { echo "${pair#*:}"; return; }
    done
    echo 160
}
# MTLBX_S200K names one already written (bench/mklarge.py S200k), to save
# the minute it takes.
LIB=${MTLBX_S200K:-$WORK/S200k.metallib}
if [ -z "${MTLBX_S200K:-}" ]; then
    python3 "$SRC/bench/mklarge.py" --out "$WORK" S200k >/dev/null || { fail "mklarge.py S200k"; finish; }
fi
size_mb=$(( $(wc -c <"$LIB") / 1048576 ))
# peak_rss_kb CMD...: runs CMD (stdout to $WORK/out, stderr to $WORK/err),
# prints its exit status and peak RSS in KB.
peak_rss_kb() {
    python3 -c 'import resource, subprocess, sys
with open(sys.argv[1], "wb") as out, open(sys.argv[2], "wb") as err:
    rc = subprocess.call(sys.argv[3:], stdout=out, stderr=err)
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$WORK/out" "$WORK/err" "$@"
}
# find --json gathered each library's document in memory to print it in
# its turn (365 MB here, the document twice); a big one now waits for its
# turn and streams, and must be dump --json's document on one line.
for cmd in "ls" "info" "sig" "sig --json" "dump --json" "dump --json --interfaces" "check" "diff" "find --json"; do
    # shellcheck disable=SC2086 # the command's words
    set -- $cmd "$LIB"
    limit_mb=$((size_mb + VM_ALLOWANCE))
    if [ "$cmd" = diff ]; then
        set -- "$@" "$LIB"
        limit_mb=$((2 * size_mb + VM_ALLOWANCE))
    fi
    read -r status kb <<EOR
$(peak_rss_kb "$BIN" "$@")
EOR
    mv "$WORK/out" "$WORK/full"
    lines=$(wc -l <"$WORK/full")
    case $cmd in
    check) ;;
    info) grep -q '^Functions  *200000 ' "$WORK/full" || fail "info: no count of 200000 functions: $(grep Functions "$WORK/full")" ;;
    diff) grep -q ': identical (1 library, 200000 functions' "$WORK/full" || fail "diff: not identical: $(head -1 "$WORK/full")" ;;
    "find --json")
        # One line holding every function's document (its hash_ok).
        [ "$lines" -eq 1 ] && [ "$(grep -o '"hash_ok":' "$WORK/full" | wc -l)" -eq 200000 ] ||
            fail "find --json: not one whole document on one line ($lines lines)" ;;
    *) [ "$lines" -ge 200000 ] || fail "$cmd: only $lines lines without a limit" ;;
    esac
    limit=$(rss_limit "$cmd")
    if [ "$kb" -le $((limit * 1024)) ]; then
        ok "$cmd: peak RSS $((kb / 1024)) MB (limit $limit)"
    else
        fail "$cmd: peak RSS $((kb / 1024)) MB, more than $limit MB"
    fi
    (ulimit -v $((limit_mb * 1024)) && exec "$BIN" "$@") >"$WORK/out" 2>"$WORK/err"
    limited=$?
    if [ "$limited" -eq "$status" ] && cmp -s "$WORK/out" "$WORK/full"; then
        ok "$cmd under ulimit -v $limit_mb MB: complete ($lines lines), exit $status"
    else
        fail "$cmd under ulimit -v $limit_mb MB: exit $limited (not $status), $(wc -l <"$WORK/out") of $lines lines"
        head -3 "$WORK/err"
    fi
done
# Below what they need, dump --json --interfaces, diff and textconv fail
# whole: exit 2 and "out of memory", never a shorter or different answer.
# They did not: libbz2's BZ_MEM_ERROR and libarchive failing to load
# (dlopen cannot map libicudata under the limit) were reported as
# problems of the file (the document's source archive had no members,
# exit 0); diff never asked whether reading ran out of memory ("80000
# functions changed" between S200k and itself, exit 1), nor did textconv
# (535 bytes and exit 0, git diff would have shown that). At least one
# limit of each sweep must fail, or it proves nothing. So must a lookup
# by name: src answered "no function named" (exit 1) when the function
# list could not be read, and "the library has no embedded sources" when
# the archive could not be listed. find printed its line for a library
# read in part, counting the memory's diagnostic as the library's one
# problem, and exited 0; a file it could not map was exit 1, as if it were
# unreadable.
first=$("$BIN" ls "$LIB" | awk 'NR == 1 { print $NF }')
for cmd in "dump --json --interfaces" "diff" "textconv" "src" "find"; do
    # shellcheck disable=SC2086 # the command's words
    set -- $cmd "$LIB"
    base_mb=$size_mb
    if [ "$cmd" = diff ]; then
        set -- "$@" "$LIB"
        base_mb=$((2 * size_mb))
    elif [ "$cmd" = src ]; then
        set -- "$@" "$first"
    fi
    "$BIN" "$@" >"$WORK/full" 2>"$WORK/err"
    full_status=$?
    oom=0
    for extra in 20 60 100 120 160; do
        limit_mb=$((base_mb + extra))
        (ulimit -v $((limit_mb * 1024)) && exec "$BIN" "$@") >"$WORK/out" 2>"$WORK/err"
        status=$?
        if [ "$status" -eq "$full_status" ] && cmp -s "$WORK/out" "$WORK/full"; then
            ok "$cmd under $limit_mb MB: complete, exit $status"
        elif [ "$status" -eq 2 ] && grep -Eq "metallib.*(out of memory|Cannot allocate memory)" "$WORK/err"; then
            oom=$((oom + 1))
            ok "$cmd under $limit_mb MB: exit 2: $(head -1 "$WORK/err")"
        else
            fail "$cmd under $limit_mb MB: exit $status (not $full_status), $(wc -c <"$WORK/out") of $(wc -c <"$WORK/full") bytes"
            head -3 "$WORK/err"
        fi
    done
    [ $oom -gt 0 ] || fail "$cmd: no limit ran out of memory, the sweep proves nothing"
done
# sig with a NAME: one declaration, and what the pass reads behind the
# waiting batch is still let go (it kept every entry and page: 70 MB).
read -r status kb <<EOR
$(peak_rss_kb "$BIN" sig "$LIB" "$first")
EOR
limit=$(rss_limit sig)
if [ "$status" -eq 0 ] && [ "$(grep -c "$first" "$WORK/out")" -eq 1 ] && [ "$kb" -le $((limit * 1024)) ]; then
    ok "sig $first: one declaration, peak RSS $((kb / 1024)) MB (limit $limit)"
else
    fail "sig $first: exit $status, $(grep -c "$first" "$WORK/out") lines naming it, peak RSS $((kb / 1024)) MB (limit $limit)"
fi
# A NAME that matches nothing: every name is read in four passes (exact,
# prefix, demangled, suggestions); they filled the function table
# (65 MB here, about 300 MB at a million functions).
read -r status kb <<EOR
$(peak_rss_kb "$BIN" sig "$LIB" no_such_function_anywhere)
EOR
if [ "$status" -eq 1 ] && [ "$kb" -le $((limit * 1024)) ]; then
    ok "sig no_such_function_anywhere: exit 1, peak RSS $((kb / 1024)) MB (limit $limit)"
else
    fail "sig no_such_function_anywhere: exit $status (not 1), peak RSS $((kb / 1024)) MB (limit $limit)"
fi
# The explorer, until its background sweeps (hash check, interfaces for
# search) are done: they read every module through the mapping and kept
# it (about the file's size: 995 MB on L200k). Done is when its CPU time
# stops moving for two seconds.
EXPLORER_LIMIT=${EXPLORER_LIMIT:-160}
sock=mtlbx-memflat-$$
tmux -L "$sock" -f /dev/null new-session -d -s m -x 80 -y 24 "env TERM=xterm-256color '$BIN' '$LIB'"
pid=
for _ in $(seq 50); do
    pid=$(tmux -L "$sock" list-panes -t m -F '#{pane_pid}' 2>/dev/null)
    [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] && break
    sleep 0.1
done
# The pane runs env, which execs mtlbx: the same pid.
last=-1 still=0 waited=0 hwm=0
while [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] && [ $waited -lt 600 ]; do
    sleep 0.5
    waited=$((waited + 1))
    cpu=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null) || break
    hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
    if [ "$cpu" = "$last" ]; then still=$((still + 1)); else still=0; fi
    last=$cpu
    [ $waited -ge 6 ] && [ $still -ge 4 ] && break
done
tmux -L "$sock" send-keys -t m q 2>/dev/null
sleep 0.5
tmux -L "$sock" kill-server 2>/dev/null
if [ -z "$pid" ] || [ "${hwm:-0}" -eq 0 ]; then
    fail "explorer: could not watch its process"
elif [ $still -lt 4 ]; then
    fail "explorer: still busy after $((waited / 2)) s (peak RSS $((hwm / 1024)) MB)"
elif [ "$hwm" -le $((EXPLORER_LIMIT * 1024)) ]; then
    ok "explorer after its sweeps: peak RSS $((hwm / 1024)) MB (limit $EXPLORER_LIMIT)"
else
    fail "explorer after its sweeps: peak RSS $((hwm / 1024)) MB, more than $EXPLORER_LIMIT MB"
fi
finish
