# Set-up, tests and benchmarks of revlogperf. Everything it needs is
# installed here, per Mercurial release: .venv/hg-X.Y.Z holds the release,
# zstandard, pytest and the project; .cache/hg-X.Y.Z holds the release's own
# tests/ (run-tests.py, hghave, killdaemons.py) and contrib/perf.py, taken
# from its sdist.

# pipelines fail when a step does: each step's output is kept (tee)
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

HG_VERSION ?= 7.2.4
MATRIX ?= 6.3.3 6.6.3 6.9.5 7.2.4
PYTHON ?= python3
JOBS ?= 2
# extra arguments to run-tests.py, e.g. TESTFLAGS="test-revlogperf-help.t"
TESTFLAGS ?=
# make bench: your own repository (read only), or a generated sample;
# sized so that it ends within 10 minutes on a busy 2-core machine (590 s
# at a load average of 2 to 5, doc/benchmarks.md)
REPO ?=
SAMPLE_CHANGESETS ?= 10000
ROUNDS ?= 5
# make bench ONLY="'log -p -l 300' annotate": those commands alone
ONLY ?=
# make bench-full: everything, as doc/benchmarks.md's tables were made
FULL_CHANGESETS ?= 20000
FULL_ROUNDS ?= 5

VENV := .venv/hg-$(HG_VERSION)
CACHE := .cache/hg-$(HG_VERSION)
PY := $(abspath $(VENV))/bin/python
HG := $(abspath $(VENV))/bin/hg
RUNTESTS := $(abspath $(CACHE))/tests/run-tests.py
CHG := $(CACHE)/contrib/chg/chg
RUN_T := cd tests && $(PY) $(RUNTESTS) --with-hg=$(HG) -j$(JOBS)
# a line after every 30 s without output: a test can run for minutes
BEAT := $(PYTHON) $(abspath contrib/heartbeat.py)

# each step's output, for the summary line make test ends with
RESULTS := .cache/results
SUMMARY = $(PYTHON) contrib/testsummary.py $(RESULTS)

SAMPLE := .cache/sample-$(SAMPLE_CHANGESETS)-hg$(HG_VERSION)
BENCH_REPO := $(or $(REPO),$(SAMPLE))

.PHONY: all bench bench-full bench-server setup test test-release check check-style test-unit \
    test-t test-t-c test-t-pure test-t-chg test-matrix test-hg-suite \
    test-hg-suite-ci test-hg-suite-full hg-suite-report test-debian clean

all: test

setup: $(VENV)/.installed $(VENV)/.server $(CACHE)/.fetched $(CHG)
	@# the installed package loads: what users get from pip install
	$(VENV)/bin/pip install -q --no-deps --no-build-isolation .
	@HGRCPATH= $(HG) --config extensions.revlogperf= help revlogperf >/dev/null
	@# bytecode of the tree the .t tests load revlogperf from: where
	@# PYTHONDONTWRITEBYTECODE is set (here, and on CI), each hg they run
	@# would compile every module again, 10% of a test's CPU time
	@$(PY) -m compileall -q hgext3rd tests/testlib

$(VENV)/.installed:
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip setuptools wheel
	$(VENV)/bin/pip install -q mercurial==$(HG_VERSION) zstandard pytest hypothesis
	@touch $@

# the real parts of a server: gunicorn for hgweb, chg from the sdist
$(VENV)/.server: $(VENV)/.installed
	$(VENV)/bin/pip install -q gunicorn
	@touch $@

$(CHG): $(CACHE)/.fetched
	$(MAKE) -s -C $(CACHE)/contrib/chg >/dev/null

$(CACHE)/.fetched: $(VENV)/.installed
	@mkdir -p $(CACHE)
	$(VENV)/bin/pip download -q --no-deps --no-binary :all: \
	    -d $(CACHE) mercurial==$(HG_VERSION)
	tar -xzf $(CACHE)/mercurial-$(HG_VERSION).tar.gz -C $(CACHE) \
	    --strip-components=1 mercurial-$(HG_VERSION)/tests \
	    mercurial-$(HG_VERSION)/contrib
	@touch $@

