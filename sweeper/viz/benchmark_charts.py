"""The leaderboard page's chart: it draws the data of :mod:`sweeper.viz.figures.benchmark` and computes nothing but
where its labels go."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

#: One colour per family of learners (:data:`sweeper.viz.figures.benchmark.FAMILIES`), grey for the untrained.
COLOURS = {"table agent": "#1f77b4", "plug-in rule": "#e6550d", "neural bandit": "#2ca02c", "PPO": "#9467bd"}
RULE_GREY = "#666666"
#: The chart's smallest font (px), its label height and the rough width of one character at that size.
FONT, LINE, CHAR = 11, 14, 6.3
WIDTH, HEIGHT = 440, 380


def _column(want: list, height: float) -> list:
    """Centres (px from the top) for labels stacked in one column, in the order of ``want`` (their points'
    heights), each at least a line from the next, as near their points as that allows: overlapping neighbours
    merge into a block centred on their mean, kept inside ``[0, height]``."""
    order = sorted(range(len(want)), key=lambda i: (want[i], i))
    blocks = []  # [first centre, count, sum of wants]
    for i in order:
        blocks.append([want[i], 1, want[i]])
        while True:
            if len(blocks) > 1 and blocks[-2][0] + blocks[-2][1] * LINE > blocks[-1][0]:
                top, last = blocks[-2], blocks.pop()
                n, total = top[1] + last[1], top[2] + last[2]
                top[:] = [total / n - (n - 1) * LINE / 2, n, total]
            first, n, _ = blocks[-1]
            blocks[-1][0] = min(max(first, LINE / 2), height - LINE / 2 - (n - 1) * LINE)
            if len(blocks) < 2 or blocks[-2][0] + blocks[-2][1] * LINE <= blocks[-1][0]:
                break
    y = [0.0] * len(want)
    k = 0
    for first, n, _ in blocks:
        for j in range(n):
            y[order[k]] = first + j * LINE
            k += 1
    return y


def _free(box, taken) -> bool:
    x0, x1, y0, y1 = box
    return all(x1 <= a0 or a1 <= x0 or y1 <= b0 or b1 <= y0 for a0, a1, b0, b1 in taken)


def _labels(ends: pd.DataFrame, rules: pd.DataFrame, points: pd.DataFrame, lo: float, hi: float) -> pd.DataFrame:
    """Where each label goes: the learners that reach the chart's right end and the rules in one column right of
    the plot, in the order of their points; the others beside their last point, at the first place near it (left,
    right, then a line further up or down at a time) that overlaps no label, rule, point or line. Columns: text,
    ``colour``, the label's x and y (data units) and ``align``, the point it names (``ax``, ``ay``) and where a
    leader line from that point ends (``x``, ``ey``)."""
    span = np.log10(hi) - np.log10(lo)
    px = lambda x: (np.log10(x) - np.log10(lo)) / span * WIDTH  # noqa: E731
    py = lambda y: (1 - y) * HEIGHT  # noqa: E731
    column, inside = [], []
    for r in ends.itertuples():
        row = {"text": r.label, "colour": COLOURS.get(r.family, RULE_GREY), "ax": r.train_decisions,
               "ay": r.win_rate}
        (column if px(r.train_decisions) > WIDTH - 40 else inside).append(row)
    for r in rules.itertuples():
        column.append({"text": f"{r.agent} ({r.win_rate:.3f})", "colour": RULE_GREY, "ax": hi, "ay": r.win_rate})
    for row, y in zip(column, _column([py(r["ay"]) for r in column], HEIGHT)):
        row.update(lx=WIDTH + 14, ly=y, align="left")
    taken = [(0, WIDTH, py(r.win_rate) - 2, py(r.win_rate) + 2) for r in rules.itertuples()]
    taken += [(px(x) - 5, px(x) + 5, py(y) - 5, py(y) + 5) for x, y in zip(points["train_decisions"],
                                                                           points["win_rate"])]
    for _, line in points.sort_values("train_decisions").groupby("label", sort=False):  # the lines, every 3 px
        xy = [(px(x), py(y)) for x, y in zip(line["train_decisions"], line["win_rate"])]
        for (x0, y0), (x1, y1) in zip(xy, xy[1:]):
            for t in np.linspace(0, 1, max(2, int(np.hypot(x1 - x0, y1 - y0) / 3))):
                x, y = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
                taken.append((x - 1.5, x + 1.5, y - 1.5, y + 1.5))
    for row in sorted(inside, key=lambda r: -r["ay"]):
        x, y, w = px(row["ax"]), py(row["ay"]), CHAR * len(row["text"]) + 4
        for dy in (0, *(s * k * LINE for k in range(1, 12) for s in (-1, 1))):
            sides = [("right", x - 8 - w, x - 8), ("left", x + 8, x + 8)]
            hit = next(((a, x0, lx) for a, x0, lx in sides if x0 >= 0 and x0 + w <= WIDTH
                        and 0 <= y + dy - LINE / 2 and y + dy + LINE / 2 <= HEIGHT
                        and _free((x0, x0 + w, y + dy - LINE / 2, y + dy + LINE / 2), taken)), None)
            if hit:
                align, x0, lx = hit
                taken.append((x0, x0 + w, y + dy - LINE / 2, y + dy + LINE / 2))
                row.update(lx=lx, ly=y + dy, align=align)
                break
        else:
            row.update(lx=x + 8, ly=y, align="left")
    out = pd.DataFrame(column + inside)
    out["x"] = 10 ** (np.log10(lo) + out["lx"] / WIDTH * span)
    out["y"] = 1 - out["ly"] / HEIGHT
    # a leader line ends at the label's near edge: its middle in the column, its top or bottom beside a point
    edge = np.where(out["lx"] > WIDTH, 0.0, np.sign(out["ay"] - out["y"]) * (LINE / 2 - 1) / HEIGHT)
    out["ey"] = out["y"] + edge
    return out


def cost_chart(points: pd.DataFrame, rules: pd.DataFrame, level: str = "beginner") -> alt.LayerChart:
    """Win rate on ``level``'s boards against the training's counted work (``points``:
    :func:`~sweeper.viz.figures.benchmark.cost_points`; x: ``train_decisions``, log axis): one colour per family of
    learners, a line through the mean of each learner's seeds at each checkpoint, its seeds as small points, its
    name beside its last point; ``rules`` (columns ``agent`` and ``win_rate``: the players that are not trained) as
    dashed horizontal rules, named right of the plot. Every label is at least 11 px and none overprints another."""
    d = points[points["level"] == level]
    mean = d.groupby(["label", "family", "step"], as_index=False, sort=False).agg(
        train_decisions=("train_decisions", "mean"), win_rate=("win_rate", "mean"), seeds=("seed", "nunique"))
    ends = mean.sort_values("train_decisions").groupby("label", sort=False).tail(1)
    lo, hi = d["train_decisions"].min() / 5, d["train_decisions"].max() * 1.25  # room for labels on the left
    ticks = [m * 10 ** k for k in range(0, 13) for m in (1, 3) if lo <= m * 10 ** k <= hi]
    placed = _labels(ends, rules, mean, lo, hi)
    scale = alt.Scale(type="log", domain=[lo, hi], nice=False)
    x = alt.X("train_decisions:Q", scale=scale,
              title="decisions of training so far (PPO: environment steps), log scale",
              axis=alt.Axis(format="~s", values=ticks, labelFontSize=FONT, titleFontSize=12))
    y = alt.Y("win_rate:Q", title=f"win rate on {level} boards", scale=alt.Scale(domain=[0, 1]),
              axis=alt.Axis(labelFontSize=FONT, titleFontSize=12))
    shown = [f for f in COLOURS if f in set(d["family"])]  # the families drawn, in a fixed order and colour
    colour = alt.Color("family:N", title="learners", scale=alt.Scale(domain=shown, range=[COLOURS[f] for f in shown]),
                       legend=alt.Legend(orient="bottom", labelFontSize=FONT, titleFontSize=12, symbolType="circle",
                                         symbolOpacity=1, symbolSize=70))
    tips = ["label:N", "seed:N", alt.Tooltip("games_trained:Q", format=",", title="games trained"),
            alt.Tooltip("train_decisions:Q", format=",", title="decisions"), alt.Tooltip("win_rate:Q", format=".3f"),
            "shown:N"]
    seeds = alt.Chart(d).mark_point(size=18, opacity=0.45, filled=True).encode(x=x, y=y, color=colour, tooltip=tips)
    lines = alt.Chart(mean).mark_line(strokeWidth=1.6).encode(x=x, y=y, color=colour, detail="label:N")
    means = alt.Chart(mean).mark_point(size=45, filled=True, opacity=1).encode(
        x=x, y=y, color=colour, tooltip=["label:N", alt.Tooltip("seeds:Q", title="seeds"),
                                         alt.Tooltip("train_decisions:Q", format=",", title="decisions (mean)"),
                                         alt.Tooltip("win_rate:Q", format=".3f", title="win rate (mean)")])
    ruled = alt.Chart(rules).mark_rule(color=RULE_GREY, strokeDash=[4, 3]).encode(
        y="win_rate:Q", tooltip=["agent:N", alt.Tooltip("win_rate:Q", format=".3f")])
    led = ((placed["y"] - placed["ay"]).abs() * HEIGHT > 4) | (placed["lx"] > WIDTH)
    lead = alt.Chart(placed[led]).mark_rule(color="#999999", strokeWidth=0.7).encode(
        x=alt.X("ax:Q", scale=scale), y=alt.Y("ay:Q"), x2="x:Q", y2="ey:Q")
    names = [alt.Chart(placed[placed["align"] == a]).mark_text(align=a, baseline="middle", fontSize=FONT,
                                                               dx=3 if a == "left" else -3).encode(
        x=alt.X("x:Q", scale=scale), y=alt.Y("y:Q"), text="text:N", color=alt.Color("colour:N", scale=None))
        for a in ("left", "right")
        if (placed["align"] == a).any()]
    return alt.layer(ruled, lead, lines, seeds, means, *names).properties(
        width=WIDTH, height=HEIGHT)
