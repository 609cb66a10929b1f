/* The table of commands: everything the parser, the usage, each command's
 * --help and the man page SYNOPSIS know about a command is here. To add a
 * command, add its options and one entry below, and its cmd_ function to
 * commands.h; src/cli/cmddoc then prints the new man page SYNOPSIS and
 * README table (tests/cli/cli_doc.sh fails until they are pasted in). */
#include "config.h"

#include "commands.h"

/* Global options: accepted before or after the command, by every command. */
const struct cli_option cli_global_options[] = {
    { OPT_NO_COLOR, "no-color", NULL, CLI_OPT_EXPLORER, "no colours in the explorer (also: NO_COLOR)" },
    { OPT_ASCII, "ascii", NULL, CLI_OPT_EXPLORER, "ASCII line drawing in the explorer" },
    { OPT_NO_MOUSE, "no-mouse", NULL, CLI_OPT_EXPLORER, "the explorer leaves the mouse to the terminal" },
    { OPT_LLVM_DIS, "llvm-dis", "PATH", CLI_OPT_EXPLORER,
      "the llvm-dis to run (default: $MTLBX_LLVM_DIS, then PATH)" },
    { 'h', "help", NULL, 0, "display this help and exit" },
    { OPT_VERSION, "version", NULL, 0, "output version information and exit" },
    { 0 },
};

static const struct cli_option no_options[] = { { 0 } };

static const struct cli_option ls_options[] = {
    { OPT_VERIFY, "verify", NULL, 0, "check each module's SHA-256 (ok/MISMATCH) and that it is LLVM bitcode (exit 1 on either)" },
    { OPT_NAMES, "names", NULL, 0,
      "print only the function names, one per line (fast; used by shell completion)" },
    { 0 },
};

static const struct cli_option dump_options[] = {
    { OPT_JSON, "json", NULL, CLI_OPT_REQUIRED, "JSON output (the only format)" },
    { OPT_INTERFACES, "interfaces", NULL, 0,
      "add each function's interface, decoded from its module's AIR metadata" },
    { OPT_LAYOUT, "layout", NULL, 0,
      "add a \"layout\" array naming the owner of every byte of the file (streamed)" },
    { 0 },
};

static const struct cli_option diff_options[] = {
    { OPT_JSON, "json", NULL, 0, "the comparison as one JSON object (CONTRACT.md)" },
    { OPT_VERIFY, "verify", NULL, 0,
      "hash every module on both sides (default: only where the stored hashes differ)" },
    { 0 },
};

static const struct cli_option sig_options[] = {
    { OPT_JSON, "json", NULL, 0, "print the FUNCTION_INTERFACE objects as a JSON array" },
    { OPT_SLICE, "slice", "N", 0, "only library N of a fat file (its slice N; 0 is the first)" },
    { 0 },
};

static const struct cli_option extract_options[] = {
    { 'o', "output", "DIR", 0,
      "directory to write to (default: the current one; created with its parents if missing)" },
    { 'f', "function", "NAME", CLI_OPT_REPEAT, "only this function (repeatable)" },
    { OPT_SLICE, "slice", "N", 0, "only library N of a fat file (its slice N; 0 is the first)" },
    { OPT_FORCE, "force", NULL, 0, "replace existing files" },
    { 0 },
};

static const struct cli_option sources_options[] = {
    { OPT_LIST, "list", NULL, 0,
      "one line per member: ARCHIVE-ID, SIZE, NAME, tab-separated (the default without -o)" },
    { 'o', "output", "DIR", 0,
      "write regular members to DIR/ARCHIVE-ID/PATH (DIR is created with its parents if "
      "missing; nothing is written outside it)" },
    { OPT_FORCE, "force", NULL, 0, "replace existing files" },
    { 0 },
};

static const struct cli_option dis_options[] = {
    { OPT_LLVM_DIS, "llvm-dis", "PATH", 0, "the llvm-dis to run (default: $MTLBX_LLVM_DIS, then PATH)" },
    { OPT_SLICE, "slice", "N", 0, "only library N of a fat file (its slice N; 0 is the first)" },
    { 0 },
};

