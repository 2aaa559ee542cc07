# completions/completions.mk - shell completions for iioctl, included by the
# top-level Makefile (`-include completions/completions.mk`)
#
#   make completions        checks that each script loads in its shell
#   tests/host/completion   the completion tests (the candidates each shell
#                           offers, and fish's own completion of commands)
#
# Nothing is built: the scripts are installed as they are, e.g.
#   completions/iioctl.bash  /usr/share/bash-completion/completions/iioctl
#   completions/_iioctl      /usr/share/zsh/vendor-completions/_iioctl
#   completions/iioctl.fish  /usr/share/fish/vendor_completions.d/iioctl.fish

# the shells (and bash's completion library) that tests/host/completion uses
DEB_PACKAGES += bash-completion zsh fish

.PHONY: completions

completions: deps
	bash -n completions/iioctl.bash
	zsh -n completions/_iioctl
	fish --no-execute completions/iioctl.fish
