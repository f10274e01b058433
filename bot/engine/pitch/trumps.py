"""Which cards are trumps in a pitch deal, and in what order, once the trump suit is known.

Plain pitch has the thirteen cards of the trump suit. Two house rules add trumps of other faces
(``docs/rules/pitch-variants.md`` §2): the **off-jack** (the jack of the other suit of trump's
colour) ranks just below the jack, and **jokers** rank below it (two jokers, or one joker ranked
"mid") or below the 2 (one joker ranked "low"). Those cards belong to the trump suit for every
rule: following, leading and winning.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from bot.engine.cards import Card, Rank, Suit

STRENGTH: dict[Rank, int] = {rank: rank.index for rank in Rank}  # A high ... 2 low

JOKER = Card.joker("JK")
HIGH_JOKER = Card.joker("HJ")
LOW_JOKER = Card.joker("LJ")

SAME_COLOUR = {
    Suit.SPADES: Suit.CLUBS,
    Suit.CLUBS: Suit.SPADES,
    Suit.HEARTS: Suit.DIAMONDS,
    Suit.DIAMONDS: Suit.HEARTS,
}
"""The other suit of each suit's colour (whose jack is the off-jack)."""

_NATURAL_HIGH_FIRST = sorted(Rank, key=lambda rank: -STRENGTH[rank])
_ABOVE_THE_OFF_JACK = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)


@dataclass(frozen=True)
class TrumpRules:
    """The house rules that add trumps: the off-jack, and no, one or two jokers (one joker ranks
    below the 2 when ``joker_low``, else between the jack or off-jack and the 10)."""

    off_jack: bool = False
    jokers: int = 0
    joker_low: bool = False

    @property
    def extra(self) -> bool:
        """Whether any card outside the trump suit can be a trump."""
        return self.off_jack or self.jokers > 0

    @property
    def joker_cards(self) -> tuple[Card, ...]:
        """The jokers in the pack, high first."""
        return {0: (), 1: (JOKER,), 2: (HIGH_JOKER, LOW_JOKER)}[self.jokers]

    def to_json(self) -> dict[str, Any]:
        """What the public view says about the extra trumps (computer players rebuild the order)."""
        return {
            "off_jack": self.off_jack,
            "jokers": [card.code for card in self.joker_cards],
            "joker_low": self.joker_low,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> TrumpRules:
        """The rules ``to_json`` described (None: plain pitch)."""
        if not data:
            return cls()
        return cls(bool(data["off_jack"]), len(data["jokers"]), bool(data["joker_low"]))

    def order(self, suit: Suit) -> Trumps:
        """The trumps of a deal whose trump suit is ``suit``."""
        return _order(self, suit)


@dataclass(frozen=True)
class Trumps:
    """A deal's trumps, high to low, and each one's power (a higher power wins the trick)."""

    suit: Suit
    order: tuple[Card, ...]
    power: dict[Card, int] = field(compare=False)
    off_jack: Card | None
    jokers: tuple[Card, ...]

    def suit_of(self, card: Card) -> Suit:
        """The card's effective suit: trump for every trump, else its printed suit."""
        return self.suit if card in self.power else card.suit

    def is_trump(self, card: Card) -> bool:
        return card in self.power

    def natural(self) -> list[Card]:
        """The trumps that can be Low: every trump but the jokers, high to low."""
        return [card for card in self.order if not card.is_joker]


@cache
def _order(rules: TrumpRules, suit: Suit) -> Trumps:
    top = [Card(suit, rank) for rank in _ABOVE_THE_OFF_JACK]
    rest = [Card(suit, rank) for rank in _NATURAL_HIGH_FIRST if rank not in _ABOVE_THE_OFF_JACK]
    off_jack = Card(SAME_COLOUR[suit], Rank.JACK) if rules.off_jack else None
    jokers = rules.joker_cards
    middle: list[Card] = [off_jack] if off_jack is not None else []
    low: list[Card] = []
    if rules.jokers and rules.joker_low:
        low = list(jokers)
    else:
        middle += jokers
    order = tuple(top + middle + rest + low)
    power = {card: len(order) - index for index, card in enumerate(order)}
    return Trumps(suit, order, power, off_jack, jokers)


def trick_winner(plays: Sequence[tuple[int, Card]], trumps: Trumps) -> int:
    """Index into ``plays`` of the winning play: the highest trump by ``trumps``' order, else the
    highest card of the led (effective) suit."""
    power = trumps.power
    best = 0
    best_card = plays[0][1]
    led = trumps.suit_of(best_card)
    for index in range(1, len(plays)):
        card = plays[index][1]
        if card in power:
            if best_card not in power or power[card] > power[best_card]:
                best, best_card = index, card
        elif best_card not in power and card.suit is led and STRENGTH[card.rank] > STRENGTH[best_card.rank]:
            best, best_card = index, card
    return best
