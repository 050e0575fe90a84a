# fedtheory — the two commands: `make verify` and `make test` (and `make docs`, the site).
# Each bootstraps .venv on first use and is quiet when it is up to date.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip --disable-pip-version-check -q
# pip byte-compiles every installed module one file at a time (10 of a fresh venv's ~50 s);
# installing without it and compiling the venv on every core afterwards gives the same .pyc
# files (a file that does not compile is compiled, and reported, when it is imported).
INSTALL := $(PIP) install --no-compile
COMPILE := $(BIN)/python -m compileall -q -j 0 $(VENV)/lib >/dev/null || true

.PHONY: verify test lint docs figures architecture explorer bench bootstrap clean

verify: $(VENV)/.installed-core
	@# Runs the claim catalog (verification/) with the quick profile: verdict table on the
	@# terminal, report/index.html + report/verdicts.json + figures; results are cached in
	@# .fedtheory/results.sqlite, so a second run only re-judges.
	@$(BIN)/fedtheory verify verification --profile quick

figures: architecture $(VENV)/.installed-core
	@# Every figure of the docs, from cached claim results (docs/figures/*.png).
	@for name in $$($(BIN)/python -c "from fedtheory.figures import discover_figures; print(' '.join(discover_figures()))"); do \
	  $(BIN)/fedtheory figures make --docs $$name || exit 1; done

architecture: $(VENV)/.installed-core
	@# The import graph of the package (docs/figures/architecture.png); fails on a broken rule.
	@$(BIN)/python docs/architecture.py

explorer: $(VENV)/.installed-core
	@# The documentation's bound explorer pages (docs/explorer/*.html, generated, not committed)
	@# and their screenshots docs/figures/explorer_*.png (headless Chromium).
	@$(BIN)/python docs/explorer/pages.py docs/explorer --screenshots docs/figures

test: $(VENV)/.installed-test
	@# Two workers (pytest-xdist): the suite runs on both cores; every test still runs.
	@$(BIN)/python -m pytest -q -n 2

bench: $(VENV)/.installed-test
	@# Every peer comparison of benchmarks/ at its documented size (benchmarks/run_all.py):
	@# Markdown tables on stdout, outputs checked. Minutes on 2 cores; run it on an idle machine.
	@# JAX and PyTorch rows need `$(PIP) install -e ".[bench]"`; BENCH_ARGS=--quick for a smoke run.
	@$(BIN)/python benchmarks/run_all.py $(BENCH_ARGS)

lint: $(VENV)/.installed-test
	@# What the pre-commit hook runs (.pre-commit-config.yaml): ruff over the whole tree, mypy
	@# --strict over the package (pyproject.toml).
	@$(BIN)/ruff check .
	@$(BIN)/ruff format --check --quiet . || \
	  (echo "ruff format would reformat the files above; run '$(BIN)/ruff format .'"; exit 1)
	@$(BIN)/mypy

docs: $(VENV)/.installed-docs
	@# The documentation site into docs/_build/html, with warnings as errors: the pages of docs/,
	@# the API reference (one page per public module, written from its __all__ by docs/conf.py),
	@# the gallery (examples/, every script run) and the tutorials (docs/tutorials/*.ipynb,
	@# executed). Part of CI (.ci/run), not of `make test`.
	@start=$$(date +%s); \
	$(BIN)/sphinx-build -W --keep-going -q -b html docs docs/_build/html || exit 1; \
	echo "docs built in $$(( $$(date +%s) - start )) s: docs/_build/html/index.html"

bootstrap: $(VENV)/.installed-test

$(BIN)/python:
	@echo "creating $(VENV) with $(PYTHON)"
	@$(PYTHON) -m venv $(VENV)
	@$(PIP) install --upgrade pip

$(VENV)/.installed-core: pyproject.toml | $(BIN)/python
	@echo "installing fedtheory[data] into $(VENV)"
	@$(INSTALL) -e ".[data]"
	@$(COMPILE)
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	@echo "installing fedtheory[test,dev] into $(VENV)"
	@$(INSTALL) -e ".[test,dev]"
	@$(COMPILE)
	@touch $@ $(VENV)/.installed-core

$(VENV)/.installed-docs: pyproject.toml | $(BIN)/python
	@echo "installing fedtheory[docs] into $(VENV)"
	@$(INSTALL) -e ".[docs]"
	@$(COMPILE)
	@touch $@ $(VENV)/.installed-core

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
