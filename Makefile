# rams-sim: `make run` and `make test` are the two commands a fresh machine needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.DEFAULT_GOAL := help

help: ## list the targets
	@grep -E '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "  %-12s %s\n", $$1, $$2}'

PACKAGE_STAMP := $(VENV)/.installed-package
TEST_STAMP := $(VENV)/.installed-test
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# every command imports numba, numpy, polars and typer: let Python keep their compiled bytecode where the
# environment says not to write it (PYTHONDONTWRITEBYTECODE), or each start compiles about 1.7 s of their
# sources again (`rams-sim advise` took 3.8-4.1 s instead of 2.2-2.3 s); the files go into the virtualenv
# and the source folders' __pycache__ (git ignores them)
unexport PYTHONDONTWRITEBYTECODE

# uv (from PyPI) installs in a few seconds what pip takes twenty for; plain pip is the fallback
INSTALL = $(BIN)/uv pip install --quiet --python $(BIN)/python
PIP_INSTALL = $(BIN)/pip install --quiet --disable-pip-version-check

# the virtualenv and the package
$(PACKAGE_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) uv || true
	$(INSTALL) -e . || $(PIP_INSTALL) -e .
	touch $(PACKAGE_STAMP)

# ... and the kernels a deals run needs, compiled into numba's on-disk cache
$(STAMP): $(PACKAGE_STAMP)
	$(BIN)/python -m rams_sim.warm --only run
	touch $(STAMP)

# the test tools (`make test` then compiles every game's kernels on every core, skipping what is cached;
# a searching seat's kernels only for the tests marked heavy: `make test-slow`)
$(TEST_STAMP): $(PACKAGE_STAMP)
	$(INSTALL) -e '.[test]' || $(PIP_INSTALL) -e '.[test]'
	touch $(TEST_STAMP)

setup: $(STAMP) ## create the virtualenv, install the package, compile the kernels of a classic run

run: $(STAMP) ## simulate 10,000,000 classic deals into data/runs/make-run (Parquet) and print a summary
	$(BIN)/rams-sim run --deals 1e7 --out data/runs/make-run --force

test: $(TEST_STAMP) ## run the test suite on every core (slow statistical checks and heavy compiles excluded)
	$(BIN)/python -m rams_sim.warm --only test --jobs $(JOBS)
	$(BIN)/python -m pytest -q -n $(JOBS) --dist worksteal

test-slow: $(TEST_STAMP) ## the tests `make test` leaves out: slow statistical checks, a searching seat's kernels
	$(BIN)/python -m rams_sim.warm --jobs $(JOBS)
	$(BIN)/python -m pytest -q -n $(JOBS) --dist worksteal -m 'slow or heavy'

test-all: $(TEST_STAMP) test-nojit ## every test, the slow and heavy ones included, and the pure-Python pass
	$(BIN)/python -m rams_sim.warm --jobs $(JOBS)
	$(BIN)/python -m pytest -q -n $(JOBS) --dist worksteal -m ''

lint: $(TEST_STAMP) ## check the code with ruff (its rules: pyproject.toml's [tool.ruff]; ruff comes with the test tools)
	$(BIN)/ruff check rams_sim analyses tests bench

test-nojit: $(TEST_STAMP) ## the rule tests with NUMBA_DISABLE_JIT=1: the kernels run as plain Python (for coverage)
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q -W ignore::RuntimeWarning \
		tests/test_worked_examples.py tests/test_legal.py tests/test_differential.py -k "engine or options"

reports: $(STAMP) ## simulate what the questions need (reused if present), run analyses/, write reports/
	$(BIN)/python -m analyses.make_reports --data data/reports --out reports

archive: $(STAMP) ## make the searching players' datasets again (about an hour) and copy them to archive/, which make reports starts from
	$(BIN)/python -m analyses.archive --data data/reports

# the presets the first calibration drew from (issue 45)
CLASSIC_ONE_TURN := classic,encyclopedia,from-15
calibrate: $(STAMP) ## measure advise's model error against branch data on positions of their own seed (about 2 h on 2 cores): rams_sim/data/model_error.csv
	$(BIN)/rams-sim check-advice --positions 300 --seed 4501 --rules $(CLASSIC_ONE_TURN) --decisions exchange,trump,card \
		--out data/check-advice/calibration --force --calibrate rams_sim/data/model_error.csv
	$(BIN)/rams-sim check-advice --positions 120 --seed 4501 --rules $(CLASSIC_ONE_TURN) --decisions card \
		--out data/check-advice/calibration-cards --force --calibrate rams_sim/data/model_error.csv
	$(BIN)/rams-sim check-advice --positions 120 --seed 4501 --rules $(CLASSIC_ONE_TURN) --decisions card --infer play \
		--out data/check-advice/calibration-cards-play --force --calibrate rams_sim/data/model_error.csv
	$(BIN)/rams-sim check-advice --positions 90 --seed 4501 --rules handbook,negotiations --decisions round,intent,buy \
		--out data/check-advice/calibration-declare --force --calibrate rams_sim/data/model_error.csv
	$(BIN)/rams-sim check-advice --positions 90 --seed 4501 --rules zone,modern \
		--out data/check-advice/calibration-r9 --force --calibrate rams_sim/data/model_error.csv

check-advice: $(STAMP) ## advise held against branch data on 150 fresh positions (about 20 min): data/check-advice/s4502
	$(BIN)/rams-sim check-advice --positions 150 --seed 4502 --out data/check-advice/s4502 --force

table: $(STAMP) ## find the table policy's strategy table again (iterated best response, ~10 min): rams_sim/data/table.csv
	$(BIN)/python -m analyses.table_policy

# a sweep's client or dask worker from this checkout (README: Sweeps): no stamp, so that after a `git pull` it
# installs again and the version (setuptools-scm, from git) names the new commit, which the sweep compares
cluster-install: $(PACKAGE_STAMP) ## install this checkout with dask.distributed and compile every game's kernels: a sweep's client or worker
	$(INSTALL) -e '.[cluster]' || $(PIP_INSTALL) -e '.[cluster]'
	$(BIN)/python -m rams_sim.warm --only test --jobs $(JOBS)

bench: $(STAMP) ## measure deals/second, compile time and peak memory; time `rams-sim run --deals 1e7` and an aggregated 1e9 end to end
	$(BIN)/python bench/bench_engine.py
	$(BIN)/python bench/bench_pimc.py
	$(BIN)/python bench/bench_run.py --deals 1e7
	$(BIN)/python bench/bench_aggregate.py --deals 1e9
	$(BIN)/python bench/bench_effect.py --deals 1e8

strength: $(STAMP) ## pimc's strength and speed by infer=, paired by deal against expert and table at five tables (~25 min): figures only
	$(BIN)/python bench/strength.py --deals 6000

clean: ## remove the virtualenv and caches
	rm -rf $(VENV) .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

.PHONY: help setup run test test-slow test-all test-nojit lint cluster-install reports archive table bench strength clean
