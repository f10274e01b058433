"""A constrained re-deal of the cards one seat cannot see (``Game.sample_world``).

Each variant describes what a seat has not seen as *places* (another seat's hand, the widow, the
stock, cards buried or passed out of its sight): how many cards each must hold, the cards known to
be there (meld shown and still held, cards it was passed, …), the cards it cannot hold (a void
revealed by failing to follow or to trump, a trump it could not beat), and optionally a test of
the whole place (e.g. that a hand melds exactly what its owner showed). ``deal_unseen`` deals the
unseen cards among the places so that every constraint holds; a ``Dealer`` is the same prepared
once for many deals of one position (``Game.sampling_plan`` keeps it until the next action).

The deal is uniform among the deals that fit, the two copies of a card told apart as in a real
shuffle: deals respecting room, known and forbidden cards are drawn exactly uniformly (counted
splits) and redrawn until every check passes. It is not uniform only in fallbacks, which a
position reaches when counting would take too long (five or more places: the 96-card games,
pitch-10 with discards) or when ``REJECT_TRIES`` deals in a row fail their checks (then swaps
repair a deal, and last an exhaustive search finds one).

Only what the seat may see goes in: the pool is sorted, the places come in a fixed order and every
random choice comes from the caller's ``rng``, so two games that look the same to the seat give the
same deal for the same ``rng`` state.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from math import comb, factorial
from typing import Any

from bot.engine.cards import Card
from bot.engine.errors import EngineError

MAX_TRIES = 64
"""Random deals tried before the exhaustive search (the first ``REJECT_TRIES`` of them are simply
dropped when a place fails its check; the 40 later ones are repaired)."""
REJECT_TRIES = 24
"""Random deals dropped outright when a check fails, before repairs are tried: a deal kept this
way is drawn from the deal's own distribution conditioned on passing (a repair's random walk is
not), so the repairs are a fallback for positions where few deals pass."""
REPAIR_STEPS = 600
"""Card swaps tried to make a random deal pass the places' checks."""
SEARCH_LIMIT = 16
"""The exhaustive search runs only for this many unseen cards or fewer (it could take for ever with
more, and random deals with repairs do not fail there in practice)."""


@dataclass
class Place:
    """Somewhere cards the sampling seat cannot see may lie."""

    size: int
    """How many cards the place holds in all (known ones included)."""
    known: list[Card] = field(default_factory=list)
    """Cards known to be here (they stay; the rest is dealt from the pool)."""
    forbidden: Collection[Card] = frozenset()
    """Cards this place cannot hold (revealed voids, a trump it could not beat, …)."""
    check: Callable[[list[Card]], bool] | None = None
    """A test of the place's whole content (known + dealt) that a consistent deal passes."""
    confirm: Callable[[list[Card]], bool] | None = None
    """A slower, final test run once on a deal that passes every ``check`` (e.g. the melds
    themselves once the meld total matches)."""
    monotone: bool = False
    """``check`` tests a measure of the content that only grows as cards are added against a
    fixed value (a hand's meld total against the meld shown), so a content that measures too
    much still does with more cards: then a card that fails beside ``known`` alone is one the
    place cannot hold, and ``Dealer`` forbids it before dealing; and a check that passes both with
    ``known`` alone and with every card the place may hold passes every deal, and is not run. The
    same deals pass; far fewer are dealt only to fail."""


def deal_unseen(pool: Iterable[Card], places: Sequence[Place], rng: random.Random) -> list[list[Card]]:
    """Deal ``pool`` (the unseen cards) among ``places``: each gets ``size - len(known)`` cards, none
    it may not hold, and passes its ``check``. Returns each place's whole content (known first).
    ``Dealer(pool, places).deal(rng)``: keep the ``Dealer`` to deal the same position many times."""
    return Dealer(pool, places).deal(rng)


