# The README's two commands: `make demo` (main job) and `make test`.
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup demo test test-all lint docs docs-serve bench clean

setup:
	bash scripts/setup.sh

demo: setup
	$(BIN)/webfovea demo

# A failing test is tried twice more before it fails the run (Playwright Test's default on
# CI): on a loaded 2-core machine a real browser is sometimes descheduled past a page's own
# timers. The summary counts each retry as "rerun"; a rerun is a bug to find, not a pass.
RERUNS := --reruns 2 --reruns-delay 1 -rR
# Parallel workers (pytest-xdist), each with its own shared browsers and servers (a module's
# tests that share a fixture of its scope run on one worker: tests/conftest.py). Most tests
# wait on a browser or a model's reply; on an idle 2-core machine four workers keep the cores
# busiest. The 25 slowest tests are printed, so the next slow one is seen when it lands.
# `make test WORKERS=0` runs in one process.
WORKERS ?= 4
# Compiled modules are kept between the many Python processes a run starts (each CLI test is
# one), also where the environment turns bytecode writing off.
unexport PYTHONDONTWRITEBYTECODE
PYTEST := $(BIN)/python -m pytest -q -p no:cacheprovider -n $(WORKERS) --durations=25 $(RERUNS)

test: setup
	$(PYTEST)
	$(BIN)/ruff check src tests
	$(BIN)/mypy
	$(DOCS_BUILD)

# Everything, the slow end-to-end tests included (about twice as long).
test-all: setup
	$(PYTEST) -m "slow or not slow"
	$(BIN)/ruff check src tests
	$(BIN)/mypy
	$(DOCS_BUILD)

lint: setup
	$(BIN)/ruff check src tests
	$(BIN)/mypy

# The documentation site (MkDocs, Material theme): a broken link or a page missing from the
# navigation fails the strict build; the command-line and API reference pages are generated.
DOCS_BUILD := NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

docs: setup
	$(DOCS_BUILD)
	@echo "docs built: open site/index.html (or run make docs-serve)"

docs-serve: setup
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve --dev-addr 127.0.0.1:8008

bench: setup
	$(BIN)/python benchmarks/step_overhead.py

clean:
	rm -rf $(VENV) runs site .pytest_cache .mypy_cache .ruff_cache
