# How users install and run mtlbx besides make install (issue 43, README
# "Installing" and "In CI"):
#   tests/install/precommit_hook.sh  .pre-commit-hooks.yaml through Debian's
#                                    pre-commit, offline (skips without it)
#   tests/install/action_gate.sh     action.yml's gate step, run as GitHub runs it
#   tests/install/installed_sample.sh  the program finds its sample under the prefix it
#                                    was installed to (prefix=DIR, DESTDIR, moved)
# The Debian packages are built and tried by .ci/run (dpkg-buildpackage,
# lintian, autopkgtest); tests/api/symbols.sh checks debian/libmtlbx1.symbols.
INSTALL_TESTS = \
	tests/install/precommit_hook.sh \
	tests/install/action_gate.sh \
	tests/install/installed_sample.sh
TESTS += $(INSTALL_TESTS)
EXTRA_DIST += $(INSTALL_TESTS) .pre-commit-hooks.yaml action.yml
