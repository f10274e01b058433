"""The computer-player interface and the registry of levels per game family.

A computer player decides from ``game.view(seat)`` and the seat's legal actions only, so it can
never see another seat's hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from bot.ai.claims import CLAIMS, claim_is_sound
from bot.engine import Action, Game


class Player(Protocol):
    """Anything that picks one of the legal actions from a seat's view."""

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action: ...


class RandomPlayer:
    """The fair floor every computer player must beat: a uniformly random legal action, except
    that it never makes an unsound claim. It declares out only when that wins, concedes or throws
    in only a deal already lost (``bot.ai.claims``), and always makes a sound claim at once (a
    claim that wins the game or saves chips is never worse than playing on)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        claims = [action for action in legal if action.kind in CLAIMS]
        if not claims:
            return self.rng.choice(legal)
        sound = [action for action in claims if claim_is_sound(view, action)]
        if sound:
            return sound[0]
        return self.rng.choice([action for action in legal if action.kind not in CLAIMS] or claims)


PlayerFactory = Callable[[int | None], Player]
_LEVELS: dict[str, dict[str, PlayerFactory]] = {}


def register_level(family: str, level: str, factory: PlayerFactory) -> None:
    """Make ``level`` available for every variant of ``family``."""
    _LEVELS.setdefault(family, {})[level] = factory


def levels(family: str) -> list[str]:
    """The computer levels available for a game family, weakest first (``random`` always exists)."""
    return ["random", *_LEVELS.get(family, {})]


def make_player(family: str, level: str = "basic", seed: int | None = None) -> Player:
    """A computer player of ``level`` for ``family``; raises ``ValueError`` for an unknown level."""
    if level == "random":
        return RandomPlayer(seed)
    factory = _LEVELS.get(family, {}).get(level)
    if factory is None:
        raise ValueError(
            f"no computer level {level!r} for {family}; choose one of: {', '.join(levels(family))}"
        )
    return factory(seed)


def decide(player: Player, game: Game, seat: int) -> Action:
    """Ask ``player`` for ``seat``'s move, showing it only what that seat may see."""
    legal = game.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    return player.choose(game.view(seat), legal)