class Dealer:
    """``deal_unseen`` prepared once for many deals of the same unseen cards into the same places
    (a search samples one position many times): the cards sorted, the room of each place, the
    cards each place cannot hold (``Place.monotone`` checks folded in), and the dealing plan."""

    @classmethod
    def for_holdings(cls, held: Iterable[Card], places: Sequence[Place]) -> Dealer:
        """A dealer of the cards the ``places`` hold now (``held``), less the cards known to be in
        them: the unseen cards are what is left to deal."""
        return cls(multiset_minus(held, [card for place in places for card in place.known]), places)

    def __init__(self, pool: Iterable[Card], places: Sequence[Place]) -> None:
        cards = sorted(pool, key=_card_key)
        room = [place.size - len(place.known) for place in places]
        if min(room, default=0) < 0 or sum(room) != len(cards):
            raise EngineError(f"cannot deal {len(cards)} unseen cards into places with room {room}")
        places = [_forbid_failing_cards(place, cards) if place.monotone else place for place in places]
        self.cards = cards
        self.places = places
        self.room = room
        self.search_places = places
        """The places with the cards each cannot hold (its known cards placed first)."""
        # A known card whose other copies are unseen is dealt with them (at least the known number
        # to its place), so that a deal giving the place more copies is not favoured.
        unseen = Counter(cards)
        bounds: dict[Card, list[int]] = {}
        for i, place in enumerate(places):
            for card, known in Counter(place.known).items():
                if unseen[card] and room[i] and card not in place.forbidden:
                    bounds.setdefault(card, [0] * len(places))[i] = known
        self.bounds = {card: tuple(low) for card, low in bounds.items()}
        self.known_counts: list[tuple[int, Counter[Card]]] = []
        plan = None
        if bounds:
            fixed = [
                replace(
                    place,
                    known=multiset_minus(
                        place.known, [c for c, low in bounds.items() for _ in range(low[i])]
                    ),
                )
                for i, place in enumerate(places)
            ]
            floating = [card for card, low in bounds.items() for _ in range(sum(low))]
            dealt_cards = sorted(cards + floating, key=_card_key)
            dealt_room = [place.size - len(place.known) for place in fixed]
            plan = _Plan(dealt_cards, fixed, dealt_room, self.bounds)
            if plan.exact:
                self.cards, self.places, self.room = dealt_cards, fixed, dealt_room
            else:  # too many splits to count: known cards placed first, deals weighed instead
                plan = None
                self.bounds = {}
                self.known_counts = [
                    (i, Counter(place.known)) for i, place in enumerate(places) if place.known
                ]
        self.plan = plan or _Plan(cards, places, room)
        self.known_at = [(i, place.known) for i, place in enumerate(self.places) if place.known]
        """Each place's known cards by place, put first in every deal."""
        self.known_by_place = [place.known for place in self.places]
        """Each place's known cards (``_Plan.deal_exact`` starts each place's cards with them)."""
        # A check every deal passes is left out (it changes no deal, and costs most of a deal).
        self.checks = [
            (i, place.check)
            for i, place in enumerate(places)
            if place.check is not None and not _always_passes(self.places[i], self.cards)
        ]
        self.confirms = [(i, place.confirm) for i, place in enumerate(places) if place.confirm is not None]

    def deal(self, rng: random.Random) -> list[list[Card]]:
        """One deal: every place's whole content (known first) passing every test.

        Deals uniform among those respecting room and forbidden cards (``_Plan``) are drawn until
        one passes every check (``REJECT_TRIES``), so the deal returned is uniform among the deals
        that pass, the physical copies of a card told apart as in a real shuffle. A place's known
        cards are placed first, so a deal giving it ``m`` copies of a card of which ``k`` are
        known would come ``C(m, k)`` times too often: it is kept with probability ``1 / C(m, k)``.
        After ``REJECT_TRIES`` failing deals, deals are repaired by swaps instead (a random walk:
        not uniform; ``MAX_TRIES`` in all); if none passes every test, an exhaustive search finds
        a deal (one exists whenever the constraints describe a real position)."""
        passes = self._passes
        plan = self.plan
        if plan.exact and not self.known_counts:  # the hot loop: plain rejection
            deal_exact = plan.deal_exact
            known_by_place = self.known_by_place
            for _attempt in range(REJECT_TRIES):
                whole = deal_exact(rng, known_by_place)
                if passes(whole):
                    return whole
            return self._deal_repairing(rng)
        known_counts = self.known_counts
        known_at = self.known_at
        deal = plan.deal
        for _attempt in range(REJECT_TRIES):
            dealt = deal(rng)
            if dealt is None:
                continue
            if known_counts and not _keep_with_known(dealt, known_counts, rng):
                continue
            for i, known in known_at:
                dealt[i][:0] = known
            if passes(dealt):
                return dealt
        return self._deal_repairing(rng)

    def _passes(self, dealt: list[list[Card]]) -> bool:
        """Whether every place's cards in ``dealt`` pass its checks, then its confirmations."""
        for i, check in self.checks:
            if not check(dealt[i]):
                return False
        return all(confirm(dealt[i]) for i, confirm in self.confirms)

    def _deal_repairing(self, rng: random.Random) -> list[list[Card]]:
        """``deal`` after ``REJECT_TRIES`` failing deals: deals repaired by swaps, then the
        exhaustive search."""
        places = self.places
        checks = self.checks
        confirms = self.confirms
        known_at = self.known_at
        for _attempt in range(REJECT_TRIES, MAX_TRIES):
            dealt = self.plan.deal(rng)
            if dealt is None:
                continue
            for i, known in known_at:
                dealt[i][:0] = known
            failing = [i for i, check in checks if not check(dealt[i])]
            if failing and not _repair(places, dealt, failing, rng):
                continue
            if self.bounds and not _within_bounds(dealt, self.bounds):
                continue  # a repair moved a copy of a known card away
            if all(confirm(dealt[i]) for i, confirm in confirms):
                return dealt
        search_places = self.search_places
        cards = multiset_minus(self.cards, [card for place in search_places for card in place.known])
        if len(cards) <= SEARCH_LIMIT:
            room = [place.size - len(place.known) for place in search_places]
            found = _search(cards, search_places, room, rng)
            if found is not None:
                return found
        raise EngineError("no deal of the unseen cards fits what this seat has seen")


