# Two commands do everything on a fresh machine (Python 3.11): `make book` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: venv test test-fast book bench clean reproduce

venv: $(STAMP)

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

# the book (as `make book`), then pytest for the package + nbval for every notebook of the book;
# tests/test_browser.py opens every built page in headless Chromium with no network (skipped, with
# the reason printed, where Debian's chromium and chromium-driver are not installed)
test: book
	SWEEPER_SCALE=quick $(PY) -m pytest -q -rs -p no:cacheprovider tests book --nbval-lax

# the package tests only, skipping those marked slow
test-fast: $(STAMP)
	$(PY) -m pytest -q -p no:cacheprovider tests -m "not slow"

book: $(STAMP)
	$(VENV)/bin/jupyter-book build . --all --warningiserror --keep-going
	@echo "book: open _build/html/index.html"

bench: $(STAMP)
	$(PY) -m sweeper bench

clean:
	rm -rf _build .pytest_cache

# every table and figure of the paper at paper scale (resumable), then results/summary.csv;
# then the seed bands (seeds 1-5 of the learning curves, heatmap cells and Thompson runs) and the
# experiments beyond the paper
reproduce: $(STAMP)
	$(PY) -m sweeper reproduce --scale paper --workers 2
	$(PY) -m sweeper reproduce fig:exp_1 fig:exp_2 fig:exp_6 fig:exp_7 ext:thompson --seeds 1,2,3,4,5 --workers 2
	$(PY) -m sweeper reproduce ext:how_good ext:belief --workers 2
