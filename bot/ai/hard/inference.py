"""Sampled worlds whose other hands fit the auction's calls and, in card play, explain the plays.

A bid is a statement about a hand, not a card: of a few sampled worlds the one whose hands fit the
calls best is kept (a hand's rough worth, on the scale of the bids). In card play each world also
counts the plays it does not explain (``reading``). 4-player pitch, reading the play: 64.4% of 500
pairs against ``basic`` (bench/records/experiments.md#reading)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.ai.hard.fitting import can_swap, swap_to_fit
from bot.ai.hard.pitch_fit import fit_plays
from bot.ai.hard.reading import pinochle_misreads, pitch_misreads
from bot.ai.hard.worlds import sample_world
from bot.engine import Card, Game, Rank, Suit
from bot.engine.events import Phase
from bot.engine.meld import meld_total
from bot.engine.pinochle.common import PinochleGame
from bot.engine.pitch import PitchBase

TRIES = 6
"""Worlds sampled per world kept."""
MISREAD = 1.0
"""Pitch card play: what one play a world does not explain (``reading``) counts beside a point of
worth outside the calls' bounds. 4-player pitch: 67.2% of 200 pairs (bench/records/experiments.md#misread)."""


PITCH_FIT = frozenset({"pitch-partnership"})
"""Pitch variants whose card play moves the world kept toward explaining the plays (``pitch_fit``).
Partnership pitch: 69.2% of 200 pairs against ``basic`` (bench/records/experiments.md#pitch-fit)."""


PINOCHLE_READING: dict[str, tuple[int, int]] = {"pinochle-4": (3, 99), "pinochle-4-auction": (3, 99)}
"""Pinochle card play, per variant: worlds sampled per world kept, and how many of the deal's last
tricks have their plays read (``reading.pinochle_misreads``). Pinochle-4: 88.3% of 500 pairs against
``basic`` (bench/records/experiments.md#pinochle-reading)."""
_PLAYING = Phase.PLAY


@dataclass(frozen=True)
class Call:
    """What a seat's calls say about its hand: worth at least ``low``, at most ``high``."""

    seat: int
    low: float
    high: float

    def miss(self, value: float) -> float:
        """How far a hand worth ``value`` lies outside the bounds (0 inside them)."""
        return max(0.0, self.low - value) + max(0.0, value - self.high)


def calls(view: dict[str, Any], seat: int, step: int, first: float) -> list[Call]:
    """The bounds the auction so far puts on each other seat's hand worth (bid units)."""
    side_of = {s: i for i, members in enumerate(view["sides"]) for s in members}
    low: dict[int, float] = {}
    high: dict[int, float] = {}
    top = 0
    holder: int | None = None
    for entry in view.get("bids") or ():
        who, amount = entry["seat"], entry["amount"]
        if amount is None:
            # It passed when bidding cost ``top + step`` (leaving a partner's bid says nothing).
            if who not in high and (holder is None or side_of[holder] != side_of[who]):
                high[who] = top + step if top else first
        else:
            low[who] = amount
            top, holder = amount, who
    return [
        Call(s, low.get(s, float("-inf")), high.get(s, float("inf")))
        for s in sorted(set(low) | set(high))
        if s != seat
    ]