def _always_passes(place: Place, cards: list[Card]) -> bool:
    """Whether ``place``'s ``monotone`` check passes for every content it can be dealt from
    ``cards``: with its known cards alone and with every card of ``cards`` it may hold added. A
    monotone check's measure (a meld total) only grows as cards are added, so every content in
    between measures the same and passes too."""
    check = place.check
    if check is None or not place.monotone or not check(place.known):
        return False
    forbidden = place.forbidden
    return check([*place.known, *(card for card in cards if card not in forbidden)])


def _within_bounds(dealt: list[list[Card]], bounds: dict[Card, tuple[int, ...]]) -> bool:
    """Whether every place holds at least its known copies of each card of ``bounds``."""
    return all(
        dealt[i].count(card) >= low for card, lows in bounds.items() for i, low in enumerate(lows) if low
    )


def _keep_with_known(
    dealt: list[list[Card]], known_counts: list[tuple[int, Counter[Card]]], rng: random.Random
) -> bool:
    """Whether to keep a deal (``Dealer.deal``): with probability ``1 / C(m, k)`` for each card of
    which a place knows ``k`` copies and was dealt ``m - k`` more (1 when it was dealt none)."""
    weight = 1
    for i, known in known_counts:
        extra: dict[Card, int] = {}
        for card in dealt[i]:
            if card in known:
                extra[card] = extra.get(card, 0) + 1
        for card, more in extra.items():
            weight *= comb(known[card] + more, known[card])
    return weight == 1 or rng.random() * weight < 1


def _forbid_failing_cards(place: Place, cards: list[Card]) -> Place:
    """``place`` with every card of ``cards`` that fails its (monotone) check beside the known
    cards alone added to what it cannot hold (unchanged if the known cards fail by themselves)."""
    check = place.check
    known = place.known
    if check is None or not check(known):
        return place
    forbidden = set(place.forbidden)
    for card in dict.fromkeys(cards):
        if card not in forbidden and not check([*known, card]):
            forbidden.add(card)
    return replace(place, forbidden=forbidden)