bench: setup $(VENV)/.chart $(if $(REPO),,$(SAMPLE).built)
	@mkdir -p bench-results
	@# the output also in bench-results/bench-hgX.Y.Z.log
	$(PY) contrib/bench.py $(BENCH_REPO) --rounds $(ROUNDS) \
	    --json bench-results/bench-hg$(HG_VERSION).json \
	    --chart bench-results/bench-hg$(HG_VERSION).png \
	    2>&1 | tee bench-results/bench-hg$(HG_VERSION).log
	$(PY) contrib/bench_commands.py $(BENCH_REPO) --rounds $(ROUNDS) \
	    $(if $(ONLY),--only $(ONLY)) \
	    --json bench-results/commands-hg$(HG_VERSION).json \
	    --chart bench-results/commands-hg$(HG_VERSION).png \
	    2>&1 | tee -a bench-results/bench-hg$(HG_VERSION).log

bench-full:
	$(MAKE) --no-print-directory bench SAMPLE_CHANGESETS=$(FULL_CHANGESETS) \
	    ROUNDS=$(FULL_ROUNDS)

# hgweb under gunicorn, readers and a writer, with and without revlogperf
# (contrib/bench_server.py); REQUESTS, CLIENTS as it takes them
REQUESTS ?= 2000
CLIENTS ?= 8
bench-server: setup $(if $(REPO),,$(SAMPLE).built)
	@mkdir -p bench-results
	$(PY) contrib/bench_server.py $(BENCH_REPO) --requests $(REQUESTS) \
	    --clients $(CLIENTS) --targets \
	    --json bench-results/server-hg$(HG_VERSION).json

$(VENV)/.chart: $(VENV)/.installed
	$(VENV)/bin/pip install -q matplotlib
	@touch $@

$(SAMPLE).built: | $(VENV)/.installed
	@rm -rf $(SAMPLE)
	$(PY) contrib/mkrepo.py $(SAMPLE) --changesets $(SAMPLE_CHANGESETS) \
	    --large-filelog
	@touch $@

# make test's progress: each step's number and the minutes left after it
# starts, as measured at a load average of 3 to 4 on the 2-core machine
# (7.2.4, 2026-12-07): style 1.5, pytest 2.5 and 2, .t 4, 4 and 3.5,
# Mercurial's own selection 5
EDGE = $(filter $(HG_VERSION),$(EDGES))
TEST_STEPS = $(if $(filter $(HG_VERSION),$(NEWEST)),7,$(if $(EDGE),6,5))
TEST_LEFT = $(if $(filter $(HG_VERSION),$(NEWEST)),22 21 18 16 12 9 5,\
    $(if $(EDGE),19 18 15 13 9 5,14 12 9 7 4))
comma := ,
step = $(if $(PROGRESS),[$(1)/$(TEST_STEPS)$(comma) about \
    $(word $(1),$(TEST_LEFT)) min left] )

test: setup
	@echo "make test: $(TEST_STEPS) steps on Mercurial $(HG_VERSION)"
	@status=0; \
	$(MAKE) --no-print-directory check PROGRESS=1 || status=1; \
	$(MAKE) --no-print-directory test-release PROGRESS=1 || status=1; \
	$(SUMMARY) $(HG_VERSION) || status=1; \
	exit $$status

