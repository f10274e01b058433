"""Pitch card play: a sampled world's hands moved, card by card, toward explaining the plays made.

Of ``inference.TRIES`` fresh worlds only about four in ten explain every play the other seats made
(``reading.pitch_misreads``), though with the true deal all of ``basic``'s plays are explained.
Most unseen cards of a pitch deal lie undealt, so a hand that played otherwise than its holder
would have is usually one card away from a hand that explains it: this local search swaps a card of
such a hand with an unseen card elsewhere (another hidden hand, or the undealt cards) and keeps the
swap when the hands explain the plays (and fit the calls) no worse than before.
"""

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
    """Swap unseen cards in ``world`` (changed in place) while the other seats' hands explain their
    plays no worse (``misread`` a play not explained, plus ``miss_of_hand(seat, hand)`` for the
    calls); returns what is left unexplained. Only worlds with no discards or keep-list (the
    plain deal, where every unseen card is in a hand or undealt) are changed: for any other, -1."""
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
