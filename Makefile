# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The demo's ports: `make demo API_PORT=8010 DASHBOARD_PORT=8511` when the defaults are taken.
API_PORT ?= 8000
DASHBOARD_PORT ?= 8501

.PHONY: demo test lint bench-smoke clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/gosterge demo --api-port $(API_PORT) --dashboard-port $(DASHBOARD_PORT)

# One pytest-xdist worker per core and one more: about a third of the suite's time is spent waiting
# for the servers, browsers and processes its tests start, which the extra worker fills (8:53 -> 8:01
# on two cores, docs/benchmarks.md "Test suite"). Each has its own databases and Redis database
# (tests/conftest.py).
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
test: $(STAMP)
	$(BIN)/pytest -n $(TEST_WORKERS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench-smoke: $(STAMP)
	$(BIN)/python benchmarks/procurement_load.py --scale tiny
	$(BIN)/python benchmarks/ekap_import.py --smoke
	$(BIN)/python benchmarks/api_load.py --smoke
	$(BIN)/python benchmarks/watchlist_digests.py --smoke

clean:
	rm -rf $(VENV) var build *.egg-info
