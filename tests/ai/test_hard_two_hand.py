"""``hard`` in two-hand pinochle samples more worlds than the rest of its family."""

from __future__ import annotations

from bot.ai.hard import HardPlayer
from bot.ai.hard.player import CAPS
from bot.engine import new_game


def test_two_hand_samples_twice_the_worlds_of_the_family() -> None:
    hard = HardPlayer(1)
    two = hard.caps(new_game("pinochle-2", seed=1, options={"match": "deal"}))
    four = hard.caps(new_game("pinochle-4", seed=1, options={"match": "deal"}))
    assert four == CAPS["pinochle"]
    assert two == (2 * four[0], 2 * four[1])
    assert HardPlayer(1, samples=4, rollouts=24).caps(new_game("pinochle-2", seed=1)) == (4, 24)
