"""The paper's numbers and the published solver figures ship with the package and are read through one module."""

import pandas as pd
import pytest

from sweeper.experiments import paper
from sweeper.experiments.reproduce import COLUMNS, REPO


def test_paper_results_are_package_data_with_the_summary_columns():
    p = paper.paper_results()
    assert list(p.columns) == COLUMNS
    assert len(p) == 66
    assert set(p["experiment"]) == {"initial", "transfer", "sa_vs_mab", "action_counts", "timing", "related_work"}
    assert p.loc[p["metric"].str.startswith("win_rate"), "value"].between(0, 1).all()


def test_paper_value_finds_one_row_and_refuses_ambiguity():
    assert paper.headline() == paper.paper_value("initial", "greedy", "8x8x10")
    assert paper.paper_value("transfer", "greedy", "8x8x15", "16x30x99") == pytest.approx(0.0413)
    with pytest.raises(ValueError, match="expected exactly one"):
        paper.paper_value("transfer", "greedy", "8x8x15", "nowhere")


def test_every_bold_cell_and_alias_names_a_paper_row():
    p = paper.paper_results()
    t = p[p["experiment"].isin(["initial", "transfer"]) & (p["metric"] == "win_rate")]
    cells = set(zip(t["agent"], t["train_setting"], t["eval_setting"]))
    assert paper.PAPER_BOLD <= cells
    assert set(paper.PAPER_ALIAS.values()) <= set(p["agent"])


def test_published_solver_figures_carry_rule_board_and_first_click():
    s = paper.published_solver()
    assert set(s["rule"]) == {"SFAR", "SNR"} and set(s["opening"]) == {"safe", "zero"}
    assert s["win_rate"].between(0, 1).all() and (s["plus_minus"] > 0).all()
    # the figures the paper itself quotes for this solver (its related work) are the SFAR corner ones
    related = paper.paper_results().query("experiment == 'related_work' and agent.str.contains('Jinzheng')")
    for board, quoted in zip(related["eval_setting"], related["value"]):
        assert paper.published_solver_rate(board, "safe", (0, 0)) == pytest.approx(quoted, abs=5e-4)
    assert paper.published_solver_rate("16x30x99", "zero", (3, 3)) > paper.published_solver_rate("16x30x99", "zero")
    assert paper.published_solver_rate("8x8x10", "reference") is None
    assert paper.published_solver_rate("8x8x10", "zero", (4, 4)) is None



def test_every_published_number_of_our_experiments_meets_one_of_ours():
    """No paper number drops out of results/comparison.csv through a key that does not match ours."""
    comparison = REPO / "results" / "comparison.csv"
    if not comparison.exists():
        pytest.skip("no committed comparison table")
    c = pd.read_csv(comparison)
    p = paper.paper_results()
    p = p[p["experiment"] != "related_work"]
    unmet = [tuple(r) for r in p[["experiment", "agent", "train_setting", "eval_setting", "metric", "value"]]
             .itertuples(index=False)
             if not ((c["experiment"] == r.experiment) & (c["paper"] == r.value)
                     & ((c["eval_setting"] == r.eval_setting) | (r.eval_setting == "training"))).any()]
    assert not unmet, unmet
