"""Properties of whole Pitch games: they end, cards are conserved, points add up, views stay private."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai import decide, make_player
from bot.engine import ALL_CARDS, Card, new_game
from bot.engine.pitch import PitchBase
from tests.engine.helpers import pitch_card_places, strings_in

MAX_DEALS = 400


@st.composite
def pitch_setups(draw: st.DrawFn) -> tuple[str, int, dict[str, Any], int, list[str]]:
    variant = draw(st.sampled_from(["pitch", "pitch-partnership"]))
    players = 4 if variant == "pitch-partnership" else draw(st.integers(2, 7))
    options: dict[str, Any] = {
        "target": draw(st.sampled_from([7, 9, 11, 21])),
        "old-high-low": draw(st.booleans()),
    }
    if variant == "pitch":
        options["dealer-steal"] = draw(st.booleans())
        options["smudge"] = draw(st.booleans())
    seed = draw(st.integers(0, 2**32))
    # At least half the seats are rule-based players, so the game makes progress.
    levels = [draw(st.sampled_from(["basic", "random"])) if seat % 2 else "basic" for seat in range(players)]
    return variant, players, options, seed, levels


def check_cards(game: PitchBase) -> None:
    places = pitch_card_places(game)
    assert all(count == 1 for count in places.values()), "a card is in two places"
    dealt = Counter(card for hand in game.dealt for card in hand)
    assert places == dealt, "dealt cards are not exactly the cards in hands, trick and piles"
    assert len(dealt) == 6 * game.players
    assert len(set(ALL_CARDS) - set(dealt)) == 52 - 6 * game.players


def check_deal_points(game: PitchBase, event: dict[str, Any]) -> None:
    trump = event["trump"]
    jack_dealt = any(c.code == f"J{trump}" for hand in game_dealt_of_last_deal(game) for c in hand)
    values = event["game_values"]
    game_untied = values.count(max(values)) == 1
    available = 2 + int(jack_dealt) + int(game_untied)
    assert sum(event["points"]) == available == len(event["awards"])
    pitching = game.side_of[event["pitcher"]]
    for side, change in enumerate(event["changes"]):
        if side != pitching:
            assert change == event["points"][side]


_LAST_DEALT: dict[int, list[list[Card]]] = {}


def game_dealt_of_last_deal(game: PitchBase) -> list[list[Card]]:
    return _LAST_DEALT[id(game)]


@settings(max_examples=40, deadline=None)
@given(pitch_setups())
def test_computer_games_end_conserve_cards_and_award_exactly_the_points(
    setup: tuple[str, int, dict[str, Any], int, list[str]],
) -> None:
    variant, players, options, seed, levels = setup
    game = new_game(variant, players=players, options=options, seed=seed)
    assert isinstance(game, PitchBase)
    bots = [make_player("pitch", level, seed + s) for s, level in enumerate(levels)]
    while not game.is_over:
        assert game.deal_no <= MAX_DEALS, "the game does not end"
        check_cards(game)
        _LAST_DEALT[id(game)] = [hand[:] for hand in game.dealt]
        seat = game.to_act[0]
        for event in game.apply(seat, decide(bots[seat], game, seat)):
            if event["type"] == "deal_scored":
                check_deal_points(game, event)
    assert game.outcome is not None
    assert game.to_act == ()
    _LAST_DEALT.pop(id(game), None)


def hidden_codes(game: PitchBase, seat: int) -> set[str]:
    return {card.code for other, hand in enumerate(game.hands) if other != seat for card in hand}


def test_every_view_at_every_step_shows_no_other_seats_cards() -> None:
    for variant, players, seed in [
        ("pitch", 2, 1),
        ("pitch", 4, 2),
        ("pitch", 7, 3),
        ("pitch-partnership", 4, 4),
    ]:
        game = new_game(variant, players=players, seed=seed)
        assert isinstance(game, PitchBase)
        bots = [make_player("pitch", "basic", seed + s) for s in range(players)]
        steps = 0
        while not game.is_over:
            for seat in range(players):
                view = game.view(seat)
                assert not strings_in(view) & hidden_codes(game, seat), (variant, seat)
                assert view["hand"] == [card.code for card in game.hands[seat]]
            assert not strings_in(game.public_view()) & hidden_codes(game, -1)
            seat = game.to_act[0]
            game.apply(seat, decide(bots[seat], game, seat))
            steps += 1
        assert steps > 20
