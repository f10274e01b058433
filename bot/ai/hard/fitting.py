"""Double-deck auction worlds fitted to the calls by swapping cards: sampled hands almost never hold
the meld a bid stands for (bench/records/experiments.md#fitting), and during the auction nothing of
the other hands has been seen, so a short local search swaps cards between them until their worths
fit the calls."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.engine import Card, Game
from bot.engine.events import Phase
from bot.engine.pinochle.common import SORT_KEY
from bot.engine.pinochle.double_deck.game import DoubleDeck

SWAPS = 160
"""Card swaps tried per world at most."""


def can_swap(world: Game) -> bool:
    """Whether ``world``'s hidden hands may be rearranged freely: a double-deck auction with no meld told."""
    return (
        isinstance(world, DoubleDeck) and world.phase is Phase.BIDDING and all(t is None for t in world.told)
    )


def swap_to_fit(
    world: Game,
    seat: int,
    bounds: dict[int, tuple[float, float]],
    worth: Callable[[list[Card]], float],
    rng: random.Random,
) -> float:
    """Swap cards between the hands ``seat`` cannot see (``world`` changed in place; ``can_swap`` must
    hold) while their worths come closer to ``bounds`` (seat -> (low, high)); returns the miss left."""
    assert isinstance(world, DoubleDeck)
    hands = world.hands
    others = [s for s in range(len(hands)) if s != seat]
    values = {s: worth(hands[s]) for s in others}

    def miss(s: int, value: float) -> float:
        low, high = bounds.get(s, (float("-inf"), float("inf")))
        return max(0.0, low - value) + max(0.0, value - high)

    total = sum(miss(s, values[s]) for s in others)
    for _ in range(SWAPS):
        if total <= 0:
            break
        short = [s for s in others if miss(s, values[s]) > 0]
        a = rng.choice(short)
        b = rng.choice([s for s in others if s != a])
        i, j = rng.randrange(len(hands[a])), rng.randrange(len(hands[b]))
        hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
        va, vb = worth(hands[a]), worth(hands[b])
        change = miss(a, va) + miss(b, vb) - miss(a, values[a]) - miss(b, values[b])
        if change < 0:
            values[a], values[b] = va, vb
            total += change
        else:
            hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    for s in others:
        hands[s].sort(key=SORT_KEY.__getitem__)
    world.invalidate()  # the hands changed other than by an action: no kept legal moves or plans
    return total
