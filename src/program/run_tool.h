/* Running llvm-dis on a module (and diff on two disassemblies) without a shell, with a timeout and an
 * output cap, so a hung or chatty tool never freezes the caller. */
#ifndef MTLBX_RUN_TOOL_H
#define MTLBX_RUN_TOOL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LLVM_DIS_TIMEOUT_MS 30000
#define LLVM_DIS_MAX_OUTPUT ((size_t)64 << 20)
/* After the tool exits, how long its pipes may stay open (a process it
 * started and left running) before that process is killed. */
#define TOOL_DRAIN_MS 500

/* The llvm-dis to run: `explicit_path` (--llvm-dis), else $MTLBX_LLVM_DIS,
 * else the first llvm-dis or llvm-dis-N found on PATH. Returns a malloc'd
 * path, or NULL if none is executable. */
char *find_llvm_dis(const char *explicit_path);

struct tool_result {
    int exit_status;           /* -1 if it did not exit normally */
    bool timed_out;
    bool truncated;            /* output hit max_output */
    bool cancelled;            /* *cancel became true: killed, output dropped */
    bool left_running;         /* it exited, but something it started held its output
                                  open past TOOL_DRAIN_MS and was killed; the output
                                  is what it wrote, message says so (even on success) */
    char *output;              /* malloc'd stdout, NUL-terminated */
    size_t output_len;
    char message[512];         /* first line of stderr or our own reason */
    char read_by[256];         /* set when the chosen llvm-dis rejected the module and
                                  this other one read it (message says both) */
};

/* Feeds `module` to `llvm_dis -` on stdin and collects stdout.
 * Returns 0 when llvm-dis exited 0, else -1 with res->message set.
 * When it rejects the module the way an older LLVM rejects newer bitcode
 * ("Invalid record" ...), every other llvm-dis installed is tried, the
 * newest first (find_other_llvm_dis); the first that reads it gives the
 * result, with res->read_by naming it. */
int run_llvm_dis(const char *llvm_dis, const uint8_t *module, size_t len,
                 unsigned timeout_ms, size_t max_output, struct tool_result *res);
/* The llvm-dis installed besides `chosen` (a different file): llvm-dis-N
 * on PATH and Debian's /usr/lib/llvm-N/bin/llvm-dis, highest N first.
 * Malloc'd paths into out[0..max); returns how many. */
size_t find_other_llvm_dis(const char *chosen, char **out, size_t max);
/* Any tool, the same way: argv[0] is its path (see find_tool), `input` goes
 * to its stdin, stdout is collected up to max_output, and it is killed at
 * the timeout; `label` names it in messages. Returns 0 when it exited 0,
 * else -1 with res->message set and res->exit_status its status (-1 when
 * it was killed or timed out): `diff` exits 1 for "files differ". */
int run_tool(const char *label, char *const argv[], const uint8_t *input, size_t len,
             unsigned timeout_ms, size_t max_output, struct tool_result *res);
/* A path (with '/') if executable, else the first match on PATH; malloc'd,
 * or NULL. */
char *find_tool(const char *name);
/* The same, also stopping (child's process group killed and reaped,
 * output discarded, -1 with res->cancelled) soon after *cancel turns true:
 * the explorer runs it on a worker thread and Esc sets the flag. */
int run_llvm_dis_cancellable(const char *llvm_dis, const uint8_t *module, size_t len,
                             unsigned timeout_ms, size_t max_output, const atomic_bool *cancel,
                             struct tool_result *res);
void tool_result_free(struct tool_result *res);
/* `diff -u` (diff_path, see find_tool) of two texts: A through an unlinked
 * temporary file (/dev/fd/N for diff, so nothing is left behind whatever
 * happens), B on stdin. True when diff answered (exit 0 same, 1 different:
 * out->output holds the unified diff, raw bytes for the caller to escape). */
bool run_unified_diff(const char *diff_path, const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len,
                      const char *label_a, const char *label_b, struct tool_result *out);

#endif
