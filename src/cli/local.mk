# The mtlbx program: the command line (src/cli) and the explorer (src/ui)
# over the parser library. Libraries go in LDADD, in dependency order.
# The commands live in a library so that src/cli/cmddoc (the man page and
# README generator) links the same command table.
include src/cli/pullout.mk

noinst_LIBRARIES += src/cli/libmtlbxcli.a
src_cli_libmtlbxcli_a_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS)
src_cli_libmtlbxcli_a_SOURCES = \
	src/cli/commands.h \
	src/cli/cli_args.c \
	src/cli/cmdline.c src/cli/cmdline.h \
	src/cli/cmdtable.c \
	src/cli/common.c \
	src/cli/stdout_errno.c \
	src/cli/check.c \
	src/cli/check_report.c \
	src/cli/check_report.h \
	src/cli/expect.c \
	src/cli/expect.h \
	src/cli/dump.c \
	src/cli/find.c \
	src/cli/gpu_text.c \
	src/cli/gpu_text.h \
	src/cli/info.c \
	src/cli/ls.c \
	src/cli/declared_gate.c \
	src/cli/declared_gate.h \
	src/cli/requires_cli.c \
	src/cli/requires_cli.h \
	src/cli/names.c \
	src/cli/sig.c \
	src/cli/diff.c \
	src/cli/diff_render.c \
	src/cli/diff_render.h \
	src/cli/diff_tree.c \
	src/cli/textconv.c \
	src/cli/pack.c \
	src/cli/thin.c \
	src/cli/unpack.c \
	$(MTLBX_PULLOUT_SOURCES)
MTLBX_CLI_LIBS = src/cli/libmtlbxcli.a

bin_PROGRAMS += src/mtlbx
src_mtlbx_SOURCES = src/main.c
src_mtlbx_LDADD = $(MTLBX_CLI_LIBS) $(MTLBX_UI_LIBS) $(MTLBX_UTIL_LIBS) $(MTLBX_LIBS) $(JANSSON_LIBS)

# Prints the command table as the man page SYNOPSIS or the README's command
# table; tests/cli/cli_doc.sh checks both documents match it.
noinst_PROGRAMS += src/cli/cmddoc
src_cli_cmddoc_SOURCES = src/cli/cmddoc.c
src_cli_cmddoc_LDADD = $(MTLBX_CLI_LIBS) $(MTLBX_UTIL_LIBS) $(MTLBX_LIBS) $(JANSSON_LIBS)
