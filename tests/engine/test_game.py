"""``bot.engine.game``: what the base ``Game`` owns (the legal-action cache, the identity fast path,
the public methods) and ``Outcome`` with its places."""

from __future__ import annotations

import pytest

from bot.engine import Game, IllegalAction, Outcome, new_game, parse_action
from bot.engine.pinochle.common import PinochleGame


@pytest.mark.parametrize(
    ("winning", "scores", "places"),
    [
        ((0,), (1020, 800), (1, 2)),
        ((1,), (530, 520), (2, 1)),  # the winner first even with the lower score (bidding side)
        ((0, 1), (120, 120), (1, 1)),  # a shared win
        ((2,), (11, 7, 9, 7), (2, 3, 1, 3)),  # equal scores share a place; the next is skipped
        ((1, 2), (-102, 26, 26), (3, 1, 1)),
    ],
)
def test_places_put_winners_first_and_equal_scores_together(
    winning: tuple[int, ...], scores: tuple[int, ...], places: tuple[int, ...]
) -> None:
    outcome = Outcome(winning, (), scores, "why")
    assert outcome.places == places
    assert "places" not in outcome.to_json()  # the game_over event is unchanged


def test_a_finished_games_places_match_its_outcome() -> None:
    game = new_game("pinochle-2", seed=1, options={"match": "deal"})
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, game.legal_actions(seat)[-1])
    assert game.outcome is not None
    assert sorted(game.outcome.places)[0] == 1
    assert all(game.outcome.places[side] == 1 for side in game.outcome.winning_sides)


def test_legal_actions_are_kept_until_the_next_action_and_handed_out_as_copies() -> None:
    game = new_game("pitch", players=3, seed=7)
    seat = game.to_act[0]
    first = game.legal_actions(seat)
    first.clear()
    again = game.legal_actions(seat)
    assert again and all(a is b for a, b in zip(again, game.legal_actions(seat), strict=True))
    game.apply(seat, again[1])
    assert game.legal_actions(seat) == []  # not its turn any more


def test_text_and_equal_actions_take_the_checked_path_and_illegal_ones_change_nothing() -> None:
    game = new_game("pinochle-4-auction", seed=2)
    seat = game.to_act[0]
    before = game.to_json()
    with pytest.raises(IllegalAction):
        game.apply(seat, "bid 5000")
    with pytest.raises(IllegalAction, match="no seat 9"):
        game.apply(9, "pass")
    assert game.to_json() == before
    text = str(game.legal_actions(seat)[0])
    game.apply(seat, text)
    assert game.log[-1] == (seat, parse_action(text))


def test_a_variant_must_provide_every_hook() -> None:
    class Incomplete(PinochleGame):  # no deal_cards, after_trick, _legal_actions, _perform, views
        name = "incomplete"

    with pytest.raises(TypeError, match="abstract"):
        Incomplete(2)  # type: ignore[abstract]
    assert {"_legal_actions", "_perform", "play_card", "explain_illegal"} <= Game.__abstractmethods__


@pytest.mark.parametrize(
    ("variant", "partners"),
    [
        ("pinochle-4", {0: 2, 1: 3, 2: 0, 3: 1}),
        ("double-deck", {0: 2, 1: 3, 2: 0, 3: 1}),
        ("pinochle-6", {0: 2, 2: 4, 4: 0, 1: 3, 3: 5, 5: 1}),  # the next partner clockwise
        ("pinochle-8", {0: 4, 4: 0, 3: 7}),
    ],
)
def test_partner(variant: str, partners: dict[int, int]) -> None:
    game = new_game(variant, seed=1)
    assert isinstance(game, PinochleGame)
    assert {seat: game.partner(seat) for seat in partners} == partners


def test_every_view_starts_with_the_header() -> None:
    for variant in ("pitch", "pinochle-3", "double-deck"):
        game = new_game(variant, seed=1)
        header = game.header_view()
        assert list(header) == ["variant", "title", "family", "players", "sides"]
        assert list(game.public_view())[:5] == list(header)
