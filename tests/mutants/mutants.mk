# tests/mutants/mutants.mk - make mutate, included by the top Makefile: the
# mutation score of the suite (tests/mutants/run; see
# tests/mutants/README.md).  Not part of make check; its last run is
# committed as tests/mutants/RESULTS.md.

.PHONY: mutate

mutate: all
	tests/mutants/run --results tests/mutants/RESULTS.md
