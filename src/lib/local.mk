# The parser library: no curses, no printing, no exit. Its folders are
# layers, each calling only the ones listed before it (checked in CI by
# ../shared/tools/layers.py --order, see .ci/run):
#   container  the metallib container: open, fat slices, header, tags, lists, sources
#   bitcode    the LLVM bitstream, the module blocks, AIR metadata and interfaces
#   checks     what reads both: module hashes, bitcode validation, the file's
#              structure (structure.c: which parts each part has, for the byte
#              layout and the node tree), byte layout (an mtlbx_layout the
#              caller frees)
#   model      what the views share: nodes, fields, labels, MSL text; its caches
#              belong to an mtlbx_model (model.c), not to the file handle
#   compare    the comparison of two libraries
#   json       the dump --json document and the JSON values of fields (jansson
#              and a streaming writer): what dump, find --json, sig --json,
#              diff and textconv print, and libmtlbx's mtlbx_json
#   writer     metallibs written: a library laid out from its values (unpack,
#              pack, pack --from) or from AIR modules and a target (the
#              mtlbx_writer_* API of ../shared/LIBRARY.md); it calls the
#              container, bitcode, checks and json layers (the manifest is
#              rendered through json_stream), and nothing calls it
#              in the library but the api layer and, for atomic_file.c (the tree's one
#              atomic write: every rename into place), src/program's safe_write
#   gate       the release gate: what `mtlbx check` finds in one opened
#              file and the --os targets it holds libraries to, the folder
#              walk, archive members (libarchive, loaded with dlopen) and
#              Mach-O sections, what packages declare (wheel tags, an
#              Info.plist read with libplist), as values (the program's
#              check and mtlbx_gate_* share it)
#   api        the installed library's face (LIBRARY.md): <mtlbx.h>'s one
#              handle over everything below (api/local.mk)
#
# libmtlbx_private.la is a libtool convenience library of every layer but
# api: the program and the tests link it and use the internal API, each
# file including the headers of the layers it uses (container/file.h,
# container/functions.h, bitcode/interface.h, checks/requirements.h, model/model.h ...), none of them
# installed. The installed libmtlbx.la is the api layer over it.

noinst_LTLIBRARIES += src/lib/libmtlbx_private.la
src_lib_libmtlbx_private_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/src/lib $(LIBGCRYPT_CFLAGS) $(LIBARCHIVE_CFLAGS) \
	$(JANSSON_CFLAGS) $(LIBPLIST_CFLAGS)
