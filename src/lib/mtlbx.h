/* mtlbx.h: libmtlbx, a parser for Apple .metallib files (compiled Metal
 * shader libraries). The installed, stable interface: names and meanings
 * here may grow, never change (LIBRARY.md in the project; `man 3 mtlbx`).
 *
 *     #include <mtlbx.h>
 *     cc app.c $(pkg-config --cflags --libs mtlbx)
 *
 * One opaque handle per open file (plain, or fat with one library per
 * slice); everything is asked for by index and key, and every string and
 * buffer the library hands out belongs to the handle: NUL-terminated,
 * valid until mtlbx_free(), never invalidated by a later call, never
 * freed by the caller. No structure of the library crosses this
 * interface, so fields can be added without breaking a binding.
 *
 * Values are the ones `mtlbx dump --json` prints (the project's
 * CONTRACT.md): MTLBX_CONTAINER_VERSION is the document's
 * "container_version", and so on. Strings the file stores (names, source
 * member names) are given as stored, raw bytes (UTF-8 in every real
 * file); the JSON document, which must be UTF-8, shows a byte that is not
 * as the text \xNN. Nothing is escaped for a terminal: that is the front
 * end's job.
 *
 * The library never prints, never exits, reads no environment variable,
 * installs no signal handler and starts no thread that outlives a call
 * (mtlbx_verify hashes on several threads and joins them). It maps the
 * file read-only and never writes. libgcrypt (its SHA-256) is initialised
 * by the library only when the host has not done it first
 * (GCRYCTL_INITIALIZATION_FINISHED_P): a host that uses libgcrypt itself
 * initialises it before its first mtlbx call.
 *
 * Threads: one thread at a time per handle; separate handles are
 * independent and may be used from separate threads at once. No
 * callbacks. Hostile input is bounded in time and memory as the mtlbx
 * program is: a damaged file gives findings (mtlbx_diag), never a crash.
 *
 * This header includes only standard headers and compiles as C99 and as
 * C++. */
#ifndef MTLBX_H
#define MTLBX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version this header belongs to: a*1000000 + b*1000 + c for a.b.c.
 * mtlbx_version_number() is the library's that is running; a program built
 * against one release runs with any later one of the same soname. */
#define MTLBX_VERSION_NUMBER 1000
#define MTLBX_VERSION_STRING "mtlbx 0.1.0"
int mtlbx_version_number(void);
const char *mtlbx_version_string(void);

/* ----------------------------------------------------------- statuses -- */

/* One scale for every call that returns an int status. */
#define MTLBX_OK 0         /* done */
#define MTLBX_WARN (-20)   /* done, and there are findings (mtlbx_diag_*) */
#define MTLBX_FAILED (-25) /* this call failed; the handle is still usable */
#define MTLBX_FATAL (-30)  /* the handle is unusable: not a metallib, I/O, no memory */

/* ------------------------------------------------------------- handle -- */

typedef struct mtlbx mtlbx;

/* A new handle, or NULL when memory ran out. */
mtlbx *mtlbx_new(void);
/* Opens one file into a handle (one file per handle: a second open is
 * MTLBX_FAILED). MTLBX_OK: its header and function list parsed with no
 * finding; MTLBX_WARN: parsed, with findings (a damaged file is still read
 * as far as it can be; the rest of the file is read when first needed,
 * and mtlbx_diag_count reads it all); MTLBX_FATAL: not a metallib, not a
 * regular file, cannot be read, or no memory (mtlbx_error_string says
 * which). The file is mapped, never copied: it must not shrink while the
 * handle is open (as with any mapping, a read past its new end would
 * fault); a file that may change is better read into memory and given to
 * mtlbx_open_memory. */
int mtlbx_open_filename(mtlbx *h, const char *path);
/* The same over bytes in memory, which must stay valid and unchanged until
 * mtlbx_free(h). The document's "path" is then "<memory>". */
int mtlbx_open_memory(mtlbx *h, const void *buf, size_t len);
/* Frees the handle and everything it handed out. NULL is fine. */
void mtlbx_free(mtlbx *h);

/* The last failure on this handle: the errno of a failure the system
 * reported (ENOENT, EACCES, EISDIR, ENOMEM ...), 0 for one of the file's
 * format; one line of text, naming the byte offset when there is one
 * (never NULL: "" before any failure); that offset, or -1. */
