# The interactive explorer (ncurses). Only this directory includes curses.
# The pure parts (layout, row, hex and text formatting, key table, query
# parsing, line editing) need no terminal and are unit-tested on their own.
noinst_LIBRARIES += src/ui/libmtlbxui.a
src_ui_libmtlbxui_a_CPPFLAGS = $(AM_CPPFLAGS) $(NCURSES_CFLAGS) -I$(top_srcdir)/src/util
src_ui_libmtlbxui_a_SOURCES = \
	src/ui/explorer.h \
	src/ui/ui.h \
	src/ui/actions.c \
	src/ui/bytes_view.c \
	src/ui/clipboard.c \
	src/ui/detail_panel.c \
	src/ui/diag_view.c \
	src/ui/expand_all.c \
	src/ui/explorer.c \
	src/ui/ex_file.c \
	src/ui/exstate.c \
	src/ui/extract_all.c \
	src/ui/filter.c \
	src/ui/function_step.c \
	src/ui/folder_scan.c src/ui/folder_scan.h \
	src/ui/folder_survey.c \
	src/ui/folder_view.c \
	src/ui/fpage.c \
	src/ui/ftable.c src/ui/ftable.h \
	src/ui/background.h \
	src/ui/functions_home.c \
	src/ui/functions_view.c \
	src/ui/funcview.c src/ui/funcview.h \
	src/ui/hasher.c src/ui/hasher.h \
	src/ui/hex_cursor.c \
	src/ui/hex_panel.c \
	src/ui/hexfmt.c src/ui/hexfmt.h \
	src/ui/history.c \
	src/ui/jumps.c \
	src/ui/iface_table.c src/ui/iface_table.h \
	src/ui/hl.h src/ui/hl_llvm.c src/ui/hl_msl.c \
	src/ui/ifacer.c src/ui/ifacer.h \
	src/ui/job.c src/ui/job.h \
	src/ui/keylog.c src/ui/keylog.h \
	src/ui/keys.c src/ui/keys.h \
	src/ui/layout.c src/ui/layout.h \
	src/ui/lineedit.c src/ui/lineedit.h \
	src/ui/marks.c \
	src/ui/members_view.c \
	src/ui/mouse.c \
	src/ui/osc52.c src/ui/osc52.h \
	src/ui/pathcomplete.c src/ui/pathcomplete.h \
	src/ui/compare_view.c \
	src/ui/release_view.c \
	src/ui/show_files.c \
	src/ui/problems.c \
	src/ui/prompt.c \
	src/ui/query.c src/ui/query.h \
	src/ui/rowfmt.c src/ui/rowfmt.h \
	src/ui/rows.c src/ui/rows.h \
	src/ui/rows_expand_all.c \
	src/ui/search.c src/ui/search.h src/ui/search_results.c \
	src/ui/select_node.c \
	src/ui/source_find.c src/ui/source_find.h \
	src/ui/term.c src/ui/term.h \
	src/ui/textfmt.c src/ui/textfmt.h \
	src/ui/textsearch.c src/ui/textsearch.h \
	src/ui/textview.c \
	src/ui/tree_panel.c \
	src/ui/view.h src/ui/views.c \
	src/ui/wrap.c src/ui/wrap.h \
	src/ui/write_file.c

# What the mtlbx binary links for the explorer (before $(MTLBX_LIBS)).
MTLBX_UI_LIBS = src/ui/libmtlbxui.a $(NCURSES_LIBS)

# Prints the key table as man-page or Markdown text, to keep the KEYS
# sections of man/mtlbx.1 and README.md in step with the table.
noinst_PROGRAMS += src/ui/keydoc
src_ui_keydoc_SOURCES = src/ui/keydoc.c
src_ui_keydoc_CPPFLAGS = $(AM_CPPFLAGS) $(NCURSES_CFLAGS)
src_ui_keydoc_LDADD = src/ui/libmtlbxui.a $(MTLBX_UTIL_LIBS)
