# Two commands do all the set-up on a fresh machine with Python 3.11 and pip:
#   make book   create .venv, install pinned dependencies, execute every chapter (paper profile,
#               BOOK_JOBS chapters at a time, every finished task kept in the result store
#               build/store) and build the HTML book in book/_build/html
#   make test   create .venv if missing, run the unit tests, execute every chapter at its CI
#               profile through papermill, build that executed book with -n -W --keep-going,
#               then open every page of it in headless Chromium (the browser test)
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV   := .venv
BIN    := $(abspath $(VENV))/bin
STAMP  := $(VENV)/.installed
CONSTRAINTS := requirements/constraints.txt
CI_DIR := build/ci

# Tools from the venv come first (papermill's kernel, jupyter-book, jupytext).
export PATH := $(BIN):$(PATH)
export PIP_CONSTRAINT := $(abspath $(CONSTRAINTS))
export PIP_DISABLE_PIP_VERSION_CHECK := 1
export PYDEVD_DISABLE_FILE_VALIDATION := 1
# One BLAS thread per process: the experiments parallelise over processes (joblib, dask), and a
# multi-threaded OpenBLAS on 2 busy cores made the design solver up to 50x slower (measured).
export OPENBLAS_NUM_THREADS ?= 1
export OMP_NUM_THREADS ?= 1
export MKL_NUM_THREADS ?= 1

# MathJax is served with the book (no CDN): math renders offline and in the browser test. The
# npm registry's tarball, checked against its sha256, unpacked into book/_mathjax/mathjax (ignored
# by git) and copied to the HTML root as mathjax/ (html_extra_path: a _static folder would put
# every MathJax component on every page); _config.yml points Sphinx's mathjax_path at it.
MATHJAX_VERSION := 3.2.2
MATHJAX_SHA256  := 1b9c0a1c44df864e915690558e72adb9cc5203360daefd385084ced3b6c64c09
MATHJAX := book/_mathjax/mathjax/tex-mml-chtml.js

$(MATHJAX):
	@command -v npm >/dev/null || { echo "npm is needed once to fetch MathJax $(MATHJAX_VERSION) from the npm registry" >&2; exit 1; }
	@mkdir -p build/mathjax
	cd build/mathjax && npm pack --silent mathjax@$(MATHJAX_VERSION) >/dev/null
	echo "$(MATHJAX_SHA256)  build/mathjax/mathjax-$(MATHJAX_VERSION).tgz" | sha256sum -c --quiet
	rm -rf build/mathjax/package book/_mathjax/mathjax.tmp && mkdir -p book/_mathjax/mathjax.tmp
	tar -xzf build/mathjax/mathjax-$(MATHJAX_VERSION).tgz -C build/mathjax
	cd build/mathjax/package/es5 && cp -r --parents tex-mml-chtml.js output/chtml input/tex/extensions ui a11y adaptors $(abspath book/_mathjax/mathjax.tmp)
	cp build/mathjax/package/LICENSE book/_mathjax/mathjax.tmp/
	rm -rf book/_mathjax/mathjax && mv book/_mathjax/mathjax.tmp book/_mathjax/mathjax

.PHONY: help venv book notebooks test unit chapters-ci book-ci browser rerun bench dist clean

help:
	@echo "make book    build the HTML book, executing every chapter at the paper profile"
	@echo "make test    unit tests + every chapter at its CI profile + strict book build + browser test"
	@echo "make browser [BOOK_HTML=dir]   open every page of the built book in headless Chromium"
	@echo "make rerun CHAPTER=name [PROFILE=paper] [SET=\"n_runs=5 seed=3\"]   re-execute one chapter"
	@echo "make bench   benchmark scripts (design solver vs cvxpy, compiled kernel)"
	@echo "make ledger-data   record the last build's claims in the package (python -m bai ledger)"
	@echo "make dist    the sdist and the wheel of the library (bai-book) in dist/"

