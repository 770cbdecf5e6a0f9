"""Interactive widgets (ipywidgets) for a notebook with a running kernel.

* :class:`GameStepper`: watch an agent play, one decision at a time, forwards and back, with
  the exact oracle's best move and the regret of each decision beside the agent's Q (and, on the
  board, optionally the solver's exact P(mine) of every covered tile).
* :class:`PatternExplorer`: filter an agent's learned windows and see them as an atlas.
* :func:`train_with_progress`: train with a live progress bar.

The widgets draw with :mod:`sweeper.viz.board_charts` and play through
:class:`~sweeper.running.episode.Episode` (the training kernels); they hold no game rules.
Each one is driven by plain methods (``forward``, ``back``, ``new_game``,
``apply_filters``) that the buttons call, so it can be used and tested without a
browser. Their charts are drawn as SVG in Python (:func:`chart_svg`), so they need no script and
no network in the front end. They need a live kernel (``make lab``): the static book does not run them, and shows
their kernel-free counterparts from :mod:`sweeper.viz.explorers` instead (recorded games to step
through, learned windows to filter) and :func:`sweeper.viz.board_charts.replay_chart`.
"""

from __future__ import annotations

import html

import ipywidgets as w
import numpy as np
from IPython.display import SVG, clear_output, display

from ..agents.windows import to_paper_tuple
from ..agents.kinds import Agent
from ..game.engine import PRESETS, Setting
from ..running.episode import Episode
from .board_charts import BELIEF_TITLE, PATTERN_ORDERS, board_chart, describe, paper_text, pattern_chart, pattern_table
from ..running.training import KernelCalls, Run, train

_RUNNER_COLUMNS = {"row": "row", "col": "col", "centre_row": "centre row", "centre_col": "centre col",
                   "direction": "target", "q": "Q", "n": "N", "score": "score", "rank": "rank"}
_PATTERN_COLUMNS = {"key": "key", "class": "class", "q": "Q", "n": "N", "p_mine": BELIEF_TITLE, "paper": "paper tuple"}


def chart_svg(chart) -> SVG:
    """An Altair chart drawn as SVG in Python (``vl-convert``, whose Vega runs in the package): no script and
    no network in the page, so a widget's chart draws in any front end, offline included."""
    import vl_convert as vlc
    return SVG(vlc.vegalite_to_svg(chart.to_dict()))


def _show(output: w.Output, chart) -> None:
    """Replace what ``output`` shows by ``chart``, drawn as SVG (:func:`chart_svg`)."""
    picture = chart_svg(chart)
    with output:
        clear_output(wait=True)
        display(picture)


def _html_table(frame, columns: dict, formatters: dict | None = None) -> str:
    """A compact HTML table of ``frame``'s ``columns`` (renamed; ``formatters`` by new name)."""
    shown = frame[list(columns)].rename(columns=columns)
    return shown.to_html(index=False, float_format=lambda v: f"{v:+.3f}", formatters=formatters, border=0)


