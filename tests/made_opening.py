"""The opening of CONTRIBUTING.md's recipe, its example row exactly as the guide writes it: one copy for the tests
that add it, to the engine's table for a test (tests/test_contributing.py) or as a line of a scratch copy of the
engine (tests/test_contributing.py, which follows the recipe to its paper-scale end in a scratch clone)."""

NAME, GUARD, HELP = "wide", 2, "the first click ({first}) has no mine in its 5x5 square"

#: The row as a line of ``OPENING_TABLE`` (the guide's text, which tests/test_contributing.py checks).
ROW = f'Opening("{NAME}", {GUARD}, "{HELP}")'

#: Its paragraph in the engine's module docstring (step 1: one more line, in the ``zero`` entry it shares).
DOC = f"    ``{NAME}``: the same with no mine in the {2 * GUARD + 1}x{2 * GUARD + 1} square of ``first``.\n"


def row(opening):
    """The row, made by the engine's ``Opening`` class ``opening``."""
    return opening(NAME, GUARD, HELP)
