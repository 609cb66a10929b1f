# The Python module `mtlbx` (ctypes over the installed libmtlbx; no
# compiler at import), installed into the site directory of the Python
# configure found, for the prefix (configure.ac says which directory).
# make install writes mtlbx/_paths.py beside it: the directory libmtlbx
# went to and its file name, so that the module loads the very library it
# was installed with, for any prefix.
# py.typed marks the module as typed (PEP 561): type checkers read its
# annotations.
MTLBX_PYTHON_FILES = python/mtlbx/__init__.py python/mtlbx/_native.py python/mtlbx/_errors.py \
	python/mtlbx/_handle.py python/mtlbx/_file.py python/mtlbx/_library.py python/mtlbx/_slices.py python/mtlbx/_writer.py \
	python/mtlbx/_gate.py
EXTRA_DIST += $(MTLBX_PYTHON_FILES) python/mtlbx/py.typed
# pip install . (README: Installing): setup.py builds libmtlbx with this
# tree's configure and bundles it inside the package.
EXTRA_DIST += pyproject.toml setup.py
if HAVE_PYTHON
pkgpython_PYTHON = $(MTLBX_PYTHON_FILES)
pkgpython_DATA = python/mtlbx/py.typed

install-python-paths:
	$(MKDIR_P) '$(DESTDIR)$(pkgpythondir)'
	{ echo '# Written by make install: where libmtlbx was installed.'; \
	  echo 'LIBDIR = "$(libdir)"'; \
	  echo 'SONAME = "$(MTLBX_SONAME_FILE)"'; } > '$(DESTDIR)$(pkgpythondir)/_paths.py'
uninstall-python-paths:
	rm -f '$(DESTDIR)$(pkgpythondir)/_paths.py'
else
install-python-paths:
uninstall-python-paths:
endif
.PHONY: install-python-paths uninstall-python-paths
