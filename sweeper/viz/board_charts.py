"""Altair charts of boards, games and learned patterns.

Every function returns an Altair chart and displays nothing; the data are
small tables computed here from the engine's views and the agents' tables.

* :func:`board_chart`: one board (a view) as a grid of squares.
* :func:`replay_chart`: a played :class:`~sweeper.running.episode.Episode` with a
  slider over its decisions. The slider is a Vega param, so the chart steps
  through the game in the static book, with no kernel.
* :func:`pattern_table`, :func:`pattern_chart`, :func:`pattern_atlas`: the 3x3
  windows an agent has learned, as a table and as small multiples.

Tiles are drawn as squares in a quantitative frame, column ``c`` spanning
``[c, c + 1]`` and row ``r`` spanning ``[r, r + 1]`` (row 0 at the top), so a
3x3 window is one outlined rectangle.
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from ..agents.windows import CLASS, decode_key, to_paper_tuple
from ..game.grid import COVERED, EXPLODED, FLAG
from ..agents.kinds import StateAction

#: Boards with more tiles than this are not drawn (the spec would be too large for a page).
MAX_TILES = 2500

# Drawing codes: the view's cell codes 0..12 and two more, shown only where the mines are known.
MINE_SHOWN, WRONG_FLAG = 13, 14
STATE_NAMES = ["revealed"] * 9 + ["covered", "flag", "off board", "exploded", "mine", "wrong flag"]
STATE_LABELS = [""] + [str(k) for k in range(1, 9)] + ["", "F", "", "*", "*", "X"]

STATES = ("covered", "revealed", "flag", "exploded", "mine", "wrong flag", "off board")
FILLS = ("#a7a7a7", "#f2efe6", "#f5a623", "#d62728", "#4d4d4d", "#f7b6c2", "#d5dde6")
_INK = {"1": "#1f4fbf", "2": "#2e7d32", "3": "#c62828", "4": "#283593", "5": "#6d1b1b", "6": "#00838f",
        "7": "#212121", "8": "#616161", "F": "#5a3300", "*": "#ffffff", "X": "#6d1b1b", "?": "#ffffff"}
ACTION_COLOURS = {"click": "#1e88e5", "flag": "#e53935"}


# -- tiles ---------------------------------------------------------------------------------------

def _draw_codes(view2d, mines=None) -> np.ndarray:
    """Drawing codes of a view; with ``mines``, covered mines and wrong flags are shown."""
    codes = np.asarray(view2d, dtype=np.int64).copy()
    if codes.ndim != 2 or codes.size == 0:
        raise ValueError(f"a view must be a non-empty 2-D array, got shape {codes.shape}")
    if codes.size > MAX_TILES:
        raise ValueError(f"boards of more than {MAX_TILES} tiles are not drawn, got {codes.shape}")
    if codes.min() < 0 or codes.max() > EXPLODED:
        raise ValueError("view cells must be codes 0..12 (see sweeper.agents.windows)")
    if mines is not None:
        mines = np.asarray(mines, dtype=bool)
        if mines.shape != codes.shape:
            raise ValueError(f"mines has shape {mines.shape}, the view {codes.shape}")
        codes[(codes == COVERED) & mines] = MINE_SHOWN
        codes[(codes == FLAG) & ~mines] = WRONG_FLAG
    return codes


def tile_frame(view2d, mines=None) -> pd.DataFrame:
    """One row per tile: ``row``, ``col``, ``state`` and ``label`` (the text drawn on it)."""
    codes = _draw_codes(view2d, mines)
    rows, cols = np.indices(codes.shape)
    flat = codes.ravel()
    return pd.DataFrame({"row": rows.ravel(), "col": cols.ravel(),
                         "state": np.take(STATE_NAMES, flat), "label": np.take(STATE_LABELS, flat)})


#: Font sizes (px) of the text drawn on boards: a tile's number or flag, and an exact P(mine) label. No text of a
#: chart is smaller than :data:`MIN_FONT` (``tests/test_legibility.py`` checks every chart of the book).
MIN_FONT = 11
TILE_FONT = 12
PROB_FONT = 11
#: Pixels per tile on a board that prints P(mine) labels: a flag and its "100" fit one above the other.
PROB_CELL_PX = 26


def cell_px(cols: int, probabilities: bool = False) -> int:
    """Pixels per tile: 26 on small boards, smaller on wide ones so that a board fits the book's text column
    (about 640 pixels: an expert board's 30 columns get 21), never below :data:`PROB_CELL_PX` when the board
    prints P(mine) labels, which would not fit."""
    px = int(max(12, min(26, 640 // cols)))
    return max(px, PROB_CELL_PX) if probabilities else px


def frame_scales(rows: int, cols: int) -> tuple[alt.Scale, alt.Scale]:
    return (alt.Scale(domain=[0, cols], nice=False, zero=False),
            alt.Scale(domain=[0, rows], nice=False, zero=False, reverse=True))


def _fill_scale(states) -> alt.Scale:
    """The tile colours, restricted to the states present (so the legend lists only those)."""
    present = [s for s in STATES if s in set(states)]
    return alt.Scale(domain=present, range=[FILLS[STATES.index(s)] for s in present])


def _ink_scale() -> alt.Scale:
    return alt.Scale(domain=list(_INK), range=list(_INK.values()))


def tile_layers(base: alt.Chart, rows: int, cols: int, states, legend=True, flags_up=False) -> list[alt.Chart]:
    """Squares and labels for the tiles in ``base``'s data (fields row, col, state, label). ``flags_up``: draw a
    flag's "F" in the upper part of its tile, leaving the foot to a P(mine) label (:func:`prob_layer`)."""
    xs, ys = frame_scales(rows, cols)
    cy = f"datum.row + (datum.label == 'F' ? {FLAG_Y} : 0.5)" if flags_up else "datum.row + 0.5"
    pos = base.transform_calculate(col1="datum.col + 1", row1="datum.row + 1", cx="datum.col + 0.5", cy=cy)
    fill_legend = alt.Legend(title=None, orient="bottom", direction="horizontal") if legend else None
    squares = pos.mark_rect(stroke="#ffffff", strokeWidth=1).encode(
        x=alt.X("col:Q", scale=xs, axis=None), x2="col1:Q",
        y=alt.Y("row:Q", scale=ys, axis=None), y2="row1:Q",
        fill=alt.Fill("state:N", scale=_fill_scale(states), legend=fill_legend),
        tooltip=[alt.Tooltip("row:Q"), alt.Tooltip("col:Q"), alt.Tooltip("state:N")])
    labels = pos.transform_filter("datum.label != ''").mark_text(fontWeight="bold", fontSize=TILE_FONT).encode(
        x=alt.X("cx:Q", scale=xs, axis=None), y=alt.Y("cy:Q", scale=ys, axis=None), text="label:N",
        color=alt.Color("label:N", scale=_ink_scale(), legend=None))
    return [squares, labels]


#: Colours of the exact-probability labels: known safe, known mine, in between.
PROB_COLOURS = {"safe": "#00a03a", "mine": "#c4001d", "unsure": "#1a1a1a"}
_KNOWN = 1e-9
#: Where, in a tile's height, a flag's "F" is centred and a P(mine) label's foot sits, when both are drawn.
FLAG_Y, PROB_FOOT = 0.3, 0.95


def prob_frame(view2d, probabilities) -> pd.DataFrame:
    """One row per covered (or flagged) tile with its exact P(mine) as a percentage label:
    ``0`` only when the tile is surely safe, ``100`` only when it is surely a mine
    (otherwise rounded into 1..99), and ``pclass`` safe / mine / unsure."""
    view = np.asarray(view2d)
    p = np.asarray(probabilities, dtype=float)
    if p.shape != view.shape:
        raise ValueError(f"probabilities have shape {p.shape}, the view {view.shape}")
    rows, cols = np.nonzero((view == COVERED) | (view == FLAG))
    v = p[rows, cols]
    if np.isnan(v).any() or (v < 0).any() or (v > 1).any():
        raise ValueError("probabilities of covered tiles must lie in [0, 1]")
    pct = np.clip(np.rint(v * 100), 1, 99).astype(int)
    pclass = np.where(v <= _KNOWN, "safe", np.where(v >= 1 - _KNOWN, "mine", "unsure"))
    text = np.where(pclass == "safe", "0", np.where(pclass == "mine", "100", pct.astype(str)))
    return pd.DataFrame({"row": rows, "col": cols, "p": v, "ptext": text, "pclass": pclass})


def prob_layer(base: alt.Chart, rows: int, cols: int) -> alt.Chart:
    """Percentage labels at the foot of each covered tile (fields row, col, ptext, pclass, p), in
    :data:`PROB_FONT` px on tiles of :data:`PROB_CELL_PX` px; draw the tiles with ``flags_up`` so that a
    flag's "F" stays clear of its label."""
    xs, ys = frame_scales(rows, cols)
    size = PROB_FONT
    pos = base.transform_calculate(cx="datum.col + 0.5", cy=f"datum.row + {PROB_FOOT}")
    # one layer per class with a fixed colour: a colour scale here would merge with the numbers' ink
    return alt.layer(*[
        pos.transform_filter(f"datum.pclass == '{cls}'").mark_text(
            fontSize=size, baseline="bottom", color=colour, fontWeight="bold" if cls != "unsure" else "normal").encode(
            x=alt.X("cx:Q", scale=xs, axis=None), y=alt.Y("cy:Q", scale=ys, axis=None), text="ptext:N",
            tooltip=[alt.Tooltip("row:Q"), alt.Tooltip("col:Q"),
                     alt.Tooltip("p:Q", title="exact P(mine)", format=".4f")])
        for cls, colour in PROB_COLOURS.items()])


def _window_bounds(centre, rows: int, cols: int) -> dict:
    """The 3x3 window around ``centre``, clipped to the board, as frame coordinates."""
    r, c = centre
    return {"w_row0": max(r - 1, 0), "w_row1": min(r + 2, rows), "w_col0": max(c - 1, 0),
            "w_col1": min(c + 2, cols)}


def target_layer(base: alt.Chart, rows: int, cols: int, actions=tuple(ACTION_COLOURS)) -> alt.Chart:
    """An outline, coloured by the action, around the target tile (fields row, col, action); the legend names
    the ``actions`` given (those the chart can show)."""
    xs, ys = frame_scales(rows, cols)
    actions = [a for a in ACTION_COLOURS if a in set(actions)]
    return base.transform_calculate(col1="datum.col + 1", row1="datum.row + 1").mark_rect(
        filled=False, strokeWidth=3.5).encode(
        x=alt.X("col:Q", scale=xs, axis=None), x2="col1:Q", y=alt.Y("row:Q", scale=ys, axis=None), y2="row1:Q",
        stroke=alt.Stroke("action:N", title="target", legend=alt.Legend(orient="bottom"),
                          scale=alt.Scale(domain=actions, range=[ACTION_COLOURS[a] for a in actions])))


def window_layer(base: alt.Chart, rows: int, cols: int) -> alt.Chart:
    """A dashed outline of the 3x3 window (fields w_row0, w_row1, w_col0, w_col1)."""
    xs, ys = frame_scales(rows, cols)
    return base.mark_rect(filled=False, stroke="#111111", strokeWidth=2, strokeDash=[5, 3]).encode(
        x=alt.X("w_col0:Q", scale=xs, axis=None), x2="w_col1:Q",
        y=alt.Y("w_row0:Q", scale=ys, axis=None), y2="w_row1:Q")


def board_chart(view2d, mines=None, highlight=None, window=None, title=None, action="click",
                probabilities=None) -> alt.LayerChart:
    """A board as a grid of squares.

    ``view2d``: cell codes (0..8 revealed numbers, 9 covered, 10 flag, 12 the exploded mine).
    ``mines``: optional boolean array; covered mines are then drawn dark and wrong flags pink.
    ``highlight``: a target tile ``(row, col)``, outlined in the colour of ``action``
    (``"click"`` or ``"flag"``, named in a legend), or, with ``action=None``, a tile outlined in
    black with no legend (a tile the text points at, not a move). ``window``: the centre ``(row, col)`` of a 3x3 window, drawn
    as a dashed outline (clipped to the board). ``probabilities``: the exact P(mine) of each
    tile (e.g. :meth:`Episode.probabilities`), printed as a percentage on the covered tiles
    (green 0: surely safe, red 100: surely a mine)."""
    tiles = tile_frame(view2d, mines)
    rows, cols = np.shape(view2d)
    layers = tile_layers(alt.Chart(tiles), rows, cols, tiles["state"], flags_up=probabilities is not None)
    if probabilities is not None:
        layers.append(prob_layer(alt.Chart(prob_frame(view2d, probabilities)), rows, cols))
    if window is not None:
        layers.append(window_layer(alt.Chart(pd.DataFrame([_window_bounds(window, rows, cols)])), rows, cols))
    if highlight is not None:
        if action is not None and action not in ACTION_COLOURS:
            raise ValueError(f"action must be 'click', 'flag' or None, got {action!r}")
        target = pd.DataFrame([{"row": highlight[0], "col": highlight[1], "action": action or ""}])
        if action is None:
            xs, ys = frame_scales(rows, cols)
            layers.append(alt.Chart(target).transform_calculate(col1="datum.col + 1", row1="datum.row + 1").mark_rect(
                filled=False, strokeWidth=3.5, stroke="#111111").encode(
                x=alt.X("col:Q", scale=xs, axis=None), x2="col1:Q", y=alt.Y("row:Q", scale=ys, axis=None), y2="row1:Q"))
        else:
            layers.append(target_layer(alt.Chart(target), rows, cols, actions=(action,)))
    px = cell_px(cols, probabilities is not None)
    chart = alt.layer(*layers).properties(width=px * cols, height=px * rows)
    return chart.properties(title=title) if title else chart


# -- a game, decision by decision -----------------------------------------------------------------

def describe(d, total: int) -> str:
    """Lines describing decision ``d`` (a :class:`~sweeper.running.episode.Decision`) of a game of
    ``total`` decisions: the move, then its Q, N, score and outcome; with exact probabilities, the
    agent's belief against the truth, then the oracle's best move and the decision's regret."""
    where = "" if d.centre is None else f", window centred at {d.centre}, target {d.direction}"
    outcome = {("click", False): "safe", ("click", True): "a mine", ("flag", True): "a mine, flagged",
               ("flag", False): "not a mine (wrong flag)"}[(d.action, d.mine)]
    extra = "" if d.removed is None else f"; too many flags: {d.removed} unflagged and clicked"
    exact = getattr(d, "target_exact", None)
    truth = "" if exact is None else (f"\nthe agent's belief (Q + 1) / 2 = {d.belief:.3f}; "
                                      f"the exact P(mine) of the target = {exact:.3f}")
    best = getattr(d, "best", None)
    if best is not None:
        how, (br, bc) = d.best_move
        truth += (f"\noracle's best move: {how} ({br}, {bc}), right with P = {best:.3f}; this move is right with "
                  f"P = {d.right:.3f}: regret {d.regret:.3f}")
    return (f"Decision {d.number} of {total}: {d.action} {d.tile}{where}\n"
            f"Q = {d.q:+.3f}, N = {d.n}, score = {d.score:+.3f}; the tile is {outcome}{extra}; "
            f"game {d.status}{truth}")


def _frames(episode, final: bool) -> np.ndarray:
    """Drawing codes of each slider position, flattened (frames x tiles)."""
    views = [_draw_codes(d.view).ravel() for d in episode.history]
    if final:
        views.append(_draw_codes(episode.view, episode.mines if episode.done else None).ravel())
    return np.stack(views)


def replay_data(episode, final: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The replay's two tables.

    ``tiles``: one row per tile and run of slider steps during which it looks the same
    (``row, col, state, label, first, last``): the board at step ``s`` is the rows with
    ``first <= s <= last``. ``decisions``: one row per step (``step``, target ``row, col``,
    ``action``, window bounds, ``text``); step ``s <= len(history)`` is ``history[s - 1]``,
    and with ``final`` one more step shows the board as it is now (the mines too, if over)."""
    history = episode.history
    if not history:
        raise ValueError("the episode has no decisions yet: step or play it first")
    rows, cols = episode.setting.rows, episode.setting.cols
    frames = _frames(episode, final)
    n_frames = len(frames)
    change = np.ones(frames.shape, dtype=bool)
    change[1:] = frames[1:] != frames[:-1]
    f_idx, t_idx = np.nonzero(change)
    order = np.lexsort((f_idx, t_idx))
    f_idx, t_idx = f_idx[order], t_idx[order]
    same_tile_next = np.append(t_idx[1:] == t_idx[:-1], False)
    last = np.where(same_tile_next, np.append(f_idx[1:], 0), n_frames)
    codes = frames[f_idx, t_idx]
    tiles = pd.DataFrame({"row": t_idx // cols, "col": t_idx % cols, "state": np.take(STATE_NAMES, codes),
                          "label": np.take(STATE_LABELS, codes), "first": f_idx + 1, "last": last})
    decisions = [{"step": i + 1, "row": d.tile[0], "col": d.tile[1], "action": d.action,
                  **(_window_bounds(d.centre, rows, cols) if d.centre is not None else {}),
                  "text": describe(d, len(history))} for i, d in enumerate(history)]
    if final:
        decisions.append({"step": n_frames, "text": f"After decision {len(history)}: game {episode.status}"
                          + (" (mines shown)" if episode.done else "")})
    return tiles, pd.DataFrame(decisions)


def replay_probabilities(episode) -> pd.DataFrame:
    """The exact P(mine) labels of each step (:func:`prob_frame` plus ``step``); empty when the
    episode was not played with ``exact=True``."""
    parts = [prob_frame(d.view, d.exact).assign(step=i + 1) for i, d in enumerate(episode.history)
             if d.exact is not None]
    if not parts:
        return pd.DataFrame(columns=["row", "col", "p", "ptext", "pclass", "step"])
    return pd.concat(parts, ignore_index=True)


def replay_chart(episode, final: bool = True, title=None, exact: bool | None = None) -> alt.VConcatChart:
    """Step through a played episode with a slider (a Vega param named ``step``): the board the
    agent saw at each decision, the chosen window (dashed) and target (outlined: blue click,
    red flag), and a caption with the move, its Q and N and its outcome. ``final`` adds a last
    step with the board as it is now. Works without a kernel. The data grow with the number of
    tiles plus decisions (tiles are stored once per change, not once per step). ``exact``
    (default: when the episode has them) prints each covered tile's exact P(mine)."""
    tiles, decisions = replay_data(episode, final)
    rows, cols = episode.setting.rows, episode.setting.cols
    probs = replay_probabilities(episode) if exact is not False else None
    if exact and (probs is None or probs.empty):
        raise ValueError("exact=True needs an episode played with Episode(..., exact=True)")
    step = alt.param(name="step", value=1,
                     bind=alt.binding_range(min=1, max=int(decisions["step"].max()), step=1, name="step "))
    at_step = "datum.first <= step && step <= datum.last"
    shown = probs is not None and not probs.empty
    layers = tile_layers(alt.Chart(tiles).transform_filter(at_step), rows, cols, tiles["state"], flags_up=shown)
    moves = alt.Chart(decisions).transform_filter("datum.step == step && isValid(datum.row)")
    if "w_row0" in decisions:
        layers.append(window_layer(moves.transform_filter("isValid(datum.w_row0)"), rows, cols))
    layers.append(target_layer(moves, rows, cols, actions=decisions["action"].dropna().unique()))
    if shown:
        layers.append(prob_layer(alt.Chart(probs).transform_filter("datum.step == step"), rows, cols))
    px = cell_px(cols, shown)
    board = alt.layer(*layers).properties(width=px * cols, height=px * rows)
    lines = 3 if shown else 2
    caption = alt.Chart(decisions).transform_filter("datum.step == step").mark_text(
        align="left", baseline="top", lineBreak="\n", fontSize=12, lineHeight=16).encode(
        x=alt.value(0), y=alt.value(2), text="text:N").properties(width=px * cols, height=16 * lines + 4)
    title = title or f"{episode.agent.name} on {episode.setting}, seed {episode.seed}: game {episode.status}"
    return alt.vconcat(board, caption, spacing=4, title=title).add_params(step).configure_view(stroke=None)


# -- learned patterns --------------------------------------------------------------------------

PATTERN_ORDERS = ("certainty", "count")


def _classes(keys: np.ndarray, symmetric: bool) -> np.ndarray:
    """0 (corner) or 1 (edge) for each key."""
    keys = np.asarray(keys, dtype=np.int64)
    return keys % 2 if symmetric else CLASS[keys % 8]


def _check_filters(kind, target_class, certainty, order) -> None:
    """Raise ``ValueError`` for a filter of :func:`pattern_table` out of its range."""
    if kind not in ("safe", "mine", "all"):
        raise ValueError(f"kind must be 'safe', 'mine' or 'all', got {kind!r}")
    if target_class not in (None, "all", "corner", "edge"):
        raise ValueError(f"target_class must be None, 'corner' or 'edge', got {target_class!r}")
    lo, hi = certainty
    if not 0.0 <= lo <= hi <= 1.0:
        raise ValueError(f"certainty must be a range within [0, 1], got {certainty!r}")
    if order not in PATTERN_ORDERS:
        raise ValueError(f"order must be one of {PATTERN_ORDERS}, got {order!r}")


def pattern_table(agent, kind: str = "all", top: int | None = None, min_n: int = 1, target_class=None,
                  certainty=(0.0, 1.0), order: str = "certainty", recorded=None) -> pd.DataFrame:
    """The agent's recorded actions that pass the filters, best first.

    ``kind``: ``"safe"`` (Q < 0), ``"mine"`` (Q >= 0: the agent flags these) or ``"all"``;
    ``min_n``: at least this many visits; ``target_class``: ``"corner"``, ``"edge"`` or None
    (both); ``certainty``: range of |Q|; ``order``: ``"certainty"`` (|Q|, then N) or
    ``"count"`` (N, then |Q|); ``top``: keep this many rows. Columns: ``key``, ``class``,
    ``q``, ``n``, ``p_mine`` = (Q + 1) / 2, ``certainty`` = |Q| and ``paper``, the paper's
    10-tuple of the window in canonical orientation. ``table.attrs`` holds ``matches`` (rows
    passing the filters, before ``top``) and ``recorded`` (all recorded actions). ``recorded``:
    ``agent.table.recorded()`` if already read (many calls on one agent need it once)."""
    if isinstance(agent, StateAction):
        raise ValueError("the state-action agent has no window patterns")
    _check_filters(kind, target_class, certainty, order)
    keys, q, n = agent.table.recorded() if recorded is None else recorded
    cls = _classes(keys, agent.symmetric)
    keep = (n >= min_n) & (np.abs(q) >= certainty[0]) & (np.abs(q) <= certainty[1])
    if kind != "all":
        keep &= (q >= 0) if kind == "mine" else (q < 0)
    if target_class in ("corner", "edge"):
        keep &= cls == ("corner", "edge").index(target_class)
    keys, q, n, cls = keys[keep], q[keep], n[keep], cls[keep]
    primary, secondary = (np.abs(q), n) if order == "certainty" else (n, np.abs(q))
    idx = np.lexsort((keys, -secondary, -primary))[:top]
    table = pd.DataFrame({"key": keys[idx], "class": np.take(["corner", "edge"], cls[idx]), "q": q[idx],
                          "n": n[idx], "p_mine": (q[idx] + 1.0) / 2.0, "certainty": np.abs(q[idx])})
    table["paper"] = [to_paper_tuple(*decode_key(k, agent.symmetric)) for k in table["key"]]
    table.attrs.update(matches=int(keep.sum()), recorded=int(len(keep)))
    return table


#: What a learned window's target is filled by: the agent's belief, not an exact probability.
BELIEF_TITLE = "belief (Q + 1) / 2"


def belief_colour() -> alt.Color:
    """The fill of a learned window's target: the agent's belief (Q + 1) / 2 (field ``p_mine``), blue for
    surely safe (0) to red for surely a mine (1)."""
    return alt.Color("p_mine:Q", title=BELIEF_TITLE, scale=alt.Scale(domain=[0, 1], scheme="redblue", reverse=True),
                     legend=alt.Legend(orient="bottom", gradientLength=120))


def paper_text(paper: tuple) -> str:
    """The paper's 10-tuple as it prints it, e.g. ``(-1, 0, 1, C, F, 2, -1, C, C, NW)``."""
    return "(" + ", ".join(str(v) for v in paper) + ")"


def _pattern_cells(keys, q, n, symmetric: bool, columns: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Cells of each window placed on a grid of blocks (4 wide, 5 tall), and one caption row
    per window."""
    cells, captions = [], []
    for i, (key, qv, nv) in enumerate(zip(keys, q, n)):
        window, target = decode_key(int(key), symmetric)
        top, left = 5 * (i // columns), 4 * (i % columns)
        info = {"pattern": i + 1, "key": int(key), "q": float(qv), "n": int(nv), "p_mine": (float(qv) + 1) / 2,
                "paper": paper_text(to_paper_tuple(window, target))}
        for j, code in enumerate(window.ravel()):
            label = "?" if j == target else STATE_LABELS[code]
            cells.append({**info, "row": top + j // 3, "col": left + j % 3, "state": STATE_NAMES[code],
                          "label": label, "target": j == target})
        captions.append({**info, "x": left + 1.5, "y": top + 3.15, "text": f"Q={qv:+.2f}\nN={int(nv):,}"})
    return pd.DataFrame(cells), pd.DataFrame(captions)


def pattern_chart(keys, q, n, symmetric: bool = True, columns: int = 6, title=None) -> alt.LayerChart:
    """Small multiples of learned 3x3 windows, in the order given, each with the caption
    "Q=..., N=...". With symmetries the windows are in canonical orientation (target at the
    top-left corner or top-middle cell); the target is marked "?" and filled by the agent's belief
    (Q + 1) / 2 (blue: safe, red: a mine), which is not the exact P(mine) of any one board. Hover a cell for
    the key and the paper's 10-tuple."""
    keys, q, n = np.asarray(keys), np.asarray(q, dtype=float), np.asarray(n)
    if not len(keys) == len(q) == len(n):
        raise ValueError("keys, q and n must have one length")
    if len(keys) == 0:
        return alt.Chart(pd.DataFrame({"text": ["no patterns match"]})).mark_text().encode(
            text="text:N").properties(width=200, height=40, title=title or "")
    columns = max(1, min(int(columns), len(keys)))
    cells, captions = _pattern_cells(keys, q, n, symmetric, columns)
    rows, cols = 5 * -(-len(keys) // columns) - 1, 4 * columns - 1
    xs, ys = frame_scales(rows, cols)
    tooltip = [alt.Tooltip("pattern:Q"), alt.Tooltip("key:Q"), alt.Tooltip("q:Q", format="+.3f"),
               alt.Tooltip("n:Q"), alt.Tooltip("p_mine:Q", format=".3f", title=BELIEF_TITLE), alt.Tooltip("paper:N")]
    squares, labels = tile_layers(alt.Chart(cells), rows, cols, cells["state"])
    squares = squares.encode(tooltip=tooltip)
    target = alt.Chart(cells).transform_filter("datum.target").transform_calculate(
        col1="datum.col + 1", row1="datum.row + 1").mark_rect(stroke="#111111", strokeWidth=2).encode(
        x=alt.X("col:Q", scale=xs, axis=None), x2="col1:Q", y=alt.Y("row:Q", scale=ys, axis=None), y2="row1:Q",
        color=belief_colour(), tooltip=tooltip)
    text = alt.Chart(captions).mark_text(baseline="top", lineBreak="\n", fontSize=MIN_FONT, lineHeight=13).encode(
        x=alt.X("x:Q", scale=xs, axis=None), y=alt.Y("y:Q", scale=ys, axis=None), text="text:N")
    px = 20
    chart = alt.layer(squares, target, labels, text).resolve_scale(color="independent").properties(
        width=px * cols, height=px * rows)
    return chart.properties(title=title) if title else chart


def pattern_atlas(agent, kind: str = "safe", top: int = 24, min_n: int = 1, target_class=None,
                  certainty=(0.0, 1.0), order: str = "certainty", columns: int = 6) -> alt.LayerChart:
    """The ``top`` learned windows of ``agent`` of one ``kind`` (see :func:`pattern_table` for
    the filters), drawn by :func:`pattern_chart`."""
    table = pattern_table(agent, kind, top, min_n, target_class, certainty, order)
    where = f", {target_class} targets" if target_class in ("corner", "edge") else ""
    title = f"{agent.name}: top {len(table)} {kind} patterns by {order} (N >= {min_n}{where})"
    return pattern_chart(table["key"], table["q"], table["n"], agent.symmetric, columns, title)
