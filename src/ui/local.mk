# The interactive explorer (ncurses). Only this directory includes curses.
# The pure parts (layout, row, hex and text formatting, key table, query
# parsing, line editing) need no terminal and are unit-tested on their own.
noinst_LIBRARIES += src/ui/libmtlbxui.a
src_ui_libmtlbxui_a_CPPFLAGS = $(AM_CPPFLAGS) $(NCURSES_CFLAGS) -I$(top_srcdir)/src/program
src_ui_libmtlbxui_a_SOURCES = \
	src/ui/explorer.h \
	src/ui/core/core.h \
	src/ui/core/ex_file.c \
	src/ui/core/exstate.c \
	src/ui/core/history.c \
	src/ui/core/job.c \
	src/ui/core/job.h \
	src/ui/core/marks.c \
	src/ui/core/show_files.c \
	src/ui/core/view.c \
	src/ui/core/view.h \
	src/ui/core/view_list.h \
	src/ui/loop/dispatch.c \
	src/ui/loop/explorer.c \
	src/ui/loop/frame.c \
	src/ui/loop/loop.h \
	src/ui/loop/views.c \
	src/ui/model/fnfilter.c \
	src/ui/model/fnfilter.h \
	src/ui/model/gpu_code.c \
	src/ui/model/gpu_code.h \
	src/ui/model/ftable.c \
	src/ui/model/ftable_marks.c \
	src/ui/model/ftable.h \
	src/ui/model/funcview.c \
	src/ui/model/funcview.h \
	src/ui/model/iface_table.c \
	src/ui/model/iface_table.h \
	src/ui/model/rows.c \
	src/ui/model/rows.h \
	src/ui/model/rows_expand_all.c \
	src/ui/model/search.h \
	src/ui/model/search_results.c \
	src/ui/term/keys.c \
	src/ui/term/keys.h \
	src/ui/term/term.c \
	src/ui/term/term.h \
	src/ui/text/hexfmt.c \
	src/ui/text/hexfmt.h \
	src/ui/text/hl.h \
	src/ui/text/hl_llvm.c \
	src/ui/text/hl_msl.c \
	src/ui/text/keylog.c \
	src/ui/text/keylog.h \
	src/ui/text/layout.c \
	src/ui/text/layout.h \
	src/ui/text/lineedit.c \
	src/ui/text/lineedit.h \
	src/ui/text/osc52.c \
	src/ui/text/osc52.h \
	src/ui/text/pathcomplete.c \
	src/ui/text/pathcomplete.h \
	src/ui/text/query.c \
	src/ui/text/query.h \
	src/ui/text/rowfmt.c \
	src/ui/text/rowfmt.h \
	src/ui/text/textfmt.c \
	src/ui/text/textfmt.h \
	src/ui/text/textsearch.c \
	src/ui/text/textsearch.h \
	src/ui/text/wrap.c \
	src/ui/text/wrap.h \
	src/ui/verbs/actions.c \
	src/ui/verbs/clipboard.c \
	src/ui/verbs/diag_view.c \
	src/ui/verbs/extract_all.c \
	src/ui/verbs/source.c \
	src/ui/verbs/verbs.h \
	src/ui/verbs/write_file.c \
	src/ui/verbs/write_library.c \
	src/ui/views/bytes/bytes.h \
	src/ui/views/bytes/bytes_state.c \
	src/ui/views/bytes/bytes_view.c \
	src/ui/views/bytes/bytes_view.h \
	src/ui/views/bytes/detail_panel.c \
	src/ui/views/bytes/expand_all.c \
	src/ui/views/bytes/filter.c \
	src/ui/views/bytes/function_step.c \
	src/ui/views/bytes/hex_cursor.c \
	src/ui/views/bytes/hex_panel.c \
	src/ui/views/bytes/problems.c \
	src/ui/views/bytes/search.c \
	src/ui/views/bytes/select_node.c \
	src/ui/views/bytes/tree_panel.c \
	src/ui/views/bytes/verbs.c \
	src/ui/views/compare/compare_view.c \
	src/ui/views/compare/compare_view.h \
	src/ui/views/folder/folder_view.c \
	src/ui/views/folder/folder_view.h \
	src/ui/views/functions/functions_view.c \
	src/ui/views/functions/functions_view.h \
	src/ui/views/members/members_view.c \
	src/ui/views/members/members_view.h \
	src/ui/views/page/page_view.c \
	src/ui/views/page/page_view.h \
	src/ui/views/release/release_view.c \
	src/ui/views/release/release_view.h \
	src/ui/views/text/text_view.c \
	src/ui/views/text/text_view.h \
	src/ui/widgets/list.c \
	src/ui/widgets/list.h \
	src/ui/widgets/list_place.c \
	src/ui/widgets/pager.c \
	src/ui/widgets/pager.h \
	src/ui/widgets/prompt.c \
	src/ui/widgets/prompt.h \
	src/ui/widgets/search.c \
	src/ui/widgets/search.h \
	src/ui/work/background.h \
	src/ui/work/folder_scan.c \
	src/ui/work/folder_scan.h \
	src/ui/work/folder_survey.c \
	src/ui/work/hasher.c \
	src/ui/work/hasher.h \
	src/ui/work/ifacer.c \
	src/ui/work/ifacer.h

# The design: what each folder is, how to add a view.
EXTRA_DIST += src/ui/README.md

# What the mtlbx binary links for the explorer (before $(MTLBX_LIBS)).
MTLBX_UI_LIBS = src/ui/libmtlbxui.a $(NCURSES_LIBS)

# Prints the key table as man-page or Markdown text, to keep the KEYS
# sections of man/mtlbx.1 and README.md in step with the table.
noinst_PROGRAMS += src/ui/keydoc
src_ui_keydoc_SOURCES = src/ui/keydoc.c
src_ui_keydoc_CPPFLAGS = $(AM_CPPFLAGS) $(NCURSES_CFLAGS)
src_ui_keydoc_LDADD = src/ui/libmtlbxui.a $(MTLBX_PROGRAM_LIBS)