int mtlbx_errno(mtlbx *h);
const char *mtlbx_error_string(mtlbx *h);
int64_t mtlbx_error_offset(mtlbx *h);

/* ---------------------------------------------------------- libraries -- */

/* Libraries of the open file: 1, or the readable slices of a fat file
 * (-1 with no file open). `lib` below is 0 .. count - 1. */
int mtlbx_library_count(mtlbx *h);

/* Keys. Each answers with its value in `dump --json`, as text for the
 * string getters. A key a getter does not take, an index out of range, or
 * a value the file does not have gives NULL (strings) or -1 (ints) and
 * sets the handle's error. */
#define MTLBX_CONTAINER_VERSION 1 /* library: "1.2.7" */
#define MTLBX_PLATFORM 2          /* library: "macOS" | "iOS" */
#define MTLBX_FILE_TYPE 3         /* library: "executable" | "coreimage" | "dynamic" | ... */
#define MTLBX_TARGET_OS 4         /* library: "macOS" | "iOS" | ... | "unknown" */
#define MTLBX_OS_VERSION 5        /* library: "14.6.0" */
#define MTLBX_UUID 6              /* library: 32 lower-case hex digits, or NULL */
#define MTLBX_REQUIRES 7          /* library and function: the first OS that loads it,
                                     "macOS 26.0"; NULL when its version is not known
                                     (the JSON "requires" says why) */
#define MTLBX_OFFSET 8            /* library (int): file offset of its MTLB header */
#define MTLBX_SIZE 9              /* library (int): its bytes in the file (the slice's
                                     size in a fat file, else the file's size) */
#define MTLBX_NAME 10             /* function: its NAME, as stored */
#define MTLBX_TYPE 11             /* function: "kernel" | "vertex" | ...; NULL without TYPE */
#define MTLBX_AIR_VERSION 12      /* function: "2.6"; NULL without VERS */
#define MTLBX_MSL_VERSION 13      /* function: "3.1" (the JSON's "language_version") */
#define MTLBX_HASH 14             /* function: 64 lower-case hex digits, NULL without HASH */
#define MTLBX_DECLARATION 15      /* function: its interface as an MSL declaration, the
                                     text `mtlbx sig` prints (reads the module); NULL
                                     when the module does not decode (the error says where) */
#define MTLBX_MODULE_OFFSET 16    /* function (int): file offset of the bytes HASH covers */
#define MTLBX_MODULE_SIZE 17      /* function (int): their length */
#define MTLBX_HASH_OK 18          /* function (int): 1 the module's SHA-256 matches HASH,
                                     0 it does not (reads the module) */

const char *mtlbx_library_string(mtlbx *h, int lib, int key);
int64_t mtlbx_library_int(mtlbx *h, int lib, int key);

/* ---------------------------------------------------------- functions -- */

/* Functions of library `lib`, in function-list order (-1 on a bad lib). */
int64_t mtlbx_function_count(mtlbx *h, int lib);
/* The first function whose NAME is exactly `name`; -1 when none (no error). */
int64_t mtlbx_function_find(mtlbx *h, int lib, const char *name);
const char *mtlbx_function_string(mtlbx *h, int lib, int64_t fn, int key);
int64_t mtlbx_function_int(mtlbx *h, int lib, int64_t fn, int key);
/* The module's bytes (exactly what HASH covers) and their length in *len
 * (may be NULL); NULL (and *len 0) when it has none inside the file. The
 * bytes point into the mapping: nothing is copied. */
const void *mtlbx_function_module(mtlbx *h, int lib, int64_t fn, size_t *len);

/* Many functions at once, for bindings and long lists. A string key's
 * values for every function of `lib` as one block of text: each value
 * followed by a NUL, in function order, an absent value as an empty string
 * (no key has empty values but MTLBX_NAME, which is never absent); its
 * length, final NUL included, in *len. Made once per library and key
 * (MTLBX_DECLARATION reads every module). NULL with the error set (bad lib
 * or key, no memory). */
const char *mtlbx_function_column(mtlbx *h, int lib, int key, size_t *len);
/* An int key's values for functions first .. first + count - 1 of `lib`
 * into out[0 .. count - 1], -1 where a function has none (no error).
 * MTLBX_HASH_OK for many functions hashes them on every CPU. Returns how
 * many were written (count, fewer at the end of the list), or -1 with the
 * error set. */
