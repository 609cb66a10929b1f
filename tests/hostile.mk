# Hostile input: the parser, the command line and the explorer's text code
# against files built to hurt them, and the fuzzing harnesses.
#
# make check runs:
#   tests/hostile/test_hostile_parse    counts, sizes, overlaps, fat slices, cycles,
#                               a bzip2 bomb, dangerous tar members (library)
#   tests/hostile/test_hostile_corrupt  every truncation of two samples and seeded
#                               mutations, each walked completely
#   tests/hostile/test_hostile_cli      the real binary: special files, SIGBUS,
#                               refused and atomic writes, hostile names,
#                               tar members under `sources -o`, llvm-dis that
#                               is missing, fails, hangs or floods
#   tests/hostile/hostile_replay.sh     the fuzzers' seed corpus and every input a
#                               fuzzer ever crashed on (tests/fuzz/regress)
#                               through both harnesses
#   tests/hostile/hostile_explorer_sigbus.sh  the explorer when its file shrinks
#   tests/hostile/hostile_explorer_dis.sh     the explorer with an llvm-dis that
#                               fails, floods or hangs
#   tests/hostile/hostile_runaway.sh    issue 23's regression inputs, each with its
#                               exit status and a time and memory bound
#
# make fuzz builds the two libFuzzer harnesses with clang and runs each for
# FUZZ_SECONDS (default 60) on a copy of the seed corpus; it is not part of
# `all` or `check`, and says so and stops when clang cannot build them.

HOSTILE_FUZZ_DIR = $(top_srcdir)/tests/fuzz

if HAVE_CRITERION
check_PROGRAMS += tests/hostile/test_hostile_parse tests/hostile/test_hostile_corrupt tests/hostile/test_hostile_cli
tests_hostile_test_hostile_parse_SOURCES = tests/hostile/test_hostile_parse.c tests/hostile/test_hostile_img.c \
	tests/hostile/test_hostile_img.h tests/imagebuf.c tests/imagebuf.h tests/fuzz/walk.c tests/fuzz/walk.h
tests_hostile_test_hostile_parse_CPPFLAGS = $(TEST_CPPFLAGS) $(LIBARCHIVE_CFLAGS) $(LIBGCRYPT_CFLAGS)
tests_hostile_test_hostile_parse_LDADD = $(TEST_LIBS)

tests_hostile_test_hostile_corrupt_SOURCES = tests/hostile/test_hostile_corrupt.c tests/fuzz/walk.c tests/fuzz/walk.h \
	tests/testenv.c tests/testenv.h
tests_hostile_test_hostile_corrupt_CPPFLAGS = $(TEST_CPPFLAGS)
tests_hostile_test_hostile_corrupt_LDADD = $(TEST_LIBS)

tests_hostile_test_hostile_cli_SOURCES = tests/hostile/test_hostile_cli.c tests/hostile/test_hostile_img.c tests/hostile/test_hostile_img.h \
	tests/imagebuf.c tests/imagebuf.h tests/testenv.c tests/testenv.h
tests_hostile_test_hostile_cli_CPPFLAGS = $(TEST_CPPFLAGS) $(LIBARCHIVE_CFLAGS) $(LIBGCRYPT_CFLAGS) $(JANSSON_CFLAGS)
tests_hostile_test_hostile_cli_LDADD = $(TEST_LIBS) $(JANSSON_LIBS)

TESTS += tests/hostile/test_hostile_parse tests/hostile/test_hostile_corrupt tests/hostile/test_hostile_cli
endif

# The harnesses built without libFuzzer: replay.c gives them a main() that
# runs every file of the directories named on the command line.
check_PROGRAMS += tests/fuzz_replay_parser tests/fuzz_replay_format tests/fuzz_replay_bitcode tests/fuzz_replay_writer \
	tests/fuzz_replay_macho tests/fuzz_replay_gpu_slice
tests_fuzz_replay_gpu_slice_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_gpu_slice.c
tests_fuzz_replay_gpu_slice_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS)
tests_fuzz_replay_gpu_slice_LDADD = $(MTLBX_LIBS) $(JANSSON_LIBS)
tests_fuzz_replay_macho_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_macho.c
tests_fuzz_replay_macho_LDADD = $(MTLBX_LIBS)
tests_fuzz_replay_bitcode_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_bitcode.c
tests_fuzz_replay_bitcode_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS)
tests_fuzz_replay_bitcode_LDADD = $(MTLBX_LIBS) $(JANSSON_LIBS)
tests_fuzz_replay_parser_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_parser.c \
	tests/fuzz/walk.c tests/fuzz/walk.h
