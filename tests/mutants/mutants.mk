# tests/mutants/mutants.mk - make mutate, included by the top Makefile: the
# mutation score of the suite (tests/mutants/run; see
# tests/mutants/README.md).  Not part of make check; its last run is
# committed as tests/mutants/RESULTS.md.  The mutants of the debug
# kernel boot it: debug-kernel first (built once, then only our modules).

.PHONY: mutate

mutate: all debug-kernel
	tests/mutants/run --results tests/mutants/RESULTS.md