# The pinned packages are installed by uv (itself pinned in the constraints, installed by pip):
# it downloads in parallel and compiles the bytecode on every core (33 s here, where pip took
# 76-100 s on one core). Where uv cannot be installed, pip installs the same pins.
$(STAMP): pyproject.toml $(CONSTRAINTS)
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	@$(VENV)/bin/python -m pip install --quiet uv || echo "uv could not be installed: pip installs the packages"
	if [ -x $(VENV)/bin/uv ]; then \
		$(VENV)/bin/uv pip install --quiet --python $(VENV)/bin/python --compile-bytecode \
			-c $(CONSTRAINTS) --build-constraint $(CONSTRAINTS) -e ".[book,test,dask]"; \
	else $(VENV)/bin/python -m pip install --quiet -c $(CONSTRAINTS) -e ".[book,test,dask]"; fi
	@touch $@

venv: $(STAMP)

# The package's bytecode, written once (incrementally): where PYTHONDONTWRITEBYTECODE is set, as
# on the machines CI runs on, every process that imports bai (the test workers, each chapter's
# kernel, every subprocess of the tests) would otherwise compile its 150 modules again
# (0.35 s each time here). Python reads a .pyc only while its source is unchanged.
.PHONY: bytecode
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q lib/bai > /dev/null

# Launch-button twins: .ipynb (no outputs) next to each MyST notebook; git and Sphinx ignore them.
notebooks: $(STAMP)
	$(BIN)/python scripts/run_chapters.py --twins

# jupyter-book caches executed notebooks by their code cells only: when the library or the data
# shipped inside it (lib/bai/data) change, drop the cache and the Sphinx environment, so that
# every chapter re-executes on the current code. The chapters' experiments keep every finished
# task in the result store BAI_STORE (bai.experiments: keyed by the task's code, the whole
# package, the numerical packages' versions, its seed and parameters), so a re-execution
# recomputes only what changed, and an interrupted build resumes.
LIB_HASH = $(shell find lib -type f \( -name '*.py' -o -name '*.csv' \) -not -path '*/__pycache__/*' | LC_ALL=C sort | xargs cat | sha1sum | cut -c1-16)
BAI_STORE ?= $(abspath build/store)
# chapters executed at a time by `make book` (each uses every core: BAI_N_JOBS to change that)
BOOK_JOBS ?= 2

# First the chapters that jupyter-book's cache lacks are executed, BOOK_JOBS at a time and the
# costliest first, into that cache (scripts/run_chapters.py --cache: jupyter-book's own reader
# and executor); jupyter-book then finds every chapter cached. An edit of prose executes nothing.
book: $(STAMP) bytecode notebooks $(MATHJAX)
	@mkdir -p book/_build
	@if [ "$$(cat book/_build/.lib-hash 2>/dev/null)" != "$(LIB_HASH)" ]; then \
		echo "library or data changed: re-executing every chapter"; \
		rm -rf book/_build/.jupyter_cache book/_build/.doctrees; fi
	@echo "$(LIB_HASH)" > book/_build/.lib-hash   # what is cached from here on ran on this library
	BAI_STORE=$(BAI_STORE) $(BIN)/python scripts/run_chapters.py \
		--cache book/_build/.jupyter_cache --jobs $(BOOK_JOBS)
	BAI_STORE=$(BAI_STORE) $(BIN)/jupyter-book build book -n -W --keep-going
	@echo "book: open book/_build/html/index.html"