tests_fuzz_replay_parser_LDADD = $(MTLBX_LIBS)
tests_fuzz_replay_writer_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_writer.c
tests_fuzz_replay_writer_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS)
tests_fuzz_replay_writer_LDADD = $(MTLBX_LIBS) $(JANSSON_LIBS)
tests_fuzz_replay_format_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_format.c
tests_fuzz_replay_format_CPPFLAGS = $(AM_CPPFLAGS) $(NCURSES_CFLAGS)
tests_fuzz_replay_format_LDADD = src/ui/libmtlbxui.a src/program/libmtlbxprogram.a $(MTLBX_LIBS) $(NCURSES_LIBS)
check_SCRIPTS += tests/hostile/hostile_replay.sh
# The explorer's half of the SIGBUS and llvm-dis checks (tmux; they skip
# only without it).
TESTS += tests/hostile/hostile_replay.sh tests/hostile/hostile_explorer_sigbus.sh tests/hostile/hostile_explorer_dis.sh
# Metadata nodes that share children: every interface printer within a time
# and memory bound (issue 23); the input is written by hostile_mkbitcode.py.
TESTS += tests/hostile/hostile_interface_dag.sh
EXTRA_DIST += tests/hostile/hostile_interface_dag.sh tests/hostile_mkbitcode.py
# Issue 45: hostile GPU slices of binary archives (variants and mutations
# of ../shared/gpu-archives' sample, made at test time; skips without it)
# through the GPU slice harness and `mtlbx check`, each under a second.
TESTS += tests/hostile/hostile_gpu_slices.sh
EXTRA_DIST += tests/hostile/hostile_gpu_slices.sh
# Issue 23: small inputs that ran away or passed silently, each with its
# exit status and a time and memory bound (libraries from
# tests/hostile_mkrunaway.py).
TESTS += tests/hostile/hostile_runaway.sh
EXTRA_DIST += tests/hostile/hostile_runaway.sh tests/hostile_mkrunaway.py
# Issue 34: Info.plist files libplist alone would crash or hang on (deep,
# cyclic, shared references, cut short, huge), each one warning in seconds.
TESTS += tests/hostile/hostile_plist.sh
EXTRA_DIST += tests/hostile/hostile_plist.sh
# Issue 35: the demangler bomb, src's search, output names and repeated
# names in diff, each within a time and memory bound (inputs from
# tests/hostile_mktext.py, which also writes the fuzz seeds issue35-*).
TESTS += tests/hostile/hostile_text.sh
EXTRA_DIST += tests/hostile/hostile_text.sh tests/hostile_mktext.py

EXTRA_DIST += tests/hostile/hostile_replay.sh tests/hostile/hostile_explorer_sigbus.sh tests/hostile/hostile_explorer_dis.sh \
	tests/fuzz/metallib.dict tests/fuzz/README.md tests/fuzz/replay.c tests/mkmacho.py \
	tests/fuzz/seeds tests/fuzz/regress

# ------------------------------------------------------------ make fuzz --
# Not an automake program: libFuzzer needs clang and its own main(), and
# the sanitizer flags must cover the library sources too, so the harnesses
# are compiled straight from the sources here.
CLANG ?= clang
GPU_SAMPLE ?= $(abs_top_srcdir)/../shared/gpu-archives/objectfile-jl-macmetal-dummy
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS = -g -O2 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-I$(top_builddir) -I$(top_builddir)/src/lib -I$(top_srcdir)/src/lib -I$(top_srcdir)/src \
	-include $(top_builddir)/config.h $(LIBPLIST_CFLAGS)
FUZZ_PARSER_SRC = $(HOSTILE_FUZZ_DIR)/fuzz_parser.c $(HOSTILE_FUZZ_DIR)/walk.c \
	$(filter %.c,$(addprefix $(top_srcdir)/,$(src_lib_libmtlbx_private_la_SOURCES)))
FUZZ_BITCODE_SRC = $(HOSTILE_FUZZ_DIR)/fuzz_bitcode.c \
	$(filter %.c,$(addprefix $(top_srcdir)/,$(src_lib_libmtlbx_private_la_SOURCES)))
FUZZ_WRITER_SRC = $(HOSTILE_FUZZ_DIR)/fuzz_writer.c \
	$(filter %.c,$(addprefix $(top_srcdir)/,$(src_lib_libmtlbx_private_la_SOURCES)))