def _repair(places: Sequence[Place], whole: list[list[Card]], failing: list[int], rng: random.Random) -> bool:
    """Make every place pass its check by swapping dealt cards between a failing place and another
    one (one or two cards each way, never a card a place may not hold): a random walk that never
    adds a failing place (moves that keep the count are taken, so it does not stall). True when
    every check passes (``whole`` is updated in place)."""
    movable = [i for i, place in enumerate(places) if place.size > len(place.known)]
    if len(movable) < 2:
        return False
    failing = failing[:]
    rand = rng.random
    for _ in range(REPAIR_STEPS):
        if not failing:
            return True
        i = failing[int(rand() * len(failing))]
        j = movable[int(rand() * len(movable))]
        if j == i:
            continue
        first, second = places[i], places[j]
        known_i, known_j = len(first.known), len(second.known)
        new_i, new_j = whole[i][:], whole[j][:]
        for _swap in range(1 + (rand() < 0.3)):
            a = known_i + int(rand() * (len(new_i) - known_i))
            b = known_j + int(rand() * (len(new_j) - known_j))
            x, y = new_i[a], new_j[b]
            if x in second.forbidden or y in first.forbidden:
                continue
            new_i[a], new_j[b] = y, x
        ok_i = first.check is None or first.check(new_i)
        ok_j = second.check is None or second.check(new_j)
        was_j = j not in failing
        if ok_i + ok_j < was_j:
            continue  # a passing place would fail: keep the old deal
        whole[i], whole[j] = new_i, new_j
        failing = [k for k in failing if k not in (i, j)]
        if not ok_i:
            failing.append(i)
        if not ok_j:
            failing.append(j)
    return not failing


def _card_key(card: Card) -> int:
    return card.id


_Node = tuple[list[tuple[tuple[tuple[int, int], ...], bool, Any]], list[int]] | tuple[int, ...]
"""``_Plan._tree``: a group's splits with what follows each, or the room left after the last group."""


