# libmtlbx: the installed library (LIBRARY.md), the api layer over the
# convenience library of the layers below (src/lib/local.mk). Its one
# header is <mtlbx.h> (src/lib/mtlbx.h); only the names libmtlbx.sym lists
# are exported (libtool turns the list into a version script, or an
# exported-symbols list on macOS), so none of the internal ones, with or
# without the mtlbx_ prefix, reaches a host process.
lib_LTLIBRARIES += src/lib/libmtlbx.la
include_HEADERS = src/lib/mtlbx.h
src_lib_libmtlbx_la_SOURCES = \
	src/lib/api/handle.h \
	src/lib/api/handle.c \
	src/lib/api/errors.c \
	src/lib/api/pool.h \
	src/lib/api/pool.c \
	src/lib/api/values.h \
	src/lib/api/values.c \
	src/lib/api/getters.c \
	src/lib/api/codes.c \
	src/lib/api/sources.c \
	src/lib/api/slices.c \
	src/lib/api/findings.c \
	src/lib/api/checks.c \
	src/lib/api/writer_from.c \
	src/lib/api/gate.c \
	src/lib/api/json.c
src_lib_libmtlbx_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/src/lib $(JANSSON_CFLAGS)
src_lib_libmtlbx_la_CFLAGS = $(AM_CFLAGS) -prefer-pic
src_lib_libmtlbx_la_LIBADD = src/lib/libmtlbx_private.la $(LIBGCRYPT_LIBS) $(JANSSON_LIBS) $(DL_LIBS) $(BZ2_LIBS) $(DEMANGLE_LIBS) \
	$(UNISTRING_LIBS) $(LIBPLIST_LIBS)
src_lib_libmtlbx_la_LDFLAGS = -version-info $(MTLBX_LT_VERSION_INFO) -no-undefined \
	-export-symbols $(srcdir)/src/lib/api/libmtlbx.sym
EXTRA_src_lib_libmtlbx_la_DEPENDENCIES = src/lib/api/libmtlbx.sym
EXTRA_DIST += src/lib/api/libmtlbx.sym

# mtlbx.pc for pkg-config (%NAME% in the template: configure would replace
# @NAME@ in these rules too), written at install time with the directories
# of that install (so that `make install prefix=P` gives a P/lib/pkgconfig/
# mtlbx.pc naming P). Static linking needs what the library links against.
pkgconfigdir = $(libdir)/pkgconfig
MTLBX_PC_REQUIRES = libgcrypt jansson libplist-2.0
MTLBX_PC_LIBS = $(BZ2_LIBS) $(DL_LIBS) $(DEMANGLE_LIBS) $(UNISTRING_LIBS) $(LIBS)
EXTRA_DIST += src/lib/api/mtlbx.pc.in
install-mtlbx-pc:
	$(MKDIR_P) '$(DESTDIR)$(pkgconfigdir)'
	sed -e 's|%prefix%|$(prefix)|' -e 's|%exec_prefix%|$(exec_prefix)|' \
	    -e 's|%libdir%|$(libdir)|' -e 's|%includedir%|$(includedir)|' -e 's|%VERSION%|$(VERSION)|' \
	    -e 's|%MTLBX_PC_REQUIRES%|$(MTLBX_PC_REQUIRES)|' -e 's|%MTLBX_PC_LIBS%|$(strip $(MTLBX_PC_LIBS))|' \
	    '$(srcdir)/src/lib/api/mtlbx.pc.in' > '$(DESTDIR)$(pkgconfigdir)/mtlbx.pc.tmp'
	mv '$(DESTDIR)$(pkgconfigdir)/mtlbx.pc.tmp' '$(DESTDIR)$(pkgconfigdir)/mtlbx.pc'
uninstall-mtlbx-pc:
	rm -f '$(DESTDIR)$(pkgconfigdir)/mtlbx.pc'
.PHONY: install-mtlbx-pc uninstall-mtlbx-pc

# The installed static archive, made one relocatable object (ld -r) whose
# only global names are libmtlbx.sym's (objcopy --keep-global-symbols): a
# program that links libmtlbx statically gets none of the internal names
# either, as one that loads the shared library gets none. Where objcopy is
# missing (not GNU binutils) the archive stays as libtool made it, and the
# internal names are in it.
install-static-localized:
	@a='$(DESTDIR)$(libdir)/libmtlbx.a'; \
	if test -f "$$a" && test -n '$(OBJCOPY)'; then \
	  t=`mktemp -d` && \
	  dup=`$(AR) t "$$a" | sort | uniq -d`; \
	  test -z "$$dup" || { echo "libmtlbx.a: two members named $$dup: ar x cannot take it apart" >&2; exit 1; }; \
	  (cd "$$t" && $(AR) x "$$a" && $(LD) -r -o libmtlbx.o `$(AR) t "$$a"` && \
	   $(OBJCOPY) --keep-global-symbols='$(abs_srcdir)/src/lib/api/libmtlbx.sym' libmtlbx.o && \
	   rm -f "$$a.tmp" && $(AR) rc "$$a.tmp" libmtlbx.o && $(RANLIB) "$$a.tmp" && mv "$$a.tmp" "$$a"); \
	  st=$$?; rm -rf "$$t"; exit $$st; \
	fi
.PHONY: install-static-localized
