"""The game and pattern charts (sweeper.viz.board_charts) and the widgets (sweeper.viz.widgets), driven
without a browser; one headless-Chromium check (skipped without Chromium) that the replay's
slider steps through the game in a page with no kernel and no network."""

import re

import numpy as np
import pytest

from sweeper import decode_key, make_agent, to_paper_tuple, train
from sweeper.game.grid import COVERED, EXPLODED, FLAG
from sweeper.running.episode import Episode
from sweeper.viz.board_charts import (board_chart, pattern_atlas, pattern_chart, pattern_table, replay_chart, replay_data, tile_frame)
from sweeper.viz.widgets import GameStepper, PatternExplorer, train_with_progress


@pytest.fixture(scope="module")
def agent(trained_agent):
    return trained_agent("greedy", seed=1)


@pytest.fixture(scope="module")
def episode(agent):
    return Episode(agent, "8x8x10", seed=0).play()


def datasets(spec):
    """The spec's inline data sets, largest first."""
    return sorted(spec["datasets"].values(), key=len, reverse=True)


def step_param(spec):
    (param,) = [p for p in spec["params"] if p["name"] == "step"]
    return param


# --- boards -------------------------------------------------------------------------------------

def test_tile_frame_states_and_labels():
    view = np.array([[0, 3, COVERED], [FLAG, COVERED, EXPLODED]])
    mines = np.array([[False, False, True], [False, False, True]])
    plain = tile_frame(view)
    assert list(plain["state"]) == ["revealed", "revealed", "covered", "flag", "covered", "exploded"]
    assert list(plain["label"]) == ["", "3", "", "F", "", "*"]
    known = tile_frame(view, mines)
    assert list(known["state"]) == ["revealed", "revealed", "mine", "wrong flag", "covered", "exploded"]
    with pytest.raises(ValueError):
        tile_frame(np.array([[13]]))


def test_board_chart_has_one_row_per_tile_and_its_marks(episode):
    d = episode.history[3]
    spec = board_chart(d.view, highlight=d.tile, window=d.centre, action=d.action, title="t").to_dict()
    sizes = sorted(len(rows) for rows in spec["datasets"].values())
    assert sizes == [1, 1, 64]  # window, target, tiles
    marks = [layer["mark"] for layer in spec["layer"]]
    assert [m["type"] for m in marks] == ["rect", "text", "rect", "rect"]
    assert marks[2].get("strokeDash") and marks[3]["filled"] is False
    target = [rows for rows in spec["datasets"].values() if "action" in rows[0]][0][0]
    assert (target["row"], target["col"], target["action"]) == (*d.tile, d.action)
    assert spec["width"] == spec["height"] == 8 * 26


# --- the replay ---------------------------------------------------------------------------------

def test_replay_chart_has_a_step_slider_over_every_decision(episode):
    n = len(episode.history)
    spec = replay_chart(episode).to_dict()
    param = step_param(spec)
    assert param["bind"]["input"] == "range" and param["bind"]["min"] == 1 and param["value"] == 1
    assert param["bind"]["max"] == n + 1  # every decision, then the final board
    assert step_param(replay_chart(episode, final=False).to_dict())["bind"]["max"] == n
    tiles, decisions = replay_data(episode)
    assert [len(rows) for rows in datasets(spec)] == [len(tiles), len(decisions)]
    assert len(decisions) == n + 1 and len(tiles) < 64 * (n + 1)  # one row per change, not per step


def test_replay_data_matches_the_history(episode):
    tiles, decisions = replay_data(episode)
    history = episode.history
    for step, d in enumerate(history, start=1):
        row = decisions[decisions["step"] == step].iloc[0]
        assert (row["row"], row["col"], row["action"]) == (*d.tile, d.action)
        assert f"Decision {d.number} of {len(history)}: {d.action} {d.tile}" in row["text"]
        board = tiles[(tiles["first"] <= step) & (step <= tiles["last"])].sort_values(["row", "col"])
        expected = tile_frame(d.view)
        assert list(board["state"]) == list(expected["state"]) and list(board["label"]) == list(expected["label"])
    final = tiles[tiles["last"] == len(history) + 1].sort_values(["row", "col"])
    assert list(final["state"]) == list(tile_frame(episode.view, episode.mines)["state"])


