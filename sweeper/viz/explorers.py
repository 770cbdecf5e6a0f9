"""Kernel-free explorers for the static book: recorded games to step through, and an agent's
learned windows to filter.

The live widgets of :mod:`sweeper.viz.widgets` need a running kernel; these two charts do their
job in a page with no kernel and no network. Python computes everything when the page is built
(games played by :class:`~sweeper.running.episode.Episode` with exact probabilities, windows
selected by :func:`~sweeper.viz.board_charts.pattern_table`); the page only filters and draws
the embedded data with Vega params bound to HTML controls (drawn by
:mod:`sweeper.viz.offline`'s local Vega bundles).

* :func:`recorded_games` finds games of each agent by how they ended
  (:func:`sweeper.running.belief.find_episode`).
* :func:`game_stepper_chart`: pick a recorded game, step forward and back with the slider, and see
  the board, the chosen window and target, the candidates' Q and N and every covered tile's exact
  P(mine).
* :func:`pattern_explorer_chart`: filter the learned windows by target class, certainty and
  minimum N, order them by N or by certainty; hover a window for the paper's 10-tuple.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import altair as alt
import pandas as pd

from ..agents.kinds import Agent, Thompson
from ..agents.windows import decode_key
from ..running.belief import CAUSES, find_episode
from ..running.episode import Episode
from .board_charts import (MIN_FONT, STATE_LABELS, STATE_NAMES, belief_colour, BELIEF_TITLE, cell_px, frame_scales,
                           prob_layer, target_layer, tile_layers, window_layer, pattern_table, replay_data,
                           replay_probabilities)
from .offline import slider_max

# -- recorded games -----------------------------------------------------------------------------


@dataclass
class RecordedGame:
    """One game to step through: the agent's label, the cause of its outcome and the episode."""

    agent: str
    cause: str
    episode: Episode

    @property
    def label(self) -> str:
        e = self.episode
        how = "won" if self.cause == "won" else f"lost, {self.cause}"
        return f"{self.agent}: {how} (seed {e.seed}, {plural(len(e.history), 'decision')})"


def plural(count: int, noun: str) -> str:
    """``count`` and ``noun``, the noun in the plural unless the count is 1: ``1 decision``, ``2 decisions``."""
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def recorded_games(agents: dict, causes=CAUSES, board="8x8x10", seeds=range(500)):
    """For each ``{label: agent}`` and each cause (see :data:`sweeper.running.belief.CAUSES`) the
    first seed's game, played frozen with exact probabilities. Returns ``(games, missing)``:
    the :class:`RecordedGame` list and the ``(label, cause)`` pairs no seed gave."""
    if not isinstance(agents, dict) or not agents or not all(isinstance(a, Agent) for a in agents.values()):
        raise ValueError("agents must be a non-empty dict {label: Agent}")
    bad = [c for c in causes if c not in CAUSES]
    if bad or not causes:
        raise ValueError(f"causes must be taken from {CAUSES}, got {list(causes)!r}")
    games, missing = [], []
    for label, agent in agents.items():
        for cause in causes:
            try:
                games.append(RecordedGame(str(label), cause, find_episode(agent, cause, board, seeds)))
            except ValueError as exc:
                if "no game with cause" not in str(exc):
                    raise
                missing.append((str(label), cause))
    return games, missing


def _inline(frame: pd.DataFrame, csv: bool = True) -> alt.InlineData:
    """``frame`` as inline data, stored once in the spec however many layers read it, and not
    subject to Altair's row limit (the page needs every row of every recorded game). ``csv``
    (the compact form) needs flat columns; numbers are parsed back as numbers, empty cells
    (NaN) as null."""
    if not csv:
        return alt.InlineData(values=json.loads(frame.to_json(orient="records")))
    parse = {c: "number" for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c])}
    return alt.InlineData(values=frame.to_csv(index=False, lineterminator="\n"),
                          format=alt.CsvDataFormat(type="csv", parse=parse))


def _pair(rc) -> str:
    return "" if rc is None else f"({int(rc[0])}, {int(rc[1])})"


