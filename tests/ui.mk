# The explorer's tests. Unit tests cover the parts that need no terminal
# (layout, hex rows, text escaping, key table, tree rows, query parsing,
# line editing); the explorer_*.sh scripts drive the real binary in tmux
# and skip (77) only when tmux is missing.
if HAVE_CRITERION
check_PROGRAMS += tests/ui/test_ui
tests_ui_test_ui_SOURCES = \
	tests/ui/test_ui_hexfmt.c \
	tests/ui/test_ui_hl.c \
	tests/ui/test_ui_keys.c \
	tests/ui/test_ui_layout.c \
	tests/ui/test_ui_lineedit.c \
	tests/ui/test_ui_list.c \
	tests/ui/test_ui_pathcomplete.c \
	tests/ui/test_ui_query.c \
	tests/ui/test_ui_readable.c \
	tests/ui/test_ui_rowfmt.c \
	tests/ui/test_ui_rows.c \
	tests/ui/test_ui_textfmt.c \
	tests/ui/test_ui_ftable.c
tests_ui_test_ui_CPPFLAGS = $(AM_CPPFLAGS) $(CRITERION_CFLAGS) $(NCURSES_CFLAGS)
tests_ui_test_ui_LDADD = src/ui/libmtlbxui.a src/program/libmtlbxprogram.a $(MTLBX_LIBS) $(NCURSES_LIBS) $(CRITERION_LIBS)
TESTS += tests/ui/test_ui
endif

EXPLORER_TESTS = \
	tests/ui/explorer_navigate.sh \
	tests/ui/explorer_actions.sh \
	tests/ui/explorer_terminal.sh \
	tests/ui/explorer_corpus.sh \
	tests/ui/explorer_interface.sh \
	tests/ui/explorer_first_hour.sh \
	tests/ui/explorer_fluent.sh \
	tests/ui/explorer_layout.sh \
	tests/ui/explorer_functions.sh \
	tests/ui/explorer_columns.sh \
	tests/ui/explorer_textview.sh \
	tests/ui/explorer_folder_survey.sh \
	tests/ui/explorer_views.sh \
	tests/ui/explorer_slow_jobs.sh \
	tests/ui/explorer_markwrite.sh \
	tests/ui/explorer_new_user.sh \
	tests/ui/explorer_gpu_table.sh
TESTS += $(EXPLORER_TESTS)
EXTRA_DIST += $(EXPLORER_TESTS) tests/explorer_lib.sh tests/mkslowsource.py
