# The parser library: no curses, no printing, no exit.
noinst_LIBRARIES += src/lib/libmtlbx.a
src_lib_libmtlbx_a_CPPFLAGS = $(AM_CPPFLAGS) $(LIBGCRYPT_CFLAGS) $(LIBARCHIVE_CFLAGS)
src_lib_libmtlbx_a_SOURCES = \
	src/lib/mtlbx.h \
	src/lib/internal.h \
	src/lib/air_interface.c \
	src/lib/air_metadata.c \
	src/lib/arena.c \
	src/lib/arena.h \
	src/lib/archive.c \
	src/lib/bitcode.c \
	src/lib/bitcode.h \
	src/lib/bitstream.c \
	src/lib/bitstream.h \
	src/lib/demangle.c \
	src/lib/compare.c \
	src/lib/compare_iface.c \
	src/lib/diag.c \
	src/lib/dynamic.c \
	src/lib/escape.c \
	src/lib/fat.c \
	src/lib/fields.c \
	src/lib/fields_tag.c \
	src/lib/fields_iface.c \
	src/lib/fields_reflection.c \
	src/lib/file.c \
	src/lib/file_release.c \
	src/lib/functions.c \
	src/lib/hash.c \
	src/lib/header.c \
	src/lib/header_ext.c \
	src/lib/iface_cache.c \
	src/lib/layout.c \
	src/lib/library.c \
	src/lib/metadata.c \
	src/lib/module_check.c \
	src/lib/modules.c \
	src/lib/msl_decl.c \
	src/lib/name_resolve.c \
	src/lib/node.c \
	src/lib/node_arena.c \
	src/lib/node_diags.c \
	src/lib/node.h \
	src/lib/nouns.c \
	src/lib/reflection.c \
	src/lib/sources.c \
	src/lib/source_locate.c \
	src/lib/tags.c \
	src/lib/values.c

# What every program linking the parser needs after libmtlbx.a
MTLBX_LIBS = src/lib/libmtlbx.a $(LIBGCRYPT_LIBS) $(LIBARCHIVE_LIBS) $(BZ2_LIBS) $(DEMANGLE_LIBS)
