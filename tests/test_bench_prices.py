"""The leaderboard's costs at the bench (sweeper/viz/figures/benchmark_cost.py): every trained entry's counted work
priced at the committed bench's unit costs, a network phase by phase, and each test decision at the bench's CPU per
test decision; no recorded process seconds."""

import pytest

from sweeper import bench
from sweeper.viz.figures import benchmark as fb, benchmark_cost as fc
from sweeper.viz.figures.results import network_work


@pytest.fixture(scope="module")
def priced():
    """The stored paper-scale leaderboard runs (the networks and PPO are there only; ``make test`` sets the quick
    scale) and the committed bench record."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SWEEPER_SCALE", "paper")
        return fb.benchmark_runs(), bench.read_bench()


def test_the_cost_table_prices_the_counted_work_at_the_bench(priced):
    runs, record = priced
    table = fc.cost_table(runs, record)
    assert list(table.columns) == [("training", "counted work"), ("training", "CPU min"),
                                   ("test µs / decision", "beginner"), ("test µs / decision", "intermediate"),
                                   ("test µs / decision", "expert")]
    s = runs["scores"]
    greedy = s[(s["label"] == "greedy table") & (s["level"] == "beginner")]
    want = bench.work_cost("greedy", "beginner", greedy["train_decisions"].mean(), record=record) / 60
    assert table.loc["greedy table", ("training", "CPU min")] == f"{want:,.1f}"
    assert table.loc["greedy table", ("test µs / decision", "expert")] == \
        f"{bench.work_cost('greedy', 'expert', 1, 'test', record=record) * 1e6:,.0f}"
    # no training, no price; a network playing symmetric had the plain one's training
    assert table.loc["exact solver", ("training", "CPU min")] == "" and table.loc["random clicks", ("training",
                                                                                                     "CPU min")] == ""
    assert table.loc["network, symmetric (exp.)", ("training", "CPU min")] == \
        table.loc["network (exp.)", ("training", "CPU min")]
    assert table.loc["PPO (CNN)", ("test µs / decision", "expert")] == ""  # scored on beginner only


def test_a_network_is_priced_phase_by_phase(priced):
    runs, record = priced
    price = fc.training_price(runs, record)
    net = runs["scores"][runs["scores"]["label"] == "network (exp.)"].drop_duplicates("seed").iloc[0]
    params, out = fc._load_source(net["source"])
    phases = network_work(params, out.info)
    assert [p[0] for p in phases] == ["neural-warm-start", "neural", "neural"]
    assert sum(p[2] for p in phases) == net["train_decisions"]  # every decision priced once
    got = price[(price["label"] == "network (exp.)") & (price["seed"] == net["seed"])]["seconds"].iloc[0]
    assert got == pytest.approx(sum(bench.work_cost(*p, record=record) for p in phases))
    assert "not the seconds the runs recorded" in fc.cost_caption_table(record)


def test_the_leaderboard_s_test_cost_is_the_bench_s_and_the_record_is_kept_apart(priced):
    runs, record = priced
    board = fb.leaderboard(runs, "expert", record).set_index("agent")
    assert board.loc["greedy table", "test µs / decision"] == pytest.approx(
        bench.work_cost("greedy", "expert", 1, "test", record=record) * 1e6)
    assert board.loc["network (exp.)", "test µs / decision"] == pytest.approx(
        bench.work_cost("neural", "expert", 1, "test", record=record) * 1e6)
    s = runs["scores"]
    g = s[(s["label"] == "greedy table") & (s["level"] == "expert")]
    assert board.loc["greedy table", "recorded µs / decision"] == pytest.approx(
        (1e6 * g["test_cpu_seconds"] / g["decisions"]).mean())

