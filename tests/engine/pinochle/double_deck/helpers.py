"""Helpers for double-deck tests: rig a deal, find every card, drive a game by action text."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.engine import Card, make_deck, new_game, parse_cards
from bot.engine.pinochle.double_deck import RANKS_80, DoubleDeck
from tests.engine.pinochle.helpers import fill, stacked

FULL_PACK = make_deck(RANKS_80, 4)


def dd(variant: str = "double-deck", seed: int = 1, **options: Any) -> DoubleDeck:
    """A new double-deck game (options by name, '-' spelled '_': min_20=True)."""
    game = new_game(variant, seed=seed, options={k.replace("_", "-"): v for k, v in options.items()})
    assert isinstance(game, DoubleDeck)
    return game


def rig(game: DoubleDeck, hands: dict[int, str], *, dealer: int = 3) -> DoubleDeck:
    """``game`` dealt again: seat → cards (20 each; seats left out get the rest of the pack)."""
    parts: list[tuple[str | list[Card] | None, int]] = []
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        parts.append((hands.get(seat), 20))
    game = stacked(game, fill(game, parts), dealer)
    for seat, text in hands.items():
        assert Counter(game.hands[seat]) == Counter(parse_cards(text))
    return game


def card_places(game: DoubleDeck) -> Counter[Card]:
    """Every card of the deal: hands, cards chosen for a pass, the trick, the tricks taken."""
    places: Counter[Card] = Counter()
    for hand in game.hands:
        places.update(hand)
    for giving in game.giving:
        places.update(giving)
    places.update(card for _, card in game.trick)
    for trick, _ in game.tricks:
        places.update(card for _, card in trick)
    return places


def check_cards(game: DoubleDeck) -> None:
    assert card_places(game) == Counter(FULL_PACK), "cards are not conserved"


def act(game: DoubleDeck, *actions: tuple[int, str]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for seat, text in actions:
        events.extend(game.apply(seat, text))
    return events


def bid_out(game: DoubleDeck, winner: int, amount: int) -> list[dict[str, Any]]:
    """Everyone but ``winner`` passes; ``winner`` bids ``amount`` on its first turn."""
    events: list[dict[str, Any]] = []
    deal = game.deal_no
    while game.phase == "bidding" and game.deal_no == deal:
        seat = game.to_act[0]
        events += game.apply(seat, f"bid {amount}" if seat == winner else "pass")
    return events
