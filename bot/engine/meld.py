"""Pinochle meld: ONE counter shared by every pinochle variant, with the meld tables as data.

A ``MeldTable`` lists the meld kinds a game scores (flush, royal marriage, marriage, dix, the four
"arounds", pinochle) with their *tiers*: the points for 1, 2, 3 or 4 copies of the combination held
at once (``{1: 150, 2: 1500}`` is a flush and a double flush). A number of copies with no tier of its
own is scored as the best split into tiers (two flushes in a table without a double flush are two
flushes of 150 each).

Each kind belongs to a *class* (single deck: A, B, C; double deck: types I, II, III). When meld is
shown all at once (``count_meld``) a card may count in melds of different classes but in only one
meld of the same class, except that a flush contains its royal marriage (a flush counts 150, not
150 + 40; an extra K Q of trump beside it is a royal marriage of its own). Classes are independent,
so the best total is the sum of the best total of each class, and within a class each suit (and
each rank, for the arounds) is independent too.

Two-hand pinochle melds one combination at a time onto the table; ``Combination``,
``combinations`` and ``plan_meld`` implement its limits (one combination, at least one new card
from the hand, a card already melded is reused only in another class or in a higher-scoring meld
of the same class).

Double-deck pinochle reuses all of this with its own table (``flush_contains_royal``, its tiers,
type names I/II/III) and three trump-suit house rules the counter weighs together with the runs:
``run_lends_royal`` (the Toby Thomas table: beside a run, the royal marriages count the run's own
K Q too, and each run's K or Q marries one spare Q or K), ``roundhouse``/``double_roundhouse``
(a K and a Q of every suit scored at a set value in place of its parts) and
``roundhouse_run_royal`` (a roundhouse's royal marriage counts even inside a run: 24 + 15 = 39).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, NamedTuple

from bot.engine.cards import Card, Rank, Suit

FLUSH_RANKS: tuple[Rank, ...] = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK)
AROUND_RANKS: tuple[Rank, ...] = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)
SPADE_QUEEN = Card(Suit.SPADES, Rank.QUEEN)
DIAMOND_JACK = Card(Suit.DIAMONDS, Rank.JACK)
_QS = SPADE_QUEEN.id
_JD = DIAMOND_JACK.id
MAX_COPIES = 4
_SUITS: tuple[Suit, ...] = tuple(Suit)
_SUIT_BASES: tuple[tuple[Suit, int], ...] = tuple((suit, suit.index * 13) for suit in Suit)
_BASES: tuple[int, ...] = tuple(base for _, base in _SUIT_BASES)
_BASE_OF: dict[Suit, int] = dict(_SUIT_BASES)


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

    def to_json(self) -> dict[str, Any]:
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

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, "melds": [meld.to_json() for meld in self.melds]}


ExtraRule = Callable[[Sequence[int], Suit], list[Meld]]
"""A house-rule meld outside the tier model: (card counts by ``Card.id``, trump) → melds found."""


@dataclass(frozen=True, eq=False)
class MeldTable:
    """The meld kinds one game scores (see the module docstring)."""

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


def _kind(key: str, klass: str, tiers: Mapping[int, tuple[int, str]]) -> MeldKind:
    return MeldKind(key, klass, dict(tiers))


def _single_deck(extra_doubles: bool, ninety_six: bool) -> MeldTable:
    flush: dict[int, tuple[int, str]] = {1: (150, "flush")}
    royal: dict[int, tuple[int, str]] = {1: (40, "royal marriage")}
    marriage: dict[int, tuple[int, str]] = {1: (20, "marriage")}
    pinochle: dict[int, tuple[int, str]] = {1: (40, "pinochle"), 2: (300, "double pinochle")}
    arounds: dict[Rank, dict[int, tuple[int, str]]] = {
        Rank.ACE: {1: (100, "100 aces")},
        Rank.KING: {1: (80, "80 kings")},
        Rank.QUEEN: {1: (60, "60 queens")},
        Rank.JACK: {1: (40, "40 jacks")},
    }
    plural = {Rank.ACE: "aces", Rank.KING: "kings", Rank.QUEEN: "queens", Rank.JACK: "jacks"}
    if extra_doubles:
        flush[2] = (1500, "double flush")
        for rank, value in ((Rank.ACE, 1000), (Rank.KING, 800), (Rank.QUEEN, 600), (Rank.JACK, 400)):
            arounds[rank][2] = (value, f"8 {plural[rank]}")
    if ninety_six:
        # Two pinochle packs: two/three marriages in one suit 300/600, triple pinochle 600,
        # quadruple 1200, every other triple twice its double, every other quadruple 3000.
        for tiers, word in ((marriage, "marriages"), (royal, "royal marriages")):
            tiers[2] = (300, f"2 {word}")
            tiers[3] = (600, f"3 {word}")
            tiers[4] = (3000, f"4 {word}")
        pinochle[3] = (600, "triple pinochle")
        pinochle[4] = (1200, "quadruple pinochle")
        flush[3] = (2 * flush[2][0], "triple flush")
        flush[4] = (3000, "quadruple flush")
        for rank in AROUND_RANKS:
            arounds[rank][3] = (2 * arounds[rank][2][0], f"12 {plural[rank]}")
            arounds[rank][4] = (3000, f"16 {plural[rank]}")
    return MeldTable(
        name="single-deck" if not extra_doubles else ("96-card" if ninety_six else "four-hand"),
        flush=_kind("flush", "A", flush),
        royal_marriage=_kind("royal-marriage", "A", royal),
        marriage=_kind("marriage", "A", marriage),
        arounds=tuple((rank, _kind(plural[rank], "B", arounds[rank])) for rank in AROUND_RANKS),
        pinochle=_kind("pinochle", "C", pinochle),
        dix=_kind("dix", "A", {1: (10, "dix")}),
        copies=4 if ninety_six else 2,
    )


SINGLE_DECK = _single_deck(extra_doubles=False, ninety_six=False)
"""§3 meld table: the two- and three-hand games."""
FOUR_HAND = _single_deck(extra_doubles=True, ninety_six=False)
"""§3 with the double melds of the four-hand games (double flush 1500, 8 aces 1000, …)."""
NINETY_SIX = _single_deck(extra_doubles=True, ninety_six=True)
"""§3 with every extra of the 6- and 8-player games (96 cards)."""
SINGLE_DECK_64 = replace(SINGLE_DECK, name="single-deck-64", dix_rank=Rank.SEVEN)
"""§3 with the 64-card pack (option ``deck64``): the dix is the 7 of trump."""


# ----- counting a whole hand (meld shown all at once) ------------------------------------------------
_RI = {rank: rank.index for rank in Rank}
_FLUSH_RI = tuple(_RI[rank] for rank in FLUSH_RANKS)


def card_counts(hand: Iterable[Card]) -> list[int]:
    """How many of each card ``hand`` holds, indexed by ``Card.id``."""
    counts = [0] * 52
    for card in hand:
        counts[card.id] += 1
    return counts


def count_meld(hand: Iterable[Card], trump: Suit | None, table: MeldTable) -> MeldResult:
    """Every meld in ``hand`` with ``trump`` (None: plain suits only) and the best total."""
    counts = [0] * 52
    for card in hand:
        counts[card.id] += 1
    melds: list[Meld] = []
    total = _count(counts, trump, table, melds)
    return MeldResult(tuple(melds), total)


def count_meld_counts(counts: Sequence[int], trump: Suit | None, table: MeldTable) -> MeldResult:
    """``count_meld`` from card counts indexed by ``Card.id``."""
    melds: list[Meld] = []
    total = _count(counts, trump, table, melds)
    return MeldResult(tuple(melds), total)


def meld_total(hand: Iterable[Card], trump: Suit | None, table: MeldTable) -> int:
    """Only the total of ``count_meld`` (the same count, without listing the melds: faster)."""
    counts = [0] * 52
    for card in hand:
        counts[card.id] += 1
    if trump is None or table.extras or table.special:
        return _count(counts, trump, table, None)
    # The same arithmetic as ``_count`` with everything in locals (computer players and the
    # four-hand deal call this for every hand).
    ri_a, ri_t, ri_k, ri_q, ri_j = _FLUSH_RI
    tb = _BASE_OF[trump]
    total = 0
    marriages = table.marriage.values
    for base in _BASES:
        if base != tb:
            kings = counts[base + ri_k]
            if kings:
                queens = counts[base + ri_q]
                if queens:
                    total += marriages[kings if kings < queens else queens]
    kings = counts[tb + ri_k]
    queens = counts[tb + ri_q]
    pairs = kings if kings < queens else queens
    royal = table.royal_marriage.values
    best = royal[pairs]
    flushes = min(counts[tb + ri_a], counts[tb + ri_t], pairs, counts[tb + ri_j])
    if flushes:
        flush = table.flush.values
        contains = table.flush_contains_royal
        for f in range(1, flushes + 1):
            best = max(best, flush[f] + royal[pairs - f if contains else pairs])
    total += best
    dix = table.dix
    if dix is not None:
        dixes = counts[tb + _RI[table.dix_rank]]
        if dixes:
            total += dix.values[dixes]
    for r, values in table.around_values:
        if counts[r]:
            n = min(counts[r], counts[13 + r], counts[26 + r], counts[39 + r])
            if n:
                total += values[n]
    n = counts[_QS]
    if n:
        m = counts[_JD]
        total += table.pinochle.values[n if n < m else m]
    return total


def _count(counts: Sequence[int], trump: Suit | None, table: MeldTable, melds: list[Meld] | None) -> int:
    """The best total; the melds are appended to ``melds`` unless it is None."""
    total = 0
    ri_a, ri_t, ri_k, ri_q, ri_j = _FLUSH_RI
    contains = table.flush_contains_royal
    for suit, base in _SUIT_BASES:
        kings = counts[base + ri_k]
        queens = counts[base + ri_q]
        pairs = kings if kings < queens else queens
        if suit is trump and table.special:
            total += _special_trump(counts, suit, table, melds)
            dix = table.dix
            if dix is not None:
                dixes = counts[base + _RI[table.dix_rank]]
                if dixes:
                    total += dix.values[dixes]
                    if melds is not None:
                        _add(melds, dix, dixes, (Card(suit, table.dix_rank),), suit)
        elif suit is trump:
            flush_kind, royal_kind = table.flush, table.royal_marriage
            flushes = min(counts[base + ri_a], counts[base + ri_t], pairs, counts[base + ri_j])
            best_f, best = 0, royal_kind.values[pairs]
            for f in range(1, flushes + 1):
                value = flush_kind.values[f] + royal_kind.values[pairs - f if contains else pairs]
                if value > best:
                    best_f, best = f, value
            total += best
            if melds is not None:
                if best_f:
                    _add(melds, flush_kind, best_f, _flush_cards(suit), suit)
                rest = pairs - best_f if contains else pairs
                if rest:
                    _add(melds, royal_kind, rest, _pair_cards(suit), suit)
            dix = table.dix
            if dix is not None:
                dixes = counts[base + _RI[table.dix_rank]]
                if dixes:
                    total += dix.values[dixes]
                    if melds is not None:
                        _add(melds, dix, dixes, (Card(suit, table.dix_rank),), suit)
        elif pairs:
            total += table.marriage.values[pairs]
            if melds is not None:
                _add(melds, table.marriage, pairs, _pair_cards(suit), suit)
    for rank, kind in table.arounds:
        r = _RI[rank]
        n = min(counts[r], counts[13 + r], counts[26 + r], counts[39 + r])
        if n:
            total += kind.values[n]
            if melds is not None:
                _add(melds, kind, n, _around_cards(rank), None)
    n = min(counts[_QS], counts[_JD])
    if n:
        total += table.pinochle.values[n]
        if melds is not None:
            _add(melds, table.pinochle, n, (SPADE_QUEEN, DIAMOND_JACK), None)
    if trump is not None:
        for extra in table.extras:
            for meld in extra(counts, trump):
                total += meld.points
                if melds is not None:
                    melds.append(meld)
    return total


def _special_trump(counts: Sequence[int], trump: Suit, table: MeldTable, melds: list[Meld] | None) -> int:
    """The best class I score of the trump suit under the trump-suit house rules of the table (see
    the module docstring), roundhouse bonuses included; its melds are appended to ``melds``."""
    ri_a, ri_t, ri_k, ri_q, ri_j = _FLUSH_RI
    base = _BASE_OF[trump]
    kings = counts[base + ri_k]
    queens = counts[base + ri_q]
    pairs = kings if kings < queens else queens
    flushes = min(counts[base + ri_a], counts[base + ri_t], pairs, counts[base + ri_j])
    roundhouses = 0
    single_bonus, double_bonus = table.roundhouse_bonus
    watch_roundhouse = bool(single_bonus or double_bonus or table.roundhouse_run_royal)
    if watch_roundhouse:
        roundhouses = MAX_COPIES
        for other, other_base in _SUIT_BASES:
            if other is not trump:
                roundhouses = min(roundhouses, counts[other_base + ri_k], counts[other_base + ri_q])
    flush_values = table.flush.values
    royal_values = table.royal_marriage.values
    best: tuple[int, int, int, int, int] = (-1, 0, 0, 0, 0)  # value, runs, royals, in-run royal, level
    for f in range(flushes + 1):
        if table.run_lends_royal and f:
            counted = pairs + min(f, abs(kings - queens))
            royals = counted if counted > f else 0
        elif table.flush_contains_royal:
            royals = pairs - f
        else:
            royals = pairs
        value = flush_values[f] + royal_values[royals]
        in_run = 0
        level = min(roundhouses, royals)
        if table.roundhouse_run_royal and f and not royals and roundhouses:
            in_run, level = 1, 1
            value += royal_values[1]
        if level and (single_bonus or double_bonus):
            doubles = level // 2 if double_bonus else 0
            value += doubles * double_bonus + (level - 2 * doubles) * single_bonus
        if value > best[0]:
            best = (value, f, royals, in_run, level)
    value, f, royals, in_run, level = best
    if melds is not None:
        if f:
            _add(melds, table.flush, f, _flush_cards(trump), trump)
        if royals:
            kind = table.royal_marriage
            if table.run_lends_royal and f:
                # The run's K Q count again: list only the cards beside the runs.
                king, queen = _pair_cards(trump)
                cards = (king,) * max(0, kings - f) + (queen,) * max(0, queens - f)
                whose = "the runs'" if f > 1 else "the run's"
                name = f"{kind.name(royals)} (with {whose} K Q)"
                melds.append(Meld(kind.key, name, kind.klass, cards, kind.points(royals), royals, trump))
            else:
                _add(melds, kind, royals, _pair_cards(trump), trump)
        if in_run:
            kind = table.royal_marriage
            name = f"{kind.name(1)} (in the run, for the roundhouse)"
            melds.append(Meld(kind.key, name, "I+III", _pair_cards(trump), kind.points(1), 1, trump))
        if level and (single_bonus or double_bonus):
            doubles = level // 2 if double_bonus else 0
            unit = tuple(Card(suit, rank) for suit in _SUITS for rank in (Rank.KING, Rank.QUEEN))
            for copies, bonus, total, word in (
                (2, double_bonus, table.double_roundhouse, "double roundhouse"),
                (1, single_bonus, table.roundhouse, "roundhouse"),
            ):
                times = doubles if copies == 2 else level - 2 * doubles
                for _ in range(times if bonus else 0):
                    name = f"{word} bonus ({total} in all)"
                    melds.append(Meld("roundhouse", name, "I+III", unit * copies, bonus, copies, None))
    return value


def _add(melds: list[Meld], kind: MeldKind, copies: int, unit: tuple[Card, ...], suit: Suit | None) -> None:
    """Append the melds ``copies`` of ``unit`` score under ``kind``."""
    for part in kind.parts[copies]:
        melds.append(Meld(kind.key, kind.name(part), kind.klass, unit * part, kind.points(part), part, suit))


@cache
def _flush_cards(suit: Suit) -> tuple[Card, ...]:
    return tuple(Card(suit, rank) for rank in FLUSH_RANKS)


@cache
def _pair_cards(suit: Suit) -> tuple[Card, ...]:
    return (Card(suit, Rank.KING), Card(suit, Rank.QUEEN))


@cache
def _around_cards(rank: Rank) -> tuple[Card, ...]:
    return tuple(Card(suit, rank) for suit in _SUITS)


# ----- two-hand: one combination at a time onto the table -----------------------------------------------
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

    add(table.flush, _flush_cards(trump), trump)
    add(table.royal_marriage, _pair_cards(trump), trump)
    for suit in _SUITS:
        if suit is not trump:
            add(table.marriage, _pair_cards(suit), suit)
    for rank, kind in table.arounds:
        add(kind, _around_cards(rank), None)
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


def describe_tables() -> dict[str, MeldTable]:
    """The built-in tables by name (for the CLI and /rules)."""
    return {table.name: table for table in (SINGLE_DECK, SINGLE_DECK_64, FOUR_HAND, NINETY_SIX)}
