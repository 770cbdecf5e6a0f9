"""Altair charts of the paper's figures, one function per figure (LaTeX label in the name).

Each takes the tidy table of the matching :mod:`sweeper.viz.figures` function and
returns a chart; nothing here computes results or displays anything.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from ..experiments.specs import OPENINGS
from .figures.prose import and_list


AGENT_ORDER = ["greedy", "egreedy:0.01", "egreedy:0.05", "egreedy:0.1", "ucb:0.01", "ucb:0.1", "ucb:0.5", "ucb:1",
               "thompson", "thompson:0.1,1"]
WIDTH, HEIGHT = 440, 280


def _episodes_axis():
    return alt.X("episode:Q", title="training episodes", axis=alt.Axis(format="~s"))


def fig_exp_1(df: pd.DataFrame) -> alt.Chart:
    """Cumulative training win rate of every agent (the paper's Fig. 7, fig:exp_1)."""
    sel = alt.selection_point(fields=["agent"], bind="legend")
    return alt.Chart(df, title="Fig. 7 (fig:exp_1) - training win rate, 8x8x10").mark_line().encode(
        _episodes_axis(),
        alt.Y("cum_win_rate:Q", title="cumulative win rate", scale=alt.Scale(domain=[0, 1])),
        alt.Color("agent:N", sort=AGENT_ORDER, title="agent", legend=alt.Legend(orient="bottom", columns=4)),
        opacity=alt.condition(sel, alt.value(1), alt.value(0.15)),
        tooltip=["agent", "episode", alt.Tooltip("cum_win_rate:Q", format=".4f"),
                 alt.Tooltip("block_win_rate:Q", format=".4f", title="win rate in block")],
    ).add_params(sel).properties(width=WIDTH, height=HEIGHT)


def fig_exp_2(df: pd.DataFrame) -> alt.Chart:
    """Actions recorded and perfect actions over episodes (the paper's Fig. 8, fig:exp_2)."""
    return alt.Chart(df, title="Fig. 8 (fig:exp_2) - actions recorded, greedy vs UCB(0.1)").mark_line().encode(
        _episodes_axis(),
        alt.Y("count:Q", title="actions", axis=alt.Axis(format="~s")),
        alt.Color("agent:N", legend=alt.Legend(orient="bottom")),
        alt.StrokeDash("actions:N", title="actions", legend=alt.Legend(orient="bottom")),
        tooltip=["agent", "actions", "episode", alt.Tooltip("count:Q", format=",")],
    ).properties(width=WIDTH, height=HEIGHT)


def fig_exp_5(df: pd.DataFrame) -> alt.Chart:
    """ECDF of the learned action values, one panel per agent (the paper's Fig. 9, fig:exp_5)."""
    return alt.Chart(df).mark_line(interpolate="step-after").encode(
        alt.X("q:Q", title="Q(a)", scale=alt.Scale(domain=[-1, 1])),
        alt.Y("ecdf:Q", title="fraction of recorded actions"),
        tooltip=[alt.Tooltip("q:Q", format=".3f"), alt.Tooltip("ecdf:Q", format=".3f")],
    ).properties(width=WIDTH, height=150).facet(row=alt.Row("agent:N", title=None)).properties(
        title="Fig. 9 (fig:exp_5) - ECDF of Q, greedy (top) and UCB(0.1)")


def fig_exp_4(df: pd.DataFrame) -> alt.Chart:
    """Training curves of the ablations, one panel per agent (the paper's Fig. 10, fig:exp_4)."""
    return alt.Chart(df).mark_line().encode(
        _episodes_axis(),
        alt.Y("cum_win_rate:Q", title="cumulative win rate", scale=alt.Scale(domain=[0, 1])),
        alt.Color("variant:N", sort=["flags + symmetries", "no symmetries", "no flags", "neither"],
                  legend=alt.Legend(orient="bottom", columns=2)),
        tooltip=["agent", "variant", "episode", alt.Tooltip("cum_win_rate:Q", format=".4f")],
    ).properties(width=200, height=200).facet(column=alt.Column("agent:N", title=None)).properties(
        title="Fig. 10 (fig:exp_4) - without flags, without symmetries, without both")


def _heatmap(df, x, y, x_title, y_title, title, x_sort=None) -> alt.LayerChart:
    base = alt.Chart(df).encode(
        alt.X(f"{x}:O", title=x_title, sort=x_sort),
        alt.Y(f"{y}:O", title=y_title, sort="descending"),
    )
    tiles = base.mark_rect().encode(
        alt.Color("win_rate:Q", title="win rate", scale=alt.Scale(domain=[0, 1], scheme="viridis")),
        tooltip=["train_setting", alt.Tooltip("win_rate:Q", format=".4f"),
                 alt.Tooltip("ci_low:Q", format=".4f", title="95% CI low"),
                 alt.Tooltip("ci_high:Q", format=".4f", title="95% CI high"), "games"])
    text = base.mark_text(fontSize=11).encode(
        alt.Text("win_rate:Q", format=".2f"),
        color=alt.condition(alt.datum.win_rate > 0.55, alt.value("black"), alt.value("white")))
    return (tiles + text).properties(width=380, height=300, title=title)


def fig_exp_6(df: pd.DataFrame) -> alt.LayerChart:
    """Win rate per board height x width at density 0.15625 (the paper's Fig. 11, fig:exp_6)."""
    return _heatmap(df, "cols", "rows", "width (columns)", "height (rows)",
                    "Fig. 11 (fig:exp_6) - greedy training win rate, mines = round(0.15625 w h)")


def fig_exp_7(df: pd.DataFrame) -> alt.LayerChart:
    """Win rate per board height x mine density at width 10 (the paper's Fig. 12, fig:exp_7)."""
    return _heatmap(df, "target_density", "rows", "mine density", "height (rows)",
                    "Fig. 12 (fig:exp_7) - greedy training win rate, width 10")


# -- seed bands (beyond the paper) -----------------------------------------------------------------

def _band_note(df) -> str:
    k = int(df["seeds"].max()) if len(df) else 0
    return f"line: mean of {k} seeds; band: lowest to highest seed"


#: Dash patterns of a line that lies on another (solid lines are ``[1, 0]``).
DASHES = ([6, 4], [2, 3], [10, 3, 2, 3])


def near_series(df: pd.DataFrame, value: str = "cum_win_rate", by: str = "agent", x: str = "episode",
                tol: float = 0.01, order=AGENT_ORDER) -> list[tuple[str, str, float, float]]:
    """Pairs of series of ``df`` that would hide one another in a line chart: ``(a, b, largest gap, last gap)``
    for each pair whose ``value`` stays within ``tol`` at every shared ``x``, ``a`` drawn before ``b`` (in
    ``order``, then by name)."""
    wide = df.pivot_table(index=x, columns=by, values=value)
    names = _ordered(wide.columns, order)
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            gap = (wide[a] - wide[b]).abs().dropna()
            if len(gap) and gap.max() <= tol:
                pairs.append((a, b, float(gap.max()), float(gap.iloc[-1])))
    return pairs


def _ordered(names, order) -> list:
    rank = {a: i for i, a in enumerate(order)}
    return sorted(names, key=lambda a: (rank.get(a, len(rank)), str(a)))


def series_dashes(df: pd.DataFrame, value: str = "cum_win_rate", by: str = "agent", tol: float = 0.01,
                  order=AGENT_ORDER, legend=None) -> alt.StrokeDash:
    """A dash per series: solid, except a series that lies on one drawn before it (:func:`near_series`), which
    gets a dash pattern that none of the series it lies on has, so that the one under it shows through. Give it
    the colour's ``legend`` (and title ``by``) to merge the two legends, so that each entry shows its dash."""
    names = _ordered(df[by].unique(), order)
    dash = {a: [1, 0] for a in names}
    pairs = near_series(df, value, by, tol=tol, order=order)
    for b in names:  # in drawing order: the series under b have their dashes already
        under = [dash[a] for a, q, *_ in pairs if q == b]
        if under:
            dash[b] = next((d for d in DASHES if d not in under), DASHES[0])
    return alt.StrokeDash(f"{by}:N", sort=names, scale=alt.Scale(domain=names, range=[dash[a] for a in names]),
                          title=by, legend=legend)


def near_series_sentence(df: pd.DataFrame, value: str = "cum_win_rate", by: str = "agent", tol: float = 0.01,
                         order=AGENT_ORDER) -> str:
    """A sentence for the caption of a line chart drawn with :func:`series_dashes`: which lines lie on which
    (within ``tol`` over the whole run, in points) and how they are told apart; empty when no line hides another."""
    pairs = near_series(df, value, by, tol=tol, order=order)
    if not pairs:
        return ""
    said = [f"{b} and {a} stay within {100 * big:.2f} points of each other over the whole run "
            f"({100 * last:.2f} apart at the end), so {b}'s line is dashed and {a}'s shows through its gaps"
            for a, b, big, last in pairs]
    return "In this chart " + "; ".join(said) + "."


def fig_exp_1_band(df: pd.DataFrame, agents=None, title="Fig. 7 (fig:exp_1) - training win rate, 8x8x10") -> alt.Chart:
    """fig:exp_1 as bands over seeds (:func:`sweeper.viz.figures.fig_exp_1_band`): the mean cumulative
    win rate of each agent and the range of its runs. Click a legend entry to highlight an agent. A line that
    lies on another (:func:`near_series`) is dashed (:func:`series_dashes`); say so under the chart
    (:func:`near_series_sentence`)."""
    if agents is not None:
        df = df[df["agent"].isin(agents)]
    sel = alt.selection_point(fields=["agent"], bind="legend")
    legend = alt.Legend(orient="bottom", columns=4, symbolType="stroke", symbolOpacity=1, symbolStrokeWidth=3,
                        symbolSize=400)
    names = _ordered(df["agent"].unique(), AGENT_ORDER)
    base = alt.Chart(df).encode(_episodes_axis(), alt.Color("agent:N", sort=names, scale=alt.Scale(domain=names),
                                                            title="agent", legend=legend),
                                series_dashes(df, legend=legend))
    band = base.mark_area(opacity=0.25).encode(
        alt.Y("low:Q", title="cumulative win rate", scale=alt.Scale(domain=[0, 1])), alt.Y2("high:Q"),
        opacity=alt.condition(sel, alt.value(0.3), alt.value(0.03)))
    line = base.mark_line(strokeWidth=2).encode(
        alt.Y("cum_win_rate:Q"), opacity=alt.condition(sel, alt.value(1), alt.value(0.15)),
        tooltip=["agent", "episode", alt.Tooltip("cum_win_rate:Q", format=".4f", title="mean"),
                 alt.Tooltip("low:Q", format=".4f"), alt.Tooltip("high:Q", format=".4f"), "seeds"])
    return alt.layer(band, line).add_params(sel).properties(
        width=WIDTH, height=HEIGHT, title=alt.Title(title, subtitle=_band_note(df)))


def zoom_final(df: pd.DataFrame, last: float = 0.5) -> alt.Chart:
    """The last ``last`` fraction of the training of every agent, each seed band on its own
    scale, where the differences between agents are small enough to need the seeds."""
    start = df["episode"].max() * (1 - last)
    d = df[df["episode"] >= start]
    x = alt.X("episode:Q", title="training episodes", axis=alt.Axis(format="~s", tickCount=4))
    base = alt.Chart(d).encode(x, alt.Color("agent:N", sort=AGENT_ORDER, legend=None))
    band = base.mark_area(opacity=0.3).encode(alt.Y("low:Q", title="cumulative win rate",
                                                    scale=alt.Scale(zero=False)), alt.Y2("high:Q"))
    line = base.mark_line().encode(alt.Y("cum_win_rate:Q"),
                                   tooltip=["agent", "episode", alt.Tooltip("cum_win_rate:Q", format=".4f"),
                                            alt.Tooltip("low:Q", format=".4f"), alt.Tooltip("high:Q", format=".4f")])
    # two panels a row: as wide as the text column, and no empty panel (whose axis would still be drawn)
    return alt.layer(band, line).properties(width=190, height=100).facet(
        facet=alt.Facet("agent:N", sort=AGENT_ORDER, title=None), columns=2
    ).resolve_scale(y="independent").properties(title=f"the last {last:.0%} of training, one panel per agent")


def zoom_sentence(df: pd.DataFrame, last: float = 0.5, thin: float = 0.08) -> str:
    """What :func:`zoom_final` can and cannot show: the agents whose seed band stays thinner than ``thin`` of
    their panel's height (their climb over the last ``last`` of training sets the panel's scale), with that
    climb and their spread at the end, in points; empty when every band is wide enough to see."""
    d = df[df["episode"] >= df["episode"].max() * (1 - last)]
    rows = []
    for agent, g in d.groupby("agent"):
        span = g["high"].max() - g["low"].min()
        width = g["high"] - g["low"]
        if span > 0 and (width / span).max() < thin:
            rows.append((agent, 100 * span, 100 * width.iloc[-1]))
    if not rows:
        return ""
    rows = [rows[i] for i in sorted(range(len(rows)), key=lambda i: _ordered([r[0] for r in rows], AGENT_ORDER)
                                     .index(rows[i][0]))]
    names = and_list(r[0] for r in rows)
    one = len(rows) == 1
    span = (lambda v, f: f"{v[0]:{f}}" if one else f"{min(v):{f}} to {max(v):{f}}")  # noqa: E731
    climb, spread = span([r[1] for r in rows], ".1f"), span([r[2] for r in rows], ".2f")
    return (f"The band{'' if one else 's'} of {names} {'stays' if one else 'stay'} a thin line even here: "
            f"{'this agent still climbs' if one else 'these agents still climb'} {climb} points over this part of "
            f"training, which sets {'its panel' + chr(39) + 's' if one else 'their panels' + chr(39)} scale, "
            f"while {'its' if one else 'their'} runs end {spread} points apart (the seed table below gives the numbers).")


def fig_exp_2_band(df: pd.DataFrame) -> alt.Chart:
    """fig:exp_2 as bands over seeds (:func:`sweeper.viz.figures.fig_exp_2_band`)."""
    base = alt.Chart(df).encode(_episodes_axis(), alt.Color("agent:N", legend=alt.Legend(
        orient="bottom", symbolType="stroke", symbolOpacity=1, symbolStrokeWidth=3)))
    band = base.mark_area(opacity=0.25).encode(alt.Y("low:Q", title="actions", axis=alt.Axis(format="~s")),
                                               alt.Y2("high:Q"), detail="actions:N")
    line = base.mark_line().encode(
        alt.Y("count:Q"), alt.StrokeDash("actions:N", title="actions", legend=alt.Legend(orient="bottom")),
        tooltip=["agent", "actions", "episode", alt.Tooltip("count:Q", format=",.0f", title="mean"),
                 alt.Tooltip("low:Q", format=","), alt.Tooltip("high:Q", format=","), "seeds"])
    return alt.layer(band, line).properties(
        width=WIDTH, height=HEIGHT,
        title=alt.Title("Fig. 8 (fig:exp_2) - actions recorded, greedy vs UCB(0.1)", subtitle=_band_note(df)))


def heat_band(df: pd.DataFrame, x: str, x_title: str, title: str) -> alt.HConcatChart:
    """A heatmap of the mean win rate over seeds beside one of the spread between seeds
    (highest minus lowest, in points), from :func:`sweeper.viz.figures.fig_exp_6_band` / ``_7_band``."""
    d = df.assign(spread=(df["high"] - df["low"]) * 100)
    base = alt.Chart(d).encode(alt.X(f"{x}:O", title=x_title), alt.Y("rows:O", title="height (rows)",
                                                                      sort="descending"))
    tip = ["train_setting", alt.Tooltip("win_rate:Q", format=".4f", title="mean"),
           alt.Tooltip("low:Q", format=".4f"), alt.Tooltip("high:Q", format=".4f"),
           alt.Tooltip("sd:Q", format=".4f", title="sd over seeds"), "seeds"]
    # legends below the maps: the two maps and their axes fill the text column
    mean = (base.mark_rect().encode(alt.Color("win_rate:Q", title="mean win rate", legend=alt.Legend(orient="bottom"),
                                              scale=alt.Scale(domain=[0, 1], scheme="viridis")), tooltip=tip)
            + base.mark_text(fontSize=11).encode(
                alt.Text("win_rate:Q", format=".2f"),
                color=alt.condition(alt.datum.win_rate > 0.55, alt.value("black"), alt.value("white"))))
    spread = (base.mark_rect().encode(alt.Color("spread:Q", title="spread (points)", legend=alt.Legend(orient="bottom"),
                                                scale=alt.Scale(scheme="greys", domain=[0, max(2.0, d["spread"].max())])),
                                      tooltip=tip)
              + base.mark_text(fontSize=11).encode(alt.Text("spread:Q", format=".1f"),
                                                   color=alt.condition(alt.datum.spread > 1.5, alt.value("white"),
                                                                       alt.value("black"))))
    k = int(d["seeds"].max())
    return alt.hconcat(mean.properties(width=240, height=230, title=f"mean of {k} seeds"),
                       spread.properties(width=240, height=230, title="highest minus lowest seed (points)"),
                       title=title).resolve_scale(color="independent")


def calibration(df: pd.DataFrame, title: str = "", levels=("8x8x10", "16x16x40", "16x30x99")) -> alt.FacetChart:
    """Belief (Q + 1) / 2 against the exact P(mine) of the target, by belief bin, one panel per
    board (:func:`sweeper.viz.figures.belief` ``calibration``): one point per bin sized by its count;
    the dashed diagonal is perfect calibration."""
    base = alt.Chart(df)
    x = alt.X("belief:Q", title="agent's belief (Q + 1) / 2", scale=alt.Scale(domain=[0, 1]))
    y = alt.Y("exact:Q", title="exact P(mine) of the target", scale=alt.Scale(domain=[0, 1]))
    diag = base.mark_rule(color="#888", strokeDash=[4, 3]).encode(
        x=alt.datum(0), y=alt.datum(0), x2=alt.datum(1), y2=alt.datum(1))
    line = base.mark_line(opacity=0.5).encode(x, y, alt.Color("agent:N"))
    pts = base.mark_circle(opacity=0.8).encode(
        x, y, alt.Size("count:Q", scale=alt.Scale(type="log", range=[10, 400]), title="actions",
                       legend=alt.Legend(format="~s", orient="bottom")),
        alt.Color("agent:N", legend=alt.Legend(orient="bottom")),
        tooltip=["agent", "board", "bin_label", alt.Tooltip("count:Q", format=","),
                 alt.Tooltip("belief:Q", format=".3f"), alt.Tooltip("exact:Q", format=".3f"),
                 alt.Tooltip("known_safe:Q", format=",", title="target surely safe"),
                 alt.Tooltip("known_mine:Q", format=",", title="target surely a mine")])
    # legends below the panels: three panels and their axes fill the text column
    return alt.layer(line, pts, diag, data=df).properties(width=150, height=150).facet(
        column=alt.Column("board:N", sort=list(levels), title=None)).properties(title=title)


def loss_causes(df: pd.DataFrame) -> alt.Chart:
    """Lost games by cause as a share of all games, per agent and level (stacked bars)."""
    order = ["forced guess", "missed a safe tile", "clicked a known mine"]
    colours = ["#9e9e9e", "#fb8c00", "#c62828"]
    return alt.Chart(df).mark_bar().encode(
        alt.X("share_of_games:Q", title="share of all games (lost, by cause)", axis=alt.Axis(format="%")),
        alt.Y("agent:N", title=None),
        alt.Color("cause:N", sort=order, scale=alt.Scale(domain=order, range=colours),
                  legend=alt.Legend(orient="bottom", title=None)),
        alt.Order("cause_rank:Q"),
        tooltip=["agent", "board", "cause", "games", alt.Tooltip("share_of_games:Q", format=".1%"),
                 alt.Tooltip("share_of_losses:Q", format=".1%"), "by_flag_removal"],
    ).transform_calculate(cause_rank="indexof(['forced guess', 'missed a safe tile', 'clicked a known mine'], "
                                     "datum.cause)").properties(width=300, height=70).facet(
        row=alt.Row("board:N", sort=["8x8x10", "16x16x40", "16x30x99"], title=None))


def how_good(d: pd.DataFrame, players=("random", "ucb:0.1", "egreedy:0.01", "thompson", "greedy", "solver"),
             levels=("8x8x10", "16x16x40", "16x30x99"), openings=OPENINGS) -> alt.FacetChart:
    """Win rate with its 95% interval of every player, one panel per level (rows) and opening (columns),
    from :func:`sweeper.viz.figures.how_good`."""
    base = alt.Chart(d).encode(
        alt.X("player:N", sort=list(players), title=None),
        alt.Y("win_rate:Q", title="win rate", scale=alt.Scale(domain=[0, 1])),
        alt.Color("player:N", sort=list(players), legend=None))
    bars = base.mark_bar().encode(tooltip=["player", "board", "opening", alt.Tooltip("win_rate:Q", format=".4f"),
                                           "games", alt.Tooltip("games_per_second:Q", format=",.0f")])
    err = base.mark_errorbar().encode(alt.Y("ci_low:Q", title="win rate"), alt.Y2("ci_high:Q"))
    # each bar's value over it, so that a win rate near 0 (no visible bar) still shows
    values = base.mark_text(baseline="bottom", dy=-3, fontSize=11).encode(
        alt.Y("ci_high:Q"), alt.Text("win_rate:Q", format=".2f"), color=alt.value("#333333"))
    return alt.layer(bars, err, values, data=d).properties(width=150, height=160).facet(
        row=alt.Row("board:N", sort=list(levels), title=None), column=alt.Column("opening:N", sort=list(openings)))


def deep_rl_curves(df: pd.DataFrame) -> alt.HConcatChart:
    """Training win rate per block of games of the deep-RL networks and of greedy, against games played (left)
    and against the CPU seconds their training costs at the committed bench (right; the agents the bench prices),
    both on log axes (:func:`sweeper.viz.figures.deep.mean_curves`)."""
    base = alt.Chart(df).mark_line(point=alt.OverlayMarkDef(size=12)).encode(
        alt.Y("block_win_rate:Q", title="win rate in the block of games", scale=alt.Scale(domain=[0, 1])),
        alt.Color("agent:N", title="agent", legend=alt.Legend(orient="bottom", columns=3)),
        tooltip=["agent", alt.Tooltip("episode:Q", format=",", title="games"),
                 alt.Tooltip("bench_seconds:Q", format=",.1f", title="CPU s at the bench"),
                 alt.Tooltip("block_win_rate:Q", format=".4f")])
    by_games = base.encode(alt.X("episode:Q", title="training games", scale=alt.Scale(type="log"),
                                 axis=alt.Axis(format="~s"))).properties(width=WIDTH // 2 + 20, height=HEIGHT,
                                                                          title="against games played")
    by_cpu = base.transform_filter("isValid(datum.bench_seconds)").encode(
        alt.X("bench_seconds:Q", title="CPU seconds at the bench's price", scale=alt.Scale(type="log"))).properties(
        width=WIDTH // 2 + 20, height=HEIGHT, title="against CPU at the bench")
    return alt.hconcat(by_games, by_cpu)
