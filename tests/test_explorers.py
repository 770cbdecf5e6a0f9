"""The kernel-free explorers of the static book (sweeper.viz.explorers): the recorded games and
their tables, the learned-window selection, and the book's setup that keeps live widgets out of
the static pages. Their behaviour in a browser is tested in test_browser.py."""

import json
from pathlib import Path

import numpy as np
import pytest
import yaml

from sweeper import decode_key, make_agent, train
from sweeper.running.belief import audit
from sweeper.viz.board_charts import STATE_LABELS, STATE_NAMES, pattern_table
from sweeper.viz.explorers import (CERTAINTY_OPTIONS, CLASS_OPTIONS, MIN_N_OPTIONS, ORDER_OPTIONS, game_stepper_chart,
                                   pattern_explorer_chart, pattern_explorer_data, recorded_games, stepper_data)

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def agent():
    a = make_agent("greedy")
    train(a, "8x8x10", 3000, seed=1, progress=False)
    return a


@pytest.fixture(scope="module")
def games(agent):
    return recorded_games({"greedy": agent, "its copy": agent.copy()}, causes=("won", "forced guess"),
                          seeds=range(200))


def test_recorded_games_have_the_cause_the_audit_gives(games, agent):
    found, missing = games
    assert not missing
    assert [(g.agent, g.cause) for g in found] == [("greedy", "won"), ("greedy", "forced guess"),
                                                  ("its copy", "won"), ("its copy", "forced guess")]
    for g in found[:2]:
        ep = g.episode
        assert ep.done and ep.status == ("won" if g.cause == "won" else "lost")
        assert str(audit(agent, "8x8x10", 1, seed=ep.seed).games["cause"].iloc[0]) == g.cause
        assert all(d.exact is not None for d in ep.history)
        assert f"seed {ep.seed}" in g.label and f"{len(ep.history)} decisions" in g.label


def test_recorded_games_name_what_no_seed_gave(agent):
    found, missing = recorded_games({"greedy": agent}, causes=("won",), seeds=range(0))
    assert found == [] and missing == [("greedy", "won")]
    with pytest.raises(ValueError, match="causes"):
        recorded_games({"greedy": agent}, causes=("bad luck",))
    with pytest.raises(ValueError, match="agents"):
        recorded_games({})


def test_stepper_data_holds_every_step_and_the_candidates(games):
    found, _ = games
    data = stepper_data(found)
    for g, game in enumerate(found):
        ep = game.episode
        steps = data["steps"][data["steps"]["g"] == g]
        assert list(steps["step"]) == list(range(1, len(ep.history) + 2))
        assert data["games"].loc[g, "last"] == len(ep.history) + 1
        cands = data["candidates"][data["candidates"]["g"] == g]
        for k, d in enumerate(ep.history, start=1):
            rows = cands[cands["step"] == k].sort_values("i")
            chosen = rows.iloc[0]
            assert chosen["who"] == "chosen" and chosen["target"] == f"({d.tile[0]}, {d.tile[1]})"
            assert chosen["q"] == f"{d.q:+.3f}" and chosen["n"] == f"{d.n:,}"
            assert chosen["p"] == f"{d.exact[d.tile]:.3f}"
            assert len(rows) == 1 + len(d.runners_up)
            for (_, r), (_, ru) in zip(rows.iloc[1:].iterrows(), d.runners_up.iterrows()):
                assert r["q"] == f"{ru['q']:+.3f}" and r["p"] == f"{d.exact[int(ru['row']), int(ru['col'])]:.3f}"
        probs = data["probs"][data["probs"]["g"] == g]
        d = ep.history[0]
        covered = probs[probs["step"] == 1]
        assert np.allclose(covered["p"], d.exact[covered["row"], covered["col"]], atol=1e-4)
    with pytest.raises(ValueError):
        stepper_data([])


def test_stepper_chart_has_a_game_menu_and_a_step_slider(games):
    found, _ = games
    spec = game_stepper_chart(found).to_dict()
    params = {p["name"]: p for p in spec["params"]}
    assert params["game"]["bind"]["input"] == "select"
    assert params["game"]["bind"]["labels"] == [g.label for g in found]
    assert params["step"]["bind"]["max"] == max(len(g.episode.history) + 1 for g in found)
    assert "min(step" in params["at"]["expr"]
    # each table is stored once, however many layers read it
    values = [json.dumps(v) for v in spec["datasets"].values()]
    assert len(values) == len(set(values))


def test_pattern_explorer_holds_the_top_of_every_filter_combination(agent):
    patterns, counts = pattern_explorer_data(agent, top=10)
    keys = set(patterns["key"])
    assert len(keys) == len(patterns)
    for order in ORDER_OPTIONS:
        for cls in CLASS_OPTIONS:
            for ci, (kind, certainty) in enumerate(CERTAINTY_OPTIONS.values()):
                for min_n in MIN_N_OPTIONS:
                    t = pattern_table(agent, kind, 10, min_n, cls, certainty, order)
                    assert set(t["key"]) <= keys
                    row = counts[(counts["cls"] == cls) & (counts["cert"] == ci) & (counts["min_n"] == min_n)]
                    assert int(row["matches"].iloc[0]) == t.attrs["matches"]
    for _, r in patterns.head(20).iterrows():
        window, target = decode_key(int(r["key"]), agent.symmetric)
        assert r["st"] == [STATE_NAMES[c] for c in window.ravel()]
        assert r["lb"][target] == "?" and r["t"] == target
        assert [lb for j, lb in enumerate(r["lb"]) if j != target] == \
            [STATE_LABELS[c] for j, c in enumerate(window.ravel()) if j != target]
    with pytest.raises(ValueError):
        pattern_explorer_data(agent, top=0)


def test_pattern_explorer_chart_binds_the_four_filters(agent):
    spec = pattern_explorer_chart(agent, top=12).to_dict()
    params = {p["name"]: p for p in spec["params"]}
    assert set(params) == {"cls", "cert", "min_n", "order"}
    assert params["cls"]["bind"]["options"] == list(CLASS_OPTIONS)
    assert params["cert"]["bind"]["labels"] == list(CERTAINTY_OPTIONS)
    assert params["min_n"]["bind"]["options"] == list(MIN_N_OPTIONS)
    with pytest.raises(ValueError):
        pattern_explorer_chart(make_agent("sa"))


# -- the static book runs no live widget and loads no widget manager -----------------------------------

def test_the_book_loads_no_widget_manager():
    config = yaml.safe_load((REPO / "_config.yml").read_text())
    assert config["sphinx"]["config"]["nb_ipywidgets_js"] == {}


def test_live_widget_cells_are_not_run_in_the_static_book():
    for path in sorted((REPO / "book").glob("*.ipynb")):
        nb = json.loads(path.read_text())
        assert "widgets" not in nb["metadata"], path.name
        for cell in nb["cells"]:
            source = "".join(cell["source"])
            if cell["cell_type"] == "code" and "sweeper.viz.widgets" in source:
                assert "skip-execution" in cell["metadata"].get("tags", []), (path.name, source[:60])
                assert cell["outputs"] == [], path.name
