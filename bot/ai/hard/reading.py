"""Inference from the play: how well a sampled world explains the cards the other seats played.

A world from ``Game.sample_world`` fits every hard fact seen (voids, cards played) but not the
choices behind the plays: a seat that ducked a trick it could have taken with a trump it "holds" in
the world probably holds no such trump. ``pitch_misreads`` replays the deal's plays in a pitch world
and counts those the other seats would not have made as ``basic`` plays, with the hands the world
gives them; of a few sampled worlds, search keeps the one with the fewest (``inference``). The model
is only a model: a world with misreads is still used when no better one turns up, so a player who
plays otherwise than ``basic`` is never ruled out.
"""

from __future__ import annotations

from bot.ai.hard.policy import pitch_context
from bot.ai.pitch import play_card
from bot.engine import Card
from bot.engine.pitch import PitchBase


def pitch_misreads(world: PitchBase, seat: int, limit: int) -> int:
    """How many plays of the deal so far by seats other than ``seat`` differ from ``basic``'s play
    with the hand ``world`` gives that seat at the time (counting stops at ``limit``). The pitch
    (the deal's first lead, which names trump) and plays with no choice are not counted."""
    if world.trumps is None or limit <= 0:
        return 0
    tricks = [plays for plays, _ in world.tricks]
    tricks.append(world.trick)
    hands = world.hands
    later: list[list[Card]] = [[] for _ in hands]
    sizes = [len(hand) for hand in hands]
    misses = 0
    for number in range(len(tricks) - 1, -1, -1):
        plays = tricks[number]
        for position in range(len(plays) - 1, -1, -1):
            other, card = plays[position]
            later[other].append(card)
            sizes[other] += 1
            if other == seat or (number == 0 and position == 0):
                continue
            hand = world.sort_cards(hands[other] + later[other])
            before = plays[:position]
            playable = world.playable_from(hand, before)
            if len(playable) <= 1:
                continue
            # The context reads the sizes as it is built and keeps nothing of the list.
            ctx = pitch_context(world, other, hand, [*tricks[:number], before], sizes)
            if play_card(ctx, playable, before) != card:
                misses += 1
                if misses >= limit:
                    return misses
    return misses
