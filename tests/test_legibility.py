"""What a reader sees, checked mechanically over the charts and sentences the book draws from its committed results:
every text mark is at least 11 px, a slider's range comes from its data, every legend entry of a line chart is a
series with data and no line hides another unseen, a flag's "F" and its P(mine) label do not share a place, and no
generated sentence doubles a word or leaves a placeholder unfilled."""

import math
import re

import numpy as np
import pandas as pd
import pytest

from sweeper.game.grid import COVERED, FLAG
from sweeper.viz import figures, paper_charts
from sweeper.viz.board_charts import (FLAG_Y, MIN_FONT, PROB_CELL_PX, PROB_FONT, PROB_FOOT, TILE_FONT, board_chart,
                                      cell_px, pattern_atlas, pattern_chart, replay_chart)
from sweeper.viz.explorers import (explorer_pages, game_stepper_chart, pattern_explorer_chart, pattern_explorer_data,
                                   plural, recorded_games)
from sweeper.viz.offline import SLIDER_ENDS, slider_max

try:
    figures.comparison()
    HAVE_RESULTS = True
except ValueError:
    HAVE_RESULTS = False
needs_results = pytest.mark.skipif(not HAVE_RESULTS, reason="no results at this scale (make reproduce)")


# -- walking a Vega-Lite spec ---------------------------------------------------------------------------------

def _units(spec):
    """Every unit spec (one with a ``mark``) in ``spec``, however deep in layers, concats and facets."""
    if isinstance(spec, dict):
        if "mark" in spec:
            yield spec
        for key in ("layer", "hconcat", "vconcat", "concat"):
            for sub in spec.get(key, []):
                yield from _units(sub)
        if isinstance(spec.get("spec"), dict):
            yield from _units(spec["spec"])


def _mark(unit) -> dict:
    m = unit["mark"]
    return {"type": m} if isinstance(m, str) else m


def text_sizes(spec) -> list:
    """The font size of every text mark (Vega's default, 11, where none is set)."""
    return [_mark(u).get("fontSize", 11) for u in _units(spec) if _mark(u)["type"] == "text"]


def test_the_spec_walk_finds_nested_text_marks():
    import altair as alt

    d = pd.DataFrame({"x": [1], "t": ["a"]})
    inner = alt.Chart(d).mark_text(fontSize=9).encode(x="x:Q", text="t:N")
    chart = alt.vconcat(alt.layer(inner, alt.Chart(d).mark_text().encode(text="t:N")),
                        alt.Chart(d).mark_point().encode(x="x:Q"))
    assert sorted(text_sizes(chart.to_dict())) == [9, 11]
    assert text_sizes(inner.properties(width=10).facet(row="t:N").to_dict()) == [9]


# -- the book's charts ------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def small_agent(trained_agent):
    return trained_agent()


@pytest.fixture(scope="module")
def stepper(small_agent):
    games, missing = recorded_games({"greedy": small_agent}, seeds=range(300))
    return games, game_stepper_chart(games, missing).to_dict()


def _view_with_flags():
    view = np.full((5, 5), COVERED)
    view[0, :] = [1, 1, 2, 1, 1]
    view[1, 2] = FLAG
    p = np.full((5, 5), 0.3)
    p[1, 2] = 1.0
    return view, p


def _board_specs(small_agent):
    from sweeper.running.episode import Episode

    view, p = _view_with_flags()
    ep = Episode(small_agent, "8x8x10", seed=3, learn=False, exact=True).play()
    keys, q, n = small_agent.table.recorded()
    return {"board with P(mine)": board_chart(view, probabilities=p, highlight=(2, 2)).to_dict(),
            "board": board_chart(view).to_dict(),
            "replay": replay_chart(ep).to_dict(),
            "pattern chart": pattern_chart(keys[:12], q[:12], n[:12]).to_dict(),
            "pattern atlas": pattern_atlas(small_agent, top=12).to_dict(),
            "pattern explorer": pattern_explorer_chart(small_agent, top=12, pages=3).to_dict()}


def test_board_and_game_charts_draw_no_text_below_11_px(small_agent, stepper):
    specs = {**_board_specs(small_agent), "stepper": stepper[1]}
    for name, spec in specs.items():
        sizes = text_sizes(spec)
        assert sizes, name
        assert min(sizes) >= MIN_FONT, (name, sorted(set(sizes)))


