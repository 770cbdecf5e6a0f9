"""The leaderboard's costs at the bench (sweeper/viz/figures/benchmark_cost.py): every trained entry's counted work
priced at the committed bench's unit costs, a network phase by phase, and each test decision at the bench's CPU per
test decision; no recorded process seconds."""

import copy

import pytest

from sweeper import bench
from sweeper.viz.figures import benchmark as fb, benchmark_cost as fc
from sweeper.viz.figures.results import network_work


@pytest.fixture(scope="module")
def priced():
    """The stored leaderboard runs and a bench record that has every unit they need (the committed one, with a
    warm-start unit of 320 µs where it predates that row)."""
    record = copy.deepcopy(bench.read_bench())
    if not any(r.get("learner") == "neural-warm-start" for r in record["unit_costs"]):
        row = next(r for r in record["unit_costs"] if r.get("learner") == "neural" and r.get("what") == "train")
        record["unit_costs"].append({**row, "learner": "neural-warm-start", "level": "beginner", "board": "8x8x10",
                                     "us_per_decision": 320.0})
    return fb.benchmark_runs(), record


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