class HandWorth:
    """A pinochle hand's rough worth as declarer, in bid units (meld plus tricks plus a base share)."""

    def __init__(self, game: PinochleGame) -> None:
        self.table = game.meld_table_for(game.options)
        scale = int(getattr(game, "scale", 1))
        self.unit = scale
        self.base: float
        self.ace: float
        if game.family == "double-deck":
            self.base, self.ace = 35 * scale, 1.5 * scale
        elif game.players == 3:
            self.base, self.ace = 110.0, 10.0
        else:
            self.base, self.ace = 90.0, 10.0

    def __call__(self, hand: list[Card]) -> float:
        best = 0.0
        aces = sum(1 for c in hand if c.rank is Rank.ACE)
        for suit in Suit:
            length = sum(1 for c in hand if c.suit is suit)
            value = meld_total(hand, suit, self.table) + 4 * self.ace * max(0, length - len(hand) // 4 - 1)
            best = max(best, value)
        return best + self.ace * aces + self.base


PITCH_TOP = {Rank.ACE: 1.0, Rank.KING: 0.6, Rank.QUEEN: 0.35}
"""A pitch hand's chance at High by its top trump (roughly)."""
PITCH_LOW = {Rank.TWO: 0.7, Rank.THREE: 0.5, Rank.FOUR: 0.3}
"""... and at Low by its bottom trump."""


class PitchWorth:
    """A pitch hand's rough worth in points as pitcher (its best suit: top trumps for High, the jack, a
    low trump for Low, length for Game), on the scale of the bids: rough, yet finer readings of the
    calls measured no better (bench/records/experiments.md#pitch-worth)."""

    def __call__(self, hand: list[Card]) -> float:
        best = 0.0
        for suit in Suit:
            trumps = [c for c in hand if c.suit is suit and not c.is_joker]
            if not trumps:
                continue
            value = max(PITCH_TOP.get(c.rank, 0.1) for c in trumps)
            value += max(PITCH_LOW.get(c.rank, 0.0) for c in trumps)
            value += 0.8 * any(c.rank is Rank.JACK for c in trumps) + 0.2 * len(trumps) + 0.2
            best = max(best, value)
        return best


def sample_fitting(
    game: Game, seat: int, view: dict[str, Any], rng: random.Random, expired: Callable[[], bool]
) -> Game:
    """A sampled world fitting the calls (and explaining the plays) as well as ``TRIES`` allow."""
    worth: Any = None
    bounds: list[Call] = []
    misreads: Callable[[Game, int], int] | None = None
    tries = TRIES
    if isinstance(game, PinochleGame) and view.get("phase") in ("bidding", "forced"):
        step = 10 if game.family != "double-deck" else int(getattr(game, "scale", 1))
        first = float(view.get("min_bid") or (300 if game.players == 3 else 100))
        worth = HandWorth(game)
        bounds = calls(view, seat, step, first)
    elif isinstance(game, PitchBase) and not view.get("widow_size"):
        worth = PitchWorth()
        bounds = calls(view, seat, 1, float(game.min_bid))
        if game.trumps is not None:
            misreads = _pitch_reader(seat)
    elif isinstance(game, PinochleGame) and game.phase is _PLAYING and (game.tricks or game.trick):
        reading = PINOCHLE_READING.get(game.name)
        if reading is not None:
            tries, window = reading
            misreads = _pinochle_reader(seat, window)
    if not bounds and misreads is None:
        return sample_world(game, seat, rng)
    best_world: Game | None = None
    best_miss = float("inf")
    for _ in range(tries):
        world = sample_world(game, seat, rng)
        miss = 0.0
        for call in bounds:
            miss += call.miss(worth(world.hand(call.seat)))
        if misreads is not None and miss < best_miss:
            # Only as many misreads as could still make this world the best are counted.
            limit = math.ceil((best_miss - miss) / MISREAD) if best_miss < float("inf") else 10**6
            miss += MISREAD * misreads(world, limit)
        if miss < best_miss:
            best_world, best_miss = world, miss
        if miss == 0 or expired():
            break
    assert best_world is not None
    fit = misreads is not None and game.name in PITCH_FIT
    if fit and best_miss > 0 and isinstance(best_world, PitchBase):
        fit_plays(best_world, seat, rng, _call_miss(worth, bounds), MISREAD)
    elif worth is not None and best_miss > 0 and can_swap(best_world):
        swap_to_fit(best_world, seat, {c.seat: (c.low, c.high) for c in bounds}, worth, rng)
    return best_world


def _call_miss(worth: Any, bounds: list[Call]) -> Callable[[int, list[Card]], float]:
    by_seat = {call.seat: call for call in bounds}

    def miss(other: int, hand: list[Card]) -> float:
        call = by_seat.get(other)
        return call.miss(float(worth(hand))) if call is not None else 0.0

    return miss


def _pitch_reader(seat: int) -> Callable[[Game, int], int]:
    def misreads(world: Game, limit: int) -> int:
        assert isinstance(world, PitchBase)
        return pitch_misreads(world, seat, limit)

    return misreads


def _pinochle_reader(seat: int, window: int) -> Callable[[Game, int], int]:
    def misreads(world: Game, limit: int) -> int:
        assert isinstance(world, PinochleGame)
        return pinochle_misreads(world, seat, limit, window)

    return misreads
