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

# One pytest-xdist worker per core; each has its own databases and Redis database (tests/conftest.py).
test: $(STAMP)
	$(BIN)/pytest -n auto

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
