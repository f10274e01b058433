"""The duplicate-match bench: same cards in every play of a pair, seats swapped right, and a margin
of zero between equal levels."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from bench import duel
from bot.engine import new_game


def roles_of(variant: str, players: int | None = None) -> list[tuple[str, ...]]:
    return duel.match_seatings(duel.Match(variant, "basic", "random", players))


@pytest.mark.parametrize(
    ("variant", "players", "expected"),
    [
        ("pinochle-2", None, [("A", "B"), ("B", "A")]),
        ("pinochle-4", None, [("A", "B", "A", "B"), ("B", "A", "B", "A")]),
        ("pinochle-4-auction", None, [("A", "B", "A", "B"), ("B", "A", "B", "A")]),
        ("double-deck", None, [("A", "B", "A", "B"), ("B", "A", "B", "A")]),
        ("pitch-partnership", None, [("A", "B", "A", "B"), ("B", "A", "B", "A")]),
        ("pitch", 4, [("A", "B", "A", "B"), ("B", "A", "B", "A")]),
    ],
)
def test_swap_puts_each_level_in_the_others_seats(variant, players, expected):
    seatings = roles_of(variant, players)
    assert seatings == expected
    game = new_game(variant, players=players, seed=1)
    if len(game.sides) == 2:  # partners: A is one whole side, then the other
        for roles in seatings:
            assert {game.side_of[seat] for seat, role in enumerate(roles) if role == "A"} in ({0}, {1})


def test_three_hand_rotation_is_every_mixed_seating_each_seat_equally():
    seatings = roles_of("pinochle-3")
    assert len(set(seatings)) == 6
    assert all(len(set(roles)) == 2 for roles in seatings)  # never one level alone at the table
    for seat in range(3):
        assert Counter(roles[seat] for roles in seatings) == {"A": 3, "B": 3}


def test_unsupported_table_is_refused_clearly():
    with pytest.raises(ValueError, match="no duplicate scheme"):
        roles_of("pitch", 5)


@pytest.mark.parametrize("variant", ["pinochle-3", "pitch", "pinochle-4", "double-deck", "pinochle-2"])
def test_every_play_of_a_pair_gets_the_same_cards_at_the_same_seats(monkeypatch, variant):
    dealt: list[tuple[int, list[list[str]]]] = []
    seated: list[tuple[int, str]] = []
    real_new_game, real_make_player = duel.new_game, duel.make_player

    def recording_new_game(name: str, **kwargs: Any):
        game = real_new_game(name, **kwargs)
        if kwargs.get("seed") != 1:  # seed 1 is the seating probe
            dealt.append((game.seed, [sorted(map(str, game.view(s)["hand"])) for s in range(game.players)]))
        return game

    def recording_make_player(family: str, level: str, seed: int | None = None):
        seated.append((len(dealt), level))
        return real_make_player(family, level, seed)

    monkeypatch.setattr(duel, "new_game", recording_new_game)
    monkeypatch.setattr(duel, "make_player", recording_make_player)
    match = duel.Match(variant, "basic", "random", seed=5)
    seatings = duel.match_seatings(match)
    tally = duel.run_pairs(match, [0, 1])
    plays = len(seatings)
    assert len(dealt) == 2 * plays and tally.deals == 2 * plays
    for pair in range(2):
        plays_of_pair = dealt[pair * plays : (pair + 1) * plays]
        assert len({seed for seed, _ in plays_of_pair}) == 1
        assert all(hands == plays_of_pair[0][1] for _, hands in plays_of_pair)
    assert dealt[0][1] != dealt[plays][1]  # each pair has its own deal
    # The levels seated at each play follow the scheme, seat by seat.
    players = len(dealt[0][1])
    for index, roles in enumerate(seatings * 2):
        levels = [level for play, level in seated if play == index + 1]
        assert levels == [match.level(role) for role in roles]
        assert len(levels) == players


def test_equal_levels_have_a_margin_interval_around_zero():
    basic = duel.summarize(duel.run_pairs(duel.Match("pitch", "basic", "basic", 4, seed=3), range(200)))
    assert basic.margin_low <= 0 <= basic.margin_high  # today's basic is deterministic: all ties
    assert basic.alike == basic.ties == basic.pairs  # ... and each plays the deal the same way
    # random differs between the two plays of a pair, yet over a few hundred pairs the interval holds 0.
    figures = duel.summarize(duel.run_pairs(duel.Match("pitch", "random", "random", 4, seed=3), range(400)))
    assert figures.margin_low < 0 < figures.margin_high
    assert figures.won_low < 0.5 < figures.won_high
    assert figures.margin != 0.0


def test_the_better_level_wins_from_either_side_and_contracts_are_counted():
    forward = duel.summarize(
        tally := duel.run_pairs(duel.Match("pitch", "basic", "random", seed=2), range(60))
    )
    backward = duel.summarize(duel.run_pairs(duel.Match("pitch", "random", "basic", seed=2), range(60)))
    assert forward.margin_low > 0 and forward.won > 0.75
    assert backward.margin_high < 0 and backward.won < 0.25
    assert tally.taken["A"] + tally.taken["B"] == tally.deals == 120
    assert 0 < tally.made["A"] <= tally.taken["A"]
    assert tally.times["A"] and tally.times["B"]


def test_jobs_give_the_same_pairs_as_one_process():
    match = duel.Match("pinochle-2", "basic", "random", seed=4)
    alone = duel.run_match(match, 6, 1, progress=False)
    split = duel.run_match(match, 6, 2, progress=False)
    assert split.pairs == alone.pairs and split.deals == alone.deals
    assert split.taken == alone.taken and split.made == alone.made
    assert len(split.times["A"]) == len(alone.times["A"])


def test_wilson_interval():
    low, high = duel.wilson(0.5, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert duel.wilson(1.0, 20)[1] == 1.0


def test_a_missing_level_stops_before_playing(capsys):
    with pytest.raises(SystemExit) as stop:
        duel.main(["pitch", "--a", "no-such-level", "--pairs", "1"])
    assert stop.value.code == 2
    assert "level 'no-such-level' is not available for pitch" in capsys.readouterr().err
    missing = duel.missing_levels([("pinochle-4", "hard-but-absent", "basic")])
    assert len(missing) == 1
    assert missing[0].startswith(
        "level 'hard-but-absent' is not available for pinochle-4 (pinochle: random, "
    )


def test_main_prints_the_figures(capsys):
    assert duel.main(["pinochle-3", "--pairs", "2", "--seed", "9"]) == 0
    out = capsys.readouterr().out
    assert "each deal played 6 times" in out and "chips" in out
    assert "pairs won by A (basic)" in out and "decision time B (random)" in out


def test_a_suite_prints_each_match_beside_its_goal(monkeypatch, capsys):
    goals = [duel.Goal("pitch", "basic", "random", 0.70, 4), duel.Goal("pinochle-2", "random", "basic", None)]
    monkeypatch.setitem(duel.SUITES, "trial", goals)
    assert duel.run_suite("trial", 30, 1, 1) == 0
    summary = capsys.readouterr().out.split("suite trial, 30 pairs each, seed 1:")[1].splitlines()[1:]
    assert "basic vs random" in summary[0] and "goal >= 70%: met" in summary[0]
    assert "random vs basic" in summary[1] and "goal > 50%: NOT met" in summary[1]


def test_a_suite_with_a_missing_level_plays_nothing(monkeypatch, capsys):
    monkeypatch.setitem(duel.SUITES, "trial", [duel.Goal("pitch", "no-such-level", "basic", 0.7)])
    monkeypatch.setattr(duel, "run_match", lambda *args, **kwargs: pytest.fail("played"))
    assert duel.run_suite("trial", 5, 1, 1) == 2
    assert "level 'no-such-level' is not available for pitch" in capsys.readouterr().err


def write_lines(path, entries):
    path.write_text("".join(json.dumps(entry) + "\n" for entry in entries), encoding="utf-8")


def test_record_writes_every_pair_with_its_plays(tmp_path, capsys):
    record = tmp_path / "run.jsonl"
    argv = ["pitch-partnership", "--a", "basic", "--b", "random", "--pairs", "3", "--record", str(record)]
    assert duel.main(argv) == 0
    lines = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    assert [line["pair"] for line in lines] == [0, 1, 2]
    for line in lines:
        assert [play["roles"] for play in line["plays"]] == ["ABAB", "BABA"]
        # The pair's margin is A's side minus B's side, per deal, from the plays recorded.
        totals = {"A": 0, "B": 0}
        for play in line["plays"]:
            for change, role in zip(play["changes"], play["roles"], strict=True):
                totals[role] += change
        a_total, b_total = totals["A"], totals["B"]
        assert line["margin"] == (a_total - b_total) / 4
        assert line["share"] == (1.0 if a_total > b_total else 0.5 if a_total == b_total else 0.0)
        for play in line["plays"]:
            assert play["bidder"] in range(4) and play["made"] in (True, False)
    assert "pairs won by A" in capsys.readouterr().out


def test_compare_counts_the_pairs_whose_result_changed(tmp_path, capsys):
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    write_lines(
        first,
        [
            {"pair": 0, "share": 1.0, "margin": 10},
            {"pair": 1, "share": 0.0, "margin": -4},
            {"pair": 2, "share": 0.5, "margin": 0},
        ],
    )
    write_lines(
        second,
        [
            {"pair": 0, "share": 1.0, "margin": 10},
            {"pair": 1, "share": 1.0, "margin": 2},
            {"pair": 2, "share": 0.0, "margin": -3},
            {"pair": 7, "share": 1.0, "margin": 50},
        ],
    )
    assert duel.main(["--compare", str(first), str(second)]) == 0
    out = capsys.readouterr().out
    assert "3 pairs in both records" in out  # pair 7 is in one record only
    assert "first:  A won 50.0% of pairs, +2.0 a deal" in out
    assert "second: A won 66.7% of pairs, +3.0 a deal" in out
    assert "pairs whose result changed: 2 (second better in 1, worse in 1)" in out
    assert "margin, second minus first: +1.00 a deal" in out


def test_compare_refuses_a_file_that_is_not_a_record(tmp_path, capsys):
    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    write_lines(good, [{"pair": 0, "share": 1.0, "margin": 10}])
    bad.write_text('{"pair": 0, "share": 1.0}\n', encoding="utf-8")
    with pytest.raises(SystemExit) as stopped:
        duel.main(["--compare", str(good), str(bad)])
    assert stopped.value.code == 2
    assert "bad.jsonl:1: not a --record line" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        duel.main(["--compare", str(good), str(tmp_path / "missing.jsonl")])
    assert "missing.jsonl" in capsys.readouterr().err


def test_record_to_a_path_it_cannot_write_stops_before_playing(tmp_path, capsys, monkeypatch):
    played = []
    monkeypatch.setattr(duel, "run_match", lambda *args, **kwargs: played.append(args))
    with pytest.raises(SystemExit) as stopped:
        duel.main(["pinochle-4", "--pairs", "2", "--record", str(tmp_path / "no-such-folder" / "run.jsonl")])
    assert stopped.value.code == 2
    assert "--record:" in capsys.readouterr().err
    assert not played


def test_ties_are_reported_with_what_a_goal_asks_of_the_pairs_not_tied() -> None:
    # 100 pairs: 40 won, 40 tied (counted half), 20 lost: 60%. A goal of 75% then needs 55 wins out
    # of the 60 pairs not tied (55 + 40 / 2 = 75): 91.7% of them.
    shares = [1.0] * 40 + [0.5] * 40 + [0.0] * 20
    tally = duel.Tally(pairs={n: (share, share - 0.5) for n, share in enumerate(shares)})
    figures = duel.summarize(tally)
    assert (figures.won, figures.ties, figures.wins) == (0.6, 40, 40)
    assert duel.untied(figures) == "A won 40 of the 60 pairs not tied (66.7%)"
    goal = duel.Goal("pinochle-3", "hard", "basic", 0.75)
    assert duel.verdict(goal, figures) == (
        "goal >= 75%: NOT met (with 40 tied pairs it needs 91.7% of the pairs not tied)"
    )
    assert "40 tied pairs counted half)" in duel.report(
        duel.Match("pitch", "hard", "basic", seed=1), tally, jobs=1
    )  # no plays recorded: nothing said of them
    hopeless = duel.summarize(duel.Tally(pairs={n: (0.5, 0.0) if n < 60 else (1.0, 1.0) for n in range(100)}))
    assert duel.verdict(goal, hopeless) == (
        "goal >= 75%: NOT met (with 60 tied pairs it needs more than every pair not tied)"
    )


def test_tied_pairs_that_scored_alike_at_every_seat_are_counted_apart() -> None:
    # Pair 0 tied with the same score at every seat in both plays; pair 1 tied by gains that cancel
    # (as A, seat 0 took a point less as pitcher and seat 2 a point more); pair 2 won.
    plays = {
        0: [{"changes": [2, 0, 1, 1]}, {"changes": [2, 0, 1, 1]}],
        1: [{"changes": [3, 0, 1, 0]}, {"changes": [4, 0, 0, 0]}],
        2: [{"changes": [2, 0, 1, 1]}, {"changes": [1, 0, 1, 1]}],
    }
    tally = duel.Tally(pairs={0: (0.5, 0.0), 1: (0.5, 0.0), 2: (1.0, 0.5)}, plays=plays)
    figures = duel.summarize(tally)
    assert (figures.ties, figures.alike) == (2, 1)
    said = "2 tied pairs counted half, 1 of them scored alike at every seat in every play"
    assert duel.tied(figures) == said
    assert duel.tied(figures) in duel.report(duel.Match("pitch", "hard", "basic", seed=1), tally, jobs=1)


def test_a_run_stopped_early_keeps_the_pairs_it_finished(tmp_path, monkeypatch):
    record = tmp_path / "run.jsonl"
    played = duel.run_pairs

    def stopped_at_pair_4(match: duel.Match, pairs: Any) -> duel.Tally:
        if 4 in pairs:
            raise KeyboardInterrupt
        return played(match, pairs)

    monkeypatch.setattr(duel, "run_pairs", stopped_at_pair_4)
    with pytest.raises(KeyboardInterrupt):
        duel.run_match(duel.Match("pitch", "basic", "random", seed=3), 8, 1, progress=False, record=record)
    kept = duel.read_record(record)
    assert sorted(kept) == [0, 1, 2, 3]
    monkeypatch.setattr(duel, "run_pairs", played)
    assert kept == duel.run_match(duel.Match("pitch", "basic", "random", seed=3), 4, 1, progress=False).pairs