@needs_results
def test_the_book_s_result_charts_draw_no_text_below_11_px():
    band = figures.fig_exp_1_band()
    charts = {
        "Fig. 7": paper_charts.fig_exp_1_band(band), "zoom": paper_charts.zoom_final(band),
        "Fig. 8": paper_charts.fig_exp_2_band(figures.fig_exp_2_band()),
        "Fig. 9": paper_charts.fig_exp_5(figures.fig_exp_5()), "Fig. 10": paper_charts.fig_exp_4(figures.fig_exp_4()),
        "Fig. 11": paper_charts.heat_band(figures.fig_exp_6_band(), "cols", "width", "Fig. 11"),
        "Fig. 12": paper_charts.heat_band(figures.fig_exp_7_band(), "target_density", "density", "Fig. 12"),
        "how good": paper_charts.how_good(figures.how_good()),
        "Thompson": paper_charts.fig_exp_1_band(figures.thompson_band()[0]),
        "own rules": paper_charts.fig_exp_1_band(figures.own_rule_band()[0]),
    }
    charts["loss causes"] = paper_charts.loss_causes(figures.belief()["losses"])
    cal = figures.belief()["calibration"]
    charts["calibration"] = paper_charts.calibration(cal[cal["which"] == "chosen"], "chosen actions")
    charts.update({"Fig. 7, one seed": paper_charts.fig_exp_1(figures.fig_exp_1()),
                   "Fig. 8, one seed": paper_charts.fig_exp_2(figures.fig_exp_2()),
                   "Fig. 11, one seed": paper_charts.fig_exp_6(figures.fig_exp_6()),
                   "Fig. 12, one seed": paper_charts.fig_exp_7(figures.fig_exp_7())})
    from sweeper.viz import regret_charts as rc
    from sweeper.viz.figures import regret as rf
    charts.update({"regret": rc.curves_chart(rf.bands(), "decisions"),
                   "regret parts": rc.parts_chart(rf.bands(column="gap"), rf.bands(column="learning")),
                   "trade-off": rc.tradeoff_chart(rf.tradeoff())})
    for name, chart in charts.items():
        sizes = text_sizes(chart.to_dict())
        assert not sizes or min(sizes) >= MIN_FONT, (name, sorted(set(sizes)))


def _stored(build):
    """``build()``, or the test skipped with the message that names the missing runs (paper scale only)."""
    try:
        return build()
    except ValueError as exc:
        pytest.skip(str(exc))


def test_the_neural_and_deep_rl_charts_draw_no_text_below_11_px():
    """The neural bandit's charts and the deep-RL chapter's, from the stored paper-scale runs they read (the networks
    of ``ext:neural``: the same charts as the book's networks)."""
    from sweeper.viz import neural_charts as nc
    from sweeper.viz.figures import deep, neural as nf
    runs = _stored(lambda: nf.neural_runs(recipe="cpu"))
    players = nf.comparison_players(nf.yardstick(), boards=int(runs["checkpoints"]["test_games"].iloc[0]))
    druns = _stored(deep.deep_runs)
    charts = {"checkpoints": nc.checkpoints_chart(runs["checkpoints"], players, nf.TARGETS),
              "network calibration": nc.calibration_chart(nf.calibration(runs)),
              "mistake": nc.mistake_chart(next(nf.worst_mistakes(runs["mistakes"]).iterrows())[1]),
              "deep RL": paper_charts.deep_rl_curves(deep.mean_curves(druns["curves"], deep.greedy_run(),
                                                                      druns["runs"])),
              "signal": nc.signal_chart(deep.signal_points(druns["checkpoints"], runs["checkpoints"]))}
    from sweeper.viz.figures import neural_regret as nreg
    regret = _stored(lambda: pd.concat([nreg.network_runs(), nreg.table_runs()], ignore_index=True))
    charts["training regret"] = nc.training_regret_chart(nreg.curves(regret))
    for name, chart in charts.items():
        sizes = text_sizes(chart.to_dict())
        assert not sizes or min(sizes) >= MIN_FONT, (name, sorted(set(sizes)))


