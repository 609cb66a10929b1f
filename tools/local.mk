# The fixture builder: tools/mkfixtures.py writes data/sample.metallib and
# tests/fixtures/* from hand-written LLVM IR (tools/fixtures/). The outputs
# are committed so that building and testing need neither Python nor LLVM;
# tests/lib/container/fixtures_reproducible.sh checks they are still what it writes.
# (data/sample.metallib itself is distributed by dist_pkgdata_DATA.)

fixture_metallibs = \
	tests/fixtures/dylib-v129.metallib \
	tests/fixtures/empty.metallib \
	tests/fixtures/fat.metallib \
	tests/fixtures/hsrc-v125.metallib \
	tests/fixtures/legacy-v122-ios.metallib \
	tests/fixtures/nomdsz-v123.metallib \
	tests/fixtures/unknown-tags.metallib

fixture_expected = \
	$(fixture_metallibs:=.expected.json) \
	tests/fixtures/sample.metallib.expected.json

fixture_generator = \
	tools/mkfixtures.py \
	tools/mtlbwriter.py \
	tools/fixtures/compute_main.ll \
	tools/fixtures/dylib_add.ll \
	tools/fixtures/dylib_scale.ll \
	tools/fixtures/fragment_main.ll \
	tools/fixtures/intersect_tri.ll \
	tools/fixtures/legacy_fragment.ll \
	tools/fixtures/legacy_kernel.ll \
	tools/fixtures/legacy_vertex.ll \
	tools/fixtures/mac11_fragment.ll \
	tools/fixtures/mac11_kernel.ll \
	tools/fixtures/mesh_main.ll \
	tools/fixtures/object_main.ll \
	tools/fixtures/patch_vertex.ll \
	tools/fixtures/vertex_main.ll \
	tools/fixtures/visible_fn.ll \
	tools/fixtures/filters.metal \
	tools/fixtures/sample_shaders.metal \
	tools/fixtures/sample_common.h

EXTRA_DIST += $(fixture_metallibs) $(fixture_expected) $(fixture_generator) \
	tests/fixtures/README.md tests/lib/container/fixtures_reproducible.sh

TESTS += tests/lib/container/fixtures_reproducible.sh

# The layer check CI runs on its build (needs ../shared/tools/layers.py).
EXTRA_DIST += tools/check_layers.sh
