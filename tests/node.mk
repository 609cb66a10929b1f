# Unit tests of the node tree and its labels and fields (src/lib/node.c,
# src/lib/fields*.c). Included by tests/local.mk.
if HAVE_CRITERION
check_PROGRAMS += tests/test_node
tests_test_node_SOURCES = tests/test_node.c tests/imagebuf.c tests/imagebuf.h tests/libcheck.h
tests_test_node_CPPFLAGS = $(AM_CPPFLAGS) $(CRITERION_CFLAGS) -I$(top_srcdir)/tests
tests_test_node_LDADD = $(MTLBX_LIBS) $(CRITERION_LIBS)
TESTS += tests/test_node

# A section's children a window at a time (node_window_fill), against the
# built section: a crafted library, the fixtures, the sample, the corpus.
check_PROGRAMS += tests/test_node_window
tests_test_node_window_SOURCES = tests/test_node_window.c tests/imagebuf.c tests/imagebuf.h tests/libcheck.h \
	tests/testenv.c tests/testenv.h
tests_test_node_window_CPPFLAGS = $(AM_CPPFLAGS) $(CRITERION_CFLAGS) -I$(top_srcdir)/tests
tests_test_node_window_LDADD = $(MTLBX_LIBS) $(CRITERION_LIBS)
TESTS += tests/test_node_window

# The MSL declaration text and the demangler (src/lib/msl_decl.c, demangle.c).
check_PROGRAMS += tests/test_msl_decl
tests_test_msl_decl_SOURCES = tests/test_msl_decl.c
tests_test_msl_decl_CPPFLAGS = $(AM_CPPFLAGS) $(CRITERION_CFLAGS) -I$(top_srcdir)/tests
tests_test_msl_decl_LDADD = $(MTLBX_LIBS) $(CRITERION_LIBS)
TESTS += tests/test_msl_decl

# Interface, argument and bitstream block nodes on the sample.
check_PROGRAMS += tests/test_node_iface
tests_test_node_iface_SOURCES = tests/test_node_iface.c
tests_test_node_iface_CPPFLAGS = $(AM_CPPFLAGS) $(CRITERION_CFLAGS)
tests_test_node_iface_LDADD = $(MTLBX_LIBS) $(CRITERION_LIBS)
TESTS += tests/test_node_iface
endif
