# fedtheory — the two commands: `make verify` and `make test`.
# Each bootstraps .venv on first use and is quiet when it is up to date.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip --disable-pip-version-check -q

.PHONY: verify test lint figures bootstrap clean

verify: $(VENV)/.installed-core
	@# Runs the claim catalog (verification/) with the quick profile: verdict table on the
	@# terminal, report/index.html + report/verdicts.json + figures; results are cached in
	@# .fedtheory/results.sqlite, so a second run only re-judges.
	@$(BIN)/fedtheory verify verification --profile quick

figures: $(VENV)/.installed-core
	@# Every figure of the docs, from cached claim results (docs/figures/*.png).
	@for name in $$($(BIN)/python -c "from fedtheory.figures import discover_figures; print(' '.join(discover_figures()))"); do \
	  $(BIN)/fedtheory figures make $$name || exit 1; done

test: $(VENV)/.installed-test
	@$(BIN)/python -m pytest -q

lint: $(VENV)/.installed-test
	@$(BIN)/ruff check .
	@$(BIN)/ruff format --check --quiet fedtheory tests || \
	  (echo "ruff format would reformat the files above; run '$(BIN)/ruff format fedtheory tests'"; exit 1)
	@$(BIN)/mypy fedtheory

bootstrap: $(VENV)/.installed-test

$(BIN)/python:
	@echo "creating $(VENV) with $(PYTHON)"
	@$(PYTHON) -m venv $(VENV)
	@$(PIP) install --upgrade pip

$(VENV)/.installed-core: pyproject.toml | $(BIN)/python
	@echo "installing fedtheory[data] into $(VENV)"
	@$(PIP) install -e ".[data]"
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	@echo "installing fedtheory[test,dev] into $(VENV)"
	@$(PIP) install -e ".[test,dev]"
	@touch $@ $(VENV)/.installed-core

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