# Each file compiled once, position-independent, for every use (libtool
# would compile it twice: with and without -fPIC).
src_lib_libmtlbx_private_la_CFLAGS = $(AM_CFLAGS) -prefer-pic
src_lib_libmtlbx_private_la_SOURCES = \
	src/lib/container/types.h \
	src/lib/container/file.h \
	src/lib/container/diagnostics.h \
	src/lib/container/header.h \
	src/lib/container/functions.h \
	src/lib/container/metadata.h \
	src/lib/container/sources.h \
	src/lib/container/value_names.h \
	src/lib/container/target_names.h \
	src/lib/container/escape.h \
	src/lib/container/nouns.h \
	src/lib/container/digits.h \
	src/lib/container/textf.h \
	src/lib/container/grow.h \
	src/lib/container/le_read.h \
	src/lib/container/span.h \
	src/lib/container/library.h \
	src/lib/container/file_handle.h \
	src/lib/container/lazy_table.h \
	src/lib/container/parse.h \
	src/lib/container/tag_walk.h \
	src/lib/container/cursor.h \
	src/lib/container/diag_list.h \
	src/lib/container/file_read.h \
	src/lib/container/report.h \
	src/lib/container/hex.h \
	src/lib/container/lower_bound.h \
	src/lib/container/archive.c \
	src/lib/container/archive_dl.c \
	src/lib/container/archive_dl.h \
	src/lib/container/diag.c \
	src/lib/container/dup_printf.c \
	src/lib/container/dup_printf.h \
	src/lib/container/dynamic.c \
	src/lib/container/escape.c \
	src/lib/container/fat.c \
	src/lib/container/gpu_slice.c \
	src/lib/container/gpu_slice.h \
	src/lib/container/file.c \
	src/lib/container/cpus.c \
	src/lib/container/file_release.c \
	src/lib/container/read_window.c \
	src/lib/container/functions.c \
	src/lib/container/lazy_table.c \
	src/lib/container/header.c \
	src/lib/container/header_ext.c \
	src/lib/container/library.c \
	src/lib/container/macho.c \
	src/lib/container/macho.h \
	src/lib/container/metadata.c \
	src/lib/container/modules.c \
	src/lib/container/nouns.c \
	src/lib/container/reflection.c \
	src/lib/container/sections.c \
	src/lib/container/sources.c \
	src/lib/container/tags.c \
	src/lib/container/textf.c \
	src/lib/container/values.c \
	src/lib/bitcode/arena.h \
	src/lib/bitcode/bitcode.h \
	src/lib/bitcode/demangle.h \
	src/lib/bitcode/interface.h \
	src/lib/bitcode/interface_reader.h \
	src/lib/bitcode/bitstream.h \
	src/lib/bitcode/air_interface.c \
	src/lib/bitcode/abbrev_cache.c \
	src/lib/bitcode/air_metadata.c \
	src/lib/bitcode/arena.c \
	src/lib/bitcode/bitcode.c \
	src/lib/bitcode/bitcode_triple.c \
	src/lib/bitcode/function_triples.c \
	src/lib/bitcode/function_triples.h \
	src/lib/bitcode/bitstream.c \
	src/lib/bitcode/blockinfo_cache.c \
	src/lib/bitcode/demangle.c \
	src/lib/bitcode/interface_reader.c \
	src/lib/checks/byte_layout.h \
	src/lib/checks/os.h \
	src/lib/checks/requirements.h \
	src/lib/checks/deployment.h \
	src/lib/checks/os_spec.h \
	src/lib/checks/os_gate.h \
	src/lib/checks/load_stamps.h \
	src/lib/checks/validate.h \
	src/lib/checks/hash.h \
	src/lib/checks/sha256.h \
	src/lib/checks/hash.c \
	src/lib/checks/interface_check.c \
	src/lib/checks/layout.c \
	src/lib/checks/layout_entries.c \
	src/lib/checks/layout_entries.h \
	src/lib/checks/layout_gpu.c \
	src/lib/checks/layout_gpu.h \
	src/lib/checks/structure.c \
	src/lib/checks/structure.h \
	src/lib/checks/sha256.c \
	src/lib/checks/module_check.c \
	src/lib/checks/requirements.c \
	src/lib/checks/load_stamps.c \
	src/lib/checks/deployment.c \
	src/lib/checks/platforms.c \
	src/lib/checks/claims_check.c \
	src/lib/checks/os_spec.c \
	src/lib/checks/os_gate.c \
	src/lib/checks/requires_text.c \
	src/lib/checks/requires_text.h \
	src/lib/model/model.h \
	src/lib/model/msl.h \
	src/lib/model/names.h \
	src/lib/model/source_locate.h \
	src/lib/model/node.h \
	src/lib/model/field_emit.c \
	src/lib/model/fields.c \
	src/lib/model/fields_gpu.c \
	src/lib/model/fields_iface.c \
	src/lib/model/fields_reflection.c \
	src/lib/model/fields_tag.c \
	src/lib/model/iface_cache.c \
	src/lib/model/model.c \
	src/lib/model/msl_decl.c \
	src/lib/model/name_forms.c \
	src/lib/model/name_match.h \
	src/lib/model/name_resolve.c \
	src/lib/model/name_suggest.c \
	src/lib/model/node.c \
	src/lib/model/node_arena.c \
	src/lib/model/node_diags.c \
	src/lib/model/source_locate.c \
	src/lib/compare/compare.h \
	src/lib/compare/compare.c \
	src/lib/compare/compare_iface.c \
	src/lib/compare/compare_names.h \
	src/lib/compare/compare_names.c \
	src/lib/compare/compare_scan.h \
	src/lib/compare/compare_scan.c \
	src/lib/writer/writer.h \
	src/lib/writer/writer_internal.h \
	src/lib/writer/writer_model.h \
	src/lib/writer/atomic_file.c \
	src/lib/writer/atomic_file.h \
	src/lib/writer/air_module.c \
	src/lib/writer/describe.c \
	src/lib/writer/files.c \
	src/lib/writer/layout.c \
	src/lib/writer/manifest.h \
	src/lib/writer/manifest_claims.c \
	src/lib/writer/manifest_read.c \
	src/lib/writer/manifest_scan.c \
	src/lib/writer/manifest_scan.h \
	src/lib/writer/manifest_values.c \
	src/lib/writer/manifest_write.c \
	src/lib/writer/model.c \
	src/lib/writer/output.c \
	src/lib/writer/select.c \
	src/lib/writer/sources_build.c \
	src/lib/writer/targets.c \
	src/lib/writer/writer_api.c \
	src/lib/json/dump_json.c \
	src/lib/json/dump_json.h \
	src/lib/json/gpu_json.c \
	src/lib/json/gpu_json.h \
	src/lib/json/interface_json.c \
	src/lib/json/interface_json.h \
	src/lib/json/interface_stream.c \
	src/lib/json/interface_stream.h \
	src/lib/json/json_more.c \
	src/lib/json/json_more.h \
	src/lib/json/json_stream.c \
	src/lib/json/json_stream.h \
	src/lib/json/layout_json.c \
	src/lib/json/layout_json.h \
	src/lib/json/values_json.c \
	src/lib/json/values_json.h \
	src/lib/gate/gate.h \
	src/lib/gate/check_file.c \
	src/lib/gate/content.c \
	src/lib/gate/os_targets.c \
	src/lib/gate/archive_members.c \
	src/lib/gate/archive_members.h \
	src/lib/gate/declared_gate.c \
	src/lib/gate/declared_gate.h \
	src/lib/gate/declared_os.c \
	src/lib/gate/declared_os.h \
	src/lib/gate/expect.c \
	src/lib/gate/expect.h \
	src/lib/gate/gate_run.c \
	src/lib/gate/gate_run.h \
	src/lib/gate/info_plist.c \
	src/lib/gate/info_plist.h \
	src/lib/gate/macho_members.c \
	src/lib/gate/macho_members.h \
	src/lib/gate/member_names.c \
	src/lib/gate/member_names.h \
	src/lib/gate/member_reader.h \
	src/lib/gate/tree_walk.c \
	src/lib/gate/tree_walk.h

