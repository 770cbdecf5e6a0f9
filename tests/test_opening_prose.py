"""Issue 64: the openings in prose. The page guard of tests/test_contributing.py (``_named``) catches a hand list of
the openings in a page's markdown, as the audit found them; the help texts write a row's first click out from its
``first`` column; the opening recipe says where its docstring line goes and how to time its runs."""

import ast
from pathlib import Path

from sweeper.experiments import reproduce
from sweeper.experiments import specs as ex
from sweeper.game import engine

import made_opening
from test_contributing import GUIDE, _named

REPO = Path(__file__).resolve().parents[1]


def test_the_page_guard_catches_a_hand_list_of_the_openings_and_lets_a_comparison_be():
    """The hand lists the audit found (a bullet per opening, a list in parentheses, one sentence naming each in
    words) are caught; a sentence that sets two openings side by side, and sentences each naming one, are not."""
    a, b, c = (o.name for o in engine.OPENING_TABLE[:3])
    bullets = (f"The paper's code is our `{a}` rule:\n\n* **{a}** — the game opens the first zero it finds.\n"
               f"* **{b}** — the first click (top-left corner by default) is never a mine.\n"
               f"* **{c}** — the first click has no mine around it.\n\nHow often does it find none?")
    assert _named(bullets) == [" ".join(bullets.split("\n\n")[1].split())]
    assert _named(f"10,000 layouts per level and opening (`{a}`, `{b}`, `{c}`), dealt by the engine.")
    assert _named(f"The {b} opening often reveals one number; the {c} opening opens a region, and the {a} opening "
                  f"opens the first zero region it finds.")
    assert _named(f"Runs under the {a}, {b} and {c} openings.")
    assert not _named(f"Our `{b}` suites click the corner. Our `{c}` suites click it too. The `{a}` opening has no "
                      f"published counterpart.")
    assert not _named(f"Our `{b}` and `{c}` runs click first in the corner.\n\n```\n`{a}`, `{b}`, `{c}`\n```\n")
    assert not _named(f"The {b} tiles and a {c} region, under every opening of the `{a}` page.")


def test_a_help_text_says_its_row_s_first_click_from_the_row():
    """Issue 64, item 6: ``{first}`` in a row's help is its ``first`` written out; the table's rows say it so."""
    corner = engine.Opening("odd", 0, "the first click ({first}) is never a mine")
    centre = engine.Opening("odd", 0, "the first click ({first}) is never a mine", first="centre")
    assert corner.help == "the first click (--first, default 0,0) is never a mine"
    assert centre.help == "the first click (--first, default the centre tile) is never a mine"
    table = ast.parse((REPO / "sweeper" / "game" / "engine.py").read_text())
    rows = next(n.value for n in table.body if isinstance(n, ast.Assign) and n.targets[0].id == "OPENING_TABLE")
    helps = [row.args[2].value for row in rows.elts]
    assert "default 0,0" not in " ".join(helps)
    for text, o in zip(helps, engine.OPENING_TABLE):
        assert ("{first}" in text) == o.takes_first, o.name


def test_the_opening_recipe_says_where_the_docstring_line_goes_and_how_to_time_the_runs():
    """Issue 64, item 5: step 1 shows the docstring line (tests/made_opening.py's, which the scratch clone adds at
    the end of the ``zero`` entry) and the docstring has room for it; step 4 names the command that prints the
    stored runs' speed, in the words it prints."""
    guide = GUIDE.read_text()
    recipe = " ".join(guide[guide.index("## Add an opening"):guide.index("## Add a chapter")].split())
    assert f"\n   {made_opening.DOC}" in guide and "at the end of the docstring's `zero` entry" in recipe
    doc = ast.parse((REPO / "sweeper" / "game" / "engine.py").read_text()).body[0]
    assert "\n``zero``\n" in doc.value.value and doc.end_lineno - doc.lineno + 2 <= 30  # tests/test_layers.py
    assert "`python -m sweeper reproduce --list ext:how_good ext:benchmark_search`" in recipe
    task = next(t for t in ex.all_tasks(["ext:how_good"]) if reproduce.task_games(t))

    class Store:
        meta = staticmethod(lambda t: {"seconds": 2.0})

    speed = "games per second of recorded wall time"
    assert speed in reproduce._recorded_speed(Store(), [task]) and speed in recipe


def test_the_game_chapter_s_openings_table_is_the_engine_s():
    """Chapter 2 shows the openings from the engine's table (sweeper.viz.figures.openings_table), a row each, so an
    opening added to OPENING_TABLE appears there with no second edit."""
    from sweeper.game.engine import FIRST_CLICKS, OPENING_TABLE
    from sweeper.viz import figures
    t = figures.openings_table("expert")
    assert list(t.index) == [o.name for o in OPENING_TABLE]
    for o in OPENING_TABLE:
        row = t.loc[o.name]
        assert (row["first click if none is given"] == f"{o.first}, {FIRST_CLICKS[o.first](16, 30)} on expert"
                if o.takes_first else row["first click if none is given"] == "—")
        assert row["no mine on"].startswith("nothing" if o.guard < 0 else "the first click")
