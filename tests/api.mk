# libmtlbx as an outside program sees it (issue 32, LIBRARY.md), tested
# against the installed files, not the build tree: make check first
# installs the library's files alone (install-library: the shared library
# and its static archive, <mtlbx.h>, mtlbx.pc, mtlbx.3 and the Python
# module) into tests/api/prefix, inside the build tree.
#   tests/api/header.sh        the header alone as C99 and C++, the files, pkg-config
#   tests/api/symbols.sh       exported: exactly <mtlbx.h>'s functions (the shared
#                              library, and the static archive's global names)
#   tests/api/internal_names.sh  the parser library's global mtlbx_ names are the public
#                              ones alone; the internal API is mbx_
#   tests/api/consumer.sh      a C program built from pkg-config's flags alone
#                              agrees with dump --json, sig, check --os and the
#                              gate's check --json --expect on the sample and the
#                              fixtures (consumer_corpus.sh: the corpus)
#   tests/api/writer.sh        the writer (mtlbx_writer_*, writer_consumer.c built the
#                              same way): modules the library reads packed for the
#                              file's target, read back, the bytes `mtlbx pack`
#                              writes; refusals, atomic writes, hostile modules
#                              (writer_corpus.sh: every executable of the corpus)
#   tests/api/readme_examples.sh  the README's C and Python examples, copied out and run
#   tests/api/python.sh        pytest of the module (tests/api/test_mtlbx.py): the
#                              same agreement, the exceptions, hostile files, Writer;
#                              test_gate.py: mtlbx.check against check --json
API_PREFIX = $(abs_top_builddir)/tests/api/prefix
API_TESTS = \
	tests/api/header.sh \
	tests/api/symbols.sh \
	tests/api/internal_names.sh \
	tests/api/consumer.sh \
	tests/api/consumer_corpus.sh \
	tests/api/writer.sh \
	tests/api/writer_corpus.sh \
	tests/api/python.sh \
	tests/api/readme_examples.sh
TESTS += $(API_TESTS)
EXTRA_DIST += $(API_TESTS) tests/api/api_lib.sh tests/api/consumer.c tests/api/writer_consumer.c \
	tests/api/compare_consumer.py \
	tests/api/test_mtlbx.py tests/api/test_gate.py tests/api/hostile_worker.py
AM_TESTS_ENVIRONMENT += \
	MTLBX_API_PREFIX='$(API_PREFIX)'; export MTLBX_API_PREFIX; \
	MTLBX_CC='$(CC)'; export MTLBX_CC; \
	MTLBX_OBJCOPY='$(OBJCOPY)'; export MTLBX_OBJCOPY; \
	MTLBX_PYTHON='$(PYTHON)'; export MTLBX_PYTHON;

# Installed once per change, before the tests run (check_DATA is built
# first); a recursive make of the install targets alone, so nothing lands
# outside the prefix.
check_DATA = tests/api/prefix.stamp
tests/api/prefix.stamp: $(lib_LTLIBRARIES) $(include_HEADERS) $(srcdir)/src/lib/api/mtlbx.pc.in \
		$(srcdir)/src/lib/api/libmtlbx.sym $(srcdir)/man/mtlbx.3 $(srcdir)/python/mtlbx/__init__.py \
		$(srcdir)/python/mtlbx/_native.py $(srcdir)/python/mtlbx/_errors.py $(srcdir)/python/mtlbx/_handle.py \
		$(srcdir)/python/mtlbx/_file.py $(srcdir)/python/mtlbx/_library.py $(srcdir)/python/mtlbx/_writer.py \
		$(srcdir)/python/mtlbx/_gate.py $(srcdir)/python/mtlbx/py.typed
	$(AM_V_GEN)rm -rf tests/api/prefix && $(MKDIR_P) tests/api && \
	$(MAKE) $(AM_MAKEFLAGS) install-library prefix='$(API_PREFIX)' >tests/api/prefix.log 2>&1 || \
	  { cat tests/api/prefix.log; exit 1; }; \
	touch $@
CLEANFILES += tests/api/prefix.stamp tests/api/prefix.log
clean-local: clean-api-prefix
clean-api-prefix:
	rm -rf tests/api/prefix
.PHONY: clean-api-prefix
