"""Command line: ``python -m sweeper train|eval|audit|benchmark|bench|reproduce|time-reproduction|verify|best-window``.

With ``--json`` the last line printed is one JSON object (agent, board,
episodes, wins, win_rate, actions_recorded, perfect_actions, seconds,
games_per_second, compile_seconds, ...); numbers that do not exist (the win
rate of 0 games) are ``null``. ``seconds`` and ``games_per_second`` of
``train`` and ``eval`` time the games alone: before them, one game is played on
a copy of the agent (or by the solver or the random player) while the kernels
are compiled on their first use, or loaded from the compiler's disk cache, and
``compile_seconds`` is the time that warm-up took. Errors in the arguments
exit with status 2 and a one-line message, before any long work: ``--save`` and
``--results`` destinations are checked first (missing or unwritable directory,
a directory where a file should go, an existing file without ``--force``). A
plug-in rule that fails (``--agent rule:module.function``) exits with status 1
and a one-line message naming the rule, the game, the decision and what went
wrong. Nothing is written unless the run finished; if the agent cannot be
written after all (a full disk), the summary is still printed and the agent is
written to the temporary directory. Ctrl-C stops any command within a second or
so (while the kernels are first compiled, as soon as the compiler returns), with
the one line ``interrupted`` (and how far it got) and status 130, leaving no
partial file.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

from .game import engine


def _parse_first(text, opening="safe"):
    if text is None:
        return None
    try:
        r, c = (int(v) for v in text.split(","))
    except ValueError:
        raise ValueError(f"--first must look like ROW,COL, got {text!r}") from None
    row = {o.name: o for o in engine.OPENING_TABLE}.get(opening)
    if row is not None and not row.takes_first:
        names = engine.openings_text(first_only=True).replace("``", "")
        raise ValueError(f"--first is for the {names} openings; the {opening} opening opens a tile of its own "
                         "choosing")
    return r, c


def _writable(directory: Path, what: str) -> None:
    """Fail now, not after the run, if ``directory`` cannot take a new file."""
    from .checks import probe_directory
    probe_directory(directory, what)


def check_save_path(path, force: bool = False) -> Path:
    """Check a ``--save`` destination before any work: its directory exists and takes files; it is
    not a directory; an existing file is replaced only with ``force``."""
    p = Path(path)
    if p.is_dir():
        raise ValueError(f"--save {p} is a directory; give a file name, e.g. {p / 'agent.npz'}")
    if p.exists() and not force:
        raise ValueError(f"--save {p} exists; add --force to replace it")
    if (p.exists() or p.is_symlink()) and (not p.is_file() or p.is_symlink()):  # a device, a pipe, a link...
        raise ValueError(f"--save {p} is not a regular file: --force replaces only a regular file")
    parent = p.parent
    if not parent.exists():
        raise ValueError(f"--save {p}: directory {parent} does not exist")
    if not parent.is_dir():
        raise ValueError(f"--save {p}: {parent} is not a directory")
    _writable(parent, f"--save {p}")
    return p


def check_results_dir(path) -> Path:
    """Check a ``--results`` directory before any work: a directory (or a new one under a
    writable directory) that takes files."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise ValueError(f"--results {p} is not a directory")
    existing = p
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise ValueError(f"--results {p}: {existing} is not a directory")
    _writable(existing, f"--results {p}")
    return p


def _jsonable(v):
    """None for NaN and infinities, so the JSON line is valid JSON."""
    if isinstance(v, (float, np.floating)):
        return float(v) if math.isfinite(v) else None
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.bool_):
        return bool(v)
    return v


