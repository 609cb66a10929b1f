# Tests of the native bitcode reader and the AIR interface decoder
# (src/lib/bitstream.c, bitcode.c, air_metadata.c, air_interface.c).
# Included by tests/local.mk.
#   test_interface         the sample's and fixtures' interfaces, and hostile
#                          bitstreams built in the test (bitwriter.c), every
#                          shape of TYPE table an argument's address space
#                          comes from (the same writer), and
#                          the interface reader on 2,000 functions sharing
#                          one module (tests/hostile_mkrunaway.py)
#   test_interface_corpus  every function of every corpus library against
#                          llvm-dis, each argument's address space against
#                          its `define` line's parameter type (skips, 77,
#                          without the corpus or llvm-dis)
if HAVE_CRITERION
check_PROGRAMS += tests/lib/bitcode/test_interface tests/lib/bitcode/test_interface_corpus
tests_lib_bitcode_test_interface_SOURCES = tests/lib/bitcode/test_interface.c tests/lib/bitcode/test_interface_hostile.c \
	tests/lib/bitcode/test_interface_reader.c tests/lib/bitcode/test_interface_address_space.c \
	tests/bitwriter.c tests/bitwriter.h
tests_lib_bitcode_test_interface_CPPFLAGS = $(TEST_CPPFLAGS)
tests_lib_bitcode_test_interface_LDADD = $(TEST_LIBS)

tests_lib_bitcode_test_interface_corpus_SOURCES = tests/lib/bitcode/test_interface_corpus.c tests/llparse.c tests/llparse.h \
	tests/testenv.c tests/testenv.h
tests_lib_bitcode_test_interface_corpus_CPPFLAGS = $(TEST_CPPFLAGS)
tests_lib_bitcode_test_interface_corpus_LDADD = $(MTLBX_PROGRAM_LIBS) $(TEST_LIBS)

TESTS += tests/lib/bitcode/test_interface tests/lib/bitcode/test_interface_corpus
endif
