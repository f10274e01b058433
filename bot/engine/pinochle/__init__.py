"""Pinochle: two-hand, three-hand auction, four-hand partnership and partnership auction, the
6- and 8-player games with 96 cards, and double-deck partnership pinochle (80 cards, family
"double-deck"). Importing this package registers every variant.

Spec: ``docs/rules/pinochle.md`` and ``docs/rules/double-deck-pinochle.md``; the meld counter
is ``bot.engine.meld``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.cards import Card, Suit, parse_cards
from bot.engine.errors import BadCard, EngineError
from bot.engine.game import find_variant, variant_names
from bot.engine.meld import MeldResult, count_meld
from bot.engine.options import resolve_options
from bot.engine.pinochle import double_deck, partnership, three, two
from bot.engine.pinochle.common import PinochleGame, round_counters


def pinochle_variants() -> list[str]:
    """The registered pinochle variants."""
    return [name for name in variant_names() if issubclass(find_variant(name), PinochleGame)]


def meld_hand(
    variant: str,
    trump: str,
    cards: str | list[str],
    options: Mapping[str, Any] | None = None,
) -> MeldResult:
    """The meld of ``cards`` with ``trump`` under ``variant``'s meld table (the ``meld`` command).

    Raises ``EngineError`` (``BadCard`` for a card that is not in the variant's pack, or one given
    more often than the pack holds it) with a message a player understands.
    """
    cls = find_variant(variant)
    if not issubclass(cls, PinochleGame):
        raise EngineError(f"{cls.name} has no meld: choose one of {', '.join(pinochle_variants())}")
    resolved = resolve_options(cls.option_specs, options, cls.name)
    suit = Suit.parse(trump)
    hand = parse_cards(cards)
    if not hand:
        raise BadCard("give the cards of the hand, e.g. AH 10H KH QH JH QS JD")
    ranks, copies = cls.pack_for(resolved)
    seen: dict[Card, int] = {}
    for card in hand:
        if card.rank not in ranks:
            allowed = " ".join(rank.value for rank in ranks)
            raise BadCard(f"{card.code} is not in the {cls.name} pack (ranks {allowed})")
        seen[card] = seen.get(card, 0) + 1
        if seen[card] > copies:
            raise BadCard(
                f"{card.code} appears {seen[card]} times: the {cls.name} pack has {copies} of each card"
            )
    return count_meld(hand, suit, cls.meld_table_for(resolved))


__all__ = [
    "PinochleGame",
    "double_deck",
    "meld_hand",
    "partnership",
    "pinochle_variants",
    "round_counters",
    "three",
    "two",
]