# The stages are laid out for 2 cores: the unit tests (a worker per core), the chapters (two at
# a time), then the checks that need the executed chapters or an installed wheel, two at a time
# (make -j2), the longest first: the wheel test (tests/test_wheel.py: build, fresh venv, installs,
# numba compiling in that venv) and the pages (strict build, then the browser test) start;
# whichever ends first takes the verdicts' rebuild, then the claims' mutation test and the BLAS
# kernel's rerun. So the browser test runs on a busy machine every time.
# Each stage's wall and CPU seconds go to TEST_TIMES, printed at the end with the machine's CPU.
export TEST_TIMES ?= $(abspath build/test-times.tsv)
TIMED := bash scripts/timed.sh
test:
	@rm -f $(TEST_TIMES)
	$(TIMED) set-up $(MAKE) venv bytecode
	$(TIMED) unit-tests $(MAKE) unit-tests
	$(TIMED) chapters-ci $(MAKE) chapters-ci
	$(TIMED) checks $(MAKE) -j2 --output-sync=target test-checks
	@echo "make test: seconds per stage on $$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $$(getconf _NPROCESSORS_ONLN) cores" \
		&& awk -F '\t' 'BEGIN { printf "%-16s %6s %6s %3s\n", "stage", "wall", "CPU", "rc" } \
		                 { printf "%-16s %6s %6s %3s\n", $$1, $$2, $$3, $$4 }' $(TEST_TIMES)

.PHONY: test-checks check-wheel check-pages check-verdicts check-claims check-kernels unit-tests
test-checks: check-wheel check-pages check-verdicts check-claims check-kernels
check-wheel: $(STAMP)
	$(TIMED) "  wheel" $(MAKE) wheel
check-pages: $(STAMP)
	$(TIMED) "  book-ci" $(MAKE) book-ci
	$(TIMED) "  browser" $(MAKE) browser BOOK_HTML=$(CI_DIR)/book/_build/html
check-verdicts: $(STAMP)
	$(TIMED) "  verdicts-ci" $(MAKE) verdicts-ci
check-claims: $(STAMP)
	$(TIMED) "  claims-ci" $(MAKE) claims-ci
check-kernels: $(STAMP)
	$(TIMED) "  unit-kernels" $(MAKE) unit-kernels

# One chapter executed again, on two workers beside a busy process, against its first build by
# chapters-ci (one worker): every verdict the same (tests/test_verdicts_everywhere.py).
.PHONY: verdicts-ci
verdicts-ci: $(STAMP)
	BAI_REBUILD_CLAIMS_DIR=$(CI_DIR)/claims $(BIN)/python -m pytest tests/test_verdicts_everywhere.py \
		-q -p no:cacheprovider

# The browser tests (tests/browser) need a built book: `make browser` / `make test` run them.
# The unit tests run on UNIT_WORKERS processes (pytest-xdist; auto = one per core).
UNIT_WORKERS ?= auto
unit: $(STAMP)
	$(MAKE) unit-tests
	$(MAKE) unit-kernels

unit-tests: $(STAMP)
	$(BIN)/python -m pytest tests -q --ignore=tests/browser --ignore=tests/test_claim_mutations.py \
		-m "not wheel and not rebuild" -n $(UNIT_WORKERS)

# The library as a user installs it, and a launch-button twin that installs it itself.
.PHONY: wheel
wheel: $(STAMP)
	$(BIN)/python -m pytest tests/test_wheel.py -q -p no:cacheprovider

# The design solver's tests again under a second OpenBLAS kernel, so that a stopping rule or a
# status that hinges on the last bits of a BLAS kernel cannot slip back in (issue 15: SkylakeX
# failed where Haswell passed). The unit tests ran under the kernel OpenBLAS picks on this CPU;
# scripts/blas_kernels.py names the newest kernel this CPU can execute that is not that one
# (OpenBLAS runs a forced kernel without checking the CPU): Haswell on an AVX-512 machine,
# Sandybridge on an AVX2 one. KERNEL_CORETYPES="A B" forces others. The test that itself runs
# every kernel is not repeated.
KERNEL_CORETYPES ?=
.PHONY: unit-kernels
unit-kernels: $(STAMP)
	@kernels="$(KERNEL_CORETYPES)"; [ -n "$$kernels" ] || kernels=$$($(BIN)/python scripts/blas_kernels.py); \
	test -n "$$kernels" || echo "unit-kernels: no other OpenBLAS x86 kernel to force on this CPU, skipped"; \
	for k in $$kernels; do echo "tests/test_designs.py with OPENBLAS_CORETYPE=$$k"; \
		OPENBLAS_CORETYPE=$$k $(BIN)/python -m pytest tests/test_designs.py -q -p no:cacheprovider \
			-k "not every_blas_kernel"; done

