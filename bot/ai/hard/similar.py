"""Cards that play alike: of touching cards of a suit that count the same, a seat need try only one."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.engine import Action, Card, Game, Kind
from bot.engine.pinochle.common import STRENGTH as PIN_STRENGTH
from bot.engine.pinochle.common import PinochleGame
from bot.engine.pitch import GAME_VALUE, STRENGTH, PitchBase


def distinct_plays(game: Game, view: dict[str, Any], options: list[Action]) -> list[Action]:
    """``options`` without plays equivalent to one kept (the highest of each run is kept)."""
    if any(a.kind is not Kind.PLAY for a in options):
        return options
    if isinstance(game, PinochleGame):
        if game.name == "pinochle-2" and view.get("phase") == "play":
            return options  # two-hand's stock phase: a card's meld value matters too
        points = game.points
        return _runs(options, _unseen(game, view), lambda c: PIN_STRENGTH[c], lambda c: points[c])
    if isinstance(game, PitchBase) and view.get("trump"):
        power = game.trumps.power if game.trumps is not None else {}

        def worth(card: Card) -> int:
            # Trumps (Low, Jack) and counting ranks are each their own: never grouped.
            if card in power or card.is_joker or GAME_VALUE.get(card.rank, 0):
                return 1000 + card.id
            return 0

        return _runs(options, _unseen(game, view), lambda c: STRENGTH[c.rank], worth)
    return options


def _unseen(game: Game, view: dict[str, Any]) -> Counter[Card]:
    """Cards of the pack not in the seat's hand and not yet played (a superset of what others hold)."""
    left = Counter(game.pack())
    left.subtract(Card.parse(code) for code in view["hand"])
    for trick in view.get("tricks") or ():
        left.subtract(Card.parse(p["card"]) for p in trick["plays"])
    left.subtract(Card.parse(p["card"]) for p in view.get("trick") or ())
    return left


def _runs(options: list[Action], unseen: Counter[Card], strength: Any, worth: Any) -> list[Action]:
    kept: list[Action] = []
    by_suit: dict[Any, list[Action]] = {}
    for action in options:
        by_suit.setdefault(action.cards[0].suit, []).append(action)
    for actions in by_suit.values():
        actions.sort(key=lambda a: -strength(a.cards[0]))
        previous: Card | None = None
        for action in actions:
            card = action.cards[0]
            if (
                previous is None
                or worth(card) != worth(previous)
                or _between(unseen, previous, card, strength)
            ):
                kept.append(action)
            previous = card
    return kept


def _between(unseen: Counter[Card], high: Card, low: Card, strength: Any) -> bool:
    """Whether an unseen card of the suit ranks strictly between ``high`` and ``low``."""
    top, bottom = strength(high), strength(low)
    return any(
        n > 0 and c.suit is high.suit and not c.is_joker and bottom < strength(c) < top
        for c, n in unseen.items()
    )
