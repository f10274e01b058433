"""Two-hand melding: one combination at a time onto the table. ``Combination``, ``combinations``
and ``plan_meld`` implement its limits (one combination, at least one new card from the hand, a card
already melded is reused only in another class or in a higher-scoring meld of the same class)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from bot.engine.cards import Card, Rank, Suit
from bot.engine.meld.model import (
    DIAMOND_JACK,
    SPADE_QUEEN,
    SUITS,
    MeldKind,
    MeldTable,
    around_cards,
    flush_cards,
    pair_cards,
)


@dataclass(frozen=True, slots=True)
class Combination:
    """One meld a player may lay in one turn (two-hand pinochle)."""

    key: str
    name: str
    klass: str
    cards: tuple[Card, ...]
    points: int
    suit: Suit | None = None
    need: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        counts: dict[int, int] = {}
        for card in self.cards:
            counts[card.id] = counts.get(card.id, 0) + 1
        object.__setattr__(self, "need", tuple(counts.items()))

    @property
    def is_dix(self) -> bool:
        return self.key == "dix"

    def possible(self, available: Sequence[int]) -> bool:
        """Whether enough copies of each card are available (counts by ``Card.id``)."""
        return all(available[card_id] >= n for card_id, n in self.need)


@cache
def combinations(table: MeldTable, trump: Suit) -> tuple[Combination, ...]:
    """Every single combination of ``table`` with ``trump`` (tiers with one exact meld each)."""
    out: list[Combination] = []

    def add(kind: MeldKind, unit: tuple[Card, ...], suit: Suit | None) -> None:
        for copies in sorted(kind.tiers):
            out.append(
                Combination(kind.key, kind.name(copies), kind.klass, unit * copies, kind.points(copies), suit)
            )

    add(table.flush, flush_cards(trump), trump)
    add(table.royal_marriage, pair_cards(trump), trump)
    for suit in SUITS:
        if suit is not trump:
            add(table.marriage, pair_cards(suit), suit)
    for rank, kind in table.arounds:
        add(kind, around_cards(rank), None)
    add(table.pinochle, (SPADE_QUEEN, DIAMOND_JACK), None)
    if table.dix is not None:
        dix = table.dix
        unit = (Card(trump, table.dix_rank),)
        out.append(Combination(dix.key, dix.name(1), dix.klass, unit, dix.points(1), trump))
    return tuple(out)


_ORDER = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
_CANONICAL_KEY = {Card(suit, rank): suit.index * 16 + i for suit in Suit for i, rank in enumerate(_ORDER)}


def canonical_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in one fixed order, by suit (♠ ♥ ♦ ♣) then rank A 10 K Q J 9 (8 7), so ``meld QS JD``
    and ``meld JD QS`` are the same action."""
    return tuple(sorted(cards, key=lambda card: _CANONICAL_KEY.get(card, 99 + card.id)))


@cache
def _by_cards(table: MeldTable, trump: Suit) -> dict[tuple[Card, ...], Combination]:
    return {canonical_cards(combo.cards): combo for combo in combinations(table, trump)}


def identify(cards: Iterable[Card], trump: Suit, table: MeldTable) -> Combination | None:
    """The single combination made by exactly ``cards``, or None."""
    return _by_cards(table, trump).get(canonical_cards(cards))


LaidCard = tuple[Card, tuple[int, ...]]
"""A card melded onto the table: the card and, per class (``MeldTable.class_slots`` order), the
points of the meld of that class it is part of (0: not yet used in that class)."""


def plan_meld(
    combo: Combination, hand: Sequence[Card], laid: Sequence[LaidCard], slot: int
) -> tuple[list[Card], list[int]] | str:
    """Where the cards of ``combo`` come from: (cards from the hand, indices into ``laid``).

    ``slot`` is the class slot of ``combo`` (``MeldTable.class_slots``). Table cards are reused
    when the rules allow it (another class, or a higher-scoring meld of the same class), the
    most-used first; at least one card must come from the hand. Returns a player-facing reason
    when the combination cannot be laid.
    """
    need: dict[Card, int] = {}
    for card in combo.cards:
        need[card] = need.get(card, 0) + 1
    from_hand: list[Card] = []
    from_table: list[int] = []
    spare_hand: list[Card] = []  # cards that could come from the hand instead of the table
    missing: list[Card] = []
    blocked: list[Card] = []
    for card, n in need.items():
        on_table = [i for i, (c, _) in enumerate(laid) if c is card]
        eligible = [i for i in on_table if laid[i][1][slot] < combo.points]
        eligible.sort(key=lambda i: -sum(1 for v in laid[i][1] if v))
        in_hand = sum(1 for c in hand if c is card)
        take = min(n, len(eligible))
        if take + in_hand < n:
            (blocked if len(on_table) + in_hand >= n else missing).append(card)
            continue
        from_table.extend(eligible[:take])
        from_hand.extend([card] * (n - take))
        if in_hand > n - take:
            spare_hand.append(card)
    if missing:
        names = " ".join(card.pretty for card in missing)
        return f"You do not hold {names} for the {combo.name}."
    if blocked:
        names = " ".join(card.pretty for card in blocked)
        return (
            f"{names} on the table is already part of a class {combo.klass} meld worth as much: a "
            f"melded card is used again only in another class or a higher-scoring meld of the same class."
        )
    if not from_hand:
        if not spare_hand:
            return (
                f"Each meld must put at least one new card from your hand on the table: the "
                f"{combo.name} would use only cards already melded."
            )
        card = spare_hand[0]
        for position, index in enumerate(from_table):
            if laid[index][0] is card:
                del from_table[position]
                break
        from_hand.append(card)
    return from_hand, from_table
