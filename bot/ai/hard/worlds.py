"""Sampled worlds: the game as one seat may imagine it (``Game.sample_world``)."""

from __future__ import annotations

import random
from typing import Any

from bot.engine import Game
from bot.engine.events import Phase


def sample_world(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` with every card ``seat`` cannot see re-dealt (``Game.sample_world``)."""
    sampler = getattr(game, "sample_world", None)
    if sampler is not None:
        try:
            world: Game = sampler(seat, rng)
        except NotImplementedError:
            pass
        else:
            return world
    return _shuffled_copy(game, seat, rng)


def _shuffled_copy(game: Game, seat: int, rng: random.Random) -> Game:
    """Stand-in until the engine samples worlds: the other hands (and undealt cards) shuffled
    together and dealt back in their sizes (no inference from voids)."""
    world: Any = game.copy()
    hands: list[list[Any]] = world.hands
    others = [s for s in range(len(hands)) if s != seat]
    pool = [card for s in others for card in hands[s]]
    undealt = getattr(world, "undealt", None)
    if isinstance(undealt, list):
        pool += undealt
    rng.shuffle(pool)
    start = 0
    for s in others:
        size = len(hands[s])
        hands[s] = pool[start : start + size]
        start += size
    if isinstance(undealt, list):
        world.undealt = pool[start:]
    dealt = getattr(world, "dealt", None)
    if isinstance(dealt, list) and hasattr(world, "tricks"):
        played: list[list[Any]] = [[] for _ in hands]
        for trick, _ in world.tricks:
            for s, card in trick:
                played[s].append(card)
        for s, card in world.trick:
            played[s].append(card)
        world.dealt = [hands[s] + played[s] for s in range(len(hands))]
    if getattr(world, "phase", None) in (Phase.PLAY, Phase.PLAYOFF) and hasattr(world, "by_suit"):
        world.start_strict_play()
    world.invalidate()
    out: Game = world
    return out
