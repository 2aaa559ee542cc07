# tests/mutants/mutants.mk - make mutate, included by the top Makefile: the
# mutation score of the suite (tests/mutants/run; see
# tests/mutants/README.md).  Not part of make check; its last run is
# committed as tests/mutants/RESULTS.md.  The mutants of the debug
# and KCSAN kernels boot them: debug-kernel and kcsan-kernel first (each
# built once, then only our modules).

.PHONY: mutate

mutate: all debug-kernel kcsan-kernel
	tests/mutants/run --results tests/mutants/RESULTS.md
