"""Inference from the auction: sampled worlds in which the other seats' hands fit their calls.

The engine's sampler keeps every world consistent with what was seen (meld shown, voids, passed
cards) but a bid is a statement about a hand, not a card: a seat that bid 300 rarely holds a hand
worth 150. Of a few sampled worlds the one whose hands fit the calls best is kept (a pinochle hand's
worth: its best meld plus its aces and trump length, on the scale of the bids), which is cheap and
moves the worlds the right way without demanding a formula the other players share.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bot.ai.hard.worlds import sample_world
from bot.engine import Card, Game, Rank, Suit
from bot.engine.meld import meld_total
from bot.engine.pinochle.common import PinochleGame

TRIES = 6
"""Worlds sampled per world kept."""


@dataclass(frozen=True)
class Call:
    """What a seat's calls say about its hand: worth at least ``low``, at most ``high``."""

    seat: int
    low: float
    high: float


def calls(view: dict[str, Any], seat: int, step: int) -> list[Call]:
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
                high[who] = top + step if top else float(view.get("min_bid") or step)
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


def sample_fitting(game: Game, seat: int, view: dict[str, Any], rng: random.Random) -> Game:
    """A sampled world whose other hands fit the auction's calls as well as ``TRIES`` allow."""
    if not isinstance(game, PinochleGame):
        return sample_world(game, seat, rng)
    step = 10 if game.family != "double-deck" else int(getattr(game, "scale", 1))
    bounds = calls(view, seat, step)
    if not bounds:
        return sample_world(game, seat, rng)
    worth = HandWorth(game)
    best_world: Game | None = None
    best_miss = float("inf")
    for _ in range(TRIES):
        world = sample_world(game, seat, rng)
        hands: list[list[Card]] = world.hands
        miss = 0.0
        for call in bounds:
            value = worth(hands[call.seat])
            miss += max(0.0, call.low - value) + max(0.0, value - call.high)
        if miss < best_miss:
            best_world, best_miss = world, miss
        if miss == 0:
            break
    assert best_world is not None
    return best_world
