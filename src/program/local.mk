# The program's own layer, above the parser library and below both front
# ends (src/cli, src/ui): safe file writing (on the library's atomic_file.c,
# with the signal handlers' registrations; dir_swap: unpack's folder put in
# place whole), running llvm-dis, release pairing (over the library's folder
# walk and archive members: src/lib/gate), changes in words (diff_text). No curses, no parser internals.
noinst_LIBRARIES += src/program/libmtlbxprogram.a
src_program_libmtlbxprogram_a_SOURCES = \
	src/program/fatal_cleanup.c \
	src/program/fatal_cleanup.h \
	src/program/dir_swap.c \
	src/program/dir_swap.h \
	src/program/nocase.c \
	src/program/text_buf.c \
	src/program/text_buf.h \
	src/program/span_release.c \
	src/program/span_release.h \
	src/program/nocase.h \
	src/program/docfmt.c \
	src/program/docfmt.h \
	src/program/diff_text.c \
	src/program/diff_text.h \
	src/program/member_plan.c \
	src/program/member_plan.h \
	src/program/name_set.c \
	src/program/name_set.h \
	src/program/pack_select.c \
	src/program/pack_select.h \
	src/program/run_tool.c \
	src/program/run_tool.h \
	src/program/safe_write.c \
	src/program/safe_write.h \
	src/program/release_pairs.c \
	src/program/release_pairs.h
src_program_libmtlbxprogram_a_CPPFLAGS = $(AM_CPPFLAGS) $(LIBARCHIVE_CFLAGS) $(LIBGCRYPT_CFLAGS) $(JANSSON_CFLAGS) $(LIBPLIST_CFLAGS)

# What the binary (and the explorer's tests) add to LDADD for these helpers;
# they call the parser library (safe_write.c its escaping policy).
MTLBX_PROGRAM_LIBS = src/program/libmtlbxprogram.a $(MTLBX_LIBS) $(DL_LIBS) $(LIBGCRYPT_LIBS) $(UNISTRING_LIBS) $(JANSSON_LIBS) $(LIBPLIST_LIBS)