def _candidate_rows(d, drawn: bool = False) -> list[dict]:
    """The chosen action and its runners-up (in the rule's own order, with the score it compared) as table
    rows of text, with the exact P(mine) of each target. ``drawn`` (Thompson sampling): the scores are the
    P(mine) drawn for each action, shown without a sign."""
    exact = d.exact
    p = (lambda r, c: "" if exact is None else f"{exact[r, c]:.3f}")
    rows = [{"who": "chosen", "target": _pair(d.tile), "window": "" if d.centre is None else
             f"{_pair(d.centre)} {d.direction}", "q": f"{d.q:+.3f}", "n": f"{d.n:,}",
             "score": f"{d.score:.3f}" if drawn else f"{d.score:+.3f}", "p": p(*d.tile)}]
    for _, r in d.runners_up.iterrows():
        centre = None if pd.isna(r["centre_row"]) else (r["centre_row"], r["centre_col"])
        rows.append({"who": f"rank {int(r['rank'])}", "target": _pair((r["row"], r["col"])),
                     "window": "" if centre is None else f"{_pair(centre)} {r['direction']}",
                     "q": f"{r['q']:+.3f}", "n": f"{int(r['n']):,}", "score": f"{r['score']:.3f}" if drawn else f"{r['score']:+.3f}",
                     "p": p(int(r["row"]), int(r["col"]))})
    return rows


def stepper_data(games) -> dict:
    """The tables :func:`game_stepper_chart` embeds, each with a game column ``g`` (index in
    ``games``): ``tiles`` and ``steps`` (:func:`~sweeper.viz.board_charts.replay_data`),
    ``probs`` (exact P(mine) labels per step), ``candidates`` (per step the chosen action and
    its runners-up: target, window, Q, N, score, exact P(mine) of the target, as text) and
    ``games`` (label and number of steps)."""
    if not games:
        raise ValueError("no recorded games to show")
    tiles, steps, probs, cands, info = [], [], [], [], []
    for g, game in enumerate(games):
        ep = game.episode
        t, s = replay_data(ep, final=True)
        tiles.append(t.assign(g=g))
        steps.append(s.assign(g=g))
        pr = replay_probabilities(ep)
        if not pr.empty:
            probs.append(pr.assign(g=g, p=pr["p"].round(4)))
        drawn = isinstance(ep.agent, Thompson)
        for i, d in enumerate(ep.history):
            cands += [{**row, "g": g, "step": i + 1, "i": j} for j, row in enumerate(_candidate_rows(d, drawn))]
        info.append({"g": g, "label": game.label, "agent": game.agent, "cause": game.cause, "seed": ep.seed,
                     "decisions": len(ep.history), "last": len(ep.history) + 1})
    return {"tiles": pd.concat(tiles, ignore_index=True), "steps": pd.concat(steps, ignore_index=True),
            "probs": pd.concat(probs, ignore_index=True) if probs else
            pd.DataFrame(columns=["row", "col", "p", "ptext", "pclass", "step", "g"]),
            "candidates": pd.DataFrame(cands), "games": pd.DataFrame(info)}


#: Columns of the candidates table: (field, header, x offset in pixels).
_TABLE = (("who", "", 0), ("target", "target", 46), ("window", "window", 94), ("q", "Q", 164), ("n", "N", 212),
          ("score", "score", 266), ("p", "exact P(mine)", 316))
_ROW_PX = 17