class GameStepper:
    """Step through games of an agent: the board it saw, the window and target it chose, their
    Q and N, the runners-up it compared them with, the outcome, and the exact oracle's verdict (its best
    move, the probability each move is right, the regret of the agent's).

    ``agent``: an :class:`~sweeper.agents.Agent` or a dict ``{name: agent}`` to choose from.
    ``board``, ``seed``: the first game (they can be changed in the widget). The game is played
    by a copy of the agent (learning as in training, unless ``learn=False``), so the agents
    passed in never change.

    ``position`` is what is shown: 0 the deal, ``k`` (1..len(history)) the ``k``-th decision
    on the board it was taken on, and, once the game is over, ``len(history) + 1`` the final
    board with the mines. :meth:`forward` replays decisions already made and plays a new one
    (:meth:`Episode.step`) only past the last; :meth:`back` never undoes play.
    """

    def __init__(self, agent, board="8x8x10", seed: int = 0, *, learn: bool = True, runners_up: int = 5,
                 exact: bool = False):
        self.agents = dict(agent) if isinstance(agent, dict) else {agent.name: agent}
        if not self.agents or not all(isinstance(a, Agent) for a in self.agents.values()):
            raise ValueError("agent must be an Agent or a non-empty dict of named Agents")
        self.learn, self.runners_up = bool(learn), int(runners_up)
        self._build_controls(str(Setting.parse(board)), seed, bool(exact))
        self.episode, self.position = self._new_episode(), 0
        self._render()

    # -- layout --------------------------------------------------------------------------------
    def _build_controls(self, board: str, seed: int, exact: bool) -> None:
        self.agent_choice = w.Dropdown(options=list(self.agents), description="agent")
        self.board = w.Combobox(value=board, options=list(dict.fromkeys([board, "8x8x10", *PRESETS])),
                                description="board", continuous_update=False, ensure_option=False)
        self.seed = w.BoundedIntText(value=seed, min=0, max=2**31 - 1, description="seed")
        self.back_button = w.Button(description="◀ back")
        self.forward_button = w.Button(description="step ▶")
        self.end_button = w.Button(description="play to end")
        self.new_button = w.Button(description="new game")
        self.exact = w.Checkbox(value=exact, description="exact P(mine)", indent=False)
        self.status = w.HTML()
        self.out = w.Output()
        self.info = w.HTML()
        self.runners = w.HTML()
        self.back_button.on_click(lambda _: self.back())
        self.forward_button.on_click(lambda _: self.forward())
        self.end_button.on_click(lambda _: self.play_to_end())
        self.new_button.on_click(lambda _: self.new_game())
        for control in (self.agent_choice, self.board, self.seed):
            control.observe(lambda _: self._restart(), names="value")
        self.exact.observe(lambda _: self._render(), names="value")
        self.widget = w.VBox([
            w.HBox([self.agent_choice, self.board, self.seed, self.exact]),
            w.HBox([self.back_button, self.forward_button, self.end_button, self.new_button]),
            self.status,
            w.HBox([self.out, w.VBox([self.info, self.runners])]),
        ])

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    # -- state ---------------------------------------------------------------------------------
    @property
    def last_position(self) -> int:
        """The furthest position reachable without playing: the final board once the game is over."""
        return len(self.episode.history) + (1 if self.episode.done else 0)

    @property
    def decision(self):
        """The decision shown, or None (the deal or the final board)."""
        history = self.episode.history
        return history[self.position - 1] if 1 <= self.position <= len(history) else None

    @property
    def view(self) -> np.ndarray:
        """The board shown: the view before the shown decision, the deal, or the final view."""
        history = self.episode.history
        if self.decision is not None:
            return self.decision.view
        if self.position == 0 and history:
            return history[0].view
        return self.episode.view

    # -- actions -------------------------------------------------------------------------------
    def forward(self) -> None:
        """Show the next decision, playing it if it has not been played yet."""
        if self.position == len(self.episode.history) and not self.episode.done:
            self.episode.step()
        self.position = min(self.position + 1, self.last_position)
        self._render()

    def back(self) -> None:
        """Show the previous decision (nothing is undone)."""
        self.position = max(self.position - 1, 0)
        self._render()

    def play_to_end(self) -> None:
        """Play the rest of the game and show the final board."""
        self.episode.play()
        self.position = self.last_position
        self._render()

    def new_game(self, seed: int | None = None) -> None:
        """Deal a new game: with ``seed``, or with the next seed."""
        seed = self.seed.value + 1 if seed is None else seed
        if seed == self.seed.value:
            self._restart()
        else:
            self.seed.value = seed  # the observer restarts

    def _new_episode(self) -> Episode:
        """An episode of the controls' agent, board and seed."""
        return Episode(self.agents[self.agent_choice.value], self.board.value, self.seed.value, learn=self.learn,
                       runners_up=self.runners_up, exact=True)

    def _restart(self) -> None:
        """Start the game the controls describe (an error is shown and keeps the old game)."""
        try:
            episode = self._new_episode()
        except ValueError as exc:
            self.status.value = f"<b style='color:#a00'>{html.escape(str(exc))}</b>"
            return
        self.episode, self.position = episode, 0
        self._render()

    # -- drawing -------------------------------------------------------------------------------
    def _render(self) -> None:
        ep, d = self.episode, self.decision
        n = len(ep.history)
        final = self.position > n
        self.probabilities = self._probabilities() if self.exact.value and not final else None
        self.chart = board_chart(self.view, mines=ep.mines if final else None,
                                 highlight=None if d is None else d.tile,
                                 window=None if d is None else d.centre, action="click" if d is None else d.action,
                                 probabilities=self.probabilities)
        _show(self.out, self.chart)
        self.status.value = (f"{ep.agent.name} on {ep.setting}, seed {ep.seed}: position {self.position} "
                             f"({n} decisions played, game {ep.status})")
        self.info.value = self._info_html(d, final)
        self.runners.value = "" if d is None or d.runners_up.empty else (
            "<b>runners-up</b>" + _html_table(d.runners_up, _RUNNER_COLUMNS))
        at_end = bool(ep.done) and self.position == self.last_position
        self.back_button.disabled = self.position == 0
        self.forward_button.disabled = self.end_button.disabled = at_end

    def _probabilities(self) -> np.ndarray:
        """The solver's exact P(mine) of the tiles of the board shown."""
        from ..game.probability import mine_probabilities
        return mine_probabilities(self.view, self.episode.setting.mines)

    def _info_html(self, d, final: bool) -> str:
        if final:
            return f"<b>Game {self.episode.status}</b> after {len(self.episode.history)} decisions (mines shown)."
        if d is None:
            return "The deal, after the opening. Press <i>step</i> to let the agent decide."
        lines = describe(d, len(self.episode.history)).split("\n")  # with the exact oracle's verdict
        if d.centre is not None:
            lines.append(f"pattern (paper tuple, canonical): {paper_text(to_paper_tuple(*self.episode.window(d)))}, "
                         f"key {d.key}")
        return "<br>".join(html.escape(line) for line in lines)