FUZZ_MACHO_SRC = $(HOSTILE_FUZZ_DIR)/fuzz_macho.c \
	$(filter %.c,$(addprefix $(top_srcdir)/,$(src_lib_libmtlbx_private_la_SOURCES)))
FUZZ_GPU_SLICE_SRC = $(HOSTILE_FUZZ_DIR)/fuzz_gpu_slice.c \
	$(filter %.c,$(addprefix $(top_srcdir)/,$(src_lib_libmtlbx_private_la_SOURCES)))
FUZZ_FORMAT_SRC = $(HOSTILE_FUZZ_DIR)/fuzz_format.c $(top_srcdir)/src/lib/container/escape.c \
	$(addprefix $(top_srcdir)/src/ui/,text/hexfmt.c text/textfmt.c text/layout.c text/lineedit.c text/query.c model/rows.c text/rowfmt.c term/keys.c text/wrap.c) \
	$(top_srcdir)/src/program/text_buf.c

fuzz-build:
	@if ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){(void)d;(void)n;return 0;}' | \
	    $(CLANG) -x c -fsanitize=fuzzer -o /dev/null - 2>/dev/null; then \
	  echo "make fuzz: '$(CLANG)' cannot build libFuzzer programs (install clang, or set CLANG=)"; exit 1; fi
	$(MKDIR_P) tests/fuzz
	$(CLANG) $(FUZZ_CFLAGS) $(LIBGCRYPT_CFLAGS) $(LIBARCHIVE_CFLAGS) $(JANSSON_CFLAGS) $(FUZZ_PARSER_SRC) \
	  -o tests/fuzz/fuzz_parser $(LIBGCRYPT_LIBS) $(LIBARCHIVE_LIBS) $(BZ2_LIBS) $(JANSSON_LIBS) $(DEMANGLE_LIBS) $(UNISTRING_LIBS) $(LIBPLIST_LIBS) -lpthread
	$(CLANG) $(FUZZ_CFLAGS) $(NCURSES_CFLAGS) $(FUZZ_FORMAT_SRC) -o tests/fuzz/fuzz_format $(NCURSES_LIBS) $(UNISTRING_LIBS)
	$(CLANG) $(FUZZ_CFLAGS) $(LIBGCRYPT_CFLAGS) $(LIBARCHIVE_CFLAGS) $(JANSSON_CFLAGS) $(FUZZ_MACHO_SRC) \
	  -o tests/fuzz/fuzz_macho $(LIBGCRYPT_LIBS) $(LIBARCHIVE_LIBS) $(BZ2_LIBS) $(JANSSON_LIBS) $(DEMANGLE_LIBS) $(UNISTRING_LIBS) $(LIBPLIST_LIBS) -lpthread
	$(CLANG) $(FUZZ_CFLAGS) $(LIBGCRYPT_CFLAGS) $(LIBARCHIVE_CFLAGS) $(JANSSON_CFLAGS) $(FUZZ_GPU_SLICE_SRC) \
	  -o tests/fuzz/fuzz_gpu_slice $(LIBGCRYPT_LIBS) $(LIBARCHIVE_LIBS) $(BZ2_LIBS) $(JANSSON_LIBS) $(DEMANGLE_LIBS) $(UNISTRING_LIBS) $(LIBPLIST_LIBS) -lpthread
	$(CLANG) $(FUZZ_CFLAGS) $(LIBGCRYPT_CFLAGS) $(LIBARCHIVE_CFLAGS) $(JANSSON_CFLAGS) \
	  $(FUZZ_BITCODE_SRC) -o tests/fuzz/fuzz_bitcode $(LIBGCRYPT_LIBS) $(LIBARCHIVE_LIBS) $(BZ2_LIBS) \
	  $(JANSSON_LIBS) $(DEMANGLE_LIBS) $(UNISTRING_LIBS) $(LIBPLIST_LIBS) -lpthread
	$(CLANG) $(FUZZ_CFLAGS) -I$(top_srcdir)/src/cli $(LIBGCRYPT_CFLAGS) $(LIBARCHIVE_CFLAGS) $(JANSSON_CFLAGS) \
	  $(FUZZ_WRITER_SRC) -o tests/fuzz/fuzz_writer $(LIBGCRYPT_LIBS) $(LIBARCHIVE_LIBS) $(BZ2_LIBS) \
	  $(JANSSON_LIBS) $(DEMANGLE_LIBS) $(UNISTRING_LIBS) $(LIBPLIST_LIBS) -lpthread