def game_stepper_chart(games, missing=(), title: str | None = None) -> alt.VConcatChart:
    """Step through recorded games (:func:`recorded_games`) in a page with no kernel.

    Two controls: ``game`` (a drop-down of the games) and ``step`` (a slider over the chosen game: 1 .. its
    decisions + 1, the last step its final board with the mines; the spec's slider runs to the longest game's
    end, and the page's loader (:func:`sweeper.viz.offline.slider_max`) sets its end to the chosen game's, so
    a viewer without that loader shows a shorter game's final board past its end).
    Drawn: the board the agent saw at that step with the chosen 3x3 window (dashed) and target
    (outlined: blue click, red flag), each covered tile's exact P(mine) in percent, a caption
    with the move, its Q, N and outcome, and a table of the candidates the agent compared
    (the chosen action and the best runners-up) with their Q, N, score and exact P(mine).
    ``missing`` (from :func:`recorded_games`) is named under the chart."""
    data = stepper_data(games)
    g_info = data["games"]
    settings = {str(gm.episode.setting) for gm in games}
    if len(settings) != 1:
        raise ValueError(f"all games must be on one board, got {sorted(settings)}")
    rows, cols = games[0].episode.setting.rows, games[0].episode.setting.cols
    longest = int(g_info["last"].max())
    game = alt.param(name="game", value=0, bind=alt.binding_select(
        options=list(g_info["g"]), labels=list(g_info["label"]), name="game "))
    step = alt.param(name="step", value=1, bind=alt.binding_range(min=1, max=longest, step=1, name="step "))
    lasts = "[" + ",".join(str(v) for v in g_info["last"]) + "]"
    at = alt.param(name="at", expr=f"min(step, {lasts}[game])")
    step_end = alt.param(name="step_end", expr=f"{lasts}[game]")
    in_game = "datum.g == game"

    tiles = alt.Chart(_inline(data["tiles"])).transform_filter(f"{in_game} && datum.first <= at && at <= datum.last")
    layers = tile_layers(tiles, rows, cols, data["tiles"]["state"], flags_up=not data["probs"].empty)
    moves = alt.Chart(_inline(data["steps"])).transform_filter(f"{in_game} && datum.step == at && isValid(datum.row)")
    if "w_row0" in data["steps"]:
        layers.append(window_layer(moves.transform_filter("isValid(datum.w_row0)"), rows, cols))
    layers.append(target_layer(moves, rows, cols, actions=data["steps"]["action"].dropna().unique()))
    if not data["probs"].empty:
        layers.append(prob_layer(alt.Chart(_inline(data["probs"])).transform_filter(f"{in_game} && datum.step == at"),
                                  rows, cols))
    px = cell_px(cols, not data["probs"].empty)
    board = alt.layer(*layers).properties(width=px * cols, height=px * rows)

    table_w = _TABLE[-1][2] + 84
    n_rows = int(data["candidates"]["i"].max()) + 1 if not data["candidates"].empty else 1
    header = alt.Chart(pd.DataFrame([{f: h for f, h, _ in _TABLE}])).mark_text(
        align="left", baseline="top", fontWeight="bold", fontSize=11)
    cand = alt.Chart(_inline(data["candidates"])).transform_filter(f"{in_game} && datum.step == at").transform_calculate(
        y=f"{_ROW_PX} * (datum.i + 1) + 2")
    cells = []
    for field, _, x in _TABLE:
        cells.append(header.encode(x=alt.value(x), y=alt.value(0), text=f"{field}:N"))
        cells.append(cand.mark_text(align="left", baseline="top", fontSize=11).encode(
            x=alt.value(x), y=alt.Y("y:Q", scale=None, axis=None), text=f"{field}:N",
            color=alt.condition("datum.i == 0", alt.value("#111111"), alt.value("#555555"))))
    over = alt.Chart(_inline(data["steps"])).transform_filter(f"{in_game} && datum.step == at && !isValid(datum.row)")
    cells.append(over.mark_text(align="left", baseline="top", fontSize=11, color="#555555").encode(
        x=alt.value(0), y=alt.value(_ROW_PX + 2), text=alt.value("the game is over: no candidates")))
    table = alt.layer(*cells).properties(width=table_w, height=_ROW_PX * (n_rows + 1) + 4,
                                         title=alt.TitleParams("candidates the agent compared", fontSize=12,
                                                               anchor="start"))

    heading = alt.Chart(_inline(g_info, csv=False)).transform_filter(in_game).transform_calculate(
        text=("datum.label + ' | step ' + at + ' of ' + datum.last + (at < step ? "
              "' (this game ended at step ' + datum.last + ')' : '')")).mark_text(
        align="left", baseline="top", fontSize=12, fontWeight="bold").encode(
        x=alt.value(0), y=alt.value(2), text="text:N").properties(width=px * cols + table_w, height=18)
    lines = 4 if not data["probs"].empty else 2
    caption = alt.Chart(_inline(data["steps"])).transform_filter(f"{in_game} && datum.step == at").mark_text(
        align="left", baseline="top", lineBreak="\n", fontSize=12, lineHeight=16).encode(
        x=alt.value(0), y=alt.value(2), text="text:N").properties(width=px * cols + table_w, height=16 * lines + 4)
    parts = [heading, alt.hconcat(board, table, spacing=20), caption]
    if missing:
        note = "; ".join(f"{a}: {c}" for a, c in missing)
        parts.append(alt.Chart(pd.DataFrame({"text": [f"No game found among the seeds searched for {note}."]}))
                     .mark_text(align="left", baseline="top", fontSize=11, color="#555555")
                     .encode(x=alt.value(0), y=alt.value(0), text="text:N").properties(width=400, height=14))
    chart = alt.vconcat(*parts, spacing=6).add_params(game, step, at, step_end).configure_view(stroke=None)
    chart = slider_max(chart, {"step": "step_end"})
    return chart.properties(title=title) if title else chart