# the tests of one release, without the style checks (which do not depend
# on it); the oldest and the newest release (EDGES) also run Mercurial's
# own selection, and T_PURE=no leaves out the .t tests with pure modules
T_PURE ?= yes
test-release: setup
	@mkdir -p $(RESULTS); rm -f $(RESULTS)/*-$(HG_VERSION)-*.log
	@status=0; \
	$(MAKE) --no-print-directory test-unit PROGRESS=$(PROGRESS) || status=1; \
	$(MAKE) --no-print-directory test-t-c PROGRESS=$(PROGRESS) || status=1; \
	if [ $(T_PURE) = yes ]; then \
	    $(MAKE) --no-print-directory test-t-pure PROGRESS=$(PROGRESS) \
	        || status=1; \
	fi; \
	if [ $(HG_VERSION) = $(NEWEST) ]; then \
	    $(MAKE) --no-print-directory test-t-chg PROGRESS=$(PROGRESS) \
	        || status=1; \
	fi; \
	if [ -n "$(EDGE)" ]; then \
	    $(MAKE) --no-print-directory test-hg-suite-ci PROGRESS=$(PROGRESS) \
	        || status=1; \
	fi; \
	exit $$status

# Mercurial's own style checks, as its test-check-format.t and
# test-check-code.t run them: black (settings in pyproject.toml) and
# contrib/check-code.py, then pyflakes, as test-check-pyflakes.t runs it,
# and contrib/import-checker.py (test-check-module-imports.t) on the
# extension; then the package as PyPI would show it (twine --strict).
# Always the newest release's: older check-code.py still enforces Python 2
# rules that Mercurial has dropped since.
NEWEST := $(lastword $(MATRIX))
EDGES := $(firstword $(MATRIX)) $(NEWEST)
SOURCES = setup.py $(shell find hgext3rd contrib tests -name '*.py' -o -name '*.t')

check:
	@mkdir -p $(RESULTS); rm -f $(RESULTS)/style.log
	@$(MAKE) --no-print-directory check-style HG_VERSION=$(NEWEST) \
	    2>&1 | tee $(RESULTS)/style.log
	@echo "style: ok" >> $(RESULTS)/style.log

# the release's sdist for check-code.py; the project need not be installed
# each check says what it checks, not the files it is given
check-style: $(CACHE)/.fetched $(VENV)/.checkers
	@echo "$(call step,1)black: Mercurial's settings"
	@$(VENV)/bin/black --check --diff .
	@echo "check-code.py, pyflakes, import-checker.py: $(words $(SOURCES)) files"
	@$(PY) $(CACHE)/contrib/check-code.py $(SOURCES)
	@$(PY) -m pyflakes $(filter %.py,$(SOURCES))
	@$(PY) contrib/importcheck.py $(CACHE)/contrib/import-checker.py \
	    $(filter hgext3rd/%.py,$(SOURCES))
	@# the package as PyPI would show it: sdist (with the tests) and wheel;
	@# build's own lines only where it fails
	@echo "vermin: no Python older than setup.py's python_requires ($(PYTHON_MIN))"
	@$(VENV)/bin/vermin -q --no-tips -t=$(PYTHON_MIN)- --violations \
	    hgext3rd setup.py
	@echo "build, twine check --strict: the sdist and the wheel"
	@rm -rf $(DIST)
	@out=$$($(PY) -m build -q --no-isolation --outdir $(DIST) . 2>&1) \
	    || { echo "$$out"; exit 1; }
	@$(VENV)/bin/twine --no-color check --strict $(DIST)/*

DIST := .cache/dist
PYTHON_MIN := $(shell sed -n "s/.*python_requires='>=\([0-9.]*\)'.*/\1/p" setup.py)

$(VENV)/.checkers: $(VENV)/.installed
	$(VENV)/bin/pip install -q 'black>=23,<24' pyflakes build twine vermin
	@touch $@

# HG_TESTS_DIR: the release's own tests, which some unit tests run too
test-unit: export HG_TESTS_DIR := $(abspath $(CACHE))/tests
test-unit:
	@mkdir -p $(RESULTS)
	@# both policies, whatever the first gives
	@echo "$(call step,2)pytest, C modules: tests/unit (Mercurial $(HG_VERSION))"
	@status=0; \
	REVLOGPERF_CHG=$(abspath $(CHG)) $(PY) -m pytest -q tests/unit 2>&1 \
	    | $(BEAT) | tee $(RESULTS)/pytest-$(HG_VERSION)-c.log || status=1; \
	echo "$(call step,3)pytest, pure modules: tests/unit"; \
	HGMODULEPOLICY=py $(PY) -m pytest -q tests/unit 2>&1 \
	    | $(BEAT) | tee $(RESULTS)/pytest-$(HG_VERSION)-py.log || status=1; \
	exit $$status

test-t: test-t-c test-t-pure

test-t-c:
	@mkdir -p $(RESULTS)
	@echo "$(call step,4)run-tests.py C modules (Mercurial $(HG_VERSION)) $(TESTFLAGS)"
	@$(RUN_T) $(TESTFLAGS) 2>&1 | $(BEAT) \
	    | tee $(abspath $(RESULTS))/t-$(HG_VERSION)-c.log

# every .t test through chg, as run-tests.py --chg runs Mercurial's own
test-t-chg:
	@mkdir -p $(RESULTS)
	@echo "$(call step,6)run-tests.py through chg (Mercurial $(HG_VERSION)) $(TESTFLAGS)"
	@$(RUN_T) --with-chg=$(abspath $(CHG)) $(TESTFLAGS) 2>&1 | $(BEAT) \
	    | tee $(abspath $(RESULTS))/t-$(HG_VERSION)-chg.log

test-t-pure:
	@mkdir -p $(RESULTS)
	@echo "$(call step,5)run-tests.py pure modules (Mercurial $(HG_VERSION)) $(TESTFLAGS)"
	@$(RUN_T) --pure $(TESTFLAGS) 2>&1 | $(BEAT) \
	    | tee $(abspath $(RESULTS))/t-$(HG_VERSION)-pure.log

