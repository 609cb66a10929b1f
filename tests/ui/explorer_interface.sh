#!/bin/sh
# Function interfaces in the explorer (decoded in the background): on the
# sample, a function's `interface` row expands into its arguments, the
# detail panel shows the MSL declaration, the module row expands into its
# bitstream blocks, and `/` finds a function by an argument's type; the
# function page shows the types as MSL and the function constants; on a
# corpus library (candle-steel-gemm), a kernel's interface shows a
# [[buffer(N)]] argument row.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"

# to_interface: from an expanded function's first child, } (next sibling)
# until the status line names the interface row (its last child).
to_interface() {
    _n=0
    while [ $_n -lt 30 ]; do
        if screen | tail -2 | grep -q ': interface  '; then
            return 0
        fi
        keys '}'
        sleep 0.1
        _n=$((_n + 1))
    done
    fail "never reached the interface row"
}

# The sample opens with vertex_main selected; ] goes to compute_main.
start 140 45 xterm-256color -- "$SAMPLE"
to_bytes
wait_for "vertex_main"
keys ']' ']'
wait_for "compute_main"
# Module facts appear in the function's detail once decoded.
wait_for "AIR version"
# Expand the function, go to its first child, then to its last (the interface).
keys l
wait_for "NAME  \"compute_main\""
keys l
to_interface
wait_for "interface  kernel, 4 arguments"
keys l
wait_for "constant ComputeParams& params [[buffer(1)]]"
expect "uint gid [[thread_position_in_grid]]"
# The interface's detail is the declaration.
keys h
wait_for "kernel void compute_main("
# The module row (just above) expands into blocks.
keys k l
wait_for "MODULE_BLOCK"
quit_and_check 0

# Search by an argument's type: ComputeParams is only in compute_main.
start 140 45 xterm-256color -- "$SAMPLE"
to_bytes
wait_for "vertex_main"
# Until the background sweep has read every interface, the title counts
# it (", interfaces 3/8") and a search by argument type may miss: wait for
# the hashes, then for the sweep to be through (slow under sanitizers).
wait_for "8 functions, hashes checked" 60
wait_gone ", interfaces " 60
keys /
wait_for "Search names/tags"
type_text ComputeParams
keys Enter
# The status line names the selection: compute_main, found by its
# argument (the search runs in the background: allow it time).
_n=0
until screen | grep -Eq 'sample\.metallib: kernel +compute_main'; do
    _n=$((_n + 1))
    [ $_n -lt 300 ] || { fail "search by argument type did not select compute_main"; break; }
    sleep 0.1
done
quit_and_check 0

# The function page (issue 36): each argument's type as MSL spells it
# (address space, const, * or &), the function constants the function
# uses listed, and declared before the declaration.
start 140 45 xterm-256color -- "$SAMPLE"
wait_for "Functions  8"
keys /
wait_for "Search functions"
type_text compute_main
keys Enter
wait_for "match 1/"
keys Enter
wait_for "Interface  (s source"
wait_for "device float* data [[buffer(0)]]," 30
expect "constant ComputeParams&"
expect "device const float*"
expect "Function constants (4)"
expect "use_fast_path  (optional)"
expect "constant float scale [[function_constant(0)]];"
keys q
wait_for "Functions  8"
quit_and_check 0

# A real library: the first kernel's interface has buffer rows.
if [ -f "$CORPUS/candle-steel-gemm.metallib" ]; then
    start 160 50 xterm-256color -- "$CORPUS/candle-steel-gemm.metallib"
    to_bytes
    wait_for "kernel"
    keys l
    wait_for "NAME  \"steel_gemm"
    keys l
    to_interface
    wait_for "interface  kernel"
    keys l
    wait_for "[[buffer(0)]]"
    quit_and_check 0
else
    echo "SKIP (corpus part): no corpus at $CORPUS"
fi
finish
