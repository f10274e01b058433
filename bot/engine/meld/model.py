"""The meld data model: a meld kind with its tiers, a meld found in a hand, the result of counting
a hand, and the table of kinds one game scores (see ``bot.engine.meld``)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

from bot.engine.cards import Card, Rank, Suit
from bot.engine.events import MeldJSON, MeldResultJSON

FLUSH_RANKS: tuple[Rank, ...] = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK)
AROUND_RANKS: tuple[Rank, ...] = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)
SPADE_QUEEN = Card(Suit.SPADES, Rank.QUEEN)
DIAMOND_JACK = Card(Suit.DIAMONDS, Rank.JACK)
MAX_COPIES = 4
SUITS: tuple[Suit, ...] = tuple(Suit)


@dataclass(frozen=True)
class MeldKind:
    """One kind of meld and its tiers: copies held at once → (points, name)."""

    key: str
    klass: str
    tiers: Mapping[int, tuple[int, str]]
    parts: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    values: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # parts[k]: how k copies are scored (one tier exactly, else the best split into tiers).
        parts: list[tuple[int, ...]] = [()]
        values = [0]
        for k in range(1, MAX_COPIES + 1):
            if k in self.tiers:
                parts.append((k,))
                values.append(self.tiers[k][0])
                continue
            best: tuple[int, ...] = ()
            best_value = 0
            for first in self.tiers:
                if first < k and values[k - first] + self.tiers[first][0] > best_value:
                    best_value = values[k - first] + self.tiers[first][0]
                    best = tuple(sorted((first, *parts[k - first]), reverse=True))
            parts.append(best)
            values.append(best_value)
        object.__setattr__(self, "parts", tuple(parts))
        object.__setattr__(self, "values", tuple(values))

    def name(self, copies: int) -> str:
        return self.tiers[copies][1]

    def points(self, copies: int) -> int:
        return self.tiers[copies][0]


class Meld(NamedTuple):
    """One meld found in a hand: what it is, the cards it uses, and its points."""

    key: str
    name: str
    klass: str
    cards: tuple[Card, ...]
    points: int
    copies: int = 1
    suit: Suit | None = None

    def to_json(self) -> MeldJSON:
        return {
            "name": self.name,
            "kind": self.key,
            "class": self.klass,
            "suit": self.suit.value if self.suit else None,
            "cards": [card.code for card in self.cards],
            "points": self.points,
        }

    def text(self, *, pretty: bool = True) -> str:
        cards = " ".join(card.pretty if pretty else card.code for card in self.cards)
        return f"{self.name}: {cards} = {self.points}"


class MeldResult(NamedTuple):
    """Every meld in a hand and the total."""

    melds: tuple[Meld, ...]
    total: int

    def used_cards(self) -> list[Card]:
        """The physical cards the melds need (a card shared by melds of different classes once)."""
        per_class: dict[str, dict[Card, int]] = {}
        for meld in self.melds:
            counts = per_class.setdefault(meld.klass, {})
            for card in meld.cards:
                counts[card] = counts.get(card, 0) + 1
        need: dict[Card, int] = {}
        for counts in per_class.values():
            for card, n in counts.items():
                if n > need.get(card, 0):
                    need[card] = n
        return [card for card, n in need.items() for _ in range(n)]

    def to_json(self) -> MeldResultJSON:
        return {"total": self.total, "melds": [meld.to_json() for meld in self.melds]}


ExtraRule = Callable[[Sequence[int], Suit], list[Meld]]
"""A house-rule meld outside the tier model: (card counts by ``Card.id``, trump) → melds found."""


@dataclass(frozen=True, eq=False)
class MeldTable:
    """The meld kinds one game scores (see ``bot.engine.meld``)."""

    name: str
    flush: MeldKind
    royal_marriage: MeldKind
    marriage: MeldKind
    arounds: tuple[tuple[Rank, MeldKind], ...]
    pinochle: MeldKind
    dix: MeldKind | None
    dix_rank: Rank = Rank.NINE
    flush_contains_royal: bool = True
    copies: int = 2
    extras: tuple[ExtraRule, ...] = ()
    description: str = ""
    run_lends_royal: bool = False
    roundhouse: int = 0
    double_roundhouse: int = 0
    roundhouse_run_royal: bool = False
    around_values: tuple[tuple[int, tuple[int, ...]], ...] = field(init=False, repr=False)
    special: bool = field(init=False, repr=False)
    roundhouse_bonus: tuple[int, int] = field(init=False, repr=False)
    total_fixes_melds: bool = field(init=False, repr=False)
    """Whether a hand's total tells its melds among the hands holding a given one: adding cards to
    a hand that leave its total as it was leave ``count_meld``'s melds as they were too. True when
    the counter is the plain one (no extras, no trump-suit house rules) and every kind scores
    strictly more for each copy more: then the total is a sum of parts that each only grow, so an
    unchanged total keeps each part's copies, and the melds listed follow from those (a flush that
    becomes possible but scores no better is not taken: the counter keeps the first best)."""

    def __post_init__(self) -> None:
        # (rank index, points by copies) of each around, for ``meld_total``'s fast path.
        values = tuple((rank.index, kind.values) for rank, kind in self.arounds)
        object.__setattr__(self, "around_values", values)
        special = self.run_lends_royal or self.roundhouse_run_royal
        special = special or bool(self.roundhouse or self.double_roundhouse)
        object.__setattr__(self, "special", special)
        # What a roundhouse (level 1) and a double roundhouse (level 2) add to their parts: the
        # royal marriage, three marriages, kings around and queens around of that many copies.
        arounds = dict(self.arounds)

        def parts(level: int) -> int:
            value = self.royal_marriage.values[level] + 3 * self.marriage.values[level]
            for rank in (Rank.KING, Rank.QUEEN):
                kind = arounds.get(rank)
                value += kind.values[level] if kind is not None else 0
            return value

        single = max(0, self.roundhouse - parts(1)) if self.roundhouse else 0
        double = max(0, self.double_roundhouse - parts(2)) if self.double_roundhouse else 0
        object.__setattr__(self, "roundhouse_bonus", (single, double))
        growing = all(
            all(a < b for a, b in itertools.pairwise(kind.values[: self.copies + 1])) for kind in self.kinds()
        )
        object.__setattr__(self, "total_fixes_melds", growing and not self.extras and not special)

    @property
    def class_slots(self) -> dict[str, int]:
        """Each class's index in a ``LaidCard`` usage tuple."""
        return {klass: i for i, klass in enumerate(sorted({kind.klass for kind in self.kinds()}))}

    def kinds(self) -> list[MeldKind]:
        out = [self.flush, self.royal_marriage, self.marriage, *(kind for _, kind in self.arounds)]
        out.append(self.pinochle)
        if self.dix is not None:
            out.append(self.dix)
        return out


@cache
def flush_cards(suit: Suit) -> tuple[Card, ...]:
    return tuple(Card(suit, rank) for rank in FLUSH_RANKS)


@cache
def pair_cards(suit: Suit) -> tuple[Card, ...]:
    return (Card(suit, Rank.KING), Card(suit, Rank.QUEEN))


@cache
def around_cards(rank: Rank) -> tuple[Card, ...]:
    return tuple(Card(suit, rank) for suit in SUITS)
