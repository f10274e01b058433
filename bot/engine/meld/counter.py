"""Counting a whole hand (meld shown all at once): the best total of every class, and the melds
that make it (see ``bot.engine.meld`` for the rules the counter follows)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from bot.engine.cards import Card, Rank, Suit
from bot.engine.meld.model import (
    DIAMOND_JACK,
    FLUSH_RANKS,
    MAX_COPIES,
    SPADE_QUEEN,
    SUITS,
    Meld,
    MeldKind,
    MeldResult,
    MeldTable,
    around_cards,
    flush_cards,
    pair_cards,
)

_QS = SPADE_QUEEN.id
_JD = DIAMOND_JACK.id
_SUIT_BASES: tuple[tuple[Suit, int], ...] = tuple((suit, suit.index * 13) for suit in Suit)
_BASES: tuple[int, ...] = tuple(base for _, base in _SUIT_BASES)
_BASE_OF: dict[Suit, int] = dict(_SUIT_BASES)
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
    return meld_total_counts(counts, trump, table)


def meld_total_counts(counts: Sequence[int], trump: Suit | None, table: MeldTable) -> int:
    """``meld_total`` from card counts indexed by ``Card.id`` (``card_counts``): a sampler that
    checks many hands sharing most of their cards keeps the shared counts and adds the rest."""
    return meld_totaller(trump, table)(counts)


@lru_cache(maxsize=64)
def meld_totaller(trump: Suit | None, table: MeldTable) -> Callable[[Sequence[int]], int]:
    """``meld_total_counts`` with ``trump`` and ``table`` fixed and their constants bound once: a
    sampler checks thousands of hands of one deal against the meld shown. Kept per pair (tables
    are compared by identity), so ``meld_total_counts`` pays for the binding once."""
    if trump is None or table.extras or table.special:
        return lambda counts: _count(counts, trump, table, None)
    ri_a, ri_t, ri_k, ri_q, ri_j = _FLUSH_RI
    tb = _BASE_OF[trump]
    (k1, q1), (k2, q2), (k3, q3) = ((base + ri_k, base + ri_q) for base in _BASES if base != tb)
    tk, tq, ta, tt, tj = tb + ri_k, tb + ri_q, tb + ri_a, tb + ri_t, tb + ri_j
    marriages = table.marriage.values
    royal = table.royal_marriage.values
    flush = table.flush.values
    contains = table.flush_contains_royal
    dix_at = -1 if table.dix is None else tb + _RI[table.dix_rank]
    dixes = () if table.dix is None else table.dix.values
    arounds = tuple((r, 13 + r, 26 + r, 39 + r, values) for r, values in table.around_values)
    pinochles = table.pinochle.values

    def total_of(counts: Sequence[int]) -> int:
        total = 0
        for k_at, q_at in ((k1, q1), (k2, q2), (k3, q3)):
            kings = counts[k_at]
            if kings:
                queens = counts[q_at]
                if queens:
                    total += marriages[kings if kings < queens else queens]
        kings = counts[tk]
        queens = counts[tq]
        pairs = kings if kings < queens else queens
        best = royal[pairs]
        if pairs:
            flushes = pairs
            for at in (ta, tt, tj):
                n = counts[at]
                flushes = n if n < flushes else flushes
            for f in range(1, flushes + 1):
                value = flush[f] + royal[pairs - f if contains else pairs]
                best = value if value > best else best
        total += best
        if dix_at >= 0:
            n = counts[dix_at]
            if n:
                total += dixes[n]
        for a, b, c, d, values in arounds:
            n = counts[a]
            if n:
                m = counts[b]
                n = m if m < n else n
                m = counts[c]
                n = m if m < n else n
                m = counts[d]
                n = m if m < n else n
                if n:
                    total += values[n]
        n = counts[_QS]
        if n:
            m = counts[_JD]
            total += pinochles[n if n < m else m]
        return total

    return total_of


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
                    _add(melds, flush_kind, best_f, flush_cards(suit), suit)
                rest = pairs - best_f if contains else pairs
                if rest:
                    _add(melds, royal_kind, rest, pair_cards(suit), suit)
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
                _add(melds, table.marriage, pairs, pair_cards(suit), suit)
    for rank, kind in table.arounds:
        r = _RI[rank]
        n = min(counts[r], counts[13 + r], counts[26 + r], counts[39 + r])
        if n:
            total += kind.values[n]
            if melds is not None:
                _add(melds, kind, n, around_cards(rank), None)
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
    ``bot.engine.meld``), roundhouse bonuses included; its melds are appended to ``melds``."""
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
            # Toby Thomas: a K Q pair to spare beyond the runs makes every K Q pair count as
            # royal marriages, the runs' own included; a lone spare K or Q marries nothing.
            royals = pairs if pairs > f else 0
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
            _add(melds, table.flush, f, flush_cards(trump), trump)
        if royals:
            kind = table.royal_marriage
            if table.run_lends_royal and f:
                # The runs' K Q count again: the line shows every K Q it counts.
                whose = "the runs'" if f > 1 else "the run's"
                name = f"{kind.name(royals)} (with {whose} K Q)"
                cards = pair_cards(trump) * royals
                # Its own class, so ``used_cards`` does not ask for the runs' K Q twice.
                klass = f"{kind.klass}+run"
                melds.append(Meld(kind.key, name, klass, cards, kind.points(royals), royals, trump))
            else:
                _add(melds, kind, royals, pair_cards(trump), trump)
        if in_run:
            kind = table.royal_marriage
            name = f"{kind.name(1)} (in the run, for the roundhouse)"
            melds.append(Meld(kind.key, name, "I+III", pair_cards(trump), kind.points(1), 1, trump))
        if level and (single_bonus or double_bonus):
            doubles = level // 2 if double_bonus else 0
            unit = tuple(Card(suit, rank) for suit in SUITS for rank in (Rank.KING, Rank.QUEEN))
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
