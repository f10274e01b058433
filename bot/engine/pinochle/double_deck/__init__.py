"""Double-deck partnership pinochle (80 cards) with every house rule of §8 as an option, and presets
bundling them. Spec: ``docs/rules/double-deck-pinochle.md``; the meld counter is
``bot.engine.meld`` (types I, II, III).

The package: ``game`` (class ``DoubleDeck``), ``options`` (the house rules as options) and
``presets`` (the registered variants); the meld tables live in ``bot.engine.meld.tables`` and the
bid ladder in ``bot.engine.pinochle.auction``. Importing this package registers every preset.
"""

from __future__ import annotations

from bot.engine.actions import ASK_OF, THROW_IN
from bot.engine.meld.tables import MELD_VALUES, STANDARD_VALUES, Values, double_deck_table
from bot.engine.pinochle.auction import TOP_BID, bid_ladder, ladder_actions
from bot.engine.pinochle.double_deck.game import (
    COUNTER_RANKS,
    HAND_SIZE,
    LAST_TRICK,
    MIN_SCORE,
    RANKS_80,
    TRICK_POINTS,
    DoubleDeck,
)
from bot.engine.pinochle.double_deck.options import OPTIONS, validate, with_defaults
from bot.engine.pinochle.double_deck.presets import PRESET_CLASSES, PRESETS, Preset

__all__ = [
    "ASK_OF",
    "COUNTER_RANKS",
    "HAND_SIZE",
    "LAST_TRICK",
    "MELD_VALUES",
    "MIN_SCORE",
    "OPTIONS",
    "PRESETS",
    "PRESET_CLASSES",
    "RANKS_80",
    "STANDARD_VALUES",
    "THROW_IN",
    "TOP_BID",
    "TRICK_POINTS",
    "DoubleDeck",
    "Preset",
    "Values",
    "bid_ladder",
    "double_deck_table",
    "ladder_actions",
    "validate",
    "with_defaults",
]