# Each run mutates a working copy of the seeds (never the committed
# ones); new crashes land in tests/fuzz/artifacts/ for tests/fuzz/regress.
fuzz: fuzz-build
	$(MKDIR_P) tests/fuzz/work-parser tests/fuzz/work-format tests/fuzz/artifacts
	cp -f $(HOSTILE_FUZZ_DIR)/seeds/parser/* $(top_srcdir)/data/sample.metallib \
	  $(top_srcdir)/tests/fixtures/*.metallib tests/fuzz/work-parser/
	cp -f $(HOSTILE_FUZZ_DIR)/seeds/format/* tests/fuzz/work-format/
	tests/fuzz/fuzz_parser -dict=$(HOSTILE_FUZZ_DIR)/metallib.dict -max_total_time=$(FUZZ_SECONDS) \
	  -timeout=25 -rss_limit_mb=3072 -print_final_stats=1 -artifact_prefix=tests/fuzz/artifacts/parser- \
	  tests/fuzz/work-parser
	tests/fuzz/fuzz_format -max_total_time=$(FUZZ_SECONDS) -timeout=25 -print_final_stats=1 \
	  -artifact_prefix=tests/fuzz/artifacts/format- tests/fuzz/work-format
	$(MKDIR_P) tests/fuzz/work-bitcode
	cp -f $(HOSTILE_FUZZ_DIR)/seeds/bitcode/* tests/fuzz/work-bitcode/
	tests/fuzz/fuzz_bitcode -max_total_time=$(FUZZ_SECONDS) -timeout=25 -rss_limit_mb=2048 \
	  -print_final_stats=1 -artifact_prefix=tests/fuzz/artifacts/bitcode- tests/fuzz/work-bitcode
	$(MKDIR_P) tests/fuzz/work-writer
	cp -f $(HOSTILE_FUZZ_DIR)/seeds/writer/* tests/fuzz/work-writer/
	tests/fuzz/fuzz_writer -max_total_time=$(FUZZ_SECONDS) -timeout=25 -rss_limit_mb=2048 \
	  -print_final_stats=1 -artifact_prefix=tests/fuzz/artifacts/writer- tests/fuzz/work-writer
	$(MKDIR_P) tests/fuzz/work-macho
	cp -f $(HOSTILE_FUZZ_DIR)/seeds/macho/* tests/fuzz/work-macho/
	tests/fuzz/fuzz_macho -max_total_time=$(FUZZ_SECONDS) -timeout=25 -rss_limit_mb=2048 \
	  -print_final_stats=1 -artifact_prefix=tests/fuzz/artifacts/macho- tests/fuzz/work-macho
	@# GPU slices: seeds are the variants of the public sample, made here
	@# (never committed); without ../shared/gpu-archives this one is skipped.
	$(MKDIR_P) tests/fuzz/work-gpu-slice
	if test -f $(GPU_SAMPLE); then \
	  python3 $(top_srcdir)/tests/mkgpuarchive.py $(GPU_SAMPLE) tests/fuzz/work-gpu-slice && \
	  tests/fuzz/fuzz_gpu_slice -dict=$(HOSTILE_FUZZ_DIR)/metallib.dict -max_total_time=$(FUZZ_SECONDS) \
	    -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=tests/fuzz/artifacts/gpu-slice- \
	    tests/fuzz/work-gpu-slice; \
	else echo "make fuzz: no $(GPU_SAMPLE): the GPU slice harness is not run"; fi

clean-local: clean-fuzz
clean-fuzz:
	rm -rf tests/fuzz/fuzz_parser tests/fuzz/fuzz_format tests/fuzz/work-parser tests/fuzz/work-format \
	  tests/fuzz/fuzz_bitcode tests/fuzz/work-bitcode tests/fuzz/fuzz_writer tests/fuzz/work-writer \
	  tests/fuzz/fuzz_macho tests/fuzz/work-macho tests/fuzz/fuzz_gpu_slice tests/fuzz/work-gpu-slice

.PHONY: fuzz fuzz-build clean-fuzz

# ---------------------------------------------------------- issue 12 --
# Nothing lost, nothing left behind (memory, write errors, signals, races,
# spoofing names). tests/cli/dump_golden.sh: the streamed `dump --json` stays
# byte for byte what tests/golden/ holds.
TESTS += tests/cli/dump_golden.sh
EXTRA_DIST += tests/cli/dump_golden.sh tests/golden tests/hostile_mklib.py
# tests/hostile/hostile_memory.sh: memory limits (ulimit -v) never give a smaller
# "clean" answer; tests/hostile/hostile_write_errors.sh: /dev/full and a file-size
# limit under every command's standard output.
TESTS += tests/hostile/hostile_memory.sh tests/hostile/hostile_write_errors.sh
EXTRA_DIST += tests/hostile_lib.sh tests/hostile/hostile_memory.sh tests/hostile/hostile_write_errors.sh
# tests/hostile/memory_flat.sh: every command on 200,000 real modules under
# ulimit -v and a peak-RSS bound, with complete output (issue 22).
TESTS += tests/hostile/memory_flat.sh
EXTRA_DIST += tests/hostile/memory_flat.sh
# tests/hostile/hostile_signals.sh: signals at random moments of a large
# extraction and under dis, the input rewritten or truncated while it is
# extracted, extract --force onto its own input.
TESTS += tests/hostile/hostile_signals.sh
EXTRA_DIST += tests/hostile/hostile_signals.sh tests/hostile_mkbig.py
# tests/hostile/hostile_writer.sh: pack and unpack on a full disk and under
# signals leave no temporary file and no torn output (issue 33).
TESTS += tests/hostile/hostile_writer.sh
EXTRA_DIST += tests/hostile/hostile_writer.sh
# tests/hostile/hostile_explorer_eof.sh: the explorer's terminal closed under it
# with no SIGHUP reaching it (python3's pty module).
TESTS += tests/hostile/hostile_explorer_eof.sh
EXTRA_DIST += tests/hostile/hostile_explorer_eof.sh
# tests/hostile/hostile_many_files.sh: ls and the explorer on 40 files under ulimit -n 32
TESTS += tests/hostile/hostile_many_files.sh
EXTRA_DIST += tests/hostile/hostile_many_files.sh
# tests/hostile/hostile_names.sh: names with bidi, invisible and control
# characters through every command, extracted file names and sources -o;
# a spoofing TERM; an error about a 5,000-byte name.
TESTS += tests/hostile/hostile_names.sh
EXTRA_DIST += tests/hostile/hostile_names.sh

# ---------------------------------------------------------- issue 35 --
# tests/hostile/hostile_archive_work.sh: diff of two releases of 6,000
# libraries read each archive once (it reopened one per pair: quadratic),
# and archives nested in archives share one member limit (stored zips
# three deep held three). tests/hostile/hostile_raw_bytes.sh: DEL in the
# JSON fields of textconv and diff, control bytes in --os values.
# (A silent llvm-dis: hostile_runaway.sh and hostile_explorer_dis.sh; a
# file-size limit and the errno of lost output: hostile_write_errors.sh.)
TESTS += tests/hostile/hostile_archive_work.sh tests/hostile/hostile_raw_bytes.sh
EXTRA_DIST += tests/hostile/hostile_archive_work.sh tests/hostile/hostile_raw_bytes.sh \
	tests/hostile_mkreleases.py tests/hostile_mkdel.py

# ---------------------------------------------------------- issue 40 --
# A fifth round of attacks, the C side (inputs from tests/hostile_mkquoted.py,
# which also writes the fuzz seeds issue40-*):
# tests/hostile/hostile_stderr.sh: values from manifests, --target, --format
# and Mach-O names holding ESC and a newline then `::error::` reach stderr
# escaped, one line each; tests/hostile/hostile_output_targets.sh: -o at a
# FIFO, folder, socket or device is refused (program and library), the
# library's write under ulimit -f leaves the host alive and nothing behind,
# fat alignment is bounded; tests/hostile/hostile_unpack_atomic.sh: unpack
# is the old folder or the new one after a signal, a file-size limit or a
# failure; tests/hostile/hostile_wheel_tags.sh: 80,000 wheel tags under a
# 60,000-byte name within a memory bound; tests/hostile/hostile_member_names.sh:
# zip and pax members named outside ASCII keep their names in the C locale.
# (The Info.plist cases: hostile_plist.sh.)
check_PROGRAMS += tests/hostile/hostile_lib_write
tests_hostile_hostile_lib_write_SOURCES = tests/hostile/hostile_lib_write.c
tests_hostile_hostile_lib_write_CPPFLAGS = -I$(top_srcdir)/src/lib
tests_hostile_hostile_lib_write_LDADD = src/lib/libmtlbx.la
HOSTILE_ISSUE40 = tests/hostile/hostile_stderr.sh tests/hostile/hostile_output_targets.sh \
	tests/hostile/hostile_unpack_atomic.sh tests/hostile/hostile_wheel_tags.sh \
	tests/hostile/hostile_member_names.sh
TESTS += $(HOSTILE_ISSUE40)
EXTRA_DIST += $(HOSTILE_ISSUE40) tests/hostile_mkquoted.py
