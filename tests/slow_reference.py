"""Slow, readable, pure-Python reference of the paper's agent (the ``reference`` rule set).

Used only by tests, to check the fast implementation. It follows
the book page "The reference rules" (``book/reference_rules.md``) rule by rule and is written
independently of ``sweeper``.

Cell states of a player view: 0-8 = revealed number, COVERED, FLAG, OUT (out of board).
"""
import math

import numpy as np

COVERED, FLAG, OUT = 9, 10, 11
# Offsets (row, col) of a window centre from its target tile, in scan order.
CENTRE_OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
UNSEEN_Q = -1.0          # value of an action never updated
UNSEEN_UCB = -1e10       # UCB score of an unseen action when choosing a move
UNSEEN_UCB_REMOVAL = -1.0  # UCB score of an unseen action when choosing a flag to remove
POLICIES = ("greedy", "ucb", "sa")


# ------------------------------------------------------------------------------------------ board
class Board:
    """The true state of one game: mines, revealed tiles, and the agent's flags.

    With ``visible_flags=False`` the flags are the agent's private marks: views never show them.
    ``flood_clears_flags``: whether flood fill reveals (and so unflags) a visibly flagged tile next to a 0.
    """

    def __init__(self, layout, visible_flags=True, flood_clears_flags=False):
        self.mines = np.asarray(layout, dtype=bool)
        self.rows, self.cols = self.mines.shape
        self.revealed = np.zeros(self.mines.shape, dtype=bool)
        self.flagged = np.zeros(self.mines.shape, dtype=bool)
        self.visible_flags = visible_flags
        self.flood_clears_flags = flood_clears_flags
        self.lost = False
        self.counts = np.array([[self.mine_count(r, c) for c in range(self.cols)]
                                for r in range(self.rows)], dtype=int)

    def inside(self, r, c):
        """True if (r, c) is on the board."""
        return 0 <= r < self.rows and 0 <= c < self.cols

    def neighbours(self, r, c):
        """The in-board 8-neighbours of (r, c), in CENTRE_OFFSETS order."""
        return [(r + dr, c + dc) for dr, dc in CENTRE_OFFSETS if self.inside(r + dr, c + dc)]

    def mine_count(self, r, c):
        """Number of mines among the 8 neighbours of (r, c)."""
        return sum(int(self.mines[n]) for n in self.neighbours(r, c))

    def tiles(self):
        """All tiles in row-major order."""
        return [(r, c) for r in range(self.rows) for c in range(self.cols)]

    def is_target(self, tile):
        """A decision target is covered and not flagged (visibly or privately)."""
        return not self.revealed[tile] and not self.flagged[tile]

    def won(self):
        """Won when every safe tile is revealed (and no mine was clicked)."""
        return not self.lost and bool(np.all(self.revealed | self.mines))

    def over(self):
        return self.lost or self.won()

    def click(self, r, c):
        """Click (r, c): lose on a mine, otherwise reveal with flood fill."""
        if self.mines[r, c]:
            self.lost = True
        else:
            self.reveal(r, c)

    def reveal(self, r, c):
        """Reveal (r, c); revealing a 0 reveals all its neighbours, recursively for 0s."""
        stack = [(r, c)]
        while stack:
            tile = stack.pop()
            if self.revealed[tile]:
                continue
            if self.flagged[tile] and self.visible_flags and not self.flood_clears_flags:
                continue
            self.revealed[tile] = True
            self.flagged[tile] = False  # a revealed tile carries no flag (or private mark)
            if self.counts[tile] == 0:
                stack.extend(self.neighbours(*tile))

    def view(self, shown_covered=None):
        """The player's view as a 2-D int array; ``shown_covered`` is a flagged tile shown as covered."""
        view = np.full(self.mines.shape, COVERED, dtype=int)
        view[self.revealed] = self.counts[self.revealed]
        if self.visible_flags:
            view[self.flagged] = FLAG
            if shown_covered is not None:
                view[shown_covered] = COVERED
        return view


def open_board(board):
    """Reference opening: first safe 0-tile scanning columns left to right, rows top to bottom."""
    for c in range(board.cols):
        for r in range(board.rows):
            if not board.mines[r, c] and board.counts[r, c] == 0:
                board.click(r, c)
                return


# ------------------------------------------------------------------------------------ action keys
def window(view, centre):
    """The 3x3 window of ``view`` around ``centre`` (OUT outside the board) as a numpy array."""
    rows, cols = view.shape
    win = np.full((3, 3), OUT, dtype=int)
    for i in range(3):
        for j in range(3):
            r, c = centre[0] + i - 1, centre[1] + j - 1
            if 0 <= r < rows and 0 <= c < cols:
                win[i, j] = view[r, c]
    return win


def as_tuple(array):
    """A 2-D array as a tuple of row tuples of Python ints (hashable, comparable)."""
    return tuple(tuple(int(x) for x in row) for row in array)


def window_key(view, tile, centre, symmetric=True):
    """Key of the action (window around ``centre``, target ``tile``).

    Non-symmetric: raw window + target position in the window.
    Symmetric: rotate so the target is top-left ("corner") or top-middle ("edge"), then take the smaller
    of the window and its mirror across the axis through centre and target.
    """
    win = window(view, centre)
    target = (tile[0] - centre[0] + 1, tile[1] - centre[1] + 1)
    if not symmetric:
        return (as_tuple(win), target)
    marker = np.zeros((3, 3), dtype=int)
    marker[target] = 1
    for _ in range(4):
        if marker[0, 0]:
            return ("corner", min(as_tuple(win), as_tuple(win.T)))
        if marker[0, 1]:
            return ("edge", min(as_tuple(win), as_tuple(win[:, ::-1])))
        win, marker = np.rot90(win), np.rot90(marker)
    raise ValueError("target is not a border cell of the window")