static const struct cli_option src_options[] = {
    { OPT_ALL, "all", NULL, 0, "the whole member, not only the function's definition" },
    { 0 },
};

static const struct cli_option unpack_options[] = {
    { 'o', "output", "DIR", CLI_OPT_REQUIRED,
      "the folder to write (created with its parents if missing; nothing is written outside it)" },
    { OPT_FORCE, "force", NULL, 0, "replace DIR when it is an earlier unpack (it holds manifest.json): the old folder goes once the new one is whole" },
    { 0 },
};

static const struct cli_option pack_options[] = {
    { 'o', "output", "FILE", CLI_OPT_REQUIRED, "the library to write" },
    { OPT_TARGET, "target", "PLATFORM:VERSION", 0,
      "pack .air modules for this target (macOS:14.0, iOS:17.0, visionOS:1.0, iOS-simulator:17.0, ...)" },
    { OPT_FROM, "from", "FILE", 0, "a library of some functions of FILE, named with -f" },
    { 'f', "function", "NAME", CLI_OPT_REPEAT, "with --from: keep this function (repeatable)" },
    { OPT_KEEP_MANIFEST_VALUES, "keep-manifest-values", NULL, 0,
      "pack DIR: write NAME, TYPE and AIR/MSL versions as manifest.json gives them, even where its modules "
      "say otherwise (refused by default)" },
    { OPT_FORCE, "force", NULL, 0, "replace an existing FILE" },
    { 0 },
};

static const struct cli_option thin_options[] = {
    { 'o', "output", "FILE", CLI_OPT_REQUIRED, "the file to write" },
    { OPT_FORCE, "force", NULL, 0, "replace an existing FILE" },
    { 0 },
};

static const struct cli_option find_options[] = {
    { OPT_JSON, "json", NULL, 0, "one line per library: the dump --json document, compact" },
    { OPT_OS, "os", "PLATFORM:VERSION|declared", CLI_OPT_REPEAT,
      "the deployment gate: report each library that needs more than this OS version (macos:15.0, "
      "ios:17.0, ...; repeatable), or than its package declares (--os declared)" },
    { 0 },
};

static const struct cli_option check_options[] = {
    { OPT_OS, "os", "PLATFORM:VERSION|declared", CLI_OPT_REPEAT,
      "also report each function and library that needs more than this OS version (macos:15.0, ios:17.0, "
      "tvos, maccatalyst, visionos, watchos; repeatable), and a library for a platform not named; "
      "--os declared: each library against the minimum its package declares (wheel tag, Info.plist, "
      "LC_BUILD_VERSION)" },
    { OPT_EXPECT, "expect", "LIST", 0,
      "each function name or glob in LIST (a text file, one a line, # comments; or an older library, wheel "
      "or folder: all its functions) must exist; an empty library fails, and so does a LIST naming nothing" },
    { OPT_JSON, "json", NULL, 0, "findings as JSON Lines: file, offset, severity, message, rule" },
    { OPT_FORMAT, "format", "FORMAT", 0, "text (the default), json, or github (workflow annotations)" },
    { 0 },
};