int64_t mtlbx_function_ints(mtlbx *h, int lib, int64_t first, int64_t count, int key, int64_t *out);
/* A string key's values (MTLBX_NAME, TYPE, AIR_VERSION, MSL_VERSION or
 * HASH) for every function of `lib` as codes: out[i] (room for every
 * function) is the index of function i's value in values[] (room for
 * max_values, at most 256), which gets the distinct values in order of
 * first use, NULL for "none" (the strings are the column's own). Returns
 * how many distinct values there are; more than max_values means they do
 * not fit (out and values then hold nothing to use: read the column).
 * -1 with the error set: a bad lib or key, no memory. */
int64_t mtlbx_function_codes(mtlbx *h, int lib, int key, uint8_t *out, const char **values, int max_values);

/* ------------------------------------------------------------ sources -- */

/* Members of the library's embedded source archives (decompressed when
 * first asked), in archive order: name as stored, and the bytes of a
 * regular file (NULL for a directory or link, *len 0). */
int64_t mtlbx_source_count(mtlbx *h, int lib);
const char *mtlbx_source_name(mtlbx *h, int lib, int64_t i);
const void *mtlbx_source_data(mtlbx *h, int lib, int64_t i, size_t *len);

/* --------------------------------------------------------- fat slices -- */

/* The slices of a fat file (0 for a plain one, -1 with no file open), in
 * the order of its header. A binary archive's GPU slices (Apple GPU, AMD,
 * Intel code: FORMAT.md §24) hold compiled functions; the metallib in
 * their __TEXT,__metallib is one of the file's libraries. `slice` below
 * is 0 .. count - 1; keys as above, plus: */
#define MTLBX_CPU 19              /* slice: "AIR64" | "Apple GPU" | "AMD GPU" | "Intel GPU" (the
                                     JSON's "cpu"); NULL for another CPU type */
#define MTLBX_ARCH 20             /* slice: "air64" | "applegpu" | "amdgpu" | "intelgpu" (the names
                                     `mtlbx thin` takes); NULL for another CPU type */
#define MTLBX_CPUTYPE 21          /* slice (int) */
#define MTLBX_CPUSUBTYPE 22       /* slice (int) */
#define MTLBX_LIBRARY 23          /* slice (int): the library of an AIR64 slice's metallib, -1 for a
                                     GPU slice; GPU function (int): the library of the AIR function
                                     of its name, -1 when none has it */
#define MTLBX_EMBEDDED_LIBRARY 24 /* slice (int): the library in a GPU slice's __TEXT,__metallib */
#define MTLBX_FILETYPE 25         /* slice (int): a GPU slice's Mach-O file type */
#define MTLBX_SYMBOL 26           /* GPU function: its `_begin` symbol, as stored */
#define MTLBX_ENTRY 27            /* GPU function (int): file offset of its `_agc.main` entry */
#define MTLBX_FUNCTION 28         /* GPU function (int): the AIR function's index in MTLBX_LIBRARY */
/* MTLBX_OFFSET and MTLBX_SIZE: a slice's bytes; a GPU function's code. */

int mtlbx_slice_count(mtlbx *h);
const char *mtlbx_slice_string(mtlbx *h, int slice, int key);
int64_t mtlbx_slice_int(mtlbx *h, int slice, int key);
/* Functions whose compiled code a GPU slice holds, by code offset (0 for
 * a slice without GPU code). MTLBX_NAME is the AIR name: the symbol less
 * the GPU linker's leading "__" and its "_begin". */
int64_t mtlbx_gpu_function_count(mtlbx *h, int slice);
const char *mtlbx_gpu_function_string(mtlbx *h, int slice, int64_t fn, int key);
int64_t mtlbx_gpu_function_int(mtlbx *h, int slice, int64_t fn, int key);
/* The function's machine code (`_begin` to `_end`), pointing into the
 * mapping, its length in *len (may be NULL). */
const void *mtlbx_gpu_function_code(mtlbx *h, int slice, int64_t fn, size_t *len);

/* --------------------------------------------------------------- JSON -- */

/* The `mtlbx dump --json` document of the file (CONTRACT.md), byte for
 * byte what the program prints, without its final newline; NULL on a
 * failure (no memory, the file changed while read). Made once per set of
 * flags. Hashes every module. */
#define MTLBX_JSON_INTERFACES 1u /* each function's "interface" (reads every module) */
#define MTLBX_JSON_LAYOUT 2u     /* the "layout" array: which structure claims every byte */
const char *mtlbx_json(mtlbx *h, unsigned flags);
/* Function fn's "interface" object (dump --json --interfaces), as JSON
 * text; "null" when its module does not decode (the error says where). */
