"""Computer players. Each sees only its own seat's view (``Game.view(seat)``)."""

from bot.ai import double_deck as _double_deck  # noqa: F401  (registers the double-deck levels)
from bot.ai import pinochle as _pinochle  # noqa: F401  (registers the pinochle levels)
from bot.ai import pitch as _pitch  # noqa: F401  (registers the pitch levels)
from bot.ai.base import Player, RandomPlayer, decide, levels, make_player
from bot.ai.hard import register as _register_hard

_register_hard()  # after the basic levels: levels are listed weakest first

__all__ = ["Player", "RandomPlayer", "decide", "levels", "make_player"]