# The requirement tables are data/requirements.tsv, the one copy of them:
# compiled in through this generated header (tools/requirements-table.awk).
nodist_src_lib_libmtlbx_private_la_SOURCES = src/lib/requirements_table.h
BUILT_SOURCES = src/lib/requirements_table.h
CLEANFILES += src/lib/requirements_table.h
EXTRA_DIST += data/requirements.tsv tools/requirements-table.awk
src/lib/requirements_table.h: $(top_srcdir)/data/requirements.tsv $(top_srcdir)/tools/requirements-table.awk
	$(AM_V_GEN)$(MKDIR_P) src/lib && \
	$(AWK) -f $(top_srcdir)/tools/requirements-table.awk $(top_srcdir)/data/requirements.tsv > $@.tmp && \
	mv $@.tmp $@
# Also for a build of one target (BUILT_SOURCES covers all, check, install);
# named through a variable, which automake leaves to make.
requirements_object = src/lib/checks/libmtlbx_private_la-requirements.lo
$(requirements_object): src/lib/requirements_table.h

# What every program linking the parser's internal API needs
MTLBX_LIBS = src/lib/libmtlbx_private.la $(LIBGCRYPT_LIBS) $(JANSSON_LIBS) $(DL_LIBS) $(BZ2_LIBS) $(DEMANGLE_LIBS) $(UNISTRING_LIBS) $(LIBPLIST_LIBS)

include src/lib/api/local.mk