def sa_key(view, tile):
    """State-action key: (whole view as a tuple of row tuples, row-major index of the target)."""
    return (as_tuple(view), tile[0] * view.shape[1] + tile[1])


# ------------------------------------------------------------------------------------------ agent
class Agent:
    """One learning agent; its value table and decision counter persist across games."""

    def __init__(self, policy="greedy", c=0.1, symmetric=True):
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}")
        self.policy, self.c, self.symmetric = policy, c, symmetric
        self.table = {}   # key -> (Q, N)
        self.t = 0        # decisions over the agent's whole life (UCB)

    def value(self, key):
        """(Q, N) of an action; unseen actions are (-1, 0)."""
        return self.table.get(key, (UNSEEN_Q, 0))

    def learn(self, key, reward):
        """Sample-average update: N += 1; Q += (1 / N) (R - Q), step size rounded first."""
        q, n = self.value(key)
        n += 1
        q += (1.0 / n) * (reward - q)
        self.table[key] = (q, n)

    def ucb_score(self, key, unseen):
        """Q + sign(Q) c sqrt(ln t / N) for a seen action, ``unseen`` otherwise."""
        q, n = self.value(key)
        if n == 0:
            return unseen
        sign = (q > 0) - (q < 0)
        return q + sign * self.c * math.sqrt(math.log(self.t) / n)

    def actions_of(self, view, tile):
        """The candidate actions (key, tile) having ``tile`` as target, in scan order."""
        if self.policy == "sa":
            return [(sa_key(view, tile), tile)]
        rows, cols = view.shape
        return [(window_key(view, tile, (tile[0] + dr, tile[1] + dc), self.symmetric), tile)
                for dr, dc in CENTRE_OFFSETS
                if 0 <= tile[0] + dr < rows and 0 <= tile[1] + dc < cols]

    def candidates(self, board):
        """All candidate actions of a decision: covered unflagged tiles row-major, then their windows."""
        view = board.view()
        return [a for tile in board.tiles() if board.is_target(tile) for a in self.actions_of(view, tile)]

    def choose(self, candidates):
        """(key, tile, value) of the chosen action; value < 0 means click, otherwise flag."""
        if self.policy == "ucb":
            best, best_abs = None, -1.0
            for key, tile in candidates:
                score = self.ucb_score(key, UNSEEN_UCB)
                if abs(score) >= best_abs:  # ties -> last in scan order
                    best, best_abs = (key, tile, score), abs(score)
            return best
        best, best_abs, best_n = None, 0.0, 0
        for key, tile in candidates:
            q, n = self.value(key)
            if abs(q) > best_abs or (abs(q) == best_abs and n > best_n):  # ties -> first
                best, best_abs, best_n = (key, tile, q), abs(q), n
        return best

    def removal(self, board):
        """(key, tile) of the flag to remove: lowest Q (UCB: score) over all flagged tiles' actions, ties -> last."""
        best, best_value = None, math.inf
        for tile in board.tiles():
            if not board.flagged[tile]:
                continue
            for key, _ in self.actions_of(board.view(shown_covered=tile), tile):
                if self.policy == "ucb":
                    v = self.ucb_score(key, UNSEEN_UCB_REMOVAL)
                else:
                    v = self.value(key)[0]
                if v <= best_value:
                    best, best_value = (key, tile), v
        return best


# ------------------------------------------------------------------------------------------- game
def reward(board, tile):
    """+1 if the tile is a mine, -1 if it is safe."""
    return 1.0 if board.mines[tile] else -1.0


def play_game(agent, layout, flags=True, flood_clears_flags=False):
    """Play one game on ``layout`` with ``agent`` (learning as it goes); returns the game's dict."""
    board = Board(layout, visible_flags=flags, flood_clears_flags=flood_clears_flags)
    open_board(board)
    last_candidates = agent.candidates(board)  # the opened board, if no decision is made
    flag_actions, moves, decisions = [], [], 0
    while not board.over():
        agent.t += 1
        decisions += 1
        candidates = agent.candidates(board)
        if not candidates:
            raise ValueError("no candidate action on an unfinished board")
        last_candidates = candidates
        key, tile, value = agent.choose(candidates)
        if value < 0:
            agent.learn(key, reward(board, tile))
            board.click(*tile)
            moves.append(("click", *tile))
            continue
        board.flagged[tile] = True
        flag_actions.append((key, tile))
        moves.append(("flag", *tile))
        if board.flagged.sum() > board.mines.sum():
            key, tile = agent.removal(board)
            board.flagged[tile] = False
            agent.learn(key, reward(board, tile))
            board.click(*tile)
            moves.append(("unflag_click", *tile))
    for key, tile in flag_actions + last_candidates:  # delayed learning, flags first
        agent.learn(key, reward(board, tile))
    return {"moves": moves, "won": board.won(), "decisions": decisions}


def play_reference(layouts, policy="greedy", c=0.1, symmetric=True, flags=True, flood_clears_flags=False):
    """Play one game per mine layout, in order, with ONE learning agent that keeps its table across games.

    layouts: 2-D bool arrays (True = mine); policy: "greedy", "ucb" (constant ``c``) or "sa";
    symmetric: merge symmetric windows; flags=False: flags are private marks, never shown in windows.
    Returns (games, table): games = [{"moves": [(kind, row, col), ...], "won": bool, "decisions": int}],
    table = {action key: (Q, N)}.
    """
    agent = Agent(policy, c, symmetric)
    games = [play_game(agent, layout, flags, flood_clears_flags) for layout in layouts]
    return games, agent.table
