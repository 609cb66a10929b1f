# Shared helpers for the command line and the explorer: safe file writing
# (on the library's atomic_file.c, with the signal handlers' registrations;
# dir_swap: unpack's folder put in place whole) and running llvm-dis,
# folder walks, archive members, changes in words (diff_text).
# No curses, no parser internals.
noinst_LIBRARIES += src/util/libmtlbxutil.a
src_util_libmtlbxutil_a_SOURCES = \
	src/util/fatal_cleanup.c \
	src/util/fatal_cleanup.h \
	src/util/dir_swap.c \
	src/util/dir_swap.h \
	src/util/nocase.c \
	src/util/text_buf.c \
	src/util/text_buf.h \
	src/util/span_release.c \
	src/util/span_release.h \
	src/util/nocase.h \
	src/util/docfmt.c \
	src/util/docfmt.h \
	src/util/archive_members.c \
	src/util/archive_members.h \
	src/util/diff_text.c \
	src/util/diff_text.h \
	src/util/macho_members.c \
	src/util/macho_members.h \
	src/util/member_reader.h \
	src/util/declared_os.c \
	src/util/declared_os.h \
	src/util/info_plist.c \
	src/util/info_plist.h \
	src/util/member_names.c \
	src/util/member_names.h \
	src/util/member_plan.c \
	src/util/member_plan.h \
	src/util/name_set.c \
	src/util/name_set.h \
	src/util/pack_select.c \
	src/util/pack_select.h \
	src/util/run_tool.c \
	src/util/run_tool.h \
	src/util/safe_write.c \
	src/util/safe_write.h \
	src/util/release_pairs.c \
	src/util/release_pairs.h \
	src/util/tree_walk.c \
	src/util/tree_walk.h
src_util_libmtlbxutil_a_CPPFLAGS = $(AM_CPPFLAGS) $(LIBARCHIVE_CFLAGS) $(LIBGCRYPT_CFLAGS) $(JANSSON_CFLAGS) $(LIBPLIST_CFLAGS)

# What the binary (and the explorer's tests) add to LDADD for these helpers;
# they call the parser library (safe_write.c its escaping policy).
MTLBX_UTIL_LIBS = src/util/libmtlbxutil.a $(MTLBX_LIBS) $(DL_LIBS) $(LIBGCRYPT_LIBS) $(UNISTRING_LIBS) $(JANSSON_LIBS) $(LIBPLIST_LIBS)
