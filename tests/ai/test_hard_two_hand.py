"""``hard`` takes its sampling caps per variant first, then per family."""

from __future__ import annotations

from bot.ai.hard import HardPlayer
from bot.ai.hard.player import CAPS
from bot.engine import new_game


def test_caps_are_per_variant_then_per_family() -> None:
    hard = HardPlayer(1)
    two = hard.caps(new_game("pinochle-2", seed=1, options={"match": "deal"}))
    four = hard.caps(new_game("pinochle-4", seed=1, options={"match": "deal"}))
    auction = hard.caps(new_game("pinochle-4-auction", seed=1, options={"match": "deal"}))
    six = hard.caps(new_game("pinochle-6", seed=1))
    assert four == auction == CAPS["pinochle-4"]
    assert two == CAPS["pinochle-2"] != four
    assert six == CAPS["pinochle"] != four  # no caps of its own: its family's
    assert HardPlayer(1, samples=4, rollouts=24).caps(new_game("pinochle-2", seed=1)) == (4, 24)