def drawn_charts(source: str) -> set:
    """The charts of the package (``module.function``) that the tests in ``source`` call: through a module imported
    from :mod:`sweeper.viz` (``paper_charts.how_good(...)``, ``bc.cost_chart(...)``) or a function imported from one
    (``board_chart(...)``)."""
    import ast
    modules, functions, drawn = {}, {}, set()
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "sweeper.viz":
            modules.update({a.asname or a.name: a.name for a in node.names})
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sweeper.viz."):
            functions.update({a.asname or a.name: f"{node.module.split('.')[-1]}.{a.name}" for a in node.names})
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            if node.func.value.id in modules:
                drawn.add(f"{modules[node.func.value.id]}.{node.func.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in functions:
            drawn.add(functions[node.func.id])
    return drawn


def test_every_chart_of_the_package_is_checked_here():
    """The charts are not listed by hand: :func:`sweeper.viz.chart_functions` finds every chart function of the
    package's modules, and each must be drawn by a test of this file (a new chart fails here until it is)."""
    from pathlib import Path
    from sweeper.viz import chart_functions
    charts = chart_functions()
    assert {"paper_charts.how_good", "board_charts.board_chart", "benchmark_charts.forest_chart"} <= set(charts)
    missing = sorted(set(charts) - drawn_charts(Path(__file__).read_text()))
    assert not missing, f"charts no test of tests/test_legibility.py draws: {missing}"


def guide_sizes(spec) -> list:
    """The font size of every axis's labels and title and every legend's labels and title a chart draws (Vega's
    defaults, 10 for labels and 11 for titles, where none is set; an axis or legend set to None draws nothing)."""
    sizes = []
    if isinstance(spec, dict):
        for key, value in spec.items():
            if key in ("axis", "legend") and isinstance(value, dict):
                sizes.append(value.get("labelFontSize", 10))
                if value.get("title", "") is not None:
                    sizes.append(value.get("titleFontSize", 11))
            else:
                sizes += guide_sizes(value)
    elif isinstance(spec, list):
        for value in spec:
            sizes += guide_sizes(value)
    return sizes


def test_the_leaderboard_s_charts_draw_no_text_below_11_px():
    """The leaderboard's forest plots and its cost chart: text marks, axes and legends (issue 62)."""
    from made_benchmark import made_bench
    from sweeper.viz import benchmark_charts as bc
    from sweeper.viz.figures import benchmark as bf, benchmark_cost as fc

    runs = made_bench(ppo=True)
    points = fc.cost_points(runs)
    charts = {"forest": bc.forest_chart(bf.forest(runs, "beginner"), "beginner", 100),
              "cost": bc.cost_chart(points, fc.untrained(runs, "beginner", 50))}
    for name, chart in charts.items():
        spec = chart.to_dict()
        sizes = text_sizes(spec) + guide_sizes(spec)
        assert len(sizes) > 3 and min(sizes) >= MIN_FONT, (name, sorted(set(sizes)))
    assert guide_sizes({"encoding": {"x": {"axis": {}}, "y": {"axis": None}}}) == [10, 11]  # Vega's own: too small


# -- a flag and its P(mine) label -----------------------------------------------------------------------------

def test_a_flag_and_its_p_mine_label_do_not_overlap():
    px = cell_px(8, probabilities=True)
    assert px >= PROB_CELL_PX and cell_px(60, probabilities=True) >= PROB_CELL_PX
    # the "F" (centred, about a font size tall) ends above the top of the label (its foot minus its digits' height)
    f_bottom = FLAG_Y * px + TILE_FONT / 2
    label_top = PROB_FOOT * px - PROB_FONT * 0.75
    assert f_bottom < label_top and PROB_FOOT * px <= px
    spec = board_chart(*_view_with_flags()[:1], probabilities=_view_with_flags()[1]).to_dict()
    calcs = [t["calculate"] for u in _units(spec) for t in u.get("transform", []) if t.get("as") == "cy"]
    assert any("'F'" in c and str(FLAG_Y) in c for c in calcs)          # the flag moves up
    assert any(str(PROB_FOOT) in c for c in calcs)                      # the label sits at the foot
    plain = board_chart(_view_with_flags()[0]).to_dict()                # without labels the flag stays centred
    assert all("'F'" not in t["calculate"] for u in _units(plain) for t in u.get("transform", [])
               if t.get("as") == "cy")


# -- sliders whose range comes from the data ------------------------------------------------------------------

def _params(spec) -> dict:
    return {p["name"]: p for p in spec.get("params", [])}


def test_the_step_through_s_slider_ends_at_the_chosen_game_s_end(stepper):
    games, spec = stepper
    params = _params(spec)
    ends = [len(g.episode.history) + 1 for g in games]
    assert params["step"]["bind"]["min"] == 1 and params["step"]["bind"]["max"] == max(ends)
    assert spec["usermeta"][SLIDER_ENDS] == {"step": "step_end"}
    assert params["step_end"]["expr"] == "[" + ",".join(map(str, ends)) + "][game]"
    assert len(set(ends)) > 1, "the test needs games of different lengths"
    for g in games:
        n = len(g.episode.history)
        assert g.label.endswith(f", {plural(n, 'decision')})")
        assert not re.search(r"\b1 decisions\b", g.label)


def test_plural():
    assert plural(1, "decision") == "1 decision" and plural(2, "decision") == "2 decisions"
    assert plural(0, "game") == "0 games" and plural(1200, "game") == "1,200 games"


def test_the_pattern_explorer_s_page_slider_ends_at_the_pages_its_filters_fill(small_agent):
    top, pages = 12, 3
    spec = pattern_explorer_chart(small_agent, top=top, pages=pages).to_dict()
    params = _params(spec)
    assert params["page"]["bind"]["max"] == pages and params["page"]["bind"]["min"] == 1
    assert spec["usermeta"][SLIDER_ENDS] == {"page": "page_end"}
    _, counts = pattern_explorer_data(small_agent, top, pages)
    ends = explorer_pages(counts, top, pages)
    for r in counts.itertuples():
        assert ends[f"{r.cls}|{r.cert}|{r.min_n}"] == max(1, min(pages, math.ceil(r.matches / top)))
    assert {1, pages} <= set(ends.values()), "the test needs filters that fill one page and all pages"
    assert all(f"'{k}': {v}" in params["page_end"]["expr"] for k, v in ends.items())
    # one page: no page slider
    assert "page" not in _params(pattern_explorer_chart(small_agent, top=top).to_dict())


def test_slider_max_refuses_names_that_are_not_params():
    import altair as alt

    step = alt.param(name="step", value=1, bind=alt.binding_range(min=1, max=5, step=1))
    chart = alt.Chart(pd.DataFrame({"x": [1]})).mark_point().encode(x="x:Q").add_params(step)
    with pytest.raises(ValueError, match="no param named"):
        slider_max(chart, {"step": "step_end"})


# -- legends of line charts ------------------------------------------------------------------------------------

def _colour_domain(spec) -> list:
    for u in _units(spec):
        colour = u.get("encoding", {}).get("color", {})
        if "scale" in colour and "domain" in colour["scale"]:
            return colour["scale"]["domain"]
    return []


def _check_line_band_chart(df, chart):
    spec = chart.to_dict()
    shown = _colour_domain(spec)
    with_data = set(df.dropna(subset=["cum_win_rate"])["agent"])
    assert set(shown) == with_data                          # every legend entry is a series with data, and back
    dashes = dict(zip(shown, next(u["encoding"]["strokeDash"]["scale"]["range"] for u in _units(spec)
                                  if "strokeDash" in u.get("encoding", {}))))
    for a, b, _, _ in paper_charts.near_series(df):
        assert dashes[a] != dashes[b], (a, b)                # a line lying on another is drawn differently
    sentence = paper_charts.near_series_sentence(df)
    assert all(a in sentence and b in sentence for a, b, _, _ in paper_charts.near_series(df))
    legend = next(u["encoding"]["color"]["legend"] for u in _units(spec) if "color" in u.get("encoding", {}))
    assert legend.get("symbolOpacity", 0) == 1                # legend markers are not as pale as the bands


def test_a_line_lying_on_another_is_dashed_and_named():
    ep = np.arange(1, 11) * 1000
    rows = [("greedy", e, 0.5 + e / 1e5) for e in ep] + [("ucb:0.01", e, 0.3 + e / 1e5) for e in ep] \
        + [("ucb:0.1", e, 0.302 + e / 1e5) for e in ep]
    df = pd.DataFrame(rows, columns=["agent", "episode", "cum_win_rate"]).assign(low=lambda d: d.cum_win_rate - 0.01,
                                                                               high=lambda d: d.cum_win_rate + 0.01,
                                                                               seeds=3)
    assert [p[:2] for p in paper_charts.near_series(df)] == [("ucb:0.01", "ucb:0.1")]
    _check_line_band_chart(df, paper_charts.fig_exp_1_band(df))
    assert "ucb:0.1's line is dashed" in paper_charts.near_series_sentence(df)
    assert paper_charts.near_series_sentence(df[df["agent"] != "ucb:0.1"]) == ""


@needs_results
def test_the_book_s_learning_curves_show_every_series_they_name():
    band = figures.fig_exp_1_band()
    _check_line_band_chart(band, paper_charts.fig_exp_1_band(band))
    for df in (figures.thompson_band()[0], figures.own_rule_band()[0]):
        _check_line_band_chart(df, paper_charts.fig_exp_1_band(df))
    for df, field in ((figures.fig_exp_4(), "variant"), (figures.fig_exp_2_band(), "agent")):
        assert df.groupby(field)["episode"].count().min() > 0


# -- generated sentences --------------------------------------------------------------------------------------

PLACEHOLDER = re.compile(r"\{[^}]*\}|%%|\b(?:nan|NaN|None|TODO|XXX)\b|<[a-z_]+>")
DOUBLED = re.compile(r"\b([A-Za-z]+)\s+\1\b", re.IGNORECASE)


def sentence_faults(text: str) -> list:
    """Doubled words and unfilled placeholders in a generated sentence (LaTeX and code spans aside)."""
    plain = re.sub(r"`[^`]*`|\$[^$]*\$", "", text)
    return [m.group(0) for m in DOUBLED.finditer(plain)] + [m.group(0) for m in PLACEHOLDER.finditer(plain)]


def test_sentence_faults_finds_doubled_words_and_placeholders():
    assert sentence_faults("the the agent") == ["the the"]
    assert sentence_faults("wins {rate} of nan games, None") == ["{rate}", "nan", "None"]
    assert sentence_faults("none of the agents") == []
    assert sentence_faults("Q is `{q}` and $\\{x\\}$; 1 1 is fine") == []


def _generated_sentences() -> dict:
    c = figures.comparison()
    s = c[(c["experiment"] == "sa_vs_mab") & (c["metric"] == "win_rate")]
    no_flags, sa = figures.readings()
    t2 = figures.table2_bandit_readings()
    hg = figures.how_good()
    band = figures.fig_exp_1_band()
    from sweeper.game.grid import COVERED as C
    out = {
        "scale note": figures.scale_note(),
        "no flags": figures.no_flags_verdict(no_flags), "SA readings": figures.sa_verdict(sa),
        "SA summary": figures.sa_readings_summary(sa), "SA vs bandit": figures.sa_vs_bandit_verdict(s),
        "paper ties": figures.sa_paper_ties(c), "Table II code": figures.table2_bandit_verdict(t2),
        "how good": figures.how_good_interval(hg), "opening": figures.opening_effect(hg)[1],
        "pseq": figures.pseq_verdict(figures.pseq()),
        "own rule": figures.own_rule_verdict(figures.own_rule_band()[1]),
        "near series": paper_charts.near_series_sentence(band), "zoom": paper_charts.zoom_sentence(band),
        "corner images": figures.transform_sentence(figures.transform_images(
            np.array([[0, 0, 1], [0, 1, 2], [1, 2, C]]), (2, 2))),
        "edge images": figures.transform_sentence(figures.transform_images(
            np.array([[C, C, 1], [1, 1, 1], [0, 0, 0]]), (0, 1))),
        "keys ratio": figures.keys_ratio_sentence({3000: 2.4, 10_000: 2.8}, 4.35),
        "timing": figures.timing_sentence(), "timing verdict": figures.timing_verdict(),
        "comparison": figures.comparison_sentence(), "bench": figures.bench_sentence(),
        "Thompson cost": figures.thompson_cost_sentence(), "rule cost": figures.rule_cost_sentence(),
        "probe cost": figures.probe_cost_sentence(),
        "size trend": figures.size_trend(figures.fig_exp_6_band()),
    }
    return out


@needs_results
def test_generated_sentences_double_no_word_and_fill_every_placeholder():
    for name, text in _generated_sentences().items():
        assert sentence_faults(text) == [], (name, text)


def test_the_symmetry_sentence_explains_fewer_distinct_images():
    C = COVERED
    images = figures.transform_images(np.array([[0, 0, 1], [0, 1, 2], [1, 2, C]]), (2, 2))
    text = figures.transform_sentence(images)
    assert len({i[3] for i in images}) == 1 and len({i[4] for i in images}) == 4
    assert "only 4 different windows" in text and "rot 0° + mirror" in text and "transpose" in text
    edge = figures.transform_sentence(figures.transform_images(np.array([[C, C, 1], [1, 1, 1], [0, 0, 0]]), (0, 1)))
    assert "8 distinct keys" in edge and "8 different windows" in edge
    with pytest.raises(ValueError):
        figures.transform_images(np.zeros((3, 3)), (1, 1))
    with pytest.raises(ValueError):
        figures.transform_images(np.zeros((2, 3)), (0, 0))


def test_the_keys_ratio_sentence_sets_the_short_runs_beside_the_table():
    text = figures.keys_ratio_sentence({3000: 2.4, 10_000: 2.77, 30_000: 3.09}, 4.35)
    assert text.startswith("The ratio is 2.4 after 3,000 games, 2.8 after 10,000 games, 3.1 after 30,000 games, "
                           "against 4.35 after 1,000,000 games")
    assert "It grows with training" in text
    assert "not monotone" in figures.keys_ratio_sentence({3000: 2.4, 10_000: 2.2}, 4.35)
    with pytest.raises(ValueError):
        figures.keys_ratio_sentence({}, 4.35)


def test_a_tie_in_table_ii_is_named_with_what_the_page_can_tell():
    rows = []
    for agent, ours, paper in (("mab-greedy", 0.7523, 0.7462), ("mab-greedy+nosym", 0.7504, None),
                               ("sa-greedy", 0.7356, 0.7462)):
        rows.append({"experiment": "sa_vs_mab", "metric": "win_rate", "train_setting": "4x4x4",
                     "train_episodes": 1_000_000, "agent": agent, "ours": ours, "ci_low": ours - 0.0009,
                     "ci_high": ours + 0.0009, "paper": paper})
    c = pd.DataFrame(rows)
    text = figures.sa_paper_ties(c)
    assert "prints 0.7462 for both its bandit and its state-action agent on 4x4x4 after 1,000,000 games" in text
    assert "cannot tell whether that is a copy error" in text
    assert "1.67 points below our bandit with symmetries (95% intervals that do not overlap)" in text
    assert "about 6% of the time" in text
    assert figures.sa_paper_ties(c.assign(paper=[0.75, None, 0.74])) == ""


def test_the_zoom_names_the_bands_it_cannot_widen():
    ep = np.arange(1, 11) * 1000
    flat = [("greedy", e, 0.70 + e / 1e6, 0.004) for e in ep]          # flat: its band fills its panel
    climbing = [("ucb:1", e, 0.30 + e / 1e5, 0.002) for e in ep]       # climbs 5 points: its band is a line
    df = pd.DataFrame(flat + climbing, columns=["agent", "episode", "cum_win_rate", "w"]).assign(
        low=lambda d: d.cum_win_rate - d.w / 2, high=lambda d: d.cum_win_rate + d.w / 2)
    text = paper_charts.zoom_sentence(df)
    assert text.startswith("The band of ucb:1 stays a thin line even here: this agent still climbs 5.") and \
        "its panel's scale" in text and "end 0.20 points apart" in text
    assert "greedy" not in text
    assert paper_charts.zoom_sentence(df[df["agent"] == "greedy"]) == ""
    assert sentence_faults(text) == []


def test_a_board_s_target_legend_names_only_what_is_drawn():
    view = _view_with_flags()[0]

    def strokes(spec):
        return [u["encoding"]["stroke"] for u in _units(spec) if "stroke" in u.get("encoding", {})]

    flagged = strokes(board_chart(view, highlight=(2, 2), action="flag").to_dict())
    assert [s["scale"]["domain"] for s in flagged] == [["flag"]]
    assert strokes(board_chart(view, highlight=(2, 2), action=None).to_dict()) == []   # an outline, no legend
    assert strokes(board_chart(view).to_dict()) == []
    with pytest.raises(ValueError, match="action must be"):
        board_chart(view, highlight=(2, 2), action="peek")
