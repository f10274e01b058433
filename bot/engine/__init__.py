"""Trick Night's rules engine: pure, synchronous and deterministic (no Discord, no database).

>>> from bot.engine import new_game
>>> game = new_game("pitch", players=3, seed=7)
>>> seat = game.to_act[0]
>>> events = game.apply(seat, game.legal_actions(seat)[0])
"""

from bot.engine import pinochle as _pinochle  # noqa: F401  (registers the pinochle variants)
from bot.engine import pitch as _pitch  # noqa: F401  (registers the pitch variants)
from bot.engine.actions import PASS, Action, Kind, bid, parse_action, play
from bot.engine.cards import ALL_CARDS, Card, Rank, Suit, cards_text, make_deck, parse_cards
from bot.engine.errors import (
    BadAction,
    BadCard,
    BadGameRecord,
    BadOption,
    EngineError,
    IllegalAction,
    UnknownVariant,
)
from bot.engine.events import AnyEvent, Event, EventType, Phase
from bot.engine.game import Game, Outcome, find_variant, new_game, variant_names
from bot.engine.options import OptionSpec, parse_option_pairs

__all__ = [
    "ALL_CARDS",
    "PASS",
    "Action",
    "AnyEvent",
    "BadAction",
    "BadCard",
    "BadGameRecord",
    "BadOption",
    "Card",
    "EngineError",
    "Event",
    "EventType",
    "Game",
    "IllegalAction",
    "Kind",
    "OptionSpec",
    "Outcome",
    "Phase",
    "Rank",
    "Suit",
    "UnknownVariant",
    "bid",
    "cards_text",
    "find_variant",
    "make_deck",
    "new_game",
    "parse_action",
    "parse_cards",
    "parse_option_pairs",
    "play",
    "variant_names",
]
