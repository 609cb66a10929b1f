# The mtlbx program: the command line (src/cli) and the explorer (src/ui)
# over the parser library. Libraries go in LDADD, in dependency order.
include src/cli/pullout.mk

bin_PROGRAMS += src/mtlbx
src_mtlbx_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS)
src_mtlbx_SOURCES = \
	src/main.c \
	src/cli/commands.h \
	src/cli/common.c \
	src/cli/check.c \
	src/cli/dump_json.c \
	src/cli/info.c \
	src/cli/json_more.c \
	src/cli/json_more.h \
	src/cli/layout_json.c \
	src/cli/layout_json.h \
	src/cli/ls.c \
	$(MTLBX_PULLOUT_SOURCES)
src_mtlbx_LDADD = $(MTLBX_UI_LIBS) $(MTLBX_UTIL_LIBS) $(MTLBX_LIBS) $(JANSSON_LIBS)
