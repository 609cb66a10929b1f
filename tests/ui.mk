# The explorer's tests. Unit tests cover the parts that need no terminal
# (layout, hex rows, text escaping, key table, tree rows, query parsing,
# line editing); the explorer_*.sh scripts drive the real binary in tmux
# and skip (77) only when tmux is missing.
if HAVE_CRITERION
check_PROGRAMS += tests/test_ui
tests_test_ui_SOURCES = \
	tests/test_ui_hexfmt.c \
	tests/test_ui_hl.c \
	tests/test_ui_keys.c \
	tests/test_ui_layout.c \
	tests/test_ui_lineedit.c \
	tests/test_ui_pathcomplete.c \
	tests/test_ui_query.c \
	tests/test_ui_readable.c \
	tests/test_ui_rowfmt.c \
	tests/test_ui_rows.c \
	tests/test_ui_textfmt.c \
	tests/test_ui_ftable.c
tests_test_ui_CPPFLAGS = $(AM_CPPFLAGS) $(CRITERION_CFLAGS) $(NCURSES_CFLAGS) -I$(top_srcdir)/src/ui
tests_test_ui_LDADD = src/ui/libmtlbxui.a $(MTLBX_LIBS) $(NCURSES_LIBS) $(CRITERION_LIBS)
TESTS += tests/test_ui
endif

EXPLORER_TESTS = \
	tests/explorer_navigate.sh \
	tests/explorer_actions.sh \
	tests/explorer_terminal.sh \
	tests/explorer_corpus.sh \
	tests/explorer_interface.sh \
	tests/explorer_first_hour.sh \
	tests/explorer_fluent.sh \
	tests/explorer_layout.sh \
	tests/explorer_functions.sh \
	tests/explorer_columns.sh \
	tests/explorer_textview.sh \
	tests/explorer_folder_survey.sh
TESTS += $(EXPLORER_TESTS)
EXTRA_DIST += $(EXPLORER_TESTS) tests/explorer_lib.sh
