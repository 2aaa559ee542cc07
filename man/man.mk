# man/man.mk - the manual pages: build/man/NAME.SECTION from man/NAME.SECTION.scd
#
#   make man          every page (scdoc)
#   man/lint          render and lint them (run from the top; after make man),
#                     and check iioctl(1) against iioctl's --help (after
#                     make cli)
#   make clean-man
#
# Self-contained: `make -f man/man.mk man` works from the top folder, and the
# top-level Makefile includes it (`-include man/man.mk`).  The page date is
# the last commit's (SOURCE_DATE_EPOCH), so a build is reproducible.

# scdoc builds the pages; mandoc, groff and man-db are what man/lint uses.
DEB_PACKAGES += scdoc mandoc groff-base man-db

BUILD ?= build
MAN_SRCS := $(wildcard man/*.scd)
MAN_PAGES := $(patsubst man/%.scd,$(BUILD)/man/%,$(MAN_SRCS))
# the other names of the section 3 pages (man/links): a page each that
# holds ".so man3/PAGE.3", installed with the pages
MAN_LINK_PAGES := $(addprefix $(BUILD)/man/,$(addsuffix .3,\
	$(shell man/links 2>/dev/null | cut -d' ' -f1)))
MAN_PAGES += $(MAN_LINK_PAGES)
MAN_DATE := $(shell git log -1 --format=%ct 2>/dev/null)

.PHONY: man clean-man

release: $(MAN_PAGES)

man: $(MAN_PAGES)

$(BUILD)/man/%: man/%.scd
	@mkdir -p $(@D)
	$(if $(MAN_DATE),SOURCE_DATE_EPOCH=$(MAN_DATE) )scdoc < $< > $@.tmp
	@mv $@.tmp $@

$(MAN_LINK_PAGES): $(wildcard man/*.3.scd) man/links
	@mkdir -p $(@D)
	@page=$$(man/links | awk -v n=$(basename $(@F)) '$$1 == n { print $$2 }'); \
		echo ".so man3/$$page.3" > $@

clean-man:
	rm -rf $(BUILD)/man

clean: clean-man
