#!/bin/sh
# The function table in a binary archive (issue 45, FORMAT.md §24): a
# "gpu" column says which GPUs a function has compiled code for and how
# much ("applegpu 1384"), "-" none; it is shown only when a file holds
# GPU slices and the names keep their width, and it sorts (S, biggest
# first) and filters ("gpu applegpu", "gpu -", "amdgpu") like the others.
# The archives are built from the one public sample by
# tests/mkgpuarchive.py (skips without it).
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/explorer_lib.sh"

GPU_SAMPLE=${MTLBX_GPU_ARCHIVES:-$SRC/../shared/gpu-archives}/objectfile-jl-macmetal-dummy
[ -f "$GPU_SAMPLE" ] || { echo "SKIP: no GPU archive sample at $GPU_SAMPLE"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
python3 "$SRC/tests/mkgpuarchive.py" "$GPU_SAMPLE" "$WORK/v" >/dev/null || { echo "FAIL: mkgpuarchive.py"; exit 1; }
V=$WORK/v

# heading: the function table's column headings.
heading() { screen | grep -E '^ *(file +)?stage ' | head -n 1; }

# filter TEXT: f, the words, Enter.
filter() {
    keys f
    wait_for "Filter"
    keys C-u
    type_text "$1"
    keys Enter
}

# ---- 80x24: the names keep their width, no gpu column ------------------------
start 80 24 xterm-256color -- "$V/gpu-air.fat"
wait_for " Functions  "
wait_for "julia_identity_613"
heading | grep -q ' gpu ' && fail "a gpu column at 80 columns: $(heading)"
# S goes through the columns shown only: never by gpu.
_i=0
while [ $_i -lt 12 ]; do
    keys S
    _i=$((_i + 1))
done
sleep 0.3
expect_not "sorted by gpu"
# The filter word still narrows by GPU even where the column is not drawn.
filter "gpu amdgpu"
wait_for "(0 shown"
filter "gpu applegpu"
wait_for "(2 shown"
quit_and_check

# ---- wider: the column, its cells, sort and filter ---------------------------
# The plain library first, so that a sort by gpu has rows to move.
start 132 30 xterm-256color -- "$SAMPLE" "$V/gpu-air.fat"
wait_for " Functions  "
wait_for "julia_identity_613"
heading | grep -q ' gpu ' || fail "no gpu column at 132 columns: $(heading)"
screen | grep 'julia_identity_613' | grep -q 'applegpu 1384' || fail "no applegpu 1384 on the archive's rows"
screen | grep 'vertex_main' | grep -q ' - ' || fail "the plain library's row does not say -"
[ "$(screen | grep -n 'julia_identity_613' | head -n 1 | cut -d: -f1)" -gt \
  "$(screen | grep -n 'vertex_main' | head -n 1 | cut -d: -f1)" ] || fail "the archive's rows come first in file order"
_i=0
while [ $_i -lt 12 ] && ! screen | grep -q "sorted by gpu"; do
    keys S
    sleep 0.2
    _i=$((_i + 1))
done
wait_for "sorted by gpu"
heading | grep -q ' GPU ' || fail "the sort column is not in capitals: $(heading)"
# Biggest GPU code first: the archive's two rows at the top.
screen | grep -E 'julia_identity_613|_main|_fn|_tri|patch_vertex' | head -n 2 | grep -c 'applegpu 1384' | grep -q '^2$' ||
    fail "sorted by gpu, the rows with GPU code are not first"
filter "gpu -"
wait_for "(8 shown"
expect_not "julia_identity_613"
filter "applegpu"
wait_for "(2 shown"
filter "gpu intelgpu"
wait_for "(0 shown"
quit_and_check

# ---- several GPUs joined, in slice order -------------------------------------
start 132 30 xterm-256color -- "$V/four.fat"
wait_for " Functions  "
wait_for "julia_identity_613"
expect "applegpu 1384 intelgpu 1384 amdgpu 1384"
filter "gpu amdgpu"
wait_for "(4 shown"
quit_and_check

finish