# -- learned windows ----------------------------------------------------------------------------

#: Certainty filter options: label -> (kind, (lowest |Q|, highest |Q|)) of :func:`pattern_table`.
CERTAINTY_OPTIONS = {
    "any": ("all", (0.0, 1.0)),
    "surely safe (Q = -1)": ("safe", (1.0, 1.0)),
    "surely a mine (Q = +1)": ("mine", (1.0, 1.0)),
    "uncertain (|Q| <= 0.5)": ("all", (0.0, 0.5)),
}
CLASS_OPTIONS = ("all", "corner", "edge")
MIN_N_OPTIONS = (1, 10, 100, 1_000, 10_000)
ORDER_OPTIONS = {"count": "N, most visited first", "certainty": "certainty |Q|, then N"}


def pattern_explorer_data(agent, top: int = 24, pages: int = 1) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(patterns, counts)`` for :func:`pattern_explorer_chart`.

    ``patterns``: the union over every combination of the filters (class, certainty option,
    minimum N, order) of the ``top * pages`` windows :func:`pattern_table` selects, so that the
    page's filtering of these rows gives exactly :func:`pattern_table`'s answer for each
    combination, page by page. Each row also holds its nine cells (``st``, ``lb``: state and
    label, ``j``: 0..8, the target marked ``?``). ``counts``: per class, certainty option and
    minimum N, how many recorded actions pass (``matches``) out of ``recorded``."""
    top, pages = int(top), int(pages)
    if top < 1 or pages < 1:
        raise ValueError(f"top and pages must be >= 1, got top={top}, pages={pages}")
    recorded = agent.table.recorded()
    parts, counts = [], []
    for order in ORDER_OPTIONS:
        for cls in CLASS_OPTIONS:
            for ci, (kind, certainty) in enumerate(CERTAINTY_OPTIONS.values()):
                for min_n in MIN_N_OPTIONS:
                    t = pattern_table(agent, kind, top * pages, min_n, cls, certainty, order, recorded)
                    parts.append(t)
                    if order == "count":
                        counts.append({"cls": cls, "cert": ci, "min_n": min_n, "matches": t.attrs["matches"],
                                       "recorded": t.attrs["recorded"]})
    table = pd.concat(parts, ignore_index=True).drop_duplicates("key").reset_index(drop=True)
    cells = [decode_key(int(k), agent.symmetric) for k in table["key"]]
    table["st"] = [[STATE_NAMES[c] for c in w.ravel()] for w, _ in cells]
    table["lb"] = [["?" if j == t else STATE_LABELS[c] for j, c in enumerate(w.ravel())] for w, t in cells]
    table["j"] = [list(range(9))] * len(table)
    table["t"] = [int(t) for _, t in cells]
    table["paper"] = table["paper"].map(lambda p: "(" + ", ".join(str(v) for v in p) + ")")
    table["q"] = table["q"].round(6)
    table["p_mine"] = table["p_mine"].round(6)
    table["certainty"] = table["certainty"].round(6)
    return table, pd.DataFrame(counts)


def explorer_pages(counts: pd.DataFrame, top: int, pages: int) -> dict:
    """Per filter combination of :func:`pattern_explorer_data`'s ``counts`` (key ``"cls|cert|min_n"``), how
    many pages of ``top`` windows the page can show: enough for every match, at most ``pages``, at least 1."""
    return {f"{r.cls}|{r.cert}|{r.min_n}": int(max(1, min(pages, -(-int(r.matches) // top))))
            for r in counts.itertuples()}


def pattern_explorer_chart(agent, top: int = 24, columns: int = 6, title: str | None = None,
                           pages: int = 1) -> alt.VConcatChart:
    """The learned windows of ``agent`` with filters that work without a kernel: target class,
    certainty (:data:`CERTAINTY_OPTIONS`), minimum N, and the order (by N or by certainty).
    ``top`` windows passing the filters are drawn at a time in canonical orientation (target
    ``?``, filled by the agent's belief (Q + 1) / 2) with "Q=..., N=..." under each; hover for the key,
    Q, N and the paper's 10-tuple. With ``pages`` > 1 a slider ``page`` turns to the next ``top``
    windows, up to the first ``top * pages`` (its end is set to the pages the chosen filters fill, by
    :func:`sweeper.viz.offline.slider_max`); the line above the windows says which are shown and, when
    more pass, that :func:`~sweeper.viz.board_charts.pattern_table` lists them all. Same selection as
    :func:`pattern_table` (tested)."""
    patterns, counts = pattern_explorer_data(agent, top, pages)
    columns = max(1, int(columns))
    cls = alt.param(name="cls", value="all", bind=alt.binding_select(options=list(CLASS_OPTIONS), name="target "))
    cert = alt.param(name="cert", value=0, bind=alt.binding_select(
        options=list(range(len(CERTAINTY_OPTIONS))), labels=list(CERTAINTY_OPTIONS), name="certainty "))
    min_n = alt.param(name="min_n", value=1, bind=alt.binding_select(
        options=list(MIN_N_OPTIONS), labels=[f"{v:,}" for v in MIN_N_OPTIONS], name="min N "))
    order = alt.param(name="order", value="count", bind=alt.binding_select(
        options=list(ORDER_OPTIONS), labels=list(ORDER_OPTIONS.values()), name="order by "))
    params = [cls, cert, min_n, order]
    if pages > 1:
        ends = "{" + ",".join(f"'{k}': {v}" for k, v in explorer_pages(counts, top, pages).items()) + "}"
        params += [alt.param(name="page", value=1, bind=alt.binding_range(min=1, max=pages, step=1, name="page ")),
                   alt.param(name="page_end", expr=f"{ends}[cls + '|' + cert + '|' + min_n]")]
        page, first = "page", f"{top} * (page - 1)"
    else:
        page, first = "1", "0"
    kinds = "[" + ",".join(f"'{k}'" for k, _ in CERTAINTY_OPTIONS.values()) + "]"
    los = "[" + ",".join(repr(float(c[0])) for _, c in CERTAINTY_OPTIONS.values()) + "]"
    his = "[" + ",".join(repr(float(c[1])) for _, c in CERTAINTY_OPTIONS.values()) + "]"
    keep = (f"(cls == 'all' || datum['class'] == cls) && datum.n >= min_n"
            f" && datum.certainty >= {los}[cert] && datum.certainty <= {his}[cert]"
            f" && ({kinds}[cert] == 'all' || ({kinds}[cert] == 'mine') == (datum.q >= 0))")
    ranked = alt.Chart(_inline(patterns, csv=False)).transform_filter(keep).transform_calculate(
        p1="order == 'count' ? datum.n : datum.certainty", p2="order == 'count' ? datum.certainty : datum.n"
    ).transform_window(rank="row_number()", sort=[alt.SortField("p1", "descending"),
                                                   alt.SortField("p2", "descending"),
                                                   alt.SortField("key", "ascending")]
    ).transform_filter(f"datum.rank > {first} && datum.rank <= {top} * {page}").transform_calculate(
        slot=f"datum.rank - 1 - {first}").transform_calculate(
        bx=f"4 * (datum.slot % {columns})", by=f"5 * floor(datum.slot / {columns})")
    cells = ranked.transform_flatten(["st", "lb", "j"]).transform_calculate(
        row="datum.by + floor(datum.j / 3)", col="datum.bx + datum.j % 3", state="datum.st", label="datum.lb")
    rows, cols = 5 * -(-top // columns) - 1, 4 * columns - 1
    xs, ys = frame_scales(rows, cols)
    tooltip = [alt.Tooltip("rank:Q", title="pattern"), alt.Tooltip("key:Q"), alt.Tooltip("class:N"),
               alt.Tooltip("q:Q", format="+.3f", title="Q"), alt.Tooltip("n:Q", format=",", title="N"),
               alt.Tooltip("p_mine:Q", format=".3f", title=BELIEF_TITLE), alt.Tooltip("paper:N", title="paper tuple")]
    present = set(patterns["st"].explode())   # the legend names the states the windows hold, no others
    squares, labels = tile_layers(cells, rows, cols, [st for st in STATE_NAMES if st in present])
    squares = squares.encode(tooltip=tooltip)
    target = cells.transform_filter("datum.j == datum.t").transform_calculate(
        col1="datum.col + 1", row1="datum.row + 1").mark_rect(stroke="#111111", strokeWidth=2).encode(
        x=alt.X("col:Q", scale=xs, axis=None), x2="col1:Q", y=alt.Y("row:Q", scale=ys, axis=None), y2="row1:Q",
        color=belief_colour(), tooltip=tooltip)
    captions = ranked.transform_calculate(
        x="datum.bx + 1.5", y="datum.by + 3.15",
        text="'Q=' + format(datum.q, '+.2f') + '\\nN=' + format(datum.n, ',')").mark_text(
        baseline="top", lineBreak="\n", fontSize=MIN_FONT, lineHeight=13).encode(
        x=alt.X("x:Q", scale=xs, axis=None), y=alt.Y("y:Q", scale=ys, axis=None), text="text:N", tooltip=tooltip)
    px = 20
    atlas = alt.layer(squares, target, labels, captions).resolve_scale(color="independent").properties(
        width=px * cols, height=px * rows)
    held = top * pages
    rest = (f" + (datum.matches > {held} ? '.\\nThis page holds the first {held:,} of each choice; pattern_table lists "
            f"them all.' : '.')")
    summary = alt.Chart(_inline(counts, csv=False)).transform_filter(
        "(datum.cls == cls) && datum.cert == cert && datum.min_n == min_n").transform_calculate(
        first=f"min(datum.matches, {first} + 1)", last=f"min(datum.matches, {top} * {page})").transform_calculate(
        text=(f"datum.matches == 0 ? 'No recorded action passes these filters.' : "
              f"format(datum.matches, ',') + ' of ' + format(datum.recorded, ',') + ' recorded actions pass the "
              f"filters; ' + (datum.first > datum.last ? 'no window on this page' : 'windows ' + datum.first + "
              f"'–' + datum.last + ' are shown')" + rest)).mark_text(
        align="left", baseline="top", fontSize=12, lineBreak="\n", lineHeight=16).encode(
        x=alt.value(0), y=alt.value(2), text="text:N").properties(width=px * cols, height=36)
    chart = alt.vconcat(summary, atlas, spacing=4).add_params(*params).configure_view(stroke=None)
    if pages > 1:
        chart = slider_max(chart, {"page": "page_end"})
    return chart.properties(title=title) if title else chart
