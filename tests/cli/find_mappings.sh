#!/bin/sh
# find over many small libraries (issue 22): the tables of a library of
# one block (at most 4,096 functions) live on the heap, not in mappings of
# their own. find parses on several threads, and every munmap or
# MADV_DONTNEED of a mapping interrupts the other CPUs to flush their
# TLBs: two mappings per library made `find` on 20,000 files 1.7 times
# slower. strace counts the calls over 64 copies of the sample.
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need strace
# AddressSanitizer's allocator maps, unmaps and madvises memory of its own
# on every malloc and free of a size class it has no room for: the count
# would measure it, not the tables (465 calls under ASan).
if asan_build; then
    echo "SKIP: sanitizer build (its allocator makes munmap/madvise calls of its own)"
    exit 77
fi

ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
mkdir -p "$WORK/tree"
i=0
while [ $i -lt 64 ]; do
    cp "$SAMPLE" "$WORK/tree/lib$i.metallib" || exit 1
    i=$((i + 1))
done
log=$WORK/strace.log
strace -f -qq -e trace=munmap,madvise -o "$log" "$BIN" find "$WORK/tree" >"$WORK/out" 2>&1
lines=$(wc -l <"$WORK/out")
if [ "$lines" = 64 ]; then ok "find lists the 64 libraries"; else fail "find printed $lines lines, not 64"; fi
n=$(grep -cE 'munmap|madvise' "$log")
if [ "$n" -lt 32 ]; then
    ok "find over 64 small libraries: $n munmap/madvise calls"
else
    fail "find over 64 small libraries made $n munmap/madvise calls (2 or more per library)"
fi
finish
