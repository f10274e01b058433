"""Inference from the auction (and in pitch from the play): sampled worlds in which the other
seats' hands fit their calls and explain their plays.

The engine's sampler keeps every world consistent with what was seen (meld shown, voids, passed
cards) but a bid is a statement about a hand, not a card: a seat that bid 300 rarely holds a hand
worth 150. Of a few sampled worlds the one whose hands fit the calls best is kept (a pinochle hand's
worth: its best meld plus its aces and trump length, on the scale of the bids), which is cheap and
moves the worlds the right way without demanding a formula the other players share. In card play
each world also counts the plays it does not explain (``reading``: played otherwise than ``basic``
would, or in pinochle its fast policy, with the world's hands), each as a point of worth outside the
calls' bounds: over the same 500 pairs of 4-player pitch (seed 1) ``hard`` won 64.4% instead of
61.7%; pinochle's figures are beside ``PINOCHLE_READING``.
"""

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
hand worth outside the calls' bounds. Twice that changed 6 of the same 200 pairs (seed 1) in each
pitch game and no better: 4-player 67.2% -> 66.2% of pairs, -0.02 a deal [-0.04, +0.00];
partnership 66.5% -> 66.2%, +0.01 [-0.06, +0.07]."""


PITCH_FIT = frozenset({"pitch-partnership"})
"""Pitch variants whose card play moves the world kept toward explaining the plays (``pitch_fit``: of
the worlds kept in 4-player positions among ``basic`` seats, 76% explained every play instead of
39%, at about twice the sampling cost). Same deals with and without, 200 pairs each: partnership
pitch seed 1, 66.5% -> 69.2% of pairs, +0.08 a deal [-0.05, +0.20] (of the 29 pairs whose result
changed, 18 went its way); seed 2, 63.7% -> 66.0%, +0.12 [-0.03, +0.28] (22 of 36); CPU p99 0.38 ->
0.42 s a decision. Not enabled in 4-player pitch, where it measured no better: seed 1, 67.2% ->
66.0%, +0.04 [-0.04, +0.11] (22 of 45); seed 2, 62.7% -> 64.2%, +0.00 [-0.07, +0.07] (17 of 31); CPU
p99 0.37 -> 0.44-0.56 s. Plain best-of-24 worlds (61% explaining every play) measured no better
there either: seed 1, 67.2% -> 66.5%, +0.03 [-0.04, +0.09]."""


PINOCHLE_READING: dict[str, tuple[int, int]] = {"pinochle-4": (3, 99), "pinochle-4-auction": (3, 99)}
"""Pinochle card play, per variant: worlds sampled per world kept, and how many of the deal's last
tricks have their plays read (``reading.pinochle_misreads``). In pinochle-4, same 200 pairs (seed
1): 84.2% -> 89.0% of pairs, +5.47 a deal [+2.26, +8.69] (33 pairs changed, 22 its way), CPU p99
0.40 -> 0.45 s a decision (over 500 pairs 88.3% [85.2, 90.8], +32.0 a deal, CPU p99 0.49 s); two
worlds a world kept and the last four tricks read gave half of that (86.8%, +2.90 [+0.28, +5.52]),
five worlds no more (87.8%, -0.35 [-2.92, +2.22] against three, at a CPU p99 of 0.54 s). In the
partnership auction, whose contracts swing a deal by hundreds, 160 pairs (seed 1) could not tell:
85.0% -> 84.1% of pairs, +1.25 a deal [-9.48, +11.98] (CPU p99 0.69 -> 0.84 s), and with (2, 4)
83.8%, -5.31 [-17.01, +6.38]. Over the 500 pairs of seed 1 (each run beside another duel, against a
run of the same 500 pairs without it: 83.5% [80.0, 86.5], +64.6 a deal, CPU p99 0.81 s), 84.8%
[81.4, 87.7] of pairs, +72.0 a deal; +7.42 a deal [+1.55, +13.29] pair by pair (of the 75 pairs
whose result changed, 43 went its way), contracts made 452 of 476 instead of 450, CPU p99 0.96 s (at
most 0.98). Not enabled where it measured no better, same deals against the same code without it:
three-hand, 200 pairs, 68.2% -> 67.8%, +0.08 chips [-0.19, +0.35]; double-deck (3 s budget so that
the caps bind), 100 pairs, 68.0% -> 65.5%, -0.75 [-2.94, +1.44] (its ``basic`` plays otherwise than
the fast policy: the true deal leaves 5.5 plays unexplained where sampled worlds leave 7.2;
pinochle-4's 0.5 where they leave 1.9). Nor does the partnership auction's card play gain by fitting
its worlds to the calls (best of ``TRIES`` by a seat's shown meld, plus 15 an ace and 20 a card of
its longest suit beyond four, plus 130: weights under which the true deal fitted ``basic``'s calls
better than 9 in 12 sampled worlds): same 160 pairs (seed 1), 85.6% -> 80.9% of pairs, -2.4 a deal
[-16.7, +11.9] (10 of the 25 pairs whose result changed went its way), CPU p99 0.72 -> 0.88 s a
decision; fitted to the opponents' calls alone (a ``hard`` partner bids otherwise than ``basic``) in
best of 3, 83.1% and -6.1 a deal [-16.5, +4.4] (6 of 19 its way; ``basic``'s contracts made 79%
instead of 75%), CPU p99 0.75 s. Nor by reading the opponents' plays alone (the partner is ``hard``
in the bench, whose plays the fast policy does not model; among four ``basic`` seats the true deal
leaves 0.29 plays unexplained where sampled worlds leave 2.39, pinochle-4's 0.53 and 2.37), with (3,
99): same 160 pairs (seed 1), 85.0% (the same code as the 85.6% above, run again: the clock ends
some searches, so runs differ a little) -> 80.3%, -4.9 a deal [-16.6, +6.8] (5 of 16 its way), CPU
p99 0.68 -> 0.77 s."""
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
    """A pitch hand's rough worth in points as pitcher (its best suit: top trumps for High, the
    jack, a low trump for Low, length for Game), on the scale of the bids.

    Only rough: in the first trick of deals among four ``basic`` seats, the worlds kept fit the opponents'
    calls (the call ``basic`` would make with the world's hand, seat by seat) hardly better than plain
    samples. Per position, the opponents' calls that ``basic`` would not have made with the world's hands:
    0.76 in the worlds kept and 0.74 in plain samples (4-player), 0.49 and 0.56 (partnership); none in the
    true deal. Worlds that read each opponent's call with ``basic``'s own bidding (best of ``TRIES``, a
    call not made counted as ``MISREAD``; down to 0.33 and 0.06) measured no better, same 200 pairs (seed
    1) against the same code without it. Partnership pitch (base 69.2%, +0.9 a deal): in every decision
    (``pitch_fit``'s swaps weighing them too), 65.0%, -0.24 a deal [-0.43, -0.05] (20 of 49 changed pairs
    its way), CPU p99 0.41 -> 0.59 s; with the pitcher's first lead read too, 63.5%, -0.23 [-0.44, -0.03];
    in the calls and the pitch alone, 66.0%, -0.19 [-0.34, -0.04] (contracts made 84.5% instead of 87.1%,
    and in 15 of the 400 plays the same seat named another trump); in the pitch alone, 67.0%, -0.10
    [-0.19, -0.01]; in card play's choice of world alone, 69.0%, -0.04 [-0.16, +0.09]. 4-player pitch
    (base 67.2%, +0.3), card play alone: 64.5%, -0.01 [-0.07, +0.05] (14 of 37). So the calls and the
    pitch did better in worlds the calls bound only loosely (why is not known), and card play gained
    nothing. Yet no bounds at all (plain worlds in the calls and the pitch) was no better either, same 200
    pairs: 4-player pitch, seed 1, 67.2% -> 69.2%, +0.04 a deal [-0.01, +0.08] (10 of 15 its way), then
    seed 2, 62.7% -> 62.7%, +0.01 [-0.04, +0.05] (6 of 14); partnership pitch, seed 1, 69.2% -> 65.8%,
    -0.14 [-0.32, +0.04] (17 of 44)."""

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
    """A sampled world whose other hands fit the auction's calls (and, in card play, explain the
    plays made) as well as ``TRIES`` allow (fewer once ``expired()``)."""
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
