"""``basic`` as it stood on main 3908a88 (November 2026), before issue 15's fixes: a yardstick
for the fixed ``basic``.

``pitch.py``, ``pinochle.py`` and ``double_deck.py`` are verbatim copies of ``bot/ai/`` at that
commit except that they do not register themselves (this module registers them under ``LEVEL``
instead of ``basic``). Importing this module registers the level for every family; ``register``
does it again after a test has restored the registry.
"""

from __future__ import annotations

from bench.frozen.basic_2026_11.double_deck import DoubleDeckPlayer
from bench.frozen.basic_2026_11.pinochle import PinochlePlayer
from bench.frozen.basic_2026_11.pitch import PitchPlayer
from bot.ai.base import PlayerFactory, register_level

LEVEL = "basic-2026-11"
PLAYERS: dict[str, PlayerFactory] = {
    "pitch": PitchPlayer,
    "pinochle": PinochlePlayer,
    "double-deck": DoubleDeckPlayer,
}


def register() -> None:
    """Register ``LEVEL`` for every family (idempotent)."""
    for family, factory in PLAYERS.items():
        register_level(family, LEVEL, factory)


register()
