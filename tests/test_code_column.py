"""Every line of code the book shows fits its code column, so no reader has to scroll sideways."""

import json
from pathlib import Path

BOOK = Path(__file__).resolve().parent.parent / "book"

# At 1,280 px the theme's code column is 672 px wide, and its monospace font takes 8.53 px per
# character plus 24 px of padding: (672 - 24) / 8.53 = 75.9; 73 leaves room for a narrower box.
CODE_COLUMN = 73
# An opened solution dropdown is narrower: 605 px, (605 - 24) / 8.53 = 68.1.
SOLUTION_COLUMN = 68


def code_lines(text):
    """(line number, line) of each line inside a code fence (```, ```python, ```{code-cell}, ...).
    A directive fence (```{exercise}, ```{solution-start}, ```{glossary}, ...) is not code, but may
    hold a code fence; a fence closes with a line of at least as many backticks and no info string."""
    out, open_fences = [], []  # (backticks, is code) of each fence still open, innermost last
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        ticks = len(stripped) - len(stripped.lstrip("`"))
        info = stripped[ticks:].strip()
        in_code = bool(open_fences) and open_fences[-1][1]
        if ticks >= 3:
            if open_fences and not info and ticks >= open_fences[-1][0]:
                open_fences.pop()
                continue
            if not in_code:
                code = not info.startswith("{") or info.startswith("{code-cell}")
                open_fences.append((ticks, code))
                continue
        if in_code:
            out.append((number, line))
    return out


def shown_code(path):
    """(where, line, column) of each line of code that the page of ``path`` shows, with the width
    of its column: :data:`SOLUTION_COLUMN` in the cells of a solution (from the markdown cell that
    opens it with {solution-start} to the one that closes it with {solution-end}), else
    :data:`CODE_COLUMN`."""
    if path.suffix == ".md":
        return [(f"line {n}", line, CODE_COLUMN) for n, line in code_lines(path.read_text())]
    found, width = [], CODE_COLUMN
    for i, cell in enumerate(json.loads(path.read_text())["cells"]):
        text = "".join(cell["source"])
        if cell["cell_type"] == "code":
            found += [(f"cell {i}", line, width) for line in text.split("\n")]
        elif cell["cell_type"] == "markdown":
            if "{solution-start}" in text:
                width = SOLUTION_COLUMN
            found += [(f"cell {i}", line, width) for _, line in code_lines(text)]
            if "{solution-end}" in text:
                width = CODE_COLUMN
    return found


def test_no_code_line_is_wider_than_the_code_column():
    pages = sorted(BOOK.glob("*.ipynb")) + sorted(BOOK.glob("*.md"))
    assert pages
    long = [f"{path.name} {where} [{len(line)} > {width}]: {line[:60]}"
            for path in pages for where, line, width in shown_code(path)
            if len(line) > width]
    assert not long, f"{len(long)} code lines wider than their column:\n" + "\n".join(long)


def test_the_fence_parser_reads_code_and_skips_directives_and_prose():
    text = "\n".join([
        "prose outside any fence " + "p" * 80,
        "````{exercise}",
        "the exercise's words " + "e" * 80,
        "```python",
        "inside = 'a code fence in a directive' + " + "x" * 40,
        "```",
        "````",
        "```{solution-start} my-exercise",
        ":class: dropdown",
        "```",
        "```bash",
        "echo shown",
        "```",
        "after the fences " + "q" * 80,
    ])
    lines = [line for _, line in code_lines(text)]
    assert lines == ["inside = 'a code fence in a directive' + " + "x" * 40,
                     "echo shown"]
    assert [len(line) > CODE_COLUMN for line in lines] == [True, False]
