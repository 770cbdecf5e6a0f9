"""The seed-band helpers of sweeper.viz.figures (the tables behind the bands)."""

import pandas as pd
import pytest

from sweeper.viz import figures


def test_band_is_mean_low_high_over_seeds():
    df = pd.DataFrame({"agent": ["a"] * 6, "seed": [1, 2, 3] * 2, "episode": [10] * 3 + [20] * 3,
                       "cum_win_rate": [0.1, 0.3, 0.2, 0.5, 0.7, 0.6]})
    b = figures._band(df, ["agent", "episode"], "cum_win_rate")
    assert list(b["cum_win_rate"].round(12)) == [0.2, 0.6]
    assert list(b["low"]) == [0.1, 0.5] and list(b["high"]) == [0.3, 0.7] and list(b["seeds"]) == [3, 3]
    assert b["sd"].round(12).tolist() == [0.1, 0.1]


def test_band_seeds_follow_the_scale(monkeypatch):
    monkeypatch.setenv(figures.SCALE_ENV, "paper")
    assert figures.band_seeds() == (1, 2, 3, 4, 5)
    monkeypatch.setenv(figures.SCALE_ENV, "quick")
    assert len(figures.band_seeds()) >= 2
    monkeypatch.setenv(figures.SCALE_ENV, "huge")
    with pytest.raises(ValueError, match="SWEEPER_SCALE"):
        figures.band_seeds()
