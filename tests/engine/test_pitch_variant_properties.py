"""Properties of whole games of the pitch variants of issue 13 (off-jack, jokers, slam,
all-four-wins, pitch-joker, pitch-smudge, pitch-10): they end, cards are conserved, the points of
every deal add up (``docs/rules/pitch-variants.md`` §7), views stay private."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai import decide, make_player
from bot.engine import Card, new_game
from bot.engine.pitch import PitchBase, TenPointPitch
from tests.engine.helpers import strings_in

MAX_DEALS = 400


@st.composite
def setups(draw: st.DrawFn) -> tuple[str, int, dict[str, Any], int, list[str]]:
    variant = draw(st.sampled_from(["pitch", "pitch-joker", "pitch-smudge", "pitch-10"]))
    options: dict[str, Any] = {}
    if variant == "pitch-10":
        players = draw(st.sampled_from([4, 6]))
        options = {
            "target": draw(st.sampled_from([52, 31])),
            "three": draw(st.booleans()),
            "moon": draw(st.booleans()),
            "end": draw(st.sampled_from(["first", "bid-out"])),
            "old-high-low": draw(st.booleans()),
            "dealer-steal": draw(st.booleans()),
        }
    else:
        players = draw(st.integers(2, 7))
        if variant == "pitch":
            jokers = draw(st.sampled_from([0, 1, 2]))
            options = {"off-jack": draw(st.booleans()), "jokers": jokers}
            if jokers:
                options["joker-lead"] = draw(st.sampled_from(["spades", "name", "forbidden"]))
                options["joker-rank"] = draw(
                    st.sampled_from(["auto", "mid"] + (["low"] if jokers == 1 else []))
                )
            elif not options["off-jack"]:
                options["slam"] = draw(st.booleans())
        options["target"] = draw(st.sampled_from([7, 10, 11]))
        if not options.get("slam"):
            options["old-high-low"] = draw(st.booleans())
    seed = draw(st.integers(0, 2**32))
    levels = [draw(st.sampled_from(["basic", "random"])) if seat % 2 else "basic" for seat in range(players)]
    return variant, players, options, seed, levels


def all_cards(game: PitchBase) -> Counter[Card]:
    """Every card of the deal wherever it is: hands, trick, captured piles, widow, discards."""
    places: Counter[Card] = Counter()
    for hand in game.hands:
        places.update(hand)
    places.update(card for _, card in game.trick)
    for cards in game.taken:
        places.update(cards)
    places.update(game.undealt)
    for cards in getattr(game, "discards", []):
        places.update(cards)
    return places


def expected_points(game: PitchBase, dealt: list[list[Card]], event: dict[str, Any]) -> int:
    """What a deal must award: High always; Low unless only jokers are trumps in play; each point
    card in play; Game unless tied (pitch-10: every point card is in play)."""
    values = event["game_values"]
    game_point = int(values.count(max(values)) == 1)
    if isinstance(game, TenPointPitch):
        return game.points_a_deal - 1 + game_point
    trumps = game.trump_rules.order(Card.parse(f"2{event['trump']}").suit)
    in_play = {card for hand in dealt for card in hand}
    natural = [card for card in trumps.natural() if card in in_play]
    cards = [Card.parse(f"J{event['trump']}"), trumps.off_jack, *trumps.jokers]
    return 1 + int(bool(natural)) + sum(1 for card in cards if card in in_play) + game_point


@settings(max_examples=40, deadline=None)
@given(setups())
def test_games_end_conserve_cards_and_award_exactly_the_points(
    setup: tuple[str, int, dict[str, Any], int, list[str]],
) -> None:
    variant, players, options, seed, levels = setup
    game = new_game(variant, players=players, options=options, seed=seed)
    assert isinstance(game, PitchBase)
    pack = Counter(game.pack())
    bots = [make_player("pitch", level, seed + s) for s, level in enumerate(levels)]
    dealt = [hand[:] for hand in game.dealt]
    while not game.is_over:
        assert game.deal_no <= MAX_DEALS, "the game does not end"
        assert all_cards(game) == pack, "a card is lost or doubled"
        view = game.public_view()
        if view["phase"] == "play" and not game.tricks and not game.trick:
            assert [len(hand) for hand in game.hands] == [6] * players
        seat = game.to_act[0]
        for event in game.apply(seat, decide(bots[seat], game, seat)):
            if event["type"] == "deal_scored":
                assert (
                    sum(event["points"])
                    == expected_points(game, dealt, event)
                    == sum(3 if award["point"] == "three" else 1 for award in event["awards"])
                )
                pitching = game.side_of[event["pitcher"]]
                for side, change in enumerate(event["changes"]):
                    if side != pitching:
                        assert change == event["points"][side]
            if event["type"] in ("deal", "redeal"):
                dealt = [hand[:] for hand in game.dealt]
    assert game.outcome is not None and game.to_act == ()


def test_no_view_shows_another_seats_hand_the_widow_or_a_discard() -> None:
    for variant, players, seed in [("pitch-10", 4, 1), ("pitch-10", 6, 2), ("pitch-joker", 3, 3)]:
        game = new_game(variant, players=players, seed=seed)
        assert isinstance(game, PitchBase)
        bots = [make_player("pitch", "basic", seed + s) for s in range(players)]
        steps = 0
        while not game.is_over and steps < 400:
            for seat in range(players):
                hidden = {
                    card.code for other, hand in enumerate(game.hands) if other != seat for card in hand
                }
                hidden |= {card.code for card in game.undealt}
                for other, cards in enumerate(getattr(game, "discards", [])):
                    if other != seat:
                        hidden |= {card.code for card in cards}
                view = game.view(seat)  # the trump order and rules name cards, not where they are
                shown = strings_in({k: v for k, v in view.items() if k not in ("trumps", "trump_rules")})
                assert not shown & hidden, (variant, seat, shown & hidden)
            seat = game.to_act[0]
            game.apply(seat, decide(bots[seat], game, seat))
            steps += 1
        assert steps > 50
