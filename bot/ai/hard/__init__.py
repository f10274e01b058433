"""The ``hard`` computer level for every game family (``HardPlayer``), and the advice behind ``/hint``."""

from collections.abc import Callable

from bot.ai.base import register_level
from bot.ai.hard.player import DEFAULT_BUDGET, Advice, HardPlayer

FAMILIES = ("pitch", "pinochle", "double-deck")


def _factory(family: str) -> Callable[[int | None], HardPlayer]:
    def make(seed: int | None) -> HardPlayer:
        return HardPlayer(seed, family=family)

    return make


def register() -> None:
    """Add ``hard`` to every family's levels (after the basic ones: levels are listed weakest first)."""
    for family in FAMILIES:
        register_level(family, "hard", _factory(family))


__all__ = ["DEFAULT_BUDGET", "FAMILIES", "Advice", "HardPlayer", "register"]