def test_replay_needs_a_decision(agent):
    with pytest.raises(ValueError):
        replay_chart(Episode(agent, "8x8x10", seed=0))


# --- patterns -----------------------------------------------------------------------------------

def test_pattern_table_values_are_the_agents(agent):
    table = pattern_table(agent, "all", top=50)
    keys, q, n = agent.table.recorded()
    assert table.attrs == {"matches": len(keys), "recorded": len(keys)}
    certainty = np.abs(table["certainty"].to_numpy())
    assert np.all(np.diff(certainty) <= 0)
    for _, row in table.iterrows():
        assert agent.table[row["key"]] == (row["q"], row["n"])
        assert row["p_mine"] == pytest.approx((row["q"] + 1) / 2) and row["certainty"] == abs(row["q"])
        window, target = decode_key(row["key"], symmetric=True)
        assert row["paper"] == to_paper_tuple(window, target)
        assert row["class"] == ("corner" if target == 0 else "edge")


@pytest.mark.parametrize("kind, target_class, certainty, min_n", [
    ("safe", "corner", (0.5, 1.0), 20), ("mine", "edge", (0.0, 1.0), 5), ("all", None, (0.2, 0.8), 1)])
def test_pattern_table_filters(agent, kind, target_class, certainty, min_n):
    table = pattern_table(agent, kind, min_n=min_n, target_class=target_class, certainty=certainty, order="count")
    assert len(table) == table.attrs["matches"] > 0
    assert (table["n"] >= min_n).all() and table["certainty"].between(*certainty).all()
    assert {"safe": (table["q"] < 0), "mine": (table["q"] >= 0), "all": table["q"] == table["q"]}[kind].all()
    if target_class:
        assert (table["class"] == target_class).all()
    assert np.all(np.diff(table["n"].to_numpy()) <= 0)


def test_pattern_chart_draws_nine_cells_per_window_with_captions(agent):
    table = pattern_table(agent, "safe", top=7)
    spec = pattern_chart(table["key"], table["q"], table["n"], columns=3).to_dict()
    cells, captions = datasets(spec)
    assert len(cells) == 9 * 7 and len(captions) == 7
    assert [c["text"] for c in captions] == [f"Q={q:+.2f}\nN={int(n):,}" for q, n in zip(table["q"], table["n"])]
    assert sum(c["target"] for c in cells) == 7 and {c["label"] for c in cells if c["target"]} == {"?"}
    atlas = pattern_atlas(agent, "mine", top=5, min_n=10).to_dict()
    assert "mine patterns" in atlas["title"] and len(datasets(atlas)[1]) == 5


def test_patterns_need_window_agents():
    with pytest.raises(ValueError):
        pattern_table(make_agent("sa"))
    with pytest.raises(ValueError):
        pattern_table(make_agent("greedy"), kind="unsure")


# --- widgets ------------------------------------------------------------------------------------

def test_stepper_forward_and_back_replay_without_replaying(agent):
    before = agent.table.recorded()
    s = GameStepper({"greedy": agent}, seed=0)
    first = s.view.copy()
    for k in range(1, 6):
        s.forward()
        assert s.position == k and len(s.episode.history) == k
        assert s.decision is s.episode.history[k - 1] and np.array_equal(s.view, s.decision.view)
        assert s.chart is not None and f"Decision {k} of {k}" in s.info.value
    for _ in range(5):
        s.back()
    assert s.position == 0 and np.array_equal(s.view, first) and len(s.episode.history) == 5
    s.forward()
    assert s.position == 1 and len(s.episode.history) == 5  # replayed, not played again
    assert all(np.array_equal(a, b) for a, b in zip(before, agent.table.recorded()))  # a copy learned


