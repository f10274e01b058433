"""Sampled worlds: the game as one seat may imagine it (``Game.sample_world``)."""

from __future__ import annotations

import random

from bot.engine import Game


def sample_world(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` with every card ``seat`` cannot see re-dealt consistently with all it has seen."""
    return game.sample_world(seat, rng)