def _add_common(p):
    p.add_argument("--board", default="8x8x10",
                   help="ROWSxCOLSxMINES or a preset (beginner, intermediate, expert); "
                        "several separated by commas are played in turn")
    p.add_argument("--episodes", type=int, default=10_000, help="games per board setting")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--opening", default="reference", choices=[o.name for o in engine.OPENING_TABLE],
                   help="how a game starts: " + "; ".join(f"{o.name}: {o.help}" for o in engine.OPENING_TABLE))
    p.add_argument("--first", default=None, help="first click ROW,COL for the openings " + ", ".join(
        o.name for o in engine.OPENING_TABLE if o.takes_first) + f" (default {engine.first_default_text(False)}; an error "
        "with the others)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON line at the end")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def _agent_help() -> str:
    """The agent specs ``train --agent`` takes, the library's rules read from its registry."""
    from .agents.rule_library import known_rules
    rules = " | ".join(f"rule:{name}[:PARAMS]" for name in known_rules())
    return (f"greedy | egreedy:EPS | ucb:C | thompson[:A0,B0] | sa | {rules} | rule:MODULE.FUNCTION (your own "
            "rule, a function of an importable module)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m sweeper", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    _train_command(sub)
    _eval_command(sub)
    _audit_command(sub)
    _reproduce_command(sub)
    _time_reproduction_command(sub)
    _verify_command(sub)
    _benchmark_command(sub)
    _bench_command(sub)
    _best_window_command(sub)
    return parser


def _train_command(sub) -> None:
    """The ``train`` command's options."""
    t = sub.add_parser("train", help="train an agent")
    t.add_argument("--agent", default="greedy", help=_agent_help())
    t.add_argument("--no-symmetry", action="store_true", help="each target direction is its own action")
    t.add_argument("--no-flags", action="store_true", help="invisible flags (the ablation of the paper's Fig. 10, fig:exp_4)")
    t.add_argument("--save", default=None, help="write the trained agent to this .npz file (checked before training)")
    t.add_argument("--force", action="store_true", help="let --save replace an existing file")
    _add_common(t)


def _eval_command(sub) -> None:
    """The ``eval`` command's options."""
    e = sub.add_parser("eval", help="evaluate a saved agent, or the solver / random players")
    who = e.add_mutually_exclusive_group(required=True)
    who.add_argument("--load", help="an agent .npz written by train --save")
    who.add_argument("--agent", choices=["solver", "search", "random"],
                     help="the exact-probability solver (ceiling), the searching solver (its guesses by look-ahead "
                          "and an exact endgame search) or a random clicker (floor)")
    e.add_argument("--freeze", action="store_true", help="no learning during the test games")
    e.add_argument("--save", default=None, help="write the agent after the test games (when learning)")
    e.add_argument("--force", action="store_true", help="let --save replace an existing file")
    _add_common(e)


def _audit_command(sub) -> None:
    """The ``audit`` command's options."""
    a = sub.add_parser("audit", help="a saved agent's beliefs against the exact probabilities (frozen games): "
                                     "causes of lost games, calibration")
    a.add_argument("--load", required=True, help="an agent .npz written by train --save")
    _add_common(a)


def _reproduce_command(sub) -> None:
    """The ``reproduce`` command's options."""
    r = sub.add_parser("reproduce", help="run the paper's experiments and write results/summary.csv")
    r.add_argument("ids", nargs="*", help="experiment ids such as fig:exp_1 tab:exp_1 (default: all of the "
                                          "paper's; extras such as ext:how_good by id)")
    r.add_argument("--scale", default="paper", choices=["paper", "quick"])
    r.add_argument("--workers", type=int, default=1, help="local worker processes")
    r.add_argument("--dask", default=None, help="address of a Dask scheduler, e.g. tcp://host:8786")
    r.add_argument("--seeds", default="1", help="comma-separated seeds (one run per seed)")
    r.add_argument("--results", default=None, help="results directory (default: the repository's results/ at paper "
                                                    "scale, the git-ignored .cache/quick-results/ at quick scale)")
    r.add_argument("--list", action="store_true",
                   help="list the experiments with their tasks, the stored ones and the games they play (the games "
                        "still to play), then the stored runs that no experiment asks for, with how to remove them; "
                        "run nothing")
    r.add_argument("--book", action="store_true",
                   help="everything the book reads: every spec, the seed bands and the extras shown beyond the paper")
    r.add_argument("--no-progress", action="store_true")


def _time_reproduction_command(sub) -> None:
    """The ``time-reproduction`` command's options."""
    tr = sub.add_parser("time-reproduction",
                        help="time the reproduction end to end into an empty scratch directory and write "
                             "results/reproduction-timing.json (the speed chapter shows it)")
    tr.add_argument("--scale", default="paper", choices=["paper", "quick"])
    tr.add_argument("--workers", type=int, default=2, help="local worker processes (default 2)")
    tr.add_argument("--scratch", default=None, help="an empty or new directory to reproduce into (default: a "
                                                     "temporary one, removed afterwards)")
    tr.add_argument("--paper-only", action="store_true", help="time the paper's part only, not --book")
    tr.add_argument("--out", default=None, help="the timing file (default: results/reproduction-timing.json at "
                                                "paper scale, .cache/quick-results/ at quick scale)")


def _verify_command(sub) -> None:
    """The ``verify`` command's options."""
    v = sub.add_parser("verify", help="recompute stored runs with the current code and compare them, byte for byte "
                                      "where deterministic; exit 1 if any differs")
    v.add_argument("ids", nargs="*", help="runs as KIND/ID or ID; or choose among the stored runs with --all, --kind, "
                                          "--exclude and --sample")
    v.add_argument("--all", action="store_true", help="every stored run (hours at paper scale)")
    v.add_argument("--sample", type=int, default=None, help="verify this many stored runs drawn at random")
    v.add_argument("--seed", type=int, default=None, help="the draw of --sample (default 0)")
    v.add_argument("--kind", action="append", default=[], help="only runs of this task kind (repeatable)")
    v.add_argument("--exclude", action="append", default=[], help="no runs of this task kind (repeatable)")
    v.add_argument("--scale", default="paper", choices=["paper", "quick"])
    v.add_argument("--results", default=None, help="results directory (default: as for reproduce)")
    v.add_argument("--record", action="store_true",
                   help="write a 'verified' record (commit, source fingerprint) into the meta.json of each identical "
                        "run made from uncommitted code; needs committed code")


def _suite_openings() -> str:
    """The benchmark's openings for its help, from the engine's table (each clicks its row's first click, 0,0 in the
    corner: no ``--first``)."""
    at = {"corner": "at 0,0", "centre": "in the centre"}
    said = lambda o: (f"the first click, {at[o.first]}, has no mine in " + (  # noqa: E731
        "it" if o.guard == 0 else f"its {2 * o.guard + 1}x{2 * o.guard + 1} square") if o.guard >= 0 else
        "mines uniform; the game opens a tile of its own (the paper's code)")
    return "; ".join(f"{o.name}: {said(o)}" for o in engine.OPENING_TABLE)


def _benchmark_command(sub) -> None:
    """The ``benchmark`` command's options."""
    m = sub.add_parser("benchmark", help="score an agent on the benchmark's fixed test suite of a level (the same "
                                         "boards for every agent): wins, win rate, safe tiles revealed, test CPU per "
                                         "decision, regret per decision against the exact probabilities")
    m.add_argument("agent", help="solver | search | random | FILE.npz (an agent saved by train --save; with the extra deep, a neural "
                                 "bandit or a PPO policy file, e.g. policy.npz of a run of ext:benchmark_ppo) | "
                                 "MODULE:FUNCTION (your policy: it is given the view, a NumPy int8 array rows x cols "
                                 "of cell codes, 0-8 a revealed tile's count of neighbouring mines, 9 covered, and "
                                 "the mine count as its second positional argument, required or not, or as the "
                                 "keyword mines where it has one; it returns the tile to click, (row, col) or "
                                 "row * cols + col; a reset() method of its own is called before each game, the "
                                 "regret games included, which replay the first K boards after the test games "
                                 "with the policy's state carried on)")
    m.add_argument("--level", default="beginner", choices=["beginner", "intermediate", "expert"])
    m.add_argument("--opening", default="reference", choices=[o.name for o in engine.OPENING_TABLE],
                   help="the suite's opening: " + _suite_openings())
    m.add_argument("--games", type=int, default=None, help="the first N boards of the suite (default all 10,000)")
    m.add_argument("--regret-games", type=int, default=None,
                   help="regret on the first K of those boards (default 200 beginner, 100 intermediate, 50 expert)")
    m.add_argument("--name", default=None, help="the name to report a MODULE:FUNCTION policy under")
    m.add_argument("--fresh", type=int, default=None, metavar="SEED",
                   help="play fresh boards instead of the public suite's: N boards (--games, default 10,000) of the "
                        "level and opening dealt by the suites' dealer from SEED, so that no policy can have seen "
                        "them (the seed of a public suite is refused)")
    m.add_argument("--save", default=None, metavar="FILE",
                   help="write one row per board (board, won, clicks, revealed, regret_decisions, regret) to FILE, "
                        "CSV or Parquet by its extension (.csv, .parquet), with the summary as metadata: inside a "
                        "Parquet file, in FILE.json beside a CSV file")
    m.add_argument("--force", action="store_true", help="let --save replace existing files")
    m.add_argument("--compare", default=None, metavar="NAME|FILE",
                   help="set the score beside a leaderboard entry (its agent spec: solver, random, greedy, "
                        "best-window:8x8x10, ...) or a result saved by --save, on the boards both played: for one "
                        "run, the difference in win rate with a paired bootstrap interval and the exact McNemar "
                        "p-value; for a learner's seeds, the seed-level verdict")
    m.add_argument("--results", default=None, metavar="DIR",
                   help="the results folder whose stored leaderboard runs --compare NAME reads (default results/)")
    m.add_argument("--json", action="store_true", help="print the score as one JSON line")


def _bench_command(sub) -> None:
    """The ``bench`` command's options."""
    b = sub.add_parser("bench", help="games/s of the standard workloads, then the unit costs per learner (CPU per "
                                     "training and test decision)")
    b.add_argument("--quick", action="store_true", help="smaller workloads (a smoke run)")
    b.add_argument("--repeat", type=int, default=None,
                   help="runs of each workload of up to 10^5 games, the fastest counts (default 3, 1 with --quick); "
                        "each unit cost repeats this often, at least 3 times")
    b.add_argument("--units-only", action="store_true",
                   help="measure the unit costs per learner only (not the workloads: cannot be saved)")
    b.add_argument("--save", default=None, help="write the rows and the unit costs, with date, machine and "
                                                "provenance, as JSON to this file (the book reads results/bench.json)")
    b.add_argument("--allow-busy", action="store_true",
                   help="with --save, write a bench measured while other processes used the machine (marked busy); "
                        "without it such a bench is refused")
    b.add_argument("--json", action="store_true", help="print the rows and the unit costs as one JSON object")


def _best_window_command(sub) -> None:
    """The ``best-window`` command's options."""
    w = sub.add_parser("best-window", help="estimate the best window agent's table of a board (the regret chapter's "
                                           "in-class comparator) and write it into the package")
    w.add_argument("--board", default="8x8x10")
    w.add_argument("--games", type=int, default=125_000, help="training games of the greedy agent per part")
    w.add_argument("--parts", type=int, default=8, help="independent parts (seeds 1001, 1002, ...), added")
    w.add_argument("--workers", type=int, default=2, help="local worker processes (at most --parts)")
    w.add_argument("--out", default=None, help="the table's file (default: the package's file for the board, "
                                               "sweeper/agents/data/best-window/BOARD.npz)")
    w.add_argument("--force", action="store_true", help="replace an existing file (the package's own table too)")


def _boards(text):
    return [b for b in text.split(",") if b.strip()]


def main(argv=None, *, ending: bool = False) -> int:
    """Run the command line ``argv`` (default: this process's); returns the exit status. ``ending``: the process
    ends when this returns (``python -m sweeper``), so after a Ctrl-C a second one is ignored, not a traceback."""
    try:
        args = build_parser().parse_args(argv)
        return _run(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # Ctrl-C: one line, the shell's code for SIGINT
        previous = _ignore_ctrl_c()
        print(f"interrupted{': ' + str(exc) if str(exc) else ''}", file=sys.stderr)
        if previous is not None and not ending:
            signal.signal(signal.SIGINT, previous)
        return 130
    except MemoryError:
        print("error: out of memory: play fewer games per run (or on smaller boards)", file=sys.stderr)
        return 1
    except OSError as exc:  # the disk filled, a folder could not be made, a scheduler could not be reached ...
        what = exc.strerror or str(exc) or type(exc).__name__
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        print(f"error: {what}{where}", file=sys.stderr)
        return 1
    except RuntimeError as exc:  # a plug-in rule failed (RuleError): what, where, and the games finished before
        custom = sys.modules.get(f"{__package__}.agents.custom")
        if custom is None or not isinstance(exc, custom.RuleError):
            raise
        message = str(exc)
        if exc.run is not None:
            n = len(exc.run.records)
            message = message.removesuffix(f"; the {n:,} finished games are in error.run") + \
                f" (after {n:,} finished games; nothing was written)"
        print(f"error: {message}", file=sys.stderr)
        return 1


def _ignore_ctrl_c():
    """Ignore Ctrl-C from now on (in the main thread); the handler it replaced, or None."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGINT, signal.SIG_IGN)


def _refuse_no_effect(args) -> None:
    """Options that would have no effect in the combination given are refused, not ignored."""
    given = lambda name: getattr(args, name, None)  # noqa: E731
    pairs = []
    if args.command in ("train", "eval"):
        pairs.append((given("force") and not given("save"), "--force lets --save replace a file: give --save too"))
    if args.command == "train":
        pairs.append((args.no_symmetry and args.agent.strip().lower() == "sa",
                      "--no-symmetry with --agent sa: the state-action agent has no symmetries"))
    if args.command == "eval":
        pairs.append((args.agent and args.freeze, f"--freeze with --agent {args.agent}: the solver and the random "
                                                  "player learn nothing"))
        pairs.append((args.save and args.freeze, "--save with --freeze would write the loaded agent unchanged "
                                                 "(frozen games teach it nothing): copy the file instead"))
    if args.command == "reproduce":
        pairs.append((args.dask and args.workers != 1, "--workers is for local processes; with --dask the "
                                                       "scheduler's workers run the tasks"))
        pairs.append((args.list and (args.workers != 1 or args.dask or args.book),
                      "--list runs nothing: --workers, --dask and --book have no effect with it"))
    if args.command == "bench":
        pairs.append((args.save and args.quick, "--save keeps a full bench for the book: a --quick run is a smoke "
                                                "test with smaller workloads; run without --quick to save"))
        pairs.append((args.save and args.units_only, "--save keeps a full bench for the book: --units-only measures "
                                                     "the unit costs alone; run without it to save"))
        pairs.append((args.allow_busy and not args.save, "--allow-busy lets --save write a bench measured on a busy "
                                                         "machine: give --save too"))
    for hit, message in pairs:
        if hit:
            raise ValueError(message)


def _run(args) -> int:
    _refuse_no_effect(args)
    if args.command in ("train", "eval") and args.save:  # before any import or work
        check_save_path(args.save, args.force)
    if args.command == "reproduce" and args.results:
        check_results_dir(args.results)
    if args.command in ("reproduce", "time-reproduction"):
        from .checks import workers
        workers(args.workers, "--workers")
    if args.command == "time-reproduction" and args.out:
        from .checks import output_file
        output_file(args.out, f"--out {args.out}")
    from .agents.kinds import load_agent, make_agent
    from .running.training import evaluate, train, warm_up

    if args.command == "bench":
        return _bench(args)
    if args.command == "reproduce":
        return _reproduce(args)
    if args.command == "benchmark":
        return _benchmark(args)
    if args.command == "best-window":
        return _best_window(args)
    if args.command == "verify":
        return _verify(args)
    if args.command == "time-reproduction":
        from .experiments.timing import time_reproduction
        time_reproduction(args.scale, args.workers, scratch=args.scratch, book=not args.paper_only, out=args.out)
        return 0
    if args.command == "audit":
        return _audit(args)
    first = _parse_first(args.first, args.opening)
    common = dict(seed=args.seed, opening=args.opening, first=first, progress=not args.no_progress)
    if args.command == "eval" and args.agent:
        return _players(args, first)
    boards = _check_run(args)
    if args.command == "train":
        agent = make_agent(args.agent, symmetric=False if args.no_symmetry else None, flags=not args.no_flags)
    else:
        agent = load_agent(args.load)
    learn = args.command == "train" or not args.freeze
    compile_seconds = warm_up(agent, boards[0], learn=learn, opening=args.opening, first=first)
    if args.command == "train":
        run = train(agent, boards, args.episodes, **common)
    else:
        run = evaluate(agent, boards, args.episodes, freeze=args.freeze, **common)
    summary = run.summary()
    summary["compile_seconds"] = compile_seconds
    failure = None
    if args.save:
        try:
            agent.save(args.save)
            summary["saved"] = args.save
        except OSError as exc:
            rescue = Path(tempfile.gettempdir()) / f"sweeper-agent-{os.getpid()}.npz"
            try:
                agent.save(rescue)
                summary["saved"] = str(rescue)
                kept = f"; the agent was written to {rescue} instead"
            except OSError:
                kept = ""
            failure = f"error: could not write the agent to {args.save} ({exc.strerror or exc}){kept}"
    _print(summary, args.json)
    if failure:
        print(failure, file=sys.stderr)
        return 1
    return 0


def _check_run(args) -> list:
    """The boards of a ``train`` or ``eval`` run, with its episodes, seed and memory checked (before the warm-up,
    which compiles the kernels)."""
    from .game.engine import Setting
    from .rng import check_seed
    from .running.training import check_episodes, check_record_memory
    boards = _boards(args.board)
    if not boards:
        raise ValueError("--board: no board setting given")
    for b in boards:
        Setting.parse(b)
    check_seed(args.seed)
    check_record_memory(check_episodes(args.episodes) * len(boards))
    return boards


def _reproduce(args) -> int:
    import time

    from .experiments.specs import all_tasks, check_seeds
    from .experiments.reproduce import book_reproduction, default_results, list_specs, reproduce

    try:
        seeds = tuple(int(s) for s in args.seeds.split(","))
    except ValueError:
        raise ValueError(f"--seeds must be comma-separated whole numbers such as 1,2,3, got {args.seeds!r}") from None
    check_seeds(seeds)
    results = Path(args.results) if args.results else default_results(args.scale)
    exact = args.scale != "paper"  # below paper scale a store is a cache: results of older code are recomputed
    if args.list:
        print("\n".join(list_specs(args.ids, args.scale, seeds, results)))
        return 0
    if args.book:
        if args.ids or args.seeds != "1":
            raise ValueError("--book runs a fixed set (every spec, the seed bands, the extras): give no ids or --seeds")
        t0 = time.perf_counter()
        runs = book_reproduction(args.scale, workers=args.workers, dask=args.dask, results=results,
                                 progress=not args.no_progress, log=lambda *_: None)
        print(f"everything the book reads at {args.scale} scale: {sum(c['tasks'] for c in runs)} tasks, "
              f"{sum(c['computed'] for c in runs)} computed in {time.perf_counter() - t0:.1f} s, in {results}")
        return 0
    all_tasks(args.ids, args.scale, seeds)  # validates the ids before any work
    t0 = time.perf_counter()
    counts = reproduce(args.ids or None, args.scale, seeds, workers=args.workers, dask=args.dask, results=results,
                       progress=not args.no_progress, exact_source=exact)
    done = (f"{counts['tasks']} tasks: {counts['cached']} already done, {counts['computed']} computed "
            f"in {time.perf_counter() - t0:.1f} s")
    if counts["summary"] is not None:
        print(f"{done}; summary written to {counts['summary']}")
    else:
        print(f"{done}; summary not written yet: {counts['missing']} tasks of other experiments are not done "
              f"(`python -m sweeper reproduce --scale {args.scale}` runs them all)")
    return 0


def _verify(args) -> int:
    """``verify IDS | --all | --kind K | --sample N``: recompute stored runs and compare, then count the verdicts per
    kind; 1 if any differs, cannot be read or cannot be recomputed."""
    from .experiments.reproduce import default_results, store_for
    from .experiments.verify import select, summary, verify
    results = Path(args.results) if args.results else default_results(args.scale)
    store = store_for(results, args.scale)
    runs = select(store, args.ids, args.sample, args.seed, args.kind, args.exclude, every=args.all)
    if not runs:
        raise ValueError(f"no stored runs to verify in {store.root}")
    verdicts = verify(store, runs, record=args.record)
    print("\n".join(summary(verdicts)))
    return 0 if all(v.status in ("identical", "same values") for v in verdicts) else 1


def _bench(args) -> int:
    """``bench``: the workloads' rows (unless ``--units-only``), then the unit costs per learner; ``--save`` keeps both,
    refusing a bench measured on a busy machine unless ``--allow-busy``."""
    from . import bench
    if args.save:
        bench.check_bench_path(args.save)
    if args.repeat is not None and (isinstance(args.repeat, bool) or args.repeat < 1):
        raise ValueError(f"repeat must be a whole number >= 1, got {args.repeat!r}")
    rows = [] if args.units_only else bench.run_benchmarks(quick=args.quick, repeat=args.repeat)
    units = bench.unit_cost_section(quick=args.quick, repeats=args.repeat)
    if units["busy"]:
        print(f"note: {units['busy_rows']} unit-cost rows were measured while other processes used the machine "
              f"(busy)")
    if args.save:
        bench.save_bench(rows, args.save, bench.REPEAT if args.repeat is None else args.repeat, units,
                         allow_busy=args.allow_busy)
        print(f"written to {args.save}{' (marked busy)' if units['busy'] else ''}")
    if args.json:
        print(json.dumps({"rows": rows, "unit_costs": units["rows"], "unit_setup": units["setup"],
                          "busy": units["busy"]}))
    return 0


def _benchmark(args) -> int:
    """``benchmark AGENT --level L``: the agent's score on the level's suite (see sweeper.experiments.benchmark),
    saved board by board (``--save``) and set beside a leaderboard entry or a saved result (``--compare``)."""
    from .experiments import board_results
    from .experiments.benchmark import ENTRY_POINT, describe, resolve_agent, score
    if args.name is not None and not ENTRY_POINT.fullmatch(args.agent):
        raise ValueError("--name names a MODULE:FUNCTION policy; the other agents report their own names")
    if args.force and not args.save:
        raise ValueError("--force lets --save replace a file: give --save too")
    if args.results and not args.compare:
        raise ValueError("--results is where --compare NAME reads the leaderboard's stored runs: give --compare too")
    if args.results and args.compare.lower().endswith(board_results.FORMATS):
        raise ValueError("--results is where --compare NAME reads the leaderboard's stored runs: it has no effect "
                         "with --compare FILE")
    if args.save:  # before any work
        board_results.check_save_path(args.save, args.force)
    other = None if args.compare is None else board_results.against(
        args.compare, args.level, args.opening, args.fresh, Path(args.results) if args.results else None)
    agent = resolve_agent(args.agent)
    scored = score(agent, args.level, args.opening, args.games, args.regret_games, name=args.name, fresh=args.fresh)
    result = {**scored.report(), "compile_seconds": scored.compile_seconds}  # the warm-up, outside the test CPU
    if other is not None:
        result["compare"] = board_results.compared(scored, other)
    if args.save:
        from .experiments.provenance import provenance
        result["saved"] = [str(p) for p in board_results.save_boards(scored.boards(), args.save,
                                                                     {**result, "provenance": provenance()})]
    if args.json:
        print(json.dumps(_jsonable_all(result), allow_nan=False))
        return 0
    lines = describe(result)
    if "compare" in result:
        lines += board_results.describe_comparison(result["compare"])
    if "saved" in result:
        lines.append(f"saved: {', '.join(result['saved'])}")
    print("\n".join(lines))
    return 0


def _jsonable_all(v):
    """:func:`_jsonable` in lists and objects too."""
    return {k: _jsonable_all(x) for k, x in v.items()} if isinstance(v, dict) else \
        [_jsonable_all(x) for x in v] if isinstance(v, (list, tuple)) else _jsonable(v)


def _audit(args) -> int:
    """``audit --load FILE``: win rate, lost games by cause and calibration of a frozen agent."""
    from .agents.kinds import load_agent
    from .running.belief import audit
    agent = load_agent(args.load)
    boards = _boards(args.board)
    if len(boards) != 1:
        raise ValueError("audit takes one board setting")
    a = audit(agent, boards[0], args.episodes, seed=args.seed, opening=args.opening,
              first=_parse_first(args.first, args.opening))
    losses = a.losses().set_index("cause")
    summary = {"agent": agent.name, "board": boards[0], "opening": args.opening, "episodes": len(a.games),
               "seed": args.seed, "learning": False, "wins": int(a.games["won"].sum()), "win_rate": a.win_rate,
               "seconds": a.seconds, "fallbacks": a.fallbacks,
               **{f"lost: {c}": int(losses.loc[c, "games"]) for c in losses.index},
               "decisions": len(a.decisions), "decisions with a known safe tile": int(a.decisions["safe_known"].sum())}
    if not args.json:
        cal = a.calibration("all")
        print("calibration over every candidate (belief (Q+1)/2 vs exact P(mine) of the target):")
        print(cal[["bin_label", "count", "belief", "exact", "known_safe", "known_mine"]].to_string(index=False))
    _print(summary, args.json)
    return 0


def _players(args, first) -> int:
    """``eval --agent solver|random``: the same summary keys as the bandit agents."""
    from .running.players import play_random, play_solver
    from .running.search import play_search
    if args.save:
        raise ValueError("--save is for bandit agents; the solver and the random player learn nothing")
    fn = {"solver": play_solver, "search": play_search, "random": play_random}[args.agent]
    boards = _check_run(args)
    t0 = time.perf_counter()
    fn(boards[0], 1, opening=args.opening, first=first)  # compile outside the timing
    compile_seconds = time.perf_counter() - t0
    won, seconds, fallbacks, decisions = [], 0.0, 0, []
    for board in boards:
        r = fn(board, args.episodes, seed=args.seed, opening=args.opening, first=first)
        won.append(r["won"])
        decisions.append(r["decisions"])
        seconds += r["seconds"]
        fallbacks += int(r["fallbacks"])
    won = np.concatenate(won)
    n = len(won)
    summary = {"agent": args.agent, "board": "+".join(boards), "opening": args.opening, "episodes": n,
               "seed": args.seed, "learning": False, "wins": int(won.sum()),
               "win_rate": float(won.mean()) if n else float("nan"),
               "mean_decisions": float(np.concatenate(decisions).mean()) if n else float("nan"),
               "actions_recorded": 0, "perfect_actions": 0, "seconds": seconds,
               "games_per_second": n / seconds if seconds > 0 else float("inf"), "fallbacks": fallbacks,
               "compile_seconds": compile_seconds}
    _print(summary, args.json)
    return 0


def _print(summary: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps({k: _jsonable(v) for k, v in summary.items()}, allow_nan=False))
    else:
        for k, v in summary.items():
            print(f"{k:>18}: {v:.4f}" if isinstance(v, float) else f"{k:>18}: {v}")


def _best_window(args) -> int:
    from .agents.best_window import default_path
    from .checks import output_file, whole, workers
    from .experiments.comparator import MAX_PARTS, make_table
    from .game.engine import Setting
    from .running.training import check_record_memory
    setting = Setting.parse(args.board)
    whole(args.games, "--games", 1)
    whole(args.parts, "--parts", 1)
    if args.parts > MAX_PARTS:
        raise ValueError(f"--parts must be at most {MAX_PARTS} (every part's table is kept until they are added), "
                         f"got {args.parts}")
    workers(args.workers, "--workers")
    if args.workers > args.parts:
        raise ValueError(f"--workers ({args.workers}) above --parts ({args.parts}): a worker computes one part")
    check_record_memory(args.games)
    out = Path(args.out) if args.out else default_path(setting)
    if args.out is None:
        out.parent.mkdir(parents=True, exist_ok=True)  # the package's data folder (git keeps no empty folder)
    output_file(out, f"--out {out}")
    if out.exists() and not args.force:
        whose = "the package's table of " + str(setting) if args.out is None else "a file"
        raise ValueError(f"{out} exists ({whose}): add --force to replace it")
    print(f"best-window {setting}: {args.parts} parts of {args.games:,} games on {args.workers} "
          f"worker{'s' if args.workers > 1 else ''}, then the convergence; writing {out}", flush=True)
    t = make_table(str(setting), args.games, args.parts, args.workers, out=out)
    c = t.info["convergence"][-1]
    print(f"{out}: {len(t):,} keys over {t.info['decisions']:,} decisions ({t.info['games']:,} games); "
          f"gap per decision {c['gap_per_decision']:.5f} on the convergence games")
    return 0