# Executes each chapter with papermill (-p profile ci) into a staged copy of the book, two
# chapters at a time (the ci profile runs one worker per chapter; 2 cores).
chapters-ci: $(STAMP) $(MATHJAX)
	$(BIN)/python scripts/run_chapters.py --profile ci --out $(CI_DIR) --jobs 2

# Every claim the chapters recorded at the ci profile: its measurement moved across its rule's
# boundary flips its verdict; every row states what it detects; printed rows ran under the
# paper's printed reading (tests/test_claim_mutations.py, issue 27).
.PHONY: claims-ci
claims-ci: $(STAMP)
	BAI_MUTATION_CLAIMS_DIR=$(CI_DIR)/claims $(BIN)/python -m pytest tests/test_claim_mutations.py \
		-q -p no:cacheprovider

book-ci: $(STAMP)
	$(BIN)/jupyter-book build $(CI_DIR)/book -n -W --keep-going

# Browser test: serves BOOK_HTML on localhost and opens every page of the ToC in Debian's
# headless Chromium through Playwright (never a browser download); screenshots in SCREENSHOTS.
# install_chromium.sh apt-installs chromium when missing (root or sudo -n); where it cannot, it
# writes why to BROWSER_SKIP and the test skips with that message.
BOOK_HTML   ?= book/_build/html
SCREENSHOTS ?= build/screenshots
BROWSER_SKIP := build/browser-skip.txt
browser: $(STAMP)
	BROWSER_SKIP_FILE=$(BROWSER_SKIP) bash scripts/install_chromium.sh
	BROWSER_SKIP_FILE=$(BROWSER_SKIP) BAI_BOOK_HTML=$(BOOK_HTML) BAI_SCREENSHOTS=$(SCREENSHOTS) \
		$(BIN)/python -m pytest tests/browser -q

# make rerun CHAPTER=soare2014 [PROFILE=ci] [SET="n_runs=5 seed=3"]: python -m bai reproduce, which
# validates the overrides against the chapter's study (an unknown key exits 2, naming the known
# keys), keeps checkpoints in build/$(PROFILE)/checkpoints and prints the chapter's claims (and,
# at any other profile than paper or with SET, that its verdicts are not the paper's).
PROFILE ?= paper
SET ?=
rerun: $(STAMP)
	@test -n "$(CHAPTER)" || { echo "make rerun needs CHAPTER=<name> (python -m bai reproduce --list)" >&2; exit 2; }
	$(BIN)/python -m bai reproduce $(CHAPTER) --profile $(PROFILE) --out build/$(PROFILE) \
		--checkpoints build/$(PROFILE)/checkpoints $(foreach s,$(SET),--set $(s))

# The claims of the last `make book`, recorded inside the package (bai/recorded/claims.json), so
# that `python -m bai ledger` answers where bai is installed without a build. The file is an
# output: bai.experiments.package_digest leaves it out, so recording it recomputes nothing.
.PHONY: ledger-data
ledger-data:
	@test -f book/_build/html/data/claims.json || { echo "ledger-data: no book/_build/html/data/claims.json (make book first)" >&2; exit 2; }
	mkdir -p lib/bai/recorded
	cp book/_build/html/data/claims.json lib/bai/recorded/claims.json
	$(BIN)/python -m bai ledger --data lib/bai/recorded/claims.json --verdict "not reproduced" | tail -1

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_design_solver.py
	$(BIN)/python benchmarks/bench_greedy_kernel.py
	$(BIN)/python benchmarks/bench_lingape.py

# The library's sdist and wheel (the wheel is built from the sdist, so both carry the data in
# lib/bai/data). tests/test_wheel.py builds the same way, installs the wheel in a fresh venv
# outside the repository and runs it there.
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .
	@ls -l dist

clean:
	rm -rf build book/_build book/_claims book/_mathjax/mathjax
	find book -name '*.ipynb' -not -path '*/_build/*' -delete
