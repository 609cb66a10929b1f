# The writer (issue 33, src/lib/writer): unpack, pack and the
# mtlbx_writer_* API. Included by tests/local.mk.
#   tests/lib/writer/test_writer   the API: modules and a target read back by
#                                  the parser, embedded sources, keys, refusals
#   tests/lib/writer/test_describe_stop  reading a library into the model
#                                  reports its progress and stops when asked
#   tests/cli/pack_roundtrip.sh    pack(unpack(X)) == X on the sample and the
#                                  fixtures, each quirk, hostile manifests and names
#   tests/cli/pack_modules.sh      pack --target on the sample's modules and its
#                                  refusals; pack --from
#   tests/cli/pack_corpus.sh       the corpus: round trip of every library, and
#                                  the Apple-built modules packed for their own
#                                  target (skips, 77, without the corpus)
#   tests/cli/pack_claims.sh       pack DIR refuses a manifest whose NAME, TYPE,
#                                  AIR or MSL version its module contradicts;
#                                  --keep-manifest-values packs it as given
if HAVE_CRITERION
check_PROGRAMS += tests/lib/writer/test_writer
tests_lib_writer_test_writer_SOURCES = tests/lib/writer/test_writer.c tests/testenv.c tests/testenv.h
tests_lib_writer_test_writer_CPPFLAGS = $(TEST_CPPFLAGS)
tests_lib_writer_test_writer_LDADD = $(TEST_LIBS)
TESTS += tests/lib/writer/test_writer
check_PROGRAMS += tests/lib/writer/test_describe_stop
tests_lib_writer_test_describe_stop_SOURCES = tests/lib/writer/test_describe_stop.c tests/testenv.c tests/testenv.h
tests_lib_writer_test_describe_stop_CPPFLAGS = $(TEST_CPPFLAGS)
tests_lib_writer_test_describe_stop_LDADD = $(TEST_LIBS)
TESTS += tests/lib/writer/test_describe_stop
endif

WRITER_TESTS = \
	tests/cli/pack_roundtrip.sh \
	tests/cli/pack_modules.sh \
	tests/cli/pack_corpus.sh \
	tests/cli/pack_claims.sh
TESTS += $(WRITER_TESTS)
EXTRA_DIST += $(WRITER_TESTS)
