"""Actions a seat can take, with one canonical text form used by logs, the terminal and Discord.

Text forms: ``pass``, ``bid 3``, ``play 10H``, ``trump H``, ``meld QS JD``, ``bury 9H 9C JD``,
``give 9H 9C JD``, ``declare-out``, ``concede``, ``throw-in``, ``exchange 9H``, ``ask H``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, unique

from bot.engine.cards import Card, Suit, parse_cards
from bot.engine.errors import BadAction, BadCard


@unique
class Kind(Enum):
    """What an action does. Variants use the subset they need."""

    PASS = "pass"
    BID = "bid"
    PLAY = "play"
    TRUMP = "trump"
    MELD = "meld"
    BURY = "bury"
    GIVE = "give"
    DECLARE_OUT = "declare-out"
    CONCEDE = "concede"
    THROW_IN = "throw-in"
    EXCHANGE = "exchange"
    ASK = "ask"


_NEEDS_AMOUNT = {Kind.BID}
_NEEDS_SUIT = {Kind.TRUMP, Kind.ASK}
_NEEDS_CARDS = {Kind.PLAY, Kind.MELD, Kind.BURY, Kind.GIVE, Kind.EXCHANGE}


@dataclass(frozen=True, slots=True)
class Action:
    """One decision: its kind plus the amount, suit or cards it names."""

    kind: Kind
    amount: int | None = None
    suit: Suit | None = None
    cards: tuple[Card, ...] = ()

    @property
    def card(self) -> Card:
        """The single card of a ``play`` or ``exchange``."""
        return self.cards[0]

    def __str__(self) -> str:
        if self.kind in _NEEDS_AMOUNT:
            return f"{self.kind.value} {self.amount}"
        if self.kind in _NEEDS_SUIT:
            assert self.suit is not None
            return f"{self.kind.value} {self.suit.value}"
        if self.kind in _NEEDS_CARDS:
            return f"{self.kind.value} " + " ".join(card.code for card in self.cards)
        return self.kind.value


_PLAYS: dict[Card, Action] = {}
PASS = Action(Kind.PASS)


def play(card: Card) -> Action:
    """The (interned) action of playing ``card``."""
    action = _PLAYS.get(card)
    if action is None:
        action = _PLAYS[card] = Action(Kind.PLAY, cards=(card,))
    return action


def bid(amount: int) -> Action:
    """A bid of ``amount``."""
    return Action(Kind.BID, amount=amount)


def parse_action(text: str) -> Action:
    """Parse the canonical text form of an action (case-insensitive)."""
    words = text.strip().split()
    if not words:
        raise BadAction("empty action: try 'pass', 'bid 2' or 'play 10H'")
    head, rest = words[0].lower(), words[1:]
    try:
        kind = Kind(head)
    except ValueError:
        valid = ", ".join(k.value for k in Kind)
        raise BadAction(f"unknown action {words[0]!r}: valid actions are {valid}") from None
    if kind in _NEEDS_AMOUNT:
        if len(rest) != 1 or not rest[0].lstrip("-").isdigit():
            raise BadAction(f"'{kind.value}' needs one number, e.g. '{kind.value} 3'")
        return Action(kind, amount=int(rest[0]))
    if kind in _NEEDS_SUIT:
        if len(rest) != 1:
            raise BadAction(f"'{kind.value}' needs one suit, e.g. '{kind.value} H'")
        return Action(kind, suit=Suit.parse(rest[0]))
    if kind in _NEEDS_CARDS:
        try:
            cards = parse_cards(rest)
        except BadCard as err:
            raise BadAction(str(err)) from None
        if not cards:
            raise BadAction(f"'{kind.value}' needs cards, e.g. '{kind.value} 10H'")
        if kind is Kind.PLAY:
            if len(cards) != 1:
                raise BadAction("'play' takes exactly one card, e.g. 'play 10H'")
            return play(cards[0])
        return Action(kind, cards=tuple(cards))
    if rest:
        raise BadAction(f"'{kind.value}' takes nothing after it")
    return Action(kind)
