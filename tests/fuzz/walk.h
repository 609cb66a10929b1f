/* Walking everything the parser offers over one opened file, the way
 * `dump` and `check` and the explorer do together: every node with its
 * label, flags and fields, node lookup by offset, every function accessor,
 * the hash checks, every source archive (bzip2 + tar listing) and every
 * diagnostic, the comparison of the file with itself, and for the first
 * functions the bounded demangler, NAME resolution and src's search of
 * the sources. Shared by the libFuzzer harness and the corrupt-input test,
 * so both exercise the same surface. */
#ifndef MTLBX_TEST_WALK_H
#define MTLBX_TEST_WALK_H

#include <stddef.h>

#include "container/types.h"

struct walk_stats {
    size_t nodes;              /* nodes visited */
    size_t fields;             /* detail fields produced */
    size_t errors, warnings;   /* diagnostics after everything was loaded */
    size_t archives_loaded, members;
    size_t max_depth;
    size_t bad;                /* invariant violations (should stay 0) */
    char first_bad[160];       /* what the first violation was */
};

/* Deeper than this, the node model has a cycle (its real depth is < 16). */
#define WALK_MAX_DEPTH 64
/* Stop visiting nodes past this many (libraries of 200k functions). */
#define WALK_MAX_NODES 200000

void walk_file(mtlbx_file *f, struct walk_stats *st);

#endif