# the style checks once, then each release's tests: CI (.ci/run), within
# 60 minutes. The releases between the oldest and the newest run their .t
# tests with the C modules only (pytest still runs both policies): that
# time (about 7 minutes) goes to Mercurial's own selection on the EDGES.
MIDDLE = $(filter-out $(EDGES),$(MATRIX))
test-matrix:
	@status=0; \
	$(MAKE) --no-print-directory check || status=1; \
	for v in $(MATRIX); do \
	    echo "=== Mercurial $$v"; \
	    case " $(MIDDLE) " in *" $$v "*) pure=no;; *) pure=yes;; esac; \
	    $(MAKE) --no-print-directory test-release HG_VERSION=$$v \
	        T_PURE=$$pure || status=1; \
	done; \
	$(SUMMARY) $(MATRIX) --t-c-only $(MIDDLE) || status=1; \
	exit $$status

# Debian's own Mercurial (Debian 12: 6.3.2) with revlogperf by path, as
# its users run it: every .t test, under the run-tests.py of 6.3.3, the
# nearest release CI tests. Needs root (apt-get); not in CI.
test-debian:
	@apt-get install -y -q mercurial python3-zstandard >/dev/null
	@$(MAKE) --no-print-directory .cache/hg-6.3.3/.fetched HG_VERSION=6.3.3
	@echo "run-tests.py, Debian's $$(/usr/bin/hg --version -q)"
	@cd tests && /usr/bin/python3 $(abspath .cache/hg-6.3.3/tests/run-tests.py) \
	    --with-hg=/usr/bin/hg -j$(JOBS) $(TESTFLAGS)

# Mercurial's whole suite, in shards: SHARD=K/N runs every N-th test or
# case from the K-th (next/40, the default: of the first shard with
# results the ledger lacks, those) with revlogperf's PROFILE (forced:
# every mechanism at any size; defaults), and plainly those that did not
# pass with it (a passing test printed core's output), kept per release
# and policy in .cache/hg-X.Y.Z/hgsuite*/plain.json; PURE=1 with the pure
# modules. Each comparison goes to the committed ledger,
# tests/hg-suite-results/: the suite takes longer than a session.
SHARD ?= next/40
PROFILE ?= forced
PURE ?=
SUITE_RESULTS = $(CACHE)/hgsuite$(if $(PURE),-pure)
SUITE_LEDGER = tests/hg-suite-results/$(HG_VERSION)-$(if $(PURE),pure,c)-$(PROFILE).jsonl
test-hg-suite-full: setup
	$(PY) contrib/hgsuite.py --hg $(HG) --tests-dir $(CACHE)/tests --all \
	    --shard $(SHARD) --profile $(PROFILE) --results $(SUITE_RESULTS) \
	    --record $(SUITE_LEDGER) --plain-where-needed \
	    --expected tests/hg-suite-expected.txt $(if $(PURE),--pure) \
	    --extension hgext3rd/revlogperf -j $(JOBS)

# what the ledgers hold, and the results that differ
hg-suite-report:
	@python3 contrib/suiteledger.py tests/hg-suite-results/*.jsonl

# CI's selection of Mercurial's own tests (tests/hg-suite-ci.txt: those
# that write and then read in one process), with the forced profile;
# plainly only where they do not pass with it (a passing test printed
# core's output, its .t file). make test runs it on the EDGES.
test-hg-suite-ci: setup
	@mkdir -p $(RESULTS)
	@echo "$(call step,$(TEST_STEPS))Mercurial's own tests, forced profile (Mercurial $(HG_VERSION)): tests/hg-suite-ci.txt"
	@$(PY) contrib/hgsuite.py --hg $(HG) --tests-dir $(CACHE)/tests \
	    --list tests/hg-suite-ci.txt --profile forced --plain-where-needed \
	    --results $(CACHE)/hgsuite-ci --expected tests/hg-suite-expected.txt \
	    --extension hgext3rd/revlogperf -j $(JOBS) 2>&1 | $(BEAT) \
	    | tee $(abspath $(RESULTS))/suite-$(HG_VERSION)-forced.log

# Mercurial's own tests (tests/hg-suite.txt), plainly and with revlogperf:
# the results must not differ. About 15 minutes a run here, two runs; not in CI.
test-hg-suite: setup
	$(PY) contrib/hgsuite.py --hg $(HG) --tests-dir $(CACHE)/tests \
	    --list tests/hg-suite.txt --extension hgext3rd/revlogperf -j $(JOBS)

clean:
	rm -rf .venv .cache build *.egg-info tests/*.err
