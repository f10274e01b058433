"""Pitch card play: a sampled world's hands moved, card by card, toward explaining the plays made.
Few fresh worlds explain every play (bench/records/experiments.md#pitch-fit), but most unseen cards lie
undealt, so a hand that played otherwise than its holder would have is usually one swap away from
one that explains it: swaps are kept while the hands explain the plays (and fit the calls) no worse."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.ai.hard.reading import pitch_misreads
from bot.engine import Card
from bot.engine.pitch import PitchBase
from bot.engine.pitch.worlds import revealed

SWAPS = 18
"""Swaps tried per world at most."""


def fit_plays(
    world: PitchBase,
    seat: int,
    rng: random.Random,
    miss_of_hand: Callable[[int, list[Card]], float],
    misread: float,
    *,
    swaps: int = SWAPS,
) -> float:
    """Swap unseen cards in ``world`` while its hands explain the plays (``misread`` each not) and fit the
    calls (``miss_of_hand``) no worse; what is left unexplained (-1: discards or a keep-list, left alone)."""
    hands = world.hands
    others = [s for s in range(world.players) if s != seat and hands[s]]
    if getattr(world, "kept", None) or any(getattr(world, "discards", None) or ()):
        return -1.0

    def cost(other: int) -> float:
        return misread * pitch_misreads(world, seat, 99, only=other) + miss_of_hand(other, hands[other])

    costs = {s: cost(s) for s in others}
    if not any(costs.values()):
        return 0.0
    played, forbidden = revealed(world)
    undealt = world.undealt
    changed: set[int] = set()
    for _ in range(swaps):
        wrong = [s for s in others if costs[s] > 0]
        if not wrong:
            break
        a = rng.choice(wrong)
        hand_a = hands[a]
        i = rng.randrange(len(hand_a))
        # Another place, by its size: one of the other hidden hands or the undealt cards.
        pick = rng.randrange(len(undealt) + sum(len(hands[s]) for s in others if s != a))
        b: int | None = None
        if pick >= len(undealt):
            pick -= len(undealt)
            for s in others:
                if s == a:
                    continue
                if pick < len(hands[s]):
                    b = s
                    break
                pick -= len(hands[s])
        place = undealt if b is None else hands[b]
        card_a, card_b = hand_a[i], place[pick]
        if card_b in forbidden[a] or (b is not None and card_a in forbidden[b]):
            continue
        hand_a[i], place[pick] = card_b, card_a
        after_a = cost(a)
        after_b = cost(b) if b is not None else 0.0
        before = costs[a] + (costs[b] if b is not None else 0.0)
        if after_a + after_b <= before:
            costs[a] = after_a
            changed.add(a)
            if b is not None:
                costs[b] = after_b
                changed.add(b)
        else:
            hand_a[i], place[pick] = card_a, card_b
    for s in changed:
        hands[s] = world.sort_cards(hands[s])
        world.dealt[s] = world.sort_cards(hands[s] + played[s])
    if changed:
        world.invalidate()
    return sum(costs.values())