class _Plan:
    """How to deal ``cards`` into places with ``room``: the cards some place may not hold, grouped
    by the places they may go to, and the free cards, which may go anywhere.

    Deals are drawn uniformly among all the ways of placing the (physical) cards that respect
    every place's room and forbidden cards: group by group, a split of the group among its places
    is drawn in proportion to the number of complete deals it leaves (counted once, exactly, by
    ``_ways``), then the group's cards are shuffled into that split, and the free cards into the
    room left. Where counting would take too long (``COUNT_LIMIT``), the constrained cards are
    placed one at a time in proportion to the room left instead (close to uniform, not exactly)."""

    def __init__(
        self,
        cards: list[Card],
        places: Sequence[Place],
        room: list[int],
        bounds: dict[Card, tuple[int, ...]] | None = None,
    ) -> None:
        self.room = room
        everywhere = tuple(i for i, r in enumerate(room) if r)
        banned: set[Card] = set()
        for i, place in enumerate(places):
            if place.forbidden and room[i]:
                banned.update(place.forbidden)
        bounds = bounds or {}
        self.constrained: list[tuple[Card, tuple[int, ...]]] = []
        self.free: list[Card] = []
        grouped: dict[tuple[tuple[int, ...], tuple[int, ...], Card | None], list[Card]] = {}
        nothing = (0,) * len(room)
        for card in cards:
            if card in banned or card in bounds:
                options = tuple(i for i in everywhere if card not in places[i].forbidden)
                self.constrained.append((card, options))
                low = bounds.get(card)
                # Copies of a card with lower bounds are a group of their own.
                grouped.setdefault((options, low or nothing, card if low else None), []).append(card)
            else:
                self.free.append(card)
        self.everywhere = everywhere
        self.groups: list[tuple[tuple[int, ...], tuple[int, ...], list[Card]]] = [
            (options, low, grouped[options, low, card])
            for options, low, card in sorted(
                grouped, key=lambda key: (len(key[0]), key[0], key[1], _card_key(key[2]) if key[2] else -1)
            )
        ]
        self.group_cards = [cards for _, _, cards in self.groups]
        self.splits: dict[tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[int]]] = {}
        self.budget = COUNT_LIMIT
        try:
            self.exact = self._ways(0, tuple(room)) > 0
        except _TooMany:
            self.exact = False
            self.splits = {}

    def _ways(self, group: int, room: tuple[int, ...]) -> int:
        """How many ways the cards of ``groups[group:]`` and the free cards fill ``room`` (each
        card in a place it may go to); the splits of ``groups[group]`` with their running totals
        are kept in ``splits`` for ``deal``."""
        if group == len(self.groups):
            return _multinomial(len(self.free), room)
        key = (group, room)
        kept = self.splits.get(key)
        if kept is not None:
            return kept[1][-1] if kept[1] else 0
        options, low, cards = self.groups[group]
        splits: list[tuple[int, ...]] = []
        totals: list[int] = []
        total = 0
        for split in self._splits(len(cards), options, room, low):
            rest = tuple(r - c for r, c in zip(room, split, strict=True))
            ways = _multinomial(len(cards), split) * self._ways(group + 1, rest)
            if ways:
                total += ways
                splits.append(split)
                totals.append(total)
        self.splits[key] = (splits, totals)
        return total

    def _splits(
        self, count: int, options: tuple[int, ...], room: tuple[int, ...], low: tuple[int, ...]
    ) -> Iterator[tuple[int, ...]]:
        """Every way to split ``count`` cards among the places ``options`` (at least ``low`` and
        at most ``room`` each), as a count per place (none elsewhere). Each step spends
        ``budget``."""
        split = [0] * len(room)

        def fill(k: int, left: int) -> Iterator[tuple[int, ...]]:
            self.budget -= 1
            if self.budget < 0:
                raise _TooMany
            place = options[k]
            if k == len(options) - 1:
                if low[place] <= left <= room[place]:
                    split[place] = left
                    yield tuple(split)
                    split[place] = 0
                return
            for n in range(low[place], min(left, room[place]) + 1):
                split[place] = n
                yield from fill(k + 1, left - n)
            split[place] = 0

        if options:
            yield from fill(0, count)

    def deal(self, rng: random.Random) -> list[list[Card]] | None:
        """One random deal (None at a dead end of the approximate way)."""
        if self.exact:
            return self.deal_exact(rng, self.nothing_known)
        return self._deal_approximate(rng)

    @property
    def nothing_known(self) -> list[list[Card]]:
        """An empty list per place (``deal_exact`` with no known cards)."""
        return [[] for _ in self.room]

    def deal_exact(self, rng: random.Random, known: list[list[Card]]) -> list[list[Card]]:
        """One deal the exact way (``exact`` plans only), each place's cards after its ``known``
        ones (a list per place, not changed)."""
        out = [cards[:] for cards in known]
        rand = rng.random

        def draw(_card: Card) -> float:
            return rand()

        node: Any = self.tree  # a _Node: the group's splits, after the last the room left
        if node is None:
            node = self.tree = self._tree(0, tuple(self.room), {})
        for cards in self.group_cards:
            choices, totals = node
            if len(choices) == 1:
                parts, shuffle, node = choices[0]
            else:
                index = bisect_right(totals, rand() * totals[-1])
                parts, shuffle, node = choices[index] if index < len(choices) else choices[-1]
            if shuffle:
                shuffled = cards[:]
                shuffled.sort(key=draw)
            else:
                shuffled = cards  # all to one place, or copies of one card: no order to draw
            start = 0
            for i, count in parts:
                out[i] += shuffled[start : start + count]
                start += count
        free = self.free[:]
        free.sort(key=draw)  # as ``_deal_free`` (the same draws)
        start = 0
        for i, count in enumerate(node):
            if count:
                out[i] += free[start : start + count]
                start += count
        return out

    tree: _Node | None = None
    """``splits`` ready for ``deal_exact`` (made at the first deal): see ``_tree``."""

    def _tree(
        self, group: int, room: tuple[int, ...], made: dict[tuple[int, tuple[int, ...]], _Node]
    ) -> _Node:
        """The splits of ``groups[group]`` into ``room`` as (choices, running totals), each choice
        its (place, count) parts, whether its cards need shuffling, and what follows: the next
        group's splits, or after the last group the room left for the free cards (``made``: the
        nodes made so far, shared where splits lead to the same room)."""
        if group == len(self.groups):
            return room
        kept = made.get((group, room))
        if kept is not None:
            return kept
        cards = self.group_cards[group]
        splits, totals = self.splits[group, room]
        choices: list[tuple[tuple[tuple[int, int], ...], bool, _Node]] = []
        for split in splits:
            parts = tuple((i, count) for i, count in enumerate(split) if count)
            rest = tuple(r - c for r, c in zip(room, split, strict=True))
            shuffle = len(parts) > 1 and cards[0] is not cards[-1]
            choices.append((parts, shuffle, self._tree(group + 1, rest, made)))
        node = made[group, room] = (choices, totals)
        return node

    def _deal_approximate(self, rng: random.Random) -> list[list[Card]] | None:
        """The constrained cards first, most constrained first, each to a place drawn in
        proportion to its room left; then the free cards."""
        left = self.room[:]
        out: list[list[Card]] = [[] for _ in left]
        rand = rng.random
        if self.constrained:
            order = self.constrained[:]
            rng.shuffle(order)
            order.sort(key=lambda item: len(item[1]))  # stable: random among equally constrained cards
            for card, options in order:
                total = 0
                for i in options:
                    total += left[i]
                if not total:
                    return None
                pick = rand() * total
                place = -1
                for i in options:
                    if left[i]:
                        place = i
                        pick -= left[i]
                        if pick < 0:
                            break
                left[place] -= 1
                out[place].append(card)
        self._deal_free(out, left, rng)
        return out

    def _deal_free(self, out: list[list[Card]], left: list[int], rng: random.Random) -> None:
        """The free cards shuffled into the room ``left`` (every deal of them equally likely)."""
        rand = rng.random
        free = self.free[:]
        free.sort(key=lambda _card: rand())
        start = 0
        for i, count in enumerate(left):
            if count:
                out[i].extend(free[start : start + count])
                start += count


