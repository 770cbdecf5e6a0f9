# Two commands do everything on a fresh machine (Python 3.11): `make book` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
DEEP   := $(VENV)/.deep-installed

.PHONY: venv test test-fast book bench clean reproduce quick-results lab lock deep test-deep

venv: $(STAMP)

# requirements.txt: the direct dependencies; constraints.txt: every installed version, locked (see `lock`)
$(STAMP): requirements.txt constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt -r requirements.txt
	touch $(STAMP)

# the book (as `make book`) and the quick-scale results, then pytest for the package + nbval for every
# notebook of the book (on the quick-scale results); tests/test_browser.py opens every built page in headless
# Chromium with no network (skipped, with the reason printed, where Debian's chromium and chromium-driver are
# not installed)
# (pytest-xdist: TEST_WORKERS processes, each test file and each notebook kept on one of them)
TEST_WORKERS ?= 2
test: book quick-results
	SWEEPER_SCALE=quick $(PY) -m pytest -q -rs -p no:cacheprovider -n $(TEST_WORKERS) --dist loadfile --durations=15 tests book \
	  --nbval-lax

# what the book shows at quick scale (the notebook tests read it; nothing in the book computes results):
# every spec of the paper, the seed bands and the extras, in .cache/quick-results; recomputed when the code changes
quick-results: $(STAMP)
	$(PY) -m sweeper reproduce --book --scale quick --workers 2 --no-progress

# the package tests only, skipping those marked slow
test-fast: $(STAMP)
	$(PY) -m pytest -q -p no:cacheprovider tests -m "not slow"

# jupyter-book's build with Sphinx's parallel jobs (BOOK_JOBS, default the cores up to 4): the notebooks execute
# on every core (book/_ext/parallel_build.py)
book: $(STAMP)
	$(PY) book/_ext/parallel_build.py . --all --warningiserror --keep-going
	@echo "book: open _build/html/index.html"

# the book's notebooks in JupyterLab, live: the widgets (GameStepper, PatternExplorer, progress bars) run
# on a kernel there (--allow-root only when run as root). LAB_ARGS adds options, e.g.
# make lab LAB_ARGS="--no-browser --port 8890"
lab: $(STAMP)
	$(VENV)/bin/jupyter lab --notebook-dir=. --LabApp.default_url=/lab/tree/book \
	  $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

# regenerate constraints.txt from the current .venv (a known-good environment: run `make test` and
# `make book` first); keeps its header, drops the editable project, refuses a jupyter-book 2
lock: $(STAMP)
	sed -n '/^#/p' constraints.txt > constraints.txt.tmp
	$(PY) -m pip freeze --exclude-editable --disable-pip-version-check | grep -v -i '^bandit-sweeper' >> constraints.txt.tmp
	grep -q '^jupyter-book==1\.' constraints.txt.tmp || { echo "lock: jupyter-book must stay below 2"; rm constraints.txt.tmp; exit 1; }
	mv constraints.txt.tmp constraints.txt
	touch $(STAMP)

# deep RL and the neural bandit, optional (about 860 MB more in .venv: requirements-deep.txt): `make deep`
# installs it and trains the book's networks (ext:neural_work: budgets of decisions, so the same networks on any machine),
# the stored runs of ext:neural and ext:deep_rl (three seeds each) and the ablations ext:neural_levers and ext:neural_levers_expert (seed 1)
# (the runs on CPU-second budgets are stored; reproduce finds them and trains nothing, verify replays the work they recorded)
# (resumable: finished runs are kept; README.md states the CPU time); `make test-deep` tests the deep-RL module,
# the neural bandit, and verifies a small run of each of their task kinds.
# torch's CPU kernels are pinned to AVX2 by the package itself before it imports torch (sweeper/machine.py; a
# machine with AVX-512 would train other networks), so no variable needs setting here.
# The book reads the stored runs and builds without it; .ci/run runs both test targets.
$(DEEP): $(STAMP) requirements-deep.txt
	$(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt -r requirements-deep.txt
	touch $(DEEP)

deep: $(DEEP)
	$(PY) -m sweeper reproduce ext:neural_work --scale paper --seeds 1,2,3 --workers 2
	$(PY) -m sweeper reproduce ext:neural ext:neural_expert_averaged ext:neural_explore ext:neural_regret ext:deep_rl --scale paper --seeds 1,2,3 --workers 2
	$(PY) -m sweeper reproduce ext:neural_levers ext:neural_levers_expert --scale paper --workers 2
	$(PY) -m sweeper reproduce ext:benchmark_neural_work ext:benchmark_neural_work_symmetric ext:benchmark_neural ext:benchmark_neural_symmetric ext:benchmark_neural_averaged ext:benchmark_ppo --scale paper --workers 2
	$(PY) -m sweeper reproduce ext:benchmark_fresh ext:benchmark_fresh_deep --scale paper --workers 2

test-deep: $(DEEP)
	SWEEPER_REQUIRE_DEEP=1 $(PY) -m pytest -q -rs -p no:cacheprovider tests/test_deep_rl.py tests/test_neural.py \
		'tests/test_verify.py::test_a_small_run_of_every_kind_verifies_identical[neural_bandit]' \
		'tests/test_verify.py::test_a_small_run_of_every_kind_verifies_identical[deep_ppo]'

bench: $(STAMP)
	$(PY) -m sweeper bench

clean:
	rm -rf _build .pytest_cache constraints.txt.tmp

# every table and figure of the paper at paper scale (resumable), then results/summary.csv;
# then the seed bands (seeds 1-5 of the learning curves, heatmap cells and Thompson runs) and the
# experiments beyond the paper
reproduce: $(STAMP)
	$(PY) -m sweeper reproduce --book --scale paper --workers 2