def test_stepper_same_game_as_episode_and_end(agent):
    s = GameStepper(agent, seed=0)
    s.play_to_end()
    reference = Episode(agent, "8x8x10", seed=0).play()
    assert [d.tile for d in s.episode.history] == [d.tile for d in reference.history]
    assert s.position == len(reference.history) + 1 and s.decision is None
    assert s.forward_button.disabled and f"Game {s.episode.status}" in s.info.value
    s.forward()
    assert s.position == len(reference.history) + 1


def test_stepper_new_game_and_controls(agent):
    s = GameStepper({"greedy": agent, "ucb": make_agent("ucb:0.1")}, seed=4)
    s.forward()
    s.new_game()
    assert s.seed.value == 5 and s.episode.seed == 5 and s.position == 0 and not s.episode.history
    s.new_game(seed=2)
    assert s.episode.seed == 2
    s.agent_choice.value = "ucb"
    assert s.episode.agent.name == "ucb:0.1"
    s.board.value = "4x4x2"
    assert str(s.episode.setting) == "4x4x2"
    old = s.episode
    s.board.value = "not a board"
    assert s.episode is old and "board must look like" in s.status.value


def test_pattern_explorer_filters(agent):
    e = PatternExplorer(agent, top=10)
    e.kind.value = "mine"
    e.min_n.value = 30
    e.target_class.value = "edge"
    e.certainty.value = (0.5, 1.0)
    table = e.table
    assert 0 < len(table) <= 10
    assert (table["q"] >= 0).all() and (table["n"] >= 30).all() and (table["class"] == "edge").all()
    assert (table["certainty"] >= 0.5).all()
    e.order.value = "count"
    e.top.value = 3
    assert list(e.apply_filters()["n"]) == sorted(e.table["n"], reverse=True) and len(e.table) == 3
    assert f"{e.table.attrs['matches']:,} of" in e.summary.value


def test_train_with_progress_is_train(capsys):
    run = train_with_progress("greedy", "8x8x10", 500, seed=3)
    plain = train("greedy", "8x8x10", 500, seed=3, progress=False)
    assert run.records.equals(plain.records)


# --- the replay in a browser, no kernel -----------------------------------------------------------

MOVE_TO_STEP_5 = """<script>
(function poll() {
  var el = document.querySelector(".sweeper-chart");
  if (!el || !el.vegaEmbedResult) { return setTimeout(poll, 20); }
  var input = el.querySelector("input[type=range]");
  input.value = 5;
  input.dispatchEvent(new Event("input", {bubbles: true}));
  el.vegaEmbedResult.view.runAsync().then(function () { document.body.setAttribute("data-moved", "1"); });
})();
</script>"""


def test_replay_slider_steps_in_a_static_page(tmp_path, episode):
    from test_charts import chart_div, dump_dom, page

    from sweeper.viz import offline

    html = offline.chart_html(replay_chart(episode).to_dict())
    dom = dump_dom(page(tmp_path, html + MOVE_TO_STEP_5))
    assert 'data-chart-status="ready"' in dom and 'data-moved="1"' in dom
    svg = re.search(r'<div id="%s"[^>]*>(.*?</svg>)' % chart_div(html), dom, re.S).group(1)
    d = episode.history[4]
    assert f"Decision {d.number} of {len(episode.history)}" in svg
    assert svg.count('aria-roledescription="rect mark"') >= 64


# --- exact probabilities beside the agent's Q ---------------------------------------------------------

