"""Fed the paper code's mine layouts, our ``reference`` agents play the paper code's games.

``sweeper/experiments/data/paper-code-games/`` (see its README for the source)
records, game by game, what the paper's published code did on fixed layouts: win
or loss, the number of decisions, and the number of distinct actions recorded
after the game. Our agents replay the same layouts in the same order, learning as
they go, and must agree on every game: all of them, 306,200 games over the seven
files (the three 4x4 files of Table II's boards have 100,000 each)."""

from pathlib import Path

import numpy as np
import pytest

from sweeper import make_agent, play
from sweeper.experiments.paper import PAPER_CODE_GAMES, paper_code_games

CASES = PAPER_CODE_GAMES


def replay(name):
    """Our games on the file's layouts, beside the paper code's: two frames of won/plays/actions."""
    spec, board, _ = CASES[name]
    data = paper_code_games(name)
    agent = make_agent(spec)
    run = play(agent, board, len(data["layouts"]), layouts=list(data["layouts"]), opening="reference", progress=False)
    rec = run.records
    ours = {"won": rec["won"].to_numpy(), "plays": rec["decisions"].to_numpy(),
            "actions": rec["actions_recorded"].to_numpy()}
    theirs = {k: data[k] for k in ("won", "plays", "actions")}
    return ours, theirs


def first_difference(ours, theirs):
    """The first game where any of won/plays/actions differs, or None."""
    bad = np.zeros(len(theirs["won"]), dtype=bool)
    for k in theirs:
        bad |= ours[k] != theirs[k]
    return int(np.argmax(bad)) if bad.any() else None


@pytest.mark.parametrize("name", list(CASES))
def test_same_games_as_the_paper_code(name):
    ours, theirs = replay(name)
    games = len(theirs["won"])
    assert len(ours["won"]) == games
    where = first_difference(ours, theirs)
    assert where is None, (f"{name}: first different game is {where} "
                           f"(ours won={ours['won'][where]} plays={ours['plays'][where]} "
                           f"actions={ours['actions'][where]}; paper code won={theirs['won'][where]} "
                           f"plays={theirs['plays'][where]} actions={theirs['actions'][where]})")
    print(f"{name}: {games} games, {int(ours['won'].sum())} wins, {int(ours['plays'].sum())} decisions, "
          f"{int(ours['actions'][-1])} actions recorded - identical to the paper code's")


def test_the_old_update_order_would_differ():
    """The test above has teeth: with ``Q + (R - Q) / N`` (behaviour version 1) a value differs in the last
    bit from the paper code's ``Q += (1 / N) * (R - Q)`` for some small N, which is what changed game 735."""
    diffs = 0
    q = -1.0
    rng = np.random.default_rng(0)
    for n in range(1, 2000):
        r = float(rng.choice([-1.0, 1.0]))
        new, old = q + (1.0 / n) * (r - q), q + (r - q) / n
        diffs += new != old
        q = new
    assert diffs > 0


def test_the_reference_rules_page_states_the_replayed_counts():
    """The table in book/reference_rules.md ("Game for game with the paper's code") is what the replay gives."""
    page = (Path(__file__).parents[1] / "book" / "reference_rules.md").read_text()
    rows = {}
    for line in page.split("## Game for game with the paper's code")[1].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[1].replace(",", "").isdigit():
            rows[cells[0]] = [int(c.replace(",", "")) for c in cells[1:5]] + [cells[5]]
    names = {"greedy, 8×8×10": "greedy-8x8x10", "UCB(0.1), 8×8×10": "ucb0.1-8x8x10",
             "greedy, 8×8×15": "greedy-8x8x15", "greedy, 16×16×40": "greedy-16x16x40",
             "greedy, 4×4×3": "greedy-4x4x3", "greedy, 4×4×4": "greedy-4x4x4", "greedy, 4×4×5": "greedy-4x4x5"}
    assert set(rows) == set(names)
    for label, name in names.items():
        data = paper_code_games(name)
        assert rows[label] == [len(data["won"]), int(data["won"].sum()), int(data["plays"].sum()),
                               int(data["actions"][-1]), "none"]
