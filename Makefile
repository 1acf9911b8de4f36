# Two commands on a fresh machine: `make report` (main job) and `make test` (lint, then the
# test suite; what CI runs through .ci/run).
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup test test-slow bench report lint format clean

# warm-up compiles the numba solver once, up front and with a message (seconds when it is
# compiled already), so that the first test or study does not wait for it in silence
setup: $(STAMP)
	$(BIN)/rikken warm-up

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

test: lint
	$(BIN)/python -m pytest -q -n auto --dist loadfile

test-slow: setup
	$(BIN)/python -m pytest -q -m slow

bench: setup
	$(BIN)/python tests/bench/run.py

report: setup
	$(BIN)/rikken report

lint: setup
	$(BIN)/ruff check analyser tests sims
	$(BIN)/ruff format --check analyser tests sims

format: setup
	$(BIN)/ruff format analyser tests sims
	$(BIN)/ruff check --fix analyser tests sims

clean:
	rm -rf $(VENV) build *.egg-info