const struct cli_command cli_commands[] = {
    { "info", "FILE...", 1, -1, "header, sections with offsets and sizes, function counts by type, sources, dynamic header, problem count", no_options,
      "Exit status: 0 ok, 1 a damaged library (its header, a section or a module\n"
      "runs past the end of the file: one line on stderr names the offset),\n"
      "2 a file could not be read.",
      cmd_info },
    { "ls", "FILE...", 1, -1, "one line per function: index, type, AIR and MSL versions, module offset and size, first 16 hex digits of HASH, name", ls_options,
      "Each line: index, type, AIR and MSL versions, module offset and size, the first\n"
      "16 hex digits of HASH, name. With several files, each comes under a\n"
      "'==> FILE <==' line.\n"
      "Exit status: 0 ok, 1 a hash mismatch or (--verify) a module that is not\n"
      "LLVM bitcode, or a damaged library (a section or module past the end of\n"
      "the file: what can be read is listed, one line on stderr names the\n"
      "offset), 2 a file could not be read (the worst of all files).",
      cmd_ls },
    { "dump", "FILE", 1, 1, "the whole parsed structure as one JSON document (the CONTRACT.md schema, plus extra keys)", dump_options,
      "The schema is documented in CONTRACT.md.\nExit status: 0 ok, 2 the file could not be read.",
      cmd_dump },
    { "check", "PATH...", 1, -1, "one finding per line, FILE:OFFSET: error|warning: message, sorted by offset; PATH as find takes it (folders, archives, Mach-O hosts)", check_options,
      "Each finding: FILE:OFFSET: error|warning: message, sorted by offset within\n"
      "each library. Every module is hashed and every source archive decompressed.\n"
      "PATH is a metallib, or what find takes: a folder, an archive, a Mach-O host,\n"
      "each library in it named as find names it.\n"
      "With --os PLATFORM:VERSION, also one error per function and library that\n"
      "needs a newer OS (from the deployment target, MSL and AIR versions), and\n"
      "one warning for a library whose platform no --os names. With --os declared,\n"
      "one error per library that needs more than its package declares (a wheel's\n"
      "platform tag, an app's Info.plist, its Mach-O host's LC_BUILD_VERSION), in\n"
      "Metal's words, naming the stamp that decides (the modules' target triple);\n"
      "a warning when nothing declares a minimum.\n"
      "With --expect LIST, one error per name or glob of LIST that no function of\n"
      "PATH has, and per library without functions; a LIST that names nothing is\n"
      "one error per PATH.\n"
      "Exit status: 0 clean, 1 findings, 2 a file could not be read.",
      cmd_check },
    { "extract", "FILE", 1, 1, "writes each function's module (exactly the bytes HASH covers) to DIR/NAME.air", extract_options,
      "Writes each function's module (the bytes its HASH covers). Repeated names get\n"
      "NAME~2.air, NAME~3.air, ... in function-list order; the slices of a fat file\n"
      "go to DIR/slice0/, DIR/slice1/, ...\n"
      "Exit status: 0 ok, 1 nothing matched, 2 error.",
      cmd_extract },
    { "sources", "FILE", 1, 1, "lists, or writes under DIR, the members of the embedded source archives", sources_options,
      "Links, devices, \"..\" paths and repeated paths are refused.\n"
      "Exit status: 0 ok, 1 no embedded sources, 2 error.",
      cmd_sources },
    { "dis", "FILE NAME", 2, 2, "runs llvm-dis on that function's module and prints the LLVM assembly", dis_options,
      "Runs llvm-dis on the module of the first function named NAME (a name, a\n"
      "unique prefix, or a glob matching one function; in slice N with --slice N).\n"
      "Exit status: 0 ok, 1 no such function, 2 llvm-dis missing or failed.",
      cmd_dis },
    { "src", "FILE NAME", 2, 2, "prints the embedded source of a function, from the line that defines it to the end of its body", src_options,
      "The definition is found by the function's name in the embedded source\n"
      "members (the archive its SOFF names first). A first line \"// PATH:LINE\"\n"
      "names the member and line. NAME is a name, a unique prefix or a glob.\n"
      "Exit status: 0 ok, 1 no such function, no embedded sources, or no member\n"
      "defines it, 2 the file could not be read.",
      cmd_src },
    { "sig", "FILE [NAME...]", 1, -1, "each function's interface (from its AIR metadata) as an MSL-style declaration", sig_options,
      "Each function (or each one named) as an MSL-style declaration: stage, name,\n"
      "one line per argument with its address space, type, name and binding\n"
      "([[buffer(3)]], [[threadgroup(0)]], ...), struct members with offsets and\n"
      "sizes, outputs and function attributes, after the function constants it\n"
      "uses and under a comment line with the OS version it needs to load and why.\n"
      "Exit status: 0 ok, 1 no such function or a module that does not decode,\n"
      "2 the file could not be read.",
      cmd_sig },
    { "diff", "A B", 2, 2, "what differs between two metallibs (header, functions added, removed and changed, sources), or between two folders or archives (libraries added, removed and changed)", diff_options,
      "Libraries are paired by position, functions by name. Where the stored HASH is\n"
      "the same, the module bytes are compared (a change behind it is hash_ok or\n"
      "module_hash); --verify hashes every module.\n"
      "Two folders or archives (wheels, .ipa, tars): libraries paired by their path\n"
      "inside each, each changed one with its library diff.\n"
      "Text: a summary line, then one line per change (coloured on a terminal).\n"
      "Exit status: 0 no difference, 1 differences, 2 a file could not be read.",
      cmd_diff },
    { "textconv", "FILE", 1, 1, "a stable text rendering of a library for git diff (no offsets)", no_options,
      "For .gitattributes 'diff=metallib' with\n"
      "  git config diff.metallib.textconv 'mtlbx textconv'\n"
      "A file that is not a metallib prints one line and exits 0.",
      cmd_textconv },
    { "find", "PATH...", 1, -1, "every metallib under folders and inside archives (zip, .whl, .ipa, tar, .tar.gz, ..., by content): one line each (path, container version, target OS, functions, problems, requires), or JSON Lines of dump --json documents", find_options,
      "Each line: PATH, VERSION, TARGET, FUNCTIONS, PROBLEMS, REQUIRES (the OS version\n"
      "it loads on), tab-separated (a header row first on a terminal); with --os,\n"
      "each library that needs more follows as a check finding (exit 1). A member of\n"
      "an archive is named ARCHIVE!MEMBER, nested archives ARCHIVE!INNER!MEMBER\n"
      "(4 levels). Folders are walked without following links. A .metallib that is\n"
      "not one, and a FIFO or device named as PATH, are reported.\n"
      "Exit status: 0 ok, 1 an entry could not be read (reported; the survey goes on),\n2 error.",
      cmd_find },
    { "unpack", "FILE", 1, 1, "writes DIR/manifest.json (the library's values: no offset, size, MDSZ, OFFT or HASH), one .air per module and the embedded source archives", unpack_options,
      "What pack needs to give FILE back byte for byte: a file no rule or quirk\n"
      "describes is refused, naming the first offset that differs. A fat file's\n"
      "slices go under DIR/slice0/, DIR/slice1/, ... A binary archive (GPU slices)\n"
      "is refused, naming them: thin it to air64 first, then unpack that.\n"
      "Exit status: 0 ok, 2 error.",
      cmd_unpack },
    { "pack", "DIR|MODULE.air...", 0, -1, "writes the library DIR/manifest.json describes, a library of AIR modules for a target, or a library of just some functions of FILE", pack_options,
      "pack DIR gives back the file unpack read, byte for byte. With --target, each\n"
      "module's name, type and versions come from its AIR metadata, as Apple's\n"
      "metallib tool writes them; a module that is not AIR, two functions of one\n"
      "name, or a module built for a newer OS than the target are refused. With\n"
      "--from, NAME is a name, a unique prefix or a glob.\n"
      "Exit status: 0 ok, 1 (--from) no function matched, 2 error.",
      cmd_pack },
    { "thin", "FILE ARCH...", 2, -1, "keeps some slices of a fat file (a binary archive), byte for byte: by architecture (air64, applegpu, amdgpu, intelgpu) or slice index", thin_options,
      "One slice kept is written as its bytes alone (a plain metallib, or the GPU\n"
      "code's Mach-O); several as a fat file of them, in FILE's order. An ARCH the\n"
      "file does not hold is refused, naming the slices it has; nothing is written.\n"
      "Exit status: 0 written, 2 refused or error.",
      cmd_thin },
};
const size_t cli_commands_len = sizeof cli_commands / sizeof *cli_commands;
