# Shell completion for bash and zsh, installed by make install. bash loads
# completions/CMD on demand, so the bash script is installed as "mtlbx".
# tests/completion_{bash,zsh}.sh run both against the real binary.
dist_zshcompletion_DATA = completion/_mtlbx
EXTRA_DIST += completion/mtlbx.bash

install-data-local: install-bash-completion
install-bash-completion:
	$(MKDIR_P) '$(DESTDIR)$(bashcompletiondir)'
	$(INSTALL_DATA) '$(srcdir)/completion/mtlbx.bash' '$(DESTDIR)$(bashcompletiondir)/mtlbx'
uninstall-local:
	rm -f '$(DESTDIR)$(bashcompletiondir)/mtlbx'
.PHONY: install-bash-completion

# pkg-config may name /usr/share/...; distcheck installs under its prefix.
AM_DISTCHECK_CONFIGURE_FLAGS = \
	--with-bash-completion-dir='$$dc_install_base/share/bash-completion/completions' \
	--with-zsh-completion-dir='$$dc_install_base/share/zsh/site-functions'
