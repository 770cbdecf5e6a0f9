"""Task kind ``audit``: a bandit agent trained as :func:`~sweeper.experiments.bandits.bandit_task` trains it, then
audited frozen against the exact probabilities (spec ``ext:belief`` of :mod:`sweeper.experiments.specs`)."""

from __future__ import annotations

import pandas as pd

from ..agents.kinds import make_agent
from ..rng import held_out_seed
from ..running.training import play, warm_up
from .scales import STANDARD_TESTS
from .runner import Output, Task, task_kind


def _small():
    from .scales import Scale
    return audit_spec_task("greedy", Scale("tiny", 300, 20, 100, 0, 0), 1)


@task_kind("audit", small=_small, games=lambda p: p["episodes"] + p["audit_episodes"] * len(p["audits"]))
def audit_task(agent: str, boards: list, episodes: int, seed: int, audits: list, audit_episodes: int,
               opening: str = "reference") -> Output:
    """Train ``agent`` as :func:`~sweeper.experiments.bandits.bandit_task` does (same seed, same agent, the same
    warm-up), then audit it frozen against the exact probabilities (:func:`sweeper.running.belief.audit`) on each
    of ``audits``, ``audit_episodes`` games each, seed ``seed * 1000 + 1 + i`` (the test boards of the bandit
    task)."""
    from ..running.belief import EPS, audit
    ag = make_agent(agent)
    warm = warm_up(ag, boards[0])
    run = play(ag, boards, episodes, seed, learn=True, progress=False)
    out = Output()
    out.info.update(win_rate=run.win_rate, games=len(run.records), train_seconds=run.seconds, compile_seconds=warm)
    games, calib, dec = [], [], []
    for i, board in enumerate(audits):
        a = audit(ag, board, audit_episodes, held_out_seed(seed, i), opening=opening)
        games.append(a.games.drop(columns="game").assign(board=board))
        for which in ("chosen", "all"):
            calib.append(a.calibration(which).assign(board=board, which=which))
        d = a.decisions
        p = d["clicked_exact"]
        guess = (p > EPS) & (p < 1 - EPS)
        dec.append(pd.DataFrame({"board": [board], "decisions": [len(d)], "safe_known": [int(d["safe_known"].sum())],
                                 "clicked_known_mine": [int((p >= 1 - EPS).sum())], "guesses": [int(guess.sum())],
                                 "guesses_with_safe_known": [int((guess & d["safe_known"]).sum())]}))
        out.info[f"audit_seconds_{board}"] = a.seconds
        out.info[f"fallbacks_{board}"] = a.fallbacks
    out.tables["games"] = pd.concat(games, ignore_index=True)
    out.tables["calibration"] = pd.concat(calib, ignore_index=True)
    out.tables["decisions"] = pd.concat(dec, ignore_index=True)
    return out


def audit_spec_task(agent, sc, seed) -> Task:
    cost = sc.train * (4 if agent.startswith("thompson") else 1.2) + sc.test * 40
    return Task.make("audit", agent=agent, boards=["8x8x10"], episodes=sc.train, seed=seed,
                     audits=list(STANDARD_TESTS), audit_episodes=sc.test, opening="reference",
                     label=f"audit of {agent} trained on 8x8x10 seed {seed}", cost=cost)
