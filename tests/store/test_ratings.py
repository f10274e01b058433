"""The rating update as a pure function: who moves, which way, and what stays put."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from bot.store.ratings import (
    computer_player,
    computer_player_name,
    default_rating,
    ordinal,
    rate,
    rated_players,
)
from bot.store.records import SeatResult

MU, SIGMA = default_rating()
TAU = PlackettLuce().tau  # the model widens sigma by this before each update, so skill can drift


@st.composite
def games(draw: st.DrawFn) -> tuple[dict[int, tuple[float, float]], list[SeatResult]]:
    """A finished game: 2-8 seats on 2-4 sides, some computers, places by side, random prior ratings."""
    seats = draw(st.integers(2, 8))
    sides = draw(st.integers(2, min(4, seats)))
    side_of = [seat % sides for seat in range(seats)]
    place_of = draw(st.lists(st.integers(1, sides), min_size=sides, max_size=sides))
    humans = draw(st.lists(st.booleans(), min_size=seats, max_size=seats))
    results = [
        SeatResult(seat, 100 + seat if humans[seat] else None, side_of[seat], 0, place_of[side_of[seat]])
        for seat in range(seats)
    ]
    prior = st.tuples(st.floats(0.0, 50.0), st.floats(0.5, SIGMA))
    before = {r.user_id: draw(prior) for r in results if r.user_id is not None}
    return before, results


@settings(max_examples=150, deadline=None)
@given(games())
def test_rate_moves_only_humans_and_only_when_rated(game) -> None:
    before, results = game
    assert rate(before, results, rated=False) == before
    after = rate(before, results, rated=True)
    assert after.keys() == before.keys()  # computers never get a rating
    assert rate(before, results, rated=True) == after  # deterministic
    for user, (mu, sigma) in after.items():
        assert sigma <= math.hypot(before[user][1], TAU) + 1e-9  # a game adds certainty
        assert mu == mu and sigma > 0  # no NaN


@settings(max_examples=150, deadline=None)
@given(games())
def test_partners_with_equal_ratings_move_together(game) -> None:
    before, results = game
    equal = dict.fromkeys(before, (MU, SIGMA))
    after = rate(equal, results, rated=True)
    for side in {r.side for r in results}:
        ratings = {after[r.user_id] for r in results if r.side == side and r.user_id is not None}
        assert len(ratings) <= 1


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 4), st.integers(0, 3))
def test_the_winner_gains_and_the_last_loses(sides: int, winner_index: int) -> None:
    winner = winner_index % sides
    places = [1 if side == winner else 2 for side in range(sides)]
    results = [SeatResult(side, 100 + side, side, 0, places[side]) for side in range(sides)]
    before = {r.user_id: (MU, SIGMA) for r in results if r.user_id is not None}
    after = rate(before, results, rated=True)
    assert after[100 + winner][0] > MU
    assert all(after[100 + side][0] < MU for side in range(sides) if side != winner)


def test_fewer_than_two_sides_or_no_humans_change_nothing() -> None:
    alone = [SeatResult(0, 1, 0, 10, 1), SeatResult(1, 2, 0, 10, 1)]
    assert rate({1: (30.0, 5.0), 2: (20.0, 4.0)}, alone, rated=True) == {1: (30.0, 5.0), 2: (20.0, 4.0)}
    computers = [SeatResult(0, None, 0, 10, 1), SeatResult(1, None, 1, 5, 2)]
    assert rate({}, computers, rated=True) == {}


def test_a_new_player_starts_at_ordinal_zero() -> None:
    assert ordinal(default_rating()) == pytest.approx(0.0)


# ----- computer levels rated as one player each ------------------------------------------------------
def test_rated_players_are_people_and_in_rated_games_each_computer_level_once() -> None:
    results = [
        SeatResult(0, 7, 0, 0, 1),
        SeatResult(1, None, 1, 0, 2, level="hard"),
        SeatResult(2, 8, 0, 0, 1),
        SeatResult(3, None, 1, 0, 2, level="hard"),
        SeatResult(4, None, 2, 0, 3, level="basic"),
        SeatResult(5, None, 3, 0, 4),  # a computer of no known level: never rated
    ]
    hard, easy = computer_player("hard"), computer_player("basic")
    assert rated_players(results, rated=True) == [7, 8, hard, easy]
    assert rated_players(results, rated=False) == [7, 8]
    computers_only = [r for r in results if r.user_id is None]
    assert rated_players(computers_only, rated=True) == []
    assert computer_player_name(hard) == "Computer (hard)" and computer_player_name(easy) == "Computer (easy)"
    assert computer_player_name(7) is None and computer_player(None) is None


def test_a_computer_level_moves_like_a_player_and_partners_of_one_level_count_once() -> None:
    hard = computer_player("hard")
    assert hard is not None
    results = [
        SeatResult(0, 1, 0, 0, 2),
        SeatResult(1, None, 1, 0, 1, level="hard"),
        SeatResult(2, 2, 0, 0, 2),
        SeatResult(3, None, 1, 0, 1, level="hard"),
    ]
    before = {1: (MU, SIGMA), 2: (MU, SIGMA), hard: (MU, SIGMA)}
    after = rate(before, results, rated=True)
    assert after[hard][0] > MU > after[1][0] and after[hard][1] < SIGMA
    # Both "hard" seats are one team, so each seat got the same update, and the mean is that.
    model = PlackettLuce()
    teams = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
    (_, (seat1, seat3)) = model.rate(teams, ranks=[2.0, 1.0])
    assert after[hard] == pytest.approx((seat1.mu, seat1.sigma)) and seat1.mu == seat3.mu
    assert rate(before, results, rated=False) == before


def test_a_level_seated_on_winning_and_losing_sides_gets_the_mean_of_its_seats() -> None:
    hard = computer_player("hard")
    assert hard is not None
    results = [
        SeatResult(0, 1, 0, 0, 2),
        SeatResult(1, None, 1, 0, 1, level="hard"),
        SeatResult(2, None, 2, 0, 3, level="hard"),
    ]
    before = {1: (MU, SIGMA), hard: (MU, SIGMA)}
    after = rate(before, results, rated=True)
    model = PlackettLuce()
    per_seat = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[2.0, 1.0, 3.0])
    assert after[hard][0] == pytest.approx((per_seat[1][0].mu + per_seat[2][0].mu) / 2)
    assert after[hard][1] == pytest.approx((per_seat[1][0].sigma + per_seat[2][0].sigma) / 2)
    assert after[1][0] == pytest.approx(per_seat[0][0].mu)


def test_a_computer_seat_not_in_before_plays_at_the_default_rating_and_does_not_move() -> None:
    results = [SeatResult(0, 1, 0, 0, 1), SeatResult(1, None, 1, 0, 2, level="hard")]
    after = rate({1: (MU, SIGMA)}, results, rated=True)
    assert after.keys() == {1}
