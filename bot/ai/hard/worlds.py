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
    """Stand-in for a variant the engine cannot sample yet: every pile ``seat`` cannot see (the
    other hands; the widow until it is shown and cards buried by another seat, three-hand; the
    stock, two-hand; undealt cards) shuffled together and dealt back in their sizes. It keeps no
    inference (voids, shown meld), but it never leaves a hidden card where it really is."""
    world: Any = game.copy()
    piles: list[list[Any]] = [world.hands[s] for s in range(world.players) if s != seat]
    for name in _hidden_piles(world, seat):
        pile = getattr(world, name, None)
        if isinstance(pile, list):
            piles.append(pile)
    pool = [card for pile in piles for card in pile]
    rng.shuffle(pool)
    start = 0
    for pile in piles:
        size = len(pile)
        pile[:] = pool[start : start + size]
        start += size
    if getattr(world, "phase", None) in (Phase.PLAY, Phase.PLAYOFF) and hasattr(world, "by_suit"):
        world.start_strict_play()
    world.invalidate()
    out: Game = world
    return out


def _hidden_piles(world: Any, seat: int) -> list[str]:
    names = ["undealt", "stock"]
    if not getattr(world, "widow_shown", True):
        names.append("widow")
    if getattr(world, "bidder", seat) != seat:
        names.append("buried")
    return names