const char *mtlbx_function_interface_json(mtlbx *h, int lib, int64_t fn);

/* ------------------------------------------------------------- checks -- */

/* Hashes every module: MTLBX_OK when each matches its HASH, MTLBX_WARN on
 * a mismatch (one finding each). */
int mtlbx_verify(mtlbx *h);
/* Would the file load on this OS? `os` is PLATFORM:VERSION, "macOS:14.0"
 * (macOS, iOS, tvOS, visionOS, macCatalyst, watchOS; any case).
 * MTLBX_OK: every library loads there; MTLBX_WARN: not, or not known (the
 * findings added say why, as `mtlbx check --os` words them); MTLBX_FAILED:
 * `os` is not understood. */
int mtlbx_check_os(mtlbx *h, const char *os);

/* Findings so far, in the order found: the file's when it was parsed, and
 * what mtlbx_verify and mtlbx_check_os added. For finding i: its message
 * (one line), severity in *severity (2 error, 1 warning) and file offset
 * in *offset (either may be NULL). NULL past the end. */
#define MTLBX_SEVERITY_WARNING 1
#define MTLBX_SEVERITY_ERROR 2
int64_t mtlbx_diag_count(mtlbx *h);
const char *mtlbx_diag(mtlbx *h, int64_t i, int *severity, int64_t *offset);

/* ------------------------------------------------------------- writer -- */

/* A new library written from AIR modules (.air: a bitcode wrapper and the
 * bitcode, as `mtlbx extract` writes them) for a target, as Apple's
 * standalone `metallib` tool lays one out. Every call returns MTLBX_OK;
 * MTLBX_FAILED with a one-line reason in mtlbx_writer_error_string
 * (nothing added or written; the writer is still usable): a module that is
 * not AIR bitcode, two functions with one name, a target the writer does
 * not know, a module that would not load on the target; or MTLBX_FATAL
 * (no memory). The writer reads no environment either. */
typedef struct mtlbx_writer mtlbx_writer;
/* NULL when memory ran out. */
mtlbx_writer *mtlbx_writer_new(void);
/* "macOS:14.0", "iOS:17.0", "iOS-simulator:17.0", "visionOS:1.0", ...: the
 * container version, header stamps and sections Apple's tools write for
 * that target. Needed before a write. */
int mtlbx_writer_target(mtlbx_writer *w, const char *os);
/* Overrides one header value, as dump --json spells it: the library keys
 * MTLBX_CONTAINER_VERSION ... MTLBX_UUID ("" removes the UUID), and
 * MTLBX_NAME, the dynamic header's library name ("" removes it). */
int mtlbx_writer_set(mtlbx_writer *w, int key, const char *value);
/* One AIR module: its NAME, TYPE and VERS come from its own AIR metadata;
 * HASH, MDSZ and OFFT are computed. The bytes are copied. */
int mtlbx_writer_add_function(mtlbx_writer *w, const void *air, size_t len);
/* One file of the embedded source archive. */
int mtlbx_writer_add_source(mtlbx_writer *w, const char *name, const void *data, size_t len);
/* The library, atomically: written to a temporary file beside `path` and
 * renamed over it when whole (a regular file at `path` is replaced; a
 * device, FIFO, socket or folder there is refused), or nothing and no
 * temporary file left (MTLBX_FAILED: the folder does not exist, the disk
 * is full, the file would pass the file-size limit, ...). It installs no
 * signal handler: SIGXFSZ is blocked in the calling thread for the write
 * alone, and the caller's signal mask is restored. */
int mtlbx_writer_write_filename(mtlbx_writer *w, const char *path);
/* The library in memory: *out (owned by the writer, valid until
 * mtlbx_writer_free) and its length in *len. */
int mtlbx_writer_write_memory(mtlbx_writer *w, const void **out, size_t *len);
/* One line: why the last call failed ("" when it succeeded; never NULL). */
const char *mtlbx_writer_error_string(mtlbx_writer *w);
/* `mtlbx pack --from FILE -f NAME...`: a writer of just the functions of
 * h's file that `names` select (n of them, each an exact name, a shell
 * glob or a prefix, as every command reads -f NAME), with everything else
 * they use (header values, modules, reflection, sources, the other
 * libraries of a fat file that keep a function): its write calls give
 * pack --from's bytes. It takes no target, set or add call. h must stay
 * open until the writer is freed (the writer reads its bytes). NULL with
 * h's error set: a name that selects no function, or selects several by
 * prefix ("ambiguous"), a file the writer cannot describe, no memory. */