def test_episode_with_exact_probabilities_carries_the_solvers(agent):
    from sweeper.game.probability import mine_probabilities
    ep = Episode(agent, "8x8x10", seed=4, exact=True).play()
    plain = Episode(agent, "8x8x10", seed=4).play()
    assert [d.tile for d in ep.history] == [d.tile for d in plain.history]  # the same game
    for d in ep.history:
        np.testing.assert_array_equal(d.exact, mine_probabilities(d.view, 10))
        assert d.target_exact == d.exact[d.tile] and d.belief == (d.q + 1) / 2
    assert plain.history[0].exact is None and plain.history[0].target_exact is None


def test_prob_frame_labels_only_certainties_as_0_and_100():
    from sweeper.viz.board_charts import prob_frame
    view = np.array([[COVERED, COVERED, 1], [FLAG, COVERED, COVERED]])
    p = np.array([[0.0, 1.0, np.nan], [0.004, 0.996, 0.5]])
    f = prob_frame(view, p)
    assert list(f["ptext"]) == ["0", "100", "1", "99", "50"]
    assert list(f["pclass"]) == ["safe", "mine", "unsure", "unsure", "unsure"]
    with pytest.raises(ValueError, match="shape"):
        prob_frame(view, p[:1])
    with pytest.raises(ValueError, match="covered"):
        prob_frame(view, np.full((2, 3), np.nan))


def test_board_and_replay_print_exact_probabilities(agent):
    ep = Episode(agent, "8x8x10", seed=4, exact=True).play()
    d = ep.history[1]
    spec = board_chart(d.view, highlight=d.tile, probabilities=d.exact).to_dict()
    labels = [rows for rows in spec["datasets"].values() if rows and "ptext" in rows[0]][0]
    assert len(labels) == int(((d.view == COVERED) | (d.view == FLAG)).sum())
    spec = replay_chart(ep).to_dict()
    probs = [rows for rows in spec["datasets"].values() if rows and "ptext" in rows[0]][0]
    assert {r["step"] for r in probs} == set(range(1, len(ep.history) + 1))
    assert "exact P(mine) of the target" in replay_data(ep)[1]["text"].iloc[0]
    assert not any(rows and "ptext" in rows[0] for rows in replay_chart(ep, exact=False).to_dict()["datasets"].values())
    with pytest.raises(ValueError, match="exact=True"):
        replay_chart(Episode(agent, "8x8x10", seed=4).play(), exact=True)


def test_stepper_shows_exact_probabilities_on_request(agent):
    s = GameStepper(agent, seed=4)
    assert s.probabilities is None
    s.forward()
    s.exact.value = True
    assert s.probabilities is not None and "exact P(mine) of the target" in s.info.value
    s.play_to_end()
    assert s.probabilities is None  # the final board shows the mines instead


def test_widget_charts_are_svg_drawn_in_python_with_the_oracle_line(agent, monkeypatch):
    """The widgets' charts need no script in the front end (before: Altair's default renderer, which loads Vega
    from a CDN, and showed "Error loading script" offline); the stepper's text carries the exact oracle."""
    from IPython.display import SVG
    from sweeper.viz import widgets
    shown = []
    monkeypatch.setattr(widgets, "display", shown.append)  # what each widget puts into its output area
    stepper = widgets.GameStepper(agent, "8x8x10", seed=3)
    stepper.forward()
    assert shown and all(isinstance(x, SVG) and x.data.lstrip().startswith("<svg") for x in shown), \
        [(type(x), str(getattr(x, "data", x))[:40]) for x in shown]
    assert "<script" not in shown[-1].data
    assert "oracle&#x27;s best move" in stepper.info.value and "regret" in stepper.info.value
    # glyphs that Debian's fonts have: no Miscellaneous Technical symbol such as U+23ED (shown as a box)
    assert not any(0x2300 <= ord(ch) < 0x2400 for b in (stepper.back_button, stepper.forward_button,
                                                        stepper.end_button) for ch in b.description)
    shown.clear()
    widgets.PatternExplorer(agent, top=6)
    assert len(shown) == 1 and isinstance(shown[0], SVG)
