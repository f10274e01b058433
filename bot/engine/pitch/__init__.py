"""Pitch: auction pitch for 2-7 players (with its house rules and the presets ``pitch-joker`` and
``pitch-smudge``), partnership pitch (Brian Gordon's rules) and ten-point pitch (``pitch-10``).
Spec: ``docs/rules/pitch.md``; the added variants: ``docs/rules/pitch-*.md``.

Importing this package registers every pitch variant.
"""

from bot.engine.pitch.auction import AuctionPitch, JokerPitch, SmudgePitch
from bot.engine.pitch.base import (
    AWARD_ORDER,
    GAME_VALUE,
    HAND_SIZE,
    POINT_VALUE,
    PitchBase,
    game_points,
)
from bot.engine.pitch.partnership import PartnershipPitch
from bot.engine.pitch.ten import TenPointPitch
from bot.engine.pitch.trumps import (
    HIGH_JOKER,
    JOKER,
    LOW_JOKER,
    SAME_COLOUR,
    STRENGTH,
    TrumpRules,
    Trumps,
    trick_winner,
)

__all__ = [
    "AWARD_ORDER",
    "GAME_VALUE",
    "HAND_SIZE",
    "HIGH_JOKER",
    "JOKER",
    "LOW_JOKER",
    "POINT_VALUE",
    "SAME_COLOUR",
    "STRENGTH",
    "AuctionPitch",
    "JokerPitch",
    "PartnershipPitch",
    "PitchBase",
    "SmudgePitch",
    "TenPointPitch",
    "TrumpRules",
    "Trumps",
    "game_points",
    "trick_winner",
]
