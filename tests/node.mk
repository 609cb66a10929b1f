# Unit tests of the node tree and its labels and fields (src/lib/node.c,
# src/lib/fields*.c). Included by tests/local.mk.
if HAVE_CRITERION
check_PROGRAMS += tests/lib/model/test_node
tests_lib_model_test_node_SOURCES = tests/lib/model/test_node.c tests/imagebuf.c tests/imagebuf.h tests/libcheck.h
tests_lib_model_test_node_CPPFLAGS = $(AM_CPPFLAGS) $(CRITERION_CFLAGS) -I$(top_srcdir)/tests
tests_lib_model_test_node_LDADD = $(MTLBX_LIBS) $(CRITERION_LIBS)
TESTS += tests/lib/model/test_node

# The MSL declaration text and the demangler (src/lib/msl_decl.c, demangle.c).
check_PROGRAMS += tests/lib/model/test_msl_decl
tests_lib_model_test_msl_decl_SOURCES = tests/lib/model/test_msl_decl.c
tests_lib_model_test_msl_decl_CPPFLAGS = $(AM_CPPFLAGS) $(CRITERION_CFLAGS) -I$(top_srcdir)/tests
tests_lib_model_test_msl_decl_LDADD = $(MTLBX_LIBS) $(CRITERION_LIBS)
TESTS += tests/lib/model/test_msl_decl

# Interface, argument and bitstream block nodes on the sample.
check_PROGRAMS += tests/lib/model/test_node_iface
tests_lib_model_test_node_iface_SOURCES = tests/lib/model/test_node_iface.c
tests_lib_model_test_node_iface_CPPFLAGS = $(AM_CPPFLAGS) $(CRITERION_CFLAGS)
tests_lib_model_test_node_iface_LDADD = $(MTLBX_LIBS) $(CRITERION_LIBS)
TESTS += tests/lib/model/test_node_iface
endif
