"""The scales of the experiments (``paper``: 10^6 training games, 10^4 test games; ``quick``: a smoke run of every
spec for the tests) and the three levels every trained agent is tested on."""

from __future__ import annotations

from dataclasses import dataclass

STANDARD_TESTS = ("8x8x10", "16x16x40", "16x30x99")
LEVEL = {"8x8x10": "beginner", "16x16x40": "intermediate", "16x30x99": "expert"}


@dataclass(frozen=True)
class Scale:
    name: str
    train: int        # training games per run
    test: int         # test games per test board
    block: int        # games per learning-curve point
    heat_train: int   # training games per heatmap cell
    heat_block: int


SCALES = {
    # heatmap cells: the paper does not state their training length; 2*10^5 games per cell keeps the
    # 120 cells within a 2-core budget (see the book's chapter on tinkering with the game)
    "paper": Scale("paper", 1_000_000, 10_000, 10_000, 200_000, 20_000),
    "quick": Scale("quick", 20_000, 1_000, 2_000, 2_000, 1_000),
}
