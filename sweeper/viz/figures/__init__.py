"""The data behind each figure and table of the book, read from stored results.

One function per figure or table, each returning a tidy DataFrame (or a sentence generated from one);
:mod:`sweeper.viz.paper_charts` and the chapters draw them. The functions live in one module per part of
the book, and this package gathers them under one name (``figures.fig_exp_1()``):

* :mod:`~sweeper.viz.figures.results` -- where the results live and how a page reads them;
* :mod:`~sweeper.viz.figures.paper` -- the paper's own figures and tables;
* :mod:`~sweeper.viz.figures.bands` -- seed bands of the paper's experiments;
* :mod:`~sweeper.viz.figures.beyond` -- the chapters beyond the paper;
* :mod:`~sweeper.viz.figures.regret` -- the regret chapter (``figures.regret.findings()``; its charts are
  :mod:`sweeper.viz.regret_charts`);
* :mod:`~sweeper.viz.figures.neural`, :mod:`~sweeper.viz.figures.neural_levers` and
  :mod:`~sweeper.viz.figures.neural_symmetric` -- the chapter "From a table to a network" (always the committed
  paper-scale runs of ``ext:neural``, of its ablations and of the benchmark's networks; its charts are
  :mod:`sweeper.viz.neural_charts`);
* :mod:`~sweeper.viz.figures.deep` -- the deep-RL chapter (always the committed paper-scale runs);
* :mod:`~sweeper.viz.figures.speed` -- the speed chapter's timing of the whole reproduction and its bench
  (always the committed files).

Nothing here computes a result: a missing one is an error that names the command computing it.
"""

from ...experiments.paper import paper_results  # noqa: F401  (re-exported for the pages)
from .results import (  # noqa: F401
    SCALE_ENV,
    scale,
    results_dir,
    reproduce_command,
    comparison,
    store,
    scale_note,
    trained_agent,
    FIRST_CLICK,
    band_seeds,
)
from .paper import (  # noqa: F401
    fig_exp_1,
    fig_exp_2,
    fig_exp_5,
    value_facts,
    tab_action_cnt,
    fig_exp_4,
    fig_exp_6,
    fig_exp_7,
    tab_sa_vs_mab,
    tab_transfer,
    learning_minus_frozen,
    learning_minus_frozen_table,
    timings,
    duration,
    timings_table,
    run_times,
    slowest_runs,
    final_win_rates,
    tinkering_effects,
    sa_vs_bandit_verdict,
    TABLE2_READINGS,
    table2_bandit_readings,
    table2_bandit_table,
    table2_bandit_verdict,
    paper_code_numbers,
    TRANSFORMS,
    transform_images,
    transform_sentence,
    sa_paper_ties,
    keys_ratio_sentence,
    openings_table,
)
from .bands import (  # noqa: F401
    seed_band,
    seed_runs,
    fig_exp_1_band,
    fig_exp_2_band,
    final_by_seed,
    seed_table,
    size_reversals,
    size_trend,
    fig_exp_6_band,
    fig_exp_7_band,
    thompson_band,
    own_rule_band,
    band_facts,
)
from .beyond import (  # noqa: F401
    how_good,
    belief,
    LEVELS,
    OPENINGS,
    PLAYERS,
    how_good_table,
    how_good_interval,
    opening_effect,
    how_good_speeds,
    solver_table,
    thompson_summary,
    own_rule_verdict,
    own_rules_text,
    readings,
    no_flags_verdict,
    sa_verdict,
    GUESS_NAMES,
    pseq,
    pseq_table,
    pseq_verdict,
    thompson_tests_table,
    thompson_table,
    calibration_error,
    calibration_summary,
    calibration_table,
    loss_display,
    loss_table,
    sa_readings_summary,
)
from . import deep  # noqa: F401  (the deep-RL chapter: figures.deep.NAME)
from . import regret  # noqa: F401  (the regret chapter: figures.regret.NAME)
from . import neural  # noqa: F401  (the neural chapter: figures.neural.NAME)
from .speed import (  # noqa: F401
    reproduction_timing,
    timing_parts,
    timing_sentence,
    timing_verdict,
    costliest_experiments,
    comparison_sentence,
    bench_record,
    bench_sentence,
    bench_table,
    thompson_cost_sentence,
    rule_cost_sentence,
    probe_cost_table,
    probe_cost_sentence,
)