mtlbx_writer *mtlbx_writer_from(mtlbx *h, const char *const *names, size_t n);
/* NULL is fine; frees everything the writer handed out. */
void mtlbx_writer_free(mtlbx_writer *w);

/* --------------------------------------------------------------- gate -- */

/* The release gate of `mtlbx check` through the library: the findings
 * `mtlbx check --json` prints for the same operands, as values. A gate
 * holds --os targets, an --expect list, and the findings of every path
 * added, in check's order (by library as found, then by offset, errors
 * first, then by message). It takes what check takes: metallib files
 * (plain or fat), folders, archives (wheels, .ipa, .zip, tars), Mach-O
 * hosts and ARCHIVE!MEMBER, against PLATFORM:VERSION targets and the
 * minimum the package declares ("declared"). */
typedef struct mtlbx_gate mtlbx_gate;
/* NULL when memory ran out. */
mtlbx_gate *mtlbx_gate_new(void);
/* One --os target, "macOS:14.0" (repeatable, one version per platform),
 * or "declared" (each library against the minimum its package declares:
 * a wheel's tags, an Info.plist, a Mach-O host's build version; rule
 * "os-declared"), for the paths added after it: each function needing
 * more is a finding (rule "os"). MTLBX_OK, or MTLBX_FAILED (EINVAL: not
 * PLATFORM:VERSION nor declared, or a platform named twice). */
int mtlbx_gate_os(mtlbx_gate *g, const char *os);
/* --expect LIST for the paths added after it (rule "expect"): LIST read
 * as check reads it, a text file (one name or shell glob a line, '#'
 * comments), a metallib, or a folder, archive or Mach-O host whose every
 * function name is expected. Each path added must hold every name.
 * MTLBX_OK, or MTLBX_FAILED (LIST cannot be read: a problem says why). */
int mtlbx_gate_expect(mtlbx_gate *g, const char *list);
/* The same from the lines of text (len bytes), the list called `name` in
 * the findings ("function F is missing, which NAME expects"). */
int mtlbx_gate_expect_text(mtlbx_gate *g, const char *name, const char *text, size_t len);
/* Checks one operand as `mtlbx check` does and keeps its findings:
 * MTLBX_OK (none), MTLBX_WARN (some), or MTLBX_FAILED (something in it
 * could not be opened or read whole, what check reports on stderr with
 * exit 2: the first is the error, every one a problem; the findings of
 * the rest are kept). */
int mtlbx_gate_add_path(mtlbx_gate *g, const char *path);
/* Why the last call failed, one line naming the path ("" when it did
 * not; never NULL), and the system's errno for it (0 for a format's). */
const char *mtlbx_gate_error_string(const mtlbx_gate *g);
int mtlbx_gate_errno(const mtlbx_gate *g);
/* The findings kept; finding i's message (NULL past the end) with its
 * file (as check --json names it: PATH, ARCHIVE!MEMBER,
 * HOST!SEGMENT,SECTION), byte offset, severity (MTLBX_SEVERITY_*) and
 * rule ("diagnostic", "os", "os-declared", "expect"), each out pointer
 * NULL if unwanted. Valid until mtlbx_gate_free. */
size_t mtlbx_gate_finding_count(const mtlbx_gate *g);
const char *mtlbx_gate_finding(const mtlbx_gate *g, size_t i, const char **file, int64_t *offset, int *severity,
                               const char **rule);
/* Finding i's member inside its archive or host (what follows the
 * archive's path and '!' in its file; "" for a file of its own), or NULL
 * past the end. */
const char *mtlbx_gate_finding_member(const mtlbx_gate *g, size_t i);
/* What could not be read, of every call (check's lines on stderr):
 * problem i's message (NULL past the end), its path and byte offset (-1
 * when none). Valid until mtlbx_gate_free. */
size_t mtlbx_gate_problem_count(const mtlbx_gate *g);
const char *mtlbx_gate_problem(const mtlbx_gate *g, size_t i, const char **path, int64_t *offset);
/* NULL is fine. */
void mtlbx_gate_free(mtlbx_gate *g);

#ifdef __cplusplus
}
#endif
#endif
