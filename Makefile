# The README's two commands: `make demo` (main job) and `make test`.
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup demo test test-all lint bench clean

setup:
	bash scripts/setup.sh

demo: setup
	$(BIN)/webfovea demo

test: setup
	$(BIN)/python -m pytest -q -p no:cacheprovider
	$(BIN)/ruff check src tests
	$(BIN)/mypy

# Everything, the slow end-to-end tests included (about twice as long).
test-all: setup
	$(BIN)/python -m pytest -q -p no:cacheprovider -m "slow or not slow"
	$(BIN)/ruff check src tests
	$(BIN)/mypy

lint: setup
	$(BIN)/ruff check src tests
	$(BIN)/mypy

bench: setup
	$(BIN)/python benchmarks/step_overhead.py

clean:
	rm -rf $(VENV) runs .pytest_cache .mypy_cache .ruff_cache
