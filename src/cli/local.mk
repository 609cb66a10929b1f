# The mtlbx program: the command line (src/cli) and the explorer (src/ui)
# over the parser library. Libraries go in LDADD, in dependency order.
# The commands live in a library so that src/cli/cmddoc (the man page and
# README generator) links the same command table.
#
# src/cli itself holds the driver (the command table, the option parser,
# what every command shares); each family of commands has a folder:
#   inspect/  info, ls, dump, sig, find: reading one library
#   gate/     check and its options (--os, --expect, --os declared)
#   diff/     diff and textconv: two libraries or releases side by side
#   write/    pack, thin, unpack: libraries written
#   pullout/  extract, sources, src, dis: bytes pulled out of a library
include src/cli/pullout/local.mk

noinst_LIBRARIES += src/cli/libmtlbxcli.a
src_cli_libmtlbxcli_a_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS)
src_cli_libmtlbxcli_a_SOURCES = \
	src/cli/commands.h \
	src/cli/cli_args.c \
	src/cli/cmdline.c src/cli/cmdline.h \
	src/cli/cmdtable.c \
	src/cli/common.c \
	src/cli/names.c \
	src/cli/stdout_errno.c \
	src/cli/inspect/dump.c \
	src/cli/inspect/find.c \
	src/cli/inspect/gpu_text.c \
	src/cli/inspect/gpu_text.h \
	src/cli/inspect/info.c \
	src/cli/inspect/ls.c \
	src/cli/inspect/sig.c \
	src/cli/gate/check.c \
	src/cli/gate/check_report.c \
	src/cli/gate/check_report.h \
	src/cli/gate/os_option.c \
	src/cli/gate/os_option.h \
	src/cli/diff/diff.c \
	src/cli/diff/diff_render.c \
	src/cli/diff/diff_render.h \
	src/cli/diff/diff_tree.c \
	src/cli/diff/textconv.c \
	src/cli/write/pack.c \
	src/cli/write/thin.c \
	src/cli/write/unpack.c \
	$(MTLBX_PULLOUT_SOURCES)
MTLBX_CLI_LIBS = src/cli/libmtlbxcli.a

bin_PROGRAMS += src/mtlbx
src_mtlbx_SOURCES = src/main.c
src_mtlbx_LDADD = $(MTLBX_CLI_LIBS) $(MTLBX_UI_LIBS) $(MTLBX_PROGRAM_LIBS) $(MTLBX_LIBS) $(JANSSON_LIBS)

# Prints the command table as the man page SYNOPSIS or the README's command
# table; tests/cli/cli_doc.sh checks both documents match it.
noinst_PROGRAMS += src/cli/cmddoc
src_cli_cmddoc_SOURCES = src/cli/cmddoc.c
src_cli_cmddoc_LDADD = $(MTLBX_CLI_LIBS) $(MTLBX_PROGRAM_LIBS) $(MTLBX_LIBS) $(JANSSON_LIBS)
