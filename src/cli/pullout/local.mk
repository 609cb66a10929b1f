# The commands that pull bytes out of a library: extract (modules),
# sources (embedded source archives: source_archives.c), src (one
# function's source: function_source.c) and dis (llvm-dis on a module).
# Included by src/cli/local.mk; they need MTLBX_PROGRAM_LIBS at link time.
MTLBX_PULLOUT_SOURCES = \
	src/cli/pullout/dis.c \
	src/cli/pullout/extract.c \
	src/cli/pullout/source_archives.c \
	src/cli/pullout/function_source.c
