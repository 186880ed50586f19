# The README's two commands: `make demo` (main job) and `make test`.
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup demo test test-all lint bench clean

setup:
	bash scripts/setup.sh

demo: setup
	$(BIN)/webfovea demo

# A failing test is tried twice more before it fails the run (Playwright Test's default on
# CI): on a loaded 2-core machine a real browser is sometimes descheduled past a page's own
# timers. The summary counts each retry as "rerun"; a rerun is a bug to find, not a pass.
RERUNS := --reruns 2 --reruns-delay 1 -rR

test: setup
	$(BIN)/python -m pytest -q -p no:cacheprovider $(RERUNS)
	$(BIN)/ruff check src tests
	$(BIN)/mypy

# Everything, the slow end-to-end tests included (about twice as long).
test-all: setup
	$(BIN)/python -m pytest -q -p no:cacheprovider -m "slow or not slow" $(RERUNS)
	$(BIN)/ruff check src tests
	$(BIN)/mypy

lint: setup
	$(BIN)/ruff check src tests
	$(BIN)/mypy

bench: setup
	$(BIN)/python benchmarks/step_overhead.py

clean:
	rm -rf $(VENV) runs .pytest_cache .mypy_cache .ruff_cache
