"""Duplicate scoring: two tables with the event's seed get the same deals seat for seat however
differently they play, and match points rank them."""

from __future__ import annotations

import random

import pytest

from bot.ai import decide, make_player
from bot.duplicate import Standing, boards_of, differing_deals, match_points
from bot.engine import new_game
from bot.history import replay


def play_deals(variant: str, seed: int, level: str, deals: int, players: int | None = None) -> dict:
    """A table playing the event's game until ``deals`` deals are over: ``basic`` computers, or
    ``wild`` random legal play (never a claim: a false declare-out would end the game at once)."""
    game = new_game(variant, players=players, seed=seed)
    bots = [make_player(game.family, "basic", 100 + seat) for seat in range(game.players)]
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act[0]
        if level == "wild":
            legal = [
                a for a in game.legal_actions(seat) if str(a).split()[0] not in ("declare-out", "concede")
            ]
            action = rng.choice(legal) if legal else decide(bots[seat], game, seat)
        else:
            action = decide(bots[seat], game, seat)
        game.apply(seat, action)
        finished = replay(game.to_json()).deals
        if sum(1 for deal in finished if deal.number <= deals) >= deals or (
            finished and finished[-1].number >= deals
        ):
            break
    return game.to_json()


@pytest.mark.parametrize(
    ("variant", "players"), [("pinochle-4", None), ("pitch-partnership", None), ("pitch", 3)]
)
def test_two_tables_over_two_deals_get_the_same_deals_and_the_expected_ranking(
    variant: str, players: int | None
) -> None:
    seed = 20261123
    first = replay(play_deals(variant, seed, "basic", 2, players))
    second = replay(play_deals(variant, seed, "wild", 2, players))
    tables = {1: boards_of(first, 2), 2: boards_of(second, 2)}
    assert sorted(tables[1]) == sorted(tables[2]) == [1, 2]
    assert differing_deals(tables) == []  # the same hands, seat for seat, at both tables
    assert [d.bids for d in first.deals[:2]] != [d.bids for d in second.deals[:2]] or [
        d.tricks for d in first.deals[:2]
    ] != [d.tricks for d in second.deals[:2]]  # and they really played them differently
    sides = len(first.sides)
    changes = {table: {n: board.changes for n, board in boards.items()} for table, boards in tables.items()}
    standings = match_points(changes, sides)
    # Expected by hand: per deal and side, 2 to the table that scored more, 1 each for a tie.
    expected = {(t, s): 0 for t in (1, 2) for s in range(sides)}
    for n in (1, 2):
        for s in range(sides):
            a, b = changes[1][n][s], changes[2][n][s]
            expected[1, s] += 2 if a > b else 1 if a == b else 0
            expected[2, s] += 2 if b > a else 1 if a == b else 0
    assert {(st.table, st.side): st.match_points for st in standings} == expected
    assert all(st.top == 4 and st.boards == 2 for st in standings)
    percents = [st.percent for st in standings]
    assert percents == sorted(percents, reverse=True)


def test_a_different_seed_is_caught() -> None:
    first = boards_of(replay(play_deals("pinochle-4", 1, "basic", 1)), 1)
    other = boards_of(replay(play_deals("pinochle-4", 2, "basic", 1)), 1)
    assert differing_deals({1: first, 2: other}) == [1]


def test_match_points_three_tables_with_ties() -> None:
    # Deal 1, side 0: 30, 30, 10 -> 3, 3, 0; side 1: -5, 0, 20 -> 0, 2, 4.
    # Deal 2, side 0: 0, 10, 20 -> 0, 2, 4; side 1: 7, 7, 7 -> 2, 2, 2. Table 3 missed nothing.
    tables = {
        1: {1: (30, -5), 2: (0, 7)},
        2: {1: (30, 0), 2: (10, 7)},
        3: {1: (10, 20), 2: (20, 7)},
    }
    standings = match_points(tables, 2)
    got = [(st.rank, st.table, st.side, st.match_points, st.top, st.percent) for st in standings]
    assert got == [
        (1, 3, 1, 6, 8, 75.0),
        (2, 2, 0, 5, 8, 62.5),
        (3, 2, 1, 4, 8, 50.0),
        (3, 3, 0, 4, 8, 50.0),
        (5, 1, 0, 3, 8, 37.5),
        (6, 1, 1, 2, 8, 25.0),
    ]


def test_a_deal_counts_only_between_the_tables_that_finished_it() -> None:
    standings = match_points({1: {1: (5,), 2: (9,)}, 2: {1: (3,)}}, 1)
    assert standings == [Standing(1, 1, 0, 2, 2, 2), Standing(2, 2, 0, 0, 2, 1)]
