"""The leaderboard's data in other chapters (sweeper/viz/figures/benchmark.py) on hand-made stored runs."""

from sweeper.viz.figures import benchmark as bf

from made_benchmark import made_bench


def test_the_regret_chapter_sorts_the_frozen_tables_and_lets_the_seeds_rank():
    runs = made_bench(networks=False)
    t = bf.tables_frozen(runs)
    assert list(t["agent"]) == ["greedy table", "UCB table"]  # the learners with a table, best mean first
    text = bf.tables_frozen_note(runs)
    assert "the table agents sorted by mean win rate are greedy table, UCB table" in text
    assert "on 3 seeds, every seed on the same boards" in text and "the same order" in text
    assert "UCB table win less than the greedy table" in text
    assert "not on one scale" in text


def test_results_at_a_glance_names_the_best_learner_and_what_the_seeds_say():
    text = bf.glance_sentence(made_bench())
    # beginner: the networks trained on beginner (0.86, 0.87, 0.88) are the highest mean and beat greedy (0.74)
    assert "on beginner (100 boards) the exact solver wins 0.880, the paper's greedy table 0.740 (mean of 3 seeds), " \
        "and the learner of highest mean, the network (beg.), 0.870 (3 seeds): more than the greedy table" in text
    assert text.startswith("On [the leaderboard](15_benchmark.html): on beginner")
    no_nets = bf.glance_sentence(made_bench(networks=False))
    assert "on beginner (100 boards) the exact solver wins 0.880, the paper's greedy table 0.740 (mean of 3 seeds);" \
        in no_nets  # greedy is the best learner: nothing more to say


def test_the_deep_rl_chapter_reads_ppo_against_the_networks_on_the_same_boards(monkeypatch):
    monkeypatch.setattr(bf, "scale", lambda: "paper")
    assert "not yet, PPO (per tile), PPO (CNN) are not scored" in bf.ppo_sentence(made_bench())
    text = bf.ppo_sentence(made_bench(ppo=True))
    assert "the PPO (per tile) 0.550 [" in text and "after 25 CPU minutes of training" in text
    assert "the network (beg.) 0.870 [" in text
    assert "On beginner, the PPO (per tile) wins less than the network (beg.): a difference of -0.320" in text
    assert text.endswith("no verdict about the two signals.")
    monkeypatch.setattr(bf, "scale", lambda: "quick")
    assert "only at paper scale" in bf.ppo_sentence(made_bench(ppo=True))