COUNT_LIMIT = 800
"""Steps a ``_Plan`` may take counting the splits of constrained cards for exact uniform deals
(beyond: the approximate way). Counting is done once per plan (a few µs a step): with three or
four places (four-hand, double-deck, pitch) it takes a few dozen steps; with five to seven (the
96-card games, pitch-10 with discards) it can take far more, and those often deal the
approximate way."""


class _TooMany(Exception):
    """Counting the deals would pass ``COUNT_LIMIT``."""


def _multinomial(count: int, parts: Sequence[int]) -> int:
    """The ways to deal ``count`` distinct cards into parts of these sizes (0 if they do not add up)."""
    if sum(parts) != count:
        return 0
    out = factorial(count)
    for part in parts:
        out //= factorial(part)
    return out


def _search(
    cards: list[Card], places: Sequence[Place], room: list[int], rng: random.Random
) -> list[list[Card]] | None:
    """Every deal, place by place (each place's possible contents in random order), until one
    passes every test: slow in the worst case, but reached only when random deals keep failing,
    which happens when few deals fit (and then there are few to try)."""
    shuffled = cards[:]
    rng.shuffle(shuffled)
    order = sorted(range(len(places)), key=lambda i: (places[i].check is None, room[i]))

    def fill(depth: int, rest: Counter[Card], out: list[list[Card]]) -> bool:
        if depth == len(order):
            return True
        i = order[depth]
        place = places[i]
        candidates = [card for card in shuffled if rest[card] and card not in place.forbidden]
        seen: set[tuple[Card, ...]] = set()
        for chosen in combinations(candidates, room[i]):
            key = tuple(sorted(chosen, key=_card_key))
            if key in seen or Counter(chosen) - rest:
                continue
            seen.add(key)
            whole = place.known + list(chosen)
            if place.check is not None and not place.check(whole):
                continue
            if place.confirm is not None and not place.confirm(whole):
                continue
            out[i] = whole
            if fill(depth + 1, rest - Counter(chosen), out):
                return True
        return False

    result: list[list[Card]] = [[] for _ in places]
    return result if fill(0, Counter(cards), result) else None


def multiset_minus(cards: Iterable[Card], minus: Iterable[Card]) -> list[Card]:
    """``cards`` without one copy of each card of ``minus`` (cards of ``minus`` not there ignored)."""
    out = list(cards)
    for card in minus:
        if card in out:
            out.remove(card)
    return out