class PatternExplorer:
    """Filter an agent's learned windows and draw the best ones as an atlas.

    Filters (see :func:`~sweeper.viz.board_charts.pattern_table`): safe/mine/all, a range of
    certainty |Q|, a minimum N, the target class (corner, edge, all), the order and how many
    to show. :meth:`apply_filters` (called on every change) refreshes ``table`` and ``chart``."""

    def __init__(self, agent: Agent, top: int = 24, columns: int = 6):
        self.agent, self.columns = agent, int(columns)
        self.kind = w.ToggleButtons(options=["safe", "mine", "all"], value="safe", description="kind")
        self.certainty = w.FloatRangeSlider(value=(0.0, 1.0), min=0.0, max=1.0, step=0.01, description="|Q|")
        self.min_n = w.BoundedIntText(value=1, min=1, max=2**62, description="min N")
        self.target_class = w.Dropdown(options=["all", "corner", "edge"], value="all", description="target")
        self.order = w.Dropdown(options=list(PATTERN_ORDERS), value="certainty", description="order by")
        self.top = w.IntSlider(value=top, min=1, max=max(60, top), description="show")
        self.summary = w.HTML()
        self.out = w.Output()
        self.rows = w.HTML()
        for control in self.controls:
            control.observe(lambda _: self.apply_filters(), names="value")
        self.widget = w.VBox([w.HBox([self.kind, self.target_class, self.order]),
                              w.HBox([self.certainty, self.min_n, self.top]), self.summary, self.out, self.rows])
        self.table = self.chart = None
        self.apply_filters()

    @property
    def controls(self) -> tuple:
        return self.kind, self.certainty, self.min_n, self.target_class, self.order, self.top

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    def apply_filters(self):
        """Select the windows passing the filters; returns the table shown (best first)."""
        self.table = pattern_table(self.agent, self.kind.value, self.top.value, self.min_n.value,
                                   self.target_class.value, tuple(self.certainty.value), self.order.value)
        self.chart = pattern_chart(self.table["key"], self.table["q"], self.table["n"], self.agent.symmetric,
                                   self.columns)
        _show(self.out, self.chart)
        self.summary.value = (f"{self.table.attrs['matches']:,} of {self.table.attrs['recorded']:,} recorded "
                              f"actions pass the filters; the first {len(self.table)} are shown.")
        self.rows.value = _html_table(self.table, _PATTERN_COLUMNS,
                                     {BELIEF_TITLE: "{:.3f}".format, "paper tuple": paper_text})
        return self.table


def train_with_progress(agent, board="8x8x10", episodes: int = 10_000, seed: int = 0, **kw) -> Run:
    """:func:`sweeper.train` with a progress bar that moves about every 1% of the games (a
    notebook widget bar in Jupyter, text elsewhere). The result does not depend on the bar."""
    chunk = max(1, min(20_000, int(episodes) // 100))
    return train(agent, board, episodes, seed, progress=True, calls=KernelCalls(chunk), **kw)
