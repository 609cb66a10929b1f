# The commands that pull bytes out of a library: extract (modules),
# sources (embedded source archives) and dis (llvm-dis on a module).
# Included by src/cli/local.mk; they need MTLBX_UTIL_LIBS at link time.
MTLBX_PULLOUT_SOURCES = \
	src/cli/dis.c \
	src/cli/extract.c \
	src/cli/sources_cmd.c \
	src/cli/src_cmd.c
